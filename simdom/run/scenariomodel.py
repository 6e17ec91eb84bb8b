"""The scenario file's schema (pydantic): its fields, their bounds, and the one-line messages naming the file,
the field and the allowed values (:class:`ScenarioError`); simdom.run.scenario resolves it into arms."""
from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..present import MAX_SEED
from ..results.seating import ROTATION_DOC
from ..safeio import shown as cut
from ..rules import PARAMETERS, PRESETS

#: Deals played in one chunk (deals x arms x rotations) aimed at when chunk_size is not given.
AUTO_CHUNK_PLAYS = 100_000
NAME_RE = r"^[A-Za-z0-9][A-Za-z0-9_.=+-]*$"
MAX_DEALS = 10**12
#: Plays (deals x arms x rotations) in one chunk at most: a worker holds a chunk's kernel output, its
#: columns and its Parquet bytes at once (about 0.5 KB per play), so 2 million plays are about 1 GB
MAX_CHUNK_PLAYS = 2_000_000
#: the most deals a match of a run may last (max_deals): a worker holds a whole match's rows
MAX_MATCH_DEALS = 10_000
#: the longest description of a scenario or an arm: it is printed with the summary and kept in the manifest
#: (a 5 MB one made a 10 MB manifest that every reader of the folder parses)
MAX_DESCRIPTION = 4_000


class ScenarioError(ValueError):
    """A scenario that cannot be run: names the file, the field and what it allows."""


RULES_DOC = f"a table with preset (one of {', '.join(PRESETS)}) and any of: {', '.join(PARAMETERS[:-1])}"
POLICY_DOC = "a policy (e.g. \"greedy\", \"hold:until=9\") or a list with one policy per seat"


class ArmModel(BaseModel):
    """One variant: its own policies and/or rule overrides (merged over the scenario's [rules])."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(pattern=NAME_RE, max_length=64)
    policies: Optional[Union[str, list[str]]] = None
    rules: dict[str, Any] = Field(default_factory=dict)
    description: str = Field(default="", max_length=MAX_DESCRIPTION)


class ScenarioModel(BaseModel):
    """The TOML file as written (field names are the file's keys)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(pattern=NAME_RE, max_length=64)
    description: str = Field(default="", max_length=MAX_DESCRIPTION)
    rules: dict[str, Any] = Field(default_factory=lambda: {"preset": "threes"})
    players: int = Field(ge=2, le=4)
    policies: Union[str, list[str]] = "greedy"
    arms: list[ArmModel] = Field(default_factory=list)
    rotation: Union[bool, Literal["all"]] = False
    deals: int = Field(ge=1, le=MAX_DEALS)
    seed: int = Field(ge=0, le=MAX_SEED)
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


# ---- messages --------------------------------------------------------------------------------------
def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "list[str]", "int", "bool") or str(part).startswith(("list[", "function-", "literal[")):
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
    "rotation": ROTATION_DOC,
    "policies": POLICY_DOC,
    "rules": RULES_DOC,
    "arms": "a list of [[arms]] tables with name and policies and/or rules",
    "sweep": "a table of parameter = [values] (a rule parameter, players, policies, policy_N), mode and baseline",
    "description": f"a string of at most {MAX_DESCRIPTION:,} characters",
}


def pydantic_message(path: str, exc: ValidationError) -> str:
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
        shown = f" = {cut(value)}" if not isinstance(value, (dict, list)) or len(repr(value)) < 80 else ""
        why = "" if leaf == "rotation" else f" ({err['msg']})"   # a union: pydantic names only its first branch
        lines.append(f"{path}: field {where!r}{shown} is invalid{why}; "
                     f"allowed: {_HINTS.get(leaf, 'see docs/scenarios.md')}")
    return "\n".join(lines)
