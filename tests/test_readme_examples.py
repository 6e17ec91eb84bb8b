"""Every command example in the README's code blocks runs (issue 12.5): each `simdom ...` line of a
```sh or ```bash block is run as the real command in a temporary folder holding a copy of scenarios/.

Scaled down so that the whole README runs in about a minute, and nothing else is changed:
* `simdom run` gets `--deals 400` (`--deals N` replaced), `--quiet`, and an `--out` outside the temporary
  folder is moved into it (`/data/balance4` -> `data/balance4`);
* `simdom bench --seconds S` measures 0.3 s;
* the dask example runs against a local cluster started by the test (its address replaces the README's),
  into its own folder (an earlier example wrote results/threes-doubles with other tables);
* a results folder that a statistics example reads (`results/NAME`) is written first by
  `simdom run scenarios/NAME.toml --deals 400` when no earlier example wrote it.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SIMDOM = str(Path(sys.executable).with_name("simdom"))
DEALS = "400"


def readme_commands() -> list[list[str]]:
    """The `simdom` command lines of the README's sh and bash code blocks, in order, as argument lists."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```(?:sh|bash)\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            if line.strip().startswith("simdom "):
                out.append(shlex.split(line, comments=True))
    return out


def scaled(argv: list[str], scheduler: str | None) -> list[str]:
    argv = list(argv)
    if argv[1] == "run":
        if "--deals" in argv:
            argv[argv.index("--deals") + 1] = DEALS
        else:
            argv += ["--deals", DEALS]
        if "--out" in argv:
            i = argv.index("--out") + 1
            argv[i] = argv[i].lstrip("/")
        if "--scheduler" in argv:
            argv[argv.index("--scheduler") + 1] = scheduler or "tcp://127.0.0.1:1"
            argv += ["--out", "results/dask"]  # the README's runs stand alone; here they share one folder
        argv.append("--quiet")
    if argv[1] == "bench" and "--seconds" in argv:
        argv[argv.index("--seconds") + 1] = "0.3"
    return [SIMDOM, *argv[1:]]


def folders_read(argv: list[str]) -> list[str]:
    """The results folders `results/NAME` an example reads (FOLDER:ARM counts as FOLDER): every argument
    `results/...` of a command other than `simdom run`."""
    if argv[1] == "run":
        return []
    return [a.split(":")[0] for a in argv[2:] if a.startswith("results/")]


def test_the_readme_has_examples_of_every_command():
    commands = {argv[1] for argv in readme_commands()}
    assert {"rules", "trace", "replay", "bench", "run", "stats", "doubles", "compare", "report"} <= commands


@pytest.mark.slow
def test_every_readme_command_example_runs(tmp_path):
    shutil.copytree(ROOT / "scenarios", tmp_path / "scenarios")
    env = {**os.environ, "COLUMNS": "100"}
    cluster = None
    commands = readme_commands()
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
            done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
            shown = " ".join(argv)
            assert done.returncode == 0, f"{shown}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            assert "Traceback" not in done.stderr and "Error:" not in done.stderr, (shown, done.stderr)
    finally:
        if cluster is not None:
            cluster.close()
    written = [argv[argv.index(flag) + 1] for argv in commands for flag in ("-o", "--output")
               if flag in argv and argv[1] != "run"]
    assert written, "the README shows no example writing a file"
    for name in written:                                   # every file an example writes is there
        assert (tmp_path / name).stat().st_size > 100, name
