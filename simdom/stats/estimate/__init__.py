"""Estimates over the rows: cluster sums and moments, distributions, paired families of arms."""
