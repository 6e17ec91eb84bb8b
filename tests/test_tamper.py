"""A folder answers only if it is the one simdom wrote (issue 22 item 2, issue 17 item 5).

Each case of issue 22 rewrites a part with pyarrow, keeping simdom's key-value metadata, and is then
refused twice: as it is (the part's content hash is not the manifest's), and with the manifest's record
forged to the new bytes (a domain or agreement check names what is wrong). A resume recomputes such a
chunk, and its rows come back identical."""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from simdom import results as fmt
from simdom.results import ResultsError
from simdom.run.runner import run
from simdom.run.scenario import from_dict
from simdom.stats.read.folder import open_frames

DEALS = {"name": "tamper", "players": 4, "rotation": True, "deals": 600, "seed": 3, "chunk_size": 200,
         "policies": ["greedy", "random", "greedy", "random"],
         "arms": [{"name": "threes", "rules": {"preset": "threes"}}, {"name": "fives", "rules": {"preset": "fives"}}]}
MATCH = {"name": "tamper-match", "players": 2, "deals": 90, "seed": 5, "chunk_size": 30, "policies": "greedy",
         "rules": {"preset": "fives", "target": 100}, "arms": [{"name": "100"}]}


@pytest.fixture(scope="module")
def deal_folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tamper") / "deals"
    run(from_dict(DEALS, "t.toml"), out, tables=("deals", "seats", "moves"), workers=1)
    return out


@pytest.fixture(scope="module")
def match_folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tamper") / "match"
    run(from_dict(MATCH, "m.toml"), out, workers=1)
    return out


def rewrite(folder: Path, table: str, chunk: int, change, *, forge: bool = False) -> None:
    """Rewrite a part with pyarrow (``change``: Arrow table -> Arrow table), keeping simdom's key-value
    metadata; ``forge``: also record the new bytes in the manifest, as a careful forger would."""
    path = fmt.part_path(folder, table, chunk)
    pf = pq.ParquetFile(path)
    meta = pf.schema_arrow.metadata
    new = change(pf.read())
    new = new.replace_schema_metadata(meta)
    pq.write_table(new, path)
    if forge:
        m = json.loads((folder / fmt.MANIFEST).read_text())
        data = path.read_bytes()
        m["parts"][fmt.part_key(table, chunk)].update(blake2b=fmt.digest(data), size=len(data), rows=new.num_rows)
        (folder / fmt.MANIFEST).write_text(json.dumps(m))


def setcol(name: str, f):
    def change(t: pa.Table) -> pa.Table:
        i = t.schema.get_field_index(name)
        return t.set_column(i, t.schema.field(i).with_nullable(True), f(t.column(name)))
    return change


def const(value, type_):
    return lambda col: pa.array([value] * len(col), type_)


def first(value, type_):
    """The column with its first value replaced."""
    return lambda col: pa.concat_arrays([pa.array([value], type_), col.combine_chunks().slice(1)])


def chunk_of(folder: Path, table: str, c: int) -> pa.Table:
    return pq.read_table(fmt.part_path(folder, table, c))


def other_chunk(folder: Path, table: str, c: int):
    return lambda t: chunk_of(folder, table, c).cast(t.schema)


#: issue 22 item 2's cases in a folder of single deals: (name, table, chunk, change(folder), the check
#: a forged manifest fails)
DEAL_CASES = [
    ("points_0 x10", "deals", 0, lambda f: setcol("points_0", lambda c: pc.multiply(c, pa.scalar(10, pa.int16()))),
     "points_0 within the rules"),
    ("points_1 = -500", "deals", 0, lambda f: setcol("points_1", first(-500, pa.int16())), "points_1 within the rules"),
    ("rotation = 9", "deals", 1, lambda f: setcol("rotation", first(9, pa.int8())), "rotation below 4"),
    ("winner = 7", "deals", 0, lambda f: setcol("winner", first(7, pa.int8())), "winner below 4 or null"),
    ("end null", "deals", 0, lambda f: setcol("end", first(None, pa.string())), "no null where the schema has none"),
    ("end sideways", "deals", 0, lambda f: setcol("end", first("sideways", pa.string())),
     "end one of domino, blocked"),
    ("arm renamed", "deals", 0, lambda f: setcol("arm", const("threes-x", pa.string())),
     "arm one of the run's arms"),
    ("deal shifted by one chunk", "deals", 0, lambda f: setcol("deal", lambda c: pc.add(c, 200)),
     "deal numbers in the chunk's range 0..199"),
    ("rows duplicated", "deals", 0, lambda f: lambda t: pa.concat_tables([t.slice(0, 4), t.slice(0, t.num_rows - 4)]),
     "keys unique, in simdom's order"),
    ("chunk 1's rows under chunk 0's metadata", "deals", 0, lambda f: other_chunk(f, "deals", 1),
     "deal numbers in the chunk's range 0..199"),
    ("moves: tile 9-9", "moves", 2, lambda f: setcol("tile", first("9-9", pa.string())), "tile a tile of the set"),
    ("seats: bonus 99", "seats", 1, lambda f: setcol("bonus", first(99, pa.int16())), "bonus within the rules"),
]

