"""`simdom balance RESULTS...`: the balance scorecard of a rule study (issue 41.2).

One row per variant (an arm of a results folder; a sweep's variants are its arms, the baseline first):
its figure on every balance measure, and its paired difference against the baseline of the same
folder, on the same deals (and rotations), with a 95% interval clustered by blocks of deals (of
matches in match mode) and a p-value Holm-adjusted over the folder's family (every variant x every
measure). Nothing is pooled across folders: each player count of a study is its own family.

Every measure is a ratio of cluster sums, sum(y) / sum(n) per arm, estimated with
:func:`simdom.stats.estimate.moments.influence` (the linearised cluster influences that `compare`,
`stats --table paired` and `seats` use), so a difference of two arms is paired (the influences
subtracted cluster by cluster), and a difference of two ratios within an arm (``last_win``'s turn
against ``leader_win``'s, ``greedy_edge``) is too.

The measures (:data:`MEASURES`; shares as fractions):

* fairness: ``leader_win`` (the leader's win rate; the fair share is 1/players), ``last_win`` (the last
  seat in turn order), ``balance`` (1 minus the largest gap between the win rates of two turn
  positions, Ludii's Balance; the pair is the arm's own widest); and per variant the seat test of
  `simdom seats` (a cluster-robust Wald test that every turn position wins alike, Holm over the variants);
* outcome: ``blocked`` (share of deals that end blocked), ``ties`` (share of deals with a tie at the top);
* duration: ``placements`` (tiles placed per deal), ``draws`` (tiles drawn per deal; needs the course table of
  ``simdom run --course``, or the seats table of ``--seats``), their quantiles, and ``deals_per_match`` for
  match results (clustered by match);
* tension (from the course table, or from the moves table of ``simdom run --moves``: the same figures):
  ``lead_changes`` (times the points leader, the one seat strictly ahead, changes between placements),
  ``drama`` (the eventual winner's largest deficit, in points, over the deal's placements),
  ``decisiveness`` (the share of the deal's placements played before the winner leads for good; 1 when an
  end bonus decides);
* decisions (the course table): ``decision_share`` (the share of turns, placements and passes, whose mover
  held two or more legal moves), ``choices`` (legal moves per placement);
* scoring: ``points`` (points per player per deal), ``scoring_share`` (share of placements that score),
  ``double_move`` (the move of the first double, in deals that have one), ``double_bonus`` (first-double
  bonus per deal);
* skill: ``greedy_edge`` (greedy's win rate minus random's, in arms where both play).

``skill`` (Dreef's skill share per variant) is added by ``simdom balance --skill`` (simdom.run.skill.balance_skill).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from simdom.stats.estimate.moments import ROWS, cluster_sums, influence, se_of
from simdom.stats.inference import diff_test, holm, t_interval, wald_equal, wilson_clustered
from simdom.results import Unit
from simdom.stats.read.folder import ResultFrames, ResultsError, open_selection

#: name -> (meaning, kind): a "share" gets a clustered Wilson interval, a "mean" a t interval
MEASURES: dict[str, tuple[str, str]] = {
    "leader_win": ("the leader's win rate (fair: 1/players)", "share"),
    "last_win": ("the last seat's win rate (fair: 1/players)", "share"),
    "balance": ("1 - the largest win-rate gap between two turn positions", "share"),
    "blocked": ("share of deals that end blocked", "share"),
    "ties": ("share of deals with a tie at the top", "share"),
    "placements": ("tiles placed per deal", "mean"),
    "draws": ("tiles drawn per deal", "mean"),
    "lead_changes": ("points-leader changes per deal", "mean"),
    "drama": ("the winner's largest deficit, points", "mean"),
    "decisiveness": ("share of the deal before the winner leads for good", "share"),
    "decision_share": ("share of turns with two or more legal moves", "share"),
    "choices": ("legal (tile, end) moves per placement", "mean"),
    "deals_per_match": ("deals per match (match results)", "mean"),
    "points": ("points per player per deal", "mean"),
    "scoring_share": ("share of placements that score", "share"),
    "double_move": ("move of the first double (deals with one)", "mean"),
    "double_bonus": ("first-double bonus per deal", "mean"),
    "greedy_edge": ("greedy's win rate minus random's, where both play", "diff"),
    "skill": ("Dreef's skill share by wins (simdom balance --skill; not compared)", "share"),
}
#: measures read in percent (shares and differences of shares)
PERCENT = tuple(k for k, (_, kind) in MEASURES.items() if kind in ("share", "diff"))
#: the fairness measures: a variant "changes the balance" when one of them is flagged
FAIRNESS = ("leader_win", "last_win", "balance")
#: the default threshold: 1 percentage point for a share, 1% of the baseline's value for a mean
THRESHOLD = 1.0
ALPHA = 0.05
#: the quantiles of placements per deal (duration), as the sample's own values (no interval)
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


class BalanceError(ValueError):
    """Results the scorecard cannot read: one line naming the problem and what would do."""


@dataclass
class Study:
    """One results folder's scorecard: the variants (arms) in scenario order, the baseline first."""

    name: str
    path: str
    players: int
    preset: str
    unit: Unit
    arms: list[dict]
    measures: dict[str, dict[str, dict]]          #: arm -> measure -> value, low, high
    vs: dict[str, dict[str, dict]]                #: arm -> measure -> value, low, high, p, p_holm, flag
    missing: dict[str, str] = field(default_factory=dict)  #: measure -> why it is left out
    seat_test: dict[str, dict] = field(default_factory=dict)  #: arm -> the Wald test that every turn wins alike
    quantiles: dict[str, dict] = field(default_factory=dict)  #: arm -> placements per deal: p10, p25, p50, ...
    draw_quantiles: dict[str, dict] = field(default_factory=dict)  #: arm -> draws per deal: p10, p25, p50, ...
    match_quantiles: dict[str, dict] = field(default_factory=dict)  #: arm -> deals per match (match results)
    seed: int = 0                                  #: the run's root seed (simdom balance --skill plays its deals)

    @property
    def baseline(self) -> str:
        return self.arms[0]["name"]


