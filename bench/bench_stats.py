"""Benchmark `simdom stats` and `simdom report` on 10 million synthetic deals (40 million rows).

    .venv/bin/python bench/bench_stats.py [--deals 10000000] [--keep DIR]

Writes a synthetic results folder (simdom.stats.synth, in parts) to a temporary folder, or reuses
``--keep DIR`` if it already holds one, then times the two commands as subprocesses (interpreter
start-up included) and prints one JSON line: {"stats_seconds", "report_seconds", "rows", ...}.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without an installed simdom too

from simdom.stats.synth import SynthArm, SynthSpec, write_results  # noqa: E402


def command() -> list[str]:
    """`simdom` if it has the stats commands, else the standalone statistics CLI."""
    exe = ROOT / ".venv" / "bin" / "simdom"
    if exe.exists() and subprocess.run([str(exe), "stats", "--help"], capture_output=True).returncode == 0:
        return [str(exe)]
    return [sys.executable, "-m", "simdom.cli.stats"]


def timed(args: list[str]) -> float:
    t = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - t
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(args)}\n{proc.stderr}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10_000_000)
    ap.add_argument("--keep", type=Path, help="write the data here and keep it (reused if present)")
    a = ap.parse_args()
    tmp = None
    data = a.keep or Path(tmp := tempfile.mkdtemp(prefix="simdom-bench-")) / "results"
    try:
        gen = 0.0
        if not (data / "manifest.json").exists():
            t = time.perf_counter()
            arm = SynthArm("greedy-vs-random", ("greedy", "random", "greedy", "random"), (30, 25, 30, 25),
                           (0.3, 0.2, 0.3, 0.2), (0.3, 0.2, 0.3, 0.2))
            write_results(data, SynthSpec(arms=(arm,), deals=a.deals, rotations=False, chunk_size=500_000))
            gen = time.perf_counter() - t
        rows = a.deals * 4
        cmd = command()
        stats_s = timed(cmd + ["stats", str(data)])
        out = data.parent / "bench_report.html"
        report_s = timed(cmd + ["report", str(data), "-o", str(out), "--force"])
        print(json.dumps({"stats_seconds": round(stats_s, 2), "report_seconds": round(report_s, 2), "rows": rows,
                          "deals": a.deals, "generate_seconds": round(gen, 1), "command": " ".join(cmd[-2:])}))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
