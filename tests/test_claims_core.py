"""The generic checks decide PASS, FAIL and INCONCLUSIVE as specified (the verdict rule: dpregret.verdict.core)."""
import math
import numpy as np
import pytest

from dpregret.verdict.core import check_bound, check_rate
from margins import assert_clear, assert_verdict


def test_bound_pass_fail_inconclusive():
    rng = np.random.default_rng(0)
    below = [rng.normal(-5, 1, 50) for _ in range(3)]
    assert_verdict(check_bound(below, [0.5] * 3, 0.05), "PASS")
    above = below[:2] + [rng.normal(5, 1, 50)]
    res = check_bound(above, [0.5, 0.5, 2.0], 0.05)
    assert_verdict(res, "FAIL")
    assert res.measured == 2.0
    x = rng.normal(0, 1, 25)
    near = [np.concatenate([x, -x])]  # mean 0 exactly, symmetric: the bound at the interval's centre
    assert_verdict(check_bound(near, [1.0], 0.05), "INCONCLUSIVE", k=0.9)


def test_bound_monte_carlo_error_widens_interval():
    d = [np.full(30, -1.0) + np.random.default_rng(1).normal(0, 0.01, 30)]
    assert_verdict(check_bound(d, [0.9], 0.05, bound_se=[0.0]), "PASS")
    assert_verdict(check_bound(d, [0.9], 0.05, bound_se=[5.0]), "INCONCLUSIVE")


def _samples(x, slope, rng, n=40, noise=0.05):
    return [np.exp(rng.normal(0, noise, n)) * xi**slope for xi in x]


@pytest.mark.parametrize("true_slope,verdict", [(0.5, "PASS"), (0.3, "PASS"), (1.0, "FAIL")])
def test_rate_verdicts(true_slope, verdict):
    rng = np.random.default_rng(2)
    x = np.logspace(2, 5, 6)
    res = check_rate(x, _samples(x, true_slope, rng), 0.5, 0.1, 0.05, rng)
    assert_verdict(res, verdict)
    # the CI, widened by 0.02, holds the true slope, at least half its half-width from either end
    assert_clear(res.ci_low - 0.02, res.ci_high + 0.02, true_slope, "inside", k=0.5, what="slope CI +- 0.02")


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
    assert_verdict(check_rate(x, s, 0.0, 0.05, 0.05, rng), "FAIL")  # log^2 alone looks like a slope
    res = check_rate(x, s, 0.0, 0.05, 0.05, rng, transform=lambda xx, m: m / np.log2(xx) ** 2)
    assert_verdict(res, "PASS")


def test_exact_comparison_privacy_kinds():
    from dpregret.verdict.core import check_comparison, check_exact, check_privacy
    assert check_exact([], 10).verdict == "PASS"
    assert check_exact(["t=3"], 10).verdict == "FAIL"
    rng = np.random.default_rng(6)
    assert_verdict(check_comparison(rng.normal(-1, 0.5, 40), 0.05), "PASS")
    assert_verdict(check_comparison(rng.normal(1, 0.5, 40), 0.05), "FAIL")
    x = rng.normal(0, 0.5, 20)
    assert_verdict(check_comparison(np.concatenate([x, -x]), 0.05), "INCONCLUSIVE", k=0.9)  # mean 0: centred
    assert check_privacy(0.8, 0.95, 1.0).verdict == "PASS"
    assert check_privacy(1.3, 0.95, 1.0).verdict == "FAIL"


@pytest.mark.parametrize("n, v, verdict", [(100, 0, "PASS"), (100, 30, "FAIL"), (20, 1, "INCONCLUSIVE")])
def test_coverage_verdicts_and_clopper_pearson_limits(n, v, verdict):
    """The limits are exact binomial: P(Bin(n, hi) <= v) = alpha and P(Bin(n, lo) >= v) = alpha."""
    from scipy import stats

    from dpregret.verdict.core import check_coverage

    res = check_coverage(np.arange(n) >= v, 0.05, 0.05)
    assert res.verdict == verdict and res.measured == v / n and res.detail["violations"] == v
    assert math.isclose(stats.binom.cdf(v, n, res.ci_high), 0.05, rel_tol=1e-6)
    if v:
        assert math.isclose(stats.binom.sf(v - 1, n, res.ci_low), 0.05, rel_tol=1e-6)


