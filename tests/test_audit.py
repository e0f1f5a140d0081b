"""The auditor: Clopper-Pearson limits, tightness on exact mechanisms, every privacy claim
passes with its correct mechanism and every broken control is caught."""
import numpy as np
import pytest
from scipy import stats

from dpregret.audit import bernoulli_renyi, clopper_pearson, eps_lower_bound, gdp_mu_lower_bound
from dpregret.claims.privacy import SPECS, run_audit


def test_clopper_pearson_limits():
    lo, hi = clopper_pearson(0, 100, 0.05, 0.05)
    assert lo == 0 and hi == pytest.approx(1 - 0.05 ** (1 / 100), rel=1e-9)
    lo, hi = clopper_pearson(100, 100, 0.05, 0.05)
    assert hi == 1 and lo == pytest.approx(0.05 ** (1 / 100), rel=1e-9)
    ci = stats.binomtest(37, 100).proportion_ci(0.9, method="exact")
    lo, hi = clopper_pearson(37, 100, 0.05, 0.05)
    assert (lo, hi) == pytest.approx((ci.low, ci.high), rel=1e-9)


def test_eps_lower_bound_is_tight_for_randomised_response():
    """Randomised response with eps = 1: the LLR takes two values; eps_lb must approach 1 from below."""
    rng = np.random.default_rng(0)
    p = np.e / (1 + np.e)
    n = 400_000
    yd = rng.random(n) < p  # D answers 1 w.p. p
    ydp = rng.random(n) < 1 - p
    s = lambda y: np.where(y, 1.0, -1.0)  # noqa: E731
    res = eps_lower_bound(s(yd), s(ydp), 0.0, 0.05, rng)
    assert 0.95 <= res.eps_lb <= 1.0


def test_gdp_lower_bound_for_gaussian_shift():
    rng = np.random.default_rng(1)
    n, mu = 400_000, 0.7
    a, b = rng.normal(mu, 1, n), rng.normal(0, 1, n)
    llr = lambda y: mu * y - mu**2 / 2  # noqa: E731
    m, _ = gdp_mu_lower_bound(llr(a), llr(b), 0.05, rng)
    assert 0.65 <= m <= mu


def test_bernoulli_renyi():
    assert bernoulli_renyi(2.0, 0.3, 0.3) == pytest.approx(0.0, abs=1e-15)
    p, q = 0.6, 0.2
    assert bernoulli_renyi(2.0, p, q) == pytest.approx(np.log(p**2 / q + (1 - p) ** 2 / (1 - q)))
    with pytest.raises(ValueError, match="alpha_order"):
        bernoulli_renyi(1.0, p, q)


@pytest.fixture(scope="module")
def audits():
    # the default preset's sample count, so the test sees what the report shows
    return {cid: run_audit(spec, 1_000_000, 0.05, 20261122) for cid, spec in SPECS.items()}


@pytest.mark.parametrize("cid", sorted(SPECS))
def test_correct_mechanism_passes_and_every_control_is_caught(audits, cid):
    res, ctl = audits[cid]
    assert res.verdict == "PASS"
    assert res.measured <= SPECS[cid].eps
    assert ctl.verdict == "FAIL"
    assert all(ctl.detail["caught"].values()), ctl.detail["caught"]
    if SPECS[cid].tight_floor is not None:  # pure-DP Laplace: the auditor is not blind
        assert res.measured >= 0.9 * SPECS[cid].eps


def test_tree_releases_match_node_map(audits):
    res, _ = audits["AUDIT-as17-lemma3.3-tree"]
    assert res.detail["exact_check"].startswith("releases = node map")


def test_paper_log_count_is_caught_on_the_tree(audits):
    """The erratum, empirically: lambda with ceil(log2 T) at T = 4 leaks more than eps."""
    # T = 4: 3 nodes cover leaf 1 but ceil(log2 4) = 2, so the control is (3/2) eps-DP
    _, ctl = audits["AUDIT-as17-lemma3.3-tree"]
    assert ctl.detail["variants"]["paper_log_count"]["eps_lb"] > 1.0