def expand(paths: list[str]) -> list[str]:
    """The results folders of the arguments: a study folder (one ``Np`` subfolder per player count,
    docs/results.md) stands for its subfolders, in player order."""
    out = []
    for p in paths:
        root = Path(p)
        if root.is_dir() and not (root / "manifest.json").exists():
            subs = sorted(d for d in root.iterdir() if d.is_dir() and (d / "manifest.json").exists())
            if subs:
                out += [str(d) for d in subs]
                continue
        out.append(p)
    return out


def _wide_all(sums: pl.DataFrame, names: list[str], cols: list[str]) -> dict[str, np.ndarray]:
    """:func:`simdom.stats.estimate.moments.wide` of every column at once, vectorised: {column: (clusters,
    arms)}, the arms in ``names``' order (the same matrices, in one pass over the rows)."""
    blks, rows = np.unique(sums["_blk"].to_numpy(), return_inverse=True)
    arm = sums["arm"].cast(pl.String).replace_strict(names, list(range(len(names))), default=-1,
                                                      return_dtype=pl.Int64).to_numpy()
    keep = arm >= 0
    cell = rows.ravel()[keep] * len(names) + arm[keep]  # (cluster, arm), summed where it repeats
    size = len(blks) * len(names)
    return {c: np.bincount(cell, weights=sums[c].to_numpy().astype(float)[keep], minlength=size).reshape(
        len(blks), len(names)) for c in cols}


def _ratio(W: dict[str, np.ndarray], y: str, n: str) -> tuple[np.ndarray, np.ndarray]:
    r, z = influence(W[y], W[n])
    return r, np.nan_to_num(z)


