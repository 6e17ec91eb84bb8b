"""`simdom solve`'s answer: the exact value of every legal move of a position (simdom.engine.solver),
the verdict in a sentence, then the table; machines get the JSON object of docs/analysis.md."""
from __future__ import annotations

from typing import Any, Sequence

from .. import present as P
from ..engine.solver import DEFAULT_LIMIT, Solution, Solver
from ..tiles import tile_name
from .position import Position


#: simdom solve --limit (and the library's limit) at most: about ten minutes of search on one core
MAX_LIMIT = 2_000_000_000


def check_limit(limit: "int | None", cli: bool = False) -> None:
    """The most positions to search, one home for simdom solve and the library (None: no limit, the
    library's only)."""
    from ..present import bounded
    if limit is not None or cli:
        bounded("limit", limit, 1, MAX_LIMIT, cli=cli, note=" positions" + ("" if cli else ", or None (no limit)"))


def solve_position(pos: Position, *, by: str = "margin", against: "Sequence[str] | None" = None,
                   limit: int = DEFAULT_LIMIT) -> Solution:
    """The exact values of the position's legal moves (every hand and the boneyard known)."""
    check_limit(limit)
    against_arg: Any = None if not against else (against[0] if len(against) == 1 else list(against))
    return Solver(pos.rules).solve(pos.state, by=by, against=against_arg, limit=limit)


def _move(pos: Position, tile: int, end) -> str:
    name = tile_name(tile, pos.rules.max_pip)
    return f"{name} as the lead" if end.label == "lead" else f"{name} on {end.label}"


def solve_answer(pos: Position, sol: Solution) -> P.Answer:
    """``Exact: 1-1 on L, margin +8; 1-5 on L, margin -4.``, what was solved, then the moves best first."""
    unit = "margin" if sol.by == "margin" else "points"
    sign = sol.by == "margin"

    def val(v: int) -> str:
        return f"{v:+d}" if sign else f"{v:d}"

    parts = [f"{_move(pos, m.tile, m.end)}, {unit} {val(m.value)}" for m in sol.moves[:2]]
    more = len(sol.moves) - 2
    head = "Exact: " + "; ".join(parts) + (f"; {more} more below" if more > 0 else "") + "."
    if len(sol.moves) == 1:
        head = f"Exact: {_move(pos, sol.moves[0].tile, sol.moves[0].end)} is the only legal move, {unit} " \
               f"{val(sol.value)}."
    who = ("every other seat minimises it (minimax)" if sol.against is None else
           "the other seats playing " + ", ".join(dict.fromkeys(p for s, p in enumerate(sol.against) if s != sol.seat)))
    what = ("its deal total minus the highest other side's total, end bonus included" if sol.by == "margin"
            else "its own deal total")
    context = (f"Seat {sol.seat} to act at move {sol.move} of {pos.deal.label}, every hand and the boneyard known: "
               f"the value of each move is the {unit} ({what}) when seat {sol.seat}'s side maximises it and "
               f"{who}; {sol.nodes:,} positions searched in {sol.seconds:.2f} s.")
    played = pos.played
    rows = []
    for m in sol.moves:
        mark = played is not None and (m.tile, m.end) == played
        rows.append({"move": f"{tile_name(m.tile, pos.rules.max_pip)} {m.end.label}" + (" *" if mark else ""),
                     "value": m.value, "vs_best": m.value - sol.value})
    cols = [P.Col("move"), P.Col("value", kind="int"), P.Col("vs_best", "vs best", kind="int")]
    ans = P.Answer([head, context], [P.Table(f"exact {unit} of each move", rows, cols)])
    if played is not None:
        ans.notes.append("* the move the deal went on to play")
    ans.data = to_json(pos, sol)
    return ans


def to_json(pos: Position, sol: Solution) -> dict[str, Any]:
    mp = pos.rules.max_pip
    return {"seat": sol.seat, "move": sol.move, "by": sol.by, "value": sol.value,
            "against": list(sol.against) if sol.against is not None else None,
            "moves": [{"tile": tile_name(m.tile, mp), "end": m.end.label, "value": m.value} for m in sol.moves],
            "nodes": sol.nodes, "seconds": round(sol.seconds, 6)}
