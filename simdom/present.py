"""How every simdom command shows its results: the answer in words first, then compact tables.

People get sentences and tables whose numbers are rounded to what their 95% interval supports;
machines get the full-precision rows (``--format json|csv|parquet``). Pure Python: importing this
module imports neither polars nor numpy (the CLI starts fast); rich is imported when a table is drawn.

Usage::

    from simdom import present as P

    ans = P.Answer(["Holding the first double until K=9 costs player 0 "
                    + P.ci(0.72, 0.71, 0.74, unit="points per deal")])
    ans.add(P.Table("Player 0 by arm", rows, [P.Col("arm"), P.Col("mean_points", "points", "est"),
                                            P.Col("win_rate", "win %", "pct"), P.Col("p", "p", "p")]))
    ans.notes.append("95% intervals clustered by deal.")
    P.show(ans)                        # the terminal: sentences, then tables packed into 80 columns
    P.emit(ans, "json", "out.json")    # a file (or stdout with path None) for machines

Number rules: an estimate with an interval is shown as ``0.72 (0.71-0.74)`` with as many decimals as
the interval's half-width has before its first significant digit, the bounds rounded outward (``-0.72 (-0.74 to -0.71)`` when a
bound is negative; up to two decimals more when rounding would make an interval that excludes 0 reach
it); shares marked ``pct`` are shown in percent; a number without an interval gets
3 significant figures; a p-value is never ``0`` (``<1e-16``); an undefined value is ``n/a``
(``null`` in JSON). Names (arms, policies, K values) sort naturally: K=1, K=5, K=13, K=never.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .figures import (FIXED_BY, NA, P_FLOOR, ci, count, decimals_for, est, every, fixed,  # noqa: F401 - P.ci, ...
                      natural_key, nouns, num, order, p_clause, pval, rounded, undefined)
from .safeio import atomic_open, replaces, write_atomic

WIDTH = 80
#: the output formats: machine (json, csv, parquet: full precision) and people (table, md)
FORMATS = ("table", "csv", "json", "md", "parquet")


# ---- tables --------------------------------------------------------------------------------------
#: the narrowest a key column (a row's name) is drawn when the table is too wide (its cells fold)
KEY_MIN = 16
#: column kinds: text, int (counts), num (3 significant figures), est (x with _lo/_hi), pct (a share in
#: percent, with _lo/_hi), diff / pctdiff (signed est / pct), round / pctround (the estimate alone, rounded
#: by its interval), p (a p-value)
KINDS = ("text", "int", "num", "est", "pct", "diff", "pctdiff", "round", "pctround", "p")


@dataclass
class Col:
    """A shown column: ``key`` of the row dicts (estimates read ``key_lo`` and ``key_hi`` beside it)."""

    key: str
    header: str | None = None
    kind: str = "text"
    align: str = ""  # "left" or "right"; default: text left, numbers right

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"column kind {self.kind!r}; allowed: {', '.join(KINDS)}")

    @property
    def title(self) -> str:
        return self.header if self.header is not None else self.key

    def cell(self, row: dict) -> str:
        v = row.get(self.key)
        k = self.kind
        if k == "text":
            return "" if v is None else str(v)
        if k == "int":
            return count(v)
        if k == "num":
            return num(v)
        if k == "p":
            return pval(v)
        lo, hi = row.get(f"{self.key}_lo"), row.get(f"{self.key}_hi")
        if row.get(f"{self.key}_fixed") and not undefined(v):  # decided by the rules or policies: no interval
            return num(v * 100.0 if k in ("pct", "pctround", "pctdiff") else v) + " fixed"
        if k in ("round", "pctround"):
            return rounded(v, lo, hi, pct=k == "pctround")
        return est(v, lo, hi, pct=k in ("pct", "pctdiff"), signed=k in ("diff", "pctdiff"))

    @property
    def right(self) -> bool:
        return self.align == "right" if self.align else self.kind != "text"


@dataclass
class Table:
    """Rows (dicts, full precision) and the columns people see; the first ``keys`` columns name a row
    and are repeated when the table is split to fit the width."""

    title: str
    rows: list[dict]
    cols: list[Col]
    keys: int = 1

    def cells(self) -> list[list[str]]:
        return [[c.cell(r) for c in self.cols] for r in self.rows]

    def widths(self, width: int = WIDTH) -> list[int]:
        """Each column's drawn width: its widest cell plus 3 (padding and the gap to the next column),
        except that key columns too wide to leave room for the widest other column are narrowed, the
        widest first, to no less than KEY_MIN (their cells then fold onto more lines: a long policy name
        is shown whole, and no figure is cut to make room for it)."""
        cells = self.cells()
        w = [max([len(c.title)] + [len(r[i]) for r in cells]) + 3 for i, c in enumerate(self.cols)]
        nk = min(self.keys, len(self.cols))
        other = max(w[nk:], default=0)
        excess = sum(w[:nk]) - 3 + other - width
        while excess > 0 and nk:
            k = max(range(nk), key=lambda i: w[i])
            if w[k] <= KEY_MIN + 3:
                break
            cut = min(excess, w[k] - KEY_MIN - 3)
            if nk > 1:  # narrow the widest down to the next widest at most, then both together
                nxt = max(w[i] for i in range(nk) if i != k)
                cut = min(cut, max(1, w[k] - nxt))
            w[k] -= cut
            excess -= cut
        return w

    def pieces(self, width: int = WIDTH) -> list[list[int]]:
        """Column indices of each printed part: key columns plus as many others as fit in ``width``."""
        w = self.widths(width)
        keys = list(range(min(self.keys, len(self.cols))))
        base = sum(w[i] for i in keys) - 3
        parts: list[list[int]] = []
        cur: list[int] = []
        used = base
        for i in range(len(keys), len(self.cols)):
            if cur and used + w[i] > width:
                parts.append(keys + cur)
                cur, used = [], base
            cur.append(i)
            used += w[i]
        if cur or not parts:
            parts.append(keys + cur)
        return parts


class OptionError(ValueError):
    """A command's options that cannot be taken together or out of their range: the message is the one
    line the command prints (what is wrong, what is allowed; exit code 2, cli/guard.py)."""


def check_out(path: str | Path | None, overwrite: bool) -> None:
    """-o FILE, checked before any work starts: not a folder, not an existing file unless --overwrite
    (nothing already written lost), and in a folder that exists and can be written (a read-only folder
    is found at once, not after the work)."""
    import os
    if path is None:
        return
    p = Path(path)
    if p.is_dir():
        raise OptionError(f"{path} is a folder; allowed: a file name for -o")
    if replaces(path) and not overwrite:
        raise OptionError(f"{path} exists; allowed: a new file name, or --overwrite to replace it")
    if p.exists() and not p.is_file():
        return  # a device, FIFO or socket is written to directly (simdom.safeio)
    parent = p.resolve().parent if p.is_symlink() else (p.parent if str(p.parent) else Path("."))
    if not parent.is_dir():
        raise OptionError(f"{path}: folder {parent} does not exist; allowed: a file in an existing folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OptionError(f"{path}: folder {parent} cannot be written (read-only or not yours); allowed: a file "
                          "in a folder you can write")


#: the root seed's range, of every command and of the library (deal i depends on the seed and i alone)
MAX_SEED = 2**63 - 1


def bounded(name: str, value: Any, lo: int, hi: int, *, cli: bool = False, note: str = "") -> int:
    """An integer option within ``lo``..``hi``, checked by one rule wherever it is given: on the command line
    (``cli``: shown as the option, two dashes before its name) or to the library (shown as ``name = value``);
    OptionError naming the range
    (a bool, a float or a string is not an integer)."""
    import numbers
    ok = isinstance(value, numbers.Integral) and not isinstance(value, bool) and lo <= value <= hi
    if not ok:
        shown = f"--{name.replace('_', '-')} {value}" if cli else f"{name} = {value!r}"
        def n(v: int) -> str:  # a count with separators; a seed or a deal number as it is typed
            return f"{v:,}" if abs(v) < 10**12 else str(v)
        raise OptionError(f"{shown}; allowed: an integer from {n(lo)} to {n(hi)}{note}")
    return int(value)


#: the -o suffixes that name a format (``table``: the people's text, as the terminal shows it)
SUFFIXES = {".json": "json", ".csv": "csv", ".md": "md", ".parquet": "parquet", ".txt": "table", ".html": "html",
            ".toml": "toml"}


def out_format(fmt: str | None, path: str | Path | None, allowed: Sequence[str] = FORMATS,
               default: str = "table") -> str:
    """The format a command writes, one rule for every -o: --format if given (refused when -o's suffix
    names another format), else the format -o's suffix names (refused when it names none, or one the
    command does not write), else ``default``. Called before any work starts."""
    if path is not None and Path(path).is_dir():
        raise OptionError(f"{path} is a folder; allowed: a file name for -o")
    named = SUFFIXES.get(Path(path).suffix.lower()) if path is not None else None
    names = ", ".join(f"{s} ({f})" for s, f in SUFFIXES.items() if f in allowed)
    if fmt is None:
        if path is None:
            return default
        if named is None and Path(path).exists() and not Path(path).is_file():
            return default  # a device or FIFO (/dev/stdout): the format of the terminal
        if named is None:
            raise OptionError(f"-o {path}: the suffix {Path(path).suffix or '(none)'} names no format; allowed: "
                              f"{names}, or --format {'|'.join(allowed)}")
        fmt = named
    elif path is not None and named is not None and named != fmt:
        raise OptionError(f"-o {path} names {named} but --format is {fmt}; allowed: a file name ending as the "
                          f"format ({names}), or --format {named}")
    if fmt not in allowed:
        raise OptionError(f"-o {path} names {fmt}, which this command does not write; allowed: {names}"
                          if fmt == named and path is not None else
                          f"--format {fmt}; allowed: {', '.join(allowed)}")
    return fmt


@dataclass
class Answer:
    """What a command says: sentences (the answer), tables, notes; ``data`` is what machines get
    (default: the first table's rows; a dict for a JSON object of several tables)."""

    sentences: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: Any = None

    def add(self, table: Table) -> "Answer":
        self.tables.append(table)
        return self

    def machine(self) -> Any:
        if self.data is not None:
            return self.data
        return self.tables[0].rows if self.tables else []


def _rich_table(t: Table, idx: list[int], width: int = WIDTH):
    from rich import box
    from rich.table import Table as RichTable
    from rich.text import Text

    cells = t.cells()
    w = t.widths(width)
    rt = RichTable(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, header_style="bold")
    fold = set()
    for i in idx:
        c = t.cols[i]
        widest = max([len(c.title)] + [len(r[i]) for r in cells])
        if i < t.keys and w[i] - 3 < widest:  # a narrowed key column: its cells fold
            rt.add_column(c.title, justify="right" if c.right else "left", width=w[i] - 3, overflow="fold")
            fold.add(i)
        else:
            rt.add_column(c.title, justify="right" if c.right else "left", no_wrap=True)
    for r in cells:  # plain text: brackets in a cell are not markup
        rt.add_row(*[Text(fold_lines(r[i], w[i] - 3) if i in fold else r[i]) for i in idx])
    return rt


def wrapped(text: str, width: int = WIDTH) -> str:
    """A sentence in lines of at most ``width`` characters, broken only between words: a path or any word
    longer than the width stands whole on a line of its own, so that it can be copied."""
    import textwrap
    return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)


