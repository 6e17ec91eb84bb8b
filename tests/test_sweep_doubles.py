"""Issue 41.4: `simdom doubles` on a sweep over a rule and a seat's hold:until=K answers once per rules
variant, each with its own bonus column; FOLDER:ARM1,ARM2 selects several arms (the first the baseline)."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

SCENARIO = """name = "dbl"
players = 4
policies = "greedy"
rotation = true
deals = 800
seed = 3
[rules]
preset = "threes"
[sweep]
first_double_bonus = [[[4, 2], [8, 4], [8]], [[4, 4], [8, 8], [16]]]
policy_0 = ["hold:until=1", "hold:until=9"]
"""
X1, X2 = "first_double_bonus=4.2-8.4-8", "first_double_bonus=4.4-8.8-16"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    from simdom.cli import app
    d = tmp_path_factory.mktemp("dbl")
    (d / "s.toml").write_text(SCENARIO)
    r = CliRunner().invoke(app, ["run", str(d / "s.toml"), "--out", str(d / "r"), "-q", "--workers", "1"])
    assert r.exit_code == 0, r.output
    return d / "r"


def _cli(*args):
    from simdom.cli import app
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "80"})


def test_doubles_answers_each_rules_variant_with_its_own_bonus(folder):
    r = _cli("doubles", folder, "--table", "sweep", "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert len(data) == 2
    (l1, rows1), (l2, rows2) = data.items()
    assert "[4,2]" in l1 and "[4,4]" in l2
    assert [x["arm"] for x in rows1] == [f"{X1}+policy_0=hold.until=1", f"{X1}+policy_0=hold.until=9"]
    assert [x["arm"] for x in rows2] == [f"{X2}+policy_0=hold.until=1", f"{X2}+policy_0=hold.until=9"]
    # the same deals and the same moves (the policies do not weigh the bonus's scale): each bonus doubled
    for a, b in zip(rows1, rows2):
        assert b["bonus_mean"] == pytest.approx(2 * a["bonus_mean"])
        assert a["bonus_mean"] > 0
    text = _cli("doubles", folder).stdout
    assert text.startswith("2 rules variants") and "no double-timing sweep" not in text


def test_selection_of_several_arms_first_is_the_baseline(folder):
    from simdom.stats.read.folder import open_selection
    from simdom.stats.tables.balance import studies, to_json
    arms = [f"{X2}+policy_0=hold.until=1", f"{X1}+policy_0=hold.until=1"]
    res = open_selection(f"{folder}:{','.join(arms)}")
    assert res.arm_names == arms
    card = to_json(studies([f"{folder}:{','.join(arms)}"]))
    assert card["baseline"] == arms[0] and [v["name"] for v in card["variants"]] == arms
    bad = _cli("balance", f"{folder}:{arms[0]},nope")
    assert bad.exit_code == 2 and "no arm 'nope'" in bad.output and len(bad.output.strip().splitlines()) == 1