def _tension_arm(mv: pl.DataFrame, winners: pl.DataFrame, P: int) -> pl.DataFrame:
    """One arm's placements (deal, rotation, move, seat, gain) -> per deal and rotation: lead changes, the
    winner's largest deficit (drama), the share of placements before the winner leads for good, whether
    one seat won. Vectorised over every placement (numpy): the scores are running sums per seat, reset at
    each deal."""
    if mv.is_empty():
        return pl.DataFrame(schema={"deal": pl.Int64, "rotation": pl.Int8, "lead_changes": pl.Float64,
                                    "drama": pl.Float64, "decisive": pl.Float64, "one_winner": pl.Float64})
    deal, rot, move = mv["deal"].to_numpy(), mv["rotation"].to_numpy().astype(np.int64), mv["move"].to_numpy()
    key = deal * 8 + rot
    if np.any(np.diff(key) < 0) or np.any((np.diff(key) == 0) & (np.diff(move) <= 0)):
        order = np.lexsort((move, key))
        mv = mv[order]
        deal, rot, move, key = deal[order], rot[order], move[order], key[order]
    seat, gain = mv["seat"].to_numpy().astype(np.int64), mv["gain"].to_numpy().astype(np.int64)
    n = len(key)
    new = np.ones(n, bool)
    new[1:] = key[1:] != key[:-1]
    starts = np.flatnonzero(new)
    g = np.cumsum(new) - 1
    score = np.empty((n, P), np.int64)
    for s in range(P):
        x = np.where(seat == s, gain, 0)
        c = np.cumsum(x)
        score[:, s] = c - (c[starts] - x[starts])[g]
    top = score.max(axis=1)
    at_top = score == top[:, None]
    leader = np.where(at_top.sum(axis=1) == 1, at_top.argmax(axis=1), -1)
    # the last leader before each placement, within its deal (forward-filled, reset at each deal)
    idx = np.where(leader >= 0, np.arange(n), -1)
    last = np.maximum.accumulate(idx)
    prev = np.full(n, -1)
    prev[1:] = np.where(last[:-1] >= starts[g[1:]], leader[np.maximum(last[:-1], 0)], -1)
    prev[starts] = -1
    change = (leader >= 0) & (prev >= 0) & (leader != prev)
    groups = pl.DataFrame({"deal": deal[starts], "rotation": rot[starts].astype(np.int8)})
    w = groups.join(winners, on=["deal", "rotation"], how="left", maintain_order="left")["_w"].fill_null(-1)
    w = w.to_numpy()[g]
    has_w = w >= 0
    own = score[np.arange(n), np.maximum(w, 0)]
    other = np.where(np.arange(P)[None, :] == w[:, None], np.iinfo(np.int64).min, score).max(axis=1)
    deficit = np.where(has_w, np.maximum(other - own, 0), 0)
    behind = np.where(leader != w, move, 0)
    return groups.with_columns(
        lead_changes=pl.Series(np.add.reduceat(change.astype(np.float64), starts)),
        drama=pl.Series(np.maximum.reduceat(deficit, starts).astype(np.float64)),
        decisive=pl.Series(np.maximum.reduceat(behind, starts) / np.maximum.reduceat(move, starts).astype(float)),
        one_winner=pl.Series(has_w[starts].astype(np.float64)))


def _tension(res: ResultFrames, names: list[str]) -> pl.DataFrame:
    """Per arm, deal and rotation, from the moves table, one arm at a time (:func:`_tension_arm`)."""
    keys = ["deal", "rotation"]
    out = []
    for arm in names:
        mv = res.moves.filter(pl.col("arm") == arm).select(
            *keys, "move", "seat", gain=(pl.col("points") + pl.col("bonus")).cast(pl.Int32)).collect()
        winners = res.deals.filter((pl.col("arm") == arm) & (pl.col("win") == 1.0)).select(
            *keys, _w=pl.col("seat").cast(pl.Int64)).collect()
        out.append(_tension_arm(mv, winners, res.players).with_columns(arm=pl.lit(arm)))
    return pl.concat(out)


