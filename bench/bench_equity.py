"""`simdom equity` on one core (issue 56.1: a 2-player equity table to 500 from 1,000,000 deals in under 30 s).

Runs `taskset -c CPU simdom equity -r fives -n 2 --set target=500 --deals 1000000 --format json -o FILE` end to
end (process start to exit, the DP's compiled code cached by a first run), --runs times, and reports the
median and the worst; the command's own note gives the DP's share. With --check M, also plays M matches to
the end from each of a few scores with MatchState (simdom.run.equity.play_from) and reports each table value
against the played matches' 95% Wilson interval. Prints one JSON line last.

    python bench/bench_equity.py                      # the speed target
    python bench/bench_equity.py --target 100 --check 4000
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIMDOM = str(Path(sys.executable).with_name("simdom"))


def timed(args: list[str], cpu: int) -> float:
    cmd = (["taskset", "-c", str(cpu)] if sys.platform.startswith("linux") else []) + [SIMDOM, *args]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, text=True, env={**os.environ, "COLUMNS": "100"})
    return time.perf_counter() - t0


def check(rules_args: dict, deals: int, matches: int, seed: int) -> list[dict]:
    from simdom.rules import preset
    from simdom.run.equity import equity, play_from
    from simdom.stats.inference import wilson
    rules = preset("fives", 2, **rules_args)
    t = equity(rules, "greedy", deals, seed=seed)
    T = rules.target
    out = []
    for sc in ([0, 0], [T * 3 // 10, T * 6 // 10], [T * 8 // 10, T * 5 // 10], [T * 9 // 10, T * 9 // 10]):
        won = play_from(rules, "greedy", sc, None, matches, seed=seed + 1000)
        p = float(t.win(sc)[0])
        lo, hi = wilson(won[0] / matches, matches)
        out.append({"scores": sc, "table": round(p, 4), "played": round(float(won[0] / matches), 4),
                    "lo": round(float(lo), 4), "hi": round(float(hi), 4), "inside": bool(lo <= p <= hi),
                    "matches": matches})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", type=int, default=500)
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cpu", type=int, default=0)
    ap.add_argument("--check", type=int, default=0, help="matches played from each checked score (0: none)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "equity.json"
        args = ["equity", "-r", "fives", "-n", "2", "--set", f"target={a.target}", "--deals", str(a.deals),
                "--format", "json", "-o", str(out), "--overwrite"]
        timed(["equity", "-r", "fives", "-n", "2", "--set", "target=50", "--deals", "1000"], a.cpu)  # compiled, cached
        times = [timed(args, a.cpu) for _ in range(a.runs)]
        d = json.loads(out.read_text())
    res = {"case": f"fives 2 players to {a.target}, greedy, {a.deals:,} deals, one core",
           "median_s": round(statistics.median(times), 2), "max_s": round(max(times), 2),
           "runs": [round(x, 2) for x in times], "positions": len(d["table"]), "step": d["step"],
           "target_s": 30, "met": max(times) < 30}
    if a.check:
        res["check"] = check({"target": a.target}, a.deals, a.check, seed=20_261)
    print(json.dumps(res))


if __name__ == "__main__":
    main()
