"""Golden solver values: every legal move's exact value in whole deals from the lead, stored, so that a change
to the solver which alters a value is seen on full-size deals, where brute force cannot go.

An exact value is a property of the rules, not of the solver's search: the bounds, the table, the move
order and the equivalences (docs/speed.md) change how many positions a solve visits, never a value. So,
unlike the golden traces, these values do not move with the behaviour version; only a change of a preset's
rules could move them. ``tests/golden/solve.jsonl`` keeps, for the deals of ``bench/bench_solve.py``
(seed 1, from the lead), minimax by margin:

- every preset with 2 players (40 deals), 3 players (10) and 4 players (20; 4-player Fives, whose deals take
  seconds, 2);
- by points and against greedy (the clairvoyant player's and the skill measure's solves), 2 players, 10
  deals of each preset.

tests/test_golden.py solves every case again and compares it exactly. The file was written by the solver
of behaviour version 11 (which brute force checks on small sets: tests/test_solve.py), and its values were
checked against the solver of 2026-12-03, before issue 44's techniques (docs/speed.md, "The solver's
values pinned"). Write the file anew only for a change of the rules themselves::

    .venv/bin/python tests/golden_solve.py --write
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Iterator

from simdom.engine.api import SIM_VERSION
from simdom.engine.solver import Solver
from simdom.engine.state import DealState
from simdom.rules import PRESETS, preset
from simdom.tiles import tile_name

FILE = Path(__file__).with_name("golden") / "solve.jsonl"
SEED = 1


def groups() -> list[tuple[str, int]]:
    """(preset, players): the unit one test solves."""
    return [(p, n) for p in PRESETS for n in (2, 3, 4)]


def deals(preset_name: str, players: int) -> int:
    if players == 2:
        return 40
    if players == 3:
        return 10
    return 2 if preset_name == "fives" else 20


#: (by, against) of the cases: minimax by margin everywhere; by points and against greedy with 2 players
MODES = (("margin", None), ("points", None), ("margin", "greedy"))


def cases(preset_name: str, players: int) -> Iterator[dict[str, Any]]:
    """Every stored case of one (preset, players), solved now: one line a deal and mode."""
    rules = preset(preset_name, players)
    solver = Solver(rules)
    for by, against in MODES:
        if (by, against) != ("margin", None) and players != 2:
            continue
        n = deals(preset_name, players) if (by, against) == ("margin", None) else 10
        for d in range(n):
            sol = solver.solve(DealState.dealt(rules, SEED, d), by=by, against=against, limit=None)
            mode = by + (f" against {against}" if against else "")
            yield {"case": f"{preset_name}/{players}/{mode}/deal {d}",
                   "values": {f"{tile_name(m.tile, rules.max_pip)} {m.end.label}": m.value for m in sol.moves}}


def header() -> dict[str, Any]:
    return {"written_at_sim_version": SIM_VERSION, "seed": SEED, "groups": [f"{p}/{n}" for p, n in groups()]}


def read() -> tuple[dict[str, Any], dict[str, dict[str, int]]]:
    """The stored header and the stored values by case name."""
    with FILE.open(encoding="utf-8") as fh:
        head = json.loads(fh.readline())
        return head, {c["case"]: c["values"] for c in map(json.loads, fh)}


def first_change(stored: dict[str, dict[str, int]], case: dict[str, Any]) -> str | None:
    """What differs between a case solved now and the stored one (None: equal)."""
    old = stored.get(case["case"])
    if old is None:
        return f"{case['case']}: not stored"
    now = case["values"]
    if old == now:
        return None
    if set(old) != set(now):
        return f"{case['case']}: the legal moves differ ({sorted(set(old) ^ set(now))[0]})"
    move = next(m for m in now if old[m] != now[m])
    return f"{case['case']}: move {move} is worth {now[move]}, stored {old[move]}"


def write() -> int:
    from golden_traces import write_lines
    return write_lines(FILE, header(), [c for p, n in groups() for c in cases(p, n)])


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="write tests/golden/solve.jsonl anew")
    if not ap.parse_args().write:
        ap.print_help()
        sys.exit(2)
    print(f"wrote {write()} cases to {FILE}")
