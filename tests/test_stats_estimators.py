"""Interval estimators against textbook values and simulated truth."""
import numpy as np
import pytest

from simdom.stats.inference import (diff_test, holm, wald_equal, mean_ci, paired_diff_ci, welch,
                                     wilson, wilson_clustered)
from simdom.stats.estimate.moments import influence, se_of


def test_wilson_matches_textbook_value():
    # 8 successes out of 10: Wilson 95% interval is [0.4902, 0.9433]
    lo, hi = wilson(0.8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)


def test_wilson_zero_successes_has_positive_upper_bound():
    lo, hi = wilson(0.0, 100)
    assert lo == 0 and 0.03 < hi < 0.04


def test_wilson_clustered_uses_effective_n_and_is_exact_for_a_fixed_share():
    # se of an iid proportion gives back the plain Wilson interval (t quantile on clusters - 1 df)
    p, n = 0.3, 400
    assert np.allclose(wilson_clustered(p, np.sqrt(p * (1 - p) / n), 10_000), wilson(p, n, df=9_999))
    assert np.allclose(wilson(p, n, df=np.inf), wilson(p, n)) and wilson(p, n, df=20)[0] < wilson(p, n)[0]
    # a proportion fixed by construction (se = 0) has a degenerate interval; one cluster says nothing
    assert wilson_clustered(0.25, 0.0, 1000) == (0.25, 0.25)
    assert wilson_clustered(0.25, float("nan"), 1) == (0.0, 1.0)
    # a share of 0 in 200 clusters: the bound of 0 successes in 200, not in the (many more) rows
    assert wilson_clustered(0.0, 0.0, 200)[1] == pytest.approx(wilson(0.0, 200, df=199)[1])


def test_mean_ci_matches_t_interval():
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    m, lo, hi = mean_ci(x)
    assert m == 3.0 and hi - m == pytest.approx(2.776445 * np.sqrt(2.5 / 5), rel=1e-5)


def test_diff_test_p_value():
    lo, hi, p = diff_test(1.96, 1.0)
    assert p == pytest.approx(0.05, abs=1e-3) and lo == pytest.approx(0.0, abs=1e-3)


def test_a_difference_without_variance_has_no_p_value():
    lo, hi, p = diff_test(np.array([0.0, 0.5]), np.array([0.0, 0.0]))
    assert np.isnan(p).all() and lo[1] == hi[1] == 0.5


def test_holm_adjustment_textbook_example_and_nan_left_out():
    adj = holm([0.01, 0.04, 0.03, 0.005, float("nan")])
    assert np.allclose(adj[:4], [0.03, 0.06, 0.06, 0.02]) and np.isnan(adj[4])
    assert np.allclose(holm([0.5, 0.9]), [1.0, 1.0])  # adjusted p-values keep the raw order


def test_wald_with_two_positions_is_the_squared_paired_t():
    rng = np.random.default_rng(3)
    G = 400
    common = rng.normal(0, 1, G)
    y = np.column_stack([common + rng.normal(0.1, 1, G), common + rng.normal(0, 1, G)])
    r, z = influence(y, np.ones((G, 2)))
    stat, df, p = wald_equal(r, z)
    se = se_of(z[:, [0]] - z[:, [1]])[0]
    assert df == 1 and stat == pytest.approx(((r[0] - r[1]) / se) ** 2, rel=1e-10)
    assert p == pytest.approx(diff_test(r[0] - r[1], se, G - 1)[2], rel=1e-6)  # F(1, G-1) = t(G-1)^2


def test_wald_is_undefined_without_variance():
    r, z = np.array([0.25] * 4), np.zeros((50, 4))
    stat, df, p = wald_equal(r, z)
    assert np.isnan(stat) and np.isnan(p)


def test_paired_interval_narrower_than_unpaired_on_correlated_data():
    rng = np.random.default_rng(0)
    common = rng.normal(0, 5, 3000)                    # the deal: shared by both arms
    a = 30 + common + rng.normal(0, 1, 3000)
    b = 29 + common + rng.normal(0, 1, 3000)           # truth: a - b = 1
    d, lo, hi, _ = paired_diff_ci(a, b)
    du, ulo, uhi, _ = welch(a, b)
    assert lo < 1 < hi and ulo < 1 < uhi
    assert (hi - lo) < 0.3 * (uhi - ulo)


