"""`simdom ladder`: a duplicate tournament of policies rated by Plackett-Luce on an Elo scale
(simdom/run/ladder.py plays it, simdom/stats/estimate/ladder.py rates it)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from .common import (MAX_SEED, OLD_OUTPUT_OPT, OUT_HELP, OVERWRITE_OPT, RULES_OPT, SET_OPT, check_out, console, fail,
                     make_rules)

#: --deals at most
MAX_DEALS = 1_000_000
#: games (deals x seatings) at most: the points of every game are kept for the bootstrap
MAX_GAMES = 5_000_000
#: the rating of the anchor (random, or the first policy when random is not in the field)
ANCHOR_RATING = 1000.0
#: bootstrap replicates over deals
BOOTSTRAP = 200


class Format(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"
    md = "md"


def _rating(x: float) -> str:
    return f"{x:,.0f}"


def ladder_answer(lad, rules_name: str, players: int, n_seatings: int, seconds: float):
    """The answer: the best policy and its lead, the spread; the ratings best first; head-to-head."""
    import numpy as np

    from .. import present as P

    names = lad.names
    order = list(np.argsort(-lad.rating, kind="stable"))
    lo, hi = lad.interval(lad.boot)
    pb, pb_lo_hi = lad.p_beats(), lad.interval(lad.p_beats_boot())
    sp_lo, sp_hi = lad.interval(lad.spread_boot())
    top, second = order[0], order[1]
    gap = round(lad.rating[top]) - round(lad.rating[second])  # of the shown ratings
    lead = f"level with {names[second]}" if gap == 0 else f"{gap:,} above {names[second]}"
    head = (f"{names[top]} is rated {_rating(lad.rating[top])} ({_rating(lo[top])}-{_rating(hi[top])}), "
            f"{lead}; the rating spread is "
            f"{_rating(lad.spread)} ({_rating(sp_lo)}-{_rating(sp_hi)}).")
    anchor = names[lad.anchor]
    why = "" if anchor == "random" else " (random is not in the field: the first policy is the anchor)"
    context = (f"{rules_name.capitalize()}, {players} players: {lad.deals:,} deals, each in all {n_seatings} "
               f"seatings of the {len(names)} policies on the same tiles, played in {seconds:.1f} s; "
               f"Plackett-Luce ratings on the finishing orders, Elo scale, {anchor} anchored at "
               f"{_rating(lad.anchor_rating)}{why}; 95% intervals from {lad.boot.shape[0]} bootstrap "
               f"replicates over deals.")
    ratings = [{"policy": names[i], "rating": float(lad.rating[i]), "rating_lo": float(lo[i]),
                "rating_hi": float(hi[i]), "games": int(lad.games[i])} for i in order]
    h2h = [{"a": names[a], "b": names[b], "p_a_beats_b": float(pb[a, b]), "lo": float(pb_lo_hi[0][a, b]),
            "hi": float(pb_lo_hi[1][a, b])} for x, a in enumerate(order) for b in order[x + 1:]]
    shown = [{"policy": r["policy"], "rating": _rating(r["rating"]),
              "ci": "anchor" if r["policy"] == anchor else f"{_rating(r['rating_lo'])}-{_rating(r['rating_hi'])}",
              "p_next": "" if x + 1 == len(order) else f"{pb[order[x], order[x + 1]]:.3f}",
              "games": r["games"]} for x, r in enumerate(ratings)]
    cols = [P.Col("policy"), P.Col("rating", align="right"), P.Col("ci", "95% CI", align="right"),
            P.Col("p_next", "p beats next", align="right"), P.Col("games", kind="int")]
    h_rows = [{"pair": f"{h['a']} > {h['b']}", "p": f"{h['p_a_beats_b']:.3f}", "ci": f"{h['lo']:.3f}-{h['hi']:.3f}"}
              for h in h2h]
    h_cols = [P.Col("pair", "a beats b"), P.Col("p", "p", align="right"), P.Col("ci", "95% CI", align="right")]
    ans = P.Answer([head, context], [P.Table("ratings, best first", shown, cols),
                                     P.Table("head-to-head: p(a finishes above b)", h_rows, h_cols)])
    ans.notes.append("Seats tied on points are ordered at random (a draw of the seed and the deal).")
    ans.data = {"ratings": ratings, "head_to_head": h2h, "spread": lad.spread, "spread_lo": float(sp_lo),
                "spread_hi": float(sp_hi), "anchor": anchor, "anchor_rating": lad.anchor_rating,
                "rules": rules_name, "players": players, "deals": lad.deals, "seatings": n_seatings,
                "seconds": round(seconds, 3)}
    return ans


def ladder_cmd(
    policy: List[str] = typer.Argument(..., help="The policies of the field (at least --players of them), "
                                                 "e.g. random greedy heavy rollout:samples=32 search."),
    deals: int = typer.Option(200, "--deals", "-d", help="Deals, each played in every seating."),
    seed: int = typer.Option(1, "--seed", "-s", help="Root seed, 0 to 2^63 - 1: deal i depends on (seed, i) alone."),
    fmt: Format = typer.Option(Format.text, "--format", "-f", help="text, json, csv (the ratings) or md."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
    rules: str = RULES_OPT,
    players: int = typer.Option(2, "--players", "-n", help="Players at the table, 2 to 4."),
    overrides: Optional[List[str]] = SET_OPT,
    output: Optional[Path] = OLD_OUTPUT_OPT,
) -> None:
    """Rate policies in a duplicate tournament: every deal in every seating, Plackett-Luce on an Elo scale.

    Each deal is played in every assignment of the policies to the seats (k!/(k-n)! seatings for k policies at n seats) on the same shuffle, so the tiles' luck is shared; the finishing orders give Plackett-Luce ratings with random at 1,000 (else the first policy), 95% intervals from a bootstrap over deals, head-to-head win probabilities and the rating spread (the wider, the more the play decides). Seats tied on points are ordered at random (a draw of the seed and the deal).

    [bold]Examples[/]

      simdom ladder random greedy heavy -r threes -n 2 --deals 100
      simdom ladder random greedy heavy rollout:samples=32 search -n 2 --deals 300 --format json
    """
    from ..policies import PolicyError, parse_policy, seat_policies
    from ..run.ladder import play_duplicate, seatings
    from ..stats.estimate.ladder import finishing_orders, ladder_ratings

    out = out or output  # --output: the old spelling
    check_out(out, overwrite)
    if not 0 <= seed <= MAX_SEED:
        fail(f"--seed {seed}; allowed: an integer from 0 to {MAX_SEED}")
    if not 1 <= deals <= MAX_DEALS:
        fail(f"--deals {deals}; allowed: an integer from 1 to {MAX_DEALS:,}")
    if not 2 <= players <= 4:
        fail(f"--players {players}; allowed: 2, 3 or 4")
    r = make_rules(rules, players, overrides)
    try:
        pols = [parse_policy(p) for p in policy]
    except PolicyError as e:
        fail(str(e))
    # shown as given (search, not search:worlds=16,model=greedy,depth=6); the same policy twice is refused
    names = [p.strip() for p in policy]
    canon = [str(p) for p in pols]
    names = ["random" if c == "random" else n for n, c in zip(names, canon)]
    for p in pols:
        if not p.info.fair:
            fail(f"policy {p}: not a fair player (it sees every hand), so it has no place on a ladder; allowed: "
                 "the fair policies (simdom policies), clairvoyant is rated by simdom skill")
    dup = next((i for i, c in enumerate(canon) if c in canon[:i]), None)
    if dup is not None:
        first = names[canon.index(canon[dup])]
        same = "" if first == names[dup] else f" (the same as {first})"
        fail(f"policy {names[dup]}{same} is given twice; allowed: each policy once")
    if len(pols) < max(2, players):
        fail(f"{len(pols)} policies for a table of {players}; allowed: at least {players} different policies "
             "(each seating gives every seat another policy)")
    seats = seatings(len(pols), players)
    if deals * len(seats) > MAX_GAMES:
        fail(f"--deals {deals:,} in {len(seats):,} seatings is {deals * len(seats):,} games; allowed: at most "
             f"{MAX_GAMES:,} games (deals x seatings)")
    try:
        for row in seats:  # every seating must be playable (e.g. no clairvoyant restriction) before any play
            seat_policies([pols[i] for i in row], players)
    except PolicyError as e:
        fail(str(e))
    anchor = canon.index("random") if "random" in canon else 0
    with console.status(f"playing {deals:,} deals in {len(seats)} seatings ..."):
        play = play_duplicate(r, pols, seed, deals)
        orders = finishing_orders(play.points, play.seatings, seed)
        lad = ladder_ratings(orders, names, anchor=anchor, anchor_rating=ANCHOR_RATING, bootstrap=BOOTSTRAP,
                             seed=seed)
    from .. import present as P
    shown = rules + (f" (with --set {', '.join(overrides)})" if overrides else "")
    ans = ladder_answer(lad, shown, players, len(seats), play.seconds)
    P.emit(ans, "table" if fmt is Format.text else fmt.value, out, console=console)


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder_cmd)
