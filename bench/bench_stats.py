"""Benchmark `simdom stats` (and `simdom report`) on synthetic results of 10 and 30 million deals.

    .venv/bin/python bench/bench_stats.py [--deals 10000000 30000000] [--keep DIR] [--no-report]

Writes synthetic results folders (simdom.testing: the same parts and manifest as `simdom run`, four
seats per deal, one arm, no rotation) into a temporary folder, or reuses those kept in ``--keep DIR``,
then times `simdom stats` (interpreter start-up included) and measures its peak memory (the resident
size of the process, polled every 20 ms) for each size, and `simdom report` on the smallest. Targets
(issue 13): peak memory under 1 GB at 30 million deals, time growing linearly with the deals (the time
per million deals about the same at every size). Prints one JSON line.
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

import psutil

ROOT = Path(__file__).resolve().parent.parent
SIMDOM = str(Path(sys.executable).with_name("simdom"))


def synthetic(folder: Path, deals: int) -> float:
    """Write the synthetic folder unless it is there; seconds spent."""
    if (folder / "manifest.json").exists():
        return 0.0
    from simdom.testing import SynthArm, SynthSpec, write_results
    t = time.perf_counter()
    arm = SynthArm("greedy-vs-random", ("greedy", "random", "greedy", "random"), (30, 25, 30, 25),
                   (0.3, 0.2, 0.3, 0.2), (0.3, 0.2, 0.3, 0.2))
    write_results(folder, SynthSpec(arms=(arm,), deals=deals, rotations=False, chunk_size=500_000))
    return time.perf_counter() - t


def measured(args: list[str]) -> tuple[float, float]:
    """(seconds, peak resident MB) of a command."""
    t = time.perf_counter()
    proc = psutil.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    peak = 0
    while proc.poll() is None:
        try:
            peak = max(peak, sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)]))
        except psutil.Error:
            pass
        time.sleep(0.02)
    elapsed = time.perf_counter() - t
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(args)}\n{proc.stderr.read()}")
    return elapsed, peak / 2**20


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, nargs="+", default=[10_000_000, 30_000_000])
    ap.add_argument("--keep", type=Path, help="write the data here and keep it (reused if present)")
    ap.add_argument("--no-report", action="store_true")
    a = ap.parse_args()
    tmp = None
    root = a.keep or Path(tmp := tempfile.mkdtemp(prefix="simdom-bench-"))
    out: dict = {"sizes": []}
    try:
        for n in sorted(a.deals):
            folder = root / f"synthetic-{n}"
            gen = synthetic(folder, n)
            secs, mb = measured([SIMDOM, "stats", str(folder), "--format", "json", "-o", str(root / f"s{n}.json"),
                                 "--overwrite"])
            out["sizes"].append({"deals": n, "stats_seconds": round(secs, 2), "stats_peak_mb": round(mb),
                                 "seconds_per_million": round(secs / n * 1e6, 3), "generate_seconds": round(gen, 1)})
            print(f"simdom stats on {n:,} deals: {secs:.1f} s ({secs / n * 1e6:.2f} s per million), peak "
                  f"{mb:,.0f} MB", file=sys.stderr)
        if not a.no_report:
            n = min(a.deals)
            secs, mb = measured([SIMDOM, "report", str(root / f"synthetic-{n}"), "-o", str(root / "report.html"),
                                 "--overwrite"])
            out["report"] = {"deals": n, "seconds": round(secs, 2), "peak_mb": round(mb)}
        per = [s["seconds_per_million"] for s in out["sizes"]]
        out["linearity"] = round(max(per) / min(per), 2)   # 1.0: exactly linear
        out["peak_mb"] = max(s["stats_peak_mb"] for s in out["sizes"])
        print(json.dumps(out))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
