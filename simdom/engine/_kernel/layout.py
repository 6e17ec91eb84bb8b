"""Integer layout of the kernel's data: the rules vector, the game tables and the deal state.

The kernel works on three kinds of plain arrays:

* ``G``: the game, one flat read-only int64[G_SIZE] table built once per rule set by
  :func:`simdom.engine._kernel.tables.compile_rules` (one array, so the kernel holds one pointer for all of it):

  - ``G[R_*]``                  the rule parameters as integers (offsets ``R_*`` below, from 0)
  - ``G[TA + t]``, ``G[TB + t]``  low and high half of tile t
  - ``G[PIPS + t]``             a + b
  - ``G[VM + 2 v + w]``         mask word w of the tiles that carry value v
  - ``G[DBLM + w]``             mask word w of the doubles
  - ``G[BONUS + m]``            first-double bonus for a first double placed at move m
  - ``G[SCORE + (k << SCORE_SHIFT) + S]``  points of a placement leaving k counted ends summing to S
    (core.score_at)

  Each block has room for the largest set (double-twelve: 91 tiles, values 0-12, S <= 96), so the
  kernel masks its indices (t & 127, v & 15, k & 7, S & 127) and LLVM knows they are in range.

* ``St``: the state of one deal, an int64[ST_SIZE] vector (offsets below). Hands are bit masks of two
  64-bit words (the double-twelve set has 91 tiles); tile t is bit ``t % 64`` of word ``t // 64``.
* ``bone``: int64[NT], the boneyard in drawing order; ``St[BTOP]`` is the next tile to draw.
* ``M``: the state of one match (docs/rules.md 12), an int64[M_SIZE] vector (offsets ``M_*`` below): the
  side scores, the scores before the current deal, what the current deal credited, the winner.
"""
from __future__ import annotations

# ---- the game table G (offsets of its blocks; the rules vector R_* starts at 0) ------------------
MAX_TILES = 128                 # tile indices t & TMASK
TMASK = MAX_TILES - 1           # masking an index tells LLVM its range: no negative-index checks
VMASK = 15                      # values v & VMASK (max_pip <= 12)
TA = 32                         # [MAX_TILES]
TB = TA + MAX_TILES             # [MAX_TILES]
PIPS = TB + MAX_TILES           # [MAX_TILES]
VM = PIPS + MAX_TILES           # [VMASK + 1 values x 2 words]
DBLM = VM + 32                  # [2]
BONUS = DBLM + 2                # [MAX_TILES] by move number
SCORE_SHIFT = 7
SCORE_ROW = 1 << SCORE_SHIFT    # S & (SCORE_ROW - 1)
SCORE_KS = 8                    # k & (SCORE_KS - 1): counted ends 0..4
SCORE = BONUS + MAX_TILES       # [SCORE_KS k x SCORE_ROW S]
EXPM = SCORE + SCORE_KS * SCORE_ROW  # [EXP_ROWS counts x 2 words] tiles by the most an end shows with them outermost
EXP_ROWS = 32                   # counts 0 .. 2 max_pip (max_pip <= 12)
PMX = EXPM + 2 * EXP_ROWS       # [SCORE_ROW] the most one placement scores with counted ends summing to S or less
RBX = PMX + SCORE_ROW           # [RB_N] core.round_bonus(G, p) for pips p, looked up (no division)
RB_N = 2048                     # more than the pips of a double-twelve set (1092)
EXPC = RBX + RB_N               # [EXP_ROWS counts x 2 words] tiles whose end shows at most that count (EXPM's rows 0..)
G_SIZE = EXPC + 2 * EXP_ROWS

# ---- rules vector R ---------------------------------------------------------------------------
R_MAXPIP, R_NT, R_NV, R_W, R_PLAYERS, R_HAND, R_RESERVE, R_DRAW, R_LEAD_TILE, R_SPINNER, \
    R_ARMS_AFTER, R_DBL_BOTH, R_MIN_ENDS, R_POINTS_MODE, R_POINTS_N, R_OUT_MODE, R_OUT_N, \
    R_BLOCK_MODE, R_ROUND, R_DIV, R_SMAX = range(21)
