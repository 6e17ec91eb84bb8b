"""What simdom analyze and review do between parsing their options and printing: the options
checked (one line naming a bad one, simdom.present.OptionError), the deal or position loaded, the
rollouts or games played, the answer built (cli/analyze.py and review.py only parse and print)."""
from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Any, Callable, ContextManager, List, Optional

from ..present import Answer, OptionError, check_out

from .evaluate import MAX_ROLLOUTS, MAX_SEED  # noqa: F401 - the bounds' one home (analyze, review, library)
#: review: rollouts per decision and per chance event by default; with a python: policy (Python speed)
ROLLOUTS, LUCK_ROLLOUTS = 4000, 1000
PYTHON_ROLLOUTS, PYTHON_LUCK_ROLLOUTS = 200, 100

Status = Callable[[str], ContextManager[Any]]


def _quiet(_: str) -> ContextManager[Any]:
    return nullcontext()


def _bad(message: str) -> OptionError:
    return OptionError(message)


def analyze(*, script: Optional[Path], trace_file: Optional[Path], position: Optional[Path], hand: Optional[str],
            seen: Optional[str], seat: int, deal: Optional[int], move: Optional[int], every: bool, then: List[str],
            rollouts: Optional[int], budget: int, seed: int, perfect: bool, by: str, out: Optional[Path],
            overwrite: bool, rules: Callable[[], Any], policies: Callable[[], Any],
            status: Status = _quiet, score: Optional[str] = None, equity: Any = None) -> Answer:
    """simdom analyze: every legal move of the position (or of every move of the deal) valued by
    rollouts. ``rules`` and ``policies`` build the --rules/--set rules and the --policy seats when a
    source needs them."""
    from ..policies import PolicyError
    from .evaluate import check_options, evaluate
    from .position import PositionError
    from .render import all_answer, answer

    check_out(out, overwrite)
    check_options(rollouts=rollouts, budget=budget, seed=seed, by=by, cli=True)  # as the library's (evaluate.py)
    try:
        positions = _positions(script, trace_file, position, hand, seen, seat, deal, move, every, perfect, seed,
                               then, rules, policies)
    except PositionError as e:
        raise _bad(str(e)) from None
    except PolicyError as e:
        raise _bad(f"--then: {e}") from None
    kw = dict(then=then if len(then) > 1 else then[0], seed=seed, rollouts=rollouts, budget=budget,
              perfect=perfect, by=by, match=_match(positions[0], by, score, then, status, equity))
    if every:
        with status(f"analysing {len(positions)} moves ..."):
            return all_answer([evaluate(p, **kw) for p in positions])
    with status(f"rolling out the {len(positions[0].moves)} legal moves ..."):
        return answer(evaluate(positions[0], **kw))


def _match(position, by: str, score: Optional[str], then: List[str], status: Status, equity):
    """--by match: the position's deal valued at the match's scores (analyze/matchvalue.py), else None."""
    from ..present import OptionError
    from .matchvalue import TABLE_DEALS, match_value
    if by != "match":
        if score is not None:
            raise _bad(f"--score {score} applies with --by match; allowed: --by match --score A,B")
        return None
    try:
        scores = None if score is None else [int(x) for x in score.replace(" ", "").split(",")]
    except ValueError:
        raise _bad(f"--score {score!r}; allowed: the sides' scores before the deal, e.g. --score 45,70") from None
    if len(set(then)) > 1:
        raise _bad("--by match with a policy per seat; allowed: one --then policy (the table is of one policy)")
    try:
        with status(f"the match equity table of {then[0]} ({TABLE_DEALS:,} deals, once; then cached) ..."):
            return match_value(position.rules, scores, str(then[0]), equity)
    except OptionError as e:
        raise _bad(str(e)) from None


