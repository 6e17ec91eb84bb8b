"""`simdom skill` between parsing its options and printing: the options checked (one line naming a bad
one, simdom.present.OptionError), the deals played and the answer built (cli/skill.py only parses and
prints). A beginner, an optimal and a fictive player take player 0's place against the same opponents,
on the same deals, every deal played with player 0 in every seat (the rotations), in blocks of deals on
parallel workers (run/parallel.py).

Deal i's shuffle depends on (seed, i) alone, so every player and rotation sees the same tiles; rotation
r gives seat s the lineup's player (s + r) mod P (player 0 the one measured, then the opponents), as
simdom run's rotations do. The statistics are simdom/stats/estimate/skill.py.
"""
from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Any, Callable, ContextManager, List, Optional, Sequence

import numpy as np

from ..engine.api import simulate_deals
from ..policies import Policy
from ..present import MAX_SEED, Answer, OptionError, check_out
from ..results import Unit
from ..rules import Rules
from ..stats.estimate.skill import SkillEstimate, skill_share
from ..stats.views.skill import BEGINNERS, skill_answer
from .parallel import check_parallel, deal_blocks, n_workers, run_blocks, size_text

Status = Callable[[str], ContextManager[Any]]


def _quiet(_: str) -> ContextManager[Any]:
    return nullcontext()


