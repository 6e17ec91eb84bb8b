"""Write result tables: a rich table on the terminal, or CSV, JSON (array of row objects) or Markdown."""
from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from pathlib import Path

import polars as pl
from rich.console import Console
from rich.table import Table

from simdom.stats.tables import InputError

FORMATS = ("table", "csv", "json", "md")
_SUFFIX = {".csv": "csv", ".json": "json", ".md": "md", ".txt": "table"}


def resolve_format(fmt: str | None, out: str | Path | None) -> str:
    """The output format: ``fmt`` if given, else from the -o suffix, else ``table``."""
    if fmt is None:
        suffix = Path(out).suffix.lower() if out else ""
        if out and suffix not in _SUFFIX:
            raise InputError(f"-o {out}: the suffix {suffix or '(none)'} names no format; allowed: "
                             f"{', '.join(_SUFFIX)}, or --format {'|'.join(FORMATS)}")
        return _SUFFIX.get(suffix, "table")
    fmt = fmt.lower()
    if fmt not in FORMATS:
        raise InputError(f"bad --format {fmt!r}; allowed: {', '.join(FORMATS)}")
    return fmt


def check_writable(out: str | Path | None, force: bool) -> None:
    """Refuse to overwrite an existing file unless ``force``."""
    if out is not None and Path(out).exists() and not force:
        raise InputError(f"{out} already exists; pass --force to overwrite it or choose another -o FILE")


def _num(v: object, digits: int = 4) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return f"{v:.{digits}g}"
    return str(v)


def _condensed(df: pl.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Columns of the terminal view: ``x``, ``x_lo``, ``x_hi`` become one ``x [lo, hi]`` cell."""
    names = df.columns
    shown = [c for c in names if not ((c.endswith("_lo") or c.endswith("_hi")) and c[:-3] in names)]
    rows = []
    for rec in df.iter_rows(named=True):
        cells = []
        for c in shown:
            cell = _num(rec[c])
            if f"{c}_lo" in names and f"{c}_hi" in names:
                cell += f" [{_num(rec[c + '_lo'])}, {_num(rec[c + '_hi'])}]"
            cells.append(cell)
        rows.append(cells)
    return shown, rows


_KEY_TYPES = (pl.String, pl.Boolean, pl.Int8, pl.Int16)


def rich_table(df: pl.DataFrame, title: str | None = None, max_columns: int = 7) -> Table:
    """Estimates shown as ``x [lo, hi]``; a wide table with few rows is shown transposed (one column per group)."""
    shown, rows = _condensed(df)
    nkeys = next((i for i, c in enumerate(df.columns) if df.schema[c] not in _KEY_TYPES), len(df.columns))
    if len(shown) > max_columns and 0 < len(rows) <= 10:
        table = Table(title=title, header_style="bold")
        table.add_column("measure", justify="left")
        for i, r in enumerate(rows):
            table.add_column(" / ".join(r[:nkeys]) if nkeys else f"row {i + 1}", justify="right")
        for j, name in enumerate(shown[nkeys:], start=nkeys):
            table.add_row(name, *[r[j] for r in rows])
        return table
    table = Table(title=title, show_lines=False, header_style="bold")
    for c in shown:
        table.add_column(c, justify="left" if df.schema[c] in (pl.String, pl.Boolean) else "right")
    for r in rows:
        table.add_row(*r)
    return table


def _clean(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(pl.col(pl.Float64).fill_nan(None))


def to_json(df: pl.DataFrame) -> str:
    """An array of objects, one per row; NaN becomes null."""
    return json.dumps(_clean(df).to_dicts(), indent=1, default=str) + "\n"


def to_csv(df: pl.DataFrame) -> str:
    return _clean(df).write_csv()


def to_markdown(df: pl.DataFrame, title: str | None = None, digits: int = 6) -> str:
    lines = [f"### {title}", ""] if title else []
    lines.append("| " + " | ".join(df.columns) + " |")
    lines.append("| " + " | ".join("---" for _ in df.columns) + " |")
    for rec in df.iter_rows():
        lines.append("| " + " | ".join(_num(v, digits) for v in rec) + " |")
    return "\n".join(lines) + "\n"


def render(df: pl.DataFrame, fmt: str, title: str | None = None) -> str:
    if fmt == "csv":
        return to_csv(df)
    if fmt == "json":
        return to_json(df)
    if fmt == "md":
        return to_markdown(df, title)
    buf = io.StringIO()
    Console(file=buf, width=250, color_system=None).print(rich_table(df, title))
    return buf.getvalue()


def emit(tables: Sequence[tuple[str, pl.DataFrame]], fmt: str, out: str | Path | None = None,
         console: Console | None = None, notes: Sequence[str] = ()) -> None:
    """Print or write tables. File formats csv/json hold exactly one table (the first given)."""
    if fmt == "table" and out is None:
        console = console or Console()
        for title, df in tables:
            console.print(rich_table(df, title))
        for n in notes:
            console.print(n)
        return
    if fmt in ("csv", "json"):
        text = render(tables[0][1], fmt, tables[0][0])
    else:
        text = "\n".join(render(df, fmt, title) for title, df in tables)
        if notes:
            text += "\n" + "\n".join(f"{n}  " for n in notes) + "\n"
    if out is None:
        (console or Console()).out(text, end="", highlight=False)
    else:
        Path(out).write_text(text)
