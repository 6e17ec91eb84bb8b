"""simdom.present: numbers rounded to their interval, p-values never 0, natural order, 80 columns,
full precision for machines."""
import json
import math
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from simdom import present as P


def test_an_estimate_shows_the_decimals_its_interval_supports():
    assert P.est(0.7234, 0.7112, 0.7398) == "0.72 (0.71-0.74)"
    assert P.est(30.14, 27.9, 32.3) == "30 (27-33)"  # bounds rounded outward: never narrower
    # no "18 [18, 18.01]": a narrow interval gets the decimals that tell its ends apart
    assert P.est(18.004, 17.995, 18.013) == "18.004 (17.995-18.013)"


def test_negative_bounds_are_joined_by_to_not_a_dash():
    assert P.est(-0.72, -0.745, -0.705) == "-0.72 (-0.75 to -0.70)"
    assert P.est(0.05, -0.02, 0.12, signed=True) == "+0.05 (-0.02 to 0.12)"


def test_shares_in_percent_and_sentences_say_95_percent_ci():
    assert P.est(0.2235, 0.2215, 0.2256, pct=True) == "22.4 (22.1-22.6)"
    assert P.ci(0.72, 0.71, 0.74, unit="points per deal") == "0.72 points per deal (95% CI 0.71-0.74)"
    assert P.ci(0.323, 0.317, 0.329, pct=True) == "32.3% (95% CI 31.7-32.9%)"


def test_no_floating_point_noise():
    assert P.num(-1.2e-18) == "0"
    assert P.est(-7.5e-20, -8e-20, 8e-20) != "-7.5e-20"
    assert not P.est(0.0, -1e-20, 1e-20).startswith("-")
    assert P.num(0.25) == "0.250" and P.num(12.7704) == "12.8" and P.num(3.0) == "3"


def test_p_values_are_never_zero_and_undefined_is_na():
    assert P.pval(0.0) == "<1e-16" and P.pval(4e-206) == "<1e-16"
    assert P.pval(float("nan")) == "n/a" and P.pval(None) == "n/a"
    assert P.pval(0.0432) == "0.043" and P.pval(2.3e-5) == "2.3e-05"
    assert P.p_clause(0.0) == "p < 1e-16" and P.p_clause(0.2) == "p = 0.2"


def test_arm_names_in_natural_order():
    names = ["K=13", "K=never", "K=5", "K=1", "K=9"]
    assert P.order(names) == ["K=1", "K=5", "K=9", "K=13", "K=never"]
    assert P.order(names, preferred=["K=never", "K=1"])[:2] == ["K=never", "K=1"]


def _answer():
    rows = [{"arm": f"K={k}", "policy": f"hold:until={k}", "x": 1 / 3 + k, "x_lo": 0.3 + k, "x_hi": 0.37 + k,
             "w": 0.2235, "w_lo": 0.2215, "w_hi": 0.2256, "p": 0.0, "n": 20000} for k in (1, 5, 13)]
    cols = [P.Col("arm"), P.Col("policy"), *[P.Col(c, f"{c} long header", "est") for c in ("x",) * 3],
            P.Col("w", "win %", "pct"), P.Col("p", "p", "p"), P.Col("n", "deals", "int")]
    return P.Answer(["An answer first."], [P.Table("A wide table", rows, cols, 2)], ["a note"])


def test_a_wide_table_is_split_to_fit_80_columns_without_wrapped_or_cut_cells():
    text = P.text(_answer())
    assert text.startswith("An answer first.")
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in text and "A wide table (1/" in text
    assert text.count("K=13") >= 2  # key columns repeated in each part
    assert "<1e-16" in text and "20,000" in text


