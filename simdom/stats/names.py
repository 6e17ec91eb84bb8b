"""The names the statistics commands accept (columns to group by, tables, formats): one home that
imports no statistics (only simdom.present's formats), so that the CLI lists them in its help without
loading polars (every simdom command, `simdom run` too, loads the CLI's modules)."""

from simdom.present import FORMATS  # noqa: F401 - the output formats of the statistics commands
#: the per-seat columns `simdom stats --by` groups by (``leader``: the seat led the deal; ``turn``: 0 =
#: the leader, 1 = next)
BY_COLUMNS = ("arm", "policy", "seat", "player", "rotation", "turn", "first_seat", "leader", "end", "went_out",
              "doubles_dealt", "lost_first_double", "first_double_seat")
#: the columns `simdom stats --moves` groups by (the move number is always a key)
MOVE_BY_COLUMNS = ("arm", "policy", "seat", "rotation")
#: the columns of a match folder's per-side view
MATCH_BY_COLUMNS = ("arm", "policy", "side", "seat", "player", "rotation", "first_seat", "led_first",
                    "side_led_first")
#: `simdom stats --table` of a match folder
MATCH_TABLES = ("wins", "length", "lead", "edges", "arms", "equity", "deals")
#: `simdom doubles --table`
DOUBLES_TABLES = ("sweep", "best", "by-move", "taker", "decisions", "decision-grid", "decision-search")
#: what `simdom doubles --decisions --by` splits a first-double decision by
DECISION_SITUATIONS = ("tier", "double_support", "doubles_held", "unseen_doubles", "turn", "lead")
#: `simdom stats --table` of a single-deal folder
STATS_TABLES = ("groups", "paired")


#: The decision situations' short names, as `simdom doubles --decisions` prints them (its --by takes both)
SITUATION_SHORT = {"tier": "bonus", "double_support": "support", "doubles_held": "held", "unseen_doubles": "unseen",
                   "turn": "turn", "lead": "lead"}
