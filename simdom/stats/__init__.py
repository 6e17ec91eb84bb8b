"""Statistics over results folders: open (io), aggregate (moments), estimate (estimators), tabulate.

Public API::

    open_results(path) -> Results            validate a folder; lazy polars frames over its rows
    stats_table(results, by) -> DataFrame    `simdom stats`
    moves_table(results, by) -> DataFrame    `simdom stats --moves`
    detect_sweep / sweep_tables / by_move_table / taker_table    `simdom doubles`
    compare_table(a, b) -> (DataFrame, notes)                     `simdom compare`
"""
from simdom.stats.compare import compare_table
from simdom.stats.doubles import by_move_table, detect_sweep, sweep_tables, taker_table
from simdom.stats.io import Results, ResultsError, open_results
from simdom.stats.tables import InputError, moves_table, stats_table

__all__ = ["Results", "ResultsError", "InputError", "open_results", "stats_table", "moves_table", "detect_sweep",
           "sweep_tables", "by_move_table", "taker_table", "compare_table"]
