"""Scenario files (TOML): what `simdom run` plays, validated into resolved arms.

A scenario names a study: the rules (a preset plus overrides), the players, the policy of each seat,
optional *arms* (variants of the seat policies or of the rules that all play the same deals),
optional seat rotation, the number of deals, the seed and the chunk size. When the rules play
matches (``target > 0``, docs/rules.md 12; every arm or none), ``deals`` is the number of matches and a
chunk is a range of match ids::

    name = "threes-doubles"
    players = 4
    policies = ["greedy", "greedy", "greedy", "greedy"]   # or one policy for every seat
    rotation = true
    deals = 100_000
    seed = 2024

    [rules]
    preset = "threes"          # then any docs/rules.md section 8 parameter, e.g. min_ends = 2

    [[arms]]
    name = "K=5"
    policies = ["hold:until=5", "greedy", "greedy", "greedy"]

    [[arms]]
    name = "no bonus"
    rules = { first_double_bonus = [] }   # merged over the scenario's [rules]

:func:`load` validates the file (pydantic) and every rule set and policy; any error raises
:class:`ScenarioError` whose message names the file, the field and the allowed values.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..safeio import InputError, check_depth, loads_toml, not_a_file
from ..engine.pyloop import has_python
from ..engine.pypolicy import seat_policies as py_seat_policies
from ..policies import PolicyError, policy_cost
from ..results import Unit
from ..rules import ALL_PARAMETERS, PARAMETERS, PRESETS, Rules, RulesError, preset

#: Deals played in one chunk (deals x arms x rotations) aimed at when chunk_size is not given.
AUTO_CHUNK_PLAYS = 100_000
NAME_RE = r"^[A-Za-z0-9][A-Za-z0-9_.=+-]*$"
MAX_DEALS = 10**12
#: Plays (deals x arms x rotations) in one chunk at most: a worker holds a chunk's kernel output, its
#: columns and its Parquet bytes at once (about 0.5 KB per play), so 2 million plays are about 1 GB
MAX_CHUNK_PLAYS = 2_000_000
#: the most deals a match of a run may last (max_deals): a worker holds a whole match's rows
MAX_MATCH_DEALS = 10_000


class ScenarioError(ValueError):
    """A scenario that cannot be run: names the file, the field and what it allows."""


_RULES_DOC = f"a table with preset (one of {', '.join(PRESETS)}) and any of: {', '.join(PARAMETERS[:-1])}"
_POLICY_DOC = "a policy (e.g. \"greedy\", \"hold:until=9\") or a list with one policy per seat"


class ArmModel(BaseModel):
    """One variant: its own policies and/or rule overrides (merged over the scenario's [rules])."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(pattern=NAME_RE, max_length=64)
    policies: Optional[Union[str, list[str]]] = None
    rules: dict[str, Any] = Field(default_factory=dict)
    description: str = ""


class ScenarioModel(BaseModel):
    """The TOML file as written (field names are the file's keys)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(pattern=NAME_RE, max_length=64)
    description: str = ""
    rules: dict[str, Any] = Field(default_factory=lambda: {"preset": "threes"})
    players: int = Field(ge=2, le=4)
    policies: Union[str, list[str]] = "greedy"
    arms: list[ArmModel] = Field(default_factory=list)
    rotation: bool = False
    deals: int = Field(ge=1, le=MAX_DEALS)
    seed: int = Field(ge=0, lt=2**63)
    chunk_size: Optional[int] = Field(default=None, ge=1, le=10_000_000)
    sweep: Optional[dict[str, Any]] = None

    @field_validator("arms")
    @classmethod
    def _unique_arms(cls, arms: list[ArmModel]) -> list[ArmModel]:
        seen: set[str] = set()
        for a in arms:
            if a.name in seen:
                raise ValueError(f"arm name {a.name!r} is used twice; allowed: distinct names")
            seen.add(a.name)
        return arms


@dataclass(frozen=True)
class Arm:
    """A resolved arm: its validated rules and one canonical policy text per seat."""

    name: str
    rules: Rules
    policies: tuple[str, ...]

    @property
    def preset(self) -> str:
        return str(self.rules.preset)

    def to_manifest(self) -> dict[str, Any]:
        return {"name": self.name, "rules": self.rules.to_dict(), "preset": self.preset,
                "policies": list(self.policies)}


@dataclass(frozen=True)
class Scenario:
    """A validated scenario, ready to run (CLI overrides already applied)."""

    name: str
    description: str
    players: int
    arms: tuple[Arm, ...]
    rotation: bool
    deals: int
    seed: int
    chunk_size: int
    source: dict[str, Any]
    path: str = ""

    @property
    def unit(self) -> Unit:
        """``match`` when the rules play matches (target > 0): ``deals`` then counts matches; else ``deal``."""
        return Unit.of(self.arms[0].rules.is_match)

    @property
    def rotations(self) -> int:
        """Times each deal is played: once per rotation of the seat policies, or once."""
        return self.players if self.rotation else 1

    def replace(self, deals: int | None = None, seed: int | None = None) -> "Scenario":
        """The scenario with the CLI's --deals / --seed (chunk size kept unless it was automatic)."""
        if deals is None and seed is None:
            return self
        if deals is not None and not 1 <= deals <= MAX_DEALS:
            raise ScenarioError(f"--deals {deals} is invalid; allowed: an integer from 1 to {MAX_DEALS}")
        if seed is not None and not 0 <= seed < 2**63:
            raise ScenarioError(f"--seed {seed} is invalid; allowed: an integer from 0 to {2**63 - 1}")
        src = dict(self.source)
        if deals is not None:
            src["deals"] = deals
        if seed is not None:
            src["seed"] = seed
        return from_dict(src, self.path or "<scenario>")

    def settings(self, *, tables: tuple[str, ...], sim_version: int, results_format: int,
                 **extra: Any) -> dict[str, Any]:
        """Everything that decides the rows of a run (never the workers or the backend); ``extra``: the
        options of optional tables (decision_rollouts). Not the number of deals: deal i depends only on the
        seed and i, so a run with more deals extends a folder of fewer (the chunk size is automatic
        without regard to the number of deals for the same reason)."""
        return {"name": self.name, "players": self.players, "rotations": self.rotations,
                "arms": [a.to_manifest() for a in self.arms], "seed": self.seed,
                "chunk_size": self.chunk_size, "tables": list(tables), "sim_version": sim_version,
                "format": results_format, **extra}

    def settings_hash(self, **settings: Any) -> str:
        """A hash of :meth:`settings`: a results folder holds this run's rows only if its hash is equal."""
        from ..results import settings_hash
        return settings_hash(self.settings(**settings))


# ---- loading --------------------------------------------------------------------------------------
def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "list[str]", "int", "bool") or str(part).startswith(("list[", "function-")):
            continue  # pydantic union-branch labels
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


