"""The tables of `simdom stats`, `seats`, `doubles` and `compare` (polars frames of estimates)."""