def _positions(script, trace_file, position, hand, seen, seat, deal, move, every, perfect, seed, then, rules,
               policies) -> list:
    """The positions simdom analyze values (one, or every move of the deal with --all); --then checked
    against the deal's players."""
    from ..engine.pypolicy import seat_policies
    from .position import from_script, from_seed, from_trace
    from .viewread import view_options, viewer_position

    viewed = position is not None or hand is not None
    if viewed:
        problem = view_options(script, trace_file, position, hand, seen, deal, every, perfect)
        if problem:
            raise _bad(problem)
    elif (move is None) == (not every):
        raise _bad("give --move N (one position) or --all (every move of the deal); allowed: exactly one of them")
    if script is not None and trace_file is not None:
        raise _bad("--script and --trace both given; allowed: one deal source (--script, --trace, or "
                   "--rules/--seed/--deal)")
    if viewed:
        pos = viewer_position(position, None if position is not None else rules(), hand, seen, seat, move)
        seat_policies(then, pos.rules.players)
        return [pos]
    if script is not None:
        if deal is not None:
            raise _bad("--deal does not apply to --script (a script holds one deal)")
        source = from_script(script)
    elif trace_file is not None:
        source = from_trace(trace_file, 0 if deal is None else deal)
    else:
        if deal is None:
            raise _bad("no deal given; allowed: --script FILE, --trace FILE --deal I, or --seed S --deal I")
        source = from_seed(rules(), policies(), seed, deal)  # the deal number checked there
    seat_policies(then, source.rules.players)
    return [source.position(move)] if move is not None else list(source.positions())


def review(*, script: Optional[Path], trace_file: Optional[Path], deal: Optional[int], match: Optional[int],
           position: Optional[Path], then: List[str], rollouts: Optional[int], luck_rollouts: Optional[int],
           seed: int, names: Optional[str], fmt: str, out: Optional[Path], overwrite: bool,
           status: Status = _quiet, by: str = "points", equity: Any = None) -> tuple[Any, str]:
    """simdom review: (the answer, what was reviewed: "the review of DEAL" or "the review of match K (N
    hands)"), every decision rated and the luck of every chance event; ``fmt`` csv: the answer's data is
    the csv rows; ``fmt`` html: instead of the answer, the page's contents (a dict of answers, see
    simdom.report.review), which the report layer writes."""
    from ..engine.pypolicy import any_python

    py = any_python(then)
    if rollouts is None:
        rollouts = PYTHON_ROLLOUTS if py else ROLLOUTS
    if luck_rollouts is None:
        luck_rollouts = PYTHON_LUCK_ROLLOUTS if py else LUCK_ROLLOUTS
    from .review import check_options
    check_options(rollouts=rollouts, luck_rollouts=luck_rollouts, seed=seed, names=None, players=0, cli=True)
    check_out(out, overwrite)
    kw = dict(then=then, rollouts=rollouts, luck_rollouts=luck_rollouts, seed=seed, names=names, fmt=fmt,
              status=status)
    if match is not None:
        return _review_match(trace_file, match, deal, script, position, by=by, equity=equity, **kw)
    if by == "match":
        raise _bad("--by match reviews a whole match (its scores before each hand); allowed: --trace FILE --match "
                   "K --by match, or --by points, margin or win for one deal")
    return _review_deal(script, trace_file, deal, position, by=by, **kw)


def _review_deal(script, trace_file, deal, position, *, then, rollouts, luck_rollouts, seed, names, fmt,
                 status, by="points") -> tuple[Answer, str]:
    from ..engine.pypolicy import seat_policies
    from ..policies import PolicyError
    from .position import PositionError, load_deal
    from .review import answer, csv_rows, review as review_deal

    if position is not None and (script is not None or trace_file is not None):
        raise _bad("--position with --script or --trace; allowed: one deal source (--script, --trace or --position)")
    if script is None and trace_file is None and position is None:
        raise _bad("no deal given; allowed: --script FILE, --trace FILE --deal I, or --position FILE")
    viewer = None
    try:
        if position is not None:
            from .view import full_deal
            from .viewread import load_view
            if deal is not None:
                raise _bad("--deal does not apply to --position (a position file holds one deal)")
            v = load_view(position)
            d, viewer = full_deal(v), v.seat
        else:
            d = load_deal(script=script, trace_file=trace_file, deal=deal)
        seat_policies(then, d.rules.players)
    except PositionError as e:
        raise _bad(str(e)) from None
    except PolicyError as e:
        raise _bad(f"--then: {e}") from None
    listed = seat_names(names, d.rules.players)
    if not d.plays:
        raise _bad(f"{d.label} has no placements; allowed: a deal with at least one move to review")
    with status(f"reviewing {len(d.plays)} moves ..."):
        r = review_deal(d, then=then if len(then) > 1 else then[0], seed=seed, rollouts=rollouts,
                        luck_rollouts=luck_rollouts, names=listed, viewer=viewer, by=by)
    if fmt == "html":  # the page's contents; simdom.report.review (above this layer) writes it
        return {"label": d.label, "answer": answer(r), "boards": boards(d, r)}, f"the review of {d.label}"
    ans = answer(r)
    if fmt == "csv":
        ans = Answer(ans.sentences, data=csv_rows(r))
    return ans, f"the review of {d.label}"