_HINTS = {
    "name": "letters, digits and _ . = + - (it names the results folder)",
    "players": "2, 3 or 4",
    "deals": f"an integer from 1 to {MAX_DEALS}",
    "seed": "an integer >= 0",
    "chunk_size": "an integer from 1 to 10000000, or leave it out (automatic)",
    "rotation": "true or false",
    "policies": _POLICY_DOC,
    "rules": _RULES_DOC,
    "arms": "a list of [[arms]] tables with name and policies and/or rules",
    "sweep": "a table of parameter = [values] (a rule parameter, players, policies, policy_N), mode and baseline",
    "description": "a string",
}


def _pydantic_message(path: str, exc: ValidationError) -> str:
    lines = []
    seen: set[str] = set()
    for err in exc.errors():
        where = _loc(err["loc"])
        if where in seen:
            continue
        seen.add(where)
        key = str(err["loc"][-1]) if err["loc"] else ""
        if err["type"] == "extra_forbidden":
            parent = "arms[]" if "arms" in where else "the scenario"
            allowed = ", ".join(ArmModel.model_fields if "arms" in where else ScenarioModel.model_fields)
            lines.append(f"{path}: unknown field {where!r} in {parent}; allowed: {allowed}")
            continue
        if err["type"] == "missing":
            lines.append(f"{path}: field {where!r} is missing; allowed: {_HINTS.get(key, 'see docs/scenarios.md')}")
            continue
        leaf = next((str(p) for p in reversed(err["loc"]) if isinstance(p, str) and p in _HINTS), key)
        value = err.get("input")
        shown = f" = {value!r}" if not isinstance(value, (dict, list)) or len(repr(value)) < 80 else ""
        lines.append(f"{path}: field {where!r}{shown} is invalid ({err['msg']}); "
                     f"allowed: {_HINTS.get(leaf, 'see docs/scenarios.md')}")
    return "\n".join(lines)


