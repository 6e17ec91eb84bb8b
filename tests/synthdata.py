"""Synthetic results folders with known answers for the statistics tests (see simdom.testing)."""
from __future__ import annotations

from pathlib import Path

from simdom.testing import SynthArm, SynthSpec, truth, write_results

GREEDY3 = ("greedy",) * 3
#: hold:until=K sweep: the focal player 0 gains DELTA[K] points (before the win bonus) and win weight
SWEEP = [("1", 0.0, 0.00, 6), ("5", 1.0, 0.02, 9), ("9", 1.5, 0.03, 12), ("never", -0.5, -0.01, 14)]


def sweep_spec(seed: int = 1, deals: int = 2000, **kw) -> SynthSpec:
    arms = tuple(SynthArm(f"K={k}", (f"hold:until={k}",) + GREEDY3, (30 + d, 30, 30, 30),
                          (0.25 + w, 0.25, 0.25, 0.25), fd_move_scale=s) for k, d, w, s in SWEEP)
    return SynthSpec(arms=arms, deals=deals, chunk_size=max(deals // 4, 1), seed=seed, scenario_name="sweep", **kw)


def mix_spec(seed: int = 1, deals: int = 2000, preset: str = "threes", shift: float = 0.0, **kw) -> SynthSpec:
    """Greedy against random; ``shift`` adds points to everyone (a known difference between two runs)."""
    rate = (0.30, 0.20, 0.30, 0.20) if preset == "threes" else (0.40, 0.30, 0.40, 0.30)
    arm = SynthArm("mix", ("greedy", "random", "greedy", "random"), (30 + shift, 25 + shift, 30 + shift, 25 + shift),
                   (0.3, 0.2, 0.3, 0.2), rate, blocked=0.1 if preset == "threes" else 0.2, preset=preset)
    return SynthSpec(arms=(arm,), deals=deals, chunk_size=max(deals // 2, 1), seed=seed,
                     scenario_name=f"{preset}-mix", **kw)


def write(path: Path, spec: SynthSpec, **kw) -> Path:
    return write_results(path, spec, **kw)


__all__ = ["sweep_spec", "mix_spec", "write", "truth", "SWEEP"]
