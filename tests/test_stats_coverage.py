"""Over repeated synthetic draws, the 95% intervals cover the known truth about 95% of the time."""
import numpy as np
import pytest

from simdom.stats.doubles import detect_sweep, sweep_tables
from simdom.stats.io import open_results
from simdom.stats.tables import stats_table
from synthdata import sweep_spec, truth, write

DRAWS = 60


@pytest.mark.slow
def test_interval_coverage(tmp_path):
    hits = {"mean_points": [], "win_rate": [], "scoring_rate": [], "points_diff": [], "win_diff": []}
    for seed in range(DRAWS):
        spec = sweep_spec(seed=1000 + seed, deals=300)
        path = write(tmp_path / f"r{seed}", spec)
        res = open_results(path)
        t = truth(spec)
        df = stats_table(res, ["arm", "player"])
        for row in df.iter_rows(named=True):
            for name, key in [("mean_points", "points"), ("win_rate", "win"), ("scoring_rate", "scoring_rate")]:
                want = t[row["arm"]][key][row["player"]]
                hits[name].append(row[f"{name}_lo"] <= want <= row[f"{name}_hi"])
        per_k, _ = sweep_tables(res, detect_sweep(res))
        for row in per_k.iter_rows(named=True):
            if row["K"] == "1":
                continue
            for name, key in [("points_diff", "points"), ("win_diff", "win")]:
                want = t[row["arm"]][key][0] - t["K=1"][key][0]
                hits[name].append(row[f"{name}_lo"] <= want <= row[f"{name}_hi"])
    for name, h in hits.items():
        rate = float(np.mean(h))
        # binomial sd of the coverage over len(h) intervals (correlated within a draw, hence 4 sd)
        assert abs(rate - 0.95) < max(0.035, 4 * np.sqrt(0.95 * 0.05 / DRAWS)), (name, rate, len(h))
