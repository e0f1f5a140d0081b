"""Tests of dpregret.core.accounting (Zhang, Tran & Cutkosky: Definition 2, the conversion
after it, Remark 2, Lemma 18)."""
import math

import numpy as np
import pytest
from scipy import integrate, optimize, stats

from dpregret.core import accounting as A


def gaussian_exact_delta(eps, mu):
    """Exact privacy profile of the Gaussian mechanism with Delta/sigma = mu (Balle & Wang 2018)."""
    return stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps + stats.norm.logcdf(-eps / mu - mu / 2))


# --- Gaussian RDP (Lemma 18) and composition --------------------------------------------------
def test_gaussian_rdp_closed_form():
    alpha = np.array([1.5, 2.0, 10.0, 256.0])
    np.testing.assert_allclose(A.gaussian_rdp(alpha, 2.0, 3.0), alpha * 4.0 / 18.0, rtol=1e-15)
    assert isinstance(A.gaussian_rdp(2.0, 1.0, 1.0), float)
    assert A.gaussian_rdp(2.0, 1.0, 1.0) == 1.0


@pytest.mark.parametrize("alpha", [1.5, 3.0, 7.0])
def test_gaussian_rdp_matches_renyi_divergence_by_quadrature(alpha):
    mu, sigma = 0.7, 1.2
    p, q = stats.norm(mu, sigma), stats.norm(0.0, sigma)
    integral = integrate.quad(lambda x: math.exp(alpha * p.logpdf(x) + (1 - alpha) * q.logpdf(x)), -40, 40,
                              points=[0.0, mu], epsabs=1e-13)[0]
    assert A.gaussian_rdp(alpha, mu, sigma) == pytest.approx(math.log(integral) / (alpha - 1), rel=1e-9)


def test_compose_rdp():
    a = np.array([2.0, 4.0])
    parts = [A.gaussian_rdp(a, 1.0, s) for s in (1.0, 2.0, 4.0)]
    np.testing.assert_allclose(A.compose_rdp(parts), a / 2 * (1 + 1 / 4 + 1 / 16), rtol=1e-15)
    assert A.compose_rdp([0.5, 0.25]) == 0.75


# --- conversions --------------------------------------------------------------------------------------
def test_rdp_to_dp_scalar_and_grid():
    eps, order = A.rdp_to_dp(3.0, 0.5, 1e-3)
    assert order == 3.0 and eps == pytest.approx(0.5 + math.log(1e3) / 2, rel=1e-15)
    alpha = np.linspace(1.1, 60, 500)
    rdp = A.gaussian_rdp(alpha, 1.0, 2.0)
    eps, order = A.rdp_to_dp(alpha, rdp, 1e-5)
    brute = rdp + math.log(1e5) / (alpha - 1)
    assert eps == brute.min() and order == alpha[brute.argmin()]


@pytest.mark.parametrize("rho,delta", [(0.5, 1e-5), (1.0, 1e-3), (3.0, 1e-8), (10.0, 0.5)])
def test_zcdp_optimum_closed_form(rho, delta):
    L = math.log(1 / delta)
    eps, alpha = A.zcdp_to_dp_optimal(rho, delta)
    assert eps == pytest.approx(rho**2 / 2 + rho * math.sqrt(2 * L), rel=1e-14)
    res = optimize.minimize_scalar(lambda b: (1 + b) * rho**2 / 2 + L / b, bounds=(1e-9, 1e6), method="bounded",
                                   options={"xatol": 1e-12})
    assert eps == pytest.approx(res.fun, rel=1e-9)
    assert alpha == pytest.approx(1 + res.x, rel=1e-5)
    grid = np.linspace(1.001, 200, 20001)
    assert A.rdp_to_dp(grid, grid * rho**2 / 2, delta)[0] >= eps


def test_zcdp_to_dp_as_printed():
    assert A.zcdp_to_dp(2.0, 0.1) == pytest.approx(4 * math.sqrt(math.log(10)), rel=1e-15)
    with pytest.raises(ValueError, match="delta"):
        A.zcdp_to_dp(2.0, math.exp(-4.0) / 2)


