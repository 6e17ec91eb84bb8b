"""What `simdom doubles` shows: its options checked, and the answer for the tables that apply."""
from __future__ import annotations

from simdom import present as P
from simdom.stats.read.folder import ResultFrames
from simdom.stats.tables.stats import InputError

from simdom.stats.names import DOUBLES_TABLES, SITUATION_SHORT  # --table of simdom doubles
DECISION_TABLES = ("decisions", "decision-grid", "decision-search")


def doubles_keys(decisions: bool, by: str | None, table: str | None, situations: tuple[str, ...]) -> list[str] | None:
    """The situations of --by (None: the default grid), once --table and --by fit --decisions; InputError
    naming the option and the allowed values otherwise."""
    if table is not None and table not in DOUBLES_TABLES:
        raise InputError(f"bad --table {table!r}; allowed: {', '.join(DOUBLES_TABLES)}")
    if table in DECISION_TABLES and not decisions:
        raise InputError(f"--table {table} needs --decisions")
    if by is not None and not decisions:
        raise InputError("--by needs --decisions (the sweep tables have no groups)")
    keys = None
    if by is not None:
        long = {short: k for k, short in SITUATION_SHORT.items()}  # the tables' short names are accepted too
        keys = [long.get(k.strip(), k.strip()) for k in by.split(",") if k.strip()]
        bad = [k for k in keys if k not in situations]
        if bad or not keys or len(set(keys)) != len(keys):
            raise InputError(f"bad --by {by!r}; allowed: distinct names from {', '.join(situations)} (or as the "
                             f"tables print them: {', '.join(SITUATION_SHORT[k] for k in situations if k in SITUATION_SHORT)})")
    if decisions and table is not None and table not in DECISION_TABLES:
        raise InputError(f"bad --table {table!r} with --decisions; allowed: {', '.join(DECISION_TABLES)}")
    return keys


def doubles_view(res: ResultFrames, label: str, decisions: bool, keys: list[str] | None, table: str | None,
                 every: bool) -> P.Answer:
    """The answer of `simdom doubles` on ``res`` (``label``: as the user named it): the --table asked for,
    else every table that applies when ``every`` (people reading a terminal), else the main one."""
    from simdom.stats.tables.doubles import _require_threes, detect_families, detect_sweep
    from simdom.stats.views.pairs import doubles_answer
    if decisions:
        from simdom.stats.decisions.views import decisions_answer
        wanted = [table] if table else (list(DECISION_TABLES) if every else ["decisions"])
        return decisions_answer(res, wanted, keys)
    _require_threes(res)
    sweep = detect_sweep(res)
    families = detect_families(res) if sweep is None else []
    if families:  # a sweep over the rules and a hold:until=K: one answer per rules variant
        return _per_family(res, families, table, every)
    if table in ("sweep", "best") and sweep is None:
        raise InputError(f"{label}: no double-timing sweep (arms differing only in one player's "
                         "hold:until=K, with a K=1 or greedy baseline); use --table by-move or taker")
    wanted = [table] if table else (["sweep", "best", "by-move", "taker"] if every
                                    else ["sweep" if sweep else "by-move"])
    return doubles_answer(res, wanted)


def _per_family(res: ResultFrames, families: list[tuple[str, list[str]]], table: str | None, every: bool) -> P.Answer:
    """One answer per rules variant (its own hold sweep, its own bonus column), in the scenario's order;
    the machines get ``{variant label: that variant's data}``."""
    from simdom.stats.views.pairs import doubles_answer
    wanted = [table] if table else (["sweep", "best", "by-move", "taker"] if every else ["sweep"])
    out = P.Answer(data={})
    out.sentences.append(f"{len(families)} rules variants, each with its own double-timing sweep:")
    for label, arms in families:
        sub = res.select(arms)
        if not sub.bonus_tiers():
            out.sentences.append(f"{label}: no first-double bonus, so no bonus to hold for.")
            continue
        ans = doubles_answer(sub, wanted)
        out.sentences += [f"{label}: {x}" for x in ans.sentences]
        for t in ans.tables:
            t.title = f"{t.title} [{label}]"
            out.tables.append(t)
        out.notes += [n for n in ans.notes if n not in out.notes]
        out.data[label] = ans.data
    return out
