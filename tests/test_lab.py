"""Issue 58: the designer's lab at a glance and the analyst's library, on small real runs.

* 58.1 `simdom balance FOLDER` on one screen: an 18-variant study (two rule parameters at 2, 3 and 4
  players) in at most 60 lines of 80 columns, its sentences and flags those of the scorecard's JSON,
  `--measures`, `--full`, the JSON unchanged, and the options refused where they do not apply;
* 58.3 per-seat policies in a sweep over players cut to each count, names with only what varies;
* 58.5 nothing silent: a run into another study's folder, a `[rules]` value a sweep overrides, an option
  of another mode (`simdom doubles FOLDER -r fives`): one line, exit code 2, nothing written;
* 58.6 `Results.variants()` equal to the manifest, `Results.rules()`, `simdom.balance()` equal to the CSV
  the command writes, `simdom.paired_difference()` equal to the scorecard's paired difference and to
  a plain computation, and every public function's help and type hints."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simdom

STUDY = """name = "lab"
players = 2
policies = "greedy"
rotation = true
deals = 300
seed = 58
[rules]
preset = "threes"
[sweep]
players = [2, 3, 4]
first_double_bonus = [[[4, 2], [8, 4], [8]], [[4, 8], [8, 16], [32]], []]
min_ends = [3, 1]
"""


def _cli(*args):
    """The command in this process (CliRunner), 80 columns wide."""
    from typer.testing import CliRunner

    from simdom.cli import app
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "80"})


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    from conftest import run_scenario
    return run_scenario(tmp_path_factory.mktemp("lab"), STUDY, "--course")


@pytest.fixture(scope="module")
def card(study):
    from simdom.stats.tables.balance import studies, to_json
    return to_json(studies([str(study)]))


def test_eighteen_variants_on_one_screen(study, card):
    res = _cli("balance", study)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert len(lines) <= 60 and max(map(len, lines)) <= 80, (len(lines), max(map(len, lines)))
    changed = sum(1 for v in card["variants"] if any(v["vs_baseline"].get(m, {}).get("flag")
                                                         for m in ("leader_win", "last_win", "balance")))
    words = " ".join(" ".join(lines[:12]).split())
    first = words.split(". ")[0]
    assert first.startswith(f"Of 15 variants (first_double_bonus+min_ends) of Threes at 2, 3 and 4 players, "
                            f"{changed or 'none'} change")
    for n in (2, 3, 4):  # which: each count's flagged variants, named
        flagged = [v["name"].replace("first_double_bonus=", "").replace("min_ends=", "") for v in card["variants"]
                   if v["players"] == n and any(v["vs_baseline"].get(m, {}).get("flag")
                                                for m in ("leader_win", "last_win", "balance"))]
        assert f"{len(flagged)} of 5 at {n} players" + (f" ({', '.join(flagged)})" if flagged else "") in first
    assert "largest moves of the seat spread" in words
    head = next(i for i, x in enumerate(lines) if x.lstrip().startswith("variant"))
    assert all(h in lines[head] for h in ("leader %", "spread %", "decisions %", "draws"))
    body = lines[head + 2: head + 2 + 18]
    assert len(body) == 18 and sum("(base)" in x for x in body) == 3
    # every row's leader cell: the variant's own figure, * exactly where the scorecard flags it
    for row, v in zip(body, card["variants"]):
        cells = row.split()
        at = cells.index("(base)") + 1 if "(base)" in cells else 1
        assert int(cells[at]) == v["players"]
        lead = cells[at + 1]
        flag = v["vs_baseline"].get("leader_win", {}).get("flag", False)
        assert lead.endswith("*") == flag, (row, flag)
        e = v["measures"]["leader_win"]
        assert e["low"] * 100 - 0.5 <= float(lead.rstrip("*")) <= e["high"] * 100 + 0.5


def test_measures_full_and_json(study, card):
    res = _cli("balance", study, "--measures", "last_win,blocked,points")
    assert res.exit_code == 0, res.output
    head = next(x for x in res.output.splitlines() if x.lstrip().startswith("variant"))
    assert head.split()[1:] == ["n", "last", "%", "blocked", "%", "points"]
    full = _cli("balance", study, "--full")
    assert full.exit_code == 0 and "Scorecard: the baseline's figures" in full.output
    assert len(full.output.splitlines()) > len(res.output.splitlines())
    from simdom.present import to_json
    got, want = json.loads(_cli("balance", study, "--format", "json").output), json.loads(to_json(card))
    assert _flat(got).keys() == _flat(want).keys()
    for k, v in _flat(want).items():  # the scorecard's JSON (sums in another order: equal to 1e-9)
        assert _flat(got)[k] == (pytest.approx(v, rel=1e-9, abs=1e-12) if isinstance(v, float) else v), k


def _flat(x, key=()):
    if isinstance(x, dict):
        return {k: v for name, y in x.items() for k, v in _flat(y, (*key, name)).items()}
    if isinstance(x, list):
        return {k: v for i, y in enumerate(x) for k, v in _flat(y, (*key, i)).items()}
    return {key: x}


@pytest.mark.parametrize("args,words", [
    (["--measures", "leader_win,nope"], ["--measures", "unknown nope", "seat_spread"]),
    (["--measures", "leader_win", "--full"], ["--measures", "--full"]),
    (["--measures", "leader_win", "--format", "json"], ["--measures", "--format json", "table or md"]),
    (["--full", "--format", "csv"], ["--full", "--format csv"]),
    (["--skill-deals", "5"], ["--skill-deals", "--skill"]),
    (["--workers", "2"], ["--workers", "--skill"]),
    (["--measures", "skill"], ["--measures skill", "--skill"]),
])
def test_balance_options_of_another_mode_refused(study, tmp_path, args, words):
    out = tmp_path / "card.txt"
    res = _cli("balance", study, *args, "-o", out) if "--format" not in args else _cli("balance", study, *args)
    msg = res.output.strip()
    assert res.exit_code == 2 and len(msg.splitlines()) == 1 and "Traceback" not in msg, msg
    for w in words:
        assert w in msg, (w, msg)
    assert not out.exists()


def test_doubles_refuses_the_options_of_exact_on_a_folder(study):
    for args in (["-r", "fives"], ["--players", "2"], ["--seed", "3"], ["--policy", "random"], ["--limit", "9"]):
        res = _cli("doubles", f"{study}/2p", *args)
        msg = res.output.strip()
        assert res.exit_code == 2 and len(msg.splitlines()) == 1, msg
        assert msg.startswith(f"error: {args[0] if args[0] != '-r' else '--rules'} applies to --exact") or \
            f"{args[0] if args[0] != '-r' else '--rules'} applies to --exact" in msg, msg


# ---- 58.3: per-seat policies in a sweep over players -------------------------------------------------------
def test_player_sweep_cuts_per_seat_policies_and_names_what_varies(tmp_path):
    from simdom.run.scenario import load_study
    p = tmp_path / "s.toml"
    p.write_text('name = "cut"\npolicies = ["search", "greedy", "greedy", "greedy"]\ndeals = 10\nseed = 1\n'
                 '[rules]\npreset = "threes"\n[sweep]\nplayers = [2, 3, 4]\nmin_ends = [3, 2]\n'
                 'policy_1 = ["random"]\nbaseline = "min_ends=2+policy_1=random"\n')
    runs = load_study(p)
    assert [sc.players for sc in runs] == [2, 3, 4]
    for sc in runs:
        assert [a.name for a in sc.arms] == ["min_ends=2", "min_ends=3"]  # policy_1 is alike in every variant
        for a in sc.arms:  # players 0..N-1 keep theirs (search in its canonical text)
            assert a.policies[0].startswith("search:") and a.policies[1:] == ("random", *("greedy",) * (sc.players - 2))


# ---- 58.5: nothing silent ------------------------------------------------------------------------------------
def test_rules_value_a_sweep_overrides_is_refused(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('name = "x"\nplayers = 2\ndeals = 10\nseed = 1\n[rules]\npreset = "threes"\nmin_ends = 2\n'
                 '[sweep]\nmin_ends = [3, 1]\n')
    res = _cli("run", p, "--out", tmp_path / "o", "-q")
    msg = res.output.strip()
    assert res.exit_code == 2 and len(msg.splitlines()) == 1, msg
    assert "rules.min_ends = 2 is also swept" in msg and "not both" in msg
    assert not (tmp_path / "o").exists()
    # --set takes the swept parameter's place: nothing dropped, nothing refused
    from simdom.run.scenario import load_study
    assert [a.rules.min_ends for a in load_study(p, sets=["min_ends=4"])[0].arms] == [4]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_a_run_into_another_studys_folder_is_refused_nothing_written(study, tmp_path):
    one = _write(tmp_path, "one.toml", 'name = "one"\nplayers = 2\ndeals = 20\nseed = 1\n[rules]\n'
                 'preset = "threes"\n[sweep]\nmin_ends = [3, 2]\n')
    two = _write(tmp_path, "two.toml", 'name = "two"\nplayers = 2\ndeals = 20\nseed = 1\n[rules]\n'
                 'preset = "threes"\n[sweep]\nplayers = [2, 3]\nmin_ends = [3, 2]\n')
    out = tmp_path / "o"
    assert _cli("run", one, "--out", out, "-q", "--workers", "1").exit_code == 0
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    cases = [(two, out, f"{out} holds the results of one run, not a study over player counts"),
             (one, study, f"{study} holds a study over player counts (2p, 3p, 4p)"),
             (two, study, f"{study / '4p'} is not one of this study's player counts (2, 3)")]
    for scenario, folder, words in cases:
        old = sorted(p.relative_to(folder) for p in folder.rglob("*"))
        res = _cli("run", scenario, "--out", folder, "-q", "--workers", "1")
        msg = res.output.strip()
        assert res.exit_code == 2 and len(msg.splitlines()) == 1 and words in msg, msg
        assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == old
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before


def test_a_study_refused_at_its_second_count_writes_no_first(tmp_path):
    """Each count's folder is checked before any is written: 3p holding other results stops 2p too."""
    two = _write(tmp_path, "two.toml", 'name = "two"\nplayers = 2\ndeals = 20\nseed = 1\n[rules]\n'
                 'preset = "threes"\n[sweep]\nplayers = [2, 3]\nmin_ends = [3, 2]\n')
    other = _write(tmp_path, "other.toml", 'name = "other"\nplayers = 3\ndeals = 20\nseed = 2\n[rules]\n'
                   'preset = "threes"\n')
    out = tmp_path / "o"
    assert _cli("run", other, "--out", out / "3p", "-q", "--workers", "1").exit_code == 0
    res = _cli("run", two, "--out", out, "-q", "--workers", "1")
    assert res.exit_code == 2 and "holds other results" in res.output and not (out / "2p").exists(), res.output


