"""run/pool.py (workers forked after the kernel is loaded) against joblib's loky (workers spawned
fresh): wall time of `simdom run` on 2 workers, small runs (where start-up dominates) and a larger one.

    .venv/bin/python bench/pool_vs_loky.py [--repeats 5]

The figures are written in run/pool.py's docstring: they are why the fork pool stays."""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from simdom.run import runner
from simdom.run.scenario import load


def _once(scenario: str, deals: int, fork: bool) -> tuple[float, float]:
    saved = runner._fork_available
    runner._fork_available = (lambda: True) if fork else (lambda: False)
    try:
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            runner.run(load(scenario).replace(deals=deals), Path(d) / "out", workers=2)
            wall = time.perf_counter() - t0
            session = json.loads((Path(d) / "out" / "manifest.json").read_text())["last_session"]
            return wall, session["first_chunk_seconds"]
    finally:
        runner._fork_available = saved


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    for scenario, deals in (("scenarios/default.toml", 20_000), ("scenarios/default.toml", 2_000_000)):
        runs: dict[bool, list] = {True: [], False: []}
        for r in range(a.repeats):  # ABBA: the two take turns, so a load that drifts hits both alike
            for fork in ((True, False) if r % 2 == 0 else (False, True)):
                runs[fork].append(_once(scenario, deals, fork))
        for fork in (True, False):
            walls, firsts = zip(*runs[fork])
            print(f"{'fork pool' if fork else 'loky     '} {deals:>9,} deals: wall median "
                  f"{statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f}), first chunk "
                  f"{statistics.median(firsts):.2f} s", flush=True)

if __name__ == "__main__":
    main()