def _resolve_rules(table: dict[str, Any], players: int, where: str, path: str) -> Rules:
    params = dict(table)
    name = params.pop("preset", "threes")
    if "players" in params:
        raise ScenarioError(f"{path}: field {where}.players: players is set once, at the top of the scenario "
                            "(every arm of a run has the same players); allowed: " + _RULES_DOC)
    try:
        rules = preset(name, players=players, **params)
    except RulesError as e:
        raise ScenarioError(f"{path}: field {where}: {str(e).removeprefix('rules: ')}") from None
    except TypeError as e:  # pragma: no cover - defensive: a parameter of an unexpected type
        raise ScenarioError(f"{path}: field {where}: {e}; allowed: {_RULES_DOC}") from None
    if rules.is_match and rules.max_deals > MAX_MATCH_DEALS:
        raise ScenarioError(f"{path}: field {where}.max_deals = {rules.max_deals} is too large for a run; allowed: "
                            f"1 to {MAX_MATCH_DEALS}")
    return rules


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
        d = {**data, "players": p, "name": f"{data.get('name')}-{p}p"}
        if any(k not in ("mode", "baseline") for k in rest):
            d["sweep"] = rest
        else:
            d.pop("sweep")
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
    base_pols = py_seat_policies(m.policies, m.players) if any(k.startswith("policy_") for k, _ in axes) else None
    out: list[ArmModel] = []
    seen: dict[str, dict] = {}
    for combo in _combinations(axes, mode, path):
        name = "+".join(f"{k}={_label(v)}" for k, v in combo.items())
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
        if baseline not in names:
            shown_names = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
            raise ScenarioError(f"{path}: field sweep.baseline = {baseline!r} names no variant; allowed: "
                                f"{shown_names}")
        out.sort(key=lambda a: a.name != baseline)  # stable: the baseline first, the rest in order
    return out


