"""simdom: simulation and statistics for the domino scoring games Threes and Fives.

The library (docs/library.md): :class:`Rules`, :func:`preset` and :data:`PRESETS`; :func:`simulate`
(a polars DataFrame, one row per deal); :func:`open_results` (a folder written by ``simdom run``, or
``FOLDER:ARM``) with ``.players()``, ``.deals()``, ``.variants()`` and ``.rules()``; a rule study's balance,
:func:`balance`, and :func:`paired_difference` (each with its clustered interval); positions: :func:`load_deal`, :func:`analyze`,
:func:`solve` and :func:`review`; :class:`Observation`, :class:`Move` and :class:`Event`, what a
policy written in Python sees and returns (docs/policies.md). The names load on first use, so
``import simdom`` loads neither numba nor polars.
"""
from __future__ import annotations

import importlib as _importlib
import sys as _sys
import types as _types
from typing import Any as _Any

__version__ = "0.1.0"

#: public name -> the module that defines it (loaded on first use, PEP 562)
_LAZY = {
    "Rules": "simdom.rules", "RulesError": "simdom.rules", "PRESETS": "simdom.rules", "preset": "simdom.rules",
    "simulate": "simdom.api", "open_results": "simdom.api", "Results": "simdom.api", "VIEWS": "simdom.api",
    "ResultsError": "simdom.results", "load_deal": "simdom.api", "analyze": "simdom.api", "solve": "simdom.api",
    "review": "simdom.api", "balance": "simdom.api", "paired_difference": "simdom.stats.estimate.paired",
    "equity": "simdom.api",
    "Observation": "simdom.engine.pypolicy", "Move": "simdom.engine.pypolicy", "Event": "simdom.engine.pypolicy",
}

__all__ = ["__version__", *_LAZY]


class _Package(_types.ModuleType):
    """simdom itself: ``simdom.analyze`` stays the function when the package simdom.analyze is imported (the
    import system binds a subpackage to its parent's attribute: here it is kept in sys.modules only), so
    that ``help(simdom.analyze)`` and ``typing.get_type_hints`` read the function."""

    def __setattr__(self, name: str, value: _Any) -> None:
        if name == "analyze" and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> _Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'simdom' has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (not this module's own imports)."""
    return sorted(__all__)
