"""The board: one SVG drawing of a deal's layout (docs/table.md), used by ``simdom table`` and by the
static pages of ``simdom review -o review.html`` and ``simdom replay ... -o replay.html``.

The drawing is geometry only: the rules live in the engine. :func:`layout_of` reads what a
:class:`~simdom.engine.state.DealState` says (its placements in order, its open ends and their values,
the counted ends and their sum, the deal's first double, whether the spinner's arms hold a tile) through
its public methods (duck-typed: this module imports nothing of the engine), and :func:`board_svg` draws
it: the line (the lead in the middle, the L arm to the left, the R arm to the right), the spinner (the
first double under a ``first_double`` spinner rule, drawn across the line) with its U arm up and its D
arm down, every open end with its value, and the counted ends' sum. Each tile is drawn with its inner
half (the one that touches the layout) toward the lead. Pips up to 9, numbers above.

In the SVG: ``g.tile`` per placement (``data-move``, ``data-tile``, ``data-arm``: L, R, U, D relative
to the spinner, or ``lead``/``spinner``), ``g.end`` per open end (``data-end``, ``data-value``), and
``text.sum`` (``data-sum``, ``data-counted``), so pages and tests can read the picture back.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from .tiles import halves, parse_tile

#: a tile's short side in SVG units
U = 24
PIPS = {0: [], 1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
        7: [(-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1)],
        8: [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
        9: [(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)]}


@dataclass
class Layout:
    """What the board draws: the placements (tile index, end label) in order, the open ends and their
    values, the counted ends (k, S), the move number of the spinner (None: no spinner) and the rules'
    highest pip."""

    max_pip: int
    plays: list[tuple[int, str]] = field(default_factory=list)
    ends: dict[str, int] = field(default_factory=dict)
    counted: tuple[int, int] | None = None
    spinner_move: int | None = None
    arms_used: tuple[bool, bool] = (False, False)


def layout_of(st: Any) -> Layout:
    """The layout of a DealState (or anything with its public methods), as it stands."""
    mp = st.rules.max_pip
    plays = [(parse_tile(a["tile"], mp), a["end"]) for a in st.actions if a["act"] == "play"]
    spin = None
    fd = st.first_double
    if fd is not None and str(st.rules.spinner) == "first_double":
        spin = fd[0]
    counted = st.counted() if plays else None
    return Layout(mp, plays, dict(st.ends()) if plays else {}, counted, spin, tuple(st.arms_used()))


def layout_from_plays(max_pip: int, plays: list[tuple[str, str]], ends: dict[str, int],
                      counted: tuple[int, int] | None, spinner_move: int | None) -> Layout:
    """A layout from tile names (for pages that hold a record, not a state)."""
    return Layout(max_pip, [(parse_tile(t, max_pip), e) for t, e in plays], ends, counted, spinner_move)


@dataclass
class _Tile:
    move: int
    tile: int
    arm: str
    x: float          # centre
    y: float
    vertical: bool    # long side vertical
    first: int        # value drawn at the top (vertical) or the left (horizontal)
    second: int


def _place(lay: Layout) -> tuple[list[_Tile], dict[str, tuple[float, float]]]:
    """Every tile's centre and orientation, and the outer point of each arm (where its end is drawn)."""
    A, B = halves(lay.max_pip)
    tiles: list[_Tile] = []
    if not lay.plays:
        return tiles, {}
    val: dict[str, int] = {}
    edge: dict[str, float] = {}      # L, R: x of the arm's outer edge; U, D: y
    spin_x = None
    t0, e0 = lay.plays[0]
    a, b = int(A[t0]), int(B[t0])
    double = a == b
    w = U if double else 2 * U
    is_spin = lay.spinner_move == 1
    tiles.append(_Tile(1, t0, "spinner" if is_spin else "lead", 0, 0, double, a, b))
    edge["L"], edge["R"] = -w / 2, w / 2
    val["L"], val["R"] = a, b
    if is_spin:
        spin_x = 0.0
        val["U"] = val["D"] = a
        edge["U"], edge["D"] = -U, U
    for i, (t, e) in enumerate(lay.plays[1:], start=2):
        a, b = int(A[t]), int(B[t])
        v = val.get(e, a)
        inner, outer = (a, b) if a == v else (b, a)
        double = a == b
        if e in ("L", "R"):
            w = U if double else 2 * U
            sign = -1 if e == "L" else 1
            x = edge[e] + sign * w / 2
            edge[e] += sign * w
            first, second = (outer, inner) if e == "L" else (inner, outer)
            if i == lay.spinner_move:
                spin_x = x
                val["U"] = val["D"] = a
                edge["U"], edge["D"] = -U, U
            arm = e
            tiles.append(_Tile(i, t, arm, x, 0, double, first, second))
        else:  # U, D: vertical arms at the spinner
            h = U if double else 2 * U
            sign = -1 if e == "U" else 1
            y = edge.get(e, sign * U) + sign * h / 2
            edge[e] = edge.get(e, sign * U) + sign * h
            first, second = (outer, inner) if e == "U" else (inner, outer)
            tiles.append(_Tile(i, t, e, spin_x or 0.0, y, not double, first, second))
        val[e] = outer
    if lay.spinner_move is not None and lay.spinner_move <= len(lay.plays):
        for tl in tiles:
            if tl.move == lay.spinner_move:
                tl.arm = "spinner"
            elif tl.arm in ("L", "R", "lead") and spin_x is not None:
                tl.arm = "L" if tl.x < spin_x else "R"
    points = {"L": (edge["L"], 0.0), "R": (edge["R"], 0.0)}
    if spin_x is not None:
        points["U"] = (spin_x, edge.get("U", -U))
        points["D"] = (spin_x, edge.get("D", U))
    return tiles, points


