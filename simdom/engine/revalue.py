"""First-double decisions valued under any continuation (`simdom run --decision-rollouts N --then POLICY`).

The batch kernel values a decision's two candidates, "best double now" and "best other move", with
greedy play after them (kdecide.py: a compiled playout cannot call the policy chooser that called it).
Under another continuation the decision is valued here, from Python, through the analysis kernel
(:class:`~simdom.engine.analysis.MoveRollouts`): the deal is traced with the seats' own policies, the
position just before the decision's placement is rebuilt, the two candidates are chosen as the kernel
chooses them (greedy's rank within each class: immediate points, then the heavier tile, then the first
listed), and both are rolled out in the worlds of the kernel's own decision key (the root key, the
deal and the move alone: the same in any chunking, worker, arm or rotation). With ``then = greedy``
the values are the kernel's exactly (tests/test_decision_continuation.py checks it).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..policies import Policy, parse_policy
from ..rules import Rules
from ..tiles import halves, parse_tile
from .analysis import MoveRollouts
from .api import root_key
from .codes import End
from .pyloop import GAMMA, M2, M64, _mix64
from .state import DealState, trace

#: kdecide.DECISION_SALT: separates the decisions' worlds from every other stream of the same root key.
DECISION_SALT = 0x646563697369306E
_END = {e.label: int(e) for e in End}


def decision_key(seed: int, deal: int, move: int) -> int:
    """The key of the worlds of the decision at ``move`` of deal number ``deal`` (kdecide.decision_key)."""
    root = int(root_key(seed))
    dkey = _mix64(root ^ DECISION_SALT ^ _mix64((deal * GAMMA + GAMMA) & M64))
    return _mix64((dkey + move * M2) & M64)


def candidates(state: DealState) -> tuple[tuple[int, End], tuple[int, End]] | None:
    """(best double now, best other move) of the seat to act, as kdecide/ktiming.class_best picks them;
    None when either class is empty (no decision)."""
    a, b = halves(state.rules.max_pip)
    best: dict[bool, tuple[int, tuple[int, End]]] = {}
    for t, e in state.legal():
        pts, bonus = state.score_of(t, int(e))
        rank = (pts + bonus) * 32 + int(a[t] + b[t])
        double = bool(a[t] == b[t])
        if double not in best or rank > best[double][0]:
            best[double] = (rank, (t, e))
    if True not in best or False not in best:
        return None
    return best[True][1], best[False][1]


def position_before(rules: Rules, record: dict, move: int) -> DealState:
    """The deal of a trace ``record`` just before its ``move``-th placement, the mover's forced draws done."""
    st = DealState(rules, [[parse_tile(t, rules.max_pip) for t in h] for h in record["hands"]],
                   [parse_tile(t, rules.max_pip) for t in record["boneyard"]], record["first"])
    plays = [a for a in record["actions"] if a["act"] == "play"]
    for a in plays[:move - 1]:
        st.play(parse_tile(a["tile"], rules.max_pip), _END[a["end"]])
    st.advance()
    return st


def value_decisions(rules: Rules, policies: Sequence["str | Policy"], seed: int, deal: int,
                    decisions: Sequence[tuple[int, int]], rollouts: int,
                    then: "str | Policy") -> np.ndarray:
    """float64[len(decisions), 4]: for each (seat, move) first-double decision of deal ``deal`` (played
    by ``policies``, one per seat, root ``seed``), the columns of layout.DEC_VAL_NAMES: the mover's mean
    final points after the best double now and after the best other move, the mean paired difference
    (other - double) and that of its win share, over ``rollouts`` worlds, every seat playing ``then``
    after the move."""
    then = parse_policy(then)
    out = np.zeros((len(decisions), 4), dtype=np.float64)
    if not decisions:
        return out
    record = trace(rules, list(policies), seed, deal)
    root = int(root_key(seed))
    for i, (seat, move) in enumerate(decisions):
        st = position_before(rules, record, move)
        pair = candidates(st)
        if st.turn != seat or st.move_number + 1 != move or pair is None:
            raise RuntimeError(f"deal {deal}: the decision of seat {seat} at move {move} is not in its trace")
        r = MoveRollouts(st, list(pair), then, seed, salt=root ^ decision_key(seed, deal, move)).run(0, rollouts)
        # sums in rollout order, as the kernel adds them (the win shares' float sum depends on its order)
        sd, so = np.cumsum(r.points[:, 0], dtype=np.float64)[-1], np.cumsum(r.points[:, 1], dtype=np.float64)[-1]
        sw = np.cumsum(r.win[:, 1] - r.win[:, 0])[-1]
        out[i] = (sd / rollouts, so / rollouts, (so - sd) / rollouts, sw / rollouts)
    return out
