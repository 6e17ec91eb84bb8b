"""The fixed choices of simdom analyze and simdom review (str-Enums: the CLI's --help lists them, the
analysis reads their values); importing this module imports nothing else (the CLI starts fast)."""
from __future__ import annotations

from enum import Enum


class Metric(str, Enum):
    """--by: what ranks the moves (mean final points, margin over the best other seat, win rate, or the
    match equity at the match's scores)."""
    points = "points"
    margin = "margin"
    win = "win"
    match = "match"


class AnalyzeFormat(str, Enum):
    """simdom analyze --format."""
    table = "table"
    json = "json"
    md = "md"


class ReviewFormat(str, Enum):
    """simdom review --format (table: the same as text; html: a self-contained page)."""
    text = "text"
    table = "table"
    json = "json"
    md = "md"
    csv = "csv"
    html = "html"
