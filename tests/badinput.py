"""Shared by the bad-input tests (issue 12.6): a workspace of good inputs, a copy of it per case, and the
check every case makes: the exit code, the message's key words, one error line, no traceback, and
nothing already written changed (every file of the workspace byte for byte, no file added or removed).
"""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any, Callable

from typer.testing import CliRunner

from simdom.cli import app
from simdom.engine.state import trace
from simdom.engine.matches import trace_match
from simdom.rules import preset
from simdom.run.runner import run
from simdom.run.scenario import from_dict

SCRIPT = Path(__file__).resolve().parents[1] / "scenarios" / "seed-game.deal.toml"
SCENARIO = 'name = "small"\nplayers = 4\ndeals = 300\nseed = 7\nchunk_size = 100\nrotation = true\n' \
           'policies = ["greedy", "random", "greedy", "random"]\n[rules]\npreset = "threes"\n'


def build(root: Path) -> Path:
    """The workspace: a deal trace, a match trace, a scripted deal, a scenario, a results folder of it, and a
    folder that simdom did not write."""
    root.mkdir(parents=True, exist_ok=True)
    r = preset("threes", 4)
    (root / "good.jsonl").write_text("".join(json.dumps(trace(r, "greedy", 7, i)) + "\n" for i in range(3)))
    m = preset("fives", 2, target=61)
    recs = [rec for mid in range(2) for rec in trace_match(m, "greedy", 7, mid)]
    (root / "match.jsonl").write_text("".join(json.dumps(x) + "\n" for x in recs))
    shutil.copy(SCRIPT, root / "script.toml")
    (root / "scen.toml").write_text(SCENARIO)
    import tomllib
    run(from_dict(tomllib.loads(SCENARIO), "scen.toml"), root / "res", workers=1)
    match = SCENARIO.replace('"small"', '"matches"').replace("deals = 300", "deals = 40").replace(
        "chunk_size = 100", "chunk_size = 20").replace('preset = "threes"', 'preset = "fives"\ntarget = 61')
    (root / "match.toml").write_text(match)
    run(from_dict(tomllib.loads(match), "match.toml"), root / "mres", workers=1)
    (root / "mine").mkdir()
    (root / "mine" / "notes.txt").write_text("not simdom's")
    return root


def snapshot(root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        out[rel] = "dir" if p.is_dir() else hashlib.sha1(p.read_bytes()).hexdigest()
    return out


def edit_json_line(path: Path, change: Callable[[dict], None], line: int = 0) -> None:
    """Apply ``change`` to the record on ``line`` of a JSON Lines file (every line is kept)."""
    lines = path.read_text().splitlines()
    rec = json.loads(lines[line])
    change(rec)
    lines[line] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n")


def edit_json(path: Path, change: Callable[[dict], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def check(ws: Path, args: list[str], words: list[str], code: int = 2) -> str:
    """Run ``simdom ARGS`` in ``ws``; assert the exit code, the key words (case-insensitive), exactly one error
    line, no traceback, and an unchanged workspace. Returns the output."""
    import os
    before = snapshot(ws)
    cwd = os.getcwd()
    os.chdir(ws)
    try:
        r = CliRunner().invoke(app, [str(a) for a in args])
    finally:
        os.chdir(cwd)
    text = r.output + (r.stderr if r.stderr and r.stderr not in r.output else "")
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception), text)
    assert r.exit_code == code, (args, r.exit_code, text)
    assert "Traceback" not in text, (args, text)
    errors = [line for line in text.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, (args, text)
    low = errors[0].lower()
    for w in words:
        assert w.lower() in low, (args, w, errors[0])
    assert snapshot(ws) == before, (args, "the workspace changed")
    return errors[0]
