"""Tampered records, manifests and results folders (issue 12.4 and 12.6): each is refused with one error line
naming where (file, line, field, action index, part) and what is allowed, exit code 2, no traceback, and
every file left as it was (tests/badinput.py). docs/rules.md sections 11 and 12 give the record formats."""
from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simdom import results as fmt

from badinput import build, check, edit_json, edit_json_line
from test_bad_input import Case


def rec(change, line: int = 0, file: str = "good.jsonl"):
    def prepare(ws: Path) -> None:
        edit_json_line(ws / file, change, line)
    return prepare


def raw(text: bytes, file: str = "bad.jsonl"):
    def prepare(ws: Path) -> None:
        (ws / file).write_bytes(text)
    return prepare


def manifest(change):
    def prepare(ws: Path) -> None:
        edit_json(ws / "res" / "manifest.json", change)
    return prepare


def manifest_of(folder: str, change):
    def prepare(ws: Path) -> None:
        edit_json(ws / folder / "manifest.json", change)
    return prepare


def part(change):
    def prepare(ws: Path) -> None:
        change(ws / "res" / "deals")
    return prepare


def _drop(key, sub=None):
    def change(r):
        del (r[sub] if sub else r)[key]
    return change


def _set(key, value, sub=None):
    def change(r):
        (r[sub] if sub else r)[key] = value
    return change


def _points_plus(r):
    i = next(i for i, a in enumerate(r["actions"]) if a["act"] == "play" and a["points"])
    r["actions"][i]["points"] += 6


def _swap_hands(r):
    r["hands"][0][0], r["hands"][1][0] = r["hands"][1][0], r["hands"][0][0]


