"""The policy registry: bot policies by name with their parameters (played by the kernel).

A policy is written ``name`` or ``name:key=value,key=value``: ``greedy``, ``hold:until=9``,
``hold:until=never``, ``rollout:samples=32``. :func:`parse_policy` validates it; the parsed
:class:`Policy` is read by parameter name (``p["worlds"]``).

Each policy is declared once, in :data:`REGISTRY` below: its name, what it does, its parameters (each
with its default, its parser, which is its range, and its text), whether it is fair and deterministic
and what a decision costs. The kernel reads the parameters from a vector in which parameter k of the
declaration is column k (engine/_kernel/layout.py names the columns ``PAR_*``); the engine maps the
name to the kernel's id ``POL_<NAME>`` and the values to that vector (simdom.engine.codes.kernel_arrays),
so this module knows no integer code.

Adding a policy is its kernel function (in engine/_kernel/kpolicies.py, dispatched in ``choose``) with
its id ``POL_<NAME>`` and its columns in engine/_kernel/layout.py, plus its one declaration below.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from .safeio import shown

NEVER = 1 << 30


class PolicyError(ValueError):
    """An unknown policy or a bad parameter: names it and lists what exists."""


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    parse: Callable[[str], float]
    doc: str
    #: written out at its default (False: a parameter added later, left out of the policy's text while it
    #: keeps its default, so that the texts stamped on earlier results stay what they were)
    shown: bool = True
    #: given only with another parameter at a value (``("own", "plan")``: expert's plan weights), else refused
    only_with: "tuple[str, str] | None" = None

    def text(self, v: float) -> str:
        """The value ``v`` as it is written: a choice by its name (``model=greedy``), ``never``, ``none``."""
        names = getattr(self.parse, "names", None)
        zero = getattr(self.parse, "zero", None)
        return names[int(v)] if names else zero if (zero and v == 0) else "never" if v >= NEVER \
            else str(int(v)) if float(v).is_integer() else str(v)


@dataclass(frozen=True)
class PolicyInfo:
    """One policy's declaration. Its parameters are in the kernel's order: ``params[k]`` is column k of
    the kernel's parameter vector."""

    name: str
    doc: str
    params: tuple[Param, ...] = ()
    fair: bool = True  #: plays from what its seat may know (False: clairvoyant reads every hand)
    #: its choice is a function of the position alone (no random stream): the solver can play against it
    deterministic: bool = False
    #: a decision's cost in greedy decisions, roughly: a number, or a function of the parsed policy
    cost: "float | Callable[[Policy], float]" = 1.0


#: the largest move number a deal can reach (double-twelve: 91 tiles), so hold:until=K beyond it is `never`
MAX_UNTIL = 92
#: rollout samples per legal move: beyond this a single decision takes seconds (32 plays ~1,500 deals/s)
MAX_SAMPLES = 10_000


def _count(text: str, hi: int) -> int | None:
    """An integer 1..hi written in ASCII digits, else None."""
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        return None
    n = int(text)
    return n if 1 <= n <= hi else None


def _int_or_never(text: str) -> float:
    if text == "never":
        return float(NEVER)
    n = _count(text, MAX_UNTIL)
    if n is None:
        raise ValueError(f"an integer from 1 to {MAX_UNTIL} (the longest deal) or 'never'")
    return float(n)


#: the largest value of a timing parameter (tiles, doubles, players or bonus points: all far below it)
MAX_TIMING = 1000


def _nonneg_int(text: str) -> float:
    if not (text.isascii() and text.isdigit()) or len(text) > 12 or int(text) > MAX_TIMING:
        raise ValueError(f"an integer from 0 to {MAX_TIMING:,}")
    return float(int(text))


def _choice(*names: str) -> Callable[[str], float]:
    """A parameter written as one of ``names``, held as its index."""
    def parse(text: str) -> float:
        if text not in names:
            raise ValueError(" or ".join(names))
        return float(names.index(text))
    parse.names = names  # type: ignore[attr-defined]
    return parse


#: the search policy's worlds per decision: beyond this a decision takes seconds
MAX_WORLDS = 1_000
#: the search policy's horizon under minimax (placements); 0 = none
MAX_DEPTH = 92


