"""Issue 41.2: `simdom balance`, the scorecard of a sweep: each variant's figures and its paired difference
against the baseline, recomputed here from the Parquet rows by other means (plain polars and Python
loops over the deals and the placements), the JSON shape, the answer first within 80 columns, and the bad
inputs in one line."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

SCENARIO = """name = "bal"
players = 2
policies = ["greedy", "random"]
rotation = true
deals = 600
seed = 17
[rules]
preset = "threes"
[sweep]
first_double_bonus = [[[4, 2], [8, 4], [8]], [[4, 8], [8, 16], [32]], []]
"""
NAMES = ["leader_win", "last_win", "balance", "blocked", "placements", "draws", "lead_changes", "drama",
         "decisiveness", "points", "scoring_share", "greedy_edge"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    from conftest import run_scenario
    return run_scenario(tmp_path_factory.mktemp("balance"), SCENARIO, "--moves", "--seats")


@pytest.fixture(scope="module")
def card(folder):
    from simdom.stats.tables.balance import studies, to_json
    return to_json(studies([str(folder)]))


def _deals(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(folder / "deals" / "*.parquet")


def test_json_shape_and_measure_names(card):
    assert card["baseline"] == "first_double_bonus=4.2-8.4-8"
    assert [v["name"] for v in card["variants"]] == ["first_double_bonus=4.2-8.4-8",
                                                     "first_double_bonus=4.8-8.16-32", "first_double_bonus=none"]
    for v in card["variants"]:
        assert v["players"] == 2 and set(NAMES) <= set(v["measures"])
        assert v["params"]["first_double_bonus"] is not None
        for e in v["measures"].values():
            assert set(e) == {"value", "low", "high"}
            assert e["low"] <= e["value"] <= e["high"] or e["low"] == e["high"]
    assert card["variants"][0]["vs_baseline"] == {}
    for v in card["variants"][1:]:
        assert set(NAMES) <= set(v["vs_baseline"])
        for m, e in v["vs_baseline"].items():
            assert {"value", "low", "high", "p_holm"} <= set(e)
            assert e["value"] == pytest.approx(v["measures"][m]["value"] - card["variants"][0]["measures"][m]["value"])


def test_figures_recomputed_from_the_rows(folder, card):
    """leader_win, last_win, blocked, placements, points and scoring_share from the wide deals table, by
    other code: the leader is first_seat, the winner the top total (ties share)."""
    d = _deals(folder)
    pts = np.stack([d["points_0"].to_numpy(), d["points_1"].to_numpy()], axis=1)
    top = pts.max(axis=1, keepdims=True)
    win = (pts == top) / (pts == top).sum(axis=1, keepdims=True)
    lead = d["first_seat"].to_numpy()
    for v in card["variants"]:
        a = (d["arm"] == v["name"]).to_numpy()
        rows = np.arange(len(d))[a]
        m = v["measures"]
        assert m["leader_win"]["value"] == pytest.approx(win[rows, lead[rows]].mean())
        assert m["last_win"]["value"] == pytest.approx(win[rows, 1 - lead[rows]].mean())
        assert m["blocked"]["value"] == pytest.approx((d["end"].to_numpy()[rows] == "blocked").mean())
        assert m["placements"]["value"] == pytest.approx(d["tiles_placed"].to_numpy()[rows].mean())
        tiles = d["tiles_placed"].to_numpy()[rows]
        assert v["placements_quantiles"] == {f"p{int(100 * q)}": int(np.quantile(tiles, q, method="lower"))
                                             for q in (0.1, 0.25, 0.5, 0.75, 0.9)}
        assert m["points"]["value"] == pytest.approx(pts[rows].mean())
        sp = d["scoring_plays_0"].to_numpy()[rows] + d["scoring_plays_1"].to_numpy()[rows]
        pl_ = d["plays_0"].to_numpy()[rows] + d["plays_1"].to_numpy()[rows]
        assert m["scoring_share"]["value"] == pytest.approx(sp.sum() / pl_.sum())
        gap = abs(m["leader_win"]["value"] - m["last_win"]["value"])
        assert m["balance"]["value"] == pytest.approx(1 - gap)
        seats = pl.read_parquet(folder / "seats" / "*.parquet").filter(pl.col("arm") == v["name"])
        assert m["draws"]["value"] == pytest.approx(seats["draws"].sum() / a.sum())


def test_tension_recomputed_placement_by_placement(folder, card):
    """Lead changes, drama and decisiveness by a plain loop over each deal's placements."""
    d = _deals(folder)
    moves = pl.read_parquet(folder / "moves" / "*.parquet").sort("arm", "deal", "rotation", "move")
    finals = {(r["arm"], r["deal"], r["rotation"]): (r["points_0"], r["points_1"]) for r in d.iter_rows(named=True)}
    acc: dict[str, list] = {}
    for (arm, deal, rot), g in moves.group_by(["arm", "deal", "rotation"], maintain_order=True):
        score, prev, changes, deficit, behind = [0, 0], None, 0, 0, 0
        f = finals[(arm, deal, rot)]
        w = None if f[0] == f[1] else int(f[1] > f[0])
        for mv, seat, p, b in zip(g["move"], g["seat"], g["points"], g["bonus"]):
            score[seat] += p + b
            leader = None if score[0] == score[1] else int(score[1] > score[0])
            if leader is not None:
                changes += prev is not None and leader != prev
                prev = leader
            if w is not None:
                deficit = max(deficit, score[1 - w] - score[w])
                if leader != w:
                    behind = mv
        a = acc.setdefault(arm, [0, 0, 0.0, 0.0, 0])
        a[0] += 1
        a[1] += changes
        if w is not None:
            a[2] += deficit
            a[3] += behind / g["move"].max()
            a[4] += 1
    for v in card["variants"]:
        n, ch, dr, de, nw = acc[v["name"]]
        assert v["measures"]["lead_changes"]["value"] == pytest.approx(ch / n)
        assert v["measures"]["drama"]["value"] == pytest.approx(dr / nw)
        assert v["measures"]["decisiveness"]["value"] == pytest.approx(de / nw)


