"""The exact equilibrium of small 2-player versions: CFR+ over the engine's game tree (docs/equilibrium.md)."""
