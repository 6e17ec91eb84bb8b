"""One CLI vocabulary (issue 21.5): no message, help text or docs page suggests an option that the command
it names does not have, and a short flag means the same long option in every command. Read from the Typer
app itself (its click commands and their parameters), so a renamed option fails here."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
import typer
from typer.main import get_command

from simdom.cli import app

ROOT = Path(__file__).resolve().parents[1]
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
#: `simdom CMD`, or another program whose options are its own (dask, python, pytest, make, a script)
OWNER = re.compile(r"\bsimdom ([a-z]+)\b|\b(?:dask|python3?|pytest|pip|make|mkdocs)\b|[^\s`]+\.py\b")
#: where a clause ends, and with it what `simdom CMD` said: ) ; . : or a closing backtick
END = re.compile(r"[);`]|[.:](?=\s)")


def _commands() -> dict[str, set[str]]:
    """Every command's visible option names (the global --debug, --version and --help included)."""
    group = get_command(app)
    common = {o for p in group.params for o in p.opts} | {"--help", "-h"}
    return {name: common | {o for p in c.params if p.param_type_name == "option" and not p.hidden
                            for o in p.opts + p.secondary_opts}
            for name, c in group.commands.items()}


COMMANDS = _commands()
EVERY = set().union(*COMMANDS.values())


def _module_commands(module: str) -> set[str]:
    """The commands a simdom.cli module registers (its ``register(app)`` on an empty app)."""
    mod = importlib.import_module(module)
    if not hasattr(mod, "register"):
        return set()
    scratch = typer.Typer()
    mod.register(scratch)
    return {info.name for info in scratch.registered_commands}


def mentions(text: str, default: set[str] | None) -> list[tuple[str, set[str] | None]]:
    """(flag, the commands it is suggested for) for each --flag of ``text``: the command of the nearest
    `simdom CMD` before it in the same clause, else ``default`` (None: any command); flags of another
    program are skipped."""
    out, owner, at = [], default, 0
    marks = sorted([*OWNER.finditer(text), *END.finditer(text)], key=lambda m: m.start())
    for m in FLAG.finditer(text):
        while at < len(marks) and marks[at].start() < m.start():
            mark = marks[at]
            if mark.re is END:
                owner = default
            else:
                cmd = mark.group(1)
                owner = {cmd} if cmd in COMMANDS else (default if cmd else set())
            at += 1
        if owner != set():
            out.append((m.group(), owner))
    return out


