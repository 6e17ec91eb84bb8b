"""`simdom review`: every decision of a played deal rated, the luck of every chance event (analyze/review.py)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..analyze.choices import Metric, ReviewFormat
from .analyze import _equity
from .common import OLD_OUTPUT_OPT, OUT_HELP, OVERWRITE_OPT, console, out_format


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
    by: Metric = typer.Option(Metric.points, "--by", help="The currency of the decisions: expected final points, "
                              "margin, win (the chance to win the deal; marks at 2, 5 and 10 percentage points), or "
                              "match (a whole match, --match K: the match equity at each hand's scores)."),
    fmt: Optional[ReviewFormat] = typer.Option(None, "--format", "-f",
                                               help="text, json, md, csv or html (a self-contained page); default: "
                                                    "text, or as -o's suffix names."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
    output: Optional[Path] = OLD_OUTPUT_OPT,
) -> None:
    """Review a played deal: every decision's error against the best move, with its 95% interval and a mark; the luck of the deal and of every draw; one line per player.

    Error: the best move's expected final points minus the played move's (rollouts as simdom analyze). Marks, only when the interval excludes 0: blunder >= 4 points, mistake >= 2, inaccuracy >= 0.5. Luck: expected final points just after a chance event minus just before it (docs/analysis.md, Review).

    [bold]Examples[/]

      simdom review --script scenarios/seed-game.deal.toml
      simdom review --trace t.jsonl --deal 3 --format json -o review.json
      simdom review --position maria.json      # only what Maria saw, only her decisions
      simdom review --trace m.jsonl --match 0  # every hand of match 0 (values per deal)
      simdom review --script scenarios/seed-game.deal.toml --by win   # in chances to win the deal
      simdom review --trace m.jsonl --match 0 --by match  # every decision in match equity
    """
    from .. import present as P
    from ..analyze.commands import review

    out = out or output  # --output: the old spelling
    fmt = out_format(fmt, out, ReviewFormat)
    ans, what = review(script=script, trace_file=trace_file, deal=deal, match=match, position=position, then=then,
                       rollouts=rollouts, luck_rollouts=luck_rollouts, seed=seed, names=names, fmt=fmt, out=out,
                       overwrite=overwrite, status=console.status, by=by.value, equity=_equity)
    if fmt == "html":
        _emit_html(ans, out, match, trace_file)
    else:
        P.emit(ans, fmt, out, console=console)
    if out is not None:
        P.say(console, f"Wrote {what} to {out}.")


def _emit_html(reviewed, out: Optional[Path], match: Optional[int], trace_file: Optional[Path]) -> None:
    """--format html: the review (of a deal, or of match ``match``) as one self-contained page
    (simdom.report.review), to -o FILE (whole or not at all: a temporary file renamed over it) or to
    standard output."""
    import sys

    from ..report.review import deal_sections, match_sections, review_html
    from ..safeio import write_atomic
    if match is None:
        page = review_html(deal_sections(reviewed), f"simdom review: {reviewed['label']}")
    else:
        page = review_html(match_sections(reviewed), f"simdom review: match {match} of {trace_file.name}")
    if out is None:
        sys.stdout.write(page)
    else:
        write_atomic(out, page)


def register(app: typer.Typer) -> None:
    app.command("review")(review_cmd)
