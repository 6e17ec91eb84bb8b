"""The table's hint, tutor and review in the currency the player plays for (docs/table.md): the chance
to win the deal by default, points or margin on request; the players at the table assumed to play on,
and said so. The real `simdom table` process over HTTP (tests/test_table_security.py's client)."""
from __future__ import annotations

import time

import pytest

from test_table_security import Table

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def table():
    t = Table()
    yield t
    t.stop()


def _job(t: Table, gid: str, kind: str, timeout: float = 60) -> dict:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        job = t.call(f"/api/game/{gid}")[1]["jobs"].get(kind)
        if job and job["finished"]:
            assert job["error"] is None, job["error"]
            return job["result"]
        time.sleep(0.05)
    raise AssertionError(f"{kind} not finished in {timeout} s")


def test_a_hint_ranks_by_the_chance_to_win_and_assumes_the_bots_at_the_table(table):
    g = table.new(players=3, bots=["greedy", "random", "greedy"], seed=8)
    table.call(f"/api/game/{g['id']}/hint", {"rollouts": 400})
    h = _job(table, g["id"], "hint")
    assert h["by"] == "win" and h["then"] == "greedy, random, greedy"
    assert h["assumes"] == "from here seat 0 (you) plays greedy, seat 1 plays random, seat 2 plays greedy"
    wins = [r["win"] for r in h["rows"]]
    assert wins == sorted(wins, reverse=True)
    for r in h["rows"]:   # the loss in winning chances: the paired difference of the same rollouts' means
        assert r["loss"] == pytest.approx(wins[0] - r["win"], abs=1e-12)
    # every bot alike: one policy plays on for every seat, yours included
    g2 = table.new(players=2, bots="random", seed=8)
    table.call(f"/api/game/{g2['id']}/hint", {"rollouts": 200, "by": "points"})
    h2 = _job(table, g2["id"], "hint")
    assert h2["then"] == "random" and h2["assumes"] == "every seat plays random from here" and h2["by"] == "points"
    points = [r["points"] for r in h2["rows"]]
    assert points == sorted(points, reverse=True)


def test_the_review_and_the_tutor_speak_the_chosen_currency(table):
    g = table.new(players=2, seed=21)
    gid = g["id"]
    status, out = table.call(f"/api/game/{gid}/hint", {"rollouts": 200, "by": "wins"})
    assert status == 400 and out["error"] == "by 'wins'; allowed: win, points, margin"
    table.call(f"/api/game/{gid}/hint", {"rollouts": 2000, "by": "win"})
    h = _job(table, gid, "hint")
    table.call(f"/api/game/{gid}/tutor", {"threshold": 0.0, "by": "win"})
    worst = h["rows"][-1]
    if len(h["rows"]) > 1 and worst["loss"] > 0:
        status, out = table.call(f"/api/game/{gid}/play", {"tile": worst["tile"], "end": worst["end"]})
        assert status == 200 and "percentage points of winning chances" in out["warning"]
        assert f"loses {100 * worst['loss']:.2f}" in out["warning"]
        table.call(f"/api/game/{gid}/play", {"tile": worst["tile"], "end": worst["end"], "confirm": True})
    else:
        table.call(f"/api/game/{gid}/play", {"tile": worst["tile"], "end": worst["end"]})
    table.call(f"/api/game/{gid}/review", {"rollouts": 100, "luck_rollouts": 5, "by": "win"})
    r = _job(table, gid, "review")
    assert r["by"] == "win" and r["assumes"] == "every seat plays greedy from here"
    for d in r["decisions"]:
        assert 0.0 <= d["played"]["value"] <= 1.0 and 0.0 <= d["best"]["value"] <= 1.0
        assert d["error"] == pytest.approx(d["best"]["value"] - d["played"]["value"], abs=1e-12) or d["forced"]


def test_every_hand_known_says_whom_it_assumes_and_can_play_the_bots(table, tmp_path):
    """Minimax (every other seat against you) or the bots as themselves: simdom solve's values for the
    exported deal, without and with --against."""
    import json
    import subprocess
    import sys
    g = table.new(players=2, bots="greedy", seed=13)
    gid, move = g["id"], g["move"]
    _, _, script = table.raw("GET", f"/api/game/{gid}/export/script", headers={"X-Simdom-Token": table.token})
    path = tmp_path / "deal.toml"
    path.write_bytes(script)
    for against, extra, words in (("minimax", [], "every other seat plays against you (minimax)"),
                                  ("bots", ["--against", "greedy"], "the bots play as themselves (greedy)")):
        table.call(f"/api/game/{gid}/solve", {"against": against})
        s = _job(table, gid, "solve")
        assert s["assumes"].startswith(words)
        out = subprocess.run([sys.executable, "-m", "simdom", "solve", "--script", str(path), "--move", str(move),
                              *extra, "--format", "json"], capture_output=True, text=True, check=True).stdout
        want = [(f"{m['tile']} {m['end']}", m["value"]) for m in json.loads(out)["moves"]]
        assert [(r["move"], r["value"]) for r in s["rows"]] == want
    status, out = table.call(f"/api/game/{gid}/solve", {"against": "everyone"})
    assert status == 400 and out["error"].startswith("against 'everyone'; allowed: minimax")
    r = table.new(players=2, bots="random", seed=13)
    table.call(f"/api/game/{r['id']}/solve", {"against": "bots"})
    t0 = time.monotonic()
    while not (job := table.call(f"/api/game/{r['id']}")[1]["jobs"]["solve"])["finished"]:
        assert time.monotonic() - t0 < 30
        time.sleep(0.05)
    assert "randomness cannot be solved against" in job["error"]