def from_dict(data: dict[str, Any], path: str = "<scenario>") -> Scenario:
    """Validate a parsed scenario (the TOML as a dict) and resolve its arms."""
    try:
        check_depth(data, path)
    except InputError as e:
        raise ScenarioError(str(e)) from None
    try:
        m = ScenarioModel.model_validate(data)
    except ValidationError as e:
        raise ScenarioError(_pydantic_message(path, e)) from None
    base_rules = _resolve_rules(m.rules, m.players, "rules", path)
    if m.sweep is not None and "players" in m.sweep:
        raise ScenarioError(f"{path}: field sweep.players: a sweep over player counts is a study of several runs; "
                            "allowed: load_study() (simdom run), or players out of the sweep")
    if m.sweep is not None:
        if m.arms:
            raise ScenarioError(f"{path}: fields 'arms' and 'sweep' are both given; allowed: [[arms]] or a [sweep] "
                                "table, not both")
        arm_models = sweep_arms(m, path)
    else:
        arm_models = m.arms or [ArmModel(name="base")]
    arms = []
    for i, am in enumerate(arm_models):
        where = (f"sweep ({am.name})" if m.sweep is not None else f"arms[{i}] ({am.name})") \
            if m.arms or m.sweep is not None else ""
        table = {**m.rules, **am.rules}
        rules = _resolve_rules(table, m.players, f"{where}.rules" if where else "rules", path) \
            if am.rules else base_rules
        pol_src = am.policies if am.policies is not None else m.policies
        pfield = f"{where}.policies" if am.policies is not None else "policies"
        if isinstance(pol_src, list) and not pol_src:
            raise ScenarioError(f"{path}: field {pfield} is empty; allowed: {_POLICY_DOC}")
        try:
            parsed = py_seat_policies(pol_src, m.players)
            pols = tuple(str(p) for p in parsed)
        except PolicyError as e:
            raise ScenarioError(f"{path}: field {pfield}: {e}") from None
        if rules.is_match and has_python(parsed):
            raise ScenarioError(f"{path}: field {pfield}: python: policies play single-deal runs; allowed with "
                                f"target > 0: compiled policies (simdom trace --matches plays python: matches)")
        arms.append(Arm(am.name, rules, pols))
    kinds = {a.rules.is_match for a in arms}
    if len(kinds) > 1:
        odd = next(a for a in arms if a.rules.is_match != arms[0].rules.is_match)
        raise ScenarioError(f"{path}: field arms ({odd.name}).rules.target = {odd.rules.target}, but arm "
                            f"{arms[0].name} has target = {arms[0].rules.target}: a run plays matches in every arm or "
                            "in none; allowed: target > 0 in every arm, or target = 0 in every arm")
    plays = len(arms) * (m.players if m.rotation else 1)
    per_match = 1
    # slow policies (search, rollout, clairvoyant) cost many greedy decisions each: their chunks hold
    # fewer deals, so that a chunk lasts seconds, whatever the policy (progress, resume and the dask
    # backend all work by chunks); a run of fast policies (cost 1 per seat) keeps the sizes below
    slow = max(sum(policy_cost(p) for p in a.policies) / len(a.policies) for a in arms)
    if arms[0].rules.is_match:
        # a match of T points lasts about T / 15 deals (Fives and Threes score ~15-40 a deal per side)
        per_match = max(1, max(a.rules.target for a in arms) // 15)
        chunk = m.chunk_size or max(100, min(50_000, AUTO_CHUNK_PLAYS // plays // per_match // 100 * 100 or 100))
    else:
        chunk = m.chunk_size or max(1000, min(250_000, AUTO_CHUNK_PLAYS // plays // 1000 * 1000 or 1000))
    if m.chunk_size is None and slow > 1:
        chunk = max(1, min(chunk, int(AUTO_CHUNK_PLAYS // plays // per_match / slow)))
    if min(chunk, m.deals) * plays * per_match > MAX_CHUNK_PLAYS:
        unit = Unit.of(per_match > 1 or arms[0].rules.is_match)
        raise ScenarioError(f"{path}: field 'chunk_size' = {chunk}: {chunk} {unit.plural} x {len(arms)} arm(s) x "
                            f"{plays // len(arms)} rotation(s) is about {chunk * plays * per_match:,} plays per chunk, "
                            f"more than a worker holds in about 1 GB ({MAX_CHUNK_PLAYS:,}); allowed: chunk_size <= "
                            f"{MAX_CHUNK_PLAYS // plays // per_match}, or leave it out (automatic)")
    return Scenario(name=m.name, description=m.description.strip(), players=m.players, arms=tuple(arms),
                    rotation=m.rotation, deals=m.deals, seed=m.seed, chunk_size=chunk,
                    source=dict(data), path=path)


def read(path: str | Path) -> dict[str, Any]:
    """A scenario file's TOML as a dict (ScenarioError for a missing, unreadable or scripted-deal file)."""
    p = Path(path)
    problem = not_a_file(p)
    if problem == "no such file":
        raise ScenarioError(f"{p}: no such scenario file")
    if problem:
        raise ScenarioError(f"{p} is {problem}; allowed: a scenario file (TOML)")
    try:
        data = loads_toml(p.read_text(encoding="utf-8"), str(p))
    except InputError as e:
        raise ScenarioError(str(e)) from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{p}: not a text file (TOML must be UTF-8)") from None
    if "hands" in data and "deals" not in data:
        raise ScenarioError(f"{p}: a scripted deal (it has hands), not a scenario; replay it with "
                            f"`simdom replay --script {p}`")
    return data


def load(path: str | Path) -> Scenario:
    """Read and validate a scenario file (one run; a sweep over players is :func:`load_study`)."""
    return from_dict(read(path), str(path))


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


def with_overrides(data: dict[str, Any], sets: list[str] | tuple[str, ...] = (), players: int | None = None,
                   path: str = "<scenario>") -> dict[str, Any]:
    """The scenario with ``--set NAME=VALUE`` (over its [rules] and every arm's, and in place of a swept
    parameter) and ``--players N`` (in place of a sweep over players; a list of policies longer than N
    keeps its first N: players 0..N-1 keep theirs)."""
    data = dict(data)
    if players is not None:
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise ScenarioError(f"--players {players} is invalid; allowed: 2, 3 or 4")
        data["players"] = players

        def cut(pols: Any) -> Any:  # players 0..N-1 keep their policies
            return pols[:players] if isinstance(pols, list) and len(pols) > players else pols
        data["policies"] = cut(data.get("policies", "greedy"))
        if isinstance(data.get("arms"), list):
            data["arms"] = [{**a, "policies": cut(a["policies"])} if isinstance(a, dict) and "policies" in a else a
                            for a in data["arms"]]
        if isinstance(data.get("sweep"), dict) and isinstance(data["sweep"].get("policies"), list):
            data["sweep"] = {**data["sweep"], "policies": [cut(v) for v in data["sweep"]["policies"]]}
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


def load_study(path: str | Path, sets: list[str] | tuple[str, ...] = (), players: int | None = None,
               deals: int | None = None, seed: int | None = None) -> list[Scenario]:
    """A scenario file as the runs it makes: one, or one per player count when its sweep names
    ``players`` (each named NAME-Np, its results in FOLDER/Np: docs/results.md), with the command line's
    --set, --players, --deals and --seed applied. Every run is validated before any is played."""
    data = with_overrides(read(path), sets, players, str(path))
    return [from_dict(d, str(path)).replace(deals=deals, seed=seed) for d in split_players(data, str(path))]
