"""The check of a results folder's parts, one read of each: the bytes are hashed against the manifest's
record, then decoded once from memory and checked (footer, schema, rows, the domain of every value,
keys); the caller queries those bytes (a resume: those rows); a match folder's matches and deals parts are
checked against each other (deal counts, winners, final scores).

Every check has a name, and a part that fails is reported with the first check it fails
(:func:`check_chunk`): ``deals/part-00003.parquet fails 'points within the rules'``.
"""
from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import polars as pl
import pyarrow as pa

from ..tiles import n_tiles, tile_name
from .folder import META_KEY, ResultsError
from .manifest import Manifest, PartEntry, digest, part_key
from .parts import part_path
from .tables import COLUMN_TYPES, sides_of

__all__ = ["Bounds", "Part", "bounds", "check_chunk", "check_folder_parts", "read_checked"]

DEAL_ENDS = ("domino", "blocked")
MATCH_DEAL_ENDS = ("domino", "blocked", "target")   #: target: a placement won the match (docs/rules.md 12)
MOVE_ENDS = ("lead", "L", "R", "U", "D")


@dataclass(frozen=True)
class Bounds:
    """What one arm's rules allow (docs/rules.md 4, 7, 12), read from its section 11 ``rules`` object."""
    play: int        #: most points one placement scores
    bonus: int       #: highest first-double bonus
    end: int         #: most end bonus (out or block)
    tiles: int       #: tiles of the set
    pips: int        #: pips of the whole set
    max_pip: int
    sides: int       #: sides of a match (match mode), else players
    max_deals: int   #: deals a match may last (match mode)