def test_flags_mean_significant_and_beyond_the_threshold(folder):
    from simdom.stats.tables.balance import studies, to_json
    for th in (0.0, 5.0):
        card = to_json(studies([str(folder)], th))
        base = card["variants"][0]["measures"]
        for v in card["variants"][1:]:
            for m, e in v["vs_baseline"].items():
                share = m in ("leader_win", "last_win", "balance", "blocked", "ties", "decisiveness",
                              "decision_share", "scoring_share", "greedy_edge")
                bound = th / 100 if share else abs(base[m]["value"]) * th / 100
                assert e["flag"] == bool(e["p_holm"] < 0.05 and abs(e["value"]) > bound), (th, m, e)
    none = to_json(studies([f"{folder}:first_double_bonus=none"]))  # one arm: figures, nothing compared
    assert [v["vs_baseline"] for v in none["variants"]] == [{}]


def _cli(*args):
    """The command in this process (CliRunner: no interpreter start), 80 columns wide."""
    from typer.testing import CliRunner
    from simdom.cli import app
    res = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "80"})
    res.returncode, res.stderr_text = res.exit_code, res.output
    return res


def test_cli_answer_first_80_columns_and_machine_formats(folder, tmp_path):
    cli = _cli
    res = cli("balance", folder, "--full")  # the whole scorecard (the one screen: tests/test_lab.py)
    assert res.returncode == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0].startswith("Of 2 variants of 2-player Threes")
    assert max(map(len, lines)) <= 80
    assert "Scorecard" in res.stdout and "leader win %" in res.stdout
    out = tmp_path / "card.parquet"
    assert cli("balance", folder, "-o", out).returncode == 0
    flat = pl.read_parquet(out)
    assert {"variant", "measure", "value", "low", "high", "diff", "p_holm", "flag"} <= set(flat.columns)
    j = json.loads(cli("balance", folder, "--format", "json").stdout)
    assert j["baseline"] == "first_double_bonus=4.2-8.4-8"


@pytest.mark.parametrize("args,words", [
    (["--threshold", "-1"], ["--threshold", "0 to 100"]),
    (["--format", "parquet"], ["parquet", "-o"]),
])
def test_cli_bad_input_one_line(folder, args, words):
    res = _cli("balance", folder, *args)
    assert res.returncode == 2
    msg = res.output.strip()
    assert len(msg.splitlines()) == 1 and "Traceback" not in msg
    for w in words:
        assert w in msg, msg


def test_cli_missing_folder_one_line(tmp_path):
    res = _cli("balance", tmp_path / "nope")
    assert res.returncode == 2 and len(res.output.strip().splitlines()) == 1, res.output


@pytest.mark.slow
def test_bonus_scale_moves_the_leaders_edge(tmp_path, cli):
    """The issue's finding, as a flagged difference: 2 greedy players, the leader's win rate rises when the
    first-double bonus is scaled x4 (about 62% -> 76% in the issue's loop), flagged against x1."""
    (tmp_path / "s.toml").write_text(SCENARIO.replace('["greedy", "random"]', '"greedy"').replace("600", "6000"))
    assert cli("run", tmp_path / "s.toml", "--out", tmp_path / "r", "-q", "--workers", "1").returncode == 0
    res = cli("balance", tmp_path / "r", "--format", "json")
    card = json.loads(res.stdout)
    x4 = card["variants"][1]
    assert x4["vs_baseline"]["leader_win"]["flag"] and x4["vs_baseline"]["leader_win"]["value"] > 0.05
    assert 0.58 < card["variants"][0]["measures"]["leader_win"]["value"] < 0.66


@pytest.fixture(scope="module")
def card_report(folder, tmp_path_factory):
    out = tmp_path_factory.mktemp("card") / "report.html"
    r = _cli("report", folder, "-o", out)
    assert r.returncode == 0, r.output
    return out