def python_texts():
    """(where, text, default commands) for every string constant (messages, help texts, docstrings) of
    simdom's modules; a simdom.cli module's strings are suggested for its own commands."""
    for path in sorted((ROOT / "simdom").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if "_kernel" in rel.parts:  # the compiled kernel prints nothing to a user
            continue
        module = ".".join(rel.with_suffix("").parts)
        default = None
        if rel.parts[:2] == ("simdom", "cli") and path.name != "__init__.py":
            default = _module_commands(module) or None
        if module == "simdom.results.__main__":  # python -m simdom.results [--docs]: not a simdom command
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "--" in node.value \
                    and not FLAG.fullmatch(node.value):  # an option's own name, where it is declared
                yield f"{rel}:{node.lineno}", node.value, default


def docs_texts():
    """(where, line, None) for every line of the README and the docs pages."""
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for i, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if "--" in line:
                yield f"{page.relative_to(ROOT)}:{i}", line, None


#: spellings that messages may name though --help does not show them: the old ones, said to be old
OLD = {"--force": "--overwrite", "--output": "--out", "--json": "--format"}


def wrong(texts) -> list[str]:
    bad = []
    for where, text, default in texts:
        for flag, owner in mentions(text, default):
            if flag in OLD and OLD[flag] in text:  # "--force still works": the old spelling beside the new
                continue
            allowed = EVERY if owner is None else set().union(*(COMMANDS[c] for c in owner))
            if flag not in allowed:
                bad.append(f"{where}: {flag} (for {', '.join(sorted(owner)) if owner else 'any command'})")
    return bad


def test_every_message_and_help_text_names_options_that_exist():
    texts = list(python_texts())
    assert len(texts) > 200  # the messages and help texts of every command were read (237 today)
    assert wrong(texts) == []


def test_every_docs_page_names_options_that_exist():
    assert wrong(docs_texts()) == []


def test_the_check_finds_a_planted_wrong_option():
    planted = [("x", "allowed: simdom run --matches 3, or simdom trace --matches 3", None),
               ("y", "give --move N", {"trace"}), ("z", "simdom stats res --nonsense", None)]
    assert wrong(planted) == ["x: --matches (for run)", "y: --move (for trace)", "z: --nonsense (for stats)"]


def short_flags() -> dict[str, dict[str, set[str]]]:
    """short flag -> its long option -> the commands in which it means that."""
    found: dict[str, dict[str, set[str]]] = {}
    group = get_command(app)
    for name, c in group.commands.items():
        for p in c.params:
            if p.param_type_name != "option":
                continue
            names = p.opts + p.secondary_opts
            long = next(o for o in names if o.startswith("--"))
            for short in (o for o in names if not o.startswith("--")):
                found.setdefault(short, {}).setdefault(long, set()).add(name)
    return found


def test_a_short_flag_means_the_same_long_option_in_every_command():
    clashes = {s: longs for s, longs in short_flags().items() if len(longs) > 1}
    assert clashes == {}


def test_docs_commands_lists_every_short_flag_with_its_long_option():
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    rows = {s: (long, set(re.sub(r" \(.*?\)", "", cmds).split(", ")))
            for s, long, cmds in re.findall(r"^\| `(-[a-z])` \| `(--[a-z-]+)` \| (.*?) \|$", text, flags=re.M)}
    assert rows.pop("-h") == ("--help", {"every command"})
    assert rows == {s: (long, cmds) for s, longs in short_flags().items() for long, cmds in longs.items()}


def test_the_old_clashing_short_flags_are_refused_with_one_line():
    from typer.testing import CliRunner
    for argv in (["trace", "-m", "2", "-o", "x.jsonl"], ["run", "scenarios/default.toml", "-n", "5"]):
        r = CliRunner().invoke(app, argv)
        assert r.exit_code == 2 and "No such option" in r.output, r.output


def help_paragraphs(name: str) -> list[list[str]]:
    """The paragraphs of `simdom NAME --help` above its option boxes, as rendered 80 columns wide."""
    from typer.testing import CliRunner
    r = CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    assert r.exit_code == 0, r.output
    top = r.output.split("╭")[0].splitlines()
    paragraphs, current = [], []
    for line in top[2:]:  # after the usage line
        if line.strip():
            current.append(line.rstrip())
        elif current:
            paragraphs.append(current)
            current = []
    return paragraphs + ([current] if current else [])


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_texts_wrap_as_written(name):
    """Prose fills its lines (no stub left where a source line ended); an example keeps its lines, each
    within 80 columns, a long one continued with a backslash, never broken by the terminal."""
    for para in help_paragraphs(name):
        assert all(len(line) <= 80 for line in para)
        if para[0].lstrip().startswith(("simdom ", "# ")):  # examples: a command, a comment, a continuation
            ind = " " * (len(para[0]) - len(para[0].lstrip()))
            assert all(re.match(f"{ind}(simdom |# )|{ind}    \\S", line) for line in para), para
            assert all(before.endswith(" \\") for before, line in zip(para, para[1:])
                       if line.startswith(ind + "    ")), para
        else:
            assert all(len(line) >= 60 for line in para[:-1]), para


def test_help_examples_read_only_folders_that_a_shipped_scenario_or_the_help_itself_writes():
    shipped = {p.stem for p in (ROOT / "scenarios").glob("*.toml")}
    for name, c in get_command(app).commands.items():
        text = c.help or ""
        written = set(re.findall(r"--out results/([\w.-]+)", text))
        read = set(re.findall(r"(?<!--out )results/([\w.-]+)", text))
        assert read - shipped - written == set(), name
