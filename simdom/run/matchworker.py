"""The worker side of a match-mode run (docs/rules.md 12, ``target > 0``): a chunk of match ids played for
every arm and rotation, returned as one Parquet part per table (matches, deals, and seats / moves when
asked) plus the summary sums.

Match m is the same sequence of shuffles in every arm and rotation (common random numbers: deal h of
match m is keyed by the root key, m and h alone, simdom.engine.matches). A match lasts a variable
number of deals: :func:`~simdom.engine.matches.simulate_matches` grows its output and plays on until
every match of the chunk is whole. The rows of the deals table are ordered arm, match, rotation, hand,
so each match's deals are contiguous and in play order.
"""
from __future__ import annotations


import numpy as np

from .. import results as fmt
from ..engine.codes import Act, DealEnd, End, Records
from ..engine.matches import MatchBatch, side_of, simulate_matches
from ..tiles import n_tiles, tile_name
from .plan import Plan
from .summary import chunk_sums


def play_match_chunk(plan: Plan, chunk: int) -> tuple[dict[str, bytes], np.ndarray, int]:
    """Play chunk ``chunk`` (a range of match ids) for every arm and rotation: (the parts by table, the
    summary sums, the deals played)."""
    m0, m1 = plan.chunk_range(chunk)
    n, A, R, P = m1 - m0, plan.arms, plan.rotations, plan.players
    moves = "moves" in plan.tables
    batches = [[simulate_matches(plan.rules[a], plan.lineup(a, r), plan.seed,
                                 m0, n, records=Records.PLAYS if moves else False) for r in range(R)] for a in range(A)]
    deals = _Deals(batches)
    enc = lambda spec, cols: fmt.encode(spec, P, cols, plan.settings_hash, chunk, plan.sides)  # noqa: E731
    match_cols = match_columns(plan, batches)
    parts = {"matches": enc(fmt.MATCHES, match_cols), "deals": enc(fmt.MATCH_DEALS, deals.columns(plan))}
    if "seats" in plan.tables:
        parts["seats"] = enc(fmt.MATCH_TABLES["seats"], deals.seat_columns(plan))
    if moves:
        parts["moves"] = enc(fmt.MATCH_TABLES["moves"], deals.move_columns(plan))
    return parts, match_sums(plan, match_cols), deals.n


def match_columns(plan: Plan, batches: list[list[MatchBatch]]) -> dict:
    """The matches table's columns, rows ordered arm, match, rotation."""
    A, R = len(batches), len(batches[0])
    n = len(batches[0][0].matches["match"])
    shape = (A, n, R)

    def gather(get, dtype) -> np.ndarray:
        out = np.empty(shape, dtype)
        for a in range(A):
            for r in range(R):
                out[a, :, r] = get(batches[a][r])
        return out.reshape(-1)

    def first_seat(b: MatchBatch) -> np.ndarray:
        return b.deals["first_seat"][b.deals["hand"] == 0]

    winner = gather(lambda b: b.matches["winner"], np.int32)
    cols = {"arm": fmt.strings(np.repeat(np.arange(A), n * R), list(plan.arm_names)),
            "match": gather(lambda b: b.matches["match"], np.int64),
            "rotation": np.tile(np.arange(R, dtype=np.int8), A * n),
            "deals": gather(lambda b: b.matches["deals"], np.int32),
            "first_seat": gather(first_seat, np.int32),
            "winner": np.ma.masked_array(winner, winner < 0),
            "unfinished": gather(lambda b: b.matches["unfinished"], np.bool_)}
    for j in range(plan.sides):
        score = gather(lambda b: b.matches.get(f"score_{j}", np.full(n, -1)), np.int32)
        cols[f"score_{j}"] = np.ma.masked_array(score, score < 0)
    return cols


def match_sums(plan: Plan, cols: dict) -> np.ndarray:
    """The run summary's sums of a chunk from its matches table: per seat, the side's match win (1 if
    its side won, else 0) and the side's final score, shaped [arm, match, rotation, seat]."""
    A, R, P = plan.arms, plan.rotations, plan.players
    n = len(cols["match"]) // (A * R)
    winner = np.ma.filled(cols["winner"], -1).reshape(A, n, R)
    win = np.zeros((A, n, R, P))
    score = np.zeros((A, n, R, P))
    for a in range(A):
        rules = plan.rules[a]
        for s in range(P):
            j = side_of(rules, s)
            win[a, :, :, s] = winner[a] == j
            score[a, :, :, s] = np.ma.filled(cols[f"score_{j}"], 0).reshape(A, n, R)[a]
    return chunk_sums(plan, score, win)


