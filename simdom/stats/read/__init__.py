"""Reading a results folder: each part checked once, then lazy polars frames over its rows."""
