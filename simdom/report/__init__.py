"""The balance report: ``build_report(results, "report.html")`` (self-contained) or ``"report.md"``; it returns
the file written, its sections and its first answer (:class:`Written`)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from simdom.safeio import replaces, write_atomic
from simdom.stats.read.folder import ResultFrames
from simdom.stats.tables.stats import InputError


@dataclass(frozen=True)
class Written:
    """A report written: its file, its sections' titles and the first answer it gives."""
    path: Path
    sections: tuple[str, ...]
    answer: str


def build_report(results: list[ResultFrames], out: str | Path, *, force: bool = False,
                 skill: Sequence[str | Path] = (), ladder: Sequence[str | Path] = (),
                 progress: "Callable[[int, int], None] | None" = None) -> Written:
    """Write the balance report for one or more results folders; the suffix (.html or .md) picks the format.
    ``skill``, ``ladder``: JSON files of `simdom skill` and `simdom ladder` for the luck-and-skill section."""
    from simdom.report.build import build_sections
    from simdom.report.html import render_html
    from simdom.report.md import render_md

    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".html", ".htm", ".md"):
        raise InputError(f"bad report file {out}: allowed suffixes: .html, .md")
    if out.is_dir():
        raise InputError(f"{out} is a folder; allowed: a file name ending .html or .md")
    if replaces(out) and not force:
        raise InputError(f"{out} already exists; pass --overwrite to replace it")
    if suffix == ".md" and (out.parent / f"{out.stem}_files").exists() and not force:
        raise InputError(f"{out.parent / (out.stem + '_files')} already exists; pass --overwrite to replace it")
    from simdom.report.skill import load_answer_file
    skills = [(Path(f).name, load_answer_file(f, "skill")) for f in skill]
    ladders = [(Path(f).name, load_answer_file(f, "ladder")) for f in ladder]
    sections = build_sections(list(results), skills, ladders, progress)
    title = "simdom balance report: " + ", ".join(r.name for r in results)
    text = render_md(sections, title, out) if suffix == ".md" else render_html(sections, title)
    write_atomic(out, text)  # whole or not at all: a full disk leaves the old report (simdom.safeio)
    first = next((a for sec in sections for a in sec.answers), "")
    return Written(out, tuple(sec.title for sec in sections), first)