def _worlds(text: str) -> float:
    n = _count(text, MAX_WORLDS)
    if n is None:
        raise ValueError(f"an integer from 1 to {MAX_WORLDS:,}")
    return float(n)


#: the search policy's largest bonus for a won world (percent of the margins' standard deviation)
MAX_WIN = 1_000


def _win(text: str) -> float:
    if not (text.isascii() and text.isdigit()) or len(text) > 4 or int(text) > MAX_WIN:
        raise ValueError(f"an integer from 0 to {MAX_WIN:,}")
    return float(int(text))


def _depth(text: str) -> float:
    if not (text.isascii() and text.isdigit()) or len(text) > 3 or int(text) > MAX_DEPTH:
        raise ValueError(f"an integer from 0 (no horizon) to {MAX_DEPTH}")
    return float(int(text))


#: the clairvoyant policy's positions per decision: beyond this a decision takes hours
MAX_NODES = 10_000_000_000


def _nodes(text: str) -> float:
    if text == "none":
        return 0.0
    n = _count(text, MAX_NODES)
    if n is None or n < 1_000:
        raise ValueError(f"an integer from 1,000 to {MAX_NODES:,}, or none (no limit: exact, however long)")
    return float(n)


_nodes.zero = "none"  # type: ignore[attr-defined]


def _pos_int(text: str) -> float:
    n = _count(text, MAX_SAMPLES)
    if n is None:
        raise ValueError(f"an integer from 1 to {MAX_SAMPLES:,}")
    return float(n)


#: the largest exact endgame of expert (tiles in the two hands): beyond it a solve can take seconds
MAX_EXACT = 40


def _exact(text: str) -> float:
    if not (text.isascii() and text.isdigit()) or len(text) > 3 or int(text) > MAX_EXACT:
        raise ValueError(f"an integer from 0 (never) to {MAX_EXACT}")
    return float(int(text))


#: the largest weight of the plan policy's terms (points per unit)
MAX_WEIGHT = 20.0


def _weight(text: str) -> float:
    plain = re.fullmatch(r"-?[0-9]{1,2}(\.[0-9]{1,3})?", text) is not None  # no exponent, inf, nan or 1_0
    v = float(text) if plain else float("nan")
    if not (-MAX_WEIGHT <= v <= MAX_WEIGHT):
        raise ValueError(f"a number from {-MAX_WEIGHT:g} to {MAX_WEIGHT:g} with at most 3 decimals (e.g. 0.125)")
    return v


#: the plan policy's weights and defaults (layout.PAR_PL_*), also expert's own=plan (not written at their defaults)
PLAN_DEFAULTS = {"reply": 1.125, "next": 0.125, "keep": 0.5, "pips": -0.05}
_PLAN_DOCS = {"reply": "R: weight of the next player's expected best reply (subtracted)",
              "next": "N: weight of the most its own tiles could score on the ends it leaves",
              "keep": "K: weight of how many of its tiles still fit an end",
              "pips": "P: weight of the placed tile's pips"}


def _plan_weights(shown: bool) -> tuple[Param, ...]:
    """plan's weights; with shown False, expert's (given only with own=plan)."""
    return tuple(Param(k, v, _weight, _PLAN_DOCS[k], shown=shown, only_with=None if shown else ("own", "plan"))
                 for k, v in PLAN_DEFAULTS.items())


#: hold=never (search, expert): while no double is down and a double is legal, it places a double
_HOLD = Param("hold", 0.0, _choice("allow", "never"),
              "allow: it may hold the first double; never: while no double is down and a double is legal, it "
              "places a double (which, and where, chosen as it would)", shown=False)

#: a decision's cost relative to greedy's (each declaration's ``cost``), measured in 2-player Threes on
#: the shared 2-core machine (deals per second with the policy in one seat, the other greedy): defensive
#: 54,000 against greedy's 472,000; rollout:samples=32 1,300; search (16 worlds) 275; clairvoyant:
#: milliseconds a deal, a few deals seconds. Only the run's automatic chunk size and a job's announced
#: size read it (a chunk should last seconds whatever the policy), so a rough figure is enough.
#: rollout's grows with its samples, search's and expert's with their worlds (search's tenfold without a
#: horizon).
_COST_SEARCH = 110.0