def test_cluster_influence_paired_vs_unpaired():
    # the same comparison on cluster sums, as `simdom doubles` computes it
    rng = np.random.default_rng(1)
    G = 2000
    common = rng.normal(0, 5, G)
    y = np.column_stack([4 * (29 + common) + rng.normal(0, 2, G), 4 * (30 + common) + rng.normal(0, 2, G)])
    n = np.full((G, 2), 4.0)
    r, z = influence(y, n)
    se = se_of(z)
    paired = se_of(z[:, [1]] - z[:, [0]])[0]
    unpaired = np.sqrt(se[0] ** 2 + se[1] ** 2)
    assert r[1] - r[0] == pytest.approx(1.0, abs=4 * paired)
    assert paired < 0.3 * unpaired


@pytest.mark.parametrize("level", [0.8, 0.95, 0.99, 0.999])
def test_t_quantile_matches_scipy_on_both_sides_of_the_expansion(level):
    """Below T_EXPANSION_DF the quantile is scipy's; from it on, the expansion around the normal quantile."""
    from scipy import stats
    from simdom.stats.inference import T_EXPANSION_DF, t_quantile
    for df in (1, 2, 5, 30, T_EXPANSION_DF - 1, T_EXPANSION_DF, 137, 1000, 10**5, 10**9):
        assert t_quantile(df, level) == pytest.approx(stats.t.ppf(0.5 + level / 2, df), rel=1e-8), df
    many = np.array([T_EXPANSION_DF, 500, np.inf])
    np.testing.assert_allclose(t_quantile(many, level), stats.t.ppf(0.5 + level / 2, many), rtol=1e-8)
    assert t_quantile(0, level) == pytest.approx(stats.norm.ppf(0.5 + level / 2), rel=1e-12)  # no df: normal


def test_t_quantile_on_many_clusters_does_not_import_scipy():
    import subprocess
    import sys
    code = ("import sys; from simdom.stats.inference import t_quantile, t_interval; "
            "t_interval(1.0, 0.1, 40000); print(round(float(t_quantile(40000)), 6), 'scipy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1.960023", "False"]  # scipy: t.ppf(0.975, 40000) = 1.960023


def test_a_share_with_no_event_is_bounded_exactly_on_the_deals_so_bounds_grow_with_the_count():
    """Issue 22 item 6: 0 first doubles at one move and 1 at the next, in 50,000 deals clustered in ~4,166
    blocks. The zero was bounded on the blocks (0.092%), above the one (0.0113%); now it is the exact
    Clopper-Pearson bound on the 50,000 deals, 1 - 0.025^(1/50000), below the one's."""
    import polars as pl

    from simdom.stats.estimate.distribution import value_shares
    from simdom.stats.inference import clopper_pearson_none
    n = 50_000
    move = np.full(n, 5)
    move[7] = 7  # one deal at move 7, none at move 6
    lf = pl.LazyFrame({"arm": ["a"] * n, "deal": np.arange(n), "move": move})
    df = value_shares(lf, ["arm"], "move", block=12, step=1).sort("move")
    assert df["move"].to_list() == [5, 6, 7] and df["rows"].to_list() == [n - 1, 0, 1]
    zero, one = df.row(1, named=True), df.row(2, named=True)
    assert zero["share_lo"] == 0 and zero["share_hi"] == pytest.approx(1 - 0.025 ** (1 / n), rel=1e-12)
    assert zero["share_hi"] < one["share_hi"] and zero["share_hi"] == pytest.approx(3.689 / n, rel=1e-3)
    # and in general: no event in N units is bounded below one event in N units, for every N
    N = np.array([1, 2, 10, 100, 4166, 50_000, 1e7])
    assert np.all(clopper_pearson_none(N) < wilson(1 / N, N)[1])
    assert np.all(np.diff(clopper_pearson_none(N)) < 0)
