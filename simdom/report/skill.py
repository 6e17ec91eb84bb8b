"""The report's "Luck and skill" section: the skill share (`simdom skill --format json` files), the
ladder (`simdom ladder --format json` files) and the seat and lead advantage under strong play (the
arms of the results whose every seat plays a search, expert or rollout policy), each with the sentences and
tables of its own command."""
from __future__ import annotations

import json
from pathlib import Path

from simdom.report.data import Section
from simdom.stats.read.folder import ResultFrames
from simdom.stats.tables.stats import InputError

#: the fair policies that search at the table (simdom policies): an arm where every seat plays one of
#: them is strong play; the heuristics (greedy, heavy, timing, ...) are not
STRONG = ("search", "expert", "rollout")
#: the keys a JSON file of each command must hold
KEYS = {"skill": ("rows",), "ladder": ("ratings", "head_to_head", "spread", "spread_lo", "spread_hi", "anchor",
                                       "anchor_rating", "rules", "players", "deals", "seatings", "seconds")}
ROW_KEYS = ("rules", "players", "by", "beginner", "beginner_value", "optimal", "optimal_value", "fictive_value",
            "learning_effect", "learning_effect_lo", "learning_effect_hi", "random_effect", "random_effect_lo",
            "random_effect_hi", "skill", "skill_lo", "skill_hi", "deals", "fictive", "opponents")


#: the rows' text fields (every other field a number, or null where undefined)
TEXT_KEYS = {"rules", "by", "beginner", "optimal", "fictive", "opponents", "policy"}


def _typed(key: str, value: object) -> bool:
    """A field of simdom's own answer file has its type: a non-empty text, or a number (null where undefined)."""
    if key in TEXT_KEYS:
        return isinstance(value, str) and bool(value.strip())
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))


def load_answer_file(path: str | Path, kind: str) -> dict:
    """A `simdom skill` or `simdom ladder` JSON file (``kind``), checked: InputError names what is wrong."""
    path = Path(path)
    what = f"`simdom {kind} --format json` file"
    from ..safeio import loads_json, read_regular
    raw = read_regular(path, f"a {what}")  # a FIFO or a device is refused, never waited on
    try:
        data = loads_json(raw.decode("utf-8"), str(path))  # a key given twice is refused
    except (UnicodeDecodeError, ValueError) as e:
        why = str(e).split(": ", 1)[-1] if not isinstance(e, UnicodeDecodeError) else "not UTF-8"
        raise InputError(f"{path} is not a {what}: not JSON ({why})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path} is not a {what}: not a JSON object")
    missing = [k for k in KEYS[kind] if k not in data]
    if missing:
        raise InputError(f"{path} is not a {what}: no {missing[0]!r}")
    if kind == "skill":
        rows = data["rows"]
        if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
            raise InputError(f"{path} is not a {what}: 'rows' is not a list of rows")
        for i, r in enumerate(rows):
            gone = [k for k in ROW_KEYS if k not in r]
            if gone:
                raise InputError(f"{path} is not a {what}: row {i} has no {gone[0]!r}")
            bad = next((k for k in ROW_KEYS if not _typed(k, r[k])), None)
            if bad is not None:
                raise InputError(f"{path} is not a {what}: row {i}: {bad} = {json.dumps(r[bad])[:40]}; allowed: "
                                 + ("a non-empty text" if bad in TEXT_KEYS else "a number, or null"))
        if {(r["by"], r["beginner"]) for r in rows} != {(b, g) for b in ("points", "wins") for g in ("random", "greedy")}:
            raise InputError(f"{path} is not a {what}: its rows are not points and wins against random and greedy")
    else:
        if not isinstance(data["ratings"], list) or len(data["ratings"]) < 2 or not all(
                isinstance(r, dict) and {"policy", "rating", "rating_lo", "rating_hi", "games"} <= set(r)
                and _typed("policy", r["policy"]) and all(_typed(k, r[k]) for k in ("rating", "rating_lo", "rating_hi"))
                for r in data["ratings"]):
            raise InputError(f"{path} is not a {what}: 'ratings' is not a list of at least two ratings")
        names = [r["policy"] for r in data["ratings"]]
        if not isinstance(data["head_to_head"], list):
            raise InputError(f"{path} is not a {what}: 'head_to_head' is not a list")
        pairs = {(h.get("a"), h.get("b")) for h in data["head_to_head"] if isinstance(h, dict)}
        need = {(a, b) for i, a in enumerate(names) for b in names[i + 1:]}
        if not need <= pairs:
            raise InputError(f"{path} is not a {what}: 'head_to_head' lacks pairs of its ratings")
    return data


def _stamp(data: dict) -> str:
    seed, version = data.get("seed"), data.get("sim_version")
    parts = ([f"seed {seed}"] if seed is not None else []) + \
        ([f"behaviour version {version}"] if version is not None else [])
    return f" ({', '.join(parts)})" if parts else ""


def strong_arms(r: ResultFrames) -> list[str]:
    """The arms of ``r`` where every seat plays a search, expert or rollout policy (the manifest names each
    policy in its canonical form, name first)."""
    return [a["name"] for a in r.arms if all(p.split(":")[0] in STRONG for p in a["policies"])]


def luck_and_skill(results: list[ResultFrames], skill: list[tuple[str, dict]],
                   ladder: list[tuple[str, dict]]) -> Section | None:
    """None when there is nothing to say: no skill or ladder file given and no arm of strong play."""
    from simdom.stats.views.skill import ladder_answer_of, skill_answer
    from simdom.stats.views.stats import seats_answer

    strong = [(r, arms) for r in results if not r.unit.is_match for arms in [strong_arms(r)] if arms]
    if not (skill or ladder or strong):
        return None
    sec = Section("Luck and skill")
    sec.paragraphs.append(
        "How much the play decides, measured two ways: the skill share LE / (LE + RE) of Dreef, Borm and van "
        "der Genugten (a lower bound: the optimal player is only the best policy at hand), and the spread of a "
        "duplicate ladder's ratings (the wider, the more the play decides); then the seat and the lead under "
        "strong play.")
    for name, data in skill:
        ans = skill_answer(data["rows"])
        ans.notes.append(f"From {name}{_stamp(data)}.")
        sec.take(ans)
    for name, data in ladder:
        ans = ladder_answer_of(data)
        ans.notes.append(f"From {name}{_stamp(data)}.")
        sec.take(ans)
    for r, arms in strong:  # one family per folder: Holm over its strong arms
        one = r if arms == r.arm_names else r.select(arms[0]) if len(arms) == 1 else None
        for x in ([one] if one is not None else [r.select(a) for a in arms]):
            sec.take(seats_answer(x), f"{x.name} (search, expert or rollout at every seat): ")
    if not strong:
        sec.notes.append("No arm of these results has every seat played by search, expert or rollout, so the seat and "
                         "the lead under strong play are not shown; scenarios/strong-play.toml plays such arms.")
    return sec
