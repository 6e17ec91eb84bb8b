"""What simdom ladder does between parsing its options and printing: the field checked (one line naming
a bad option, simdom.present.OptionError), the duplicate tournament played (run/ladder.py), rated
(stats/estimate/ladder.py) and answered (cli/ladder.py only parses and prints)."""
from __future__ import annotations

from typing import Any, Callable, ContextManager, List

from ..present import MAX_SEED, Answer, OptionError
from ..results import Unit
from ..stats.views.skill import ladder_answer_of

#: --deals at most
MAX_DEALS = 1_000_000
#: games (deals x seatings) at most: the points of every game are kept for the bootstrap
MAX_GAMES = 5_000_000
#: the rating of the anchor (random, or the first policy when random is not in the field)
ANCHOR_RATING = 1000.0
#: bootstrap replicates over deals
BOOTSTRAP = 200


def ladder(policy: List[str], *, deals: int, seed: int, players: int, rules: Callable[[], Any], shown: str,
           status: Callable[[str], ContextManager[Any]], workers: int | None = 1, backend: str = "local",
           scheduler: str | None = None) -> Answer:
    """simdom ladder: the policies' ratings; ``rules`` builds the rules (after the seed, the deals and the
    players are checked), ``shown`` names them in the answer."""
    from ..policies import PolicyError, parse_policy, seat_policies
    from .ladder import play_duplicate, seatings
    from ..stats.estimate.ladder import finishing_orders, ladder_ratings

    if not 0 <= seed <= MAX_SEED:
        raise OptionError(f"--seed {seed}; allowed: an integer from 0 to {MAX_SEED}")
    if not 1 <= deals <= MAX_DEALS:
        raise OptionError(f"--deals {deals}; allowed: an integer from 1 to {MAX_DEALS:,}")
    if not 2 <= players <= 4:
        raise OptionError(f"--players {players}; allowed: 2, 3 or 4")
    from .parallel import check_parallel
    check_parallel(workers, backend, scheduler)
    r = rules()
    try:
        pols = [parse_policy(p) for p in policy]
    except PolicyError as e:
        raise OptionError(str(e)) from None
    names, canon = _field(policy, pols, players)
    seats = seatings(len(pols), players)
    if deals * len(seats) > MAX_GAMES:
        raise OptionError(f"--deals {deals:,} in {len(seats):,} seatings is {deals * len(seats):,} games; allowed: "
                          f"at most {MAX_GAMES:,} games (deals x seatings)")
    try:
        for row in seats:  # every seating must be playable (e.g. no clairvoyant restriction) before any play
            seat_policies([pols[i] for i in row], players)
    except PolicyError as e:
        raise OptionError(str(e)) from None
    anchor = canon.index("random") if "random" in canon else 0
    unit = Unit.of(r.is_match).plural
    from .ladder import work_of
    from .parallel import n_workers, size_text
    per = 20.0 * (max(1.0, r.target / 15) if r.is_match else 1.0)
    n = n_workers(workers) if backend == "local" else (workers or 8)
    with status(f"playing {deals:,} {unit} in {len(seats)} seatings: "
                f"{size_text(work_of(pols, deals, len(seats), per), n)} ...") as tick:
        play = play_duplicate(r, pols, seed, deals, workers=workers, backend=backend, scheduler=scheduler,
                              progress=tick if callable(tick) else None)
        orders = finishing_orders(play.order_key(), play.seatings, seed)
        lad = ladder_ratings(orders, names, anchor=anchor, anchor_rating=ANCHOR_RATING, bootstrap=BOOTSTRAP,
                             seed=seed)
    return ladder_answer(lad, shown, players, len(seats), play.seconds, seed, r.target)


def _field(policy: List[str], pols: list, players: int) -> tuple[list[str], list[str]]:
    """(the names shown, the canonical names) of a fair field of different policies, enough for the table."""
    # shown as given (search, not search:worlds=16,model=greedy,depth=6); the same policy twice is refused
    names = [p.strip() for p in policy]
    canon = [str(p) for p in pols]
    names = ["random" if c == "random" else n for n, c in zip(names, canon)]
    for p in pols:
        if not p.info.fair:
            raise OptionError(f"policy {p}: not a fair player (it sees every hand), so it has no place on a ladder; "
                              "allowed: the fair policies (simdom policies), clairvoyant is rated by simdom skill")
    dup = next((i for i, c in enumerate(canon) if c in canon[:i]), None)
    if dup is not None:
        first = names[canon.index(canon[dup])]
        same = "" if first == names[dup] else f" (the same as {first})"
        raise OptionError(f"policy {names[dup]}{same} is given twice; allowed: each policy once")
    if len(pols) < max(2, players):
        raise OptionError(f"{len(pols)} policies for a table of {players}; allowed: at least {players} different "
                          "policies (each seating gives every seat another policy)")
    return names, canon


def ladder_answer(lad, rules_name: str, players: int, n_seatings: int, seconds: float, seed: int | None = None,
                  target: int = 0):
    """The answer: the best policy and its lead, the spread; the ratings best first; head-to-head."""
    return ladder_answer_of(ladder_data(lad, rules_name, players, n_seatings, seconds, seed, target))


def ladder_data(lad, rules_name: str, players: int, n_seatings: int, seconds: float, seed: int | None,
                target: int = 0) -> dict:
    """`simdom ladder --format json`: the ratings best first, each pair once (the higher-rated as a);
    with a match ``target``, ``deals`` counts matches (``unit`` says which)."""
    import numpy as np

    from ..engine.api import SIM_VERSION

    names = lad.names
    order = list(np.argsort(-lad.rating, kind="stable"))
    lo, hi = lad.interval(lad.boot)
    pb, pb_lo_hi = lad.p_beats(), lad.interval(lad.p_beats_boot())
    sp_lo, sp_hi = lad.interval(lad.spread_boot())
    ratings = [{"policy": names[i], "rating": float(lad.rating[i]), "rating_lo": float(lo[i]),
                "rating_hi": float(hi[i]), "games": int(lad.games[i])} for i in order]
    h2h = [{"a": names[a], "b": names[b], "p_a_beats_b": float(pb[a, b]), "lo": float(pb_lo_hi[0][a, b]),
            "hi": float(pb_lo_hi[1][a, b])} for x, a in enumerate(order) for b in order[x + 1:]]
    return {"ratings": ratings, "head_to_head": h2h, "spread": float(lad.spread), "spread_lo": float(sp_lo),
            "spread_hi": float(sp_hi), "anchor": names[lad.anchor], "anchor_rating": lad.anchor_rating,
            "rules": rules_name, "players": players, "deals": lad.deals, "unit": Unit.of(target > 0).value,
            "target": target, "seatings": n_seatings,
            "replicates": int(lad.boot.shape[0]), "seconds": round(seconds, 3), "seed": seed,
            "sim_version": SIM_VERSION}