# the match parameters of docs/rules.md 12 (target 0: no match, the others then at their defaults)
R_TARGET, R_MATCH_END, R_NEXT_LEAD, R_TEAMS, R_MAX_DEALS = range(21, 26)
#: the solver's bounds (solvebounds.py): the most points one placement scores, the largest first-double bonus
R_PMAX, R_BMAX = 26, 27
R_SIZE = 28

POINTS_FIXED, POINTS_SUM, POINTS_QUOTIENT = 0, 1, 2
OUT_NONE, OUT_FIXED, OUT_OPP_PIPS = 0, 1, 2
BLOCK_NONE, BLOCK_OPP_PIPS, BLOCK_OPP_MINUS_OWN = 0, 1, 2
MEND_DEAL, MEND_IMMEDIATE, MEND_EXACT = 0, 1, 2          # match_end
NEXT_RULES, NEXT_HAND_WINNER, NEXT_ROTATE = 0, 1, 2      # next_lead
TEAMS_NONE, TEAMS_PARTNERS = 0, 1                        # teams

# ---- ends ----------------------------------------------------------------------------------------
E_L, E_R, E_U, E_D, E_LEAD = 0, 1, 2, 3, 4
EMASK = 7       # e & EMASK: an end's range for LLVM

# ---- deal state St -------------------------------------------------------------------------------
EV = 0          # [4] value shown at end L, R, U, D
ED = 4          # [4] the tile at that end is a double
LONE = 8        # the lead is a double with nothing on either side: L and R are one counted end
SPIN = 9        # spinner value, -1 while there is none
SPAT = 10       # [2] the spinner sits at line end L / R (nothing beyond it on that side)
COV = 12        # [2] the spinner's L / R side is covered by a tile
ARMS = 14       # the arms accept tiles
USED = 15       # [2] arm U / D has a tile (only then is it counted)
NPL = 17        # tiles placed so far
FD_MOVE = 18    # move number of the first double (0: none yet)
FD_SEAT = 19
SP_MOVE = 20    # move number of the spinner (0: none)
SP_SEAT = 21
TURN = 22       # seat to act
NPASS = 23      # consecutive passes
ENDED = 24      # END_PLAYING, END_DOMINO, END_BLOCKED or END_TARGET
BTOP = 25       # index in bone of the next tile to draw
BN = 26         # tiles in the boneyard at the deal
FIRST = 27      # seat that led
FORCED = 28     # the tile the leader must lead (lead = tile:A-B), -1 if any
WINNER = 29     # hand winner, -1 if none
PLAYED = 30     # [2] mask words of the tiles on the layout
SEAT0 = 32      # per-seat blocks of SB entries
SMASK = 3       # s & SMASK: a seat's range for LLVM (at most 4 seats)
SB = 16
# offsets inside a seat block
HCNT, HPIPS, PTS, BON, SPLAYS, PLAYS, DRAWS, PASSES, VOID, DDEALT, LOSTFD, EB, HAND = range(13)
ST_SIZE = SEAT0 + 4 * SB

# ---- how a deal ended (St[ENDED]) ---------------------------------------------------------------
END_PLAYING, END_DOMINO, END_BLOCKED = 0, 1, 2
END_TARGET = 3  # a deal of a match stopped by a placement whose credit won the match (docs/rules.md 12)

# ---- match state M (docs/rules.md 12) ---------------------------------------------------------------
MAX_SIDES = 4
M_SCORE = 0     # [4] each side's match score
M_BEFORE = 4    # [4] each side's score before the current deal
M_CRED = 8      # [4] credited to each side in the current deal
M_WON = 12      # the side that won the match, -1 while undecided
M_SIZE = 13

# ---- action records (traces and the moves table) ------------------------------------------------
# rec[i] = (deal_local, seat, act, tile, end, points, bonus, k, S): the columns REC_NAMES, in order
ACT_PLAY, ACT_DRAW, ACT_PASS = 0, 1, 2
REC_NONE, REC_PLAYS, REC_ALL = 0, 1, 2
REC_NAMES = ("deal", "seat", "act", "tile", "end", "points", "bonus", "ends", "ends_sum")
RC_DEAL, RC_SEAT, RC_ACT, RC_TILE, RC_END, RC_POINTS, RC_BONUS, RC_K, RC_S = range(9)
REC_COLS = len(REC_NAMES)