def bounds(rules: dict, players: int) -> Bounds:
    """The bounds of an arm: a placement's points by ``points`` with at most 4 counted ends of at most
    2 * max_pip each; an end bonus of at most every pip of the set, rounded and divided."""
    mp = int(rules["max_pip"])
    s_max = 4 * 2 * mp
    pts = str(rules["points"])
    divisors = [int(d) for d in rules.get("divisors", [3])]
    play = int(pts[6:]) if pts.startswith("fixed:") else sum(s_max // d for d in divisors) if pts == "quotient" \
        else s_max
    bonus = max((int(p) for _, p in rules.get("first_double_bonus", [])), default=0)
    pips = mp * (mp + 1) * (mp + 2) // 2
    q, d = int(rules.get("bonus_round_to", 1)), int(rules.get("bonus_divisor", 1))
    pip_bonus = (pips + q) // d
    out = str(rules.get("out_bonus", "none"))
    end = max(int(out[6:]) if out.startswith("fixed:") else pip_bonus if out == "opponents_pips" else 0,
              pip_bonus if rules.get("block_bonus", "none") != "none" else 0)
    return Bounds(play, bonus, end, n_tiles(mp), pips, mp, sides_of(rules, players), int(rules.get("max_deals", 200)))


# ---- the checks of one part -----------------------------------------------------------------------------
Check = tuple[str, pl.Expr]   #: (name, a boolean expression true on every row / on the part)


def _increasing(keys: list[pl.Expr]) -> pl.Expr:
    """Rows strictly increasing in the keys, compared in order (no key repeated, the order simdom writes)."""
    gt = pl.lit(False)
    for k in reversed(keys):
        prev = k.shift(1)
        gt = (k > prev) | ((k == prev) & gt)
    return gt.slice(1).all()


class _Arms:
    """Per-arm values as expressions over the ``arm`` column."""

    def __init__(self, m: Manifest):
        self.names = [a.name for a in m.arms]
        self.b = [bounds(a.rules, m.players) for a in m.arms]

    def of(self, get: Callable[[Bounds], int]) -> pl.Expr:
        vals = [get(b) for b in self.b]
        if len(set(vals)) == 1:
            return pl.lit(vals[0])
        return pl.col("arm").replace_strict(dict(zip(self.names, vals)), default=None, return_dtype=pl.Int64)

    def most(self, get: Callable[[Bounds], int]) -> int:
        return max(get(b) for b in self.b)

    def index(self) -> pl.Expr:
        return pl.col("arm").replace_strict({n: i for i, n in enumerate(self.names)}, default=None,
                                            return_dtype=pl.Int32)


def _between(col: str, lo, hi) -> pl.Expr:
    c = pl.col(col)
    return (c >= lo) & (c <= hi)


def _checks(table: str, m: Manifest, c: int) -> list[Check]:
    """The named checks of chunk ``c``'s part of ``table``, in the order they are reported."""
    A, P, R, match = _Arms(m), m.players, m.rotations, m.unit.is_match
    lo, hi = m.chunk_range(c)
    spec = m.unit.tables[table]
    unit = m.unit.key
    out: list[Check] = [("no null where the schema has none", pl.all_horizontal(
        *[pl.col(f.name).null_count() == 0 for f in spec.schema(P, m.sides) if not f.nullable]))]
    out += [("arm one of the run's arms", pl.col("arm").is_in(A.names).all()),
            (f"{unit} numbers in the chunk's range {lo}..{hi - 1}", _between(unit, lo, hi - 1).all()),
            (f"rotation below {R}", _between("rotation", 0, R - 1).all())]
    if match and table != "matches":
        out.append(("hand below the arm's max_deals", _between("hand", 0, A.of(lambda b: b.max_deals) - 1).all()))
    keys = [A.index(), pl.col(unit), pl.col("rotation")] + ([pl.col("hand")] if match and table != "matches" else [])
    keys += {"seats": [pl.col("seat")], "moves": [pl.col("move")], "decisions": [pl.col("move")]}.get(table, [])
    out.append(("keys unique, in simdom's order", _increasing(keys)))
    seat = lambda col: (pl.col(col).is_null() | _between(col, 0, P - 1)).all()  # noqa: E731
    tiles, play, bonus, end = A.of(lambda b: b.tiles), A.of(lambda b: b.play), A.of(lambda b: b.bonus), \
        A.of(lambda b: b.end)
    if table == "deals":
        ends = MATCH_DEAL_ENDS if match else DEAL_ENDS
        plays = pl.sum_horizontal(*[pl.col(f"plays_{s}") for s in range(P)])
        fdm = pl.col("first_double_move")
        out += [(f"first_seat below {P}", seat("first_seat")), (f"winner below {P} or null", seat("winner")),
                (f"end one of {', '.join(ends)}", pl.col("end").is_in(ends).all()),
                ("end_bonus within the rules (0 without a hand winner)",
                 (_between("end_bonus", 0, end) & (pl.col("winner").is_not_null() | (pl.col("end_bonus") == 0)))
                 .all()),
                ("tiles_placed the seats' plays, within the set", ((pl.col("tiles_placed") == plays) &
                                                                  _between("tiles_placed", 1, tiles)).all()),
                ("first double at a move placed, by a seat", (fdm.is_null() == pl.col("first_double_seat").is_null())
                 .all() & (fdm.is_null() | ((fdm >= 1) & (fdm <= pl.col("tiles_placed")))).all()
                 & seat("first_double_seat"))]
        for s in range(P):
            p, n = pl.col(f"points_{s}"), pl.col(f"plays_{s}")
            out += [(f"plays_{s} and scoring_plays_{s} within the plays",
                     ((n >= 0) & (pl.col(f"scoring_plays_{s}") >= 0) & (pl.col(f"scoring_plays_{s}") <= n)).all()),
                    (f"points_{s} within the rules (0 .. the set's tiles x a placement's most + bonus + end bonus)",
                     ((p >= 0) & (p <= tiles * play + bonus + end)).all()),
                    (f"doubles_dealt_{s} within the set", _between(f"doubles_dealt_{s}", 0, A.most(lambda b: b.max_pip)
                                                                   + 1).all())]
        if match:
            sides = A.of(lambda b: b.sides)
            out.append(("match_winner a side or null", (pl.col("match_winner").is_null() | (
                (pl.col("match_winner") >= 0) & (pl.col("match_winner") < sides))).all()))
            for j in range(m.sides):
                for col in (f"before_{j}", f"credited_{j}"):
                    out.append((f"{col} >= 0 for a side of the arm, else null", pl.when(sides > j).then(
                        pl.col(col).is_not_null() & (pl.col(col) >= 0)).otherwise(pl.col(col).is_null()).all()))
    elif table == "seats":
        out += [(f"seat below {P}", _between("seat", 0, P - 1).all()),
                ("play_points within the rules", _between("play_points", 0, tiles * play).all()),
                ("bonus within the rules", _between("bonus", 0, bonus).all()),
                ("end_bonus within the rules", _between("end_bonus", 0, end).all()),
                ("draws and passes not negative, draws within the set",
                 (_between("draws", 0, tiles) & (pl.col("passes") >= 0)).all()),
                ("pips_left within the set", _between("pips_left", 0, A.of(lambda b: b.pips)).all())]
    elif table == "moves":
        names = sorted({tile_name(t, b.max_pip) for b in A.b for t in range(b.tiles)})
        out += [("move within the set", _between("move", 1, tiles).all()), (f"seat below {P}", seat("seat")),
                ("tile a tile of the set", pl.col("tile").is_in(names).all()),
                (f"end one of {', '.join(MOVE_ENDS)}", pl.col("end").is_in(MOVE_ENDS).all()),
                ("ends 0..4, ends_sum within the set", (_between("ends", 0, 4) & _between(
                    "ends_sum", 0, 8 * A.of(lambda b: b.max_pip))).all()),
                ("points within the rules", _between("points", 0, play).all()),
                ("bonus within the rules", _between("bonus", 0, bonus).all())]
    elif table == "course":
        dec = pl.col("decided_at")
        out += [("draws within the set, turns not negative", (_between("draws", 0, tiles) & (pl.col("turns") >= 0)
                                                              ).all()),
                ("choice_turns 0 .. choices, lead_changes not negative",
                 ((pl.col("choice_turns") >= 0) & (pl.col("choice_turns") <= pl.col("choices"))
                  & (pl.col("lead_changes") >= 0)).all()),
                ("winner_deficit and decided_at both null or both set, within the set",
                 ((pl.col("winner_deficit").is_null() == dec.is_null())
                  & (dec.is_null() | ((dec >= 0) & (dec <= tiles) & (pl.col("winner_deficit") >= 0)))).all())]
    elif table == "decisions":
        out += [(f"seat and turn below {P}", (seat("seat") & seat("turn"))),
                ("move within the set", _between("move", 1, tiles).all()),
                ("tiers within the rules", (_between("tier_now", 0, bonus) & _between("tier_later", 0, bonus)).all()),
                ("double_moves 1 .. legal_moves", ((pl.col("double_moves") >= 1) &
                                                   (pl.col("double_moves") <= pl.col("legal_moves"))).all()),
                ("double_face within the set", _between("double_face", 0, A.of(lambda b: b.max_pip)).all())]
    elif table == "matches":
        sides = A.of(lambda b: b.sides)
        out += [("deals 1 .. the arm's max_deals", _between("deals", 1, A.of(lambda b: b.max_deals)).all()),
                (f"first_seat below {P}", seat("first_seat")),
                ("winner a side, or null exactly when unfinished",
                 ((pl.col("winner").is_null() == pl.col("unfinished")) & (pl.col("winner").is_null() | (
                     (pl.col("winner") >= 0) & (pl.col("winner") < sides)))).all())]
        for j in range(m.sides):
            out.append((f"score_{j} >= 0 for a side of the arm, else null", pl.when(sides > j).then(
                pl.col(f"score_{j}").is_not_null() & (pl.col(f"score_{j}") >= 0)).otherwise(
                pl.col(f"score_{j}").is_null()).all()))
    return out


def _first_failure(df: pl.DataFrame, checks: list[Check]) -> str | None:
    if not checks:
        return None
    row = df.select([e.alias(str(i)) for i, (_, e) in enumerate(checks)]).row(0)
    return next((checks[i][0] for i, ok in enumerate(row) if ok is not True), None)


@dataclass(frozen=True)
class Part:
    """A part read once and checked: its bytes (what a query scans, from memory) and its rows."""
    data: bytes
    frame: pl.DataFrame


def columns_differ(have: list[str], want: list[str]) -> str:
    """What differs between a part's columns and the schema's: ``column colour added``, ``column
    end_bonus missing``, or their order."""
    extra, missing = [n for n in have if n not in want], [n for n in want if n not in have]
    return "; ".join([f"column {', '.join(extra[:3])} added"] * bool(extra)
                     + [f"column {', '.join(missing[:3])} missing"] * bool(missing)) or "its columns in another order"


def _changed(data: bytes, want: list[str]) -> str:
    """A changed part's columns, when its footer can be read and they differ from the schema's."""
    import pyarrow.parquet as pq
    try:
        have = pq.ParquetFile(pa.BufferReader(data)).schema_arrow.names
    except Exception:  # noqa: BLE001 - not even a footer: the hash said enough
        return ""
    return f": {columns_differ(have, want)}" if have != want else ""


def read_checked(root: Path, m: Manifest, table: str, c: int, rows: int | None) -> tuple[Part | None, str | None]:
    """(chunk ``c``'s part of ``table``, None) when it is the part simdom wrote, else (None, the first
    check it fails). The file is read once: its bytes are hashed against the manifest's record, then
    its footer read and its rows decoded from memory (the hash covers every byte, so page checksums are not read again)."""
    import pyarrow.parquet as pq
    path = part_path(root, table, c)
    entry: PartEntry | None = m.parts.get(part_key(table, c))
    if not path.is_file():
        return None, "is missing"
    if entry is None:
        return None, "is not recorded in the manifest (written after its last save)"
    try:
        data = path.read_bytes()
    except OSError as e:
        return None, f"is unreadable ({e.strerror})"
    if len(data) != entry.size:
        return None, (f"is not the file simdom wrote ({len(data)} bytes, the manifest records {entry.size})"
                      + _changed(data, m.names(table)))
    if digest(data) != entry.blake2b:
        return None, ("is not the file simdom wrote (its content hash is not the one the manifest records)"
                      + _changed(data, m.names(table)))
    try:
        pf = pq.ParquetFile(pa.BufferReader(data))
        meta = json.loads((pf.schema_arrow.metadata or {}).get(META_KEY.encode(), b"{}"))
        if not isinstance(meta, dict):
            return None, f"has simdom's footer metadata of the wrong type ({type(meta).__name__}, not an object)"
        if meta.get("settings_hash") != m.settings_hash or meta.get("chunk") != c:
            return None, "was written by another run or for another chunk"
        n = pf.metadata.num_rows
        want = entry.rows if rows is None else rows
        if n != meta.get("rows") or n != entry.rows or n != want:
            return None, f"has {n} rows, expected {want}"
        if pf.schema_arrow.names != m.names(table):
            return None, f"is not of the schema ({columns_differ(pf.schema_arrow.names, m.names(table))})"
        wrong = next((f for f in pf.schema_arrow if f.type != COLUMN_TYPES.get(f.name, f.type)), None)
        if wrong is not None:
            return None, f"is not of the schema (column {wrong.name} is {wrong.type}, expected {COLUMN_TYPES[wrong.name]})"
        frame = pl.read_parquet(io.BytesIO(data))
    except Exception as e:  # noqa: BLE001 - a truncated or corrupted file: anything pyarrow refuses
        return None, f"is unreadable ({type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''})"
    if frame.height != n:
        return None, "has rows that cannot be read"
    failed = _first_failure(frame, _checks(table, m, c))
    if failed:
        return None, f"fails the check '{failed}'"
    return Part(data, frame), None


def _agree(matches: pl.DataFrame, deals: pl.DataFrame, sides: int) -> str | None:
    """The first way a match chunk's deals part disagrees with its matches part, or None."""
    keys = ["arm", "match", "rotation"]
    last = deals.group_by(keys, maintain_order=True).agg(
        pl.len().alias("_n"), pl.col("hand").min().alias("_h0"), pl.col("hand").max().alias("_h1"),
        pl.col("match_winner").first().alias("_w"), (pl.col("match_winner").n_unique() == 1).alias("_w1"),
        *[(pl.col(f"before_{j}") + pl.col(f"credited_{j}")).last().alias(f"_s{j}") for j in range(sides)])
    df = matches.join(last, on=keys, how="left")
    for name, e in (("every match's deals in the deals part, hands 0 .. deals - 1",
                     ((pl.col("_n") == pl.col("deals")) & (pl.col("_h0") == 0) & (pl.col("_h1") == pl.col("deals") - 1))
                     .fill_null(False).all()),
                    ("the deals' match_winner the matches' winner", (pl.col("_w1") & pl.col("_w").eq_missing(
                        pl.col("winner"))).fill_null(False).all()),
                    *[(f"score_{j} the last deal's before_{j} + credited_{j}",
                       pl.col(f"_s{j}").eq_missing(pl.col(f"score_{j}")).all()) for j in range(sides)]):
        if df.select(e).item() is not True:
            return name
    return None


def check_chunk(root: Path, m: Manifest, c: int) -> tuple[dict[str, Part] | None, str | None]:
    """(chunk ``c``'s parts by table, None) when every part is the one simdom wrote and they agree with
    each other, else (None, ``TABLE/part-NNNNN.parquet PROBLEM``)."""
    got: dict[str, Part] = {}
    order = ["matches", *[t for t in m.tables if t != "matches"]] if m.unit.is_match else list(m.tables)
    hands = None
    for t in order:
        part, problem = read_checked(root, m, t, c, m.rows(t, c, hands))
        if problem:
            return None, f"{part_key(t, c)} {problem}"
        got[t] = part
        if t == "matches":
            hands = int(part.frame["deals"].sum())
    if m.unit.is_match:
        problem = _agree(got["matches"].frame, got["deals"].frame, m.sides)
        if problem:
            return None, f"{part_key('matches', c)} and {part_key('deals', c)} disagree: the check '{problem}' fails"
    if "course" in got:
        d, k = got["deals"].frame, got["course"].frame
        if not (d["tiles_placed"] <= k["turns"]).all() or not (d["tiles_placed"] <= k["choices"]).all() or \
                not (k["decided_at"].is_null() | (k["decided_at"] <= d["tiles_placed"])).all():
            return None, (f"{part_key('course', c)} and {part_key('deals', c)} disagree: turns, choices and "
                          f"decided_at must fit the tiles placed")
    if "moves" in got:
        placed = int(got["deals"].frame["tiles_placed"].sum())
        if got["moves"].frame.height != placed:
            return None, (f"{part_key('moves', c)} has {got['moves'].frame.height} rows, but the deals placed "
                          f"{placed} tiles")
    return got, None


def check_folder_parts(root: Path, m: Manifest, threads: int | None = None) -> dict[str, list[bytes]]:
    """Every chunk's parts, checked (:func:`check_chunk`), as their bytes by table in chunk order (for
    ``polars.scan_parquet`` from memory: no second read); ResultsError naming the first part that fails
    and its first failing check (one line)."""
    import os
    from concurrent.futures import ThreadPoolExecutor
    out: dict[str, list[bytes]] = {t: [] for t in m.tables}

    def one(c: int) -> tuple[dict[str, bytes] | None, str | None]:
        got, problem = check_chunk(root, m, c)
        return (None if got is None else {t: p.data for t, p in got.items()}), problem  # the rows are freed

    with ThreadPoolExecutor(max_workers=threads or os.cpu_count() or 1) as pool:  # the GIL is released
        for got, problem in pool.map(one, range(m.n_chunks)):
            if problem:
                raise ResultsError(f"{root}: {problem}: the folder is damaged or not the one simdom wrote; run "
                                   "`simdom run` on it again to recompute that chunk")
            for t, data in got.items():
                out[t].append(data)
    return out
