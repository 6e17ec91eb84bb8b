"""Held-out round (issue 22.7): a sample of bench/held_out.py's hostile inputs, the cases it found failing
(fixed) and some of every kind that held. Each gets one error line, exit code 2, no traceback, and leaves
the workspace as it was (tests/badinput.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from badinput import build, check

HUGE, DEEP = "9" * 400, "[" * 500 + "]" * 500
SCRIPT = ["--script", "script.toml"]

CASES = {
    # failed before (a traceback or a silent exit 0), fixed
    "trace-deals-huge": (["trace", "-o", "t.jsonl", "--deals", HUGE], ["--deals", "10000000"]),
    "trace-matches-huge": (["trace", "-o", "t.jsonl", "-r", "fives", "--set", "target=61", "--matches", HUGE],
                           ["--matches", "1000000"]),
    "export-onto-dev-full": (["export", "res", "-o", "/dev/full"], ["/dev/full", "no space left"]),
    "analyze-script-with-policy": (["analyze", *SCRIPT, "--move", "3", "--rollouts", "8", "--policy", "bogus"],
                                   ["--policy", "--script holds its own", "--then"]),
    "analyze-trace-with-players": (["analyze", "--trace", "good.jsonl", "--move", "3", "--players", "2"],
                                   ["--players", "--trace holds its own"]),
    "analyze-seat-without-hand": (["analyze", *SCRIPT, "--move", "3", "--seat", "9"], ["--seat 9", "--hand"]),
    "solve-script-with-rules": (["solve", *SCRIPT, "--move", "9", "--rules", "bogus"],
                                ["--rules", "--script holds its own", "--against"]),
    "solve-trace-with-set": (["solve", "--trace", "good.jsonl", "--move", "9", "--set", "min_ends=1"],
                             ["--set", "--trace holds its own"]),
    "replay-trace-with-policy": (["replay", "good.jsonl", "--policy", "bogus"], ["--policy", "the trace file"]),
    "replay-script-with-rules": (["replay", *SCRIPT, "--rules", "bogus"], ["--rules", "--script holds its own"]),
    # held before: one of each kind
    "replay-deep-json": (["replay", "bad.jsonl"], ["bad.jsonl:1", "32 levels"]),
    "review-binary-script": (["review", "--script", "bad.toml", "--rollouts", "4"], ["utf-8"]),
    "stats-deep-manifest": (["stats", "res"], ["manifest"]),
    "run-workers-nan": (["run", "scen.toml", "-q", "--out", "new", "--workers", "nan"], ["--workers"]),
    "ladder-policy-huge-samples": (["ladder", "-d", "2", "greedy", f"rollout:samples={HUGE}"], ["samples"]),
}
FILES = {"replay-deep-json": ("bad.jsonl", DEEP + "\n"), "review-binary-script": ("bad.toml", b"\x00\xff\xfe\x80 junk"),
         "stats-deep-manifest": ("res/manifest.json", DEEP)}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("held-out") / "ws")


@pytest.mark.parametrize("name", list(CASES))
def test_held_out_input_gets_one_line(pristine, tmp_path, name):
    ws = tmp_path / "ws"
    shutil.copytree(pristine, ws)
    if name in FILES:
        path, text = FILES[name]
        (ws / path).write_bytes(text if isinstance(text, bytes) else text.encode())
    args, words = CASES[name]
    check(ws, args, words)