# ---- policies and random streams ----------------------------------------------------------------
#: Policy ids (simdom.policies assigns them to names) and the length of a policy's parameter vector.
POL_RANDOM, POL_GREEDY, POL_HEAVY, POL_HOLD, POL_DEFENSIVE, POL_ROLLOUT = range(6)
POL_TIMING = 6
POL_CLAIRVOYANT, POL_SEARCH = 7, 8
POL_EXPERT = 9
POL_PLAN = 10
N_PARAMS = 11
#: the parameter columns the solver's table salt reads in against mode (solvetable.salt_of): the policies it
#: plays against are deterministic ones with at most 4 parameters; the columns added since (N_PARAMS 6)
#: are left out so that every salt, and so every table and node count, stays what it was
SALT_PARAMS = 5
#: a policy's parameters par[PAR_*], in the order of its Params in simdom.policies
PAR_UNTIL = 0                                               # hold
PAR_SAMPLES = 0                                             # rollout
PAR_SUPPORT, PAR_LEAD, PAR_WAIT, PAR_PLAYERS = range(4)     # timing
PAR_AGAINST, PAR_NODES, PAR_BY = 0, 1, 2                    # clairvoyant: 0 the seats' policies, 1 minimax;
#                                                             its positions per decision (0: no limit); the
#                                                             value it maximises (BY_MARGIN, BY_POINTS)
PAR_WORLDS, PAR_MODEL, PAR_DEPTH, PAR_OWN, PAR_WIN, PAR_HOLD = range(6)  # search
#: expert: worlds, inference strength (beta, percent per point), exact endgame (tiles in hands), win bonus, hold
PAR_E_WORLDS, PAR_E_INFER, PAR_E_EXACT, PAR_E_WIN, PAR_E_HOLD, PAR_E_MODEL = range(6)
#: expert's own plan beyond the move (OWN_DEFENSIVE or OWN_PLAN) and, for the plan, its four weights (PAR_PL_*)
PAR_E_OWN, PAR_E_PLAN = 6, 7
#: plan: the weights of the next seat's expected best reply, of the seat's own best next placement, of its
#: tiles that still fit an end, and of the placed tile's pips (kpolicies.plan_pick)
PAR_PL_REPLY, PAR_PL_NEXT, PAR_PL_KEEP, PAR_PL_PIPS = range(4)
HOLD_ALLOW, HOLD_NEVER = 0, 1                               # search:hold, expert:hold
MODEL_GREEDY, MODEL_MINIMAX = 0, 1                          # search:model
OWN_GREEDY, OWN_DEFENSIVE = 0, 1                            # search:own
OWN_ALL_DEFENSIVE = 2                                       # expert:model=defensive: every seat defensive
OWN_PLAN = 3                                                # expert:own=plan: the root plays plan, the others greedy
OWN_PLAN_ALL_DEFENSIVE = 4                                  # ... and with model=defensive the others defensive
#: Random streams per deal: RNG_DEAL shuffles and draws the lot; RNG_SEAT + s is seat s's policy stream.
RNG_DEAL, RNG_SEAT = 0, 1
N_STREAMS = RNG_SEAT + 4

# ---- the work tuples (work.py), by slot -------------------------------------------------------------
#: make_work's tuple: the deal's state St, its boneyard, the shuffle's permutation, the deal's streams, a
#: move list (tiles, ends), the policies' scratch (SX_*), the solver's arrays V (V_*)
W_ST, W_BONE, W_PERM, W_RNG, W_MVT, W_MVE, W_SCRATCH, W_SOLVER = range(8)
#: the solver's arrays V (work.make_solver), by slot: the states on the search's path (stk[d]), the moves
#: at each depth (tiles, ends, ordering keys), the transposition table (keys, and its rows of TT_COLS
#: columns), the controls (SV_*), each seat's side, the seats' policies (ids, parameters) and their
#: streams, the policies' scratch (SX_*), the search's frame per depth (FR_*) and its table key, a root
#: move list with a value per move (tiles, ends, values), the root seat's own scratch where it plays
#: defensive beyond a horizon and its rows VO_*, the expert policy's memory (MEM_*: one row per seat)
V_STK, V_MT, V_ME, V_MK, V_TTK, V_TTV, V_CTL, V_SIDES, V_IDS, V_PAR, V_RNG, V_SCRATCH, V_FR, V_FK, V_RT, V_RE, \
    V_RV, V_OWN_SCRATCH, V_OWN, V_MEM = range(20)
