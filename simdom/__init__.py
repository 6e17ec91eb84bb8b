"""simdom."""
