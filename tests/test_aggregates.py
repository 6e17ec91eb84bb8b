"""Statistical agreement with the C reference program (../shared/bench/limit/threes_limit.c).

Threes, 4 players, 200,000 deals per policy (random, greedy) with our batch kernel and with the C
program. The two use different random streams, so they agree only in distribution: each aggregate
must match within 4 combined standard errors, z = (ours - C) / sqrt(se_ours^2 + se_C^2).

The C program prints its standard errors for mean points per deal, mean moves (tiles placed) and
the mean move of the first double (the spinner in Threes). It prints no standard error for the
blocked fraction: there we take sqrt(2) * our binomial standard error as the combined one (the two
samples have the same size and nearly the same proportion).
"""
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from simdom.engine.api import simulate_deals
from simdom.engine.codes import DealEnd
from simdom.rules import preset

ROOT = Path(__file__).resolve().parents[1]
#: where the C program's source may be: $SIMDOM_LIMIT_DIR, the team's shared folder beside the checkout
#: (``../shared``), or the workplace's (``/work/shared``)
CANDIDATES = [Path(p) for p in (os.environ.get("SIMDOM_LIMIT_DIR", ""),) if p] + [
    ROOT.parent / "shared" / "bench" / "limit", Path("/work/shared/bench/limit")]
LIMIT = next((p for p in CANDIDATES if (p / "build.sh").is_file()), CANDIDATES[-1])
N = 200_000
Z_MAX = 4.0


