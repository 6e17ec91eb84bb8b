"""Every public entry point of simdom driven once, with the integer types callers pass (Python ints, numpy
integers of every width, the largest numbers allowed and one past them): tests/test_warm.py runs this in a
fresh cache after `make kernel` and then counts the signatures numba compiled of each kernel function.

Run as ``python tests/entry_points.py WORKDIR``; prints one JSON line: the entry points driven, and the
signatures each kernel dispatcher of this process was called with (several: an argument of two types).
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = str(ROOT / "scenarios" / "seed-game.deal.toml")
SCENARIO = ('name = "{name}"\nplayers = {n}\ndeals = {deals}\nseed = 7\nchunk_size = {chunk}\nrotation = true\n'
            'policies = {policies}\n[rules]\npreset = "{preset}"\n{extra}')


def cli_runs(ws: Path) -> list[list[str]]:
    """Every command that plays or steps deals, as a user types it (small)."""
    (ws / "deals.toml").write_text(SCENARIO.format(name="deals", n=4, deals=200, chunk=100, preset="threes", extra="",
                                                   policies='["greedy", "hold:until=5", "defensive", "rollout:samples=2"]'))
    (ws / "matches.toml").write_text(SCENARIO.format(name="matches", n=2, deals=20, chunk=10, preset="fives",
                                                     policies='["greedy", "rollout:samples=4"]', extra="target = 61\n"))
    s = ["-r", "fives", "-n", "2", "--seed", "3"]
    return [
        ["trace", *s, "--deals", "3", "--first-deal", str(2**62), "-o", "t.jsonl"],
        ["trace", *s, "--deals", "2", "-p", "expert", "-p", "clairvoyant:against=minimax", "-o", "x.jsonl"],
        ["trace", *s, "--set", "target=61", "--matches", "2", "-o", "m.jsonl"],
        ["replay", "t.jsonl", "--deal", str(2**62 + 1)],
        ["replay", "--script", SCRIPT],
        ["replay", *s, "--deal", "9223372036854775807"],
        ["replay", "m.jsonl", "--match", "1", "--hand", "0"],
        ["replay", "-r", "fives", "--set", "target=61", "--seed", "3", "--match", "1"],
        ["run", "deals.toml", "--out", "res", "-q", "--workers", "1", "--moves", "--seats", "--course"],
        ["run", "deals.toml", "--out", "dec", "-q", "--workers", "1", "--decisions", "--decision-rollouts", "2"],
        ["run", "matches.toml", "--out", "mres", "-q", "--workers", "2"],
        ["bench", "--seconds", "0.2", "-p", "greedy"],
        ["bench", "--seconds", "0.2", "-r", "fives", "--set", "target=61"],
        ["analyze", "--script", SCRIPT, "--move", "4", "--rollouts", "20"],
        ["analyze", "--trace", "t.jsonl", "--deal", str(2**62), "--move", "3", "--rollouts", "20", "--then", "search"],
        ["analyze", *s, "--deal", "9223372036854775807", "--move", "2", "--rollouts", "20", "--perfect-information"],
        ["solve", "--script", SCRIPT, "--move", "8"],
        ["solve", *s, "--deal", "9223372036854775807", "--move", "3", "--against", "greedy"],
        ["solve", "--trace", "t.jsonl", "--deal", str(2**62 + 2), "--move", "2", "--by", "points"],
        ["review", "--script", SCRIPT, "--rollouts", "10", "--luck-rollouts", "10"],
        ["review", "--trace", "m.jsonl", "--match", "0", "--rollouts", "10", "--luck-rollouts", "10"],
        ["view", "--script", SCRIPT, "--seat", "1", "--move", "6", "-o", "v.json"],
        ["analyze", "--position", "v.json", "--rollouts", "20"],
        ["skill", "-r", "threes", "-n", "2", "--deals", "4", "--opponents", "greedy", "--workers", "1"],
        ["ladder", "random", "greedy", "-r", "fives", "-n", "2", "--deals", "20", "--workers", "1"],
        ["doubles", "--exact", "-n", "2", "--deals", "6", "--seed", "9223372036854775807"],
        ["stats", "res"],
    ]


def refused_runs() -> list[list[str]]:
    """Numbers one past what is allowed: each a line of refusal, never a kernel call."""
    s = ["-r", "threes", "-n", "2", "--seed", "3"]
    return [["solve", *s, "--deal", str(2**63)], ["analyze", *s, "--deal", str(2**63), "--move", "2"],
            ["replay", *s, "--deal", str(2**63)], ["trace", *s, "--first-deal", str(2**63), "-o", "y.jsonl"]]


def library() -> list[str]:
    """The library (simdom.*) and the engine's façade, with numpy integers where a caller may have them."""
    import simdom
    from simdom.engine.analysis import MoveRollouts, sample_hidden
    from simdom.engine.api import MAX_DEAL, simulate_deals
    from simdom.engine.matches import MatchDeal, deal_seed, simulate_matches, trace_match, trace_match_python
    from simdom.engine.solver import Solver
    from simdom.engine.state import DealState, trace
    from simdom.rules import preset

    done = []
    for kind in (int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64):
        simdom.simulate("threes", "greedy", deals=kind(3), seed=kind(5), players=2, first_deal=kind(7))
        st = DealState.dealt(preset("fives", 3), kind(4), kind(9))
        moves = st.advance()
        st.play(kind(moves[0][0]), moves[0][1])
        st.choice("greedy", kind(1))
        MoveRollouts(st, st.advance()[:2], "greedy", kind(2)).run(kind(0), kind(3))
        sample_hidden(st, kind(2), kind(0), kind(2))
        st.play_out("random", kind(4), kind(9))
        simulate_deals(preset("threes", 4), "greedy", kind(1), kind(40), kind(5), row0=kind(0), stride=kind(1))
        m = preset("fives", 2, target=61)
        simulate_matches(m, "greedy", kind(2), kind(3), kind(2))
        trace_match(m, "greedy", kind(2), kind(1), deal0=kind(4))
        MatchDeal.dealt(m, deal_seed(kind(2), kind(1), kind(0)), kind(1))
        done.append(f"library with {kind.__name__}")
    trace(preset("threes", 2), "greedy", 1, MAX_DEAL)
    DealState.dealt(preset("threes", 2), 2**64 - 1, MAX_DEAL)
    trace_match_python(preset("fives", 2, target=61), ["greedy", "python:simdom.examples.policies:greedy"], 2, 0)
    deal = simdom.load_deal(rules="fives", players=2, deal=np.int32(3), seed=np.int64(1))
    simdom.analyze(deal, move=np.int16(2), rollouts=np.int32(20), seed=np.uint8(1))
    simdom.solve(deal, move=np.int64(3))
    Solver(preset("fives", 2)).solve(deal.position(2).state, against="greedy", limit=np.int32(10**6))
    for bad in (MAX_DEAL + 1, 2**64):
        try:
            DealState.dealt(preset("threes", 2), 1, bad)
        except ValueError:
            pass
        else:  # pragma: no cover - the refusal is what is tested
            raise AssertionError(f"deal {bad} was dealt")
    done.append("library edges")
    return done


