"""Help texts shown as written: each prose paragraph on one line, each example within 80 columns.

Typer's rich help keeps a docstring's line breaks, so a 100-character source line on an 80-column terminal
left a 20-character stub mid-sentence. Each prose paragraph of a command's docstring becomes one line,
which rich wraps evenly at the terminal's width; indented paragraphs (examples) keep their lines, a line
too long continued with a backslash."""
from __future__ import annotations

import inspect
import re

import typer


#: the widest line of an example: an 80-column terminal less rich's margin
WIDTH = 78
#: a shell word: a quoted argument ("3-6 1-4 2-3") is one word
WORD = re.compile(r"""(?:[^\s"']+|"[^"]*"|'[^']*')+""")


def fit(line: str, width: int = WIDTH) -> list[str]:
    """An example line as lines of at most ``width``: a trailing ``# comment`` that does not fit goes on its
    own line above, and a command too long is continued with `` \\`` on lines indented four more."""
    if len(line) <= width:
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    code, hash_, comment = line.partition("  #")
    out = [f"{indent}#{comment.rstrip()}"] if hash_ else []
    lines, current = [], indent
    words: list[str] = []
    for word in WORD.findall(code):  # an option and its value stay on one line
        if words and words[-1].startswith("-") and " " not in words[-1] and not word.startswith("-"):
            words[-1] += " " + word
        else:
            words.append(word)
    for word in words:
        if current.strip() and len(current) + 1 + len(word) + 2 > width:
            lines.append(current + " \\")
            current = indent + "    " + word
        else:
            current += (" " if current.strip() else "") + word
    return out + lines + [current]


def reflow(doc: str) -> str:
    """``doc`` with every unindented paragraph joined into one line; indented ones (examples) as written,
    each line fitted to :data:`WIDTH`."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join("\n".join(x for line in p.splitlines() for x in fit(line)) if p[:1].isspace()
                       else " ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def reflow_app(app: typer.Typer) -> None:
    """Reflow the docstring of every command registered on ``app`` (its callback's ``__doc__``)."""
    for info in app.registered_commands:
        if info.callback is not None and info.callback.__doc__ and info.help is None:
            info.callback.__doc__ = reflow(info.callback.__doc__)