# ---- 58.6: the analyst's library -----------------------------------------------------------------------------
def test_variants_frame_equals_the_manifest(study):
    for n in (2, 3, 4):
        folder = study / f"{n}p"
        man = json.loads((folder / "manifest.json").read_text())
        res = simdom.open_results(folder)
        v = res.variants()
        assert v.height == len(man["arms"]) == 6
        assert v["arm"].to_list() == res.arms() == [a["name"] for a in man["arms"]]
        for row, a in zip(v.iter_rows(named=True), man["arms"]):
            assert row["players"] == n and row["policies"] == a["policies"] and row["preset"] == a["preset"]
            assert {k: row[k] for k in a["rules"] if k != "players"} == {k: x for k, x in a["rules"].items()
                                                                          if k != "players"}
            assert set(v.columns) == {"arm", "players", "policies", "preset", *a["rules"]} - {"players"} | {"players"}
            r = res.rules(a["name"])
            assert r.to_dict() == a["rules"] and r.preset == a["preset"]
        assert res.rules() == res.rules(man["arms"][0]["name"])
        with pytest.raises(ValueError, match="arm 'nope' is not in .*; allowed: "):
            res.rules("nope")


def test_balance_frame_is_the_commands_csv(study, tmp_path):
    out = tmp_path / "card.csv"
    assert _cli("balance", study, "-o", out).exit_code == 0
    csv = pl.read_csv(out)
    got = simdom.balance(study)
    assert got.columns == csv.columns and got.height == csv.height
    for c in ("value", "low", "high", "diff", "diff_low", "diff_high", "p_holm"):
        assert np.allclose(got[c].cast(pl.Float64).to_numpy(), csv[c].cast(pl.Float64).to_numpy(), equal_nan=True)
    with pytest.raises(ValueError, match="threshold = -1; allowed: a number from 0 to 100"):
        simdom.balance(study, threshold=-1)


