"""Paired strength of the ISMCTS probe (kernel.py): seat p plays arm A or arm B, greedy the others, on
the same deals (simdom's deals of seed 777), every seat in turn; per deal the mean over seats of A
minus B, then mean +- 1.96 standard errors over deals. Deals are stepped from Python (DealState).

    .venv/bin/python bench/ismcts_probe/paired.py threes 2 400 ismcts:iters=2000,wide=20 rollout:samples=128
    .venv/bin/python bench/ismcts_probe/paired.py fives 2 300 flat:iters=512,wide=4,c=0.5 rollout:samples=512

Arms: ``ismcts:iters=N,c=C,root=0|1,wide=K``, ``flat:iters=N,c=C,wide=K``, ``own:iters=N,own=0|1,lam=L``
(rollout with the seat's later moves greedy's or defensive's, L points per won world: kernel.own_pick),
``hyb:K|LATE|EARLY`` (policy LATE once K or fewer tiles are unseen by the seat, else EARLY), or any simdom
policy: the grid behind search's default (docs/policies.md, "How the default was chosen") ran
``search:worlds=W,depth=D,own=O,win=B`` arms against ``rollout:samples=128``, 2,000 deals with 2 players
and 1,000 with 4. The
decisions per second printed include the first call's compilation."""
import sys, time
import numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from simdom.rules import preset
from simdom.engine.state import DealState
import kernel as ismcts

class Arm:
    def __init__(self, spec, nt):
        self.spec = spec
        if spec.startswith(("ismcts", "flat")):
            kv = dict(x.split("=") for x in spec.split(":")[1].split(",")) if ":" in spec else {}
            self.iters = int(kv.get("iters", 1000)); self.c = float(kv.get("c", 0.7)); self.root = int(kv.get("root", 0)); self.wide = int(kv.get("wide", 0))
            b = 1 << 17
            self.tk = np.zeros(b, np.uint64); self.tn = np.zeros(b, np.int64); self.tw = np.zeros(b, np.float64)
            self.ins = np.zeros(b // 2, np.int64); self.path = np.zeros(4 * nt + 8, np.int64)
            self.pt = np.zeros(4 * nt + 4, np.int64); self.pe = np.zeros(4 * nt + 4, np.int64)
        if spec.startswith("own"):
            kv = dict(x.split("=") for x in spec.split(":")[1].split(","))
            self.iters = int(kv.get("iters", 128)); self.own = int(kv.get("own", 1)); self.lam = float(kv.get("lam", 0))
            from simdom.engine._kernel.work import make_scratch
            self.scratch2 = make_scratch(nt)
            self.pt = np.zeros(4 * nt + 4, np.int64); self.pe = np.zeros(4 * nt + 4, np.int64)
        if spec.startswith("hyb"):  # hyb:K|late|early: late's policy once K or fewer tiles are unseen
            k, late, early = spec[4:].split("|")
            self.k = int(k); self.late = Arm(late, nt); self.early = Arm(early, nt)
        self.time = 0.0; self.dec = 0

    def pick(self, st, key):
        t0 = time.process_time()
        moves = st.advance()
        if self.spec.startswith("hyb"):
            unseen = st.rules.n_tiles - len(st.played()) - len(st.hand(st.turn))
            mv = (self.late if unseen <= self.k else self.early).pick(st, key)
        elif self.spec.startswith("own"):
            if len(moves) == 1:
                mv = moves[0]
            else:
                mv_t, mv_e = st._work[4], st._work[5]
                for i, (t, e) in enumerate(moves):
                    mv_t[i], mv_e[i] = t, int(e)
                i = ismcts.own_pick(st._G, st._St, st.turn, self.iters, self.own, self.lam, np.uint64(key), mv_t, mv_e,
                                    len(moves), st._work[6], self.scratch2, self.pt, self.pe)
                mv = moves[i]
        elif self.spec.startswith(("ismcts", "flat")):
            if len(moves) == 1:
                mv = moves[0]
            else:
                mv_t, mv_e = st._work[4], st._work[5]
                for i, (t, e) in enumerate(moves):
                    mv_t[i], mv_e[i] = t, int(e)
                i = (ismcts.flat_pick if self.spec.startswith('flat') else ismcts.ismcts_pick)(st._G, st._St, st.turn, self.iters, self.c, self.root, self.wide, np.uint64(key), mv_t, mv_e, len(moves),
                                       st._work[6], self.tk, self.tn, self.tw, self.ins, self.path, self.pt, self.pe)
                mv = moves[i]
        else:
            mv = st.choice(self.spec, key)
        if len(moves) > 1:
            self.time += time.process_time() - t0; self.dec += 1
        return mv

def play(rules, seed, deal, p, arm):
    st = DealState.dealt(rules, seed, deal)
    k = 0
    while True:
        moves = st.advance()
        if not moves:
            break
        k += 1
        key = (seed * 1000003 + deal * 7919 + k * 31 + p) & ((1 << 63) - 1)
        if st.turn == p:
            t, e = arm.pick(st, key)
        else:
            t, e = st.choice("greedy", key)
        st.play(t, int(e))
    st.settle()
    tot = st.totals()
    mine = tot[p]
    top = max(tot); nw = sum(1 for x in tot if x == top)
    return mine, (1.0 / nw if mine == top else 0.0)

def main(game, players, deals, a, b, seed=777):
    rules = preset(game, players=players)
    A, B = Arm(a, rules.n_tiles), Arm(b, rules.n_tiles)
    dp, dw = [], []
    for d in range(deals):
        pa = wa = pb = wb = 0.0
        for p in range(players):
            x, y = play(rules, seed, d, p, A); pa += x; wa += y
            x, y = play(rules, seed, d, p, B); pb += x; wb += y
        dp.append((pa - pb) / players); dw.append((wa - wb) / players)
    dp, dw = np.array(dp), np.array(dw)
    se = lambda x: x.std(ddof=1) / np.sqrt(len(x))
    print(f"{game} {players}p {deals} deals: {a} - {b}: points {dp.mean():+.2f} ± {1.96*se(dp):.2f}, "
          f"wins {100*dw.mean():+.1f} ± {196*se(dw):.1f} pp; dec/s A {A.dec/max(A.time,1e-9):.0f}, B {B.dec/max(B.time,1e-9):.0f}",
          flush=True)

if __name__ == "__main__":
    g, n, D, a, b = sys.argv[1:6]
    main(g, int(n), int(D), a, b, int(sys.argv[6]) if len(sys.argv) > 6 else 777)
