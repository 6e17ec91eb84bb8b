"""Tile notation: tiles are small integers, written low half first (``3-6``).

Index order (the same as ../shared/bench/limit): 0-0, 0-1 .. 0-m, 1-1, 1-2 .. m-m.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np


def n_tiles(max_pip: int) -> int:
    return (max_pip + 1) * (max_pip + 2) // 2


@lru_cache(maxsize=None)
def halves(max_pip: int) -> tuple[np.ndarray, np.ndarray]:
    """Arrays (a, b) with a <= b for every tile index."""
    a = [x for x in range(max_pip + 1) for y in range(x, max_pip + 1)]
    b = [y for x in range(max_pip + 1) for y in range(x, max_pip + 1)]
    return np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)


def tile_index(a: int, b: int, max_pip: int) -> int:
    if a > b:
        a, b = b, a
    if not 0 <= a <= b <= max_pip:
        raise ValueError(f"tile {a}-{b} is not in the double-{max_pip} set")
    # tiles before row a: sum_{x<a} (max_pip + 1 - x)
    return a * (max_pip + 1) - a * (a - 1) // 2 + (b - a)


def tile_name(t: int, max_pip: int) -> str:
    a, b = halves(max_pip)
    return f"{a[t]}-{b[t]}"


def parse_tile(text: str, max_pip: int, *, strict_order: bool = False) -> int:
    """Parse ``"3-6"``: a tile is one tile whichever half is written first (``6-3`` is ``3-6``); with
    ``strict_order`` (simdom's own records, which write it low half first) ``6-3`` is refused."""
    parts = str(text).strip().split("-")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() and len(p.strip()) <= 3
                                  for p in parts):
        shown = repr(text) if len(str(text)) <= 40 else repr(str(text)[:35]) + " ..."
        raise ValueError(f"{shown} is not a tile: write it as A-B with 0 <= A <= B <= {max_pip}, e.g. 3-6")
    a, b = int(parts[0]), int(parts[1])
    if strict_order and a > b:
        raise ValueError(f"tile {text!r} must be written low half first: {b}-{a}")
    if max(a, b) > max_pip:
        raise ValueError(f"tile {text!r} is not in the double-{max_pip} set (halves 0..{max_pip})")
    return tile_index(a, b, max_pip)