def test_key_columns_too_wide_for_80_columns_fold_and_every_figure_stays_whole():
    # a search policy's full name and a long arm name leave no room for a figure in 80 columns: the key
    # columns are narrowed and their cells fold (after a comma where they can), the figures are not cut
    name = "search:worlds=256,model=greedy,depth=1,own=defensive,win=40 (0)"
    rows = [{"arm": "search-strong-vs-rollout128", "policy": name, "x": -20.0, "x_lo": -34.0, "x_hi": -6.0},
            {"arm": "greedy", "policy": "greedy (1)", "x": 4.0, "x_lo": -12.0, "x_hi": 20.0}]
    t = P.Table("Long names", rows, [P.Col("arm"), P.Col("policy"), P.Col("x", "Δ points", "diff")], 2)
    text = P.text(P.Answer(["An answer."], [t]))
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in text and "-20 (-34 to -6)" in text and "+4 (-12 to 20)" in text
    i = next(k for k, line in enumerate(lines) if "search-strong-vs-rollout128" in line)
    first, second = lines[i].split()[1], lines[i + 1].split()[0]
    assert first.endswith(",") and first + second == name.split()[0]  # broken after a comma
    assert lines[i + 1].split()[1] == "(0)"
    assert P.fold_lines("abcdefghij", 4) == "abcd\nefgh\nij"  # no comma to break at: at the width
    wide = P.Table("No key column", [{"a": "x" * 120}], [P.Col("a")], 0)  # nothing to narrow: drawn as is
    assert P.text(P.Answer(["An answer."], [wide])).startswith("An answer.")


def test_machines_get_full_precision_json_csv_and_parquet(tmp_path):
    ans = _answer()
    ans.tables[0].rows[0]["x_lo"] = float("nan")
    data = json.loads(P.to_json(ans.machine()))
    assert data[0]["x"] == pytest.approx(1 / 3 + 1, rel=1e-15) and data[0]["x_lo"] is None and data[0]["p"] == 0.0
    csv = P.to_csv(ans.machine()).splitlines()
    assert csv[0].startswith("arm,policy,x,x_lo") and repr(1 / 3 + 1) in csv[1]
    P.emit(ans, "parquet", tmp_path / "t.parquet")
    t = pq.read_table(tmp_path / "t.parquet").to_pylist()
    assert t[0]["x"] == 1 / 3 + 1 and t[0]["x_lo"] is None and t[2]["arm"] == "K=13"
    with pytest.raises(ValueError, match="parquet needs -o"):
        P.emit(ans, "parquet", None)


def test_markdown_is_the_people_view():
    md = P.markdown(_answer())
    assert md.startswith("An answer first.") and "| arm | policy |" in md and "<1e-16" in md


def test_importing_present_imports_neither_polars_nor_numpy():
    code = "import sys, simdom.present; print('polars' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_decimals_for_a_degenerate_interval_is_none():
    assert P.decimals_for(0.25, 0.25) is None and P.est(0.25, 0.25, 0.25, pct=True) == "25"
    assert P.decimals_for(float("nan"), 1.0) is None and not math.isnan(P.decimals_for(0.1, 0.2))


def test_brackets_in_sentences_cells_and_notes_are_printed_as_they_are():
    """Rich markup never eats text: `[[arms]]`, `[last_move, points]`, `[null, 8]` survive."""
    from simdom import present as P
    ans = P.Answer(["see [[arms]] and [last_move, points]"], notes=["[bold]not bold[/]"])
    ans.add(P.Table("t [x]", [{"v": "[[4, 2], [null, 8]]"}], [P.Col("v")]))
    out = P.text(ans)
    for piece in ("[[arms]]", "[last_move, points]", "[[4, 2], [null, 8]]", "[bold]not bold[/]", "t [x]"):
        assert piece in out, piece


def test_an_interval_that_excludes_zero_never_looks_as_if_it_reached_it():
    assert P.est(0.3, 0.004, 0.6) == "0.300 (0.004-0.600)"          # not "0.3 (0.0-0.6)"
    assert P.est(-0.02, -0.05, -0.0004, pct=True) == "-2.00 (-5.00 to -0.04)"
    assert P.est(0.3, 0.0, 0.6) == "0.3 (0.0-0.6)"                  # it does reach 0: as before
    assert P.est(0.3, -0.01, 0.6) == "0.3 (-0.1 to 0.6)"
    assert P.est(0.3, 1e-5, 0.6) == "0.300 (0.000-0.600)"           # two decimals more at most
