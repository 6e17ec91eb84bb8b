"""Examples shipped with simdom: Python policies (policies.py), docs/policies.md."""