def _block(rules: Rules, lineup: list, seed: int, d0: int, m: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Seat ``seat``'s points and win shares on deals d0 .. d0 + m - 1 of the lineup (one worker's block);
    with a match target, matches d0 .. d0 + m - 1: its side's final match score, and 1 when its side won the
    match (0 when another did or none did, max_deals reached)."""
    if rules.is_match:
        from ..engine.matches import side_of, simulate_matches
        b = simulate_matches(rules, lineup, seed, d0, m)
        side = side_of(rules, seat)
        return (b.matches[f"score_{side}"].astype(np.float64),
                (b.matches["winner"] == side).astype(np.float64))
    b = simulate_deals(rules, lineup, seed, d0, m)
    return b.seats["points"][:, seat].astype(np.float64), b.win()[:, seat]


def _tasks(rules: Rules, players0: Sequence[Policy], opponents: Sequence[Policy], seed: int, deals: int,
           workers: int | None, backend: str) -> tuple[list[tuple], list[tuple]]:
    """Every (player, rotation, block of deals) a task: (the tasks, where each one's rows go)."""
    P = rules.players
    blocks = deal_blocks(deals, n_workers(workers) if backend == "local" else 8)
    tasks, where = [], []
    for k, p0 in enumerate(players0):
        lineup = [p0, *opponents]
        for r in range(P):
            seat = (P - r) % P  # where player 0 sits in rotation r
            for d0, m in blocks:
                tasks.append((rules, [lineup[(s + r) % P] for s in range(P)], seed, d0, m, seat))
                where.append((k, r, d0, m))
    return tasks, where


def work(rules: Rules, tasks: Sequence[tuple]) -> float:
    """The tasks' play in greedy decisions, roughly (policies.policy_cost): about 20 decisions a deal, a
    match about target / 15 deals."""
    from ..policies import policy_cost
    per = 20.0 * (max(1.0, rules.target / 15) if rules.is_match else 1.0)
    return sum(t[4] * per * sum(policy_cost(p) for p in t[1]) for t in tasks)


def play_player0(rules: Rules, players0: Sequence[Policy], opponents: Sequence[Policy], seed: int, deals: int,
                 workers: int | None = 1, backend: str = "local", scheduler: str | None = None,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """For each of ``players0`` in player 0's place: its points and win shares (1/k for a k-way tie on top),
    float64[deals, rotations], every (player, rotation, block of deals) a task of its own."""
    P = rules.players
    tasks, where = _tasks(rules, players0, opponents, seed, deals, workers, backend)
    done = run_blocks(_block, tasks, workers=workers, backend=backend, scheduler=scheduler, progress=progress)
    out = {str(p): (np.empty((deals, P)), np.empty((deals, P))) for p in players0}
    for (k, r, d0, m), (pts, win) in zip(where, done):
        points, wins = out[str(players0[k])]
        points[d0:d0 + m, r] = pts
        wins[d0:d0 + m, r] = win
    return out


def skill_rows(rules: Rules, beginners: Sequence[Policy], optimal: Policy, fictive: "dict[str, Policy]",
               opponents: Sequence[Policy], seed: int, deals: int, label: str, workers: int | None = 1,
               backend: str = "local", scheduler: str | None = None,
               progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """One row per measure (points, wins) and beginner: the JSON rows of `simdom skill`. ``fictive``: the
    fictive player of each measure (the one that maximises that measure's payoff)."""
    players0 = list({str(p): p for p in [*beginners, optimal, *fictive.values()]}.values())
    played = play_player0(rules, players0, opponents, seed, deals, workers, backend, scheduler, progress)
    rows = []
    for k, by in enumerate(("points", "wins")):
        for beg in beginners:
            est: SkillEstimate = skill_share(played[str(beg)][k], played[str(optimal)][k],
                                             played[str(fictive[by])][k])
            d = est.as_dict()
            rows.append({"rules": label, "players": rules.players, "by": by, "beginner": str(beg),
                         "beginner_value": d["beginner_value"], "optimal": str(optimal),
                         "optimal_value": d["optimal_value"], "fictive_value": d["fictive_value"],
                         **{key: d[key] for key in ("learning_effect", "learning_effect_lo", "learning_effect_hi",
                                                    "random_effect", "random_effect_lo", "random_effect_hi",
                                                    "skill", "skill_lo", "skill_hi", "deals")},
                         "fictive": str(fictive[by]), "opponents": ",".join(map(str, opponents)),
                         "unit": Unit.of(rules.is_match).value, "target": rules.target})
    return rows


#: simdom skill --deals at most: the fictive player's exact search takes seconds on some deals (docs/skill.md)
MAX_SKILL_DEALS = 1_000_000


def skill(*, rules: Callable[[], Any], rules_name: str, modified: bool, players: int, deals: int, seed: int,
          optimal: str, opponents: List[str], out: Optional[Path], overwrite: bool, workers: int | None = None,
          backend: str = "local", scheduler: str | None = None, status: Status = _quiet) -> Answer:
    """simdom skill: the relative skill LE / (LE + RE) of the rules, its answer; ``rules`` builds the
    rules after the seed and the deals are checked."""
    from ..policies import DETERMINISTIC, PolicyError, parse_policy

    check_out(out, overwrite)
    if not 0 <= seed <= MAX_SEED:
        raise OptionError(f"--seed {seed}; allowed: an integer from 0 to {MAX_SEED}")
    check_parallel(workers, backend, scheduler)
    if not 2 <= deals <= MAX_SKILL_DEALS:
        raise OptionError(f"--deals {deals}; allowed: an integer from 2 to {MAX_SKILL_DEALS:,}")
    r = rules()
    try:
        opt = parse_policy(optimal)
    except PolicyError as e:
        raise OptionError(f"--optimal: {e}") from None
    if not opt.info.fair:
        raise OptionError(f"--optimal {optimal}: {opt.name} is not a fair player (it sees every hand); allowed: a "
                          f"fair policy (simdom policies), e.g. expert")
    try:
        opp = [parse_policy(p) for p in opponents]
    except PolicyError as e:
        raise OptionError(f"--opponents: {e}") from None
    if len(opp) == 1:
        opp = opp * (players - 1)
    if len(opp) != players - 1:
        raise OptionError(f"--opponents: {len(opp)} given for {players - 1} other seats; allowed: one policy for "
                          f"all, or one per other seat")
    bad = [str(p) for p in opp if p.name not in DETERMINISTIC]
    if bad:
        raise OptionError(f"--opponents {bad[0]}: the fictive player (clairvoyant) replies exactly to the opponents' "
                          f"own policies, which must be deterministic; allowed: {', '.join(DETERMINISTIC)}")
    # the fictive player maximises the payoff of the row it serves: its own points for the points row; for
    # the wins row its margin, whose best move wins whenever the deal can still be won (docs/skill.md)
    fictive = {"points": parse_policy("clairvoyant:against=seats,by=points"),
               "wins": parse_policy("clairvoyant:against=seats")}
    beginners = [parse_policy(b) for b in BEGINNERS]
    name = rules_name.strip().replace("-", " ").capitalize()  # "All fives", "Fives and threes"
    label = f"{name} (modified)" if modified else name
    players0 = list({str(p): p for p in [*beginners, opt, *fictive.values()]}.values())
    n = n_workers(workers) if backend == "local" else (workers or 8)
    size = size_text(work(r, _tasks(r, players0, opp, seed, deals, workers, backend)[0]), n)
    with status(f"playing {deals:,} {Unit.of(r.is_match).plural} x {players} seats x {len(players0)} "
                f"players: {size} ...") as tick:
        rows = skill_rows(r, beginners, opt, fictive, opp, seed, deals, label, workers, backend, scheduler,
                          progress=tick if callable(tick) else None)
    from ..engine.api import SIM_VERSION
    ans = skill_answer(rows)
    ans.data.update(seed=seed, sim_version=SIM_VERSION)
    return ans


#: simdom balance --skill: the skill share's players (simdom skill's defaults: random the beginner, search the
#: optimal player, greedy the opponents) and its deals by default
BALANCE_SKILL = ("random", "search", "greedy")
BALANCE_SKILL_DEALS = 20


def balance_skill(study, deals: int = BALANCE_SKILL_DEALS, workers: int | None = None) -> None:
    """Each variant of a scorecard (simdom.stats.tables.balance.Study) gets its skill share as the measure
    ``skill``: Dreef's LE / (LE + RE) by wins, :func:`skill_rows` with random as the beginner, search as the
    optimal player, clairvoyant as the fictive one and greedy opponents, on deals 0 .. deals - 1 of the
    folder's seed (the same deals for every variant, each in every rotation); value, low, high (a Fieller
    interval clustered by deal) and the deals. Not compared with the baseline."""
    from ..policies import parse_policy
    from ..rules import from_dict
    beginner, optimal, opponent = (parse_policy(p) for p in BALANCE_SKILL)
    fictive = {"points": parse_policy("clairvoyant:against=seats,by=points"),
               "wins": parse_policy("clairvoyant:against=seats")}
    for a in study.arms:
        rules = from_dict({**a["rules"], "players": study.players})
        rows = skill_rows(rules, [beginner], optimal, fictive, [opponent] * (study.players - 1), study.seed, deals,
                          a["name"], workers)
        r = next(r for r in rows if r["by"] == "wins")
        study.measures[a["name"]]["skill"] = {"value": float(r["skill"]), "low": float(r["skill_lo"]),
                                              "high": float(r["skill_hi"]), "deals": deals}
