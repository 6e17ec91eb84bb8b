"""The results folder format (simdom/results/): the README's schema section is generated from it, the
manifest is validated on read, and a part's check names what is wrong."""
from pathlib import Path

import pytest

from simdom import results as fmt

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_schema_section_is_generated_from_the_format_module():
    text = README.read_text()
    section = text.split(fmt.README_BEGIN)[1].split(fmt.README_END)[0].strip()
    assert section == fmt.readme_schema(), "README out of date: run `python -m simdom.results --readme README.md`"


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
