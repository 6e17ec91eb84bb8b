"""simdom: simulation and statistics for the domino scoring games Threes and Fives."""
__version__ = "0.1.0"