REGISTRY: dict[str, PolicyInfo] = {p.name: p for p in (
    PolicyInfo("random", "uniform over the legal (tile, end) moves"),
    PolicyInfo("greedy", "the most immediate points (first-double bonus included); ties to the heavier tile",
               deterministic=True),
    PolicyInfo("heavy", "the heaviest legal tile (ties by immediate points): sheds pips", deterministic=True),
    PolicyInfo("hold", "greedy, but never places the deal's first double before move K while another move exists",
               (Param("until", 1.0, _int_or_never, "K: 1 = greedy's timing, never = hold as long as it can"),),
               deterministic=True),
    PolicyInfo("defensive", "greedy's points minus the next player's expected best reply over the unseen tiles",
               deterministic=True, cost=9.0),
    PolicyInfo("plan", "defensive with a plan for its next turn: immediate points, less R times the next player's "
               "expected best reply, plus N times the most its own tiles could score on the ends it leaves, K times "
               "how many of its tiles still fit an end, P times the tile's pips (plan:reply=1,next=0,keep=0,pips=0 "
               "is defensive; the defaults were tuned head to head against defensive, docs/policies.md)",
               _plan_weights(True), deterministic=True, cost=10.5),
    PolicyInfo("rollout", "Monte Carlo: per move, N sampled deals of the unseen tiles played out by greedy; "
               "best mean final margin",
               (Param("samples", 32.0, _pos_int, "N: sampled deals per legal move"),),
               cost=lambda p: 11.0 * p["samples"]),
    PolicyInfo("timing", "greedy, except at a first-double decision (the deal's first double not yet placed, a double and "
               "another tile both playable): it holds the double, playing greedy's best other move, when the "
               "rule S, L, W, P says so. The defaults come from the decision tables (simdom doubles "
               "--decisions): hold only a double with no other tile of its suit in hand, at the lead with 2 or "
               "3 players, or at move 7-8 with 2 when the bonus is about to double; with 4 players never",
               (Param("support", 0.0, _nonneg_int, "S: hold only a double whose suit has at most S other tiles in "
                                                   "the hand"),
                Param("lead", 4.0, _nonneg_int, "L: at the lead, hold when the doubles held plus the players are "
                                                "at most L (4: with 2 players up to 2 doubles, with 3 one, with 4 "
                                                "none)"),
                Param("wait", 4.0, _nonneg_int, "W: after the lead, hold when placing the double a round later "
                                                "(move + players) earns at least W more bonus points"),
                Param("players", 2.0, _nonneg_int, "P: the rule after the lead applies with at most P players")),
               deterministic=True),
    PolicyInfo("search", "determinised search: per decision, W deals of the unseen tiles sampled consistently "
               "with what the seat has seen; in each, every legal move is searched to a horizon of D "
               "placements (model=greedy: against greedy opponents; model=minimax: under minimax; 0: to the "
               "end, exact), beyond it the other seats play greedy and the seat itself greedy or defensive "
               "(own); best summed margin, plus B% of the margins' spread per world the move wins",
               (Param("worlds", 256.0, _worlds, "W: sampled deals per decision"),
                Param("model", 0.0, _choice("greedy", "minimax"), "the opponents in each world"),
                Param("depth", 1.0, _depth, "D: the horizon in placements (0: none; 1: the move alone)"),
                Param("own", 1.0, _choice("greedy", "defensive"),
                      "the seat's own moves beyond the horizon (the other seats play greedy there)"),
                Param("win", 40.0, _win, "B: added to a move's margin in each world where it wins the deal, in "
                                         "percent of the margins' standard deviation over the decision's worlds"),
                _HOLD),
               cost=lambda p: _COST_SEARCH * p["worlds"] / 16 * (10.0 if p["depth"] == 0 else 1.0)),
    PolicyInfo("expert", "search that infers and plans: W sampled deals of the unseen tiles, each weighted (2 players) "
               "by how likely the opponent's placements since its last draw were under a softmax of greedy "
               "(beta = I/100 per point); every legal move placed in each and played out (the other seats as "
               "model says, its own later moves defensive, or plan with own=plan), best weighted margin plus B% of the "
               "margins' spread per won world; "
               "with 2 players, the boneyard empty and at most E tiles in the hands, the exact solver's best move",
               (Param("worlds", 512.0, _worlds, "W: sampled deals per decision"),
                Param("infer", 50.0, _win, "I: the opponent model's beta in percent per point (0: uniform "
                                           "worlds, no inference)"),
                Param("exact", 16.0, _exact, "E: the most tiles in the two hands for the exact endgame (2 "
                                             "players, boneyard empty; 0: never)"),
                Param("win", 40.0, _win, "B: added to a move's margin in each world where it wins the deal, in "
                                         "percent of the margins' standard deviation over the decision's worlds"),
                _HOLD,
                Param("model", 0.0, _choice("greedy", "defensive"),
                      "how every other seat plays in the worlds after the move (the seat itself as own says)"),
                Param("own", 0.0, _choice("defensive", "plan"),
                      "how the seat plays its own later moves in the worlds (plan: with the weights below)",
                      shown=False),
                *_plan_weights(False)),
               cost=lambda p: _COST_SEARCH * p["worlds"] / 16),
    PolicyInfo("clairvoyant", "NOT A FAIR PLAYER: it sees every hand and the boneyard, and plays the exact "
               "solver's best move against the other seats' own policies (which must be deterministic: "
               "greedy, heavy, hold, timing, defensive, plan), or with against=minimax against the worst "
               "opponents; the ceiling of the ladder and the skill measure's fictive player",
               (Param("against", 0.0, _choice("seats", "minimax"), "seats: the other seats' policies; "
                                                                   "minimax: the paranoid value"),
                Param("nodes", 0.0, _nodes,
                      "N: positions searched per decision, or none (the default: always exact, however long); "
                      "over N the search deepens by horizons of 2, 4, 6, ... placements (greedy beyond) while "
                      "N lasts and plays the deepest finished search's best move: no longer exact"),
                Param("by", 0.0, _choice("margin", "points"),
                      "what it maximises: margin (its deal total minus the best other side's; a deal's winner "
                      "has the largest) or points (its own deal total)")),
               fair=False, cost=5000.0),
)}

