"""Held-out round (issue 22.4 and 22.7): every command stopped by a signal, at start-up and mid-work.

Each case starts ``simdom ARGS`` as its own process (in a fresh copy of the bad-input workspace of
tests/badinput.py), sends SIGTERM, SIGHUP or SIGINT after a delay (to the process, or to its process
group as a terminal's Ctrl-C does), and records: the exit code, the lines printed after the signal, a
traceback, the seconds from the signal to the exit, and what the command left in the workspace. A case
fails when the command

- exits with a traceback, or with a code other than 128 + the signal's number (130 for SIGINT), unless
  it finished before the signal, or answered and was shutting down (exit 0: "finished first");
- prints more than one line on stderr after the signal;
- leaves a temporary file (``.NAME.PID.tmp``) anywhere, or a new file other than a results folder
  (which a run keeps, to resume) or a whole output (written before the signal);
- takes more than ``LATE`` seconds from the signal to its exit.

    .venv/bin/python bench/held_out_signals.py            # the failures, the counts and the slowest
    .venv/bin/python bench/held_out_signals.py --all      # every case
    .venv/bin/python bench/held_out_signals.py solve run  # only these cases
    .venv/bin/python bench/held_out_signals.py --sweep report doubles  # every 0.1 s from 0.2 to 2.9 s
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "tests"))
SIMDOM = str(Path(sys.executable).with_name("simdom"))

#: a signal answered later than this (seconds) is a failure
LATE = 2.0


class Case(NamedTuple):
    name: str
    args: list[str]
    outputs: tuple[str, ...] = ()   # files or folders the command writes when it completes
    folder: bool = False            # its output is a results folder (kept when stopped, to resume)
    group: bool = False             # signal the process group (a terminal's Ctrl-C), not the process


#: every command, with arguments that keep it busy for a few seconds where it can be
CASES = [
    Case("rules", ["rules"]),
    Case("rules-fives", ["rules", "fives", "--players", "2"]),
    Case("policies", ["policies"]),
    Case("trace", ["trace", "--deals", "3000000", "-o", "t.jsonl"], ("t.jsonl",)),
    Case("trace-matches", ["trace", "--matches", "200000", "--set", "target=250", "-o", "m2.jsonl"],
         ("m2.jsonl",)),
    Case("replay", ["replay", "--script", "script.toml"]),
    Case("bench", ["bench", "--seconds", "20"]),
    Case("run", ["run", "scen.toml", "--deals", "3000000", "-o", "big", "--workers", "1"], ("big",), True),
    Case("run-2-workers", ["run", "scen.toml", "--deals", "3000000", "-o", "big2", "--workers", "2"],
         ("big2",), True, True),
    Case("run-resume", ["run", "scen.toml", "--deals", "3000000", "-o", "res", "--workers", "2"], ("res",), True),
    Case("stats", ["stats", "res"]),
    Case("stats-out", ["stats", "res", "-o", "s.csv", "--format", "csv"], ("s.csv",)),
    Case("seats", ["seats", "res"]),
    Case("doubles", ["doubles", "res"]),
    Case("compare", ["compare", "res", "res2"]),
    Case("report", ["report", "res", "-o", "r.html"], ("r.html",)),
    Case("analyze", ["analyze", "--script", "script.toml", "--move", "3", "--rollouts", "400000"]),
    Case("analyze-out", ["analyze", "--script", "script.toml", "--move", "3", "--rollouts", "400000",
                         "--format", "json", "-o", "a.json"], ("a.json",)),
    Case("solve", ["solve", "-r", "fives", "-n", "4", "--seed", "1", "--deal", "0", "--limit",
                   "400000000", "-o", "solve.json", "--format", "json"], ("solve.json",)),
    Case("view", ["view", "--trace", "good.jsonl", "--deal", "0", "--seat", "1", "-o", "v.json"], ("v.json",)),
    Case("review", ["review", "--trace", "match.jsonl", "--match", "0", "--format", "json", "-o", "rv.json"],
         ("rv.json",)),
    Case("skill", ["skill", "-r", "threes", "-n", "2", "--deals", "400", "--workers", "1", "-o", "sk.json",
                   "--format", "json"], ("sk.json",)),
    Case("skill-2-workers", ["skill", "-r", "fives", "-n", "2", "--deals", "400", "--workers", "2"], (),
         False, True),
    Case("ladder", ["ladder", "random", "greedy", "rollout:samples=32", "--deals", "20000", "-o", "l.json",
                    "--format", "json"], ("l.json",)),
    Case("export", ["export", "res", "--view", "players", "-o", "p.parquet"], ("p.parquet",)),
]

#: (signal, delay in seconds): at start-up (imports), just after, and mid-work
PLAN = [(signal.SIGTERM, 0.05), (signal.SIGTERM, 0.6), (signal.SIGTERM, 3.0),
        (signal.SIGHUP, 1.5), (signal.SIGINT, 0.05), (signal.SIGINT, 1.5)]

#: --sweep: SIGTERM and SIGINT every 0.1 s from 0.2 to 2.9 s, to hit every phase of a short command
#: (parsing, reading, writing the output, the interpreter's shutdown)
SWEEP = [(sig, round(0.1 * i, 1)) for i in range(2, 30) for sig in (signal.SIGTERM, signal.SIGINT)]


class Result(NamedTuple):
    case: str
    sig: str
    delay: float
    code: int
    after: list[str]     # stderr lines printed after the signal
    traceback: bool
    latency: float       # seconds from the signal to the exit
    left: list[str]      # what the command left that it should not have
    finished_first: bool
    stderr: str = ""     # all of it, shown for a traceback

    @property
    def failures(self) -> list[str]:
        out = []
        if self.traceback:
            out.append("traceback")
        if not self.finished_first:
            want = 130 if self.sig == "SIGINT" else 128 + signal.Signals[self.sig].value
            if self.code != want:
                out.append(f"exit {self.code}, want {want}")
            if len(self.after) > 1:
                out.append(f"{len(self.after)} lines after the signal")
            if self.latency > LATE:
                out.append(f"answered after {self.latency:.1f} s")
        if self.left:
            out.append("left " + ", ".join(self.left[:3]) + (f" and {len(self.left) - 3} more" if len(self.left) > 3 else ""))
        return out


def files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def play(case: Case, sig: signal.Signals, delay: float, base: Path) -> Result:
    ws = Path(tempfile.mkdtemp(prefix="sig-"))
    try:
        shutil.copytree(base, ws, dirs_exist_ok=True)
        before = files(ws)
        env = dict(os.environ, COLUMNS="80")
        proc = subprocess.Popen([SIMDOM, *case.args], cwd=ws, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, start_new_session=True)
        time.sleep(delay)
        sent = time.perf_counter()
        finished_first = proc.poll() is not None
        if not finished_first:
            (os.killpg if case.group else os.kill)(proc.pid, sig)
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        latency = time.perf_counter() - sent
        text = err.decode(errors="replace")
        lines = [ln for ln in text.splitlines() if ln.strip()]
        stopped = [ln for ln in lines if ln.removeprefix("Error: ").startswith(("terminated", "interrupted"))]
        # exit 0: the command had answered and the signal came while the interpreter shut down (ignored then,
        # simdom.signals.finished): counted with the commands that finished before the signal
        finished_first = finished_first or proc.returncode == 0
        after = lines[lines.index(stopped[0]):] if stopped else ([] if finished_first else lines[-3:])
        left = []
        new = files(ws) - before
        for f in sorted(new):
            top = f.split("/")[0]
            if f.endswith(".tmp") and Path(f).name.startswith("."):
                left.append(f)
            elif top not in case.outputs:
                left.append(f)
            elif not case.folder and proc.returncode != 0:
                left.append(f + " (an output though stopped)")
        for f in sorted(files(ws) & before):  # a temporary file inside a folder that existed
            if f.endswith(".tmp") and Path(f).name.startswith("."):
                left.append(f)
        return Result(case.name, sig.name, delay, proc.returncode, after,
                      "Traceback" in text or "Traceback" in out.decode(errors="replace"), latency, left,
                      finished_first, text)
    finally:
        shutil.rmtree(ws, ignore_errors=True)


def main(argv: list[str]) -> int:
    show_all = "--all" in argv
    plan = SWEEP if "--sweep" in argv else PLAN
    names = [a for a in argv if not a.startswith("--")]
    from badinput import build
    base = build(Path(tempfile.mkdtemp(prefix="sig-base-")) / "ws")
    shutil.copytree(base / "res", base / "res2")  # a second folder for compare
    results = []
    for case in CASES:
        if names and case.name not in names:
            continue
        for sig, delay in plan:
            r = play(case, sig, delay, base)
            results.append(r)
            if show_all or r.failures:
                tag = "FAIL " + "; ".join(r.failures) if r.failures else (
                    f"finished first (exit {r.code})" if r.finished_first else "ok")
                print(f"{r.case:16} {r.sig:7} at {r.delay:4.2f} s: exit {r.code:4}, {r.latency:5.2f} s  {tag}"
                      + (f"  | {r.after[0][:70]}" if r.after else ""), flush=True)
                if r.traceback:
                    print("    " + "\n    ".join(r.stderr.strip().splitlines()[-8:]), flush=True)
    failed = [r for r in results if r.failures]
    first = sum(r.finished_first for r in results)
    slow = max(results, key=lambda r: r.latency if not r.finished_first else 0)
    print(f"{len(results)} cases ({len({r.case for r in results})} commands x {len(plan)} signal times): "
          f"{len(failed)} failed, {first} finished before the signal; the slowest answer "
          f"{slow.latency:.2f} s ({slow.case}, {slow.sig} at {slow.delay} s)")
    shutil.rmtree(base.parent, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
