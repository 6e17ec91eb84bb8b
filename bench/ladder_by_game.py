"""The table "Threes against Fives: the spread by game and player count" in docs/ladder.md (issue 20,
item 3): the ladder of one field (random greedy heavy rollout:samples=32 search:worlds=16,depth=6,own=greedy,win=0) for each of the five
presets with 2, 3 and 4 players, single deals, one ladder at a time:

    .venv/bin/python bench/ladder_by_game.py           # 2000, 750, 300 deals: the table, about 8 min
    .venv/bin/python bench/ladder_by_game.py --deals 400 150 60 --out results/ladder-short   # 2 min

Each ladder is `simdom ladder random greedy heavy rollout:samples=32 search:worlds=16,depth=6,own=greedy,win=0 -r PRESET -n N --deals D
--format json -o OUT/PRESET-Np.json` (seed 1); a file already in OUT is read, not played again (delete
it to replay). The table gives per game and player count the rating spread with its 95% interval,
the top policy and its rating, and the seconds of play.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIELD = ["random", "greedy", "heavy", "rollout:samples=32", "search:worlds=16,depth=6,own=greedy,win=0"]  # search: behaviour version 4's default
PRESETS = ["threes", "fives", "all-fives", "muggins", "fives-and-threes"]
PLAYERS = [2, 3, 4]


def command(preset: str, n: int, deals: int, out: Path) -> list[str]:
    simdom = ROOT / ".venv" / "bin" / "simdom"
    return [str(simdom), "ladder", *FIELD, "-r", preset, "-n", str(n), "--deals", str(deals),
            "--format", "json", "-o", str(out)]


def play(preset: str, n: int, deals: int, outdir: Path) -> dict:
    out = outdir / f"{preset}-{n}p.json"
    if not out.exists():
        t0 = time.perf_counter()
        subprocess.run(command(preset, n, deals, out), check=True, stdout=subprocess.DEVNULL)
        print(f"{preset} {n}p: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return json.loads(out.read_text())


def row(d: dict) -> str:
    top = d["ratings"][0]
    return (f"| {d['rules']} | {d['players']} | {d['deals']} | {d['spread']:.0f} "
            f"| {d['spread_lo']:.0f}-{d['spread_hi']:.0f} | {top['policy']} "
            f"| {top['rating']:,.0f} ({top['rating_lo']:,.0f}-{top['rating_hi']:,.0f}) "
            f"| {d['seconds']:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, nargs=3, default=[2000, 750, 300], metavar=("D2", "D3", "D4"),
                    help="deals with 2, 3 and 4 players (default 2000 750 300)")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "ladder-by-game")
    ap.add_argument("--presets", nargs="+", default=PRESETS)
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    print("| game | players | deals | spread | 95% CI | top policy | its rating (95% CI) | s |")
    print("| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    for preset in a.presets:
        for n, deals in zip(PLAYERS, a.deals):
            print(row(play(preset, n, deals, a.out)), flush=True)


if __name__ == "__main__":
    main()
