"""Open a results folder (simdom.results), verify it, and read it as lazy polars frames.

The deals table stores one row per arm, deal and rotation with per-seat columns (``points_0`` ..).
The statistics read :attr:`ResultFrames.deals`, its *long view*: one row per arm, deal, rotation and seat,
with the seat's own columns (``points``, ``scoring_plays``, ...) and what follows from the deal and the
manifest: ``player`` ((seat + rotation) % players, or the manifest's seating with ``rotation = "all"``),
``policy``, ``win`` (1/k for each of k seats tied on the highest total), ``bonus`` (the first-double bonus: the tier of the first double's move, for the
seat that placed it), ``end_bonus``, ``play_points``, ``went_out``, ``leader`` and ``turn`` (the seat's
order of play counted from the leader, 0 = the leader).

A match-mode folder (manifest ``unit = "match"``, docs/rules.md 12) has the same long view with the match's
columns added (simdom.stats.read.matchview: ``match``, ``hand``, ``side``, ``before``, ``opp_before``,
``credited``, ``match_won``; ``win`` is by side; ``deal`` is a deal id whose blocks are whole matches,
so every estimate is clustered by match), and :attr:`ResultFrames.matches`, one row per arm, match,
rotation and seat.
"""
from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simdom import results as fmt
from simdom.results import ResultsError, Unit
from simdom.results.seating import player_expr
from simdom.stats.read import PLAYING

__all__ = ["ResultFrames", "ResultsError", "move_view", "open_frames", "open_selection", "seat_view"]

#: about this many clusters of consecutive deals (or matches) carry every interval (docs/statistics.md)
TARGET_CLUSTERS = 4096