def say(console, text: str) -> None:
    """Print a sentence as it is (no markup, no highlighting) in lines of at most 80 columns, its words
    whole (:func:`wrapped`): "Wrote ... to PATH." after a command wrote a file."""
    console.print(wrapped(text), highlight=False, markup=False, soft_wrap=True)


def fold_lines(text: str, width: int) -> str:
    """``text`` in lines of at most ``width`` characters, broken after a comma, colon or space where it
    can be (a policy's parameters stay whole), else at the width."""
    lines: list[str] = []
    cur = ""
    for piece in re.findall(r"[^,: ]*[,: ]?", text):
        if cur and len(cur) + len(piece) > width:
            lines.append(cur.rstrip())
            cur = ""
        cur += piece
        while len(cur) > width:
            lines.append(cur[:width])
            cur = cur[width:]
    if cur.strip() or not lines:
        lines.append(cur.rstrip())
    return "\n".join(lines)


def show(ans: Answer, console=None, width: int = WIDTH) -> None:
    """Print the answer for people: sentences, tables (each split to fit ``width``), notes."""
    from rich.console import Console
    from rich.text import Text

    console = console or Console()
    w = min(width, console.width or width)
    for s in ans.sentences:
        console.print(Text(s), highlight=False, width=w)
    for t in ans.tables:
        parts = t.pieces(w)
        for j, idx in enumerate(parts):
            console.print()
            title = t.title + (f" ({j + 1}/{len(parts)})" if len(parts) > 1 else "")
            console.print(Text(title, style="bold"), highlight=False, width=w)
            console.print(_rich_table(t, idx, w), width=w)
    if ans.notes:
        console.print()
    for n in ans.notes:
        console.print(Text(n, style="dim"), highlight=False, width=w)


