"""simdom ladder (issue 20.2): Plackett-Luce ratings recover known strengths, the duplicate seatings are
complete and share their shuffles, ties are ordered fairly, the command rates a tiny real field."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from badinput import check
from simdom.cli import app
from simdom.engine.api import simulate_deals
from simdom.engine.state import trace
from simdom.policies import parse_policy
from simdom.rules import preset
import simdom.run.ladder as ladder_play
from simdom.run.ladder import play_duplicate, seatings
from simdom.stats.estimate.ladder import ELO, finishing_orders, fit, ladder_ratings


def pl_orders(theta: np.ndarray, games: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Plackett-Luce finishing orders of the items of each game (rows of ``games``): sorting
    theta + Gumbel noise, highest first, draws a Plackett-Luce order exactly."""
    noisy = theta[games] + rng.gumbel(size=games.shape)
    return np.take_along_axis(games, np.argsort(-noisy, axis=-1), axis=-1)


def test_fit_recovers_known_strengths_and_agrees_with_choix():
    import choix
    rng = np.random.default_rng(7)
    theta = np.array([0.0, 0.4, 1.0, -0.6, 1.6])
    games = np.array([rng.choice(5, 3, replace=False) for _ in range(6000)])
    orders = pl_orders(theta, games, rng)
    est = fit(orders, None, 5)
    assert np.abs((est - est[0]) - theta).max() < 0.08
    few = orders[:600]  # choix's optimiser loops in Python: a smaller set keeps the test fast
    ref = choix.opt_rankings(5, [list(o) for o in few], alpha=0.01)
    assert np.abs(fit(few, None, 5) - ref).max() < 1e-3
    # counted distinct orders give the same fit as the orders one by one
    uniq, inv = np.unique(orders, axis=0, return_inverse=True)
    assert np.allclose(fit(uniq, np.bincount(inv.reshape(-1)), 5), est, atol=1e-9)


def test_bootstrap_intervals_cover_the_true_ratings():
    rng = np.random.default_rng(3)
    theta = np.array([0.0, 0.5, 1.2, -0.3])   # item 0 is the anchor
    seats = seatings(4, 2)                   # 12 seatings a deal, as a ladder plays them
    D = 400
    orders = pl_orders(theta, np.broadcast_to(seats, (D, *seats.shape)), rng)
    lad = ladder_ratings(orders, ["r", "a", "b", "c"], anchor=0, anchor_rating=1000, bootstrap=200, seed=1)
    true = 1000 + ELO * (theta - theta[0])
    lo, hi = lad.interval(lad.boot)
    assert np.all(lo <= true) and np.all(true <= hi), (lo, true, hi)
    assert lad.rating[0] == 1000 and np.all(hi[1:] - lo[1:] > 5)
    # the head-to-head of two ratings D apart is the Elo formula, and the spread the ratings' sd
    assert lad.p_beats()[2, 0] == pytest.approx(1 / (1 + 10 ** (-(lad.rating[2] - lad.rating[0]) / 400)))
    assert lad.p_beats()[2, 0] == pytest.approx(math.exp(1.2) / (math.exp(1.2) + 1), abs=0.04)
    assert lad.spread == pytest.approx(np.std(lad.rating))
    assert np.all(lad.games == D * 6)


def test_ties_are_ordered_at_random_and_reproducibly():
    seats = seatings(3, 2)
    points = np.zeros((2000, 6, 2), np.int32)        # every game a tie
    a = finishing_orders(points, seats, seed=5)
    assert np.array_equal(a, finishing_orders(points, seats, seed=5))
    assert not np.array_equal(a, finishing_orders(points, seats, seed=6))
    # each seat finishes first in about half the tied games, whichever policy sits there
    first_is_seat0 = a[..., 0] == seats[None, :, 0]
    assert abs(first_is_seat0.mean() - 0.5) < 0.02
    # untied games follow the points, highest first
    pts = np.array([[[3, 9], [9, 3], [5, 5], [0, 1], [2, 0], [7, 7]]], np.int32)
    o = finishing_orders(pts, seats, seed=1)[0]
    assert o[0].tolist() == [1, 0] and o[1].tolist() == [0, 2] and o[3].tolist() == [2, 1] and o[4].tolist() == [2, 0]