def test_zcdp_printed_range_erratum():
    """The printed form 2 rho sqrt(L) needs L >= rho^2/(4-2 sqrt2)^2, not L <= rho^2."""
    c = 1 / (4 - 2 * math.sqrt(2)) ** 2
    assert c == pytest.approx(0.7286, abs=1e-4)
    for rho in (0.5, 1.0, 4.0):
        # delta <= exp(-rho^2) (reversed condition): printed bound is valid (>= the optimum)
        for L in rho**2 * np.array([1.0, 2.0, 10.0]):
            assert 2 * rho * math.sqrt(L) >= A.zcdp_to_dp_optimal(rho, math.exp(-L))[0]
        # inside the paper's stated range delta >= exp(-rho^2) but L < c rho^2: below the optimum
        delta = math.exp(-0.5 * rho**2)
        assert A.zcdp_to_dp(rho, delta) < A.zcdp_to_dp_optimal(rho, delta)[0]
    # and false outright for the Gaussian mechanism (exactly (alpha, alpha rho^2/2)-RDP)
    rho, delta = 10.0, 0.5
    assert gaussian_exact_delta(A.zcdp_to_dp(rho, delta), rho) > 0.99 > delta
    assert gaussian_exact_delta(A.zcdp_to_dp_optimal(rho, delta)[0], rho) <= delta


# --- calibration --------------------------------------------------------------------------------------
@pytest.mark.parametrize("eps,delta,sens,steps", [(1.0, 1e-5, 1.0, 1), (0.3, 1e-6, 2.0, 50), (8.0, 1e-3, 0.5, 1000)])
def test_gaussian_sigma_for_dp(eps, delta, sens, steps):
    sigma = A.gaussian_sigma_for_dp(eps, delta, sens, steps)
    L = math.log(1 / delta)
    rho = math.sqrt(2 * L + 2 * eps) - math.sqrt(2 * L)
    assert sigma == pytest.approx(math.sqrt(steps) * sens / rho, rel=1e-10)
    orders = np.concatenate([1 + np.arange(1, 100) / 10, np.arange(11, 64), [128, 256, 512, 1024]])
    sigma_grid = A.gaussian_sigma_for_dp(eps, delta, sens, steps, orders=orders)
    assert sigma_grid >= sigma * (1 - 1e-12)
    rdp = steps * A.gaussian_rdp(orders, sens, sigma_grid)
    assert A.rdp_to_dp(orders, rdp, delta)[0] == pytest.approx(eps, rel=1e-9)


# --- cross-check against Google's dp-accounting -------------------------------------------------
@pytest.mark.parametrize("sigma,steps", [(0.8, 1), (2.0, 10), (5.0, 1000), (1.0, 100)])
def test_against_dp_accounting(sigma, steps):
    dpa = pytest.importorskip("dp_accounting")
    acc = dpa.rdp.RdpAccountant()
    acc.compose(dpa.GaussianDpEvent(noise_multiplier=sigma), steps)
    orders = np.asarray(acc._orders, dtype=float)
    ours = A.compose_rdp([A.gaussian_rdp(orders, 1.0, sigma)] * steps)
    np.testing.assert_allclose(ours, acc._rdp, rtol=1e-12)
    delta = 1e-5
    theirs = acc.get_epsilon(delta)  # uses the tighter conversion of Canonne et al. / Asoodeh et al.
    classical = A.rdp_to_dp(orders, ours, delta)[0]
    exact = A.zcdp_to_dp_optimal(math.sqrt(steps) / sigma, delta)[0]
    for e in (classical, exact):
        assert theirs <= e <= 1.5 * theirs
    # a sigma calibrated by our (looser) conversion is private by theirs as well
    s = A.gaussian_sigma_for_dp(2.0, delta, 1.0, steps)
    acc2 = dpa.rdp.RdpAccountant()
    acc2.compose(dpa.GaussianDpEvent(noise_multiplier=s), steps)
    assert acc2.get_epsilon(delta) <= 2.0