@pytest.mark.parametrize("control_verdict", ["PASS", "INCONCLUSIVE"])
def test_pass_whose_control_is_not_caught_is_recorded_inconclusive(control_verdict):
    """The verdict rule: PASS needs the check to pass AND the primary control to be caught."""
    from dpregret.verdict.core import Claim, Result, record

    c = Claim("X", "p", "t", "rate", "s", "m", "ctl")
    ok = Result("PASS", 0.5, 0.5, 0.4, 0.6, 0.1)
    rec = record(c, ok, Result(control_verdict, 0.5, 0.5, 0.4, 0.7, 0.1), scenario="s", env=None, ci_level=0.95)
    assert rec["result"]["verdict"] == "INCONCLUSIVE" and "control_not_caught" in rec["result"]["detail"]
    assert rec["evidence"] == "control not caught" and rec["control_caught"] is False
    assert ok.verdict == "PASS"  # the caller's result is not mutated


def test_pass_with_caught_control_records_margin_and_secondaries():
    from dpregret.verdict.core import Claim, check_rate, record

    rng = np.random.default_rng(5)
    x = np.logspace(2, 5, 6)
    res = check_rate(x, _samples(x, 0.5, rng), 0.5, 0.1, 0.05, rng)
    ctl = check_rate(x, _samples(x, 0.9, rng), 0.5, 0.1, 0.05, rng)
    straw = check_rate(x, _samples(x, 1.0, rng), 0.5, 0.1, 0.05, rng)
    c = Claim("X", "p", "t", "rate", "s", "m", "exponent 0.9", secondary="linear")
    assert_verdict(res, "PASS")
    assert_verdict(ctl, "FAIL")
    assert_verdict(straw, "FAIL")
    rec = record(c, res, ctl, secondary={"linear": straw}, scenario="s", env=None, ci_level=0.95)
    assert rec["result"]["verdict"] == "PASS" and rec["evidence"] == "near miss caught"
    # the margin is the lower limit's distance past exponent + tol, in interval widths
    assert rec["control_margin"] == pytest.approx((ctl.ci_low - 0.6) / (ctl.ci_high - ctl.ci_low))
    assert rec["control_margin"] > 0 and rec["secondary_results"]["linear"]["caught"] is True
    gross = record(Claim("X", "p", "t", "rate", "s", "m", "linear", near_miss=False), res, straw,
                   scenario="s", env=None, ci_level=0.95)
    assert gross["result"]["verdict"] == "PASS" and gross["evidence"] == "catches only gross errors"


def test_fail_stays_fail_whatever_the_control():
    from dpregret.verdict.core import Claim, Result, record

    c = Claim("X", "p", "t", "bound", "s", "m", "ctl")
    bad = Result("FAIL", 2.0, 1.0, 0.5, 1.5, 0.0)
    for cv in ("PASS", "FAIL", "INCONCLUSIVE"):
        rec = record(c, bad, Result(cv, 0, 0, 0, 0, 0), scenario="s", env=None, ci_level=0.95)
        assert rec["result"]["verdict"] == "FAIL"


def test_non_finite_metric_is_a_fail_with_reason_and_a_diverged_control_is_not_caught():
    from dpregret.verdict.core import Claim, check_bound, check_comparison, check_rate, record

    rng = np.random.default_rng(6)
    x = np.logspace(2, 5, 6)
    good = _samples(x, 0.5, rng)
    blown = good[:-1] + [np.array([1.0, np.inf, np.nan] + [1.0] * 37)]
    r = check_rate(x, blown, 0.5, 0.1, 0.05, rng)
    assert r.verdict == "FAIL" and "2 of 40 replicates" in r.detail["diverged"]
    assert check_bound([np.array([-1.0, np.nan])], [0.5], 0.05).verdict == "FAIL"
    assert check_comparison(np.array([-1.0, -np.inf, -2.0]), 0.05).verdict == "FAIL"
    ok = check_rate(x, good, 0.5, 0.1, 0.05, rng)
    assert_verdict(ok, "PASS")
    rec = record(Claim("X", "p", "t", "rate", "s", "m", "ctl"), ok, r, scenario="s", env=None, ci_level=0.95)
    assert rec["result"]["verdict"] == "INCONCLUSIVE" and rec["control_caught"] is False
    assert "diverged" in rec["result"]["detail"]["control_not_caught"]


def test_vacuous_points_decide_nothing():
    rng = np.random.default_rng(7)
    below = [rng.normal(-5, 1, 20), rng.normal(-5, 1, 20)]
    above = rng.normal(5, 1, 20)  # a violation at a point whose bound is vacuous cannot happen; here it tests the split
    res = check_bound(below + [above], [0.5, 0.5, 2.0], 0.05, labels=["a", "b", "c"], vacuous=[False, False, True])
    assert_verdict(res, "PASS")
    assert res.detail["vacuous_points"] == ["c"] and res.detail["points"] == ["a", "b"]
    assert res.detail["alpha_per_point"] == 0.05 / 2  # Bonferroni over the deciding points only
    allv = check_bound(below, [0.5, 0.5], 0.05, vacuous=[True, True])
    assert allv.verdict == "INCONCLUSIVE" and "vacuous" in allv.detail["reason"]


