"""Every command example of the README and of the docs pages (docs/*.md) runs (issue 12.5, issue 21.4): each
`simdom ...` line of a ```sh or ```bash block, and each `$ simdom ...` line of any code block (a command shown
with its output), is run as the real command in a temporary folder holding a copy of scenarios/, one folder
per page, the page's commands in order.

Scaled down so that every page runs in about a minute, and nothing else is changed:
* `simdom run` gets `--deals 400` (`--deals N` replaced; 40 when its decision rollouts continue with a
  policy other than greedy, `--then search`, which plays about 8 decisions a second; 4 when its scenario
  seats `expert`, about 100 decisions a second, in every arrangement of the seats), `--quiet`, and an
  `--out` outside the temporary folder is moved into it (`/data/balance4` -> `data/balance4`);
* `simdom bench --seconds S` measures 0.3 s; `simdom skill --deals N` plays at most 8 deals, `simdom
  ladder --deals N` at most 300, `simdom doubles --exact --deals N` at most 20;
* the dask examples run against a local cluster started by the test (its address replaces the page's),
  into its own folder (an earlier example may have written the scenario's folder with other tables);
* a results folder that a statistics example reads (`results/NAME`) is written first by
  `simdom run scenarios/NAME.toml --deals 400` when no earlier example of the page wrote it.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SIMDOM = str(Path(sys.executable).with_name("simdom"))
DEALS = "400"


README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))


def page_commands(page: Path) -> list[list[str]]:
    """The `simdom` command lines of a page's code blocks, in order, as argument lists: every `simdom ...`
    line of its sh and bash blocks, and every `$ simdom ...` line of any block."""
    text = page.read_text(encoding="utf-8")
    out = []
    for lang, block in re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.splitlines():
            line = line.strip()
            if lang in ("sh", "bash") and line.startswith("simdom "):
                out.append(shlex.split(line, comments=True))
            elif line.startswith("$ simdom "):
                out.append(shlex.split(line[2:], comments=True))
    return out


def readme_commands() -> list[list[str]]:
    """The README's command lines (see :func:`page_commands`)."""
    return page_commands(README)


def scaled(argv: list[str], scheduler: str | None) -> list[str]:
    argv = list(argv)
    if argv[1] == "run":
        slow = "--then" in argv and argv[argv.index("--then") + 1] != "greedy"
        scenario = ROOT / argv[2]
        expert = scenario.suffix == ".toml" and scenario.is_file() and "expert" in scenario.read_text()
        deals = "4" if expert else "40" if slow else DEALS
        if "--deals" in argv:
            argv[argv.index("--deals") + 1] = deals
        else:
            argv += ["--deals", deals]
        if "--out" in argv:
            i = argv.index("--out") + 1
            argv[i] = argv[i].lstrip("/")
        if "--scheduler" in argv:
            argv[argv.index("--scheduler") + 1] = scheduler or "tcp://127.0.0.1:1"
            argv += ["--out", "results/dask"]  # the README's runs stand alone; here they share one folder
        argv.append("--quiet")
    if argv[1] in ("skill", "ladder"):  # a few deals: the fictive player's hard deals take minutes
        if "--deals" in argv:
            i = argv.index("--deals") + 1
            argv[i] = str(min(int(argv[i]), 8 if argv[1] == "skill" else 300))
        if "--scheduler" in argv:
            argv[argv.index("--scheduler") + 1] = scheduler or "tcp://127.0.0.1:1"
    if argv[1] == "doubles" and "--exact" in argv and "--deals" in argv:  # an exact solve a deal: a few deals
        i = argv.index("--deals") + 1
        argv[i] = str(min(int(argv[i]), 20))
    if argv[1] == "equity":  # the table from at most 50,000 deals: the example shows the command, not its precision
        if "--deals" in argv:
            i = argv.index("--deals") + 1
            argv[i] = str(min(int(argv[i]), 50_000))
        else:
            argv += ["--deals", "50000"]
    if argv[1] == "bench" and "--seconds" in argv:
        argv[argv.index("--seconds") + 1] = "0.3"
    return [SIMDOM, *argv[1:]]


