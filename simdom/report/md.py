"""Render report sections as Markdown; the plots are PNG files in a ``<stem>_files/`` folder next to it."""
from __future__ import annotations

from pathlib import Path

from simdom.report.data import Section
from simdom.stats.output import to_markdown


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
            (folder / f"{f.name}.png").write_bytes(f.png)
            lines += [f"![{f.caption}]({folder.name}/{f.name}.png)", ""]
        for caption, df in s.tables:
            lines += [to_markdown(df, caption), ""]
    return "\n".join(lines)
