"""`simdom equilibrium`'s answer: the game's value at the optimum, its size, the solve's time and
exploitability, the policies measured against the optimum, the first double's hold (docs/equilibrium.md)."""
from __future__ import annotations

from math import isnan

from .. import present as P
from ..engine.gametree import build_tree, deals
from ..rules import Rules
from .solve import Equilibrium

#: the most nodes a tree may have by default (about 60 bytes a node while it is solved)
MAX_NODES = 30_000_000


def check_size(rules: Rules, max_nodes: int = MAX_NODES, cli: bool = False) -> int:
    """The game's node count, estimated from a sample of its deals (or exact, when the tree is small);
    OptionError when it exceeds ``max_nodes`` or the rules are not a 2-player game."""
    if rules.players != 2:
        raise P.OptionError(f"--players {rules.players}; allowed: 2 (the equilibrium of a 2-player game)")
    n = deals(rules)
    if n * 2 > max_nodes:
        raise P.OptionError(f"the game has {n:,} deals, so more than {n:,} nodes; the limit is {max_nodes:,} "
                            f"nodes{' (--max-nodes)' if cli else ''}: use a smaller max_pip or hand_size")
    from ..engine.gametree import estimate_nodes
    est = estimate_nodes(rules, 1.5 * max_nodes)
    if est > max_nodes:
        size = "more than 1.5 times the limit" if est == float("inf") else f"about {est:,.0f} nodes"
        raise P.OptionError(f"the game has {size} (estimated from a sample of its deals); the "
                            f"limit is {max_nodes:,}{' (--max-nodes)' if cli else ''}: use a smaller max_pip, "
                            "hand_size or the draw none")
    return est


def check_request(rules: Rules, against, tol_margin: float, tol_win: float, samples: int, max_nodes: int,
                  fmt: str = "json", out=None, cli: bool = False) -> None:
    """OptionError, one line, for a request that cannot be answered (a tolerance, a policy, the size)."""
    from ..policies import PolicyError, parse_policy
    if fmt == "parquet" and out is None:
        raise P.OptionError("--format parquet writes a file: add -o FILE.parquet")
    if not (tol_win > 0 and tol_margin > 0 and samples >= 1):
        raise P.OptionError("--tol-win, --tol-margin and --samples; allowed: tolerances above 0, at least 1 sample")
    for p in against:
        try:
            fair = parse_policy(p).info.fair
        except PolicyError as e:
            raise P.OptionError(f"--against: {e}") from None
        if not fair:
            raise P.OptionError(f"--against: {p} is not a fair player; allowed: a policy that plays from what "
                                "its seat sees")
    check_size(rules, max_nodes, cli)


def _pct(x: float) -> str:
    return "n/a" if isnan(x) else f"{100 * x:.2f}"


def equilibrium_data(res: Equilibrium) -> dict:
    s = res.solutions
    data = {"rules": res.rules.to_dict(), "nodes": res.nodes, "infosets": res.infosets,
            "exploitability": {o: x.exploitability for o, x in s.items()},
            "value": {"margin": s["margin"].value, "win": s["win"].value,
                      "lead_margin": s["margin"].lead_value, "lead_win": s["win"].lead_value},
            "iterations": {o: x.iterations for o, x in s.items()},
            "seconds": {"build": res.build_seconds, **{o: x.seconds for o, x in s.items()}},
            "against": res.against}
    if res.hold is not None:
        data["hold"] = res.hold
    return data


def flat_rows(data: dict) -> list[dict]:
    """The figures one per row (csv, parquet): what, policy, margin, win."""
    base = {"nodes": data["nodes"], "infosets": data["infosets"]}
    v = data["value"]
    rows = [{"what": "value", "policy": "", "margin": v["margin"], "win": v["win"]},
            {"what": "lead_value", "policy": "", "margin": v["lead_margin"], "win": v["lead_win"]},
            {"what": "exploitability", "policy": "", **data["exploitability"]}]
    for a in data["against"]:
        rows += [{"what": k, "policy": a["policy"], **a[k]} for k in ("best_reply", "equilibrium")]
    if "hold" in data:
        rows += [{"what": f"hold_{k}", "policy": "", **data["hold"][k]} for k in ("rate", "worth")]
    return [{**r, **base} for r in rows]