#: policies whose choice is a function of the position alone (no random stream): what the solver can
#: play against (simdom solve --against, clairvoyant)
DETERMINISTIC = tuple(name for name, info in REGISTRY.items() if info.deterministic)


@dataclass(frozen=True)
class Policy:
    """A parsed policy: its registry entry and its parameter values, read by name (``p["worlds"]``);
    ``values`` holds them in the declaration's order, which is the kernel's."""

    info: PolicyInfo
    values: tuple[float, ...] = field(default=())

    @property
    def name(self) -> str:
        return self.info.name

    def __getitem__(self, param: str) -> float:
        """The value of the parameter named ``param`` (KeyError if the policy has none of that name)."""
        for p, v in zip(self.info.params, self.values):
            if p.name == param:
                return v
        raise KeyError(f"{self.info.name} has no parameter {param!r}")

    def texts(self) -> dict[str, str]:
        """Every parameter's value as it is written, by name."""
        return {p.name: p.text(v) for p, v in zip(self.info.params, self.values)}

    def __str__(self) -> str:
        if not self.info.params:
            return self.info.name
        parts = []
        for p, v in zip(self.info.params, self.values):
            if p.shown or v != p.default:
                parts.append(f"{p.name}={p.text(v)}")
        return f"{self.info.name}:{','.join(parts)}"


def _listing() -> str:
    out = []
    for p in REGISTRY.values():
        ps = ",".join(f"{q.name}=..." for q in p.params if q.shown)  # the later, optional ones: simdom policies
        out.append(p.name + (f":{ps}" if ps else ""))
    return ", ".join(out)


#: a policy written in Python (python:module:function) steps its deals in Python: about 220 deals/s
COST_PYTHON = 2000.0


def policy_cost(p: "str | Policy") -> float:
    """How many greedy decisions one decision of ``p`` costs, roughly (its declaration's ``cost``)."""
    if isinstance(p, str) and p.startswith("python:"):
        return COST_PYTHON
    p = parse_policy(p)
    cost = p.info.cost
    return float(cost(p)) if callable(cost) else cost


