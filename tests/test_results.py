"""The results folder format (simdom/results/): the schema tables of docs/results.md are generated from it,
the manifest is validated on read, and a part's check names what is wrong."""
import subprocess
import sys
from pathlib import Path

import pytest

from simdom import results as fmt

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / fmt.SCHEMA_PAGE


def test_the_docs_schema_section_is_generated_from_the_format_module():
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(fmt.SCHEMA_BEGIN)[1].split(fmt.SCHEMA_END)[0].strip()
    assert section == fmt.schema_tables(), "docs/results.md out of date: run `python -m simdom.results --docs`"


def test_the_schema_tool_rewrites_the_docs_page_between_its_markers(tmp_path):
    page = tmp_path / "results.md"
    page.write_text(f"# Results\n\nbefore\n\n{fmt.SCHEMA_BEGIN}\nold table\n{fmt.SCHEMA_END}\n\nafter\n")
    tool = [sys.executable, "-m", "simdom.results", "--docs"]
    done = subprocess.run([*tool, str(page)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "updated\n"), done.stderr
    text = page.read_text()
    assert text.startswith("# Results\n\nbefore\n\n") and text.endswith(f"{fmt.SCHEMA_END}\n\nafter\n")
    assert fmt.schema_tables() in text and "old table" not in text
    again = subprocess.run([*tool, str(page)], capture_output=True, text=True)
    assert again.stdout == "up to date\n"


def test_the_schema_tool_refuses_a_page_without_markers_in_one_line(tmp_path):
    page = tmp_path / "plain.md"
    page.write_text("# no markers here\n")
    done = subprocess.run([sys.executable, "-m", "simdom.results", "--docs", str(page)], capture_output=True, text=True)
    assert done.returncode == 2 and "no schema markers" in done.stderr and len(done.stderr.splitlines()) == 1
    assert page.read_text() == "# no markers here\n"
    bad = subprocess.run([sys.executable, "-m", "simdom.results", "--readme"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--docs" in bad.stderr and "Traceback" not in bad.stderr


def test_every_column_is_documented_and_per_seat_columns_expand():
    for t in fmt.TABLES.values():
        assert all(c.doc for c in t.columns)
        names = t.names(3)
        assert len(names) == len(set(names))
    assert fmt.DEALS.names(2)[-2:] == ["lost_first_double_0", "lost_first_double_1"]


def _manifest(**changes):
    base = dict(kind="simdom-results", format=fmt.FORMAT, simdom_version="0.1", sim_version=2, scenario_name="x",
                scenario={}, settings_hash="h", seed=1, root_key="k", deals=10, chunk_size=5, n_chunks=2,
                rotations=1, players=2, tables=["deals"], arms=[{"name": "a", "rules": {}, "policies": ["greedy"] * 2}],
                chunks_done=[0, 1], created="t", complete=True,
                parts={f"deals/part-0000{c}.parquet": {"blake2b": "0" * 32, "size": 1, "rows": 5,
                                                       "deal_range": [5 * c, 5 * c + 5]} for c in (0, 1)})
    m = fmt.Manifest.model_validate({**base, "settings_hash": ""})
    base["settings_hash"] = fmt.settings_hash(fmt.manifest_settings(m))  # the settings' hash, as simdom run writes
    return {**base, **changes}


def test_a_valid_manifest_parses():
    m = fmt.parse_manifest(_manifest(), "here")
    assert m.players == 2 and m.arms[0].policies == ["greedy", "greedy"]


@pytest.mark.parametrize("change,says", [
    ({"kind": "other"}, "not a simdom results folder"),
    ({"format": 1}, "results format 1"),
    ({"deals": -1}, "deals"),
    ({"players": "four"}, "players"),
    ({"arms": "a,b"}, "arms"),
    ({"n_chunks": 3}, "do not agree"),
    ({"chunks_done": [0]}, "complete, but 1 of 2"),
    ({"arms": [{"name": "a", "rules": {}, "policies": ["greedy"] * 3}]}, "players = 2"),
])
def test_a_damaged_manifest_is_refused_naming_the_problem(change, says):
    with pytest.raises(fmt.ResultsError, match=says):
        fmt.parse_manifest(_manifest(**change), "here")


def test_write_atomic_leaves_no_temporary_file_on_failure(tmp_path):
    target = tmp_path / "missing" / "x.bin"
    with pytest.raises(OSError):
        fmt.write_atomic(target, b"data")
    fmt.write_atomic(tmp_path / "x.bin", b"data")
    assert (tmp_path / "x.bin").read_bytes() == b"data" and [p.name for p in tmp_path.iterdir()] == ["x.bin"]
