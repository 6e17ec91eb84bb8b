"""Statistics over results folders: open (io), aggregate (moments), estimate (estimators), tabulate.

Public API::

    open_results(path) -> Results            validate a folder; lazy polars frames over its rows
    stats_table(results, by) -> DataFrame    `simdom stats`
    moves_table(results, by) -> DataFrame    `simdom stats --moves`
    detect_sweep / sweep_tables / by_move_table / taker_table    `simdom doubles`
    compare_table(a, b) -> (DataFrame, notes)                     `simdom compare`
"""
import importlib

_WHERE = {"compare_table": "compare", "by_move_table": "doubles", "detect_sweep": "doubles",
          "sweep_tables": "doubles", "taker_table": "doubles", "Results": "io", "ResultsError": "io",
          "open_results": "io", "InputError": "tables", "moves_table": "tables", "stats_table": "tables"}
__all__ = list(_WHERE)


def __getattr__(name: str):  # lazy, so that the CLI starts without importing scipy
    if name in _WHERE:
        return getattr(importlib.import_module(f"simdom.stats.{_WHERE[name]}"), name)
    raise AttributeError(name)