# --- argument validation -------------------------------------------------------------------------
BAD = [
    ("alpha", lambda: A.gaussian_rdp(1.0, 1.0, 1.0)),
    ("alpha", lambda: A.gaussian_rdp([2.0, np.nan], 1.0, 1.0)),
    ("sensitivity", lambda: A.gaussian_rdp(2.0, 0.0, 1.0)),
    ("sigma", lambda: A.gaussian_rdp(2.0, 1.0, -1.0)),
    ("rdps", lambda: A.compose_rdp([])),
    ("rdps", lambda: A.compose_rdp([1.0, -0.5])),
    ("rdps", lambda: A.compose_rdp([1.0, np.nan])),
    ("alpha", lambda: A.rdp_to_dp([0.5, 2.0], [1.0, 1.0], 1e-5)),
    ("rdp_eps", lambda: A.rdp_to_dp([2.0, 3.0], [1.0, 1.0, 1.0], 1e-5)),
    ("rdp_eps", lambda: A.rdp_to_dp(2.0, -1.0, 1e-5)),
    ("delta", lambda: A.rdp_to_dp(2.0, 1.0, 0.0)),
    ("delta", lambda: A.rdp_to_dp(2.0, 1.0, 1.0)),
    ("rho", lambda: A.zcdp_to_dp(0.0, 0.5)),
    ("delta", lambda: A.zcdp_to_dp(1.0, 1.5)),
    ("rho", lambda: A.zcdp_to_dp_optimal(-1.0, 0.5)),
    ("delta", lambda: A.zcdp_to_dp_optimal(1.0, 0.0)),
    ("eps", lambda: A.gaussian_sigma_for_dp(0.0, 1e-5)),
    ("delta", lambda: A.gaussian_sigma_for_dp(1.0, 2.0)),
    ("sensitivity", lambda: A.gaussian_sigma_for_dp(1.0, 1e-5, sensitivity=np.inf)),
    ("steps", lambda: A.gaussian_sigma_for_dp(1.0, 1e-5, steps=0)),
    ("steps", lambda: A.gaussian_sigma_for_dp(1.0, 1e-5, steps=2.5)),
    ("orders", lambda: A.gaussian_sigma_for_dp(0.1, 1e-5, orders=[1.5, 2.0])),
    ("orders", lambda: A.gaussian_sigma_for_dp(1.0, 1e-5, orders=[1.0, 2.0])),
]


@pytest.mark.parametrize("name,call", BAD, ids=[f"{i}-{n}" for i, (n, _) in enumerate(BAD)])
def test_invalid_arguments(name, call):
    with pytest.raises(ValueError, match=name):
        call()


# --- the exact Gaussian accountant of the Lemma 5.4 audit, against dp-accounting's PLD ---------------------
@pytest.mark.parametrize("mu,delta", [(0.1587, 0.05), (0.5, 1e-3), (1.0, 1e-5), (2.0, 0.1), (3.57, 1e-6)])
def test_exact_gaussian_accountant_matches_pld(mu, delta):
    """``gdp_delta`` / ``gdp_eps`` (Balle & Wang's analytic Gaussian mechanism, the mu-GDP delta(eps) of
    Dong, Roth and Su) against dp-accounting's PLD of one Gaussian mechanism with sigma = 1 / mu (an upper
    bound with a fine grid): equal to the PLD's discretisation, and never above it."""
    from dpregret.papers.env21.audit import gdp_delta, gdp_eps
    from dpregret.core.accounting import pld_delta, pld_epsilon

    pytest.importorskip("dp_accounting")
    e = gdp_eps(mu, delta)
    assert e <= pld_epsilon(1.0 / mu, delta) + 1e-9
    assert e == pytest.approx(pld_epsilon(1.0 / mu, delta), abs=2e-3 * max(1.0, e))
    if e > 0:
        assert gdp_delta(e, mu) == pytest.approx(delta, rel=1e-9)
    for eps in (0.0, 0.5, 2.0):
        assert gdp_delta(eps, mu) == pytest.approx(pld_delta(1.0 / mu, eps), abs=1e-4)
