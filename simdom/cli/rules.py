"""`simdom rules`: the presets and their parameters."""
from __future__ import annotations

import json
from typing import List, Optional

import typer

from ..rules import PRESET_SOURCES, PRESETS, Rules, preset
from .common import OLD_JSON_OPT, PLAYERS_OPT, SET_OPT, TableOrJson, console, format_opt, make_rules


def _scores(r: Rules) -> str:
    """How a placement scores, in a few words: ``6 if S % 3 = 0, 3+ ends``."""
    div = " or ".join(map(str, r.divisors))
    what = {"sum": "S", "quotient": "S/d"}.get(r.points, r.points.removeprefix("fixed:"))
    return f"{what} if {div} | S" + (f", {r.min_ends}+ ends" if r.min_ends > 1 else "")


def _bonuses(r: Rules) -> str:
    parts = []
    if r.first_double_bonus:
        parts.append("1st double " + "/".join(str(p) for _, p in r.first_double_bonus))
    words = {"none": "", "opponents_pips": "opp. pips", "opponents_minus_own": "opp. - own pips"}
    out, block = words.get(r.out_bonus, r.out_bonus.replace("fixed:", "")), words[r.block_bonus]
    if out or block:
        tail = f" (round {r.bonus_round_to}, / {r.bonus_divisor})" if r.bonus_round_to > 1 or r.bonus_divisor > 1 else ""
        parts.append(f"out {out or '-'}, block {block or '-'}{tail}")
    return "; ".join(parts) or "none"


def _layout(r: Rules) -> str:
    if r.spinner == "none":
        return "line"
    return "spinner, arms " + ("at once" if r.arms_open == "immediately" else "later")


def rules_cmd(
    name: Optional[str] = typer.Argument(None, help="A preset; omit to list them."),
    players: int = PLAYERS_OPT,
    overrides: Optional[List[str]] = SET_OPT,
    fmt: TableOrJson = format_opt(),
    as_json: bool = OLD_JSON_OPT,
) -> None:
    """List the rule presets, or print one preset's parameters (docs/rules.md section 8).

    [bold]Examples[/]

      simdom rules
      simdom rules threes
      simdom rules fives --players 2 --set min_ends=2 --format json
    """
    from .. import present as P

    as_json = as_json or fmt is TableOrJson.json  # --json: the old spelling
    if name is None:
        rows = []
        for p in PRESETS:
            r = preset(p)
            rows.append({"preset": p, "hands": "/".join(map(str, r.hand_size)), "draw": "yes" if r.draw != "none" else "no",
                         "lead": r.lead.removeprefix("tile:"), "layout": _layout(r), "scores": _scores(r),
                         "bonuses": _bonuses(r), "source": PRESET_SOURCES[p]})
        ans = P.Answer([f"{len(PRESETS)} presets: {', '.join(PRESETS)}. `simdom rules NAME` prints one preset's "
                        "every parameter; --set PARAMETER=VALUE changes any of them."])
        ans.add(P.Table("Rule presets (docs/rules.md section 8); S = the counted ends' sum", rows,
                        [P.Col(k) for k in ("preset", "hands", "draw", "lead", "layout", "scores", "bonuses")]))
        ans.notes.append("hands: tiles each for 2/3/4 players. Sources: "
                         + "; ".join(f"{p}: {PRESET_SOURCES[p]}" for p in PRESETS) + ".")
        ans.data = rows
        P.emit(ans, "json" if as_json else "table", console=console)
        return
    r = make_rules(name, players, overrides)
    d = r.to_dict()
    if as_json:
        print(json.dumps(d))
        return
    ans = P.Answer([f"{name}, {players} players{' (with overrides)' if overrides else ''}: {r.hand} tiles each, "
                    f"{_layout(r)}, a placement scores {_scores(r)}; bonuses: {_bonuses(r)}."])
    ans.add(P.Table("Every parameter (docs/rules.md sections 8 and 12)",
                    [{"parameter": k, "value": json.dumps(v) if not isinstance(v, str) else v} for k, v in d.items()],
                    [P.Col("parameter"), P.Col("value")]))
    P.show(ans, console)


def register(app: typer.Typer) -> None:
    app.command("rules")(rules_cmd)
