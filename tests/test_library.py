"""The Python library (issue 21.1, docs/library.md): simdom.simulate, simdom.open_results with players()
(the player-vs-seat mapping under rotation, checked against the engine's own deals played directly) and
simdom export."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import simdom

SCENARIO = """name = "lib"
players = 3
rotation = true
deals = 40
seed = 11

[rules]
preset = "threes"

[[arms]]
name = "a"
policies = ["random", "greedy", "hold:until=5"]

[[arms]]
name = "b"
policies = ["greedy", "greedy", "random"]
"""
POLICIES = {"a": ["random", "greedy", "hold:until=5"], "b": ["greedy", "greedy", "random"]}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("lib")
    (d / "lib.toml").write_text(SCENARIO)
    out = subprocess.run([str(Path(sys.executable).with_name("simdom")), "run", str(d / "lib.toml"), "--out",
                          str(d / "res"), "--quiet"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return d / "res"


def test_import_simdom_loads_no_numba_or_polars():
    code = ("import sys, simdom; a = sorted(m for m in ('numba', 'polars', 'numpy') if m in sys.modules); "
            "assert 'Rules' in dir(simdom); simdom.Rules; simdom.PRESETS; simdom.simulate; simdom.open_results; "
            "print(a, sorted(m for m in ('numba', 'polars') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] []"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        simdom.nope  # noqa: B018


def test_dir_simdom_lists_the_public_names_only():
    names = dir(simdom)
    assert {"Rules", "simulate", "open_results", "solve", "review", "analyze"} <= set(names)
    assert not {"importlib", "Any", "annotations"} & set(names)
    assert all(hasattr(simdom, n) for n in names)


def test_simulate_rows_columns_and_determinism():
    rules = simdom.preset("threes", players=3)
    df = simdom.simulate(rules, ["greedy", "random", "greedy"], deals=30, seed=4)
    assert df.height == 30 and df["deal"].to_list() == list(range(30))
    assert {f"points_{s}" for s in range(3)} | {"win_0", "end", "winner"} <= set(df.columns)
    assert df.equals(simdom.simulate(rules, ["greedy", "random", "greedy"], deals=30, seed=4))
    assert not df.equals(simdom.simulate(rules, ["greedy", "random", "greedy"], deals=30, seed=5))
    # deal i depends only on the seed and i: deals 10..29 of a batch starting at 10 are the same rows
    tail = simdom.simulate(rules, ["greedy", "random", "greedy"], deals=20, seed=4, first_deal=10)
    assert tail.equals(df.slice(10))
    # win shares: each deal's shares sum to 1 and go to the highest totals
    assert (df.select(pl.sum_horizontal(f"win_{s}" for s in range(3)))).to_series().to_list() == [1.0] * 30
    top = df.select(pl.max_horizontal(f"points_{s}" for s in range(3))).to_series()
    assert ((df["win_0"] > 0) == (df["points_0"] == top)).all()
    assert df["points_0"].to_list() == [int(x) for x in df["play_points_0"] + df["bonus_0"] + df["end_bonus_0"]]


@pytest.mark.parametrize("call, message", [
    (lambda: simdom.simulate("nosuch", "greedy", deals=1), "nosuch"),
    (lambda: simdom.simulate("threes", "greedy", deals=-1), "deals = -1"),
    (lambda: simdom.simulate("threes", "nosuch", deals=1), "nosuch"),
    (lambda: simdom.simulate(simdom.preset("threes", players=2), "greedy", deals=1, players=3), "players = 3"),
])
def test_simulate_bad_inputs_raise_value_errors_naming_them(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_players_maps_players_to_seats_as_the_engine_plays_them(folder):
    """Each (arm, deal, rotation, player) row equals the engine's own play of that deal with the rotated
    policies (rotation r: seat s plays the policy of player (s + r) % 3), read at the player's seat."""
    res = simdom.open_results(folder)
    players = res.players().collect()
    assert players.height == 2 * 40 * 3 * 3
    assert players.columns[:8] == ["arm", "deal", "rotation", "player", "seat", "policy", "points", "win"]
    rules = simdom.preset("threes", players=3)
    expect = []
    for arm, pols in POLICIES.items():
        for r in range(3):
            df = simdom.simulate(rules, [pols[(s + r) % 3] for s in range(3)], deals=40, seed=11)
            for s in range(3):
                p = (s + r) % 3
                expect.append(df.select("deal", pl.col(f"points_{s}").alias("points"), pl.col(f"win_{s}").alias("win"))
                              .with_columns(arm=pl.lit(arm), rotation=pl.lit(r, pl.Int8), player=pl.lit(p, pl.Int8),
                                            seat=pl.lit(s, pl.Int8), policy=pl.lit(pols[p])))
    expect = pl.concat(expect).select("arm", "deal", "rotation", "player", "seat", "policy", "points", "win")
    expect = expect.sort(pl.col("arm"), "deal", "rotation", "player")
    got = players.select(expect.columns).with_columns(pl.col("points").cast(pl.Int32))
    assert got.equals(expect)
    # the point of the view: player 0's mean is not seat 0's (a naive mean of points_0)
    wide = res.deals().filter(pl.col("arm") == "a").collect()
    p0 = players.filter((pl.col("arm") == "a") & (pl.col("player") == 0))["points"].mean()
    assert wide["points_0"].mean() != p0
    assert set(players.filter(pl.col("arm") == "a", pl.col("player") == 0)["policy"]) == {"random"}