def text(ans: Answer, width: int = WIDTH) -> str:
    """The people's view as plain text (what :func:`show` prints)."""
    from rich.console import Console

    buf = io.StringIO()
    show(ans, Console(file=buf, width=width, color_system=None, highlight=False), width)
    return buf.getvalue()


def markdown(ans: Answer) -> str:
    """The people's view as Markdown: sentences, then each table whole (rounded cells)."""
    lines = [*ans.sentences, ""]
    for t in ans.tables:
        lines += [f"### {t.title}", "", "| " + " | ".join(c.title for c in t.cols) + " |",
                  "| " + " | ".join("---:" if c.right else "---" for c in t.cols) + " |"]
        lines += ["| " + " | ".join(r) + " |" for r in t.cells()]
        lines.append("")
    lines += [f"{n}  " for n in ans.notes]
    return "\n".join(lines).rstrip() + "\n"


# ---- machines ------------------------------------------------------------------------------------
def clean(v: Any) -> Any:
    """JSON-ready: NaN and infinities become None, recursively; numpy scalars become Python ones."""
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [clean(x) for x in v]
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        v = v.item()
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    return v


def _rows(data: Any) -> list[dict]:
    if isinstance(data, dict):  # a JSON object of tables: the flat formats take the first
        data = next((v for v in data.values() if isinstance(v, list)), [])
    return [clean(r) for r in data]


