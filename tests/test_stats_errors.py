"""Bad input to the statistics commands: one clear message and exit code 2."""
import json

import pytest
from typer.testing import CliRunner

from simdom.cli import app
from synthdata import mix_spec, write

runner = CliRunner()


def run(*args):
    """The statistics commands as simdom's own app runs them (its one-line errors included)."""
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    return write(tmp_path_factory.mktemp("good") / "res", mix_spec(deals=200))


def _err(r) -> str:
    return r.stderr if r.stderr else r.output


def test_missing_folder(tmp_path):
    r = run("stats", tmp_path / "nope")
    assert r.exit_code == 2 and "does not exist" in _err(r)


def test_empty_folder(tmp_path):
    r = run("stats", tmp_path)
    assert r.exit_code == 2 and "empty folder" in _err(r)


def test_half_written_folder(tmp_path):
    write(tmp_path / "half", mix_spec(deals=200), stop_after=1)
    r = run("stats", tmp_path / "half")
    assert r.exit_code == 2 and "half-written" in _err(r) and "simdom run" in _err(r)


def test_truncated_part(tmp_path):
    path = write(tmp_path / "res", mix_spec(deals=200))
    part = sorted((path / "deals").glob("*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:100])
    r = run("stats", path)
    assert r.exit_code == 2 and "part-00000.parquet is not the file simdom wrote (100 bytes, the manifest records" in _err(r)


def test_no_parts(tmp_path):
    path = write(tmp_path / "res", mix_spec(deals=200))
    for p in (path / "deals").glob("*.parquet"):
        p.unlink()
    r = run("stats", path)
    assert r.exit_code == 2 and "deals/part-00000.parquet is missing" in _err(r) and "damaged" in _err(r)


def test_unknown_kind(tmp_path):
    path = write(tmp_path / "res", mix_spec(deals=200))
    m = json.loads((path / "manifest.json").read_text())
    m["kind"] = "something-else"
    (path / "manifest.json").write_text(json.dumps(m))
    r = run("stats", path)
    assert r.exit_code == 2 and "not a simdom results folder" in _err(r) and "simdom-results" in _err(r)


def test_unknown_columns(tmp_path):
    import pyarrow.parquet as pq
    path = write(tmp_path / "res", mix_spec(deals=200))
    part = sorted((path / "deals").glob("*.parquet"))[0]
    pq.write_table(pq.read_table(part).drop(["points_0"]), part)
    r = run("stats", path)
    assert r.exit_code == 2 and f"deals/{part.name}" in _err(r) and "damaged" in _err(r)


def test_bad_by_column_names_the_allowed_ones(good):
    r = run("stats", good, "--by", "arm,colour")
    assert r.exit_code == 2 and "colour" in _err(r) and "allowed: arm, policy, seat" in _err(r)


def test_bad_format(good):
    r = run("stats", good, "--format", "xml")
    assert r.exit_code == 2 and "xml" in _err(r) and "table, csv, json, md" in _err(r)


def test_no_silent_overwrite(good, tmp_path):
    out = tmp_path / "s.json"
    out.write_text("keep me")
    r = run("stats", good, "-o", out)
    assert r.exit_code == 2 and "--overwrite" in _err(r) and out.read_text() == "keep me"
    assert run("stats", good, "-o", out, "--force").exit_code == 0 and out.read_text().startswith("[")


def test_moves_without_move_data(good):
    r = run("stats", good, "--moves")
    assert r.exit_code == 2 and "--moves" in _err(r)


def test_doubles_needs_threes(tmp_path):
    path = write(tmp_path / "fives", mix_spec(deals=200, preset="fives"))
    r = run("doubles", path)
    assert r.exit_code == 2 and "Threes" in _err(r)


def test_doubles_sweep_table_without_sweep(good):
    r = run("doubles", good, "--table", "sweep")
    assert r.exit_code == 2 and "no double-timing sweep" in _err(r)
    r = run("doubles", good, "--table", "nope")
    assert r.exit_code == 2 and "sweep, best, by-move, taker" in _err(r)


def test_report_bad_suffix(good, tmp_path):
    r = run("report", good, "-o", tmp_path / "r.pdf")
    assert r.exit_code == 2 and ".html, .md" in _err(r)