def test_not_in_regime_is_never_pass():
    from dpregret.verdict.core import Result, not_in_regime
    r = Result("PASS", 0.5, 0.5, 0.4, 0.6, 0.1, {"margin": 1.0})
    out = not_in_regime(r, "privacy cost is 3% of the regret", {"cost_share": 0.03})
    assert out.verdict == "INCONCLUSIVE"
    assert out.detail["verdict_in_window"] == "PASS"
    assert out.detail["regime_numbers"] == {"cost_share": 0.03}
    assert "not in the regime" in out.detail["not_in_regime"]
    assert r.verdict == "PASS"  # the input is not modified


def test_samples_by_and_paired_gap():
    import pandas as pd

    from dpregret.verdict.core import paired_gap, samples_by

    df = pd.DataFrame({"alg": ["a", "none", "a", "none", "a", "none"], "T": [10, 10, 10, 10, 100, 100],
                       "replicate": [1, 1, 0, 0, 0, 0], "regret": [5.0, 1.0, 7.0, 2.0, 9.0, 4.0]})
    xs, s = samples_by(df[df.alg == "a"], "T")
    assert xs.tolist() == [10.0, 100.0] and [v.tolist() for v in s] == [[7.0, 5.0], [9.0]]  # by replicate
    xs2, s2 = samples_by(df[df.alg == "a"], "T", close=True)
    assert xs2.tolist() == xs.tolist() and [v.tolist() for v in s2] == [v.tolist() for v in s]
    g = paired_gap(df, ["T", "replicate"], alg="a", base_as="b")  # rows of "a", df's order
    assert g.gap.tolist() == [4.0, 5.0, 5.0] and g.b.tolist() == [1.0, 2.0, 4.0]
    every = paired_gap(df.rename(columns={"alg": "algorithm"}), ["T", "replicate"], by="algorithm", out="value")
    assert every.value.tolist() == [4.0, 0.0, 5.0, 0.0, 5.0, 0.0] and every.index.tolist() == list(range(6))
    with pytest.raises(ValueError):  # one base row per keys
        paired_gap(df, ["T"])


# --- run-wide control of false FAILs (dpregret.verdict.core: FAIL_LEVEL) ---------------------------------

def _recorded(result):
    from dpregret.verdict.core import Claim, Result, apply_rule

    claim = Claim("X-1", "AS17", "Thm 0", "comparison", "s", "m", "c")
    control = Result("FAIL", 1.0, 0.0, 0.5, 1.5, 0.0, {"margin": 1.0})
    return apply_rule(claim, result, control)[0]


def test_a_clear_fail_is_confirmed_at_the_run_wide_level():
    from dpregret.verdict.core import check_comparison

    d = np.random.default_rng(1).normal(1.0, 1.0, 400)  # mean 1, se 0.05: 20 standard errors past 0
    res = check_comparison(d, 0.05)
    assert res.verdict == "FAIL" and res.detail["fail_confirmed"] is True
    assert _recorded(res).verdict == "FAIL"


def test_a_flag_at_the_claims_level_alone_is_not_a_fail():
    """3 standard errors past the threshold: FAIL at alpha = 0.05 (t quantile ~1.98), not at the
    run-wide one-sided 5e-4 (~3.4): recorded INCONCLUSIVE with the reason."""
    from dpregret.verdict.core import check_comparison

    d = np.random.default_rng(2).normal(0.0, 1.0, 100)
    d = (d - d.mean()) / d.std(ddof=1) + 3.0 / np.sqrt(100)  # exactly 3 se above 0
    res = check_comparison(d, 0.05)
    assert res.verdict == "FAIL" and res.detail["fail_confirmed"] is False
    rec = _recorded(res)
    assert rec.verdict == "INCONCLUSIVE" and "not confirmed at the run-wide level" in rec.detail["fail_not_confirmed"]


def test_false_fail_rate_on_null_data_is_the_run_wide_level_not_alpha():
    """4000 null comparisons (true mean exactly at the threshold): about alpha / 2 = 2.5% are flagged,
    the recorded FAILs are at the run-wide level 5e-4 (expected 2; 12 or more has probability < 1e-5)."""
    from dpregret.verdict.core import FAIL_LEVEL, check_comparison

    rng = np.random.default_rng(3)
    flagged = recorded = 0
    for _ in range(4000):
        res = check_comparison(rng.normal(0.0, 1.0, 30), 0.05)
        flagged += res.verdict == "FAIL"
        recorded += _recorded(res).verdict == "FAIL"
    assert 60 <= flagged <= 150  # Binomial(4000, 0.025): mean 100, sd 10
    assert recorded <= 11 and FAIL_LEVEL == 5e-4


