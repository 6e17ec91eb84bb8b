"""`simdom review`: every decision of a played deal rated, the luck of every chance event (analyze/review.py)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .common import MAX_SEED, OLD_OUTPUT_OPT, OUT_HELP, OVERWRITE_OPT, check_out, console, fail

FORMATS = ("text", "table", "json", "md", "csv", "html")
MAX_ROLLOUTS = 1_000_000
#: rollouts per decision and per chance event by default; with a python: policy (Python speed)
ROLLOUTS, LUCK_ROLLOUTS = 4000, 1000
PYTHON_ROLLOUTS, PYTHON_LUCK_ROLLOUTS = 200, 100


def review_cmd(
    script: Optional[Path] = typer.Option(None, "--script", help="A scripted deal (TOML), e.g. the seed game."),
    trace_file: Optional[Path] = typer.Option(None, "--trace", help="A JSON Lines trace file (simdom trace)."),
    deal: Optional[int] = typer.Option(None, "--deal", help="The deal number in --trace (default 0)."),
    match: Optional[int] = typer.Option(None, "--match",
                                        help="Review every hand of match K of a match trace (--trace)."),
    position: Optional[Path] = typer.Option(None, "--position",
                                            help="A deal as one seat saw it (simdom view): only its decisions."),
    then: List[str] = typer.Option(["greedy"], "--then",
                                   help="Policy that plays on after each move, for every seat (or once per seat); "
                                        "python:module:function too."),
    rollouts: Optional[int] = typer.Option(None, "--rollouts",
                                           help="Rollouts per decision, paired across its moves (default 4000; "
                                                "200 with a python: policy)."),
    luck_rollouts: Optional[int] = typer.Option(None, "--luck-rollouts",
                                                help="Rollouts per chance event (default 1000; 100 with a python: "
                                                     "policy)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Root seed of the rollouts."),
    names: Optional[str] = typer.Option(None, "--names", help="Player names in seat order, comma-separated."),
    fmt: str = typer.Option("text", "--format", "-f", help="text, json, md, csv or html (a self-contained page)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
    output: Optional[Path] = OLD_OUTPUT_OPT,
) -> None:
    """Review a played deal: every decision's error against the best move, with its 95% interval and a mark; the luck of the deal and of every draw; one line per player.

    Error: the best move's expected final points minus the played move's (rollouts as simdom analyze). Marks, only when the interval excludes 0: blunder >= 4 points, mistake >= 2, inaccuracy >= 0.5. Luck: expected final points just after a chance event minus just before it (docs/analysis.md, Review).

    [bold]Examples[/]

      simdom review --script scenarios/seed-game.deal.toml
      simdom review --trace t.jsonl --deal 3 --format json -o review.json
      simdom review --script scenarios/seed-game.deal.toml --format html -o review.html
      simdom review --position maria.json      # only what Maria saw, only her decisions
      simdom review --trace m.jsonl --match 0  # every hand of match 0 (values per deal)
    """
    from .. import present as P
    from ..analyze.position import PositionError, load_deal
    from ..analyze.review import answer, csv_rows, review
    from ..engine.pypolicy import seat_policies
    from ..policies import PolicyError

    from ..engine.pypolicy import any_python
    if fmt not in FORMATS:
        fail(f"--format {fmt!r}; allowed: text, json, md, csv, html")
    py = any_python(then)
    if rollouts is None:
        rollouts = PYTHON_ROLLOUTS if py else ROLLOUTS
    if luck_rollouts is None:
        luck_rollouts = PYTHON_LUCK_ROLLOUTS if py else LUCK_ROLLOUTS
    if not 2 <= rollouts <= MAX_ROLLOUTS:
        fail(f"--rollouts {rollouts}; allowed: an integer from 2 to {MAX_ROLLOUTS:,}")
    if not 2 <= luck_rollouts <= MAX_ROLLOUTS:
        fail(f"--luck-rollouts {luck_rollouts}; allowed: an integer from 2 to {MAX_ROLLOUTS:,}")
    if not 0 <= seed <= MAX_SEED:
        fail(f"--seed {seed}; allowed: an integer from 0 to {MAX_SEED}")
    out = out or output  # --output: the old spelling
    check_out(out, overwrite)
    if match is not None:
        _review_match(trace_file, match, deal, script, position, then, rollouts, luck_rollouts, seed, names, fmt, out)
        return
    if position is not None and (script is not None or trace_file is not None):
        fail("--position with --script or --trace; allowed: one deal source (--script, --trace or --position)")
    if script is None and trace_file is None and position is None:
        fail("no deal given; allowed: --script FILE, --trace FILE --deal I, or --position FILE")
    viewer = None
    try:
        if position is not None:
            from ..analyze.view import full_deal, load_view
            if deal is not None:
                fail("--deal does not apply to --position (a position file holds one deal)")
            v = load_view(position)
            d, viewer = full_deal(v), v.seat
        else:
            d = load_deal(script=script, trace_file=trace_file, deal=deal)
        seat_policies(then, d.rules.players)
    except PositionError as e:
        fail(str(e))
    except PolicyError as e:
        fail(f"--then: {e}")
    listed = _names(names, d.rules.players)
    if not d.plays:
        fail(f"{d.label} has no placements; allowed: a deal with at least one move to review")
    with console.status(f"reviewing {len(d.plays)} moves ..."):
        r = review(d, then=then if len(then) > 1 else then[0], seed=seed, rollouts=rollouts,
                   luck_rollouts=luck_rollouts, names=listed, viewer=viewer)
    if fmt == "html":
        from ..report.review import deal_sections
        _emit_html(deal_sections(r), f"simdom review: {d.label}", out)
    else:
        ans = answer(r)
        if fmt == "csv":
            ans = P.Answer(ans.sentences, data=csv_rows(r))
        P.emit(ans, "table" if fmt == "text" else fmt, out, console=console)
    if out is not None:
        console.print(f"Wrote the review of {d.label} to {out}.", highlight=False)


def _emit_html(sections, title: str, out: Optional[Path]) -> None:
    """--format html: the review's sections as one self-contained page (simdom.report.review), to -o FILE
    (whole or not at all: a temporary file renamed over it) or to standard output."""
    import sys

    from ..report.review import review_html
    from ..safeio import write_atomic
    body = review_html(sections, title)
    if out is None:
        sys.stdout.write(body)
    else:
        write_atomic(out, body)


def _names(names: Optional[str], players: int) -> Optional[list[str]]:
    """--names A,B,...: one non-empty name per seat, or None."""
    if names is None:
        return None
    listed = [x.strip() for x in names.split(",")]
    if len(listed) != players or not all(listed):
        fail(f"--names {names!r}: {len(listed)} names; allowed: {players} non-empty names, comma-separated")
    return listed


def _review_match(trace_file, match, deal, script, position, then, rollouts, luck_rollouts, seed, names, fmt,
                  out) -> None:
    """simdom review --trace FILE --match K: every hand of the match (analyze/matchreview.py)."""
    from .. import present as P
    from ..analyze.matchreview import answer_match, csv_rows_match, load_match, review_match
    from ..analyze.position import PositionError
    from ..policies import PolicyError, seat_policies

    if script is not None or position is not None:
        fail("--match with --script or --position; allowed: --match K with --trace FILE (a match trace)")
    if trace_file is None:
        fail("--match needs a match trace; allowed: --trace FILE --match K (simdom trace --matches)")
    if deal is not None:
        fail("--match and --deal both given; allowed: --match K (every hand of match K) or --deal I (one deal)")
    try:
        hands = load_match(trace_file, match)
        n = hands[0].deal.rules.players
        seat_policies(then, n)
    except PositionError as e:
        fail(str(e))
    except PolicyError as e:
        fail(f"--then: {e}")
    listed = _names(names, n)
    with console.status(f"reviewing the {len(hands)} hands of match {match} ...") as status:
        m = review_match(hands, then=then if len(then) > 1 else then[0], seed=seed, rollouts=rollouts,
                         luck_rollouts=luck_rollouts, names=listed,
                         progress=lambda i, k: status.update(f"reviewing hand {i + 1} of {k} of match {match} ..."))
    if fmt == "html":
        from ..report.review import match_sections
        _emit_html(match_sections(m), f"simdom review: match {match} of {trace_file.name}", out)
    else:
        ans = answer_match(m)
        if fmt == "csv":
            ans = P.Answer(ans.sentences, data=csv_rows_match(m))
        P.emit(ans, "table" if fmt == "text" else fmt, out, console=console)
    if out is not None:
        console.print(f"Wrote the review of match {match} ({len(hands)} hands) to {out}.", highlight=False)


def register(app: typer.Typer) -> None:
    app.command("review")(review_cmd)