def test_paired_difference_is_the_scorecards(study, card):
    """The leader's win, baseline against a variant, paired by deal and rotation and clustered as the
    scorecard clusters (blocks of deals): the scorecard's difference and interval, to the digit."""
    from simdom.stats.read.folder import open_selection
    folder = study / "2p"
    block = open_selection(str(folder)).block
    res = simdom.open_results(folder)
    lead = res.players().filter(pl.col("turn") == 0).select("arm", "deal", "rotation", "win").collect()
    base, other = res.arms()[0], res.arms()[1]
    a = lead.filter(pl.col("arm") == other).sort("deal", "rotation")
    b = lead.filter(pl.col("arm") == base).sort("deal", "rotation")
    d = simdom.paired_difference(a["win"], b["win"], cluster=a["deal"] // block).row(0, named=True)
    want = next(v for v in card["variants"] if v["name"] == other and v["players"] == 2)["vs_baseline"]["leader_win"]
    assert d["diff"] == pytest.approx(want["value"], abs=1e-12)
    assert (d["diff_low"], d["diff_high"]) == pytest.approx((want["low"], want["high"]), abs=1e-12)
    # without clusters: the paired t interval of the differences (scipy's), rows independent
    from scipy import stats as st
    x, y = np.array([3.0, 5, 4, 6, 2]), np.array([1.0, 2, 2, 4, 2])
    t = st.ttest_rel(x, y)
    d = simdom.paired_difference(x, y).row(0, named=True)
    ci = t.confidence_interval(0.95)
    assert (d["diff"], d["diff_low"], d["diff_high"], d["p"]) == pytest.approx(((x - y).mean(), ci.low, ci.high, t.pvalue))
    for bad, words in ((([1, 2], [1]), "a has 2 rows but b has 1"), (([1, float("nan")], [1, 2]), "a[1] is nan"),
                       (([1, 2], [1, 2], [0]), "cluster has 1 rows")):
        with pytest.raises(ValueError, match=words.replace("[", r"\[")):
            simdom.paired_difference(*bad)


def test_every_public_function_has_its_own_help_and_type_hints():
    import inspect
    import pydoc
    import typing

    import simdom.analyze.evaluate  # noqa: F401 - the package imported: simdom.analyze stays the function
    for name in simdom.__all__:
        obj = getattr(simdom, name)
        if not inspect.isfunction(obj):
            continue
        typing.get_type_hints(obj)  # no NameError: every annotation resolves
        text = pydoc.plain(pydoc.render_doc(obj))
        assert f"function {name}" in text and inspect.getdoc(obj).splitlines()[0] in text, name
    assert inspect.isfunction(simdom.analyze) and "Every legal move" in pydoc.render_doc(simdom.analyze)
    for cls in (simdom.Results, simdom.Rules):
        typing.get_type_hints(cls)


def test_paired_difference_doctest():
    import doctest

    import simdom.stats.estimate.paired as paired
    result = doctest.testmod(paired, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0


def test_the_scorecard_from_the_deals_table_equals_the_long_views(study):
    """The scorecard sums the deals table as written (a row per deal and rotation); the long view (a row per
    seat, what an in-memory folder gives) gives the same figures, intervals and tests."""
    import dataclasses

    from simdom.stats.read.folder import open_selection
    from simdom.stats.tables.balance import scorecard
    for n in (2, 4):
        res = open_selection(str(study / f"{n}p"))
        a, b = scorecard(res), scorecard(dataclasses.replace(res, wide=None))  # no deals table: the long view
        for arm, ms in b.measures.items():
            for m, e in ms.items():
                assert a.measures[arm][m] == pytest.approx(e, nan_ok=True, abs=1e-12), (arm, m)
                if arm in b.vs:
                    got = {k: a.vs[arm][m][k] for k in ("value", "low", "high", "p")}
                    assert got == pytest.approx({k: b.vs[arm][m][k] for k in got}, nan_ok=True, abs=1e-12), (arm, m)
        for arm, t in b.seat_test.items():
            assert a.seat_test[arm] == pytest.approx(t, rel=1e-9), arm
        assert a.quantiles == b.quantiles


@pytest.mark.parametrize("args,words", [
    (["--bins", "5"], ["--bins", "--table equity"]),
    (["--moves", "--table", "paired"], ["--table paired and --moves", "one of them"]),
])
def test_stats_refuses_an_option_of_another_answer(study, args, words):
    res = _cli("stats", study / "2p", *args)
    msg = res.output.strip()
    assert res.exit_code == 2 and len(msg.splitlines()) == 1, msg
    for w in words:
        assert w in msg, (w, msg)


@pytest.mark.slow
def test_one_screen_with_skill_shares(study):
    """--skill adds the skill share column (each variant's own figure, played anew) and says on how many deals."""
    res = _cli("balance", study / "2p:first_double_bonus=4.2-8.4-8+min_ends=3,first_double_bonus=none+min_ends=3",
               "--skill", "--skill-deals", "2", "--workers", "1")
    assert res.exit_code == 0, res.output
    head = next(x for x in res.output.splitlines() if x.lstrip().startswith("variant"))
    assert head.split()[-2:] == ["skill", "%"]
    assert "skill %: each variant's own skill share by wins (simdom skill) on 2 deals" in " ".join(
        res.output.split())


# ---- 58.2: the study in pictures -------------------------------------------------------------------------------
def test_plot_writes_a_valid_png_and_svg(study, tmp_path):
    import xml.etree.ElementTree as ET

    from simdom.report.sweepplot import _figure
    from simdom.stats.tables.balance import studies
    png, svg = tmp_path / "b.png", tmp_path / "b.svg"
    for path in (png, svg):
        res = _cli("balance", study, "--plot", path)
        assert res.exit_code == 0 and f"Wrote the plot to {path}." in " ".join(res.output.split()), res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and len(png.read_bytes()) > 10_000
    assert ET.parse(svg).getroot().tag.endswith("svg")
    # what is drawn: a panel per key measure and swept parameter, a line per player count, the points the
    # scorecard's (the leader's win at the baseline's min_ends, against the bonus)
    ss = studies([str(study)], quantiles=False)
    fig = _figure(ss)
    axes = fig.axes
    assert len(axes) == 4 * 2 and axes[-2].get_xlabel() == "first_double_bonus" and axes[-1].get_xlabel() == "min_ends"
    lines = [c[0] for c in axes[0].containers]  # each error bar's data line
    assert len(lines) == 3  # 2, 3 and 4 players
    for s, line in zip(ss, lines):
        got = list(line.get_ydata())
        want = [100 * s.measures[n]["leader_win"]["value"] for n in (
            "first_double_bonus=4.2-8.4-8+min_ends=3", "first_double_bonus=4.8-8.16-32+min_ends=3",
            "first_double_bonus=none+min_ends=3")]
        assert got == pytest.approx(want)
    assert [t.get_text() for t in axes[0].get_xticklabels()] == ["4.2-8.4-8", "4.8-8.16-32", "none"]
    # refused in one line, nothing written: another suffix, an existing file
    for args, words in (([tmp_path / "b.pdf"], "FILE.png or FILE.svg"), ([png], "exists")):
        res = _cli("balance", study, "--plot", *args)
        assert res.exit_code == 2 and words in res.output and len(res.output.strip().splitlines()) == 1
    assert not (tmp_path / "b.pdf").exists()