def test_a_rate_fail_is_confirmed_by_its_bootstrap_spread():
    rng = np.random.default_rng(4)
    x = np.array([100, 300, 1000, 3000, 10000], float)
    steep = [x_ ** 1.0 * rng.lognormal(0, 0.05, 64) for x_ in x]
    res = check_rate(x, steep, 0.5, 0.1, 0.05, np.random.default_rng(5))
    assert res.verdict == "FAIL" and res.detail["fail_confirmed"] is True


def test_a_pass_whose_non_learner_passes_too_is_inconclusive():
    from dpregret.verdict.core import (Claim, Result, apply_rule, attach_nonlearner_record, record, with_learning_gate,
                                      with_nonlearner)

    claim = Claim("X-rate", "p.pdf", "Thm 1", "rate", "s", "regret", "half noise")
    ok = Result("PASS", 0.5, 0.5, 0.45, 0.55, 0.1, {"margin": -2.0})
    caught = Result("FAIL", 1.0, 0.5, 0.9, 1.1, 0.1, {"margin": 1.5})
    passes = Result("PASS", 0.4, 0.5, 0.35, 0.45, 0.1, {"margin": -3.0})
    assert apply_rule(claim, with_nonlearner(ok, "frozen", caught), caught)[0].verdict == "PASS"
    res, ev = apply_rule(claim, with_nonlearner(ok, "frozen", passes), caught)
    assert (res.verdict == "INCONCLUSIVE" and "frozen" in res.detail["nonlearner_passes"] and ev
            == "a non-learner is not caught")
    # a paired claim: the learner's own learning gate must pass, else a cost of 0 says nothing
    gated = with_learning_gate(with_nonlearner(ok, "frozen", caught), passes)
    assert apply_rule(claim, gated, caught)[0].verdict == "PASS"
    res, _ = apply_rule(claim, with_learning_gate(with_nonlearner(ok, "frozen", caught), caught), caught)
    assert res.verdict == "INCONCLUSIVE" and "learning_not_shown" in res.detail
    # a FAIL is not touched by the non-learner
    assert apply_rule(claim, with_nonlearner(caught, "frozen", passes), caught)[0].verdict == "FAIL"
    # the record's account, and the door's record attached afterwards
    rec = record(claim, ok, caught, scenario="s", env=None, ci_level=0.95)
    assert (rec["learner_claim"], rec["nonlearner"], rec["result"]["verdict"]) == (True, "", "PASS")
    nl_rec = record(claim, passes, caught, scenario="s", env="learner-nonlearner_oco", ci_level=0.95)
    both = attach_nonlearner_record(rec, nl_rec)
    assert (both["nonlearner"], both["nonlearner_verdict"],
            both["nonlearner_caught"]) == ("nonlearner_oco", "PASS", False)
    assert both["result"]["verdict"] == "INCONCLUSIVE"
    nl_rec = record(claim, caught, caught, scenario="s", env="learner-nonlearner_oco", ci_level=0.95)
    assert attach_nonlearner_record(rec, nl_rec)["result"]["verdict"] == "PASS"
    # a gated claim decided for the non-learner: a cost of 0 passes, the gate catches it
    nl_rec = record(claim, with_learning_gate(ok, caught), caught, scenario="s",
                    env="learner-nonlearner_oco", ci_level=0.95)
    both = attach_nonlearner_record(rec, nl_rec)
    assert (both["nonlearner_caught"], both["result"]["verdict"]) == (True, "PASS")


# --- LOOSE: a bound that holds with more slack than any near miss could cross -------------------

def _symmetric(mean, n_half=4, scale=1.0):
    """Deterministic symmetric replicates around ``mean`` (skewness 0, no value past Tukey's fences):
    the bound check's lower limit is then exactly the t limit ``mean - t_{n-1} s / sqrt(n)``."""
    x = scale * np.arange(1, n_half + 1, dtype=float)
    return mean + np.concatenate([x, -x])