def _deal_sums(res: ResultFrames, arms: list[dict], P: int) -> pl.DataFrame:
    """The scorecard's cluster sums from the deals table as written (a row per arm, deal and rotation), each the
    sum over the seats of the long view's quantity (simdom.stats.read.folder.seat_view): a fraction of the rows.
    The win share by turn order is summed by seat and first seat, then turned (seat = first seat + turn)."""
    from simdom.stats.read.folder import _by_arm, _tier
    pts = [pl.col(f"points_{s}") for s in range(P)]
    top = pl.max_horizontal(pts)
    ties = pl.sum_horizontal([(p == top).cast(pl.Float64) for p in pts])
    tier = _by_arm(arms, lambda a: _tier(pl.col("first_double_move"), (a.get("rules") or {}).get(
        "first_double_bonus", [])))
    fd = pl.col("first_double_move")
    one = (pl.col("deal") >= 0).cast(pl.Float64)  # a row (a literal would be summed once per group)
    q = {"deals": one, "plays": pl.sum_horizontal([pl.col(f"plays_{s}") for s in range(P)]),
         "scoring": pl.sum_horizontal([pl.col(f"scoring_plays_{s}") for s in range(P)]),
         "points": pl.sum_horizontal(pts), "blocked": pl.col("end") == "blocked", "ties": ties > 1,
         "tiles": pl.col("tiles_placed"), "fd": fd.is_not_null(), "fd_move": fd.fill_null(0),
         "bonus": pl.when(pl.col("first_double_seat").fill_null(-1) >= 0).then(tier).otherwise(0),
         **{f"_win{s}": (pts[s] == top).cast(pl.Float64) / ties for s in range(P)}}
    sums = cluster_sums(res.wide, ["arm", "first_seat"], q, res.block)
    first = pl.col("first_seat").cast(pl.Int64)
    turned = {f"w_t{t}": pl.sum_horizontal([pl.when((first + t) % P == s).then(pl.col(f"_win{s}")).otherwise(0.0)
                                            for s in range(P)]) for t in range(P)}
    zero = {k: pl.lit(0.0) for k in ("g_win", "g_n", "r_win", "r_n")}  # greedy beside random: the long view's
    return sums.with_columns(**turned, win0=turned["w_t0"], **{f"n_t{t}": pl.col("deals") for t in range(P)}).group_by(
        "arm", "_blk").agg(pl.exclude("first_seat", *(f"_win{s}" for s in range(P))).sum()).with_columns(
        **zero, **{ROWS: pl.col(ROWS) * P})  # the long view's rows: one per seat


