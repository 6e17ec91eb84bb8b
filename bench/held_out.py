"""Held-out round (issue 22.7): hostile inputs beyond the listed cases, for every command and file type.

Builds the bad-input workspace of tests/badinput.py (traces, a scripted deal, a scenario, a results folder
and a match results folder) plus a position file, then runs each case in a fresh copy of it with typer's
CliRunner and records: the exit code, the line count of stdout + stderr, whether a traceback (an escaped
exception) appears, and whether the workspace changed. A case fails when it escapes with a traceback, exits
with a code other than 0 or 2, gives more than one line with exit code 2, or changes the workspace while
refusing. Exit code 0 is listed for review (some inputs are rightly accepted).

    .venv/bin/python bench/held_out.py            # the table of failures and the counts
    .venv/bin/python bench/held_out.py --all      # every case
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Callable, NamedTuple, Optional

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "tests"))

from badinput import build, snapshot  # noqa: E402


class Case(NamedTuple):
    args: list
    prepare: Optional[Callable[[Path], None]] = None


def write(name: str, text: str | bytes) -> Callable[[Path], None]:
    def prepare(ws: Path) -> None:
        p = ws / name
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text)
    return prepare


def mkdir(name: str) -> Callable[[Path], None]:
    return lambda ws: (ws / name).mkdir()


def both(*fs: Callable[[Path], None]) -> Callable[[Path], None]:
    def prepare(ws: Path) -> None:
        for f in fs:
            f(ws)
    return prepare


def edit(name: str, old: str, new: str, count: int = 1) -> Callable[[Path], None]:
    def prepare(ws: Path) -> None:
        text = (ws / name).read_text()
        assert old in text, (name, old)
        (ws / name).write_text(text.replace(old, new, count))
    return prepare


def first_line(src: str, dst: str, transform: Callable[[str], str] = lambda s: s) -> Callable[[Path], None]:
    def prepare(ws: Path) -> None:
        line = (ws / src).read_text().splitlines()[0]
        (ws / dst).write_text(transform(line) + "\n")
    return prepare


TIMEOUT = 12  # seconds a case may take
DEEP = "[" * 500 + "]" * 500
HUGE = "9" * 400
JUNK = b"\x00\xff\xfe\x80 junk \x01\x02"
UNI = "\u202e\u0663\ufeff\U0001F600"

#: the file-taking options of every command, each with the arguments that make the rest of the call valid
FILE_SLOTS: dict[str, Callable[[str], list]] = {
    "run": lambda f: ["run", f, "-q", "--workers", "1", "--out", "new"],
    "replay-trace": lambda f: ["replay", f],
    "replay-script": lambda f: ["replay", "--script", f],
    "analyze-trace": lambda f: ["analyze", "--trace", f, "--move", "3", "--rollouts", "8"],
    "analyze-script": lambda f: ["analyze", "--script", f, "--move", "3", "--rollouts", "8"],
    "analyze-position": lambda f: ["analyze", "--position", f, "--rollouts", "8"],
    "solve-script": lambda f: ["solve", "--script", f, "--move", "9"],
    "solve-trace": lambda f: ["solve", "--trace", f, "--move", "9"],
    "view-trace": lambda f: ["view", "--trace", f, "--seat", "0", "-o", "v.json"],
    "view-script": lambda f: ["view", "--script", f, "--seat", "0", "-o", "v.json"],
    "review-trace": lambda f: ["review", "--trace", f, "--rollouts", "4", "--luck-rollouts", "4"],
    "review-script": lambda f: ["review", "--script", f, "--rollouts", "4", "--luck-rollouts", "4"],
    "review-position": lambda f: ["review", "--position", f, "--rollouts", "4", "--luck-rollouts", "4"],
}
#: hostile contents for a file slot
CONTENTS: dict[str, Optional[str | bytes]] = {
    "missing": None,
    "dir": "DIR",
    "empty": "",
    "blank-lines": "\n\n\n",
    "binary": JUNK,
    "unicode-junk": UNI + "\n",
    "json-deep": DEEP + "\n",
    "toml-deep": f"x = {DEEP}\n",
    "json-huge-int": '{"players": ' + HUGE + "}\n",
    "toml-huge-int": f"players = {HUGE}\n",
    "json-nan": '{"players": NaN, "seed": Infinity}\n',
    "toml-nan": "players = nan\nseed = inf\n",
    "json-list": "[1, 2, 3]\n",
    "json-string": '"hello"\n',
    "json-null": "null\n",
    "truncated-json": '{"players": 4, "hands": [[',
    "toml-array-top": "[[x]]\n[[x]]\n",
    "bom-toml": "\ufeffplayers = 4\n",
}

CASES: dict[str, Case] = {}


def add(name: str, args: list, prepare: Optional[Callable[[Path], None]] = None) -> None:
    assert name not in CASES, name
    CASES[name] = Case(args, prepare)


for slot, call in FILE_SLOTS.items():
    for kind, content in CONTENTS.items():
        f = "hostile.in"
        if content is None:
            add(f"{slot}:{kind}", call("nothing-here.in"))
        elif content == "DIR":
            add(f"{slot}:{kind}", call("somedir"), mkdir("somedir"))
        else:
            add(f"{slot}:{kind}", call(f), write(f, content))
    add(f"{slot}:dev-null", call("/dev/null"))

# trace records: truncated and hostile lines in an otherwise good trace
TRACE_EDITS = {
    "truncated-last-line": lambda s: s[: len(s) // 2],
    "deep-field": lambda s: s.replace('"players": 4', f'"players": {DEEP}'),
    "huge-seed": lambda s: s.replace('"seed": 7', f'"seed": {HUGE}'),
    "nan-seed": lambda s: s.replace('"seed": 7', '"seed": NaN'),
    "float-seed": lambda s: s.replace('"seed": 7', '"seed": 7.5'),
    "negative-deal": lambda s: s.replace('"deal": 0', '"deal": -1'),
    "bool-players": lambda s: s.replace('"players": 4', '"players": true'),
    "unicode-policy": lambda s: s.replace('"greedy"', '"gr\u0435edy"', 1),
    "string-deal": lambda s: s.replace('"deal": 0', '"deal": "0"'),
}
for kind, tr in TRACE_EDITS.items():
    for slot in ("replay-trace", "analyze-trace", "solve-trace", "view-trace", "review-trace"):
        add(f"{slot}:record-{kind}", FILE_SLOTS[slot]("bad.jsonl"), first_line("good.jsonl", "bad.jsonl", tr))

# manifests of the results folder, for every reader
READERS = {
    "stats": lambda d: ["stats", d],
    "seats": lambda d: ["seats", d],
    "doubles": lambda d: ["doubles", d],
    "compare": lambda d: ["compare", d, "mres"],
    "report": lambda d: ["report", d, "-o", "r.html"],
    "export": lambda d: ["export", d, "-o", "e.csv"],
    "run-resume": lambda d: ["run", "scen.toml", "-q", "--workers", "1", "--out", d],
}
MANIFESTS = {
    "deep": DEEP,
    "huge-int": '{"kind": "simdom-results", "deals": ' + HUGE + "}",
    "nan": '{"kind": "simdom-results", "deals": NaN}',
    "truncated": '{"kind": "simdom-results", "dea',
    "empty": "",
    "list": "[]",
    "binary": JUNK,
    "dir": "DIR",
}
for kind, content in MANIFESTS.items():
    for reader, call in READERS.items():
        def prep(ws: Path, content=content) -> None:
            m = ws / "res" / "manifest.json"
            m.unlink()
            if content == "DIR":
                m.mkdir()
            elif isinstance(content, bytes):
                m.write_bytes(content)
            else:
                m.write_text(content)
        add(f"{reader}:manifest-{kind}", call("res"), prep)
for reader, call in READERS.items():
    add(f"{reader}:folder-missing", call("nothing-here"))
    add(f"{reader}:a-file", call("good.jsonl"))
    add(f"{reader}:empty-folder", call("somedir"), mkdir("somedir"))
    add(f"{reader}:unicode-arm", call("res:" + UNI))
    add(f"{reader}:empty-arm", call("res:"))

# numbers: negative, zero, huge, NaN, inf, text, unicode digits for every numeric option
NUMERIC = {
    "trace --deals": ["trace", "-o", "t.jsonl", "--deals"],
    "trace --matches": ["trace", "-o", "t.jsonl", "--set", "target=61", "-r", "fives", "--matches"],
    "trace --players": ["trace", "-o", "t.jsonl", "-d", "1", "--players"],
    "replay --deal": ["replay", "good.jsonl", "--deal"],
    "replay --seed": ["replay", "-r", "threes", "--seed"],
    "replay --match": ["replay", "match.jsonl", "--match"],
    "bench --seconds": ["bench", "--seconds"],
    "run --deals": ["run", "scen.toml", "-q", "--workers", "1", "--out", "new", "--deals"],
    "run --workers": ["run", "scen.toml", "-q", "--out", "new", "--workers"],
    "run --seed": ["run", "scen.toml", "-q", "--workers", "1", "--out", "new", "--seed"],
    "stats --bins": ["stats", "mres", "--table", "equity", "--bins"],
    "analyze --move": ["analyze", "--script", "script.toml", "--rollouts", "8", "--move"],
    "analyze --rollouts": ["analyze", "--script", "script.toml", "--move", "3", "--rollouts"],
    "analyze --budget": ["analyze", "--script", "script.toml", "--move", "3", "--budget"],
    "analyze --seat": ["analyze", "--hand", "3-6 1-4 2-3 2-6 4-4", "--rollouts", "8", "--seat"],
    "analyze --deal": ["analyze", "--trace", "good.jsonl", "--move", "3", "--rollouts", "8", "--deal"],
    "solve --move": ["solve", "--script", "script.toml", "--move"],
    "solve --limit": ["solve", "--script", "script.toml", "--move", "9", "--limit"],
    "solve --deal": ["solve", "--trace", "good.jsonl", "--move", "9", "--deal"],
    "view --seat": ["view", "--trace", "good.jsonl", "-o", "v.json", "--seat"],
    "view --move": ["view", "--trace", "good.jsonl", "-o", "v.json", "--seat", "0", "--move"],
    "view --deal": ["view", "--trace", "good.jsonl", "-o", "v.json", "--seat", "0", "--deal"],
    "review --rollouts": ["review", "--script", "script.toml", "--luck-rollouts", "4", "--rollouts"],
    "review --luck-rollouts": ["review", "--script", "script.toml", "--rollouts", "4", "--luck-rollouts"],
    "review --seed": ["review", "--script", "script.toml", "--rollouts", "4", "--luck-rollouts", "4", "--seed"],
    "review --match": ["review", "--trace", "match.jsonl", "--rollouts", "4", "--luck-rollouts", "4", "--match"],
    "review --deal": ["review", "--trace", "good.jsonl", "--rollouts", "4", "--luck-rollouts", "4", "--deal"],
    "skill --deals": ["skill", "--optimal", "greedy", "--deals"],
    "skill --seed": ["skill", "--optimal", "greedy", "-d", "2", "--seed"],
    "skill --players": ["skill", "--optimal", "greedy", "-d", "2", "--players"],
    "ladder --deals": ["ladder", "greedy", "random", "--deals"],
    "ladder --seed": ["ladder", "greedy", "random", "-d", "2", "--seed"],
    "ladder --players": ["ladder", "greedy", "random", "-d", "2", "--players"],
    "rules --players": ["rules", "threes", "--players"],
}
VALUES = {"neg": "-3", "zero": "0", "huge": HUGE, "nan": "nan", "inf": "inf", "text": "abc",
          "unicode-digit": "\u0663", "float": "2.5", "empty": ""}
for opt, args in NUMERIC.items():
    for kind, v in VALUES.items():
        add(f"{opt}={kind}", [*args, v])

# unknown option values: enums and free-text choices
CHOICES = {
    "stats --by": ["stats", "res", "--by"],
    "stats --table": ["stats", "res", "--table"],
    "stats --format": ["stats", "res", "--format"],
    "stats(match) --table": ["stats", "mres", "--table"],
    "stats(match) --by": ["stats", "mres", "--by"],
    "seats --format": ["seats", "res", "--format"],
    "doubles --by": ["doubles", "res", "--decisions", "--by"],
    "doubles --table": ["doubles", "res", "--table"],
    "doubles --format": ["doubles", "res", "--format"],
    "compare --strong": ["compare", "res", "mres", "--strong"],
    "compare --format": ["compare", "res", "mres", "--format"],
    "export --view": ["export", "res", "-o", "e.csv", "--view"],
    "export --format": ["export", "res", "-o", "e.csv", "--format"],
    "view --format": ["view", "--trace", "good.jsonl", "--seat", "0", "-o", "v.json", "--format"],
    "review --format": ["review", "--script", "script.toml", "--rollouts", "4", "--luck-rollouts", "4", "--format"],
    "review --then": ["review", "--script", "script.toml", "--rollouts", "4", "--luck-rollouts", "4", "--then"],
    "review --names": ["review", "--script", "script.toml", "--rollouts", "4", "--luck-rollouts", "4", "--names"],
    "analyze --by": ["analyze", "--script", "script.toml", "--move", "3", "--rollouts", "8", "--by"],
    "analyze --then": ["analyze", "--script", "script.toml", "--move", "3", "--rollouts", "8", "--then"],
    "analyze --hand": ["analyze", "--rollouts", "8", "--hand"],
    "analyze --seen": ["analyze", "--rollouts", "8", "--hand", "3-6 1-4 2-3 2-6 4-4", "--seen"],
    "analyze --policy": ["analyze", "--script", "script.toml", "--move", "3", "--rollouts", "8", "--policy"],
    "solve --by": ["solve", "--script", "script.toml", "--move", "9", "--by"],
    "solve --against": ["solve", "--script", "script.toml", "--move", "9", "--against"],
    "skill --optimal": ["skill", "-d", "2", "--optimal"],
    "skill --opponents": ["skill", "-d", "2", "--optimal", "greedy", "--opponents"],
    "skill --rules": ["skill", "-d", "2", "--optimal", "greedy", "--rules"],
    "ladder policy": ["ladder", "-d", "2", "greedy"],
    "ladder --rules": ["ladder", "-d", "2", "greedy", "random", "--rules"],
    "bench --policy": ["bench", "--seconds", "0.1", "--policy"],
    "trace --rules": ["trace", "-o", "t.jsonl", "-d", "1", "--rules"],
    "trace --policy": ["trace", "-o", "t.jsonl", "-d", "1", "--policy"],
    "policies name": ["policies"],
    "rules preset": ["rules"],
    "run --backend": ["run", "scen.toml", "-q", "--workers", "1", "--out", "new", "--backend"],
}
WORDS = {"bogus": "bogus", "unicode": UNI, "empty": "", "comma": ",,", "deep": DEEP, "huge": HUGE,
         "param-huge": "rollout:samples=" + HUGE, "param-nan": "rollout:samples=nan", "colon": ":::"}
for opt, args in CHOICES.items():
    for kind, v in WORDS.items():
        add(f"{opt}={kind}", [*args, v])

# --set values on every command that takes them
SET_CMDS = {
    "rules": ["rules", "threes"],
    "trace": ["trace", "-o", "t.jsonl", "-d", "1"],
    "replay": ["replay", "-r", "threes"],
    "analyze": ["analyze", "-r", "threes", "--deal", "1", "--move", "3", "--rollouts", "8"],
    "solve": ["solve", "-r", "threes", "--deal", "1", "--move", "9"],
    "skill": ["skill", "-d", "2", "--optimal", "greedy"],
    "ladder": ["ladder", "greedy", "random", "-d", "2"],
    "bench": ["bench", "--seconds", "0.1"],
}
SETS = {
    "nan": "min_ends=nan", "inf": "target=inf", "neg-inf": "hand_size=-inf", "huge-points": f"points=fixed:{HUGE}",
    "huge-divisor": f"divisors=[{HUGE}]", "deep-table": "divisors=" + "{a=" * 60 + "1" + "}" * 60,
    "unicode-key": f"{UNI}=3", "unicode-value": f"lead={UNI}", "float-hand": "hand_size=5.5",
    "bool-hand": "hand_size=true", "string-list": "divisors=['a']", "nan-in-list": "divisors=[NaN]",
    "mixed-list": "divisors=[3, \"x\", null]", "dict-bonus": "first_double_bonus={a=1}",
    "empty-key": "=3", "empty-value": "min_ends=", "bonus-huge": f"first_double_bonus=[[{HUGE}, 2]]",
    "null": "min_ends=null",
}
for cmd, args in SET_CMDS.items():
    for kind, v in SETS.items():
        add(f"{cmd} --set {kind}", [*args, "--set", v])

# output targets: a folder, a missing folder, a file under a file, /dev/full, an existing file
WRITERS = {
    "trace": ["trace", "-d", "1", "-o"],
    "stats": ["stats", "res", "-o"],
    "seats": ["seats", "res", "-o"],
    "doubles": ["doubles", "res", "-o"],
    "compare": ["compare", "res", "mres", "-o"],
    "report": ["report", "res", "-o"],
    "export": ["export", "res", "-o"],
    "view": ["view", "--trace", "good.jsonl", "--seat", "0", "-o"],
    "review": ["review", "--script", "script.toml", "--rollouts", "4", "--luck-rollouts", "4", "-o"],
    "analyze": ["analyze", "--script", "script.toml", "--move", "3", "--rollouts", "8", "-o"],
    "solve": ["solve", "--script", "script.toml", "--move", "9", "-o"],
    "skill": ["skill", "-d", "2", "--optimal", "greedy", "-o"],
    "ladder": ["ladder", "greedy", "random", "-d", "2", "-o"],
}
TARGETS = {"a-folder": ("res", None), "missing-folder": ("nope/x.csv", None), "under-a-file": ("good.jsonl/x.csv", None),
           "existing": ("scen.toml", None), "dev-full": ("/dev/full", None), "empty-name": ("", None),
           "unicode-suffix": ("x." + UNI, None), "no-suffix": ("noext", None)}
for cmd, args in WRITERS.items():
    for kind, (target, _) in TARGETS.items():
        add(f"{cmd} -o {kind}", [*args, target])

# option combinations and unknown options
add("unknown-option", ["stats", "res", "--colour", "red"])
add("unknown-command", ["statz", "res"])
add("analyze-nothing", ["analyze"])
add("analyze-two-sources", ["analyze", "--script", "script.toml", "--trace", "good.jsonl", "--move", "3"])
add("solve-two-sources", ["solve", "--script", "script.toml", "--trace", "good.jsonl", "--move", "3"])
add("view-two-sources", ["view", "--script", "script.toml", "--trace", "good.jsonl", "--seat", "0", "-o", "v.json"])
add("review-two-sources", ["review", "--script", "script.toml", "--trace", "good.jsonl"])
add("view-no-source", ["view", "--seat", "0", "-o", "v.json"])
add("review-no-source", ["review"])
add("review-match-on-deal-trace", ["review", "--trace", "good.jsonl", "--match", "0"])
add("review-names-too-many", ["review", "--script", "script.toml", "--rollouts", "4", "--luck-rollouts", "4",
                              "--names", "a,b,c,d,e,f"])
add("analyze-position-and-hand", ["analyze", "--position", "pos.json", "--hand", "3-6", "--rollouts", "8"])
add("analyze-seat-without-hand", ["analyze", "--script", "script.toml", "--move", "3", "--seat", "9"])
add("ladder-one-policy", ["ladder", "greedy", "-d", "2"])
add("ladder-no-policy", ["ladder", "-d", "2"])
add("compare-one", ["compare", "res"])
add("stats-moves-without-moves", ["stats", "res", "--moves"])
add("doubles-decisions-without", ["doubles", "res", "--decisions"])
add("export-no-out", ["export", "res"])
add("report-no-out", ["report", "res"])
# position files edited
add("analyze-position:players-huge", ["analyze", "--position", "bad.json", "--rollouts", "8"],
    both(lambda ws: (ws / "bad.json").write_text((ws / "pos.json").read_text().replace('"players": 4',
                                                                                         f'"players": {HUGE}', 1))))
add("analyze-position:deep-field", ["analyze", "--position", "bad.json", "--rollouts", "8"],
    lambda ws: (ws / "bad.json").write_text((ws / "pos.json").read_text().replace('"players": 4',
                                                                                   f'"players": {DEEP}', 1)))
add("analyze-position:truncated", ["analyze", "--position", "bad.json", "--rollouts", "8"],
    lambda ws: (ws / "bad.json").write_text((ws / "pos.json").read_text()[:60]))
add("analyze-position:a-trace", ["analyze", "--position", "good.jsonl", "--rollouts", "8"])
add("analyze-position:a-scenario", ["analyze", "--position", "scen.toml", "--rollouts", "8"])
add("review-position:a-script", ["review", "--position", "script.toml", "--rollouts", "4", "--luck-rollouts", "4"])
add("replay-trace:a-scenario", ["replay", "scen.toml"])
add("replay-script:a-scenario", ["replay", "--script", "scen.toml"])
add("run:a-trace", ["run", "good.jsonl", "-q", "--workers", "1", "--out", "new"])
add("run:a-position", ["run", "pos.json", "-q", "--workers", "1", "--out", "new"])

# options that make a generated deal, given beside a deal that holds its own (they were ignored)
for src, f in (("script", "script.toml"), ("trace", "good.jsonl")):
    for opt, v in (("--policy", "bogus"), ("--rules", "bogus"), ("--players", "2"), ("--set", "min_ends=1")):
        add(f"analyze --{src} with {opt}", ["analyze", f"--{src}", f, "--move", "3", "--rollouts", "8", opt, v])
        add(f"solve --{src} with {opt}", ["solve", f"--{src}", f, "--move", "9", opt, v])
    add(f"replay --{src} with {opt}", ["replay", *(["--script"] if src == "script" else []), f, opt, v])
add("analyze --position with --policy", ["analyze", "--position", "pos.json", "--rollouts", "8", "--policy", "bogus"])


def extra(ws: Path) -> None:
    """A position file (simdom view) beside the workspace of tests/badinput.py."""
    from typer.testing import CliRunner

    from simdom.cli import app
    cwd = os.getcwd()
    os.chdir(ws)
    try:
        r = CliRunner().invoke(app, ["view", "--trace", "good.jsonl", "--seat", "0", "--move", "6", "-o", "pos.json"])
        assert r.exit_code == 0, r.output
    finally:
        os.chdir(cwd)


class Hang(BaseException):
    """A case that ran past its time (an input with no upper bound that starts a huge job)."""


def _alarm(signum, frame):
    raise Hang()


class Outcome(NamedTuple):
    code: int
    lines: int
    traceback: bool
    changed: bool
    text: str

    @property
    def failed(self) -> bool:
        return self.traceback or self.code == -1 or self.code not in (0, 2) or (self.code == 2 and (self.lines != 1 or self.changed))


def attempt(pristine: Path, work: Path, case: Case) -> Outcome:
    from typer.testing import CliRunner

    from simdom.cli import app
    ws = work / "ws"
    if ws.exists():
        shutil.rmtree(ws)
    shutil.copytree(pristine, ws)
    if case.prepare:
        case.prepare(ws)
    before = snapshot(ws)
    cwd = os.getcwd()
    os.chdir(ws)
    import signal
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        r = CliRunner().invoke(app, [str(a) for a in case.args])
    except Hang:
        return Outcome(-1, 0, False, False, f"ran past {TIMEOUT} s")
    finally:
        signal.alarm(0)
        os.chdir(cwd)
    text = r.output + (r.stderr if r.stderr and r.stderr not in r.output else "")
    escaped = r.exception is not None and not isinstance(r.exception, SystemExit)
    if escaped:
        import traceback
        text += "".join(traceback.format_exception(r.exception))
    lines = len([x for x in text.splitlines() if x.strip()])
    changed = snapshot(ws) != before
    return Outcome(r.exit_code, lines, escaped or "Traceback" in text, changed, text)


def main() -> None:
    show_all = "--all" in sys.argv
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    with tempfile.TemporaryDirectory() as tmp:
        pristine = build(Path(tmp) / "pristine")
        extra(pristine)
        counts = {"tried": 0, "failed": 0, "accepted": 0}
        for name, case in CASES.items():
            if only and not any(o in name for o in only):
                continue
            out = attempt(pristine, Path(tmp), case)
            counts["tried"] += 1
            counts["failed"] += out.failed
            counts["accepted"] += out.code == 0
            if out.failed or show_all:
                last = out.text.strip().splitlines()[-1][:150] if out.text.strip() else ""
                mark = "FAIL" if out.failed else "ok"
                print(f"{mark} {name!r}: exit {out.code}, {out.lines} lines, traceback {out.traceback}, "
                      f"changed {out.changed} | {last}", flush=True)
        print(counts)


if __name__ == "__main__":
    main()