#: V[V_OWN]'s rows: the root seat's own move list beyond a horizon (tiles, ends; kpolicies.defensive_to_end)
#: and the search policy's wins per move (in halves: a tie at the top is half a win)
VO_T, VO_E, VO_WINS = 0, 1, 2

# ---- the expert policy's memory (kexpert.py): one row per seat of V[V_MEM] (work.make_solver) -----
#: the view of the seat's last decision (its known state), the state after its move there, that state's
#: validity, the records kept, then records of the opponent's placements seen since its last draw: the
#: state before it (as the seat saw it), the tile and the points it scored (2 players)
MEM_ASK = 0
MEM_AFT = ST_SIZE
MEM_VALID = 2 * ST_SIZE
MEM_NREC = MEM_VALID + 1
MEM_REC = MEM_NREC + 1
MEM_RSIZE = ST_SIZE + 2
MEM_MAXREC = 48
MEM_SIZE = MEM_REC + MEM_MAXREC * MEM_RSIZE

# ---- per-seat and per-deal outputs of a batch ----------------------------------------------------
# one block per column: seat_out[SC_*, s, row] and deal_out[DC_*, row] (int32; row: a deal's place in the
# rows the caller wants, batch.run_batch); the names SEAT_COLS / DEAL_COLS, in order
SEAT_COLS = ("points", "play_points", "bonus", "end_bonus", "scoring_plays", "plays", "draws", "passes",
             "pips_left", "went_out", "doubles_dealt", "lost_first_double", "max_deficit")
SC_POINTS, SC_PLAY_POINTS, SC_BONUS, SC_END_BONUS, SC_SCORING_PLAYS, SC_PLAYS, SC_DRAWS, SC_PASSES, \
    SC_PIPS_LEFT, SC_WENT_OUT, SC_DOUBLES_DEALT, SC_LOST_FD = range(12)
#: the deal's course, tallied by batch.play_tally (single deals; not in matches): per seat its largest deficit
#: over the placements (the best other seat's placement points and first-double bonus minus its own, 0 if
#: never behind)
SC_MAX_DEFICIT = 12
DEAL_COLS = ("first_seat", "first_double_move", "first_double_seat", "spinner_move", "spinner_seat",
             "end", "tiles_placed", "winner", "choice_turns", "choices", "lead_changes", "leader", "lead_from")
DC_FIRST_SEAT, DC_FD_MOVE, DC_FD_SEAT, DC_SP_MOVE, DC_SP_SEAT, DC_END, DC_TILES_PLACED, DC_WINNER = range(8)
#: batch.play_tally: placements whose mover held two or more legal moves, the legal moves summed over the
#: placements, the times the one seat strictly ahead changed (a tie at the top keeps the last leader), the
#: leader after the last placement (-1: a tie at the top) and the placement from which it has been that
DC_CHOICE_TURNS, DC_CHOICES, DC_LEAD_CHANGES, DC_LEADER, DC_LEAD_FROM = 8, 9, 10, 11, 12

# ---- per-deal and per-match outputs of a match batch (docs/rules.md 12) -------------------------------
# mdeal_out[d] (int32): the deal's place in its match and the side scores around it
MD_MATCH = 0    # match number under the root key
MD_HAND = 1     # 0-based deal number within the match
MD_LEAD = 2     # the seat next_lead chose to lead (any tile), -1: the rules' lead (section 6)
MD_BEFORE = 3   # [4] side scores before the deal
MD_CRED = 7     # [4] credited to each side in the deal
MD_SIZE = 11
# match_out[m] (int32)
MM_MATCH = 0    # match number
MM_DEALS = 1    # deals played
MM_WINNER = 2   # winning side, -1: none (max_deals reached)
MM_SCORE = 3    # [4] final side scores
MM_SIZE = 7
# counts[] (int64) returned beside the number of matches played
CNT_DEALS, CNT_RECORDS = 0, 1

# ---- the sampler's work arrays (sampler.py) -------------------------------------------------------
#: aux, int64[AUX_SIZE + 2 nt]: tile-type counts [8] (a type: the set of other seats that may hold a
#: tile), each other seat's need [3] and seat number [3], the no-consistent-deal flag, the flag "the
#: counting tables of this position are built", the tables' dimensions [3] (d0, d1, states), then
#: each unseen tile's type [nt] and the tiles of one type [nt]
AUX_CNT, AUX_NEED, AUX_OPP, AUX_BAD, AUX_PREP, AUX_DIM, AUX_TYP = 0, 8, 11, 14, 15, 16, 20
AUX_SIZE = 20