#: where a Python policy (``python:module:function``, simdom/engine/pypolicy.py) is played
ACCEPTED = ("simdom trace, simdom replay, simdom analyze --then, simdom review --then and simdom run "
            "(single deals, no --decisions)")


def parse_policy(text: "str | Policy") -> Policy:
    """The compiled policy ``text`` names; a Python policy is refused with one line saying where it is
    accepted (simdom.engine.pypolicy.parse_any accepts both)."""
    if isinstance(text, Policy):
        return text
    if getattr(text, "name", None) == "python" or str(text).strip().startswith("python:"):
        raise PolicyError(f"policy {shown(str(text).strip())}: python: policies play at Python speed and are "
                          f"accepted by {ACCEPTED} only; allowed here: a compiled policy (simdom policies "
                          f"lists them)")
    raw = str(text).strip()
    name, _, rest = raw.partition(":")
    info = REGISTRY.get(name)
    if info is None:
        raise PolicyError(f"policy {shown(raw)}: unknown policy {shown(name, 40)}; allowed: {_listing()}")
    values = {p.name: p.default for p in info.params}
    if rest:
        given: set[str] = set()
        for item in rest.split(","):
            key, eq, val = item.partition("=")
            key = key.strip()
            if key in given:
                raise PolicyError(f"policy {shown(raw)}: {shown(key, 40)} is given twice; allowed: each parameter once")
            given.add(key)
            param = next((p for p in info.params if p.name == key), None)
            if param is None or not eq:
                allowed = ", ".join(p.name for p in info.params) or "none"
                raise PolicyError(f"policy {shown(raw)}: unknown parameter {shown(key, 40)} of {name}; allowed parameters: "
                                  f"{allowed} (write {name}:key=value)")
            try:
                values[key] = param.parse(val.strip())
            except ValueError as e:
                raise PolicyError(f"policy {shown(raw)}: {key} = {shown(val.strip(), 40)} is invalid; allowed: {e}") from None
        for p in info.params:
            if p.only_with and p.name in given:
                other = next(q for q in info.params if q.name == p.only_with[0])
                if other.text(values[other.name]) != p.only_with[1]:
                    raise PolicyError(f"policy {shown(raw)}: {p.name} is a weight of {p.only_with[0]}="
                                      f"{p.only_with[1]} and changes nothing without it; allowed: "
                                      f"{name}:{p.only_with[0]}={p.only_with[1]},{p.name}=...")
    return Policy(info, tuple(values[p.name] for p in info.params))


def seat_policies(policies: "str | Policy | Sequence[str | Policy]", players: int,
                  parse: Callable[[object], Policy] = parse_policy) -> list[Policy]:
    """One policy per seat: a single policy is given to every seat; a list must have one per seat.
    ``parse``: how each is read (simdom.engine.pypolicy.seat_policies passes one that loads Python
    policies too)."""
    def one(p: object) -> bool:
        return isinstance(p, (str, Policy)) or getattr(p, "name", None) == "python"
    if one(policies):
        policies = [policies]
    items = None if isinstance(policies, (bytes, dict)) or not isinstance(policies, Iterable) else list(policies)
    if items is None or not all(map(one, items)):
        raise PolicyError(f"policies = {shown(policies)}; allowed: a policy (\"greedy\", \"hold:until=9\"), or a "
                          f"list of one per seat ({players})")
    parsed = [parse(p) for p in items]
    if len(parsed) == 1:
        parsed = parsed * players
    if len(parsed) != players:
        raise PolicyError(f"{len(parsed)} policies given for {players} players; allowed: one policy for every "
                          f"seat, or one per seat ({players})")
    check_clairvoyant(parsed)
    return parsed


def check_clairvoyant(policies: Sequence[Policy]) -> None:
    """A clairvoyant seat playing against the seats' own policies needs every other seat deterministic."""
    for s, p in enumerate(policies):
        if p.name == "clairvoyant" and p.texts()["against"] == "seats":
            for o, q in enumerate(policies):
                if o != s and q.name not in DETERMINISTIC:
                    raise PolicyError(f"clairvoyant (seat {s}) plays the exact best reply to the other seats' "
                                      f"policies, but seat {o} plays {q}; allowed there: "
                                      f"{', '.join(DETERMINISTIC)} (or clairvoyant:against=minimax)")
