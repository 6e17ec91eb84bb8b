"""Position analysis: a deal up to a move (position.py), every legal move valued by rollouts with common
random numbers and a stopping rule (evaluate.py), the verdict and tables (render.py). `simdom analyze`."""