def dp_size(nt: int) -> int:
    """Length of the sampler's float64 array dp: the factorials 0..nt, then up to 8 counting tables of
    at most (nt // 3 + 2)^3 states (the needs of 3 seats sharing at most nt tiles)."""
    return nt + 1 + 8 * (nt // 3 + 2) ** 3


# ---- the policies' scratch arrays (work.make_scratch), by slot -----------------------------------
SX_P = 0        # int64[ST_SIZE] a state copy (a playout)
SX_BONE = 1     # int64[nt] a boneyard copy
SX_PT = 2       # int64[4 nt + 4] a move list: tiles (also values, sorted, in defensive) ...
SX_PE = 3       # int64[4 nt + 4] ... and ends
SX_POOL = 4     # int64[nt] tiles (the unseen ones)
SX_ACC = 5      # float64[4 nt + 4] a number per move
SX_KB = 6       # int64[4] end bases: counted ends ...
SX_SB = 7       # int64[4] ... and their sum
SX_W = 8        # int64[ST_SIZE] a second state copy (a sampled world)
SX_DECK = 9     # int64[nt] the sampler's deck
SX_LOC = 10     # uint64[1] a local random stream
SX_REC = 11     # int32[1, REC_COLS] an action-record row nobody reads
SX_AUX = 12     # int64[AUX_SIZE + 2 nt] the sampler's counts and tile types
SX_DP = 13      # float64[dp_size(nt)] the sampler's counting tables
#: first-double decisions (kdecide.py): the control vector, the root key, the rows, the rollout values
SX_DCTL, SX_DKEY, SX_DROWS, SX_DVALS = 14, 15, 16, 17

# ---- first-double decisions (kdecide.py; simdom run --decisions) ----------------------------------
#: dctl int64[DCTL_SIZE]: recording on (0: off, the one check in the play loop), rollouts per decision,
#: rows written, rows available, the batch's first deal number, rows lost for want of room (> 0: the
#: caller gave too few)
DCTL_ON, DCTL_ROLLOUTS, DCTL_ROWS, DCTL_CAP, DCTL_DEAL0, DCTL_LOST = range(6)
DCTL_SIZE = 6
#: one int32 row per decision, these columns in order (named for the Python side in DEC_NAMES)
DEC_NAMES = ("deal", "seat", "move", "turn", "tier_now", "tier_later", "doubles_held", "unseen_doubles",
             "mover_points", "best_opponent_points", "legal_moves", "double_moves", "best_double_points",
             "best_other_points", "double_face", "double_support", "suits_held", "hand_size", "opponent_tiles",
             "boneyard", "chose_double")
DEC_DEAL, DEC_SEAT, DEC_MOVE, DEC_TURN, DEC_TIER_NOW, DEC_TIER_LATER, DEC_HELD, DEC_UNSEEN, DEC_OWN_PTS, \
    DEC_OPP_PTS, DEC_LEGAL, DEC_DMOVES, DEC_BEST_D, DEC_BEST_O, DEC_FACE, DEC_SUPPORT, DEC_SUITS, DEC_HAND, \
    DEC_OPP_TILES, DEC_BONE, DEC_CHOSE = range(21)
DEC_COLS = len(DEC_NAMES)
#: one float64 row per decision: mean final points of "best double now" and of "best other move" over the
#: rollouts, the mean paired difference other - double (the value of holding), and that of the mover's
#: win share
DEC_VAL_NAMES = ("rollout_double", "rollout_other", "hold_gain", "hold_gain_win")
DV_DOUBLE, DV_OTHER, DV_GAIN, DV_GAIN_WIN = range(4)
DEC_VALS = len(DEC_VAL_NAMES)

# ---- the exact solver (solve.py, solvebounds.py, solvetable.py) ---------------------------------
#: ctl int64[SV_SIZE]: nodes searched, the value (BY_MARGIN / BY_POINTS), against mode (0: paranoid,
#: 1: the other seats play their policies), the root seat and its side, more than two sides by margin
#: (the scores then enter the key), the table's salt for this problem, the horizon (placements after
#: which greedy plays the deal out; 0: none, exact), the most positions to search (0: no limit) and
#: whether the search stopped at that limit (its values then mean nothing), and the salt of the last
#: problem the clairvoyant policy solved (a new one empties the table: kchoose.py), and the table's bits
#: a search uses (0: all of it), and whether the table's keys are those of the layout's least mirror image
#: (solvetable.node_key: set by solve_root for its exact minimax solves; not by solve_best, so the clairvoyant
#: policy's node budget runs out where it did; never against policies: their tie-breaks are not symmetric),
#: and who plays the root seat's own moves beyond the horizon (OWN_GREEDY, or OWN_DEFENSIVE: the search
#: policy's own=defensive; the other seats are greedy there either way)
SV_NODES, SV_BY, SV_AGAINST, SV_ROOT, SV_SIDE, SV_MULTI, SV_SALT, SV_HORIZON, SV_LIMIT, SV_ABORTED, SV_CLAIR, \
    SV_TBITS, SV_CANON, SV_OWN = range(14)
#: the plan's four weights (OWN_PLAN), in thousandths
SV_PLAN = 14
SV_SIZE = 18
#: the transposition table's columns ttv[slot, TT_*]: lower bound, upper bound, best move, the root's margin
#: over each seat (with several sides by margin; its high 32 bits the least that margin gains from the
#: entry's position on, solvetable.store_margins), and the entry's key (its bits as int64; ttk is a uint64 view of the column): 8 int64, one 64-byte cache
#: line an entry, so a probe reads one line (work.make_table aligns the rows)
TT_LO, TT_HI, TT_MOVE, TT_MARGIN = 0, 1, 2, 3   # TT_MARGIN + s: seat s's (4 seats)
TT_COLS = 8
TT_KEY = 7
#: the best move in column TT_MOVE: its tile << TT_END_BITS | its end, in the low TT_MOVE_BITS; above it,
#: in exact solves (two-way buckets: solvetable.store_node), the problem's tag (the salt's low 16 bits)
#: and, from bit TT_WORK_SHIFT, the positions the entry's search took
TT_END_BITS = 6
TT_MOVE_BITS = 16
TT_MOVE_MASK = (1 << TT_MOVE_BITS) - 1
TT_WORK_SHIFT = 32
TT_TAG_MASK = (1 << (TT_WORK_SHIFT - TT_MOVE_BITS)) - 1
TT_END_MASK = (1 << TT_END_BITS) - 1
#: the table's bits the search policy uses (ctl[SV_TBITS]): 64K entries, 4 MB
SEARCH_TABLE_BITS = 16
BY_MARGIN, BY_POINTS = 0, 1
#: ctl[SV_AGAINST]: minimax; the other seats' policies read the hands and layout alone (greedy, heavy,
#: hold); they read scores and voids too (timing, defensive, plan)
AGAINST_NONE, AGAINST_HANDS, AGAINST_READS_ALL = 0, 1, 2
#: a frame's kind: a node with one move (or a policy's), whose value is its child's; a node searched
KIND_PASS, KIND_FULL = 0, 1
#: frame fields fr[d, FR_*]: window now and as entered, best value and its move, next move, moves,
#: maximising, table slot, offset, table hit, kind, seat, and from FR_V on the node's lower bound of the
#: root's final margin over each seat (seats 0-3; several sides by margin in exact solves: solve.py)
FR_A, FR_B, FR_A0, FR_B0, FR_BEST, FR_BI, FR_I, FR_N, FR_MAXI, FR_SLOT, FR_OFF, FR_HIT, FR_KIND, FR_S, FR_V = range(15)
#: the positions counted when the node's search began (its subtree's size: the table's replacement)
FR_N0 = FR_V + 4
FR_SIZE = FR_V + 5
#: fr[d, FR_HIT]: HIT_FOUND set when the table held the node's entry, the key's mirror image (node_key) in
#: the bits from HIT_IMAGE on
HIT_FOUND = 1
HIT_IMAGE = 1

assert R_SIZE <= TA
assert TT_MARGIN + 4 <= TT_KEY < TT_COLS
assert len(SEAT_COLS) == SC_MAX_DEFICIT + 1 and len(DEAL_COLS) == DC_LEAD_FROM + 1 and len(REC_NAMES) == RC_S + 1