def test_detectable_factor_is_the_largest_scale_of_the_bound_that_would_be_caught():
    """Known answer: B = 10 at one point, metric - B symmetric about -3 (n = 8, s^2 = 60/7), so the
    lower limit at level alpha is -3 - t_7 s / sqrt(8) and the bound x c is caught for every
    c < c* = 1 + lower limit / 10; over several points the largest c* counts, at the Bonferroni
    level of the deciding points, vacuous points left out; without ``bounds`` mean(B) is derived
    from the ratios and gives the same factor."""
    from scipy import stats

    from dpregret.verdict.intervals import confidence_limits

    d = _symmetric(-3.0)
    lo = -3.0 - stats.t.ppf(1 - 0.05, 7) * np.sqrt(60 / 7) / np.sqrt(8)
    res = check_bound([d], [7.0 / 10.0], 0.05, bounds=[10.0])
    assert res.verdict == "PASS" and res.detail["detectable_factor"] == pytest.approx(1 + lo / 10, abs=1e-12)
    # metric 7 vs bound 10: ratio 0.7, c* 0.504
    assert res.detail["detectable_factor"] == pytest.approx(0.5039, abs=1e-4)
    # the defining property: at c* the lower limit of mean(metric - c* B) is exactly 0
    c = res.detail["detectable_factor"]
    assert confidence_limits(d + (1 - c) * 10.0, 0.05)[0] == pytest.approx(0.0, abs=1e-12)
    # derived from the ratios when no bounds are passed: the same number
    derived = check_bound([d], [0.7], 0.05)
    assert derived.detail["detectable_factor"] == pytest.approx(c, abs=1e-12)
    assert derived.detail["detectable_factor_from"].startswith("derived")
    # three points (alpha / 3 each), one vacuous: the largest factor over the two deciding points
    d2 = _symmetric(-50.0, scale=0.5)  # metric 50 vs bound 100: ratio 0.5, narrow
    res = check_bound([d, d2, _symmetric(-1.0)], [0.7, 0.5, 0.999], 0.05, labels=["a", "b", "v"],
                      vacuous=[False, False, True], bounds=[10.0, 100.0, 1000.0])
    q = stats.t.ppf(1 - 0.05 / 2, 7)
    want = {"a": 1 + (-3.0 - q * np.sqrt(60 / 7) / np.sqrt(8)) / 10,
            "b": 1 + (-50.0 - q * 0.5 * np.sqrt(60 / 7) / np.sqrt(8)) / 100}
    assert res.detail["detectable_factor_point"] == "b"  # 0.488 at b beats 0.455 at a
    assert res.detail["detectable_factor"] == pytest.approx(max(want.values()), abs=1e-12)


def test_detectable_factor_with_the_bounds_monte_carlo_error():
    """With a Monte Carlo error on B the scaled bound's error is c x bse: the factor is the root."""
    from dpregret.verdict.core import detectable_factor
    from dpregret.verdict.intervals import confidence_limits

    d = _symmetric(-3.0)
    c0, c = detectable_factor(d, 10.0, 0.05), detectable_factor(d, 10.0, 0.05, bound_se=0.5)
    assert c < c0  # the Monte Carlo error widens the limit: a larger slip is needed to be caught
    assert confidence_limits(d + (1 - c) * 10.0, 0.05, c * 0.5)[0] == pytest.approx(0.0, abs=1e-7)
    assert np.isnan(detectable_factor(d, 0.0, 0.05)) and np.isnan(detectable_factor(d, -1.0, 0.05))
    # ratio 1 at a point: mean(B) cannot be derived there (NaN), the other point decides
    res = check_bound([d, _symmetric(-2.0)], [1.0, 0.8], 0.05, labels=["x", "y"])
    assert res.detail["detectable_factor_point"] == "y" and np.isfinite(res.detail["detectable_factor"])


def _bound_claim():
    from dpregret.verdict.core import Claim
    return Claim("X-bound", "p.pdf", "Thm 1", "bound", "s", "regret / bound", "the bound halved")


def _loose_result(search="the worst of 12 adversaries (periodic, switching, stochastic) x 4 horizons"):
    """A bound check far below its bound at every point (deterministic data: PASS by 10+ widths)."""
    res = check_bound([_symmetric(-30.0), _symmetric(-60.0)], [0.7, 0.4], 0.05, labels=["T=10", "T=100"],
                      bounds=[100.0, 100.0])
    assert_verdict(res, "PASS", k=3)
    if search is not None:
        res.detail["worst_case_search"] = search
    return res