def _corrupt(folder: Path) -> None:
    p = folder / "part-00001.parquet"
    b = bytearray(p.read_bytes())
    b[len(b) // 2: len(b) // 2 + 64] = bytes(64)
    p.write_bytes(bytes(b))


def _points_as_strings(folder: Path) -> None:
    p = folder / "part-00002.parquet"
    pf = pq.ParquetFile(p)
    meta = pf.schema_arrow.metadata
    t = pf.read()
    i = t.schema.get_field_index("points_1")
    t = t.set_column(i, "points_1", pa.array([str(x) for x in t.column("points_1").to_pylist()]))
    with pq.ParquetWriter(p, t.schema, store_schema=False) as w:
        w.write_table(t)
        w.add_key_value_metadata({b"simdom": meta[b"simdom"]})


R = ["replay", "good.jsonl"]
M = ["replay", "match.jsonl", "--match", "0"]
A = ["analyze", "--trace", "good.jsonl", "--move", "3"]
RECORDS = {
    "analyze-record-tampered-points": Case(A, ["good.jsonl:1", "action", "recorded play", "expected play"],
                                           rec(_points_plus)),
    "analyze-record-first-1e400": Case(A, ["field first", "inf"], rec(_set("first", 1e400))),
    "analyze-record-hands-not-its-seed": Case(A, ["hands[0]", "not deal 0 of seed 7"], rec(_swap_hands)),
    "record-rules-min-ends-missing": Case(R, ["good.jsonl:1", "rules.min_ends", "missing"],
                                          rec(_drop("min_ends", "rules"))),
    "record-rules-divisors-missing": Case(R, ["rules.divisors", "missing"], rec(_drop("divisors", "rules"))),
    "record-rules-arms-open-missing": Case(R, ["rules.arms_open", "missing"], rec(_drop("arms_open", "rules"))),
    "record-rules-bad-value": Case(R, ["rules.min_ends = 0"], rec(_set("min_ends", 0, "rules"))),
    "record-rules-unknown-parameter": Case(R, ["unknown field", "rules.speed"], rec(_set("speed", 1, "rules"))),
    "record-rules-match-parameter-in-a-deal": Case(R, ["rules.target"], rec(_set("target", 61, "rules"))),
    "record-first-1e400": Case(R, ["field first", "inf", "seat"], rec(_set("first", 1e400))),
    "record-first-a-string": Case(R, ["field first", "'0'"], rec(_set("first", "0"))),
    "record-first-out-of-range": Case(R, ["field first", "7", "seat"], rec(_set("first", 7))),
    "record-deal-zero-word": Case(R, ["field deal", "'zero'"], rec(_set("deal", "zero"))),
    "record-deal-negative": Case(R, ["field deal", "-1"], rec(_set("deal", -1))),
    "record-seed-negative": Case(R, ["field seed", "-5"], rec(_set("seed", -5))),
    "record-seed-float": Case(R, ["field seed"], rec(_set("seed", 7.5))),
    "record-end-bonus-deleted": Case(R, ["end_bonus", "missing"], rec(_drop("end_bonus"))),
    "record-totals-deleted": Case(R, ["totals", "missing"], rec(_drop("totals"))),
    "record-totals-changed": Case(R, ["recorded totals", "expected"],
                                  rec(lambda r: r["totals"].__setitem__(0, r["totals"][0] + 1))),
    "record-end-changed": Case(R, ["end"], rec(lambda r: r.__setitem__("end", "blocked" if r["end"] == "domino"
                                                                       else "domino"))),
    "record-end-bogus": Case(R, ["field end", "'fish'"], rec(_set("end", "fish"))),
    "record-points-tampered-names-the-action": Case(R, ["action", "seat", "recorded play", "expected play"],
                                                    rec(_points_plus)),
    "record-actions-deleted": Case(R, ["actions", "missing"], rec(_drop("actions"))),
    "record-actions-null": Case(R, ["field actions", "list"], rec(_set("actions", None))),
    "record-action-unknown-act": Case(R, ["actions[2].act", "play, draw or pass"],
                                      rec(lambda r: r["actions"][2].__setitem__("act", "jump"))),
    "record-action-seat-9": Case(R, ["actions[1].seat", "9"], rec(lambda r: r["actions"][1].__setitem__("seat", 9))),
    "record-action-extra-field": Case(R, ["unknown field", "actions[0].note"],
                                      rec(lambda r: r["actions"][0].__setitem__("note", "x"))),
    "record-action-tile-off-the-set": Case(R, ["actions[0].tile", "7-7"],
                                           rec(lambda r: r["actions"][0].__setitem__("tile", "7-7"))),
    "record-action-removed": Case(R, ["action 1, seat 1: recorded play", "expected a play of seat 0"],
                                  rec(lambda r: r["actions"].pop(1))),
    "record-hands-not-a-list": Case(R, ["hands[0]", "list"], rec(lambda r: r["hands"].__setitem__(0, 5))),
    "record-hands-not-its-seed": Case(R, ["hands[0]", "not deal 0 of seed 7", "expected"], rec(_swap_hands)),
    "record-hands-of-three-seats": Case(R, ["hands", "one per seat"], rec(lambda r: r["hands"].pop())),
    "record-extra-field": Case(R, ["unknown field", "colour"], rec(_set("colour", "red"))),
    "record-not-utf8": Case(["replay", "bad.jsonl"], ["bad.jsonl:1", "utf-8"], raw(b'{"deal": "\xff"}\n')),
    "record-not-json": Case(["replay", "bad.jsonl"], ["bad.jsonl:2", "not a json line"], raw(b'\n{"deal": \n')),
    "record-a-json-array": Case(["replay", "bad.jsonl"], ["bad.jsonl:1", "json object"], raw(b"[1, 2]\n")),
    "record-huge-integer": Case(["replay", "bad.jsonl"], ["bad.jsonl:1", "not a json line"],
                                raw(b'{"deal": ' + b"9" * 5000 + b"}\n")),
    "record-nested-500": Case(["replay", "bad.jsonl"], ["bad.jsonl:1", "32 levels"],
                              raw(b'{"deal": ' + b"[" * 500 + b"]" * 500 + b"}\n")),
    "record-nested-100000": Case(["replay", "bad.jsonl"], ["bad.jsonl:1", "not a json line"],
                                 raw(b'{"deal": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n")),
    "record-nested-in-analyze": Case(["analyze", "--trace", "bad.jsonl", "--move", "3"], ["bad.jsonl:1", "32 levels"],
                                     raw(b'{"hands": ' + b"[" * 500 + b"]" * 500 + b"}\n")),
    "record-empty-file": Case(["replay", "bad.jsonl"], ["bad.jsonl", "no record"], raw(b"\n\n")),
    "match-credit-tampered": Case(M, ["match 0, deal 0", "match.credited", "recorded", "expected"],
                                  rec(lambda r: (r["match"]["credited"].__setitem__(0, r["match"]["credited"][0] + 5),
                                                 r["match"]["after"].__setitem__(0, r["match"]["after"][0] + 5)),
                                      file="match.jsonl")),
    "match-winner-missing": Case(M, ["match.winner", "missing"], rec(_drop("winner", "match"), file="match.jsonl")),
    "match-target-missing": Case(M, ["rules.target", "missing"], rec(_drop("target", "rules"), file="match.jsonl")),
    "match-id-a-string": Case(["replay", "match.jsonl"], ["match.id"],
                              rec(lambda r: r["match"].__setitem__("id", "zero"), file="match.jsonl")),
    "match-sides-wrong": Case(M, ["match.before", "one per side"],
                              rec(lambda r: r["match"]["before"].append(0), file="match.jsonl")),
    "match-end-target-bogus": Case(M, ["field end", "'fish'"], rec(_set("end", "fish"), file="match.jsonl")),
}

S = ["stats", "res"]
MANIFESTS = {
    "manifest-not-json": Case(S, ["manifest.json", "not valid json"], raw(b"{", "res/manifest.json")),
    "manifest-not-utf8": Case(S, ["manifest.json", "not valid json"], raw(b'{"kind": "\xff"}', "res/manifest.json")),
    "manifest-arms-a-string": Case(S, ["manifest.json is damaged", "arms"], manifest(_set("arms", "base"))),
    "manifest-deals-negative": Case(S, ["manifest.json is damaged", "deals"], manifest(_set("deals", -1))),
    "manifest-players-four": Case(S, ["manifest.json is damaged", "players"], manifest(_set("players", "four"))),
    "manifest-nested-500": Case(S, ["manifest.json", "32 levels"], raw(b'{"kind": "simdom-results", "x": '
                                                                         + b"[" * 500 + b"]" * 500 + b"}",
                                                                         "res/manifest.json")),
    "manifest-nested-100000": Case(S, ["manifest.json", "damaged"], raw(b'{"kind": "simdom-results", "x": '
                                                                        + b"[" * 100_000 + b"]" * 100_000 + b"}",
                                                                        "res/manifest.json")),
    "manifest-integer-5000-digits": Case(S, ["manifest.json", "damaged"],
                                         raw(b'{"kind": "simdom-results", "deals": ' + b"9" * 5000 + b"}",
                                             "res/manifest.json")),
    "run-over-a-nested-manifest": Case(["run", "scen.toml", "--out", "res", "-q", "--workers", "1"],
                                       ["manifest.json"], raw(b'{"kind": "simdom-results", "x": ' + b"[" * 500
                                                              + b"]" * 500 + b"}", "res/manifest.json")),
    "manifest-other-kind": Case(S, ["not a simdom results folder", "kind"], manifest(_set("kind", "other"))),
    "manifest-format-1": Case(S, ["results format 1", f"format {fmt.FORMAT}"], manifest(_set("format", 1))),
    "manifest-complete-but-short": Case(S, ["manifest.json is damaged", "complete"],
                                        manifest(_set("chunks_done", [0]))),
    "manifest-unknown-field": Case(S, ["manifest.json is damaged", "colour"], manifest(_set("colour", "red"))),
    "manifest-missing": Case(S, ["no manifest.json"], lambda ws: (ws / "res" / "manifest.json").unlink()),
    "manifest-half-written": Case(S, ["half-written", "simdom run"],
                                  manifest(lambda m: m.update(complete=False, chunks_done=[0]))),
    # issue 59: "half-written (3 of 3 chunks done)" said of a run stopped after its last chunk
    "manifest-every-chunk-not-complete": Case(S, ["all 3 chunks written", "stopped before it marked the folder "
                                                  "complete", "simdom run"], manifest(_set("complete", False))),
    "manifest-rules-edited": Case(S, ["manifest.json is damaged", "settings_hash"],
                                  manifest(lambda m: m["arms"][0]["rules"].update(min_ends=2))),
    "manifest-policy-edited": Case(S, ["manifest.json is damaged", "settings_hash"],
                                   manifest(lambda m: m["arms"][0]["policies"].__setitem__(0, "random"))),
    "manifest-seed-edited": Case(S, ["manifest.json is damaged", "settings_hash"], manifest(_set("seed", 8))),
    "manifest-policy-count": Case(S, ["manifest.json is damaged", "players"],
                                  manifest(lambda m: m["arms"][0]["policies"].pop())),
}

FOLDERS = {
    "folder-part-deleted": Case(S, ["deals/part-00001.parquet is missing", "simdom run"],
                                part(lambda d: (d / "part-00001.parquet").unlink())),
    "folder-extra-part": Case(S, ["deals/part-00007.parquet", "not a part of this run"],
                              part(lambda d: shutil.copy(d / "part-00000.parquet", d / "part-00007.parquet"))),
    "folder-part-corrupted": Case(S, ["deals/part-00001.parquet", "not the file simdom wrote"], part(_corrupt)),
    "folder-part-truncated": Case(S, ["deals/part-00000.parquet", "not the file simdom wrote", "500 bytes"],
                                  part(lambda d: (d / "part-00000.parquet").write_bytes(
                                      (d / "part-00000.parquet").read_bytes()[:500]))),
    "folder-part-swapped": Case(S, ["deals/part-00000.parquet", "not the file simdom wrote"],
                                part(lambda d: shutil.copy(d / "part-00001.parquet", d / "part-00000.parquet"))),
    "folder-points-as-strings": Case(S, ["deals/part-00002.parquet", "not the file simdom wrote"], part(_points_as_strings)),
    "folder-empty": Case(["stats", "mine"], ["empty folder", "not a simdom results folder"], lambda ws: (ws / "mine" / "notes.txt").unlink()),
    "folder-doubles-damaged": Case(["doubles", "res"], ["part-00001.parquet is missing"],
                                   part(lambda d: (d / "part-00001.parquet").unlink())),
    "folder-seats-damaged": Case(["seats", "res"], ["part-00000.parquet", "not the file simdom wrote"],
                                 part(lambda d: shutil.copy(d / "part-00001.parquet", d / "part-00000.parquet"))),
    "match-folder-matches-part-deleted": Case(["stats", "mres"], ["matches/part-00001.parquet", "missing"],
                                              lambda ws: (ws / "mres" / "matches" / "part-00001.parquet").unlink()),
    "match-folder-deals-part-corrupted": Case(["stats", "mres"], ["deals/part-00001.parquet"],
                                              lambda ws: _corrupt(ws / "mres" / "deals")),
    "match-folder-extra-part": Case(["compare", "mres", "res"], ["part-00005.parquet", "not a part of this run"],
                                    lambda ws: shutil.copy(ws / "mres" / "matches" / "part-00000.parquet",
                                                           ws / "mres" / "matches" / "part-00005.parquet")),
    "match-manifest-target-edited": Case(["stats", "mres"], ["manifest.json is damaged", "settings_hash"],
                                         manifest_of("mres", lambda m: [a["rules"].update(target=100)
                                                                        for a in m["arms"]])),
    "folder-compare-damaged": Case(["compare", "res", "res"], ["not a part of this run"],
                                   part(lambda d: shutil.copy(d / "part-00000.parquet", d / "part-00009.parquet"))),
    "run-over-a-damaged-manifest": Case(["run", "scen.toml", "--out", "res", "-q", "--workers", "1"],
                                        ["manifest.json", "not valid json", "--overwrite"],
                                        raw(b"{", "res/manifest.json")),
    "folder-report-damaged": Case(["report", "res", "-o", "r.html"], ["not the file simdom wrote"], part(_corrupt)),
}

ALL = {**RECORDS, **MANIFESTS, **FOLDERS}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("bad-records") / "ws")


@pytest.fixture
def ws(pristine, tmp_path) -> Path:
    shutil.copytree(pristine, tmp_path / "ws")
    return tmp_path / "ws"


@pytest.mark.parametrize("name", list(ALL))
def test_s11_s12_bad_records_and_folders_are_refused_naming_where(ws, name):
    case = ALL[name]
    if case.prepare:
        case.prepare(ws)
    check(ws, case.args, case.words)


def test_s11_a_refused_record_is_one_short_line(ws):
    """The first differing action, not the whole record (the issue saw a 4 KB line)."""
    edit_json_line(ws / "good.jsonl", _points_plus)
    line = check(ws, R, ["action"])
    assert len(line) < 300
