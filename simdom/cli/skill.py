"""`simdom skill`: the relative skill LE / (LE + RE) of a rule set (analyze/skill.py, stats/estimate/skill.py)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from .common import MAX_SEED, OUT_HELP, OVERWRITE_OPT, RULES_OPT, SET_OPT, check_out, console, fail, make_rules

BEGINNERS = ("random", "greedy")
#: the most deals: the fictive player's exact search takes seconds on some deals (docs/skill.md)
MAX_DEALS = 1_000_000


class Format(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"
    md = "md"


def skill_cmd(
    rules: str = RULES_OPT,
    players: int = typer.Option(2, "--players", "-n", help="Players, 2 to 4."),
    deals: int = typer.Option(50, "--deals", "-d", help="Deals, each played with player 0 in every seat."),
    seed: int = typer.Option(1, "--seed", "-s", help="Root seed: deal i depends on (seed, i) alone."),
    optimal: str = typer.Option("search", "--optimal", help="The optimal player: the strongest fair policy."),
    opponents: List[str] = typer.Option(["greedy"], "--opponents", help="The other seats' policy (once, or once "
                                        "per other seat); deterministic, for the fictive player."),
    fmt: Format = typer.Option(Format.text, "--format", "-f", help="text, json, csv or md."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
    overrides: Optional[List[str]] = SET_OPT,
) -> None:
    """The relative skill of a game (Dreef, Borm and van der Genugten): LE / (LE + RE).

    LE = E[optimal] - E[beginner], RE = E[fictive] - E[optimal]; the fictive player (clairvoyant) knows
    every hand and the boneyard. All three play player 0's place against the same opponents on the same
    deals, every deal in every seat; beginners random and greedy; by points per deal and by win rate.

    [bold]Examples[/]

      simdom skill -r threes -n 2 --deals 50
      simdom skill -r fives -n 2 --optimal search:worlds=32 --format json
    """
    from .. import present as P
    from ..analyze.skill import skill_rows
    from ..policies import DETERMINISTIC, PolicyError, parse_policy

    check_out(out, overwrite)
    if not 0 <= seed <= MAX_SEED:
        fail(f"--seed {seed}; allowed: an integer from 0 to {MAX_SEED}")
    if not 2 <= deals <= MAX_DEALS:
        fail(f"--deals {deals}; allowed: an integer from 2 to {MAX_DEALS:,}")
    r = make_rules(rules, players, overrides)
    try:
        opt = parse_policy(optimal)
    except PolicyError as e:
        fail(f"--optimal: {e}")
    if not opt.info.fair:
        fail(f"--optimal {optimal}: {opt.name} is not a fair player (it sees every hand); allowed: a fair "
             f"policy (simdom policies), e.g. search")
    try:
        opp = [parse_policy(p) for p in opponents]
    except PolicyError as e:
        fail(f"--opponents: {e}")
    if len(opp) == 1:
        opp = opp * (players - 1)
    if len(opp) != players - 1:
        fail(f"--opponents: {len(opp)} given for {players - 1} other seats; allowed: one policy for all, or "
             f"one per other seat")
    bad = [str(p) for p in opp if p.name not in DETERMINISTIC]
    if bad:
        fail(f"--opponents {bad[0]}: the fictive player (clairvoyant) replies exactly to the opponents' own "
             f"policies, which must be deterministic; allowed: {', '.join(DETERMINISTIC)}")
    fictive = parse_policy("clairvoyant:against=seats")
    beginners = [parse_policy(b) for b in BEGINNERS]
    name = rules.strip().replace("-", " ").capitalize()  # "All fives", "Fives and threes"
    label = f"{name} (modified)" if overrides else name
    with console.status(f"playing {deals:,} deals x {players} seats x 4 players ..."):
        rows = skill_rows(r, beginners, opt, fictive, opp, seed, deals, label)
    P.emit(skill_answer(rows), "table" if fmt.value == "text" else fmt.value, out, console=console)


def skill_answer(rows: list[dict]):
    from .. import present as P

    first = rows[0]
    by = {(x["by"], x["beginner"]): x for x in rows}

    def share(x: dict) -> str:
        return P.ci(x["skill"], x["skill_lo"], x["skill_hi"])

    sentences = []
    for beg in BEGINNERS:
        pts, win = by[("points", beg)], by[("wins", beg)]
        lo, hi = pts["skill_lo"], pts["skill_hi"]
        verdict = ("a deal is decided more by the tiles than by the play" if hi < 0.5 else
                   "a deal is decided more by the play than by the tiles" if lo > 0.5 else
                   "too few deals to tell whether the tiles or the play decide more")  # NaN bounds too
        who = "" if beg == "random" else f"Against a {beg} beginner: "
        lead = f"{first['rules']}, {first['players']} players: " if beg == "random" else ""
        sentences.append(f"{lead}{who}skill share at least {share(pts)} by points, {P.rounded(win['skill'], win['skill_lo'], win['skill_hi'])} "
                         f"by wins{' (beginner random); ' + verdict if beg == 'random' else ''}.")
    ans = P.Answer(sentences, data={"rows": [{k: v for k, v in x.items()} for x in rows]})
    ans.add(P.Table("Player 0's mean per deal", rows, [
        P.Col("by"), P.Col("beginner"), P.Col("beginner_value", "beginner", "num"),
        P.Col("optimal_value", "optimal", "num"), P.Col("fictive_value", "fictive", "num")], keys=2))
    ans.add(P.Table("Skill share LE / (LE + RE)", rows, [
        P.Col("by"), P.Col("beginner"), P.Col("learning_effect", "LE", "est"), P.Col("random_effect", "RE", "est"),
        P.Col("skill", "skill", "est")], keys=2))
    ans.notes += [f"A lower bound: the optimal player ({first['optimal']}) is only as good as the best policy at "
                  f"hand; the fictive player ({first['fictive']}) sees every hand. Opponents: {first['opponents']}.",
                  f"{first['deals']:,} deals, each with player 0 in every seat; 95% intervals clustered by deal "
                  f"(Fieller's for the share)."]
    return ans


def register(app: typer.Typer) -> None:
    app.command("skill")(skill_cmd)
