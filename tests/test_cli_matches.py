"""Matches on the command line (docs/rules.md 12): simdom trace --matches, replay --match, bench with a target."""
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
from reference_match import check_match_file  # noqa: E402

from simdom.cli import app  # noqa: E402
from simdom.rules import preset  # noqa: E402

TRACE_KEYS = {"rules", "deal", "seed", "first", "hands", "boneyard", "actions", "end", "end_bonus", "totals",
              "match"}
MATCH_KEYS = {"id", "hand", "sides", "before", "credited", "after", "over", "winner"}
FIVES = ["-r", "fives", "--set", "target=100", "--set", "teams=partners", "--set", "next_lead=hand_winner",
         "--set", "match_end=exact", "-s", "3"]


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "100"})


def flat(text):
    return " ".join(text.split())


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("matches") / "fives100.jsonl"
    r = run("trace", *FIVES, "--matches", "5", "-o", out)
    assert r.exit_code == 0, r.output
    assert "wrote 5 matches" in r.output
    return out


def records(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_s12_trace_matches_writes_whole_matches_in_the_section_12_format(written):
    recs = records(written)
    assert [r["deal"] for r in recs] == list(range(len(recs)))
    ids = [r["match"]["id"] for r in recs]
    assert sorted(set(ids)) == [0, 1, 2, 3, 4] and ids == sorted(ids)
    want_rules = preset("fives", 4, target=100, teams="partners", next_lead="hand_winner", match_end="exact").to_dict()
    for r in recs:
        assert set(r) == TRACE_KEYS and set(r["match"]) == MATCH_KEYS
        assert r["rules"] == want_rules
        assert isinstance(r["seed"], int) and 0 <= r["seed"] < 1 << 64
        assert r["match"]["sides"] == [[0, 2], [1, 3]]
    lasts = [r for r in recs if r["match"]["over"]]
    assert len(lasts) == 5 and all(r["match"]["winner"] in (0, 1) for r in lasts)
    assert check_match_file(recs, "greedy") == []


def test_s12_trace_matches_needs_a_target(tmp_path):
    r = run("trace", "-r", "fives", "--matches", "2", "-o", tmp_path / "x.jsonl")
    assert r.exit_code == 2 and "target" in flat(r.output) and "--set target=" in flat(r.output)
    r = run("trace", "-r", "fives", "--set", "target=100", "--deals", "2", "-o", tmp_path / "x.jsonl")
    assert r.exit_code == 2 and "--matches" in flat(r.output)
    assert not (tmp_path / "x.jsonl").exists()


def test_s12_replay_match_answers_first_then_the_scoreboard(written):
    recs = [r for r in records(written) if r["match"]["id"] == 2]
    last = recs[-1]["match"]
    r = run("replay", written, "--match", "2")
    assert r.exit_code == 0, r.output
    first_line = flat(r.output.split("\n\n")[0])
    w = last["winner"]
    assert first_line.startswith(f"Match 2: side {w} (seats {w} and {w + 2}) won {last['after'][w]} to "
                                 f"{last['after'][1 - w]} in {len(recs)} deal")
    assert "Scoreboard after each deal" in r.output
    for rec in recs:
        assert "-".join(map(str, rec["match"]["after"])) in r.output
    r = run("replay", written, "--match", "2", "--hand", "0")
    assert r.exit_code == 0 and "Moves" in r.output and f"{recs[0]['actions'][0]['tile']} on lead" in r.output


def test_s12_replay_regenerates_a_match_from_rules_and_seed(written):
    a = run("replay", written, "--match", "3")
    b = run("replay", *FIVES, "--match", "3")
    assert a.exit_code == b.exit_code == 0, b.output
    assert a.output == b.output


def tamper(written, tmp_path, match, change):
    recs = [r for r in records(written) if r["match"]["id"] == match]
    change(recs)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in recs))
    r = run("replay", bad, "--match", match)
    assert r.exit_code == 2, r.output
    return flat(r.output)


