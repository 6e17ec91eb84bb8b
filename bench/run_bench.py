"""`make bench`: every speed target of simdom, measured in one run on this machine.

1. The kernel on one core (`simdom bench`) against the C program of ../shared/bench/limit, built out
   of tree and timed in the same run, alternating C and kernel over 3 rounds (median ratio): threes
   4 players random and greedy (target: ratio >= 0.9, issue 44), and fives 4 players greedy (no C counterpart).
2. `simdom run` end to end: 10 million threes deals, 4 greedy seats, 2 workers, Parquet output,
   against the single-core kernel rate (target: >= 1.4x), its bytes on disk (<= 8 MB per million
   deals) and the peak memory of its process tree (< 300 MB).
3. `simdom stats` over 10 and 30 million deals (peak memory < 1 GB; time linear in the deals) and
   `simdom report`.
4. Matches (docs/rules.md 12): deals per second inside whole matches (`simdom bench --set target=T`)
   against single deals of the same rules, alternating over the rounds (target: ratio >= 0.8):
   fives 4 players greedy to 100 (deal_end, the seed's match), and to 100 with partners under exact;
   threes 4 players greedy to 61, immediate.
5. `simdom analyze`'s rollouts (bench/bench_analyze.py): playouts to the end of the deal per second on
   one core, threes 4 players, from the lead (whole deals) and from move 5 (target: >= 100,000).
6. The exact solver from the lead and the search policy's decisions per second (bench/bench_solve.py;
   targets: median <= 20 ms with 2 players, <= 200 ms with 4; search >= 200 decisions/s, expert >= 50).
7. `simdom review` at its defaults (bench/bench_review.py): whole 4-player Threes deals on one core
   (target: < 10 s a deal).
8. A designer's study (bench/bench_balance.py): 24 rule variants x 2, 3 and 4 players x 100,000 deals
   with rotation, `simdom run` and `simdom balance` (target: < 3 minutes together).
9. `simdom equity` (bench/bench_equity.py): the match equity table of 2-player Fives to 500 from 1,000,000
   deals on one core, end to end (target: < 30 s, issue 56).

Prints a table and writes bench/last.json. Options: --quick (shorter runs, for a smoke test),
--skip run,stats.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SIMDOM = [str(Path(sys.executable).with_name("simdom"))]


def sh(cmd: list[str], **kw) -> str:
    print("$", " ".join(cmd), flush=True)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)
    return out.stdout


def last_json(text: str) -> dict:
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"no JSON line in output:\n{text}")


def c_build() -> str | None:
    """Build the C program out of tree; its source is found as tests/test_aggregates.py finds it:
    $SIMDOM_LIMIT_DIR, the shared folder beside the checkout, or the workplace's /work/shared."""
    places = [Path(p) for p in (os.environ.get("SIMDOM_LIMIT_DIR", ""),) if p] + [
        SHARED / "bench" / "limit", Path("/work/shared/bench/limit")]
    build = next((p / "build.sh" for p in places if (p / "build.sh").is_file()), None)
    if build is None:
        print(f"warning: build.sh not found in {', '.join(map(str, places))}; no C reference", file=sys.stderr)
        return None
    return sh(["sh", str(build), tempfile.mkdtemp(prefix="threes_limit_")]).strip().splitlines()[-1]


def c_rate(exe: str, policy: str, seconds: float) -> float:
    out = sh([exe, "-p", "4", "-t", str(seconds), "-P", policy])
    return float(re.search(r"RESULT policy=(\w+).*deals_per_s=([\d.]+)", out).group(2))


def kernel(rules: str, policy: str, seconds: float, sets: tuple[str, ...] = ()) -> float:
    out = sh(SIMDOM + ["bench", "--rules", rules, "--players", "4", "--policy", policy,
                       "--seconds", str(seconds), "--format", "json"] + [x for s in sets for x in ("--set", s)])
    return last_json(out)["deals_per_s"]


MATCH_CASES = {"fives/greedy to 100": ("fives", ("target=100",)),
               "fives/greedy to 100, partners, exact": ("fives", ("target=100", "teams=partners", "match_end=exact")),
               "threes/greedy to 61, immediate": ("threes", ("target=61", "match_end=immediate"))}