def scorecard(res: ResultFrames, threshold: float = THRESHOLD, quantiles: bool = True) -> Study:
    """The scorecard of one results folder (or a selection of its arms): every arm's measures and its
    paired differences against the first arm, Holm-adjusted over the folder's family; ``quantiles`` False
    leaves out the placements' and draws' quantiles (the one screen shows none)."""
    arms = res.arms
    names = [a["name"] for a in arms]
    P = res.players
    has_random = [a["name"] for a in arms if "random" in a["policies"] and "greedy" in a["policies"]]
    def f(e: pl.Expr) -> pl.Expr:
        return e.cast(pl.Float64)
    win, turn = pl.col("win"), pl.col("turn")
    lead = f(turn == 0)
    greedy, rand = f(pl.col("policy") == "greedy"), f(pl.col("policy") == "random")
    both = f(pl.col("arm").is_in(has_random))
    q: dict[str, pl.Expr] = {
        "deals": lead, "win0": win * lead, "plays": f(pl.col("plays")), "scoring": f(pl.col("scoring_plays")),
        "points": f(pl.col("points")), "blocked": f(pl.col("end") == "blocked") * lead,
        "ties": f((win > 0) & (win < 1)) * win, "tiles": f(pl.col("tiles_placed")) * lead,
        "fd": f(pl.col("first_double_move").is_not_null()) * lead,
        "fd_move": f(pl.col("first_double_move").fill_null(0)) * lead, "bonus": f(pl.col("bonus")),
        "g_win": win * greedy * both, "g_n": greedy * both, "r_win": win * rand * both, "r_n": rand * both,
    }
    for t in range(P):
        q[f"n_t{t}"] = f(turn == t)
        q[f"w_t{t}"] = win * f(turn == t)
    if res.wide is not None and not res.unit.is_match and not has_random:  # the same sums, a row per deal
        W = _wide_all(_deal_sums(res, arms, P), names, [ROWS, *q])
    else:
        W = _wide_all(cluster_sums(res.deals, ["arm"], q, res.block), names, [ROWS, *q])
    missing: dict[str, str] = {}
    draw_q: dict[str, dict] = {}
    if res.course is not None and res.wide is not None:
        # the course table the kernel writes with every run (results.COURSE): one row per arm, deal and rotation,
        # in the deals table's order
        c = pl.concat([res.course, res.wide.select("tiles_placed")], how="horizontal")
        placed = pl.col("tiles_placed").cast(pl.Float64)
        won = pl.col("decided_at").is_not_null()
        cq = {"t_n": f(pl.col("deal") >= 0), "lc": f(pl.col("lead_changes")), "w_n": f(won),
              "drama": f(pl.col("winner_deficit").fill_null(0)),
              "dec": (f(pl.col("decided_at")) / placed).fill_null(0.0), "turns": f(pl.col("turns")),
              "cturns": f(pl.col("choice_turns")), "choices": f(pl.col("choices")), "placed": placed,
              "draws": f(pl.col("draws"))}
        W |= _wide_all(cluster_sums(c, ["arm"], cq, res.block), names, list(cq))
        W["s_deals"] = W["t_n"]
        dq = res.course.group_by("arm").agg(
            **{f"p{int(100 * q)}": pl.col("draws").quantile(q, "lower") for q in QUANTILES}).collect() \
            if quantiles else pl.DataFrame()
        draw_q = {r.pop("arm"): {k: int(v) for k, v in r.items()} for r in dq.iter_rows(named=True)}
    elif res.moves is not None:
        t = _tension(res, names).lazy().with_columns(one=pl.lit(1.0))
        one_w = pl.col("one_winner").cast(pl.Float64)
        tq = {"t_n": pl.col("one"), "lc": pl.col("lead_changes"), "w_n": one_w,
              "drama": pl.col("drama") * one_w, "dec": pl.col("decisive") * one_w}
        ts = cluster_sums(t, ["arm"], tq, res.block)
        W |= _wide_all(ts, names, list(tq))
    else:
        missing |= {m: "needs the course table (simdom run --course) or the moves table (simdom run --moves)"
                    for m in ("lead_changes", "drama", "decisiveness")}
    match_q: dict[str, dict] = {}
    if res.unit.is_match and res.matches is not None:
        # deals per match: one row per arm, match and rotation (seat 0's), clustered by the same blocks of matches
        one = f(pl.col("seat") == 0)
        mq = {"m_n": one, "m_deals": f(pl.col("deals")) * one}
        W |= _wide_all(cluster_sums(res.matches.with_columns(deal=pl.col("match")), ["arm"], mq, res.match_block),
                       names, list(mq))
        dq = res.matches.filter(pl.col("seat") == 0).group_by("arm").agg(
            **{f"p{int(100 * q)}": pl.col("deals").quantile(q, "lower") for q in QUANTILES}).collect()
        match_q = {r.pop("arm"): {k: int(v) for k, v in r.items()} for r in dq.iter_rows(named=True)}
    if "cturns" not in W:
        why = ("the course table is written for single deals, not matches" if res.unit.is_match else
               "needs the course table (simdom run --course)")
        missing |= {m: why for m in ("decision_share", "choices")}
    if "draws" in W:
        pass  # from the course table
    elif res.seats is not None:
        ss = cluster_sums(res.seats.with_columns(_d=pl.lit(1.0 / P)), ["arm"], {"draws": pl.col("draws"),
                                                                               "s_deals": pl.col("_d")}, res.block)
        W |= _wide_all(ss, names, ["draws", "s_deals"])
    else:
        missing["draws"] = "needs the course table (simdom run --course) or the seats table (--seats)"
    G = W[ROWS].shape[0]
    est: dict[str, tuple[np.ndarray, np.ndarray]] = {
        "leader_win": _ratio(W, "w_t0", "n_t0"), "last_win": _ratio(W, f"w_t{P - 1}", f"n_t{P - 1}"),
        "blocked": _ratio(W, "blocked", "deals"), "ties": _ratio(W, "ties", "deals"),
        "placements": _ratio(W, "tiles", "deals"), "points": _ratio(W, "points", ROWS),
        "scoring_share": _ratio(W, "scoring", "plays"), "double_move": _ratio(W, "fd_move", "fd"),
        "double_bonus": _ratio(W, "bonus", "deals"),
    }
    by_turn = [_ratio(W, f"w_t{t}", f"n_t{t}") for t in range(P)]
    r_t = np.array([r for r, _ in by_turn])            # turns x arms
    hi_t, lo_t = np.nanargmax(r_t, axis=0), np.nanargmin(r_t, axis=0)
    cols = np.arange(len(names))
    bal = 1 - (r_t[hi_t, cols] - r_t[lo_t, cols])
    z_bal = -(np.stack([by_turn[hi_t[j]][1][:, j] - by_turn[lo_t[j]][1][:, j] for j in cols], axis=1))
    est["balance"] = (bal, z_bal)
    # the seat test (simdom seats' Wald test, by turn order): every turn position wins alike, per variant
    seat_test = {}
    for j, n in enumerate(names):
        stat, df, p = wald_equal(r_t[:, j], np.stack([by_turn[t][1][:, j] for t in range(P)], axis=1))
        seat_test[n] = {"statistic": float(stat), "df": int(df), "p_value": float(p)}
    for n, ph in zip(names, holm(np.array([seat_test[n]["p_value"] for n in names]))):
        seat_test[n]["p_holm"] = float(ph)
    if "draws" in W:
        est["draws"] = _ratio(W, "draws", "s_deals")
    if "lc" in W:
        est["lead_changes"] = _ratio(W, "lc", "t_n")
        est["drama"] = _ratio(W, "drama", "w_n")
        est["decisiveness"] = _ratio(W, "dec", "w_n")
    if "m_n" in W:
        est["deals_per_match"] = _ratio(W, "m_deals", "m_n")
    if "cturns" in W:
        est["decision_share"] = _ratio(W, "cturns", "turns")
        est["choices"] = _ratio(W, "choices", "placed")
    if has_random:
        g, zg = _ratio(W, "g_win", "g_n")
        r, zr = _ratio(W, "r_win", "r_n")
        est["greedy_edge"] = (g - r, zg - zr)
    else:
        missing["greedy_edge"] = "no arm plays greedy beside random"
    measures: dict[str, dict[str, dict]] = {n: {} for n in names}
    vs: dict[str, dict[str, dict]] = {n: {} for n in names[1:]}
    fam = []
    for m in MEASURES:
        if m not in est:
            continue
        r, z = est[m]
        se = se_of(z)
        kind = MEASURES[m][1]
        lo, hi = wilson_clustered(r, se, G) if kind == "share" else t_interval(r, se, G - 1)
        d = r - r[0]
        dlo, dhi, p = diff_test(d, se_of(z - z[:, [0]]), G - 1)
        for j, n in enumerate(names):
            measures[n][m] = {"value": float(r[j]), "low": float(lo[j]), "high": float(hi[j])}
            if j:
                vs[n][m] = {"value": float(d[j]), "low": float(dlo[j]), "high": float(dhi[j]), "p": float(p[j])}
                fam.append((n, m))
    adj = holm(np.array([vs[n][m]["p"] for n, m in fam])) if fam else []
    for (n, m), ph in zip(fam, adj):
        e = vs[n][m]
        e["p_holm"] = float(ph)
        base = measures[names[0]][m]["value"]
        bound = threshold / 100 if m in PERCENT else abs(base) * threshold / 100
        e["flag"] = bool(np.isfinite(ph) and ph < ALPHA and abs(e["value"]) > bound)
    presets = sorted({str(a.get("preset")) for a in arms})
    qs = (res.deals.filter(pl.col("turn") == 0) if res.wide is None or res.unit.is_match else res.wide).group_by(
        "arm").agg(**{f"p{int(100 * q)}": pl.col("tiles_placed").quantile(q, "lower") for q in QUANTILES}).collect() \
        if quantiles else pl.DataFrame()
    quant = {r.pop("arm"): {k: int(v) for k, v in r.items()} for r in qs.iter_rows(named=True)}
    return Study(res.name, str(res.path), P, "/".join(presets), res.unit, arms, measures, vs, missing, seat_test,
                 quant, draw_q, match_q, res.manifest.seed)


