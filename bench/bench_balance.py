"""Speed of a designer's study (issue 41.5): 24 rule variants (the first-double bonus x0, x1/2, x1, x2, x3,
x4 crossed with min_ends 1 to 4) at 2, 3 and 4 greedy players, every deal with rotation, `simdom run` on
2 workers and then `simdom balance` on the study folder (target: both together in under 3 minutes at
100,000 deals). Wall-clock seconds of each command, and the machine's load average before and after (the
machine may be shared: the target is for the machine alone). Every measure of the scorecard is included:
the tension, decision and draw measures come from the course table (`simdom run --course`).

    .venv/bin/python bench/bench_balance.py [--deals 100000]

Prints a readable line and a JSON line.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIMDOM = str(Path(sys.executable).with_name("simdom"))
SCENARIO = """name = "bench-balance"
players = 2
policies = "greedy"
rotation = true
deals = 1000
seed = 41
[rules]
preset = "threes"
[sweep]
players = [2, 3, 4]
first_double_bonus = [[[4, 2], [8, 4], [8]], [], [[4, 1], [8, 2], [4]], [[4, 4], [8, 8], [16]],
                      [[4, 6], [8, 12], [24]], [[4, 8], [8, 16], [32]]]
min_ends = [3, 1, 2, 4]
"""


def timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100_000)
    args = ap.parse_args()
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench_balance_") as tmp:
        sc = Path(tmp) / "study.toml"
        sc.write_text(SCENARIO)
        out = Path(tmp) / "study"
        run_s = timed([SIMDOM, "run", str(sc), "--deals", str(args.deals), "--workers", "2", "-q", "--course", "--out",
                       str(out)])
        card_s = timed([SIMDOM, "balance", str(out), "--format", "json", "-o", str(Path(tmp) / "card.json")])
        variants = len(json.loads((Path(tmp) / "card.json").read_text())["variants"])
    load1 = os.getloadavg()
    res = {"deals": args.deals, "variants": variants, "run_seconds": round(run_s, 1),
           "balance_seconds": round(card_s, 1), "total_seconds": round(run_s + card_s, 1),
           "load_before": round(load0[0], 1), "load_after": round(load1[0], 1), "cores": os.cpu_count()}
    print(f"study of {variants} variant-counts x {args.deals:,} deals: run {run_s:.1f} s, balance {card_s:.1f} s, "
          f"total {run_s + card_s:.1f} s (target < 180); load average {load0[0]:.1f} before, {load1[0]:.1f} "
          f"after, {os.cpu_count()} cores")
    print(json.dumps(res))


if __name__ == "__main__":
    main()
