"""What simdom replay does between parsing its options and printing: the deal found (a script, a trace
file's record, or rules + policies + seed + deal number), re-played by the engine and checked; a bad
input is one line (simdom.present.OptionError). cli/deal.py only parses and prints."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from ..present import OptionError


@dataclass
class Replay:
    """A deal re-played: its record, the steps and the final state for deal/replay.render(); a script's
    failed expectations and how many it has; ``match``: the trace file's first record is a deal of a
    match (replay that match, its id ``match_id``, instead)."""

    rec: Any = None
    steps: Any = None
    state: Any = None
    title: str = ""
    bad: list[str] = field(default_factory=list)
    expectations: int = 0
    match: bool = False
    match_id: Any = None


def read_trace(path: Path, deal: Optional[int]) -> tuple[str, Any]:
    """(FILE:LINE, record) of deal ``deal`` (None: the file's first record)."""
    from .records import RecordError, read_jsonl
    try:
        for where, rec in read_jsonl(path):
            if deal is None or (isinstance(rec, dict) and type(rec.get("deal")) is int and rec["deal"] == deal):
                return where, rec
    except RecordError as e:
        raise OptionError(str(e)) from None
    raise OptionError(f"{path}: no deal {deal}" if deal is not None else f"{path} holds no record")


def replay(*, trace_file: Optional[Path], deal: Optional[int], script: Optional[Path], seed: int,
           rules: Callable[[], Any], policies: Callable[[], Any]) -> Replay:
    """simdom replay of one deal; ``rules`` and ``policies`` build the generated deal's rules and seats."""
    from ..engine.state import trace
    from .records import RecordError
    from .replay import ReplayError, replay_record
    from .script import ScriptError, check_expectations, load_script, run_script

    out = Replay()
    where = "the deal"
    if script is not None:
        try:
            sc = load_script(script)
            st, results = run_script(sc, seed)
        except ScriptError as e:
            raise OptionError(str(e) if str(e).startswith(str(script)) else f"{script}: {e}") from None
        rec = st.record(seed=None, deal=0)
        out.title, out.expectations = sc.name, len(sc.expect)
        out.bad = check_expectations(sc, st, results)
    elif trace_file is not None:
        where, rec = read_trace(trace_file, deal)
        if deal is None and isinstance(rec, dict) and isinstance(rec.get("match"), dict):
            out.match, out.match_id = True, rec["match"].get("id")
            return out
    else:
        r = rules()
        if r.is_match:
            raise OptionError(f"target = {r.target}: a deal of a match; allowed: --match I to replay match I, or "
                              "target = 0")
        rec = trace(r, policies(), seed, deal or 0)
    if isinstance(rec, dict) and isinstance(rec.get("match"), dict):
        mid = rec["match"].get("id")
        raise OptionError(f"{where}: deal {rec.get('deal')} is a deal of match {mid}; allowed: --match {mid} to "
                          "replay its match")
    try:
        out.state, out.steps = replay_record(rec, where)
    except RecordError as e:
        raise OptionError(f"not a deal record: {e}") from None
    except ReplayError as e:
        raise OptionError(f"the deal does not replay: {e}") from None
    out.rec = rec
    return out