def _tile_svg(t: _Tile, max_pip: int, last: bool) -> str:
    from .tiles import tile_name
    w, h = (U, 2 * U) if t.vertical else (2 * U, U)
    x0, y0 = t.x - w / 2, t.y - h / 2
    cls = "tile last" if last else "tile"
    out = [f'<g class="{cls}" data-move="{t.move}" data-tile="{tile_name(t.tile, max_pip)}" data-arm="{t.arm}">',
           f'<title>move {t.move}: {tile_name(t.tile, max_pip)}</title>',
           f'<rect x="{x0:g}" y="{y0:g}" width="{w:g}" height="{h:g}" rx="3" class="face"/>']
    if t.vertical:
        out.append(f'<line x1="{x0 + 3:g}" y1="{t.y:g}" x2="{x0 + w - 3:g}" y2="{t.y:g}" class="bar"/>')
        halves_at = [(t.x, t.y - U / 2, t.first), (t.x, t.y + U / 2, t.second)]
    else:
        out.append(f'<line x1="{t.x:g}" y1="{y0 + 3:g}" x2="{t.x:g}" y2="{y0 + h - 3:g}" class="bar"/>')
        halves_at = [(t.x - U / 2, t.y, t.first), (t.x + U / 2, t.y, t.second)]
    for cx, cy, v in halves_at:
        if v in PIPS and max_pip <= 9:
            for dx, dy in PIPS[v]:
                out.append(f'<circle cx="{cx + dx * U * 0.27:g}" cy="{cy + dy * U * 0.27:g}" r="{U * 0.09:g}" '
                           'class="pip"/>')
        else:
            out.append(f'<text x="{cx:g}" y="{cy + U * 0.18:g}" class="num">{v}</text>')
    out.append("</g>")
    return "".join(out)


STYLE = (".face{fill:#fffdf6;stroke:#333;stroke-width:1.2}.last .face{fill:#fff3b0}.bar{stroke:#888;"
         "stroke-width:1}.pip{fill:#222}.num{font:bold 12px sans-serif;text-anchor:middle;fill:#222}"
         ".end circle{fill:#dbeafe;stroke:#1d4ed8}.end text{font:bold 11px sans-serif;text-anchor:middle;"
         "fill:#1e3a8a}.end.uncounted circle{fill:#f3f4f6;stroke:#9ca3af;stroke-dasharray:3 2}"
         ".end.uncounted text{fill:#6b7280;font-weight:normal}.sum{font:13px sans-serif;fill:#111}")


def board_svg(lay: Layout, title: str = "") -> str:
    """The board as one ``<svg>`` element (inline styles; no script, no network)."""
    tiles, points = _place(lay)
    parts: list[str] = []
    for i, t in enumerate(tiles):
        parts.append(_tile_svg(t, lay.max_pip, i == len(tiles) - 1))
    xs = [t.x for t in tiles] + [p[0] for p in points.values()] + [0]
    ys = [t.y for t in tiles] + [p[1] for p in points.values()] + [0]
    R = U * 0.62
    for e, v in lay.ends.items():
        if e not in points:
            continue
        px, py = points[e]
        off = {"L": (-R - 2, 0), "R": (R + 2, 0), "U": (0, -R - 2), "D": (0, R + 2)}[e]
        cx, cy = px + off[0], py + off[1]
        xs.append(cx)
        ys.append(cy)
        used = e in ("L", "R") or lay.arms_used["UD".index(e)]
        note = "" if used else " (an empty arm of the spinner: not counted until a tile is placed on it)"
        parts.append(f'<g class="end{"" if used else " uncounted"}" data-end="{e}" data-value="{v}" '
                     f'data-used="{int(used)}"><title>open end {e}: {v}{note}</title>'
                     f'<circle cx="{cx:g}" cy="{cy:g}" r="{R:g}"/><text x="{cx:g}" y="{cy + 4:g}">{e} {v}</text></g>')
    if lay.plays:
        k, s = lay.counted if lay.counted is not None else (0, 0)
        shown = " + ".join(f"{e} {v}" for e, v in lay.ends.items())
        text = f"open ends {shown}; counted: {k} ends, sum {s}"
    else:
        text = "nothing placed yet"
    pad = 2 * U
    x0, x1 = min(xs) - pad, max(xs) + pad
    x1 = max(x1, x0 + U + 7.5 * len(text))   # room for the line of text (13 px sans-serif)
    y0, y1 = min(ys) - pad, max(ys) + pad + U
    parts.append(f'<text x="{x0 + U / 2:g}" y="{y1 - U / 2:g}" class="sum" data-sum="'
                 f'{lay.counted[1] if lay.counted else ""}" data-counted="{lay.counted[0] if lay.counted else ""}">'
                 f'{html.escape(text)}</text>')
    w, h = x1 - x0, y1 - y0
    label = html.escape(title or "the layout")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{x0:g} {y0:g} {w:g} {h:g}" '
            f'width="{1.5 * w:g}" height="{1.5 * h:g}" style="max-width:100%;height:auto" role="img" aria-label="{label}">'
            f"<style>{STYLE}</style>" + "".join(parts) + "</svg>")


def state_svg(st: Any, title: str = "") -> str:
    """:func:`board_svg` of a DealState as it stands."""
    return board_svg(layout_of(st), title)