def test_a_bound_passing_with_uncaught_control_is_loose_only_with_its_worst_case_search():
    from dpregret.verdict.core import NO_SEARCH, Result, record
    from dpregret.pipeline.report.tables import undecided_reason

    ctl = check_bound([_symmetric(-20.0)], [0.6], 0.05)  # the near miss stays below its bound too
    assert_verdict(ctl, "PASS", k=3)
    rec = record(_bound_claim(), _loose_result(), ctl, scenario="s", env=None, ci_level=0.95)
    r = rec["result"]
    assert r["verdict"] == "LOOSE" and rec["evidence"] == "bound holds, near miss cannot be caught"
    assert rec["worst_case_search"].startswith("the worst of 12") and rec["control_caught"] is False
    assert rec["detectable_factor"] == r["detail"]["detectable_factor"] < 0.7  # below the max ratio
    assert "max ratio 0.7" in r["detail"]["loose"] and "worst case searched over" in r["detail"]["loose"]
    assert undecided_reason(rec) == r["detail"]["loose"]
    # no worst-case search recorded: INCONCLUSIVE with that reason (the claim's own account after it)
    bare = _loose_result(search=None)
    bare.detail["numbered_reason"] = "1. loose"
    rec = record(_bound_claim(), bare, ctl, scenario="s", env=None, ci_level=0.95)
    assert rec["result"]["verdict"] == "INCONCLUSIVE" and rec["worst_case_search"] == ""
    assert rec["result"]["detail"]["loose_refused"].startswith(NO_SEARCH)
    assert undecided_reason(rec).startswith("control not caught; no worst-case search recorded")
    assert undecided_reason(rec).endswith("-- 1. loose")
    # an empty string is no search
    rec = record(_bound_claim(), _loose_result(search="  "), ctl, scenario="s", env=None, ci_level=0.95)
    assert rec["result"]["verdict"] == "INCONCLUSIVE"
    # the control caught: a plain PASS, search or not
    caught = check_bound([_symmetric(+20.0)], [1.3], 0.05)
    assert_verdict(caught, "FAIL", k=3)
    for search in (None, "a family"):
        rec = record(_bound_claim(), _loose_result(search), caught, scenario="s", env=None, ci_level=0.95)
        assert rec["result"]["verdict"] == "PASS" and rec["evidence"] == "near miss caught"
    # the factor unknown (no positive mean(B) found): INCONCLUSIVE
    unknown = _loose_result()
    unknown.detail["detectable_factor"] = float("nan")
    rec = record(_bound_claim(), unknown, ctl, scenario="s", env=None, ci_level=0.95)
    assert (rec["result"]["verdict"] == "INCONCLUSIVE"
            and "detectable factor is unknown" in rec["result"]["detail"]["loose_refused"])
    # a diverged control is not slack: INCONCLUSIVE as before
    blown = check_bound([np.array([1.0, np.inf])], [0.5], 0.05)
    rec = record(_bound_claim(), _loose_result(), blown, scenario="s", env=None, ci_level=0.95)
    assert rec["result"]["verdict"] == "INCONCLUSIVE" and "diverged" in rec["result"]["detail"]["control_not_caught"]
    # a rate is never LOOSE, whatever its detail says
    from dpregret.verdict.core import Claim
    rate = Result("PASS", 0.5, 0.5, 0.4, 0.6, 0.1, {"margin": -2.0, "worst_case_search": "a family"})
    rec = record(Claim("X-rate", "p", "t", "rate", "s", "m", "c"), rate, Result("PASS", 0.5, 0.5, 0.4, 0.6, 0.1),
                 scenario="s", env=None, ci_level=0.95)
    assert rec["result"]["verdict"] == "INCONCLUSIVE" and "loose_refused" not in rec["result"]["detail"]
    assert np.isnan(rec["detectable_factor"])


def test_undecidable_bound_data_stay_inconclusive_even_with_a_worst_case_search():
    """LOOSE needs the bound to hold at every non-vacuous point: data straddling it, or a bound
    vacuous at every point (it decides nothing), stay INCONCLUSIVE with their reason."""
    from dpregret.verdict.core import record
    from dpregret.pipeline.report.tables import undecided_reason

    ctl = check_bound([_symmetric(-20.0)], [0.6], 0.05)
    straddle = check_bound([_symmetric(0.0)], [1.0], 0.05, bounds=[100.0])
    assert_verdict(straddle, "INCONCLUSIVE", k=0.9)
    allv = check_bound([_symmetric(-30.0), _symmetric(-60.0)], [0.7, 0.4], 0.05, vacuous=[True, True],
                       bounds=[100.0, 100.0])
    assert allv.verdict == "INCONCLUSIVE" and np.isnan(allv.detail["detectable_factor"])
    for res in (straddle, allv):
        res.detail["worst_case_search"] = "a family"
        rec = record(_bound_claim(), res, ctl, scenario="s", env=None, ci_level=0.95)
        assert rec["result"]["verdict"] == "INCONCLUSIVE" and "loose" not in rec["result"]["detail"]
    assert undecided_reason(rec) == "the bound is vacuous (at or above the trivial maximum) at every grid point"