def to_json(data: Any) -> str:
    return json.dumps(clean(data), indent=1, default=str) + "\n"


def to_csv(data: Any) -> str:
    rows = _rows(data)
    buf = io.StringIO()
    if rows:
        w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows({k: ("" if v is None else repr(v) if isinstance(v, float) else v) for k, v in r.items()}
                    for r in rows)
    return buf.getvalue()


def write_parquet(data: Any, path: str | Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    with atomic_open(path) as fh:
        pq.write_table(pa.Table.from_pylist(_rows(data)), fh)


def emit(ans: Answer, fmt: str, path: str | Path | None = None, console=None) -> None:
    """Write the answer: ``table`` (terminal, or plain text to a file), ``md``, or a machine format."""
    if fmt not in FORMATS:
        raise ValueError(f"bad format {fmt!r}; allowed: {', '.join(FORMATS)}")
    if fmt == "table" and path is None:
        show(ans, console)
        return
    if fmt == "parquet":
        if path is None:
            raise ValueError("--format parquet needs -o FILE")
        write_parquet(ans.machine(), path)
        return
    out = {"table": text, "md": markdown}.get(fmt)
    body = out(ans) if out else (to_json if fmt == "json" else to_csv)(ans.machine())
    if path is None:
        import sys
        sys.stdout.write(body)
    else:
        write_atomic(path, body)