def test_folder_arm_selects_one_arm(folder):
    res = simdom.open_results(f"{folder}:b")
    assert res.arms() == ["b"] and res.label.endswith(":b")
    assert set(res.players().collect()["arm"]) == {"b"} and set(res.deals().collect()["arm"]) == {"b"}
    assert res.deals().collect().height == 40 * 3
    with pytest.raises(ValueError, match="no arm 'zz'; allowed: a, b"):
        simdom.open_results(f"{folder}:zz")
    with pytest.raises(ValueError, match="view 'moves' is not in"):
        res.view("moves")


def test_export_writes_a_readable_parquet_and_csv(folder, tmp_path, cli):
    out = tmp_path / "players.parquet"
    r = cli("export", folder, "--view", "players", "-o", out)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Wrote the players view of lib (720 rows")
    assert pl.read_parquet(out).equals(simdom.open_results(folder).players().collect())
    csv = tmp_path / "deals.csv"
    assert cli("export", f"{folder}:a", "--view", "deals", "-o", csv).returncode == 0
    back = pl.read_csv(csv)
    assert back.height == 120 and back["points_0"].to_list() == simdom.open_results(folder).deals().filter(
        pl.col("arm") == "a").collect()["points_0"].to_list()


@pytest.mark.parametrize("args, message", [
    (["--view", "nope"], "--view 'nope'; allowed: players, deals, seats, moves, decisions, matches"),
    (["--view", "moves"], "view 'moves' is not in lib; allowed: players, deals"),
    (["--format", "xml"], "--format 'xml'; allowed: parquet, csv"),
])
def test_export_bad_inputs_exit_2_with_one_line(folder, tmp_path, cli, args, message):
    r = cli("export", folder, "-o", tmp_path / "x.parquet", *args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.parquet").exists()


def test_export_refuses_to_overwrite_and_bad_folders(folder, tmp_path, cli):
    out = tmp_path / "keep.parquet"
    out.write_bytes(b"mine")
    r = cli("export", folder, "-o", out)
    assert r.returncode == 2 and "exists; allowed: a new file name, or --overwrite" in r.stderr
    assert out.read_bytes() == b"mine"
    assert cli("export", folder, "-o", out, "--overwrite").returncode == 0
    assert pl.read_parquet(out).height == 720
    r = cli("export", tmp_path / "none", "-o", tmp_path / "y.parquet")
    assert r.returncode == 2 and "does not exist" in r.stderr
    r = cli("export", f"{folder}:zz", "-o", tmp_path / "y.parquet")
    assert r.returncode == 2 and "no arm 'zz'; allowed: a, b" in r.stderr


def test_the_library_analyze_solve_and_review_give_the_commands_numbers():
    """simdom.analyze, simdom.solve and simdom.review are the commands' own code: with the same seed they
    give the numbers `simdom analyze`, `simdom solve` and `simdom review --format json` print."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    import simdom
    cli = str(Path(sys.executable).parent / "simdom")
    script = str(Path(__file__).resolve().parents[1] / "scenarios" / "seed-game.deal.toml")

    def cmd(*args):
        return json.loads(subprocess.run([cli, *args, "--format", "json"], capture_output=True, text=True,
                                         check=True).stdout)
    d = simdom.load_deal(script)
    a = simdom.analyze(d, move=10, rollouts=400, seed=2)
    ja = cmd("analyze", "--script", script, "--move", "10", "--rollouts", "400", "--seed", "2")
    assert [(m["tile"], m["end"], m["mean_points"]) for m in ja["moves"]] == \
        [(r.name.split()[0], r.name.split()[1], r.mean_points) for r in a.rows]
    s = simdom.solve(d.position(10))
    js = cmd("solve", "--script", script, "--move", "10")
    assert [m["value"] for m in js["moves"]] == [m.value for m in s.moves] and js["value"] == s.value
    r = simdom.review(d, rollouts=300, luck_rollouts=100, seed=3)
    jr = cmd("review", "--script", script, "--rollouts", "300", "--luck-rollouts", "100", "--seed", "3")
    assert [x["error"] for x in jr["decisions"]] == [x.error for x in r.decisions]
    with pytest.raises(ValueError, match="no deal given"):
        simdom.load_deal()
    with pytest.raises(TypeError, match="not a deal or a position"):
        simdom.solve("seed-game")


def test_the_documented_duckdb_view_gives_the_players_rows(folder, tmp_path, cli, monkeypatch):
    """docs/library.md's DuckDB SQL, run as written on `simdom export --view players`: the view has the
    rows of players() (same columns, types and order), and its example query the polars group-by's."""
    import re

    import duckdb
    page = (Path(__file__).resolve().parents[1] / "docs" / "library.md").read_text()
    blocks = re.findall(r"^```sql\n(.*?)^```", page, flags=re.S | re.M)
    assert len(blocks) == 1
    statements = [s.strip() for s in blocks[0].split(";") if s.strip()]
    assert statements[0].startswith("CREATE VIEW players AS")
    monkeypatch.chdir(tmp_path)  # the SQL names players.parquet in the working folder
    r = cli("export", folder, "--view", "players", "-o", "players.parquet")
    assert r.returncode == 0, r.stderr
    con = duckdb.connect()
    for s in statements[:-1]:
        con.execute(s)
    players = simdom.open_results(folder).players().collect()
    view = con.sql("SELECT * FROM players").pl()
    assert view.schema == players.schema and view.equals(players)
    got = con.sql(statements[-1]).pl()
    expect = (players.group_by("arm", "player", "policy").agg(pl.col("points").mean(), pl.col("win").mean())
              .sort("arm", "player"))
    assert got.columns == expect.columns and got.height == 6
    assert got.select("arm", "player", "policy").rows() == expect.select("arm", "player", "policy").rows()
    for c in ("points", "win"):
        assert got[c].to_list() == pytest.approx(expect[c].to_list(), rel=1e-12)