def test_a_loose_bound_whose_non_learner_passes_too_is_inconclusive():
    from dpregret.verdict.core import Result, apply_rule, attach_nonlearner_record, record, with_nonlearner

    ctl = check_bound([_symmetric(-20.0)], [0.6], 0.05)
    frozen_passes = Result("PASS", 0.9, 1.0, -5.0, -1.0, 0.0, {"margin": -2.0})
    frozen_caught = Result("FAIL", 1.5, 1.0, 1.0, 5.0, 0.0, {"margin": 1.0})
    res, ev = apply_rule(_bound_claim(), with_nonlearner(_loose_result(), "frozen", frozen_passes), ctl)
    assert res.verdict == "INCONCLUSIVE" and "nonlearner_passes" in res.detail and ev == "a non-learner is not caught"
    assert apply_rule(_bound_claim(), with_nonlearner(_loose_result(), "frozen", frozen_caught),
                      ctl)[0].verdict == "LOOSE"
    # the door's non-learner record attached afterwards re-decides a LOOSE record, never a FAIL
    rec = record(_bound_claim(), _loose_result(), ctl, scenario="s", env=None, ci_level=0.95)
    nl = record(_bound_claim(), _loose_result(), ctl, scenario="s", env="learner-nonlearner_oco", ci_level=0.95)
    both = attach_nonlearner_record(rec, nl)
    assert (both["result"]["verdict"], both["nonlearner_caught"]) == ("INCONCLUSIVE", False)
    failed_rec = record(_bound_claim(), Result("FAIL", 2.0, 1.0, 0.5, 1.5, 0.0), ctl, scenario="s", env=None,
                        ci_level=0.95)
    assert attach_nonlearner_record(failed_rec, nl)["result"]["verdict"] == "FAIL"


def test_a_loose_bound_whose_twin_is_not_caught_is_recorded_blind_to_tuning():
    """LOOSE stays LOOSE with a twin the slack hides, and its record says it is blind to tuning, with the
    twin's numbers; a caught twin adds nothing."""
    from dpregret.verdict.core import Result, record, with_twin

    ctl = check_bound([_symmetric(-20.0)], [0.6], 0.05)
    hidden = Result("PASS", 0.8, 1.0, -4.0, -2.0, 0.0, {"margin": -1.0})
    caught = Result("FAIL", 1.6, 1.0, 1.0, 3.0, 0.0, {"margin": 1.0})
    rec = record(_bound_claim(), with_twin(_loose_result(), "eta x 2", hidden, "w"), ctl, scenario="s", env=None,
                 ci_level=0.95)
    assert rec["result"]["verdict"] == "LOOSE" and rec["twin_caught"] is False
    assert rec["twin_blind"].startswith("blind to tuning: the mis-tuned twin (eta x 2)") and "0.8" in rec["twin_blind"]
    rec = record(_bound_claim(), with_twin(_loose_result(), "eta x 2", caught, "w"), ctl, scenario="s", env=None,
                 ci_level=0.95)
    assert rec["result"]["verdict"] == "LOOSE" and rec["twin_caught"] is True and rec["twin_blind"] == ""


def test_a_coverage_bound_is_loose_with_its_worst_ratio_and_coverage_detectable_factor():
    """A high-probability bound (kind coverage) met by every run with slack: its detectable factor is the
    k-th largest ratio, k the fewest violations of n runs that Clopper-Pearson puts above delta; LOOSE
    (with the search) reports the worst ratio from detail, not the violation rate (deterministic data)."""
    from dpregret.verdict.core import Claim, apply_rule, check_coverage, coverage_detectable_factor

    ratios = np.linspace(0.01, 0.3, 64)  # subopt / bound of 64 runs
    c, k = coverage_detectable_factor(ratios, 0.05, 0.05)
    assert 1 < k < 64 and c == np.sort(ratios)[::-1][k - 1]
    assert check_coverage(ratios <= c * (1 - 1e-9), 0.05, 0.05).verdict == "FAIL"  # k runs violate c x bound: caught
    assert check_coverage(ratios <= c * (1 + 1e-9), 0.05, 0.05).verdict != "FAIL"  # k - 1 do not
    claim = Claim("X-cov", "p.pdf", "Thm 1", "coverage", "s", "violations", "the constant halved")
    res = check_coverage(ratios <= 1.0, 0.05, 0.05)
    ctl = check_coverage(2 * ratios <= 1.0, 0.05, 0.05)
    assert res.verdict == ctl.verdict == "PASS"
    assert apply_rule(claim, res, ctl)[0].verdict == "INCONCLUSIVE"  # no slack recorded: not a bound check
    res.detail.update({"worst_ratio": 0.3, "worst_ratio_point": "run 63", "detectable_factor": c,
                       "detectable_factor_point": f"run {64 - k}"})
    refused = apply_rule(claim, res, ctl)[0]
    assert refused.verdict == "INCONCLUSIVE" and "no worst-case search" in refused.detail["loose_refused"]
    res.detail["worst_case_search"] = {"family": "the runs' member at both T", "max_ratio": 0.3}
    loose = apply_rule(claim, res, ctl)[0]
    assert loose.verdict == "LOOSE" and "max ratio 0.3 (at run 63)" in loose.detail["loose"]
    assert f"the bound x {c:.3g} would be caught" in loose.detail["loose"]
    c1, k1 = coverage_detectable_factor([0.5], 0.05, 0.05)  # one run: even 1 violation of 1 is not caught
    assert np.isnan(c1) and k1 == 0


