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
from typing import Any

from pydantic import ValidationError

from ..safeio import InputError, check_depth, loads_toml, not_a_file
from ..engine.pyloop import has_python
from ..engine.pypolicy import seat_policies as py_seat_policies
from ..policies import PolicyError, policy_cost
from ..present import MAX_SEED
from ..results import Unit
from ..results.seating import seating_of
from ..rules import Rules, RulesError, Teams, preset
from .scenariomodel import (AUTO_CHUNK_PLAYS, MAX_CHUNK_PLAYS, MAX_DEALS, MAX_MATCH_DEALS, ArmModel, ScenarioError,
                            ScenarioModel, POLICY_DOC, RULES_DOC, pydantic_message)
from .sweep import split_players, sweep_arms, with_overrides


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
    rotation: bool | str     #: False, True or "all" (simdom.results.seating)
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
    def seating(self) -> tuple[tuple[int, ...], ...]:
        """``[rotation][seat]``: the player at each seat in each rotation (simdom.results.seating)."""
        return seating_tuple(self.rotation, self.players, self.arms)

    @property
    def rotations(self) -> int:
        """Times each deal is played: once per rotation of the seat policies (players with ``true``, one
        per distinct arrangement with ``"all"``), or once."""
        return len(self.seating)

    def replace(self, deals: int | None = None, seed: int | None = None) -> "Scenario":
        """The scenario with the CLI's --deals / --seed (chunk size kept unless it was automatic)."""
        if deals is None and seed is None:
            return self
        if deals is not None and not 1 <= deals <= MAX_DEALS:
            raise ScenarioError(f"--deals {deals} is invalid; allowed: an integer from 1 to {MAX_DEALS}")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise ScenarioError(f"--seed {seed} is invalid; allowed: an integer from 0 to {MAX_SEED}")
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
                "format": results_format, **extra,
                **({"seating": self.manifest_seating()} if self.rotation == "all" else {})}

    def manifest_seating(self) -> list[list[int]] | None:
        """The manifest's ``seating``: written with ``rotation = "all"`` only (true and false are cyclic)."""
        return [list(r) for r in self.seating] if self.rotation == "all" else None

    def settings_hash(self, **settings: Any) -> str:
        """A hash of :meth:`settings`: a results folder holds this run's rows only if its hash is equal."""
        from ..results import settings_hash
        return settings_hash(self.settings(**settings))


def seating_tuple(rotation: bool | str, players: int, arms) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(r) for r in seating_of(rotation, players, [a.policies for a in arms]))


def _resolve_rules(table: dict[str, Any], players: int, where: str, path: str) -> Rules:
    params = dict(table)
    name = params.pop("preset", "threes")
    if "players" in params:
        raise ScenarioError(f"{path}: field {where}.players: players is set once, at the top of the scenario "
                            "(every arm of a run has the same players); allowed: " + RULES_DOC)
    try:
        rules = preset(name, players=players, **params)
    except RulesError as e:
        raise ScenarioError(f"{path}: field {where}: {str(e).removeprefix('rules: ')}") from None
    except TypeError as e:  # pragma: no cover - defensive: a parameter of an unexpected type
        raise ScenarioError(f"{path}: field {where}: {e}; allowed: {RULES_DOC}") from None
    if rules.is_match and rules.max_deals > MAX_MATCH_DEALS:
        raise ScenarioError(f"{path}: field {where}.max_deals = {rules.max_deals} is too large for a run; allowed: "
                            f"1 to {MAX_MATCH_DEALS}")
    return rules


def from_dict(data: dict[str, Any], path: str = "<scenario>") -> Scenario:
    """Validate a parsed scenario (the TOML as a dict) and resolve its arms."""
    try:
        check_depth(data, path)
    except InputError as e:
        raise ScenarioError(str(e)) from None
    try:
        m = ScenarioModel.model_validate(data)
    except ValidationError as e:
        raise ScenarioError(pydantic_message(path, e)) from None
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
            raise ScenarioError(f"{path}: field {pfield} is empty; allowed: {POLICY_DOC}")
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
    if m.rotation == "all" and any(a.rules.teams == Teams.PARTNERS for a in arms):
        raise ScenarioError(f'{path}: field rotation = "all" with teams = "partners": partners sit opposite '
                            "each other in every rotation; allowed: rotation = true or false with partners")
    plays = len(arms) * len(seating_tuple(m.rotation, m.players, arms))
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


def load_study(path: str | Path, sets: list[str] | tuple[str, ...] = (), players: int | None = None,
               deals: int | None = None, seed: int | None = None) -> list[Scenario]:
    """A scenario file as the runs it makes: one, or one per player count when its sweep names
    ``players`` (each named NAME-Np, its results in FOLDER/Np: docs/results.md), with the command line's
    --set, --players, --deals and --seed applied. Every run is validated before any is played."""
    data = with_overrides(read(path), sets, players, str(path))
    return [from_dict(d, str(path)).replace(deals=deals, seed=seed) for d in split_players(data, str(path))]
