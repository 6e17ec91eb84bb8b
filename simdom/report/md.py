"""Render report sections as Markdown; the plots are PNG files in a ``<stem>_files/`` folder next to it."""
from __future__ import annotations

from pathlib import Path

from simdom import present as P
from simdom.safeio import write_atomic
from simdom.report.data import Section


def table_md(t: P.Table) -> str:
    lines = [f"**{t.title}**", "", "| " + " | ".join(c.title for c in t.cols) + " |",
             "| " + " | ".join("---:" if c.right else "---" for c in t.cols) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in t.cells()]
    return "\n".join(lines) + "\n"


def render_md(sections: list[Section], title: str, out: Path) -> str:
    """Markdown text for ``out``; writes the figures to ``<out stem>_files/<name>.png``."""
    folder = out.parent / f"{out.stem}_files"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"# {title}", ""]
    for s in sections:
        lines += [f"## {s.title}", ""]
        for p in s.paragraphs:
            lines += [p, ""]
        for f in s.figures:
            write_atomic(folder / f"{f.name}.png", f.png)
            lines += [f"![{f.caption}]({folder.name}/{f.name}.png)", ""]
        for t in s.tables:
            lines += [table_md(t), ""]
        for n in s.notes:
            lines += [f"*{n}*", ""]
    return "\n".join(lines)