# --- the mis-tuned twin, gross controls and a search that reaches the control --------------------

def test_a_pass_whose_mis_tuned_twin_passes_too_is_blind_to_tuning():
    from dpregret.verdict.core import Claim, Result, apply_rule, blind_to_tuning, record, with_twin

    claim = Claim("X-rate", "p.pdf", "Thm 1", "rate", "s", "regret", "half noise")
    ok = Result("PASS", 0.5, 0.5, 0.45, 0.55, 0.1, {"margin": -2.0})
    caught = Result("FAIL", 1.0, 0.5, 0.9, 1.1, 0.1, {"margin": 1.5})
    passes = Result("PASS", 0.55, 0.5, 0.5, 0.58, 0.1, {"margin": -0.5})
    res, ev = apply_rule(claim, with_twin(ok, "eta x T^(1/4)", caught, "step one notch off"), caught)
    assert res.verdict == "PASS" and res.detail["twin"]["caught"]
    res, ev = apply_rule(claim, with_twin(ok, "eta x T^(1/4)", passes, "step one notch off"), caught)
    assert res.verdict == "INCONCLUSIVE" and ev == "a mis-tuned twin is not caught"
    assert "blind to tuning" in res.detail["twin_not_caught"] and "eta x T^(1/4)" in res.detail["twin_not_caught"]
    # declared blind (no twin can be caught): never a plain PASS, the numbers kept
    res, _ = apply_rule(claim, blind_to_tuning(ok, "eta/2 gives 0.51 [0.47, 0.55]"), caught)
    assert res.verdict == "INCONCLUSIVE" and "eta/2 gives 0.51" in res.detail["twin_not_caught"]
    # a FAIL is not touched by its twin; the record's account
    assert apply_rule(claim, with_twin(caught, "t", passes, "w"), caught)[0].verdict == "FAIL"
    rec = record(claim, with_twin(ok, "t", caught, "w"), caught, scenario="s", env=None, ci_level=0.95)
    assert (rec["twin"], rec["twin_verdict"], rec["twin_caught"]) == ("t", "FAIL", True)


def test_a_bound_whose_control_is_caught_only_as_a_gross_error_is_not_a_near_miss():
    from dpregret.verdict.core import GROSS_RATIO, Claim, Result, apply_rule

    claim = Claim("X-bound", "p.pdf", "Thm 1", "bound", "s", "regret", "advanced composition")
    ok = Result("PASS", 0.2, 1.0, -5.0, -4.0, 0.0, {"margin": -3.0, "ratio": [0.2], "detectable_factor": 0.25,
                                                    "worst_case_search": "sequences x"})
    gross = Result("FAIL", GROSS_RATIO * 2.5, 1.0, 4.0, 5.0, 0.0, {"margin": 3.0, "ratio": [GROSS_RATIO * 2.5]})
    near = Result("FAIL", 1.4, 1.0, 0.2, 0.5, 0.0, {"margin": 0.5, "ratio": [1.4]})
    assert apply_rule(claim, ok, near)[0].verdict == "PASS"
    res, _ = apply_rule(claim, ok, gross)
    assert res.verdict == "LOOSE" and "gross error" in res.detail["loose"]
    nosearch = Result(**{**ok.as_dict(), "detail": {k: v for k, v in ok.detail.items() if k != "worst_case_search"}})
    assert apply_rule(claim, nosearch, gross)[0].verdict == "INCONCLUSIVE"


def test_loose_is_refused_when_the_worst_case_search_reaches_the_controls_factor():
    from dpregret.verdict.core import Claim, Result, apply_rule

    claim = Claim("X-bound", "p.pdf", "Thm 1", "bound", "s", "regret", "the bound halved")
    base = {"margin": -3.0, "ratio": [0.25], "detectable_factor": 0.3, "control_factor": 0.5}
    missed = Result("PASS", 0.5, 1.0, -1.0, 0.5, 0.0, {"margin": -1.0, "ratio": [0.5]})
    below = Result("PASS", 0.25, 1.0, -5.0, -4.0, 0.0, {**base, "worst_case_search": {"max_ratio": 0.45, "at": "a"}})
    assert apply_rule(claim, below, missed)[0].verdict == "LOOSE"
    above = Result("PASS", 0.25, 1.0, -5.0, -4.0, 0.0, {**base, "worst_case_search": {"max_ratio": 0.57, "at": "b"}})
    res, _ = apply_rule(claim, above, missed)
    assert res.verdict == "INCONCLUSIVE" and "0.57" in res.detail["loose_refused"]