class _Deals:
    """The batches' deal rows gathered in the deals table's order: arm, match, rotation, hand."""

    def __init__(self, batches: list[list[MatchBatch]]):
        self.b = batches
        A, R = len(batches), len(batches[0])
        self.cat = lambda name: np.concatenate([batches[a][r].deals[name] for a in range(A) for r in range(R)])
        arm = np.concatenate([np.full(batches[a][r].n_deals, a, np.int32) for a in range(A) for r in range(R)])
        rot = np.concatenate([np.full(batches[a][r].n_deals, r, np.int8) for a in range(A) for r in range(R)])
        match, hand = self.cat("match"), self.cat("hand")
        self.order = np.lexsort((hand, rot, match, arm))
        # the key columns in the table's order
        self.arm, self.rot, self.match, self.hand = (v[self.order] for v in (arm, rot, match, hand))
        self.n = len(self.order)
        # where each batch's rows start in the concatenation (records refer to a batch's own rows)
        self.starts = np.cumsum([0] + [batches[a][r].n_deals for a in range(A) for r in range(R)])[:-1]

    def col(self, name: str) -> np.ndarray:
        return self.cat(name)[self.order]

    def keys(self, plan: Plan, per: int = 1) -> dict:
        rep = (lambda v: np.repeat(v, per)) if per > 1 else (lambda v: v)
        return {"arm": fmt.strings(rep(self.arm), list(plan.arm_names)), "match": rep(self.match),
                "rotation": rep(self.rot), "hand": rep(self.hand)}

    def columns(self, plan: Plan) -> dict:
        cols = self.keys(plan)
        P = plan.players
        fd_move = self.col("first_double_move")
        none = fd_move <= 0
        winner = self.col("hand_winner")
        cols.update(rules_lead=self.col("rules_lead"), first_seat=self.col("first_seat"),
                    end=fmt.strings(self.col("end"), list(DealEnd.labels())),
                    winner=np.ma.masked_array(winner, winner < 0),
                    end_bonus=sum(self.col(f"end_bonus_{s}") for s in range(P)),
                    tiles_placed=self.col("tiles_placed"), first_double_move=np.ma.masked_array(fd_move, none),
                    first_double_seat=np.ma.masked_array(self.col("first_double_seat"), none))
        for c in ("points", "scoring_plays", "plays", "doubles_dealt", "lost_first_double"):
            for s in range(P):
                cols[f"{c}_{s}"] = self.col(f"{c}_{s}")
        mw = np.concatenate([np.repeat(b.matches["winner"], b.matches["deals"]) for row in self.b
                             for b in row])[self.order]
        cols["match_winner"] = np.ma.masked_array(mw, mw < 0)
        for name in ("before", "credited"):
            for j in range(plan.sides):
                v = np.concatenate([b.deals.get(f"{name}_{j}", np.full(b.n_deals, -1)) for row in self.b
                                    for b in row])[self.order]
                cols[f"{name}_{j}"] = np.ma.masked_array(v, v < 0)
        return cols

    def seat_columns(self, plan: Plan) -> dict:
        P = plan.players
        cols = self.keys(plan, per=P)
        cols["seat"] = np.tile(np.arange(P, dtype=np.int8), self.n)
        for c in ("play_points", "bonus", "end_bonus", "draws", "passes", "pips_left", "went_out"):
            cols[c] = np.stack([self.col(f"{c}_{s}") for s in range(P)], axis=1).reshape(-1)
        return cols

    def move_columns(self, plan: Plan) -> dict:
        """One row per placement, ordered arm, match, rotation, hand, move."""
        rows, parts = [], {c: [] for c in ("seat", "tile", "end", "ends", "ends_sum", "points", "bonus")}
        max_pips = {a: r.max_pip for a, r in enumerate(plan.rules)}
        tiles = sorted({tile_name(t, m) for m in set(max_pips.values()) for t in range(n_tiles(m))},
                       key=lambda s: tuple(map(int, s.split("-"))))
        tcode = {m: np.array([tiles.index(tile_name(t, m)) for t in range(n_tiles(m))])
                 for m in set(max_pips.values())}
        i = 0
        for a, row in enumerate(self.b):
            for b in row:
                rec = b.records
                keep = rec["act"] == int(Act.PLAY)
                rows.append(self.starts[i] + rec["deal"][keep])
                for c in parts:
                    v = rec[c][keep]
                    parts[c].append(tcode[max_pips[a]][v] if c == "tile" else v)
                i += 1
        deal = np.concatenate(rows)                    # each placement's row in the concatenation
        rank = np.empty(self.n, np.int64)
        rank[self.order] = np.arange(self.n)          # ... and that row's place in the table
        pos = rank[deal]
        order = np.lexsort((np.arange(len(pos)), pos))  # stable: records are in play order
        pos = pos[order]
        first = np.searchsorted(pos, np.arange(self.n))
        move = np.arange(len(pos)) - first[pos] + 1
        out = {"arm": fmt.strings(self.arm[pos], list(plan.arm_names)), "match": self.match[pos],
               "rotation": self.rot[pos], "hand": self.hand[pos], "move": move}
        for c, v in parts.items():
            out[c] = np.concatenate(v)[order]
        out["tile"] = fmt.strings(out["tile"], tiles)
        out["end"] = fmt.strings(out["end"], list(End.labels()))
        return out