def boards(d, r) -> list[tuple[str, str]]:
    """The board (simdom/board.py) before every placement of deal ``d``, then after the last, each with its
    caption: who placed what there, and the review's mark (review ``r``)."""
    from ..board import state_svg
    from ..tiles import tile_name
    marks = {x.move: x.mark for x in r.decisions}
    out = []
    for p in d.positions():
        t, e = p.played
        mark = f" ({marks[p.move]})" if marks.get(p.move) else ""
        out.append((state_svg(p.state, f"before move {p.move}"), f"Before move {p.move}: {r.names[p.seat]} placed "
                    f"{tile_name(t, d.rules.max_pip)} {e.label}{mark}."))
    st = d.start()
    for t, e in d.plays:
        st.play(t, e)
    out.append((state_svg(st, "after the last move"), f"After move {len(d.plays)}."))
    return out


def seat_names(names: Optional[str], players: int) -> Optional[list[str]]:
    """--names A,B,...: one non-empty name per seat, or None (checked as the library's, review.py)."""
    from .review import check_options
    return check_options(rollouts=2, luck_rollouts=2, seed=0, names=names, players=players, cli=True)


def _review_match(trace_file, match, deal, script, position, *, then, rollouts, luck_rollouts, seed, names, fmt,
                  status, by="points", equity=None) -> tuple[Answer, str]:
    """simdom review --trace FILE --match K: every hand of the match (analyze/matchreview.py)."""
    from ..policies import PolicyError, seat_policies
    from .matchreview import answer_match, csv_rows_match, load_match, review_match
    from .review import answer
    from .position import PositionError

    if script is not None or position is not None:
        raise _bad("--match with --script or --position; allowed: --match K with --trace FILE (a match trace)")
    if trace_file is None:
        raise _bad("--match needs a match trace; allowed: --trace FILE --match K (simdom trace --matches)")
    if deal is not None:
        raise _bad("--match and --deal both given; allowed: --match K (every hand of match K) or --deal I (one "
                   "deal)")
    try:
        hands = load_match(trace_file, match)
        n = hands[0].deal.rules.players
        seat_policies(then, n)
    except PositionError as e:
        raise _bad(str(e)) from None
    except PolicyError as e:
        raise _bad(f"--then: {e}") from None
    listed = seat_names(names, n)
    with status(f"reviewing the {len(hands)} hands of match {match} ...") as shown:
        progress = (lambda i, k: shown.update(f"reviewing hand {i + 1} of {k} of match {match} ...")) \
            if shown is not None else None
        try:
            m = review_match(hands, then=then if len(then) > 1 else then[0], seed=seed, rollouts=rollouts,
                             luck_rollouts=luck_rollouts, names=listed, progress=progress, by=by, equity=equity)
        except OptionError as e:
            raise _bad(str(e)) from None
    what = f"the review of match {match} ({len(hands)} hands)"
    if fmt == "html":
        return {"match": m.match, "answer": answer_match(m),
                "hands": [{"hand": x.hand, "before": x.before, "answer": None if x.review is None else answer(x.review)}
                          for x in m.hands]}, what
    ans = answer_match(m)
    if fmt == "csv":
        ans = Answer(ans.sentences, data=csv_rows_match(m))
    return ans, f"the review of match {match} ({len(hands)} hands)"
