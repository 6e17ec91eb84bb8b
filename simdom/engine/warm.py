"""Compile the kernel once per machine: every entry a command uses, in parallel processes, then the
ahead-of-time module (``make kernel`` runs ``python -m simdom.engine.warm``).

A fresh machine has no compiled kernel. The batch kernel is built ahead of time (aot.py); the
commands that step a deal from Python (trace, analyze, solve, review, view, skill, ladder) use the
just-in-time entries, which numba caches on disk after their first compile. The compile is numba's
typing and lowering, which is single-threaded, so this module compiles the policies first, then the
loops that call them in a process each (numba's cache takes concurrent writers), then builds the
ahead-of-time module from the cached batch entries.

`make run` compiles only what the default study plays (``python -m simdom.engine.warm plain``, one process,
:data:`PLAIN`): the batch kernel of the plain policies, random, greedy and hold (_kernel/plain.py), which
types and compiles none of the other policies, the solver or the decisions' rollouts.

:func:`simdom.engine.jitcache.notice` is called by the façade just before it first calls a just-in-time
entry: when that entry is not in numba's cache, it says on stderr that a compile is coming and about
how long it takes, so no command compiles silently.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time

from ._kernel import engine_hash
from .jitcache import COLD_MINUTES, cache_dir, cached

#: what is compiled. First the policies that every loop calls (the entries behind choose_entry:
#: clairvoyant, search, the solver, rollout, defensive), in two processes that share the work by
#: function, in the order the functions call each other (:data:`POLICY_STEPS`), so that the loops after
#: them load them from the cache instead of each compiling them; then the three loops (the batch, the
#: match loop, the analysis rollouts: about 45 s each here, docs/speed.md), each in its own process,
#: which the machine's cores share
PHASES = ({"p": ("policies",), "q": ("policy-leaves", "plain")},
          {"a": ("batch", "steps"), "b": ("matches", "solver"), "c": ("analysis",)})
#: the function whose presence in numba's cache says a task is done
TASK_KEY = {"policies": "choose_entry", "policy-leaves": "search_pick", "batch": "run_batch",
            "steps": "finish", "matches": "run_matches", "analysis": "rollout_moves", "solver": "solve_root",
            "plain": "choose_entry_plain"}
#: what `make run` compiles (``python -m simdom.engine.warm plain``, one process): the batch kernel of the
#: plain policies (random, greedy, hold; _kernel/plain.py), all the default study plays; the rest of the
#: kernel compiles on a command's first use of it, or by ``make kernel`` (whose task "plain" adds the plain
#: policies' chooser for deals stepped from Python, choose_entry_plain)
PLAIN = ("run_batch_plain",)
PARTS = {k: v for phase in PHASES for k, v in phase.items()}
#: the two processes of the policies: ("c", f) compiles kernel function f, ("w", f) waits until the
#: other process has put f in numba's cache (a function compiled from another one's call loads from the
#: cache whatever it finds there). The chain greedy_to_end .. choose_entry is the longest; the second
#: process compiles what hangs beside it (measured, docs/speed.md: 120 s in one process).
POLICY_STEPS = {
    "policies": (("c", "greedy_to_end"), ("c", "playout"), ("w", "sample_world"), ("c", "rollout_pick"),
                 ("w", "timing_pick"), ("w", "heavy_pick"), ("w", "plan_pick"), ("w", "defensive_pick"), ("c", "policy_move"),
                 ("c", "search"), ("c", "solve_best"), ("c", "clairvoyant_pick"), ("w", "search_pick"),
                 ("w", "expert_pick")),
    "policy-leaves": (("c", "sample_world"), ("c", "timing_pick"), ("c", "heavy_pick"), ("c", "plan_pick"), ("c", "defensive_pick"),
                      ("w", "search"), ("c", "solve_root"), ("c", "search_pick"),
                      ("c", "expert_pick")),
}
#: how long a process waits for the other's function before compiling it itself
WAIT_SECONDS = 600.0


def _policy_functions() -> dict:
    """Every function of :data:`POLICY_STEPS`: (dispatcher, argument types), the types those of the
    arrays the façade passes (DealState's work arrays), as the kernel's callers pass them."""
    import numba
    from numba import types

    from ..rules import preset
    from ._kernel import kchoose, kexpert, kpolicies, ktiming, sampler, solve
    from ._kernel import layout as L
    from .codes import kernel_arrays
    from ..policies import parse_policy
    from .state import DealState
    st = DealState.dealt(preset("threes", players=2), 1, 0)
    ty = numba.typeof
    G, St, bone, _, rng, mt, me, sx, V = (ty(x) for x in (st._G,) + st._work)
    ids, par = (ty(x) for x in kernel_arrays([parse_policy("greedy")] * 2))
    x = st._work[L.W_SCRATCH]
    P, bone2, pt, pe, pool, W, deck, loc, rec, aux, dp = (ty(x[k]) for k in (
        L.SX_P, L.SX_BONE, L.SX_PT, L.SX_PE, L.SX_POOL, L.SX_W, L.SX_DECK, L.SX_LOC, L.SX_REC, L.SX_AUX, L.SX_DP))
    V_ = st._work[L.W_SOLVER]
    par1 = ty(V_[L.V_PAR][0])  # one seat's parameters
    vrng = ty(V_[L.V_RNG])
    rt, re, rv = (ty(V_[k]) for k in (L.V_RT, L.V_RE, L.V_RV))
    i, u, f = types.int64, types.uint64, types.float64
    return {
        "greedy_to_end": (kpolicies.greedy_to_end, (G, P, bone, rec)),
        "playout": (kpolicies.playout, (G, P, bone2, i, i, i, pt, pe, rec, sx)),
        "sample_world": (sampler.sample_world, (G, St, i, W, bone2, pool, i, deck, loc, aux, dp)),
        "rollout_pick": (kpolicies.rollout_pick, (G, St, i, i, u, mt, me, i, sx)),
        "timing_pick": (ktiming.timing_pick, (G, St, i, par1, mt, me, i)),
        "heavy_pick": (kpolicies.heavy_pick, (G, St, mt, me, i)),
        "defensive_pick": (kpolicies.defensive_pick, (G, St, i, mt, me, i, sx)),
        "plan_pick": (kpolicies.plan_pick, (G, St, i, mt, me, i, sx, f, f, f, f)),
        "policy_move": (kpolicies.policy_move, (G, St, i, i, par1, vrng, mt, me, sx)),
        "search": (solve.search, (G, bone, V, types.literal(1), i, i)),
        "solve_best": (solve.solve_best, (G, St, bone, V, rt, re, rv)),
        "solve_root": (solve.solve_root, (G, St, bone, V, rt, re, rv)),
        "clairvoyant_pick": (kchoose.clairvoyant_pick, (G, St, bone, i, ids, par, V)),
        "search_pick": (kchoose.search_pick, (G, St, i, i, i, i, i, types.float64, i, u, mt, me, i, sx, V)),
        "expert_pick": (kexpert.expert_pick, (G, St, i, i, types.float64, i, types.float64, i, i, i, u, mt, me, i, sx, V)),
    }


def _policy_steps(name: str) -> None:
    fns = _policy_functions()
    for op, f in POLICY_STEPS[name]:
        if op == "w":
            t0 = time.perf_counter()
            while not cached(f) and time.perf_counter() - t0 < WAIT_SECONDS:
                time.sleep(0.2)
        elif not cached(f):
            disp, sig = fns[f]
            disp.compile(sig)


def _task(name: str) -> None:
    from ..rules import preset
    from ._kernel import aot
    if name == "policies":
        _policy_steps(name)
        from .state import DealState
        DealState.dealt(preset("threes", players=2), 1, 0).choice("heavy", 1)  # not plain: choose_entry
    elif name == "policy-leaves":
        _policy_steps(name)
    elif name in ("plain", "plain-batch"):
        from ._kernel.plain import run_batch_plain
        run_batch_plain.compile(aot.signature().args)
        if name == "plain":
            from .state import DealState
            DealState.dealt(preset("threes", players=2), 1, 0).choice("greedy", 1)  # choose_entry_plain
    elif name == "batch":
        from ._kernel.batch import run_batch
        run_batch.compile(aot.signature().args)
    elif name == "matches":
        from ._kernel.matchloop import run_matches
        run_matches.compile(aot.match_signature().args)
        from .matches import MatchDeal, deal_seed
        d = MatchDeal.dealt(preset("fives", players=2, target=61), deal_seed(1, 0, 0))
        while d.advance():
            d.play(*d.choice("greedy", 1))
        d.settle()
    elif name == "steps":
        from .state import DealState
        st = DealState.dealt(preset("fives", players=2), 1, 0)
        while st.advance():
            st.counted()
            st.play(*st.choice("greedy", 1))
        st.settle()
    elif name == "solver":
        from .solver import solve
        from .state import DealState
        solve(DealState.dealt(preset("threes", players=2), 1, 0), against="greedy")
    elif name == "analysis":
        from .analysis import MoveRollouts, sample_hidden
        from .state import DealState
        st = DealState.dealt(preset("threes", players=2), 1, 0)
        st.advance()
        MoveRollouts(st, st.legal()[:2], "greedy", 1).run(0, 2)
        sample_hidden(st, 1, 0, 1)
    else:  # pragma: no cover - PARTS names only these
        raise ValueError(name)


def run_part(part: str) -> dict[str, float]:
    """Compile one part's entries in this process; the seconds each took."""
    from . import jitcache
    jitcache.quiet()  # the parent process said it
    took = {}
    for name in PARTS[part]:
        if cached(TASK_KEY[name]):
            continue
        t0 = time.perf_counter()
        _task(name)
        took[name] = round(time.perf_counter() - t0, 1)
    return took


def warm_plain() -> int:
    """Compile the plain policies' entries (:data:`PLAIN`) in this process, saying so first."""
    from . import jitcache
    from ._kernel import aot
    if aot.load() is not None or all(cached(k) for k in PLAIN):  # the whole kernel ahead of time, or this
        print(f"simdom: the kernel {engine_hash()} of the plain policies is compiled ({cache_dir()})", file=sys.stderr)
        return 0
    print(f"simdom: compiling the kernel {engine_hash()} of the plain policies (random, greedy, hold: what the "
          f"default study plays), about {jitcache.ABOUT['run_batch_plain'][1]}; what other commands and "
          f"policies need compiles on their first use (or all at once: `make kernel`)", file=sys.stderr, flush=True)
    jitcache.quiet()
    t0 = time.perf_counter()
    _task("plain-batch")
    print(f"simdom: compiled in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--part":
        print(json.dumps(run_part(argv[1])), flush=True)
        return 0
    if argv and argv[0] == "plain":
        return warm_plain()
    from ._kernel import aot
    if aot.module_path().is_file() and all(cached(k) for k in (*TASK_KEY.values(), *PLAIN)):
        print(f"simdom: the kernel {engine_hash()} is compiled ({cache_dir()})", file=sys.stderr)
        return 0
    print(f"simdom: compiling the kernel {engine_hash()} for this machine, in {len(PHASES[-1])} processes "
          f"(about {COLD_MINUTES} minutes when nothing is cached)", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    took: dict[str, float] = {}
    for phase in PHASES:
        todo = [p for p, names in phase.items() if not all(cached(TASK_KEY[n]) for n in names)]
        procs = {p: subprocess.Popen([sys.executable, "-m", "simdom.engine.warm", "--part", p],
                                     stdout=subprocess.PIPE, text=True) for p in todo}
        for p, proc in procs.items():
            out, _ = proc.communicate()
            if proc.returncode != 0:
                print(f"simdom: compiling part {p} of the kernel failed (exit {proc.returncode})", file=sys.stderr)
                return 1
            took.update(json.loads(out.strip().splitlines()[-1]))
    t1 = time.perf_counter()
    aot.build()
    took["ahead-of-time module"] = round(time.perf_counter() - t1, 1)
    took["total"] = round(time.perf_counter() - t0, 1)
    cache_dir().mkdir(parents=True, exist_ok=True)
    (cache_dir() / "warm.json").write_text(json.dumps(took, indent=1) + "\n")
    print(f"simdom: compiled in {took['total']:.0f} s: " + ", ".join(f"{k} {v:.0f} s" for k, v in took.items()
                                                                      if k != "total"), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
