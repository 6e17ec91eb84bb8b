"""simdom skill: the relative skill LE / (LE + RE) (simdom/stats/estimate/skill.py, analyze/skill.py)."""
import json

import numpy as np
import pytest

from simdom.stats.estimate.skill import fieller, skill_share, synthetic


def test_point_estimate_on_exact_data():
    b = np.array([1.0, 2.0, 3.0, 4.0])
    est = skill_share(b, b + 3, b + 4)  # LE = 3, RE = 1 on every deal: no variance
    assert (est.learning_effect, est.random_effect, est.skill, est.deals) == (3.0, 1.0, 0.75, 4)
    assert est.skill_lo == pytest.approx(0.75) and est.skill_hi == pytest.approx(0.75)


def test_rotations_are_averaged_within_a_deal():
    b = np.array([[0.0, 2.0], [4.0, 6.0]])
    est = skill_share(b, b + [1.0, 3.0], b + [4.0, 4.0])  # per deal: LE 2, RE 2
    assert est.beginner_value == 3.0 and est.skill == 0.5 and est.deals == 2


@pytest.mark.parametrize("wins", [False, True])
@pytest.mark.parametrize("method", ["fieller", "delta"])
def test_the_interval_covers_the_known_share(wins, method):
    """Synthetic deals with a known LE and RE (deal and seat luck shared, as in a real run): the point
    estimate is near the truth and the 95% interval covers it in about 95% of 600 replications."""
    rng = np.random.default_rng(20)
    le, re = (0.10, 0.15) if wins else (1.5, 3.0)
    truth = le / (le + re)
    est = [skill_share(*synthetic(rng, 300, 2, le, re, wins=wins), method=method) for _ in range(600)]
    s = np.array([e.skill for e in est])
    cover = np.mean([e.skill_lo <= truth <= e.skill_hi for e in est])
    assert abs(np.median(s) - truth) < 0.02
    assert 0.925 <= cover <= 0.975, cover
    assert np.mean([e.learning_effect_lo <= le <= e.learning_effect_hi for e in est]) > 0.92


def test_fieller_is_unbounded_when_the_denominator_may_be_zero():
    rng = np.random.default_rng(1)
    lo, hi = fieller(rng.normal(0, 1, 20), rng.normal(0, 1, 20))
    assert np.isnan(lo) and np.isnan(hi)


def test_bad_arrays_are_refused():
    with pytest.raises(ValueError, match="the same number"):
        skill_share([1.0, 2.0], [1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="method"):
        skill_share([1.0, 2.0], [1.0, 2.0], [1.0, 2.0], method="boot")
