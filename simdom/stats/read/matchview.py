"""The long views of a match-mode results folder (docs/rules.md 12; manifest ``unit = "match"``).

* :func:`deal_view`: one row per arm, match, rotation, hand and seat, with the columns of the deal-mode
  long view (simdom.stats.read.folder) plus ``match``, ``hand``, ``side``, the side's match scores ``before``
  the deal and ``credited`` in it, ``opp_before`` (the highest other side's score before the deal),
  ``side_led`` (the seat's side led the deal) and ``match_won`` (1 if the seat's side won the
  match). ``win`` is *by side*: 1/k when the seat's
  side is one of k sides tied on the highest deal total (a side's deal total is the sum of its seats'
  points), else 0; without partners that is the deal-mode win. ``deal`` is the deal's id in the run,
  ``match * stride + hand`` (stride: a power of two >= every arm's max_deals), so that blocks of
  consecutive ids are blocks of whole matches: every estimate is clustered by match.
* :func:`match_view`: one row per arm, match, rotation and seat: ``side``, ``player``, ``policy``,
  ``won`` (1 if its side won the match), ``score`` and ``opp_score`` (the side's final score and the
  highest other side's), ``deals``, ``unfinished``, ``led_first`` (the seat led the first deal) and
  ``side_led_first`` (its side did).
"""
from __future__ import annotations

import polars as pl

from simdom import results as fmt
from simdom.results.seating import player_expr


def stride(manifest: fmt.Manifest) -> int:
    """A power of two >= every arm's max_deals: ``deal = match * stride + hand``."""
    most = max(int(a.rules.get("max_deals", 200)) for a in manifest.arms)
    return 1 << max(0, (most - 1).bit_length())


def _sides_expr(manifest: fmt.Manifest) -> pl.Expr:
    """The seat's side: seat % 2 in an arm with partners, else the seat."""
    partners = [a.name for a in manifest.arms if a.rules.get("teams") == "partners"]
    seat = pl.col("seat")
    return (pl.when(pl.col("arm").is_in(partners)).then(seat % 2).otherwise(seat) if partners else seat).cast(pl.Int8)


def _first_side(manifest: fmt.Manifest) -> pl.Expr:
    """The side of the seat that led (``first_seat``)."""
    partners = [a.name for a in manifest.arms if a.rules.get("teams") == "partners"]
    first = pl.col("first_seat")
    side = pl.when(pl.col("arm").is_in(partners)).then(first % 2).otherwise(first) if partners else first
    return side.cast(pl.Int8)


def _policies(manifest: fmt.Manifest) -> pl.LazyFrame:
    P = manifest.players
    return pl.DataFrame({"arm": [a.name for a in manifest.arms for _ in range(P)],
                         "player": pl.Series([p for _ in manifest.arms for p in range(P)], dtype=pl.Int8),
                         "policy": [q for a in manifest.arms for q in a.policies]}).lazy()


def _side_cols(prefix: str, S: int, side: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """The own side's ``prefix_j`` and the highest other side's (null-safe: missing sides are null)."""
    own = pl.lit(None, pl.Int64)
    for j in range(S):
        own = pl.when(side == j).then(pl.col(f"{prefix}_{j}")).otherwise(own)
    others = [pl.when(side != j).then(pl.col(f"{prefix}_{j}")) for j in range(S)]
    return own.cast(pl.Int32), pl.max_horizontal(others).cast(pl.Int32)


def deal_view(wide: pl.LazyFrame, manifest: fmt.Manifest, seat_view) -> pl.LazyFrame:
    """The per-seat long view of a match-mode deals table (see the module doc); ``seat_view`` is the
    deal-mode builder (simdom.stats.read.folder.seat_view), applied to the rows with a ``deal`` id."""
    P, S = manifest.players, manifest.sides
    partners = [a.name for a in manifest.arms if a.rules.get("teams") == "partners"]
    wide = wide.with_columns(deal=pl.col("match") * stride(manifest) + pl.col("hand"))
    if partners:  # a side's deal total, the same on both seats of the side: win by side
        is_p = pl.col("arm").is_in(partners)
        tot = [pl.when(is_p).then(pl.col(f"points_{s % 2}") + pl.col(f"points_{s % 2 + 2}"))
               .otherwise(pl.col(f"points_{s}")) for s in range(P)]
        wide = wide.with_columns(*[t.alias(f"_side_pts_{s}") for s, t in enumerate(tot)])
    long = seat_view(wide, manifest, extra=["match", "hand", "rules_lead", "match_winner",
                                            *[f"{c}_{j}" for c in ("before", "credited") for j in range(S)]],
                     win_points="_side_pts" if partners else None)
    side = _sides_expr(manifest)
    long = long.with_columns(side=side)
    if partners:  # seat_view shared the win among the tied seats: a side's share goes to each of its 2 seats
        long = long.with_columns(win=pl.when(pl.col("arm").is_in(partners)).then(pl.col("win") * 2)
                                 .otherwise(pl.col("win")))
    before, opp_before = _side_cols("before", S, pl.col("side"))
    credited, _ = _side_cols("credited", S, pl.col("side"))
    long = long.with_columns(before=before, opp_before=opp_before, credited=credited,
                             side_led=_first_side(manifest) == pl.col("side")).drop(
        [f"{c}_{j}" for c in ("before", "credited") for j in range(S)])
    return long.with_columns(
        match_won=(pl.col("match_winner") == pl.col("side")).fill_null(False).cast(pl.Float64))


def match_view(matches: pl.LazyFrame, manifest: fmt.Manifest) -> pl.LazyFrame:
    """The per-seat long view of the matches table (see the module doc)."""
    P, S = manifest.players, manifest.sides
    parts = [matches.with_columns(seat=pl.lit(s, pl.Int8)) for s in range(P)]
    lf = pl.concat(parts, how="vertical").with_columns(side=_sides_expr(manifest))
    score, opp = _side_cols("score", S, pl.col("side"))
    lf = lf.with_columns(
        player=player_expr(manifest),
        won=(pl.col("winner") == pl.col("side")).fill_null(False).cast(pl.Float64),
        score=score, opp_score=opp,
        led_first=pl.col("seat") == pl.col("first_seat"),
        side_led_first=_first_side(manifest) == pl.col("side"),
    ).drop([f"score_{j}" for j in range(S)])
    return lf.join(_policies(manifest), on=["arm", "player"], how="left")
