"""End-to-end benchmark of `simdom run`: threes, 4 greedy seats, into a temporary folder.

Measures, in the same run, the single-core kernel rate (`simdom bench --format json`) and the end-to-end rate
of `simdom run` (process start, workers, Parquet output, manifest: everything), alternating: the kernel before
and after each timed run, each run's speed-up taken against the mean of the two, the median of the runs'
speed-ups reported (this VM's speed drifts by 10% and more between measurements a minute apart, as
bench/run_bench.py's kernel-against-C rounds do); the peak memory of the
whole process tree, polled every 50 ms, and the dataset's bytes on disk. The memory comes from one
run and the time from three more of the same scenario (their median): reading the memory of three
processes every 50 ms costs about 5% of a core, which the timed runs should not pay. The tree's memory is its
proportional set size (PSS: each page shared by the forked workers counted once, split between them);
the sum of the resident sizes (RSS, shared pages counted once per process) is printed beside it.

    .venv/bin/python bench/bench_run.py                       # 10,000,000 deals, 2 workers (issue 13)
    .venv/bin/python bench/bench_run.py --deals 1000000       # a quicker look

Prints a readable line and a JSON line.
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

import psutil

ROOT = Path(__file__).resolve().parents[1]
SIMDOM = str(Path(sys.executable).with_name("simdom"))
SCENARIO = """name = "bench-threes"
description = "benchmark: threes, 4 greedy seats"
players = 4
policies = "greedy"
deals = {deals}
seed = 1
[rules]
preset = "threes"
"""


def tree_memory(proc: psutil.Process) -> tuple[int, int]:
    """(PSS, RSS) summed over the process and its children."""
    pss = rss = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            info = p.memory_full_info()
            pss += info.pss
            rss += info.rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return pss, rss


def kernel_rate(seconds: float) -> float:
    out = subprocess.run([SIMDOM, "bench", "--rules", "threes", "--players", "4", "--policy", "greedy",
                          "--seconds", str(seconds), "--format", "json"], capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout.strip().splitlines()[-1])["deals_per_s"])


def start(deals: int, workers: int, folder: Path, name: str) -> tuple[psutil.Popen, Path]:
    """`simdom run` of the scenario into a new folder ``name``."""
    scen = folder / "bench-threes.toml"
    scen.write_text(SCENARIO.format(deals=deals))
    out = folder / name
    cmd = [SIMDOM, "run", str(scen), "--workers", str(workers), "--out", str(out), "--quiet"]
    return psutil.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), out


def finish(proc: psutil.Popen) -> None:
    log = proc.stdout.read()
    if proc.wait():
        raise SystemExit(f"simdom run failed ({proc.returncode}):\n{log}")


def run_once(deals: int, workers: int, folder: Path, repeat: int, kernel=None) -> dict:
    peak = peak_rss = 0
    proc, _ = start(deals, workers, folder, "memory-run")  # polled
    while proc.poll() is None:
        pss, rss = tree_memory(proc)
        peak, peak_rss = max(peak, pss), max(peak_rss, rss)
        time.sleep(0.05)
    finish(proc)
    times, kernels = [], [kernel()] if kernel else []
    for i in range(repeat):  # the timed runs, not polled, each between two measures of the kernel; the median counts
        t0 = time.perf_counter()
        proc, out = start(deals, workers, folder, f"results-{i}")
        finish(proc)
        times.append(time.perf_counter() - t0)
        if kernel:
            kernels.append(kernel())
    seconds = statistics.median(times)
    speedups = [deals / t / ((kernels[i] + kernels[i + 1]) / 2) for i, t in enumerate(times)] if kernel else []
    size = sum(f.stat().st_size for f in (out / "deals").glob("*.parquet"))
    m = json.loads((out / "manifest.json").read_text())
    first = m["last_session"]["first_chunk_seconds"] or 0.0
    steady = (deals - m["chunk_size"]) / max(m["last_session"]["seconds"] - first, 1e-9)
    return {"deals": deals, "workers": workers, "seconds": round(seconds, 3), "seconds_runs": [round(t, 3) for t in times],
            "deals_per_s": round(deals / seconds, 1), "first_chunk_seconds": first,
            "steady_deals_per_s": round(steady, 1), "peak_pss_tree_mb": round(peak / 2**20, 1),
            "peak_rss_tree_mb": round(peak_rss / 2**20, 1),
            "bytes_on_disk": size, "bytes_per_million_deals": round(size / deals * 1e6),
            "kernel_rounds": [round(k, 1) for k in kernels], "speedup_rounds": [round(x, 3) for x in speedups]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--kernel-seconds", type=float, default=3.0)
    ap.add_argument("--no-kernel", action="store_true", help="skip the single-core kernel measurement")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; the median counts (default 3)")
    ap.add_argument("--keep", type=Path, help="write the results here instead of a temporary folder")
    a = ap.parse_args()
    # also compiles the kernel into the on-disk cache if needed, so the run measures no compile
    kernel_rate(0.2)
    kernel = None if a.no_kernel else (lambda: kernel_rate(a.kernel_seconds))
    if a.keep:
        a.keep.mkdir(parents=True, exist_ok=True)
        res = run_once(a.deals, a.workers, a.keep, a.repeat, kernel)
    else:
        with tempfile.TemporaryDirectory(prefix="simdom-bench-") as tmp:
            res = run_once(a.deals, a.workers, Path(tmp), a.repeat, kernel)
    kr = statistics.median(res["kernel_rounds"]) if kernel else None
    res["kernel_deals_per_s_1core"] = kr
    res["speedup_vs_1core_kernel"] = round(statistics.median(res["speedup_rounds"]), 3) if kr else None
    res["steady_speedup_vs_1core_kernel"] = round(res["steady_deals_per_s"] / kr, 3) if kr else None
    res["target_speedup"] = 1.4
    print(f"simdom run: {res['deals']:,} threes deals, 4 greedy, {res['workers']} workers: {res['seconds']:.1f} s, "
          f"{res['deals_per_s']:,.0f} deals/s end to end"
          + (f" = {res['speedup_vs_1core_kernel']:.2f} x the 1-core kernel measured before and after each run "
             f"({kr:,.0f} deals/s; target 1.4 x; runs {', '.join(f'{x:.2f}' for x in res['speedup_rounds'])})"
             if kr else "")
          + f"; after the first chunk ({res['first_chunk_seconds']:.1f} s: start, workers, kernel load) "
          f"{res['steady_deals_per_s']:,.0f} deals/s"
          + (f" = {res['steady_speedup_vs_1core_kernel']:.2f} x" if kr else "")
          + f"; peak memory of the process tree {res['peak_pss_tree_mb']:,.0f} MB PSS "
          f"({res['peak_rss_tree_mb']:,.0f} MB summed RSS; target < 300 MB); "
          f"{res['bytes_per_million_deals'] / 1e6:.1f} MB on disk per million deals (target <= 8)")
    print(json.dumps({"bench": "simdom run", **res}))


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