def test_report_has_the_scorecard_and_the_overrides(card_report):
    text = card_report.read_text()
    assert "<h2>Balance scorecard</h2>" in text and "Of 2 variants of 2-player Threes" in text
    assert text.index("<h2>Balance scorecard</h2>") < text.index("<h2>Policy match-ups</h2>")
    assert "first_double_bonus=[]" in text  # the arms table: each arm's rule overrides
    assert "<h2>Scoring rate by move</h2>" in text  # the run wrote its moves: the section has content


@pytest.mark.slow
def test_scorecard_report_in_chromium(card_report):
    """The real headless Chromium, as tests/test_report_browser.py: no errors, every image loads, no table
    scrolls sideways at 1280 px, the sections in order."""
    from conftest import CHROMIUM, CHROMIUM_ARGS as ARGS
    from playwright.sync_api import sync_playwright
    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: `make venv` installs it"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            errors: list[str] = []
            page = b.new_page(viewport={"width": 1280, "height": 900})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(card_report.as_uri(), wait_until="load")
            images = page.evaluate("Array.from(document.images).map(i => [i.complete, i.naturalWidth])")
            assert images and all(done and w > 0 for done, w in images)
            assert page.evaluate("document.documentElement.scrollWidth") <= 1280
            wide = page.evaluate("Array.from(document.querySelectorAll('.tw')).filter(d => d.scrollWidth > "
                                 "d.clientWidth).map(d => d.querySelector('caption').textContent)")
            assert wide == [], wide
            heads = page.evaluate("Array.from(document.querySelectorAll('h2')).map(h => h.textContent)")
            assert heads[:3] == ["Overview", "Balance scorecard", "Policy match-ups"]
            assert errors == []
        finally:
            b.close()


def test_seat_test_is_simdom_seats_turn_test(folder, card):
    """The scorecard's seat test per variant is `simdom seats`' Wald test by turn order, Holm over the variants."""
    from simdom.stats.read.folder import open_frames
    from simdom.stats.tables.seats import position_tables
    _, tests = position_tables(open_frames(folder), ("turn",))
    by_arm = {r["arm"]: r for r in tests.iter_rows(named=True)}
    for v in card["variants"]:
        assert v["seat_test"]["p_value"] == pytest.approx(by_arm[v["name"]]["p_value"], rel=1e-9, abs=1e-300)
        assert v["seat_test"]["p_holm"] == pytest.approx(by_arm[v["name"]]["p_holm"], rel=1e-9, abs=1e-300)


def test_cli_keeps_an_existing_file_and_writes_nothing_on_error(folder, tmp_path):
    old = tmp_path / "card.json"
    old.write_text("old")
    r = _cli("balance", folder, "-o", old)
    assert r.returncode == 2 and old.read_text() == "old" and "--overwrite" in r.output
    r = _cli("balance", tmp_path / "missing", "-o", tmp_path / "new.json")
    assert r.returncode == 2 and not (tmp_path / "new.json").exists()


@pytest.mark.slow
def test_scorecard_intervals_cover_the_truth_of_a_synthetic_model():
    """Over 200 synthetic runs with the real structure (arms sharing each deal, rotations often replaying
    one outcome, a turn-order effect, ties; simdom.testing), each 95% interval of the scorecard, and of
    each variant's paired difference, holds the known truth in about 95% of the runs."""
    from simdom.stats.tables.balance import scorecard
    from simdom.testing import in_memory, truth_by
    from synthdata import sweep_spec
    structure = dict(lock=0.4, arm_redraw=0.3, turn_weights=(0.55, 0.15, 0.15, 0.15), turn_points=(1.0, 0.0, -0.5, 0.0))
    spec0 = sweep_spec(seed=0, deals=200, **structure)
    t_turn = truth_by(spec0, ["arm", "turn"])
    names = [a.name for a in spec0.arms]
    blocked = {a.name: a.blocked for a in spec0.arms}
    truth = {a: {"leader_win": t_turn[(a, 0)]["win"], "last_win": t_turn[(a, 3)]["win"],
                 "points": float(np.mean([t_turn[(a, t)]["points"] for t in range(4)])), "blocked": blocked[a]}
             for a in names}
    hits: dict[str, list[bool]] = {}
    for i in range(200):
        s = scorecard(in_memory(sweep_spec(seed=20_000 + i, deals=200, **structure)))
        for a in names:
            for m, t in truth[a].items():
                e = s.measures[a][m]
                hits.setdefault(m, []).append(e["low"] <= t <= e["high"])
                d = s.vs.get(a, {}).get(m)
                if d is not None and d["low"] < d["high"]:  # a difference fixed by the design (0) has no interval
                    hits.setdefault(f"{m} diff", []).append(d["low"] <= t - truth[names[0]][m] <= d["high"])
    rates = {k: float(np.mean(v)) for k, v in hits.items()}
    assert {"leader_win diff", "last_win diff", "points diff"} <= set(rates)
    assert all(0.91 <= r <= 0.985 for r in rates.values()), sorted(rates.items())