MATCH_CASES = [
    ("winner flipped in matches/", "matches", 1, lambda f: setcol("winner", lambda c: pc.subtract(
        pa.scalar(1, pa.int8()), c)), "the deals' match_winner the matches' winner"),
    ("score_0 + 1000", "matches", 0, lambda f: setcol("score_0", lambda c: pc.add(c, pa.scalar(1000, pa.int32()))),
     "score_0 the last deal's before_0 + credited_0"),
    ("a deal dropped", "deals", 2, lambda f: lambda t: t.slice(1), "has 100 rows, expected 101"),
    ("match_winner flipped in deals/", "deals", 0, lambda f: setcol("match_winner", lambda c: pc.subtract(
        pa.scalar(1, pa.int8()), c)), "the deals' match_winner the matches' winner"),
]


def _refused(folder: Path, *words: str) -> str:
    with pytest.raises(ResultsError) as e:
        open_frames(folder)
    msg = str(e.value)
    assert "\n" not in msg and all(w in msg for w in words), msg
    return msg


@pytest.mark.parametrize("name,table,chunk,change,check", DEAL_CASES, ids=[c[0] for c in DEAL_CASES])
def test_a_rewritten_part_is_refused_by_its_hash_and_a_forged_record_by_its_values(
        deal_folder, copy_of, name, table, chunk, change, check):
    f = copy_of(deal_folder, "plain")
    rewrite(f, table, chunk, change(f))
    _refused(f, fmt.part_key(table, chunk), "is not the file simdom wrote")
    g = copy_of(deal_folder, "forged")
    rewrite(g, table, chunk, change(g), forge=True)
    _refused(g, fmt.part_key(table, chunk), f"'{check}")


@pytest.mark.parametrize("name,table,chunk,change,check", MATCH_CASES, ids=[c[0] for c in MATCH_CASES])
def test_a_match_folder_whose_matches_and_deals_disagree_is_refused(match_folder, copy_of, name, table, chunk,
                                                                     change, check):
    f = copy_of(match_folder, "plain")
    rewrite(f, table, chunk, change(f))
    _refused(f, fmt.part_key(table, chunk), "is not the file simdom wrote")
    g = copy_of(match_folder, "forged")
    rewrite(g, table, chunk, change(g), forge=True)
    _refused(g, check)


def test_the_untouched_folders_are_accepted_and_their_records_are_their_parts(deal_folder, match_folder):
    for folder in (deal_folder, match_folder):
        res = open_frames(folder)
        m = res.manifest
        assert sorted(m.parts) == sorted(fmt.part_key(t, c) for t in m.tables for c in range(m.n_chunks))
        for key, e in m.parts.items():
            data = (folder / key).read_bytes()
            assert (e.blake2b, e.size) == (fmt.digest(data), len(data))
            assert e.rows == pq.ParquetFile(folder / key).metadata.num_rows
            assert e.deal_range == list(m.chunk_range(int(key[-13:-8])))
    assert res.matches.select("match").collect().height == 2 * 90 * 1


def test_a_part_missing_from_the_records_or_a_damaged_record_is_refused(deal_folder, copy_of):
    f = copy_of(deal_folder, "f")
    m = json.loads((f / fmt.MANIFEST).read_text())
    del m["parts"]["seats/part-00001.parquet"]
    (f / fmt.MANIFEST).write_text(json.dumps(m))
    _refused(f, "seats/part-00001.parquet is of a done chunk, but parts has no record of it")
    m["parts"]["seats/part-00001.parquet"] = dict(m["parts"]["seats/part-00000.parquet"])
    (f / fmt.MANIFEST).write_text(json.dumps(m))
    _refused(f, "parts records seats/part-00001.parquet", "another deal range")