def folders_read(argv: list[str]) -> list[str]:
    """The results folders `results/NAME` an example reads (FOLDER:ARM counts as FOLDER): every argument
    `results/...` of a command other than `simdom run`."""
    if argv[1] == "run":
        return []
    return [a.split(":")[0] for a in argv[2:] if a.startswith("results/")]


def cli_commands() -> set[str]:
    """The names of simdom's commands, from the Typer app."""
    from typer.main import get_command

    from simdom.cli import app
    return set(get_command(app).commands)


def test_the_readme_has_examples_of_every_command():
    commands = {argv[1] for argv in readme_commands()}
    assert {"rules", "trace", "replay", "bench", "run", "stats", "doubles", "compare", "report"} <= commands


def test_the_docs_show_an_example_of_every_command():
    shown = {argv[1] for page in [README, *DOCS] for argv in page_commands(page)}
    assert cli_commands() - shown == set(), "commands with no example in README.md or docs/"


def run_examples(commands: list[list[str]], tmp_path: Path) -> None:
    """Run the commands in order in tmp_path (a copy of scenarios/ beside them), each as the test's docstring
    says; every one must exit 0 with no traceback, and every file an example writes must be there."""
    shutil.copytree(ROOT / "scenarios", tmp_path / "scenarios")
    env = {**os.environ, "COLUMNS": "100"}
    cluster = None
    try:
        if any("--scheduler" in argv for argv in commands):
            from distributed import LocalCluster
            cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
        for argv in commands:
            for folder in folders_read(argv):
                if not (tmp_path / folder).exists():
                    setup = [SIMDOM, "run", f"scenarios/{Path(folder).name}.toml", "--deals", DEALS, "--quiet",
                             "--out", folder]
                    done = subprocess.run(setup, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
                    assert done.returncode == 0, (setup, done.stderr)
            cmd = scaled(argv, cluster.scheduler_address if cluster else None)
            if argv[1] == "table":  # a server: started, asked for its page, stopped with Ctrl-C
                serve_once(cmd, tmp_path, env)
                continue
            done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
            shown = " ".join(argv)
            assert done.returncode == 0, f"{shown}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            assert "Traceback" not in done.stderr and "Error:" not in done.stderr, (shown, done.stderr)
    finally:
        if cluster is not None:
            cluster.close()
    for name in files_written(commands):                  # every file an example writes is there
        assert (tmp_path / name).stat().st_size > 100, name


def serve_once(cmd: list[str], cwd: Path, env: dict) -> None:
    """`simdom table` as documented, on a free port: it prints its URL, serves its page, and stops cleanly
    (exit 0) on Ctrl-C."""
    import signal
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    if "--port" in cmd:
        cmd[cmd.index("--port") + 1] = str(port)
    else:
        cmd = [*cmd, "--port", str(port)]
    from http.cookiejar import CookieJar
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = f"http://127.0.0.1:{port}/?token="   # the address with the server's secret (docs/table.md)
        assert url in line, (cmd, line)
        url = re.search(r"http://\S+", line).group(0)
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        for _ in range(100):
            try:
                page = browser.open(url, timeout=5).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert "simdom table" in page
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Error" not in err, (cmd, err)


def files_written(commands: list[list[str]]) -> list[str]:
    """The files the commands write with -o/--output (simdom run's --out is a folder)."""
    return [argv[argv.index(flag) + 1] for argv in commands for flag in ("-o", "--out", "--output")
            if flag in argv and argv[1] != "run"]


def test_the_readme_shows_a_command_writing_a_file():
    assert files_written(readme_commands()), "the README shows no example writing a file"


@pytest.mark.slow
def test_every_readme_command_example_runs(tmp_path):
    run_examples(readme_commands(), tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p in DOCS if page_commands(p)], ids=lambda p: p.name)
def test_every_command_example_of_a_docs_page_runs(page, tmp_path):
    run_examples(page_commands(page), tmp_path)
