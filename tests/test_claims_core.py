"""The generic checks decide PASS, FAIL and INCONCLUSIVE as specified (DESIGN.md)."""
import math
import numpy as np
import pytest

from dpregret.claims.core import check_bound, check_rate
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
    from dpregret.claims.core import check_comparison, check_exact, check_privacy
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

    from dpregret.claims.core import check_coverage

    res = check_coverage(np.arange(n) >= v, 0.05, 0.05)
    assert res.verdict == verdict and res.measured == v / n and res.detail["violations"] == v
    assert math.isclose(stats.binom.cdf(v, n, res.ci_high), 0.05, rel_tol=1e-6)
    if v:
        assert math.isclose(stats.binom.sf(v - 1, n, res.ci_low), 0.05, rel_tol=1e-6)


@pytest.mark.parametrize("control_verdict", ["PASS", "INCONCLUSIVE"])
def test_pass_whose_control_is_not_caught_is_recorded_inconclusive(control_verdict):
    """The verdict rule: PASS needs the check to pass AND the primary control to be caught."""
    from dpregret.claims.core import Claim, Result, record

    c = Claim("X", "p", "t", "rate", "s", "m", "ctl")
    ok = Result("PASS", 0.5, 0.5, 0.4, 0.6, 0.1)
    rec = record(c, ok, Result(control_verdict, 0.5, 0.5, 0.4, 0.7, 0.1), scenario="s", env=None, ci_level=0.95)
    assert rec["result"]["verdict"] == "INCONCLUSIVE" and "control_not_caught" in rec["result"]["detail"]
    assert rec["evidence"] == "control not caught" and rec["control_caught"] is False
    assert ok.verdict == "PASS"  # the caller's result is not mutated


def test_pass_with_caught_control_records_margin_and_secondaries():
    from dpregret.claims.core import Claim, check_rate, record

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
    from dpregret.claims.core import Claim, Result, record

    c = Claim("X", "p", "t", "bound", "s", "m", "ctl")
    bad = Result("FAIL", 2.0, 1.0, 0.5, 1.5, 0.0)
    for cv in ("PASS", "FAIL", "INCONCLUSIVE"):
        rec = record(c, bad, Result(cv, 0, 0, 0, 0, 0), scenario="s", env=None, ci_level=0.95)
        assert rec["result"]["verdict"] == "FAIL"


def test_non_finite_metric_is_a_fail_with_reason_and_a_diverged_control_is_not_caught():
    from dpregret.claims.core import Claim, check_bound, check_comparison, check_rate, record

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
    from dpregret.claims.core import Result, not_in_regime
    r = Result("PASS", 0.5, 0.5, 0.4, 0.6, 0.1, {"margin": 1.0})
    out = not_in_regime(r, "privacy cost is 3% of the regret", {"cost_share": 0.03})
    assert out.verdict == "INCONCLUSIVE"
    assert out.detail["verdict_in_window"] == "PASS"
    assert out.detail["regime_numbers"] == {"cost_share": 0.03}
    assert "not in the regime" in out.detail["not_in_regime"]
    assert r.verdict == "PASS"  # the input is not modified


def test_samples_by_and_paired_gap():
    import pandas as pd

    from dpregret.claims.core import paired_gap, samples_by

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


# --- run-wide control of false FAILs (claims.core: FAIL_LEVEL) ---------------------------------

def _recorded(result):
    from dpregret.claims.core import Claim, Result, apply_rule

    claim = Claim("X-1", "AS17", "Thm 0", "comparison", "s", "m", "c")
    control = Result("FAIL", 1.0, 0.0, 0.5, 1.5, 0.0, {"margin": 1.0})
    return apply_rule(claim, result, control)[0]


def test_a_clear_fail_is_confirmed_at_the_run_wide_level():
    from dpregret.claims.core import check_comparison

    d = np.random.default_rng(1).normal(1.0, 1.0, 400)  # mean 1, se 0.05: 20 standard errors past 0
    res = check_comparison(d, 0.05)
    assert res.verdict == "FAIL" and res.detail["fail_confirmed"] is True
    assert _recorded(res).verdict == "FAIL"


def test_a_flag_at_the_claims_level_alone_is_not_a_fail():
    """3 standard errors past the threshold: FAIL at alpha = 0.05 (t quantile ~1.98), not at the
    run-wide one-sided 5e-4 (~3.4): recorded INCONCLUSIVE with the reason."""
    from dpregret.claims.core import check_comparison

    d = np.random.default_rng(2).normal(0.0, 1.0, 100)
    d = (d - d.mean()) / d.std(ddof=1) + 3.0 / np.sqrt(100)  # exactly 3 se above 0
    res = check_comparison(d, 0.05)
    assert res.verdict == "FAIL" and res.detail["fail_confirmed"] is False
    rec = _recorded(res)
    assert rec.verdict == "INCONCLUSIVE" and "not confirmed at the run-wide level" in rec.detail["fail_not_confirmed"]


def test_false_fail_rate_on_null_data_is_the_run_wide_level_not_alpha():
    """4000 null comparisons (true mean exactly at the threshold): about alpha / 2 = 2.5% are flagged,
    the recorded FAILs are at the run-wide level 5e-4 (expected 2; 12 or more has probability < 1e-5)."""
    from dpregret.claims.core import FAIL_LEVEL, check_comparison

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
    from dpregret.claims.core import (Claim, Result, apply_rule, attach_nonlearner_record, record, with_learning_gate,
                                      with_nonlearner)

    claim = Claim("X-rate", "p.pdf", "Thm 1", "rate", "s", "regret", "half noise")
    ok = Result("PASS", 0.5, 0.5, 0.45, 0.55, 0.1, {"margin": -2.0})
    caught = Result("FAIL", 1.0, 0.5, 0.9, 1.1, 0.1, {"margin": 1.5})
    passes = Result("PASS", 0.4, 0.5, 0.35, 0.45, 0.1, {"margin": -3.0})
    assert apply_rule(claim, with_nonlearner(ok, "frozen", caught), caught)[0].verdict == "PASS"
    res, ev = apply_rule(claim, with_nonlearner(ok, "frozen", passes), caught)
    assert res.verdict == "INCONCLUSIVE" and "frozen" in res.detail["nonlearner_passes"] and ev == "a non-learner is not caught"
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
    assert (both["nonlearner"], both["nonlearner_verdict"], both["nonlearner_caught"]) == ("nonlearner_oco", "PASS", False)
    assert both["result"]["verdict"] == "INCONCLUSIVE"
    nl_rec = record(claim, caught, caught, scenario="s", env="learner-nonlearner_oco", ci_level=0.95)
    assert attach_nonlearner_record(rec, nl_rec)["result"]["verdict"] == "PASS"
    # a gated claim decided for the non-learner: a cost of 0 passes, the gate catches it
    nl_rec = record(claim, with_learning_gate(ok, caught), caught, scenario="s", env="learner-nonlearner_oco", ci_level=0.95)
    both = attach_nonlearner_record(rec, nl_rec)
    assert (both["nonlearner_caught"], both["result"]["verdict"]) == (True, "PASS")