def equilibrium_answer(res: Equilibrium, flat: bool = False) -> P.Answer:
    data = equilibrium_data(res)
    s, v = res.solutions, data["value"]
    secs = res.build_seconds + sum(x.seconds for x in s.values())
    ans = P.Answer([f"At the optimum the seat that leads wins {_pct(v['lead_win'])}% of the deals and gains "
                    f"{v['lead_margin']:.3f} points a deal; the game has {res.nodes:,} nodes and "
                    f"{res.infosets:,} information states, solved in {secs:.1f} s to an exploitability of "
                    f"{100 * s['win'].exploitability:.4f} points of wins and {s['margin'].exploitability:.4f} points "
                    "of margin."])
    for a in res.against:
        ans.sentences.append(f"{a['policy']}: the best fair reply wins {_pct(0.5 + a['best_reply']['win'])}% of "
                             f"the deals against it, the equilibrium {_pct(0.5 + a['equilibrium']['win'])}%.")
    rows = [{"what": "value, seat 0", "margin": v["margin"], "win": 100 * v["win"]},
            {"what": "value, the leader", "margin": v["lead_margin"], "win": 100 * v["lead_win"]},
            {"what": "exploitability", "margin": s["margin"].exploitability, "win": 100 * s["win"].exploitability},
            {"what": "iterations", "margin": s["margin"].iterations, "win": s["win"].iterations},
            {"what": "seconds", "margin": s["margin"].seconds, "win": s["win"].seconds}]
    ans.add(P.Table("The game at the optimum (win in % of deals)", rows,
                    [P.Col("what"), P.Col("margin", "margin", "num"), P.Col("win", "win", "num")]))
    if res.against:
        arows = [{"policy": a["policy"], "br_margin": a["best_reply"]["margin"],
                  "br_win": 100 * a["best_reply"]["win"], "eq_margin": a["equilibrium"]["margin"],
                  "eq_win": 100 * a["equilibrium"]["win"]} for a in res.against]
        ans.add(P.Table("Edges over each policy, both seatings (win: points of %)", arows,
                        [P.Col("policy"), P.Col("br_margin", "reply margin", "num"),
                         P.Col("br_win", "reply win", "num"), P.Col("eq_margin", "eq margin", "num"),
                         P.Col("eq_win", "eq win", "num")]))
    if res.hold is not None:
        h = res.hold
        ans.sentences.append(f"The equilibrium holds its first double at {_pct(h['rate']['win'])}% of the "
                             f"decisions where it could place it (playing for the win; "
                             f"{_pct(h['rate']['margin'])}% for the margin); the option to hold is worth "
                             f"{100 * h['worth']['win']:.2f} points of wins and {h['worth']['margin']:.3f} "
                             "points of margin to the seat that has it.")
        hrows = [{"what": "holds, % of chances", "margin": 100 * h["rate"]["margin"], "win": 100 * h["rate"]["win"]},
                 {"what": "chances a deal", **h["spots_per_deal"]},
                 {"what": "the option's worth", "margin": h["worth"]["margin"], "win": 100 * h["worth"]["win"]}]
        ans.add(P.Table("The first double's hold (win: points of %)", hrows,
                        [P.Col("what"), P.Col("margin", "margin", "num"), P.Col("win", "win", "num")]))
    ans.notes.append("Exact: every deal, lead and draw enumerated, values and best replies computed over the "
                     "whole tree (docs/equilibrium.md).")
    ans.data = flat_rows(data) if flat else data
    return ans


__all__ = ["MAX_NODES", "build_tree", "check_size", "equilibrium_answer", "equilibrium_data"]
