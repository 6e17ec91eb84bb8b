"""A scenario's variants: the ``[sweep]`` table's grid or zip of values made into arms, a sweep over player
counts split into one scenario per count, and the command line's ``--set NAME=VALUE`` and ``--players N``
applied over a scenario (and in place of what it sweeps)."""
from __future__ import annotations

from typing import Any

from ..engine.pypolicy import seat_policies as py_seat_policies
from ..rules import ALL_PARAMETERS
from ..safeio import InputError, check_depth
from .scenariomodel import ArmModel, ScenarioError, ScenarioModel

# ---- sweeps -----------------------------------------------------------------------------------------
#: the most variants a sweep may make (each is an arm: every deal is played once per variant and rotation)
MAX_VARIANTS = 64
SWEEP_MODES = ("grid", "zip")
_SWEEP_KEYS = "a rule parameter (" + ", ".join(p for p in ALL_PARAMETERS if p != "players") + \
    "), preset, players, policies, policy_N (player N's policy), mode, baseline"


def _label(v: Any) -> str:
    """A value as it reads in a variant's name (letters, digits and _ . = + -): lists joined by - (pairs
    by .), a policy's : and , as . and _ (``[[4, 2], [8]]`` -> ``4.2-8``, ``hold:until=5`` -> ``hold.until=5``)."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (list, tuple)):
        if not v:
            return "none"
        return "-".join(".".join(_label(x) for x in t) if isinstance(t, (list, tuple)) else _label(t) for t in v)
    if isinstance(v, dict):
        return "-".join(f"{k}.{_label(x)}" for k, x in v.items())
    text = str(v).replace(":", ".").replace(",", "_").replace(" ", "")
    import re
    return re.sub(r"[^A-Za-z0-9_.=+-]", "_", text)


def sweep_axes(table: dict[str, Any], path: str) -> tuple[list[tuple[str, list]], str, str | None]:
    """The swept parameters with their values (in the table's order), the mode and the baseline's name;
    ScenarioError for an unknown parameter, a value that is not a non-empty list, or an unknown mode."""
    mode = table.get("mode", "grid")
    if mode not in SWEEP_MODES:
        raise ScenarioError(f"{path}: field sweep.mode = {mode!r} is invalid; allowed: grid, zip")
    baseline = table.get("baseline")
    if baseline is not None and not isinstance(baseline, str):
        raise ScenarioError(f"{path}: field sweep.baseline = {baseline!r} is invalid; allowed: a variant's name")
    axes = []
    for key, values in table.items():
        if key in ("mode", "baseline"):
            continue
        known = key in ALL_PARAMETERS or key in ("policies", "preset") or \
            (key.startswith("policy_") and key[7:].isdigit() and len(key) < 10)
        if not known:
            raise ScenarioError(f"{path}: field sweep.{key}: unknown parameter {key!r}; allowed: {_SWEEP_KEYS}")
        if not isinstance(values, list) or not values:
            raise ScenarioError(f"{path}: field sweep.{key} = {values!r} is invalid; allowed: a non-empty list of "
                                f"values, e.g. {key} = [2, 3]" if key != "first_double_bonus" else
                                f"{path}: field sweep.{key} = {values!r} is invalid; allowed: a non-empty list of "
                                "values, e.g. first_double_bonus = [[[4, 2], [8, 4], [8]], []]")
        axes.append((key, values))
    if not axes:
        raise ScenarioError(f"{path}: field sweep names no parameter; allowed: {_SWEEP_KEYS}")
    return axes, mode, baseline


def _combinations(axes: list[tuple[str, list]], mode: str, path: str) -> list[dict[str, Any]]:
    import itertools
    if mode == "zip":
        lengths = {k: len(v) for k, v in axes}
        if len(set(lengths.values())) > 1:
            raise ScenarioError(f"{path}: field sweep: mode = \"zip\" needs lists of one length, but "
                                + ", ".join(f"{k} has {n}" for k, n in lengths.items())
                                + "; allowed: lists of equal length, or mode = \"grid\"")
        n = next(iter(lengths.values()))
    else:
        n = 1
        for _, v in axes:
            n *= len(v)
    if n > MAX_VARIANTS:
        raise ScenarioError(f"{path}: field sweep: the {mode} makes {n:,} variants, more than {MAX_VARIANTS}; "
                            f"allowed: at most {MAX_VARIANTS} variants (fewer values, or mode = \"zip\")")
    keys = [k for k, _ in axes]
    rows = zip(*[v for _, v in axes]) if mode == "zip" else itertools.product(*[v for _, v in axes])
    return [dict(zip(keys, r)) for r in rows]


def split_players(data: dict[str, Any], path: str) -> list[dict[str, Any]]:
    """A scenario whose sweep names ``players``: one scenario per player count (named NAME-2p, ...; the
    rest of the sweep is crossed with each), else the scenario itself. The one layout of a study over
    player counts: docs/results.md."""
    sweep = data.get("sweep")
    if not isinstance(sweep, dict) or "players" not in sweep:
        return [data]
    counts = sweep["players"]
    if not isinstance(counts, list) or not counts or \
            not all(isinstance(p, int) and not isinstance(p, bool) and 2 <= p <= 4 for p in counts) \
            or len(set(counts)) != len(counts):
        raise ScenarioError(f"{path}: field sweep.players = {counts!r} is invalid; allowed: a non-empty list of "
                            "distinct player counts 2, 3, 4")
    rest = {k: v for k, v in sweep.items() if k != "players"}
    out = []
    for p in counts:
        d = cut_policies({**data, "players": p, "name": f"{data.get('name')}-{p}p", "sweep": rest}, p)
        rest_p = d.pop("sweep")
        if any(k not in ("mode", "baseline") for k in rest):
            d["sweep"] = rest_p
        else:
            if rest.get("baseline"):
                raise ScenarioError(f"{path}: field sweep.baseline = {rest['baseline']!r}: the sweep varies only "
                                    "players, whose variants are studies of their own; allowed: leave baseline out")
        out.append(d)
    return out


def sweep_arms(m: "ScenarioModel", path: str) -> list[ArmModel]:
    """The arms of a scenario's ``[sweep]``: one per variant (the grid, or the zip, of the values), named from
    the values (``min_ends=2+hand_size=5``), the baseline first (the first variant unless ``baseline``
    names another)."""
    axes, mode, baseline = sweep_axes(m.sweep or {}, path)
    if any(k == "players" for k, _ in axes):  # pragma: no cover - split_players takes it out first
        raise ScenarioError(f"{path}: field sweep.players: load the scenario with load() (a study per player count)")
    given = m.rules if "rules" in m.model_fields_set else {}  # not the default preset of a scenario without [rules]
    both = [k for k, _ in axes if k in (given or {})]
    if both:  # the sweep sets it in every variant: the [rules] value would be dropped without a word
        k = both[0]
        raise ScenarioError(f"{path}: field rules.{k} = {m.rules[k]!r} is also swept (sweep.{k} sets it in every "
                            f"variant); allowed: {k} in [rules] or in [sweep], not both")
    base_pols = py_seat_policies(m.policies, m.players) if any(k.startswith("policy_") for k, _ in axes) else None
    out: list[ArmModel] = []
    seen: dict[str, dict] = {}
    combos = _combinations(axes, mode, path)
    varies = [k for k, _ in axes if len({_label(c[k]) for c in combos}) > 1] or [k for k, _ in axes]
    full: dict[str, str] = {}  # a name -> the name with the keys that do not vary (a baseline may say either)
    for combo in combos:
        name = "+".join(f"{k}={_label(v)}" for k, v in combo.items() if k in varies)
        full["+".join(f"{k}={_label(v)}" for k, v in combo.items())] = name
        if name in seen:
            raise ScenarioError(f"{path}: field sweep: two variants are both named {name!r} ({seen[name]} and "
                                f"{combo}); allowed: distinct values")
        seen[name] = combo
        if len(name) > 200:
            raise ScenarioError(f"{path}: field sweep: the variant name {name[:60]}... is longer than 200 characters;"
                                " allowed: shorter values or fewer swept parameters")
        rules = {k: v for k, v in combo.items() if k in ALL_PARAMETERS or k == "preset"}
        policies: Any = None
        if "policies" in combo:
            policies = combo["policies"]
        for k, v in combo.items():
            if k.startswith("policy_"):
                seat = int(k[7:])
                if seat >= m.players:
                    raise ScenarioError(f"{path}: field sweep.{k}: there is no player {seat} with {m.players} "
                                        f"players; allowed: policy_0 to policy_{m.players - 1}")
                pols = list(policies) if isinstance(policies, list) else \
                    [str(p) for p in (py_seat_policies(policies, m.players) if policies else base_pols)]
                pols[seat] = v
                policies = pols
        out.append(ArmModel.model_construct(name=name, policies=policies, rules=rules, description=""))
    if baseline is not None:
        names = [a.name for a in out]
        baseline = full.get(baseline, baseline)
        if baseline not in names:
            shown_names = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
            raise ScenarioError(f"{path}: field sweep.baseline = {baseline!r} names no variant; allowed: "
                                f"{shown_names}")
        out.sort(key=lambda a: a.name != baseline)  # stable: the baseline first, the rest in order
    return out


def parse_set(item: str) -> tuple[str, Any]:
    """``NAME=VALUE`` of ``--set``, the value read as every command's ``--set`` reads it (simdom/cli/common.py):
    JSON (``[[4,2],[null,8]]``), else TOML (``[[4, 2], [8]]``, ``{2 = 6, 3 = 6, 4 = 5}``), else the text itself
    (``sum``, ``fixed:6``). ScenarioError for an unknown parameter."""
    import json
    import tomllib
    name, sep, text = item.partition("=")
    name = name.strip()
    allowed = ", ".join(("preset",) + tuple(p for p in ALL_PARAMETERS if p != "players"))
    if not sep or not name:
        raise ScenarioError(f"--set {item!r} is invalid; allowed: NAME=VALUE with NAME one of {allowed}")
    if name == "players":
        raise ScenarioError("--set players: the number of players has its own option; allowed: --players N")
    if name not in ALL_PARAMETERS and name != "preset":
        raise ScenarioError(f"--set {name}: unknown parameter {name!r}; allowed: {allowed}")
    text = text.strip()
    for parse in (json.loads, lambda t: tomllib.loads(f"v = {t}")["v"]):
        try:
            value = parse(text)
        except (ValueError, RecursionError):
            continue
        try:
            check_depth(value, f"--set {name}")
        except InputError as e:
            raise ScenarioError(str(e)) from None
        return name, value
    return name, text


def cut_policies(data: dict[str, Any], players: int) -> dict[str, Any]:
    """The scenario with every list of per-seat policies longer than ``players`` cut to its first
    ``players`` (players 0..N-1 keep theirs): the scenario's, each arm's and each swept list, as ``--players``
    and a sweep over ``players`` both read them."""
    def cut(pols: Any) -> Any:
        return pols[:players] if isinstance(pols, list) and len(pols) > players else pols
    data = dict(data)
    if "policies" in data:
        data["policies"] = cut(data["policies"])
    if isinstance(data.get("arms"), list):
        data["arms"] = [{**a, "policies": cut(a["policies"])} if isinstance(a, dict) and "policies" in a else a
                        for a in data["arms"]]
    if isinstance(data.get("sweep"), dict) and isinstance(data["sweep"].get("policies"), list):
        data["sweep"] = {**data["sweep"], "policies": [cut(v) for v in data["sweep"]["policies"]]}
    return data


def with_overrides(data: dict[str, Any], sets: list[str] | tuple[str, ...] = (), players: int | None = None,
                   path: str = "<scenario>") -> dict[str, Any]:
    """The scenario with ``--set NAME=VALUE`` (over its [rules] and every arm's, and in place of a swept
    parameter) and ``--players N`` (in place of a sweep over players; a list of policies longer than N
    keeps its first N: players 0..N-1 keep theirs)."""
    data = dict(data)
    if players is not None:
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise ScenarioError(f"--players {players} is invalid; allowed: 2, 3 or 4")
        data = cut_policies({**data, "players": players}, players)
        if isinstance(data.get("sweep"), dict) and "players" in data["sweep"]:
            data["sweep"] = {k: v for k, v in data["sweep"].items() if k != "players"}
            if not any(k not in ("mode", "baseline") for k in data["sweep"]):
                data.pop("sweep")
    given: set[str] = set()
    for item in sets:
        name, value = parse_set(item)
        if name in given:
            raise ScenarioError(f"--set {name} is given twice; allowed: each parameter once")
        given.add(name)
        rules = dict(data.get("rules") or {"preset": "threes"}) if isinstance(data.get("rules", {}), dict) \
            else data["rules"]
        if isinstance(rules, dict):
            rules[name] = value
            data["rules"] = rules
        if isinstance(data.get("arms"), list):
            data["arms"] = [{**a, "rules": {**a["rules"], name: value}} if isinstance(a, dict) and
                            isinstance(a.get("rules"), dict) and name in a["rules"] else a for a in data["arms"]]
        if isinstance(data.get("sweep"), dict) and name in data["sweep"]:
            data["sweep"] = {k: v for k, v in data["sweep"].items() if k != name}
            if not any(k not in ("mode", "baseline") for k in data["sweep"]):
                data.pop("sweep")
    return data