def matches_vs_deals(rules: str, sets: tuple[str, ...], seconds: float, rounds: int) -> dict:
    """Deals per second in match mode against single deals of the same rules, alternating round by
    round; the ratio is the median of the rounds' ratios."""
    single, match, ratios = [], [], []
    for _ in range(rounds):
        d = kernel(rules, "greedy", seconds)
        m = kernel(rules, "greedy", seconds, sets)
        single.append(d)
        match.append(m)
        ratios.append(m / d)
    return {"deals_per_s": statistics.median(match), "single_deals_per_s": statistics.median(single),
            "ratio_to_single": statistics.median(ratios), "ratio_rounds": ratios}


def kernel_vs_c(exe: str | None, policy: str, seconds: float, rounds: int) -> dict:
    """Alternate the C program and the kernel, round after round, so that both see the same machine
    load (this VM's speed drifts by 15% and more); the ratio is the median of the rounds' ratios."""
    ours, theirs, ratios = [], [], []
    for _ in range(rounds):
        c = c_rate(exe, policy, seconds) if exe else None
        k = kernel("threes", policy, seconds)
        ours.append(k)
        if c:
            theirs.append(c)
            ratios.append(k / c)
    row = {"deals_per_s": statistics.median(ours), "rounds": ours}
    if ratios:
        row.update(c_deals_per_s=statistics.median(theirs), c_rounds=theirs,
                   ratio_to_c=statistics.median(ratios), ratio_rounds=ratios)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="short runs (smoke test)")
    ap.add_argument("--skip", default="", help="comma list of parts to skip: run, stats, analyze, solve, review, "
                    "balance")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    secs = 1.0 if args.quick else 3.0
    res: dict = {}
    # warm the kernel cache first so that no timing includes a compile
    sh(SIMDOM + ["bench", "--seconds", "0.1"])
    exe = c_build()
    rounds = 1 if args.quick else 3
    res["kernel"] = {f"threes/{pol}": kernel_vs_c(exe, pol, secs, rounds) for pol in ("random", "greedy")}
    res["kernel"]["fives/greedy"] = {"deals_per_s": kernel("fives", "greedy", secs)}
    res["matches"] = {name: matches_vs_deals(rules, sets, secs, rounds) for name, (rules, sets) in MATCH_CASES.items()}
    if "run" not in skip and (ROOT / "bench" / "bench_run.py").exists():
        deals = 200_000 if args.quick else 10_000_000
        res["run"] = last_json(sh([sys.executable, str(ROOT / "bench" / "bench_run.py"), "--deals", str(deals)]))
    if "stats" not in skip and (ROOT / "bench" / "bench_stats.py").exists():
        cmd = [sys.executable, str(ROOT / "bench" / "bench_stats.py")]
        if args.quick:
            cmd += ["--deals", "100000", "300000"]
        res["stats"] = last_json(sh(cmd))
    if "analyze" not in skip and (ROOT / "bench" / "bench_analyze.py").exists():
        res["analyze"] = last_json(sh([sys.executable, str(ROOT / "bench" / "bench_analyze.py"), "--seconds",
                                       str(secs)]))
    if "solve" not in skip and (ROOT / "bench" / "bench_solve.py").exists():
        cmd = [sys.executable, str(ROOT / "bench" / "bench_solve.py")]
        if args.quick:
            cmd += ["--deals", "20", "--search-deals", "10", "--budget", "20", "--deals4", "3", "--limit4",
                    "100000000"]
        res["solve"] = last_json(sh(cmd))
    if "review" not in skip and (ROOT / "bench" / "bench_review.py").exists():
        res["review"] = last_json(sh([sys.executable, str(ROOT / "bench" / "bench_review.py"), "--deals",
                                      "3" if args.quick else "10"]))
    if "balance" not in skip and (ROOT / "bench" / "bench_balance.py").exists():
        res["balance"] = last_json(sh([sys.executable, str(ROOT / "bench" / "bench_balance.py"), "--deals",
                                       "10000" if args.quick else "100000"]))
    if "equity" not in skip and (ROOT / "bench" / "bench_equity.py").exists():
        res["equity"] = last_json(sh([sys.executable, str(ROOT / "bench" / "bench_equity.py"), "--runs",
                                      "1" if args.quick else "3"]))
    (ROOT / "bench" / "last.json").write_text(json.dumps(res, indent=2) + "\n")
    print("\nsimdom benchmark")
    for k, v in res["kernel"].items():
        extra = (f"  C {v['c_deals_per_s']:,.0f}/s  ratio {v['ratio_to_c']:.2f} (target >= 0.9; rounds "
                 f"{', '.join(f'{r:.2f}' for r in v['ratio_rounds'])})" if "ratio_to_c" in v else "")
        print(f"  kernel {k:15s} {v['deals_per_s']:>12,.0f} deals/s{extra}")
    for k, v in res["matches"].items():
        print(f"  matches {k}: {v['deals_per_s']:,.0f} deals/s, single deals {v['single_deals_per_s']:,.0f}/s: "
              f"ratio {v['ratio_to_single']:.2f} (target >= 0.8; rounds "
              f"{', '.join(f'{r:.2f}' for r in v['ratio_rounds'])})")
    if "run" in res:
        r = res["run"]
        print(f"  simdom run, {r['deals']:,} threes deals, 2 workers: {r['deals_per_s']:,.0f} deals/s, "
              f"{r['speedup_vs_1core_kernel']:.2f}x the one-core kernel measured beside it (target >= 1.4); "
              f"{r['bytes_per_million_deals'] / 1e6:.1f} MB per million deals (target <= 8); peak memory of the "
              f"process tree {r['peak_pss_tree_mb']:,.0f} MB PSS, {r['peak_rss_tree_mb']:,.0f} MB summed RSS "
              "(target < 300)")
    if "stats" in res:
        s = res["stats"]
        for z in s["sizes"]:
            print(f"  simdom stats on {z['deals']:,} deals: {z['stats_seconds']} s ({z['seconds_per_million']} s per "
                  f"million), peak {z['stats_peak_mb']:,} MB (target < 1,000)")
        print(f"    time per million deals, slowest over fastest of the sizes: {s['linearity']} (1.0 = linear)")
        if "report" in s:
            print(f"  simdom report on {s['report']['deals']:,} deals: {s['report']['seconds']} s")
    for k, v in res.get("analyze", {}).items():
        print(f"  simdom analyze rollouts, {k}: {v['playouts_per_s']:,} playouts/s, one core (target >= 100,000)")
    solve_targets = {"threes/2": "median <= 20 ms", "fives/2": "median <= 20 ms", "threes/4": "median <= 50 ms "
                     "(issue 44)", "fives/4": "median <= 2 s, none over 60 s (issue 44)"}
    for k, v in res.get("solve", {}).get("solve", {}).items():
        print(f"  simdom solve {k} from the lead: {v['deals']} deals, {v['unsolved_within_limit']} not within "
              f"{v['limit']:,} positions; median {v['median_ms']} ms, worst {v['max_ms']} ms (target: "
              f"{solve_targets.get(k, 'reported')})")
    for k, v in res.get("solve", {}).get("search", {}).items():
        target = 50 if "/expert" in k else 200  # issue 40: expert >= 50 decisions/s at its default budget
        print(f"  {k}: {v['decisions_per_s']:,} decisions/s (target >= {target} at the default budget)")
    if "review" in res:
        v = res["review"]
        print(f"  simdom review, threes 4 players, defaults: whole deals median {v['median_s']} s, worst {v['max_s']} s "
              f"over {v['deals']} deals (target < 10 s); the seed game {v['seed_game_s']} s")
    if "balance" in res:
        v = res["balance"]
        print(f"  a designer's study, {v['variants']} variants over 2-4 players x {v['deals']:,} deals: run "
              f"{v['run_seconds']} s, balance {v['balance_seconds']} s, total {v['total_seconds']} s (target < 180)")
    if "equity" in res:
        v = res["equity"]
        print(f"  simdom equity, {v['case']}: median {v['median_s']} s, worst {v['max_s']} s, end to end (target < 30 s)")
    print("  (bench/last.json)")


if __name__ == "__main__":
    main()