def test_seatings_are_every_assignment_of_policies_to_seats():
    for k, n in ((2, 2), (3, 2), (5, 2), (4, 3), (4, 4), (5, 4)):
        s = seatings(k, n)
        assert len(s) == math.perm(k, n) and len({tuple(r) for r in s}) == len(s)
        assert all(len(set(r)) == n for r in s)
        # every policy sits in every seat equally often
        counts = np.array([[np.sum(s[:, seat] == p) for p in range(k)] for seat in range(n)])
        assert np.all(counts == len(s) // k)
    with pytest.raises(ValueError):
        seatings(2, 3)


def test_duplicate_seatings_share_their_shuffles(monkeypatch):
    rules = preset("threes", 2)
    pols = [parse_policy(p) for p in ("greedy", "random", "heavy")]
    play = play_duplicate(rules, pols, 11, 40)
    assert play.points.shape == (40, 6, 2)
    # the kernel dealt the same tiles in every seating: who leads and each seat's doubles
    assert np.all(play.first_seat == play.first_seat[:, :1])
    assert np.all(play.doubles_dealt == play.doubles_dealt[:, :1, :])
    assert np.any(play.points != play.points[:, :1, :])   # the policies do differ
    # each seating's rows are that seating's own deals, played alone
    for j in (0, 3, 5):
        alone = simulate_deals(rules, [pols[i] for i in play.seatings[j]], 11, 0, 40)
        assert np.array_equal(alone.seats["points"], play.points[:, j, :])
    # block by block of deals the same (blocks of 7 deals: 6 blocks a seating, the last one short)
    monkeypatch.setattr(ladder_play, "block_size", lambda *a: 7)
    again = play_duplicate(rules, pols, 11, 40)
    assert np.array_equal(again.points, play.points) and np.array_equal(again.first_seat, play.first_seat)
    # and the initial hands and boneyard, read from the deal's trace, are the same in every seating
    for d in (0, 7):
        deals = [trace(rules, [pols[i] for i in row], 11, d) for row in play.seatings]
        assert all(t["hands"] == deals[0]["hands"] and t["boneyard"] == deals[0]["boneyard"] for t in deals)
        assert sorted(t["totals"] for t in deals) != [deals[0]["totals"]] * 6


def test_cli_rates_greedy_above_random():
    r = CliRunner().invoke(app, ["ladder", "greedy", "random", "heavy", "-r", "threes", "-n", "2", "--deals", "150",
                                 "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert set(data) >= {"ratings", "head_to_head", "spread"}
    assert all(set(x) == {"policy", "rating", "rating_lo", "rating_hi", "games"} for x in data["ratings"])
    assert all(set(x) == {"a", "b", "p_a_beats_b", "lo", "hi"} for x in data["head_to_head"])
    rating = {x["policy"]: x for x in data["ratings"]}
    assert rating["random"]["rating"] == 1000 and data["anchor"] == "random"
    assert rating["greedy"]["rating_lo"] > 1000
    assert [x["rating"] for x in data["ratings"]] == sorted((x["rating"] for x in data["ratings"]), reverse=True)
    assert all(x["games"] == 150 * 4 for x in data["ratings"])
    assert len(data["head_to_head"]) == 3
    for h in data["head_to_head"]:
        assert h["lo"] <= h["p_a_beats_b"] <= h["hi"] and h["p_a_beats_b"] >= 0.5
    assert data["spread"] == pytest.approx(np.std([x["rating"] for x in data["ratings"]]))
    text = CliRunner().invoke(app, ["ladder", "greedy", "random", "heavy", "-n", "2", "--deals", "150"]).output
    assert text.startswith("greedy is rated ") and "random anchored at 1,000" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_cli_anchors_the_first_policy_without_random(tmp_path):
    out = tmp_path / "l.csv"
    r = CliRunner().invoke(app, ["ladder", "heavy", "greedy", "-n", "2", "--deals", "30", "-f", "csv", "-o", str(out)])
    assert r.exit_code == 0, r.output
    rows = out.read_text().splitlines()
    assert rows[0] == "policy,rating,rating_lo,rating_hi,games" and len(rows) == 3
    assert any(line.startswith("heavy,1000.0,") for line in rows)


@pytest.mark.parametrize("args,words", [
    (["ladder", "greedy", "bogus"], ["unknown policy", "allowed"]),
    (["ladder", "greedy"], ["1 policies", "at least 2"]),
    (["ladder", "greedy", "random", "-n", "3"], ["2 policies", "at least 3"]),
    (["ladder", "greedy", "clairvoyant"], ["clairvoyant", "not a fair player"]),
    (["ladder", "greedy", "random", "greedy"], ["greedy", "twice"]),
    (["ladder", "search", "random", "search:worlds=256,win=40"], ["search:worlds=256,win=40", "same as search", "twice"]),
    (["ladder", "greedy", "random", "--deals", "0"], ["--deals", "allowed"]),
    (["ladder", "greedy", "random", "-n", "5"], ["--players", "2, 3 or 4"]),
    (["ladder", "greedy", "random", "heavy", "defensive", "-n", "4", "--deals", "300000"], ["24 seatings", "at most"]),
    (["ladder", "greedy", "random", "--scheduler", "tcp://127.0.0.1:1"], ["--scheduler", "--backend dask"]),
    (["ladder", "greedy", "random", "--workers", "0"], ["--workers", "allowed"]),
    (["ladder", "greedy", "random", "--backend", "dask"], ["--scheduler", "tcp://HOST:PORT"]),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, words):
    check(tmp_path, args, words)


@pytest.mark.parametrize("players,field", [(3, ["greedy", "random", "heavy"]),
                                           (4, ["greedy", "random", "heavy", "defensive"])])
def test_cli_plays_three_and_four_players(players, field):
    r = CliRunner().invoke(app, ["ladder", *field, "-r", "fives", "-n", str(players), "--deals", "20", "-f", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["players"] == players and data["seatings"] == math.perm(len(field), players)
    assert all(x["games"] == 20 * data["seatings"] * players // len(field) for x in data["ratings"])
    assert len(data["head_to_head"]) == math.comb(len(field), 2)


def test_a_match_ladder_plays_every_seating_on_the_same_shuffles_and_ranks_the_winner_first():
    from simdom.engine.matches import simulate_matches, trace_match
    rules = preset("fives", 2, target=100)
    pols = [parse_policy(p) for p in ("greedy", "random", "heavy")]
    play = play_duplicate(rules, pols, 5, 30)
    assert play.points.shape == (30, 6, 2) and play.won is not None
    for j in (0, 4):  # each seating's rows are its own matches, played alone
        alone = simulate_matches(rules, [pols[i] for i in play.seatings[j]], 5, 0, 30)
        assert np.array_equal(alone.matches["score_0"], play.points[:, j, 0])
        assert np.array_equal(alone.matches["winner"] == 1, play.won[:, j, 1])
    # hand 0 of a match is dealt the same in every seating (hands, boneyard), whoever plays it
    for m in (0, 9):
        first = [trace_match(rules, [pols[i] for i in row], 5, m)[0] for row in play.seatings]
        assert all(t["hands"] == first[0]["hands"] and t["boneyard"] == first[0]["boneyard"] for t in first)
    # the winner finishes first even where its score is not the highest (the key puts it on top)
    key = play.order_key()
    done = play.won.any(axis=-1)
    assert np.all(np.argmax(key, axis=-1)[done] == np.argmax(play.won, axis=-1)[done])
    orders = finishing_orders(key, play.seatings, 5)
    winners = np.take_along_axis(play.seatings[None].repeat(30, 0), np.argmax(play.won, -1)[..., None], -1)[..., 0]
    assert np.array_equal(orders[..., 0][done], winners[done])


def test_cli_rates_matches_and_says_so():
    r = CliRunner().invoke(app, ["ladder", "greedy", "random", "heavy", "-r", "fives", "-n", "2", "--set",
                                 "target=100", "--deals", "120", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["unit"] == "match" and data["target"] == 100 and data["deals"] == 120
    rating = {x["policy"]: x for x in data["ratings"]}
    assert rating["greedy"]["rating_lo"] > rating["heavy"]["rating_hi"] > 1000
    text = CliRunner().invoke(app, ["ladder", "greedy", "random", "heavy", "-r", "fives", "-n", "2", "--set",
                                    "target=100", "--deals", "120"]).output
    assert "120 matches to 100, each in all 6 seatings" in " ".join(text.split())
    assert "over matches" in " ".join(text.split())


def test_a_partnership_match_ladder_gives_partners_their_side_s_score():
    from simdom.engine.matches import side_of
    rules = preset("fives-and-threes", 4, target=61, teams="partners")
    pols = [parse_policy(p) for p in ("greedy", "random", "heavy", "defensive")]
    play = play_duplicate(rules, pols, 2, 8)
    partners = [s for s in range(4) if side_of(rules, s) == side_of(rules, 0)]
    assert len(partners) == 2
    assert np.array_equal(play.points[..., partners[0]], play.points[..., partners[1]])
    assert np.array_equal(play.won[..., partners[0]], play.won[..., partners[1]])


def test_the_same_ratings_on_one_worker_two_workers_and_a_dask_cluster():
    """Every (seating, block of deals or matches) is a task; the blocks come back in order, so the play
    and the answer are the same wherever they run (a real distributed.LocalCluster)."""
    from distributed import LocalCluster

    from simdom.run.tournament import ladder
    from contextlib import nullcontext
    for rules in (preset("threes", 2), preset("fives", 2, target=61)):
        pols = [parse_policy(p) for p in ("greedy", "random", "rollout:samples=4")]
        one = play_duplicate(rules, pols, 3, 24, workers=1)
        two = play_duplicate(rules, pols, 3, 24, workers=2)
        assert np.array_equal(one.points, two.points) and np.array_equal(one.first_seat, two.first_seat)
        assert (one.won is None) == (not rules.is_match)
        if one.won is not None:
            assert np.array_equal(one.won, two.won)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        args = dict(deals=24, seed=3, players=2, rules=lambda: preset("threes", 2), shown="threes",
                    status=lambda _: nullcontext())
        field = ["greedy", "random", "rollout:samples=4"]
        local = ladder(field, workers=1, **args).data
        dask = ladder(field, backend="dask", scheduler=cluster.scheduler_address, **args).data
    for d in (local, dask):
        d.pop("seconds")
    assert local == dask