def test_s12_replay_refuses_a_wrong_credit_naming_it(written, tmp_path):
    def change(recs):
        recs[0]["match"]["credited"][0] += 5
        recs[0]["match"]["after"][0] += 5
    text = tamper(written, tmp_path, 1, change)
    assert "match 1, deal 0" in text and "match.credited" in text and "recorded" in text and "expected" in text


def test_s12_replay_refuses_wrong_points_naming_the_action_and_seat(written, tmp_path):
    def change(recs):
        i = next(i for i, a in enumerate(recs[0]["actions"]) if a["act"] == "play" and a["points"])
        recs[0]["actions"][i]["points"] += 5
        change.i, change.seat = i, recs[0]["actions"][i]["seat"]
    text = tamper(written, tmp_path, 0, change)
    assert f"match 0, deal 0 (file deal 0), action {change.i}, seat {change.seat}: recorded play" in text


def test_s12_replay_refuses_a_lead_against_next_lead(written, tmp_path):
    recs = records(written)
    mid = next(r["match"]["id"] for r in recs if r["match"]["hand"] == 1)

    def change(recs):
        recs[1]["first"] = (recs[1]["first"] + 1) % 4
    text = tamper(written, tmp_path, mid, change)
    assert "deal 1" in text and "first" in text and "next_lead = hand_winner" in text


def test_s12_replay_refuses_a_match_that_stops_before_it_is_over(written, tmp_path):
    recs = records(written)
    mid = next(r["match"]["id"] for r in recs if r["match"]["hand"] == 1)
    text = tamper(written, tmp_path, mid, lambda rs: rs.pop())
    assert "before the match is over" in text or "match.over" in text


def test_s12_replay_refuses_hands_that_are_not_the_deal_of_their_seed(written, tmp_path):
    def change(recs):
        h = recs[0]["hands"]
        h[0][0], h[1][0] = h[1][0], h[0][0]
    text = tamper(written, tmp_path, 0, change)
    assert "not the deal of seed" in text


def test_s12_replay_refuses_an_action_after_the_match_is_won(tmp_path):
    out = tmp_path / "imm.jsonl"
    r = run("trace", "-r", "fives", "-n", "2", "--set", "target=61", "--set", "match_end=immediate",
            "--matches", "6", "-o", out)
    assert r.exit_code == 0, r.output
    recs = records(out)
    last = next(r for r in recs if r["end"] == "target")
    mid = last["match"]["id"]
    group = [r for r in recs if r["match"]["id"] == mid]
    group[-1]["actions"].append({"seat": 1 - group[-1]["actions"][-1]["seat"], "act": "pass"})
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in group))
    r = run("replay", bad, "--match", mid)
    assert r.exit_code == 2
    text = flat(r.output)
    assert f"action {len(group[-1]['actions']) - 1}" in text and "expected nothing" in text and "target" in text


def test_s12_replay_of_a_match_file_without_a_number_shows_its_first_match(written):
    r = run("replay", written)
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Match 0:") and "Scoreboard after each deal" in r.output


def test_s12_replay_of_a_match_deal_points_to_match(written):
    r = run("replay", written, "--deal", "0")
    assert r.exit_code == 2 and "--match 0" in flat(r.output)
    r = run("replay", written, "--match", "9")
    assert r.exit_code == 2 and "no match 9" in flat(r.output)
    r = run("replay", "-r", "fives", "--match", "0")
    assert r.exit_code == 2 and "target" in flat(r.output)


def test_s12_bench_in_match_mode():
    r = run("bench", "-r", "fives", "--set", "target=100", "--seconds", "0.3", "--json")
    assert r.exit_code == 0, r.output
    row = json.loads(r.output.strip().splitlines()[-1])
    assert row["mode"] == "matches" and row["target"] == 100 and row["matches"] > 0
    assert row["deals"] >= row["matches"] and row["deals_per_s"] > 0