def test_a_folder_of_the_old_format_gets_a_clear_error(deal_folder, copy_of):
    f = copy_of(deal_folder, "f")
    m = json.loads((f / fmt.MANIFEST).read_text())
    m["format"] = 2
    del m["parts"]
    (f / fmt.MANIFEST).write_text(json.dumps(m))
    _refused(f, "results format 2", f"reads format {fmt.FORMAT}", "--overwrite")


@pytest.mark.parametrize("command", [["stats"], ["seats"], ["doubles"], ["compare", "{f}", "{f}"], ["report"]])
def test_every_reader_names_the_part_and_its_check_in_one_line_exit_2(deal_folder, tmp_path, copy_of, cli, command):
    f = copy_of(deal_folder, "f")
    rewrite(f, "deals", 1, setcol("points_0", lambda c: pc.multiply(c, pa.scalar(10, pa.int16()))), forge=True)
    args = [a.format(f=f) for a in command] if len(command) > 1 else [*command, str(f)]
    if command == ["report"]:
        args += ["-o", str(tmp_path / "r.html")]
    p = cli(*args, timeout=120)
    assert p.returncode == 2, (p.stdout, p.stderr)
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "deals/part-00001.parquet" in lines[0] and "'points_0 within the rules" in lines[0], \
        p.stderr
    assert not (tmp_path / "r.html").exists()


def test_a_resume_recomputes_a_rewritten_or_forged_chunk_and_its_rows_come_back(deal_folder, match_folder, copy_of):
    for folder, scen, tables, table, change in (
            (deal_folder, DEALS, ("deals", "seats", "moves"), "deals",
             setcol("points_0", lambda c: pc.multiply(c, pa.scalar(10, pa.int16())))),
            (match_folder, MATCH, ("deals",), "matches", setcol("winner", lambda c: pc.subtract(
                pa.scalar(1, pa.int8()), c)))):
        f = copy_of(folder, folder.name)
        rewrite(f, table, 1, change)
        rewrite(f, table, 2, change, forge=True)
        summary = run(from_dict(scen, "t.toml"), f, tables=tables, workers=1)
        assert (summary.computed, summary.reused) == (2, 1)
        for t in json.loads((folder / fmt.MANIFEST).read_text())["tables"]:
            for c in range(3):
                assert chunk_of(f, t, c).equals(chunk_of(folder, t, c)), (t, c)
        assert open_frames(f).manifest.parts == open_frames(folder).manifest.parts


def test_read_checked_names_what_is_wrong(deal_folder, copy_of):
    f = copy_of(deal_folder, "f")
    m = fmt.read_manifest(f)
    assert fmt.read_checked(f, m, "deals", 0, m.rows("deals", 0))[1] is None
    assert fmt.read_checked(f, m, "deals", 0, m.rows("deals", 0) + 1)[1] == \
        f"has {m.rows('deals', 0)} rows, expected {m.rows('deals', 0) + 1}"
    other = m.model_copy(update={"settings_hash": "0" * 32})
    assert "another run" in fmt.read_checked(f, other, "deals", 0, None)[1]
    part = fmt.part_path(f, "deals", 0)
    raw = bytearray(part.read_bytes())
    raw[len(raw) // 3: len(raw) // 3 + 64] = bytes(64)
    part.write_bytes(bytes(raw))
    assert "not the file simdom wrote" in fmt.read_checked(f, m, "deals", 0, None)[1]
    m.parts["deals/part-00000.parquet"].blake2b = fmt.digest(bytes(raw))  # a forged record: the bytes still fail
    assert fmt.read_checked(f, m, "deals", 0, None)[1].startswith(("is unreadable", "fails the check"))
    part.write_bytes(bytes(raw[:100]))
    m.parts["deals/part-00000.parquet"] = m.parts["deals/part-00000.parquet"].model_copy(
        update={"blake2b": fmt.digest(bytes(raw[:100])), "size": 100})
    assert fmt.read_checked(f, m, "deals", 0, None)[1].startswith("is unreadable")
    part.unlink()
    assert fmt.read_checked(f, m, "deals", 0, None)[1] == "is missing"