def adapters() -> list[str]:
    """The OpenSpiel game and the PettingZoo environment (the rl extra), a few moves each."""
    try:
        import pyspiel

        import simdom.openspiel  # noqa: F401 - registers python_simdom
    except ImportError:  # pragma: no cover - the rl extra is not installed
        return []
    game = pyspiel.load_game("python_simdom", {"rules": "fives", "players": 2})
    state = game.new_initial_state()
    rng = np.random.default_rng(np.uint64(3))
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            state.apply_action(np.int64(state.legal_actions()[0]))
    from simdom.pettingzoo import env
    e = env("threes", 2)
    e.reset(seed=4)
    for agent in e.agent_iter(max_iter=30):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    return ["openspiel", "pettingzoo"]


def signatures() -> dict[str, list[str]]:
    """Each kernel dispatcher of this process with more than one signature called (loaded or compiled)."""
    import numba
    out = {}
    for name, mod in list(sys.modules.items()):
        if not name.startswith("simdom.engine._kernel."):
            continue
        for attr, f in vars(mod).items():
            if isinstance(f, numba.core.registry.CPUDispatcher) and len(f.signatures) > 1:
                out[f"{name.rsplit('.', 1)[1]}.{attr}"] = [str(s) for s in f.signatures]
    return out


def main(ws: Path) -> dict:
    from typer.testing import CliRunner

    from simdom.cli import app
    os.chdir(ws)
    done, failed = [], []
    for args in cli_runs(ws) + refused_runs():
        t0 = time.perf_counter()
        r = CliRunner().invoke(app, args)
        refused = args in refused_runs()
        ok = r.exit_code == 2 and "Traceback" not in r.output if refused else r.exit_code == 0
        what = f"simdom {' '.join(args[:3])} ({time.perf_counter() - t0:.1f} s)"
        (done if ok else failed).append(what + ("" if ok else f": exit {r.exit_code}: {r.output[-300:]}"))
    t0 = time.perf_counter()
    done += library() + adapters()
    done.append(f"the library and the adapters ({time.perf_counter() - t0:.1f} s)")
    return {"driven": done, "failed": failed, "several_signatures": signatures()}


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