def studies(paths: list[str], threshold: float = THRESHOLD, quantiles: bool = True) -> list[Study]:
    """The scorecards of the arguments (a study folder stands for its player counts)."""
    out = []
    for p in expand(paths):
        res = open_selection(p)
        out.append(scorecard(res, threshold, quantiles))
    if not out:
        raise ResultsError("no results given; allowed: results folders written by simdom run")
    return out


def overrides(arm: dict, base: dict) -> dict:
    """An arm's rule parameters that differ from the baseline's, and its policies when they differ."""
    ra, rb = arm.get("rules") or {}, base.get("rules") or {}
    out = {k: v for k, v in ra.items() if rb.get(k) != v and k != "players"}
    if arm.get("policies") != base.get("policies"):
        out["policies"] = arm.get("policies")
    return out


def to_json(ss: list[Study]) -> dict:
    """``{"baseline", "variants": [{"name", "players", "params", "measures", "vs_baseline"}]}`` (issue 41.2);
    each variant also names its folder and its baseline (one per player count)."""
    variants = []
    for s in ss:
        base = s.arms[0]
        for a in s.arms:
            v = {"name": a["name"], "players": s.players, "params": {**(a.get("rules") or {}),
                                                                     "policies": a.get("policies")},
                 "overrides": overrides(a, base), "results": s.path, "baseline": s.baseline,
                 "measures": s.measures[a["name"]], "seat_test": s.seat_test.get(a["name"]),
                 "placements_quantiles": s.quantiles.get(a["name"]),
                 "draws_quantiles": s.draw_quantiles.get(a["name"]),
                 **({"deals_per_match_quantiles": s.match_quantiles.get(a["name"])} if s.unit.is_match else {}),
                 "vs_baseline": {m: {k: e[k] for k in ("value", "low", "high", "p_holm", "flag")}
                                 for m, e in s.vs.get(a["name"], {}).items()}}
            variants.append(v)
    return {"baseline": ss[0].baseline, "variants": variants,
            "left_out": {m: why for s in ss for m, why in s.missing.items()}}


def rows(ss: list[Study]) -> list[dict]:
    """The scorecard as flat rows (csv, parquet): one per variant and measure."""
    out = []
    for s in ss:
        for a in s.arms:
            n = a["name"]
            for m, e in s.measures[n].items():
                d = s.vs.get(n, {}).get(m, {})
                out.append({"results": s.path, "players": s.players, "variant": n, "baseline": s.baseline,
                            "measure": m, "value": e["value"], "low": e["low"], "high": e["high"],
                            "diff": d.get("value"), "diff_low": d.get("low"), "diff_high": d.get("high"),
                            "p_holm": d.get("p_holm"), "flag": d.get("flag")})
    return out