@pytest.fixture(scope="module")
def c_program(tmp_path_factory):
    """The C program, built out of tree. Skipped (with the reason in pytest's summary) only when it cannot
    be built here: no C compiler, or its source in none of CANDIDATES; when it can be built, it is."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed: cannot build the C reference program")
    if not (LIMIT / "build.sh").is_file():
        pytest.skip(f"the C program's source is not on this machine (looked in {', '.join(map(str, CANDIDATES))}; "
                    "set SIMDOM_LIMIT_DIR)")
    out = tmp_path_factory.mktemp("threes_limit")
    res = subprocess.run(["sh", str(LIMIT / "build.sh"), str(out)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    exe = Path(res.stdout.strip().splitlines()[-1])
    assert exe.is_file()
    return exe


def run_c(exe, policy):
    res = subprocess.run([str(exe), "-p", "4", "-n", str(N), "-s", "7", "-P", policy],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    text = res.stdout
    result = dict(kv.split("=") for kv in re.search(r"^RESULT (.*)$", text, re.M).group(1).split())
    num = r"([0-9.]+)"
    out = {
        "mean_pts": float(result["mean_pts"]),
        "mean_moves": float(result["mean_moves"]),
        "blocked": float(result["blocked"]),
        "mean_spinner_move": float(result["mean_spinner_move"]),
        "se_pts": float(re.search(rf"mean points/deal : {num} \+- {num}", text).group(2)),
        "se_moves": float(re.search(rf"mean moves/deal  : {num} \+- {num}", text).group(2)),
        "se_spinner": float(re.search(rf"at mean move {num} \+- {num}", text).group(2)),
        "seat": [tuple(map(float, m)) for m in re.findall(rf"seat \d+\s+: \s*{num} \+- {num}", text)],
    }
    assert int(result["deals"]) == N and len(out["seat"]) == 4
    return out, text


def ours(policy):
    b = simulate_deals(preset("threes", players=4), policy, seed=7, deal0=0, n_deals=N)
    pts = b.column("points").astype(np.float64)
    total = pts.sum(axis=1)
    moves = b.column("tiles_placed").astype(np.float64)
    blocked = (b.column("end") == DealEnd.BLOCKED).astype(np.float64)
    sp = b.column("spinner_move")
    sp = sp[sp > 0].astype(np.float64)
    first = b.column("first_seat")
    # seats numbered from the leader, as the C program numbers them
    by_leader = np.stack([pts[np.arange(N), (first + k) % 4] for k in range(4)], axis=1)
    se = lambda x: x.std(ddof=1) / math.sqrt(len(x))  # noqa: E731
    return {
        "mean_pts": total.mean(), "se_pts": se(total),
        "mean_moves": moves.mean(), "se_moves": se(moves),
        "blocked": blocked.mean(), "se_blocked": se(blocked),
        "mean_spinner_move": sp.mean(), "se_spinner": se(sp),
        "seat": [(by_leader[:, k].mean(), se(by_leader[:, k])) for k in range(4)],
    }


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_s8_threes_4_players_agrees_with_the_c_program(c_program, policy):
    c, text = run_c(c_program, policy)
    py = ours(policy)
    z = {
        "mean_pts": (py["mean_pts"] - c["mean_pts"]) / math.hypot(py["se_pts"], c["se_pts"]),
        "mean_moves": (py["mean_moves"] - c["mean_moves"]) / math.hypot(py["se_moves"], c["se_moves"]),
        # no SE printed for the blocked fraction: sqrt(2) * ours as the combined SE
        "blocked": (py["blocked"] - c["blocked"]) / (math.sqrt(2) * py["se_blocked"]),
        "mean_spinner_move": (py["mean_spinner_move"] - c["mean_spinner_move"])
        / math.hypot(py["se_spinner"], c["se_spinner"]),
    }
    for k in range(4):
        (pm, ps), (cm, cs) = py["seat"][k], c["seat"][k]
        z[f"seat_{k}_from_leader"] = (pm - cm) / math.hypot(ps, cs)
    print(policy, {k: round(v, 2) for k, v in z.items()})
    bad = {k: round(v, 2) for k, v in z.items() if abs(v) > Z_MAX}
    assert not bad, f"{policy}: z-scores beyond {Z_MAX}: {bad}\nours: {py}\nC:\n{text}"


@pytest.mark.parametrize("name,players", [("threes", 4), ("all-fives", 3), ("fives", 2)])
def test_s6_the_lot_is_uniform_over_the_seats(name, players):
    """lead = any (or tile:5-5 held by nobody): the first seat is drawn at random. Chi-square test."""
    from scipy.stats import chisquare

    from simdom.engine.state import DealState
    from simdom.tiles import parse_tile

    rules = preset(name, players=players)
    if name == "fives":  # only the deals where 5-5 stayed in the boneyard are drawn by lot
        five = parse_tile("5-5", 6)
        deals = [DealState.dealt(rules, 11, d) for d in range(3000)]
        first = np.array([st.first for st in deals if five in st.boneyard0])
        assert len(first) > 1000
    else:
        first = simulate_deals(rules, "random", seed=11, deal0=0, n_deals=60_000).column("first_seat")
    counts = np.bincount(first, minlength=players)
    assert chisquare(counts).pvalue > 1e-4, counts


def test_s2_the_shuffle_deals_every_tile_to_every_seat_alike():
    """Each tile lands in each hand (and the boneyard) with probability hand / 28: chi-square per tile."""
    from scipy.stats import chisquare

    from simdom.engine.state import DealState

    rules = preset("threes", players=4)
    n = 3000
    counts = np.zeros((28, 5), dtype=np.int64)  # seats 0..3, boneyard
    for d in range(n):
        st = DealState.dealt(rules, 13, d)
        for s in range(4):
            for t in st.hand(s):
                counts[t, s] += 1
        for t in st.boneyard0:
            counts[t, 4] += 1
    expected = np.array([5, 5, 5, 5, 8]) / 28 * n
    stat = ((counts - expected) ** 2 / expected).sum()  # 28 x 4 degrees of freedom
    from scipy.stats import chi2
    assert chi2.sf(stat, 28 * 4) > 1e-4, counts
    for t in range(28):
        assert chisquare(counts[t], expected).pvalue > 1e-6, (t, counts[t])