def block_size(n_deals: int, target: int = TARGET_CLUSTERS) -> int:
    """Deals per cluster so that a run of ``n_deals`` deals gives about ``target`` clusters."""
    return max(1, int(n_deals) // target)


@dataclass(frozen=True)
class ResultFrames:
    """A verified results folder (or arms of it) as the statistics read it: its manifest and lazy frames
    (:func:`open_frames`). The library's :class:`simdom.Results` wraps one for users."""

    path: Path
    manifest: fmt.Manifest
    deals: pl.LazyFrame                     #: the long view, one row per arm, deal, rotation and seat
    moves: pl.LazyFrame | None              #: one row per placement (with ``player`` and ``policy``)
    seats: pl.LazyFrame | None = None       #: the seats table (simdom run --seats)
    label: str = field(default="")
    matches: pl.LazyFrame | None = None     #: match mode: one row per arm, match, rotation and seat
    decisions: pl.LazyFrame | None = None   #: the decisions table (simdom run --decisions), with player, policy
    wide: pl.LazyFrame | None = None        #: the deals table as written (per-seat columns), None in memory
    course: pl.LazyFrame | None = None      #: the course table (one row per arm, deal and rotation), if written

    @property
    def unit(self) -> Unit:
        """The independent unit, the cluster of every estimate: ``deal``, or ``match`` in match mode."""
        return self.manifest.unit

    @property
    def n_matches(self) -> int:
        """Matches per arm and rotation (0: a run of single deals)."""
        return self.manifest.deals if self.unit.is_match else 0

    @property
    def match_block(self) -> int:
        """Matches per cluster of the match-level estimates (on ``match``)."""
        return block_size(self.n_matches)

    @property
    def name(self) -> str:
        return self.label or self.manifest.scenario_name or self.path.name

    @property
    def players(self) -> int:
        return self.manifest.players

    @property
    def rotations(self) -> int:
        return self.manifest.rotations

    @property
    def n_deals(self) -> int:
        return self.manifest.deals

    @property
    def block(self) -> int:
        """Deals per cluster (see simdom.stats.estimate.moments); in match mode, deal ids per cluster: a block of
        whole matches."""
        if self.unit.is_match:
            from simdom.stats.read.matchview import stride
            return stride(self.manifest) * self.match_block
        return block_size(self.n_deals)

    @property
    def arms(self) -> list[dict[str, Any]]:
        """The arms in the scenario's order: name, rules (docs/rules.md section 11 form), preset, policies."""
        return [a.model_dump() for a in self.manifest.arms]

    def arm(self, name: str) -> dict[str, Any]:
        return next(a for a in self.arms if a["name"] == name)

    def bonus_tiers(self) -> list[int]:
        """Distinct first-double bonus values over all arms' rules, ascending (empty: no bonus)."""
        tiers = {int(p) for a in self.arms for _, p in a["rules"].get("first_double_bonus", [])}
        return sorted(t for t in tiers if t > 0)

    def presets(self) -> list[str]:
        return sorted({str(a.get("preset")) for a in self.arms})

    @property
    def arm_names(self) -> list[str]:
        """Arm names in the scenario's order (the order every table shows them in)."""
        return [a.name for a in self.manifest.arms]

    def select(self, arm: str | list[str]) -> "ResultFrames":
        """One arm of these results, named ``NAME:ARM``, or several (a list, in the order given: the first
        is then the baseline of every comparison), ``NAME:ARM1,ARM2``; their deals are those of the other
        arms (paired)."""
        arms = [arm] if isinstance(arm, str) else list(arm)
        for a in arms:
            if a not in self.arm_names:
                raise ResultsError(f"{self.path}: no arm {a!r}; allowed: {', '.join(self.arm_names)} "
                                   "(write FOLDER:ARM or FOLDER:ARM1,ARM2)")
        if len(set(arms)) != len(arms):
            raise ResultsError(f"{self.path}: an arm is named twice in {','.join(arms)}; allowed: distinct arms")
        by_name = {a.name: a for a in self.manifest.arms}
        manifest = self.manifest.model_copy(update={"arms": [by_name[a] for a in arms]})
        only = pl.col("arm").is_in(arms)
        return ResultFrames(self.path, manifest, self.deals.filter(only),
                       None if self.moves is None else self.moves.filter(only),
                       None if self.seats is None else self.seats.filter(only), label=f"{self.name}:{','.join(arms)}",
                       matches=None if self.matches is None else self.matches.filter(only),
                       decisions=None if self.decisions is None else self.decisions.filter(only),
                       wide=None if self.wide is None else self.wide.filter(only),
                       course=None if self.course is None else self.course.filter(only))

    @classmethod
    def in_memory(cls, manifest: fmt.Manifest, deals: pl.LazyFrame | pl.DataFrame,
                  moves: pl.LazyFrame | pl.DataFrame | None = None, name: str = "") -> "ResultFrames":
        """ResultFrames over frames in memory (coverage studies, tests): ``deals`` is the long view (one row
        per arm, deal, rotation and seat, as :func:`seat_view` makes it), ``moves`` as :func:`move_view`."""
        lazy = [None if f is None else f.lazy() for f in (deals, moves)]
        return cls(Path(f"<{name or manifest.scenario_name}>"), manifest, lazy[0], lazy[1], label=name)


def _tier(move: pl.Expr, pairs: list) -> pl.Expr:
    """The first-double bonus of a first double placed at ``move`` (docs/rules.md 4)."""
    expr = pl.lit(0)
    for last, pts in reversed(pairs):
        expr = pl.when(move <= last).then(pl.lit(pts)).otherwise(expr) if last is not None else pl.lit(pts)
    return expr


def _by_arm(arms: list[dict], value) -> pl.Expr:
    """An expression taking, per arm, the expression ``value(arm)`` (one branch per distinct value)."""
    groups: dict[str, tuple[pl.Expr, list[str]]] = {}
    for a in arms:
        e = value(a)
        groups.setdefault(str(e), (e, []))[1].append(a["name"])
    items = list(groups.values())
    expr = items[-1][0]
    for e, names in reversed(items[:-1]):
        expr = pl.when(pl.col("arm").is_in(names)).then(e).otherwise(expr)
    return expr


SEAT_COLUMNS = [c.name for c in fmt.DEALS.columns if c.per_seat]
DEAL_COLUMNS = [c.name for c in fmt.DEALS.columns if not c.per_seat]


def seat_view(wide: pl.LazyFrame, manifest: fmt.Manifest, extra: list[str] = (),
              win_points: str | None = None) -> pl.LazyFrame:
    """The long view of a deals table (see the module doc); ``extra``: more deal columns to keep;
    ``win_points``: the prefix of the per-seat totals that decide ``win`` (default ``points``)."""
    P = manifest.players
    arms = [a.model_dump() for a in manifest.arms]
    pts = [pl.col(f"{win_points or 'points'}_{s}") for s in range(P)]
    top = pl.max_horizontal(pts)
    ties = pl.sum_horizontal([(p == top).cast(pl.Int8) for p in pts])
    wide = wide.with_columns(_top=top, _ties=ties)
    parts = []
    for s in range(P):
        parts.append(wide.select(
            *DEAL_COLUMNS, *extra, pl.lit(s, pl.Int8).alias("seat"),
            *[pl.col(f"{c}_{s}").alias(c) for c in SEAT_COLUMNS],
            win=(pts[s] == pl.col("_top")).cast(pl.Float64) / pl.col("_ties")))
    lf = pl.concat(parts, how="vertical")
    policies = pl.DataFrame({"arm": [a["name"] for a in arms for _ in range(P)],
                             "player": pl.Series([p for _ in arms for p in range(P)], dtype=pl.Int8),
                             "policy": [q for a in arms for q in a["policies"]]})
    fd_seat = pl.col("first_double_seat")
    tier = _by_arm(arms, lambda a: _tier(pl.col("first_double_move"), a["rules"].get("first_double_bonus", [])))
    spinner = _by_arm(arms, lambda a: pl.lit(a["rules"].get("spinner") == "first_double"))
    lf = lf.with_columns(
        player=player_expr(manifest),
        bonus=pl.when(fd_seat == pl.col("seat")).then(tier).otherwise(0).cast(pl.Int16),
        seat_end_bonus=pl.when(pl.col("winner") == pl.col("seat")).then(pl.col("end_bonus")).otherwise(0),
        went_out=(pl.col("end") == "domino") & (pl.col("winner") == pl.col("seat")).fill_null(False),
        leader=pl.col("seat") == pl.col("first_seat"),
        turn=((pl.col("seat") - pl.col("first_seat")) % P).cast(pl.Int8),
        spinner_move=pl.when(spinner).then(pl.col("first_double_move")),
        spinner_seat=pl.when(spinner).then(fd_seat),
    ).with_columns(
        play_points=pl.col("points") - pl.col("bonus") - pl.col("seat_end_bonus"),
    ).drop("end_bonus").rename({"seat_end_bonus": "end_bonus"})
    return lf.join(policies.lazy(), on=["arm", "player"], how="left")


def move_view(lf: pl.LazyFrame, manifest: fmt.Manifest) -> pl.LazyFrame:
    """The moves table (or the decisions table) with each row's ``player`` and ``policy``."""
    P = manifest.players
    policies = pl.DataFrame({"arm": [a.name for a in manifest.arms for _ in range(P)],
                             "player": pl.Series([p for _ in manifest.arms for p in range(P)], dtype=pl.Int8),
                             "policy": [q for a in manifest.arms for q in a.policies]})
    return lf.with_columns(player=player_expr(manifest)).join(
        policies.lazy(), on=["arm", "player"], how="left")


def version_note(root: Path, version: int) -> str | None:
    """One line on a folder played by behaviour version ``version`` when this process plays another (PLAYING,
    when the caller has said it), else None: its numbers are those of its version, which a run today may not
    give (simdom.engine.api.SIM_VERSION: the same rules, policies and seed give other results)."""
    playing = PLAYING["sim_version"]
    if playing is None or version == playing:
        return None
    return (f"Note: {root} was played by behaviour version {version}, this simdom plays version {playing}: its numbers "
            f"are version {version}'s (simdom run SCENARIO --out {root} --overwrite plays it again)")


def open_frames(path: str | Path) -> ResultFrames:
    """Validate a results folder and return lazy frames over its rows.

    Every part is read once: checked against the manifest's record and the domains of its values
    (simdom.results.verify), then queried from memory. Raises :class:`ResultsError` for a folder that is
    missing, not simdom's, of another format, half-written (the manifest is not complete) or not the one
    simdom wrote (a part missing, extra, changed, or failing a check), naming the first failing check.
    """
    root = Path(path)
    if not root.exists():
        raise ResultsError(f"results folder {root} does not exist (write one with `simdom run`)")
    if not root.is_dir():
        raise ResultsError(f"{root} is not a folder; give a results folder written by `simdom run`")
    if not any(root.iterdir()):
        raise ResultsError(f"{root}: empty folder; not a simdom results folder (write one with `simdom run`)")
    m = fmt.read_manifest(root)
    if not m.complete:
        done = len(m.chunks_done)
        raise ResultsError(f"{root}: " + (f"half-written ({done} of {m.n_chunks} chunks done)" if done < m.n_chunks else
                                          f"all {m.n_chunks} chunks written, but the run stopped before it marked "
                                          "the folder complete") + ": run `simdom run` again to finish")
    note = version_note(root, m.sim_version)
    if note is not None:
        print(note, file=sys.stderr, flush=True)
    for t in m.tables:
        folder = root / t
        found = {p.name for p in folder.glob("*.parquet")} if folder.is_dir() else set()
        extra = sorted(found - {fmt.PART.format(c) for c in range(m.n_chunks)})
        if extra:
            stray = folder / extra[0]
            named_like_a_part = re.fullmatch(r"part-\d{5}\.parquet", extra[0]) is not None
            raise ResultsError(f"{root}: {t}/{extra[0]} is not a part of this run (it has {m.n_chunks} chunks); "
                               + (f"remove it (rm {stray}), or run `simdom run` on the folder again, which removes "
                                  "parts of no chunk" if named_like_a_part else
                                  f"simdom did not write it: move it out of the folder (mv {stray} SOMEWHERE)"))
    read = fmt.check_folder_parts(root, m)
    parts = {t: pl.scan_parquet([io.BytesIO(d) for d in data]) for t, data in read.items()}  # from memory
    matches = None
    if m.unit.is_match:
        from simdom.stats.read.matchview import deal_view, match_view
        deals = deal_view(parts["deals"], m, seat_view)
        matches = match_view(parts["matches"], m)
    else:
        deals = seat_view(parts["deals"], m)
    moves = move_view(parts["moves"], m) if "moves" in parts else None
    seats = parts.get("seats")
    decisions = move_view(parts["decisions"], m) if "decisions" in parts else None
    if m.unit.is_match:  # the deal id of the long view (blocks of whole matches) on every table
        from simdom.stats.read.matchview import stride
        did = (pl.col("match") * stride(m) + pl.col("hand")).alias("deal")
        moves = None if moves is None else moves.with_columns(did)
        seats = None if seats is None else seats.with_columns(did)
    return ResultFrames(root, m, deals, moves, seats, matches=matches, decisions=decisions, wide=parts["deals"],
                        course=parts.get("course"))


def open_selection(text: str | Path) -> ResultFrames:
    """A results folder, or one arm of it written ``FOLDER:ARM`` (Threes and Fives as two arms of one
    run: ``results/threes-vs-fives:threes``), or several, ``FOLDER:ARM1,ARM2`` (in that order). Two arms
    of one run share their deals, so comparisons between them are paired."""
    text = str(text)
    if Path(text).exists() or ":" not in text:
        return open_frames(text)
    folder, _, arm = text.rpartition(":")
    arms = arm.split(",")
    return open_frames(folder).select(arms[0] if len(arms) == 1 else arms)
