"""Matches (docs/rules.md 12) for `simdom trace --matches` and `simdom replay --match` (cli/deal.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Optional

from ..rules import from_dict
from .common import console, fail, make_policies, make_rules


def check_trace_options(r, matches: Optional[int], first_deal: int) -> None:
    """`simdom trace`: --matches needs a target, and a target needs --matches."""
    if matches is not None and not r.is_match:
        fail("--matches needs a match: rules with target > 0 (docs/rules.md 12); allowed: --set target=T, "
             "e.g. --set target=100, or --deals for single deals")
    if matches is not None and first_deal:
        fail("--first-deal applies to single deals; allowed with --matches: matches 0 .. M - 1 of --seed")
    if matches is None and r.is_match:
        fail(f"target = {r.target} makes every deal part of a match; allowed: --matches M to write whole "
             "matches, or target = 0 for single deals")


def write_matches(fh: IO[str], r, pols, seed: int, matches: int, advance) -> int:
    """Matches 0 .. matches - 1 of ``seed``, one JSON line per deal; returns the deals written."""
    from ..engine.matches import trace_match

    written = 0
    for m in range(matches):
        for rec in trace_match(r, pols, seed, m, deal0=written):
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
            written += 1
        advance()
    return written


def replay_match(trace_file: Optional[Path], match: Optional[int], hand: Optional[int], script: Optional[Path],
                 rules: str, players: int, policy, seed: int, overrides) -> None:
    """simdom replay --match I: a match from a trace file, or regenerated from rules + seed."""
    from ..deal.matchtrace import MatchReplayError, match_records, read_records, render_match
    from ..deal.records import RecordError, ReplayError
    from ..deal.matchtrace import replay_match as replay
    from ..engine.matches import trace_match

    if script is not None:
        fail("--script is a single scripted deal; allowed with --match: a trace file or --rules/--seed")
    if match is None:
        fail("--hand needs --match I (the match whose deal to show)")
    if trace_file is not None:
        try:
            recs = match_records(read_records(trace_file), match)
        except RecordError as e:
            fail(str(e))
        except MatchReplayError as e:
            fail(f"{trace_file}: {e}")
    else:
        r = make_rules(rules, players, overrides)
        if not r.is_match:
            fail("--match needs a match: rules with target > 0 (docs/rules.md 12); allowed: --set target=T, "
                 "e.g. --set target=100")
        recs = trace_match(r, make_policies(policy, players, python=True), seed, match)
    try:
        hands = replay(recs)
    except ReplayError as e:
        fail(f"the match does not replay: {e}")
    if hand is not None and not 0 <= hand < len(hands):
        fail(f"--hand {hand}: match {match} has {len(hands)} deals; allowed: 0..{len(hands) - 1}")
    render_match(from_dict(recs[0]["rules"]), hands, console, hand)
