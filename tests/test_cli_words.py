"""The same words in every command (issue 21.5): -o/--out where a file is written, refused over an existing
file without --overwrite; --format where an answer is printed; FOLDER:ARM where a results folder is read;
the old spellings --output, --force and --json still accepted."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from simdom.cli import app

from synthdata import sweep_spec, write


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    return write(tmp_path_factory.mktemp("words") / "sweep", sweep_spec(deals=300))


def cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_stats_reads_one_arm_of_a_folder(sweep, tmp_path):
    r = cli("stats", f"{sweep}:K=5", "--format", "json")
    assert r.exit_code == 0, r.output
    assert {row["arm"] for row in json.loads(r.stdout)} == {"K=5"}
    whole = json.loads(cli("stats", sweep, "-f", "json").stdout)
    assert {row["arm"] for row in whole} == {"K=1", "K=5", "K=9", "K=never"}


def test_report_reads_one_arm_of_a_folder(sweep, tmp_path):
    out = tmp_path / "k5.md"
    r = cli("report", f"{sweep}:K=5", "-o", out)
    assert r.exit_code == 0, r.output
    assert "K=9" not in out.read_text() and "K=5" in out.read_text()


def test_out_overwrite_and_the_old_spellings(sweep, tmp_path):
    out = tmp_path / "s.json"
    assert cli("stats", sweep, "--out", out).exit_code == 0
    again = cli("stats", sweep, "--out", out)
    assert again.exit_code == 2 and "--overwrite" in again.output
    assert cli("stats", sweep, "--out", out, "--overwrite").exit_code == 0
    assert cli("stats", sweep, "--output", out, "--force").exit_code == 0  # the old spellings
    assert json.loads(out.read_text())[0]["arm"] == "K=1"


@pytest.mark.parametrize("argv", [
    ["analyze", "--script", "scenarios/seed-game.deal.toml", "--move", "10"],
    ["solve", "--script", "scenarios/seed-game.deal.toml", "--move", "10"],
    ["review", "--script", "scenarios/seed-game.deal.toml"],
    ["skill", "-r", "threes", "-n", "2"],
    ["ladder", "random", "greedy", "-n", "2"],
])
def test_every_command_writing_a_file_refuses_an_existing_one_without_overwrite(argv, tmp_path):
    out = tmp_path / "answer.json"
    out.write_text("kept\n")
    r = cli(*argv, "-f", "json", "-o", out)
    assert r.exit_code == 2 and "exists" in r.output and "--overwrite" in r.output, r.output
    assert out.read_text() == "kept\n"


def test_rules_bench_and_policies_print_json_with_format_and_with_the_old_json():
    for argv in (["rules", "fives"], ["policies", "greedy"]):
        new, old = cli(*argv, "--format", "json"), cli(*argv, "--json")
        assert new.exit_code == old.exit_code == 0
        assert json.loads(new.stdout) == json.loads(old.stdout)
    listed = json.loads(cli("rules", "-f", "json").stdout)
    assert [row["preset"] for row in listed] == ["threes", "fives", "all-fives", "muggins", "fives-and-threes"]


def test_help_shows_only_the_new_spellings():
    for name in ("stats", "report", "review", "ladder", "rules", "bench", "policies"):
        text = cli(name, "--help").output
        assert "--output" not in text and "--force" not in text and "--json" not in text, name


def test_run_prints_its_summary_in_the_format_asked(tmp_path):
    import subprocess
    import sys
    from pathlib import Path
    simdom = str(Path(sys.executable).with_name("simdom"))
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([simdom, "run", str(root / "scenarios" / "default.toml"), "-d", "200", "-w", "1", "-q",
                           "-f", "json", "--out", str(tmp_path / "res")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)  # stdout holds the JSON alone; the closing lines went to stderr
    assert {r["arm"] for r in rows} == {"K=1", "K=5", "K=9", "K=never"} and "chunk(s) computed" in done.stderr
