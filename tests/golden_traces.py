"""Golden traces: what every compiled policy plays, stored, so that a change which alters a result is seen.

For every rule preset x player count x compiled policy (docs/policies.md), ``tests/golden/traces.jsonl``
keeps:

- two deals' traces with the policy in seat 0 and greedy elsewhere, and one with the policy in every seat
  (clairvoyant against itself is not a deal it can play: it needs deterministic opponents);
- one whole match's traces (the match kernel, the rules' own target or 61);
- the column sums of a 64-deal batch (the batch kernel, the one `simdom run` plays), so a result that
  moves without moving these few traces is seen too.

The file's first line is its header, with the behaviour version (``SIM_VERSION``) it was written with.
tests/test_golden.py plays every case again and compares it exactly; a difference with an unchanged
``SIM_VERSION`` fails as a result changed without a new behaviour version. When a change of behaviour is
meant, raise ``SIM_VERSION`` (simdom/engine/api.py) and write the file anew::

    .venv/bin/python tests/golden_traces.py --write
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Iterator

from simdom.engine.api import SIM_VERSION, simulate_deals
from simdom.engine.matches import trace_match
from simdom.engine.state import trace
from simdom.policies import REGISTRY
from simdom.rules import PRESETS, preset

FILE = Path(__file__).with_name("golden") / "traces.jsonl"
SEED = 20261204
BATCH = 64
MATCH_TARGET = 61


def policies() -> list[str]:
    """Every compiled policy of the registry, by its default name."""
    return [name for name in REGISTRY]


def groups() -> list[tuple[str, int]]:
    """(preset, players): the unit one test plays (all policies of it)."""
    return [(p, n) for p in PRESETS for n in (2, 3, 4)]


def _seatings(policy: str, players: int) -> Iterator[tuple[str, list[str], int]]:
    alone = [policy] + ["greedy"] * (players - 1)
    yield "alone", alone, 0
    yield "alone", alone, 1
    if policy != "clairvoyant":
        yield "all", [policy] * players, 2


def cases(preset_name: str, players: int) -> Iterator[dict[str, Any]]:
    """Every stored case of one (preset, players), played now."""
    rules = preset(preset_name, players)
    target = rules.target if rules.target else MATCH_TARGET
    match_rules = preset(preset_name, players, target=target)
    for pol in policies():
        for seating, seats, deal in _seatings(pol, players):
            yield {"case": f"{preset_name}/{players}/{pol}/{seating}/deal {deal}",
                   "trace": trace(rules, seats, SEED, deal)}
        seats = [pol] + ["greedy"] * (players - 1)
        yield {"case": f"{preset_name}/{players}/{pol}/alone/match 0 to {target}",
               "trace": trace_match(match_rules, seats, SEED, 0)}
        b = simulate_deals(rules, seats, SEED, 0, BATCH)
        sums = {f"seats.{k}": [int(x) for x in v.sum(axis=0)] for k, v in b.seats.items()}
        sums.update({f"deals.{k}": int(v.astype("int64").sum()) for k, v in b.deals.items()})
        yield {"case": f"{preset_name}/{players}/{pol}/alone/batch of {BATCH}", "sums": sums}


def header() -> dict[str, Any]:
    return {"sim_version": SIM_VERSION, "seed": SEED, "batch": BATCH, "policies": policies(),
            "groups": [f"{p}/{n}" for p, n in groups()]}


def read() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The stored header and the stored cases by name."""
    with FILE.open(encoding="utf-8") as fh:
        head = json.loads(fh.readline())
        stored = {}
        for line in fh:
            c = json.loads(line)
            stored[c.pop("case")] = c
    return head, stored


def first_change(stored: dict[str, dict[str, Any]], case: dict[str, Any]) -> str | None:
    """What differs between a case played now and the stored one of its name (None: equal, or not stored)."""
    old = stored.get(case["case"])
    if old is None:
        return None
    now = {k: v for k, v in case.items() if k != "case"}
    if old == now:
        return None
    if "sums" in now:
        cols = [k for k in now["sums"] if old.get("sums", {}).get(k) != now["sums"][k]]
        return f"{case['case']}: column sums differ in {', '.join(cols) or 'the columns kept'}"
    a, b = old["trace"], now["trace"]
    a, b = (a, b) if isinstance(a, list) else ([a], [b])
    for i, (x, y) in enumerate(zip(a, b)):
        for key in y:
            if x.get(key) != y.get(key):
                return f"{case['case']}: deal {i} of the case, field {key!r} differs"
    return f"{case['case']}: {len(a)} deals stored, {len(b)} played now"


def write() -> int:
    """Write the file anew; refused while a stored case of the same behaviour version plays otherwise."""
    head, stored = read() if FILE.exists() else ({}, {})
    same = head.get("sim_version") == SIM_VERSION
    out = []
    for p, k in groups():
        for c in cases(p, k):
            change = first_change(stored, c) if same else None
            if change:
                raise SystemExit(f"refused: {change}, and the behaviour version is still {SIM_VERSION}; raise "
                                 "SIM_VERSION in simdom/engine/api.py first")
            out.append(c)
    return write_lines(FILE, header(), out)


def write_lines(path: Path, head: dict[str, Any], rows: list[dict[str, Any]]) -> int:
    """A golden file: its header line, then one JSON line a case, written whole or not at all. Returns how
    many cases."""
    path.parent.mkdir(exist_ok=True)
    lines = [json.dumps(x, separators=(",", ":")) for x in (head, *rows)]
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)
    return len(rows)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="write tests/golden/traces.jsonl anew")
    if not ap.parse_args().write:
        ap.print_help()
        sys.exit(2)
    print(f"wrote {write()} cases (behaviour version {SIM_VERSION}) to {FILE}")
