"""The generic checks decide PASS, FAIL and INCONCLUSIVE as specified (DESIGN.md)."""
import math
import numpy as np
import pytest

from dpregret.claims.core import check_bound, check_rate


def test_bound_pass_fail_inconclusive():
    rng = np.random.default_rng(0)
    below = [rng.normal(-5, 1, 50) for _ in range(3)]
    assert check_bound(below, [0.5] * 3, 0.05).verdict == "PASS"
    above = below[:2] + [rng.normal(5, 1, 50)]
    res = check_bound(above, [0.5, 0.5, 2.0], 0.05)
    assert res.verdict == "FAIL" and res.measured == 2.0
    near = [rng.normal(0, 1, 50)]
    assert check_bound(near, [1.0], 0.05).verdict == "INCONCLUSIVE"


def test_bound_monte_carlo_error_widens_interval():
    d = [np.full(30, -1.0) + np.random.default_rng(1).normal(0, 0.01, 30)]
    assert check_bound(d, [0.9], 0.05, bound_se=[0.0]).verdict == "PASS"
    assert check_bound(d, [0.9], 0.05, bound_se=[5.0]).verdict == "INCONCLUSIVE"


def _samples(x, slope, rng, n=40, noise=0.05):
    return [np.exp(rng.normal(0, noise, n)) * xi**slope for xi in x]


@pytest.mark.parametrize("true_slope,verdict", [(0.5, "PASS"), (0.3, "PASS"), (1.0, "FAIL")])
def test_rate_verdicts(true_slope, verdict):
    rng = np.random.default_rng(2)
    x = np.logspace(2, 5, 6)
    res = check_rate(x, _samples(x, true_slope, rng), 0.5, 0.1, 0.05, rng)
    assert res.verdict == verdict
    assert res.ci_low <= true_slope + 0.02 and res.ci_high >= true_slope - 0.02


def test_rate_needs_two_decades_and_four_points():
    rng = np.random.default_rng(3)
    x = np.array([100.0, 200, 400, 800])  # < 2 decades
    assert check_rate(x, _samples(x, 0.5, rng), 0.5, 0.1, 0.05, rng).verdict == "INCONCLUSIVE"
    x = np.array([100.0, 1000, 10000])  # 3 points
    assert check_rate(x, _samples(x, 0.5, rng), 0.5, 0.1, 0.05, rng).verdict == "INCONCLUSIVE"


def test_rate_nonpositive_mean_is_inconclusive():
    rng = np.random.default_rng(4)
    x = np.logspace(2, 4, 4)
    s = _samples(x, 0.5, rng)
    s[1] = -s[1]
    assert check_rate(x, s, 0.5, 0.1, 0.05, rng).verdict == "INCONCLUSIVE"


def test_rate_transform_divides_out_stated_factor():
    rng = np.random.default_rng(5)
    x = np.logspace(3, 5, 5)
    s = [np.log2(xi) ** 2 * np.exp(rng.normal(0, 0.02, 30)) for xi in x]  # pure log^2 growth
    assert check_rate(x, s, 0.0, 0.05, 0.05, rng).verdict == "FAIL"  # log^2 alone looks like a slope
    res = check_rate(x, s, 0.0, 0.05, 0.05, rng, transform=lambda xx, m: m / np.log2(xx) ** 2)
    assert res.verdict == "PASS"


def test_exact_comparison_privacy_kinds():
    from dpregret.claims.core import check_comparison, check_exact, check_privacy
    assert check_exact([], 10).verdict == "PASS"
    assert check_exact(["t=3"], 10).verdict == "FAIL"
    rng = np.random.default_rng(6)
    assert check_comparison(rng.normal(-1, 0.5, 40), 0.05).verdict == "PASS"
    assert check_comparison(rng.normal(1, 0.5, 40), 0.05).verdict == "FAIL"
    assert check_comparison(rng.normal(0, 0.5, 40), 0.05).verdict == "INCONCLUSIVE"
    assert check_privacy(0.8, 0.95, 1.0).verdict == "PASS"
    assert check_privacy(1.3, 0.95, 1.0).verdict == "FAIL"


@pytest.mark.parametrize("n, v, verdict", [(100, 0, "PASS"), (100, 30, "FAIL"), (20, 1, "INCONCLUSIVE")])
def test_coverage_verdicts_and_clopper_pearson_limits(n, v, verdict):
    """The limits are exact binomial: P(Bin(n, hi) <= v) = alpha and P(Bin(n, lo) >= v) = alpha."""
    from scipy import stats

    from dpregret.claims.core import check_coverage

    res = check_coverage(np.arange(n) >= v, 0.05, 0.05)
    assert res.verdict == verdict and res.measured == v / n and res.detail["violations"] == v
    assert math.isclose(stats.binom.cdf(v, n, res.ci_high), 0.05, rel_tol=1e-6)
    if v:
        assert math.isclose(stats.binom.sf(v - 1, n, res.ci_low), 0.05, rel_tol=1e-6)


def test_pass_with_a_passing_control_is_recorded_inconclusive():
    from dpregret.claims.core import Claim, Result, record

    c = Claim("X", "p", "t", "rate", "s", "m", "ctl")
    ok, caught = Result("PASS", 0.5, 0.5, 0.4, 0.6, 0.1), Result("FAIL", 2.0, 0.5, 1.9, 2.1, 0.1)
    assert record(c, ok, caught, scenario="s", env=None, ci_level=0.95)["result"]["verdict"] == "PASS"
    rec = record(c, ok, Result("PASS", 0.5, 0.5, 0.4, 0.6, 0.1), scenario="s", env=None, ci_level=0.95)
    assert rec["result"]["verdict"] == "INCONCLUSIVE" and "uninformative" in rec["result"]["detail"]
    assert ok.verdict == "PASS"  # the caller's result is not mutated
