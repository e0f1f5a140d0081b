"""Renyi-DP accounting: Zhang, Tran & Cutkosky, Sec. 1 "Differential Privacy"
(Definition 2 and the RDP -> (eps, delta) conversion after it, Mironov 2017),
Remark 2 and Lemma 18 (RDP of the Gaussian mechanism).
"""
from __future__ import annotations

import math

import numpy as np
import scipy  # scipy.optimize loads on first use

from dpregret.core import validate as V

__all__ = [
    "gaussian_rdp",
    "compose_rdp",
    "rdp_to_dp",
    "zcdp_to_dp",
    "zcdp_to_dp_optimal",
    "gaussian_sigma_for_dp",
]


def _orders(alpha, name: str = "alpha") -> np.ndarray:
    a = V.finite_array(name, alpha, ndim=(0, 1))
    if not np.all(a > 1):
        raise ValueError(f"{name} must be > 1 (every order), got {alpha!r}")
    return a


def gaussian_rdp(alpha, sensitivity, sigma):
    """Lemma 18: ``D_alpha(N(mu, s^2 I) || N(mu', s^2 I)) = alpha ||mu-mu'||^2 / (2 s^2)``.

    So the Gaussian mechanism with l2-sensitivity Delta is ``(alpha, alpha Delta^2/(2 sigma^2))``
    -RDP.  Vectorised over ``alpha`` (scalar in, float out).
    """
    a = _orders(alpha)
    d = V.positive("sensitivity", sensitivity)
    s = V.positive("sigma", sigma)
    out = a * d * d / (2.0 * s * s)
    return float(out) if out.ndim == 0 else out


def compose_rdp(rdps):
    """Adaptive composition: RDP curves (same orders) add up, order by order."""
    a = V.finite_array("rdps", rdps)
    if a.ndim == 0 or a.shape[0] == 0:
        raise ValueError("rdps must be a non-empty sequence of RDP values (one per mechanism)")
    if not np.all(a >= 0):
        raise ValueError("rdps must be >= 0 (Renyi divergences)")
    out = a.sum(axis=0)
    return float(out) if np.ndim(out) == 0 else out


def rdp_to_dp(alpha, rdp_eps, delta) -> tuple[float, float]:
    """(alpha, r)-RDP => (r + log(1/delta)/(alpha-1), delta)-DP for delta in (0, 1).

    The conversion quoted after Definition 2 (Mironov 2017, Prop. 3).  For arrays of orders
    returns ``(min eps over the orders, the minimising order)``; for a scalar order
    ``(eps, alpha)``.
    """
    a = _orders(alpha)
    r = V.finite_array("rdp_eps", rdp_eps, ndim=(0, 1))
    if not np.all(r >= 0):
        raise ValueError(f"rdp_eps must be >= 0, got {rdp_eps!r}")
    if r.shape not in ((), a.shape):
        raise ValueError(f"rdp_eps must be a scalar or match alpha's shape {a.shape}, got {r.shape}")
    dl = V.probability("delta", delta)
    eps = np.atleast_1d(r + math.log(1.0 / dl) / (a - 1.0))
    i = int(np.argmin(eps))
    return float(eps[i]), float(np.atleast_1d(a)[i])


def zcdp_to_dp(rho, delta) -> float:
    """The paper's printed special case, exactly as stated:

    "if M is (alpha, alpha rho^2/2)-RDP for all alpha > 1, then it is also
    (2 rho sqrt(log(1/delta)), delta)-DP for all delta >= exp(-rho^2)".

    ERRATUM (checked numerically in the tests): the exact optimum of the conversion is
    ``rho^2/2 + rho sqrt(2 log(1/delta))`` (see :func:`zcdp_to_dp_optimal`), and
    ``2 rho sqrt(L) >= rho^2/2 + rho sqrt(2L)`` iff ``L >= rho^2 / (4 - 2 sqrt 2)^2
    ~= 0.7286 rho^2`` (L = log 1/delta).  The stated range delta >= exp(-rho^2) means
    L <= rho^2, so on ``exp(-0.7286 rho^2) < delta`` the printed eps is *below* what the
    conversion yields, and it can be false outright (the Gaussian mechanism with
    Delta/sigma = rho = 10 at delta = 0.5 is not (20 sqrt(log 2), 0.5)-DP).  The
    inequality is reversed: the bound follows for delta <= exp(-rho^2).
    """
    r = V.positive("rho", rho)
    dl = V.probability("delta", delta)
    if dl < math.exp(-r * r):
        raise ValueError(f"delta must be >= exp(-rho^2) = {math.exp(-r * r)!r} (paper's stated range), got {delta!r}")
    return 2.0 * r * math.sqrt(math.log(1.0 / dl))


def zcdp_to_dp_optimal(rho, delta) -> tuple[float, float]:
    """Exact ``min_{alpha>1} alpha rho^2/2 + log(1/delta)/(alpha-1)`` and its minimiser.

    With beta = alpha - 1: ``rho^2/2 + beta rho^2/2 + L/beta`` is minimised at
    ``beta = sqrt(2L)/rho``, giving ``eps = rho^2/2 + rho sqrt(2L)``.  The paper's
    ``2 rho sqrt(L)`` is an upper bound of this only when L >= 0.7286 rho^2 (see
    :func:`zcdp_to_dp`).  Valid for any delta in (0, 1).
    """
    r = V.positive("rho", rho)
    L = math.log(1.0 / V.probability("delta", delta))
    return r * r / 2.0 + r * math.sqrt(2.0 * L), 1.0 + math.sqrt(2.0 * L) / r


def gaussian_sigma_for_dp(eps, delta, sensitivity=1.0, steps=1, *, orders=None) -> float:
    """Smallest sigma such that ``steps`` Gaussian mechanisms (l2-sensitivity Delta, noise
    sigma) composed in RDP and converted by :func:`rdp_to_dp` give eps-DP at ``delta``.

    ``orders=None`` uses the exact optimum over all alpha > 1 (:func:`zcdp_to_dp_optimal`
    with ``rho = sqrt(steps) Delta / sigma``); otherwise the minimum over the given grid.
    The conversion is decreasing in sigma, solved with brentq on log sigma.
    """
    e = V.positive("eps", eps)
    dl = V.probability("delta", delta)
    d = V.positive("sensitivity", sensitivity)
    k = V.integer("steps", steps)
    grid = None if orders is None else _orders(orders, "orders")
    if grid is not None and rdp_to_dp(grid, 0.0, dl)[0] >= e:
        raise ValueError("orders: even with no RDP cost, log(1/delta)/(alpha-1) >= eps on this grid")

    def eps_of(log_sigma: float) -> float:
        s = math.exp(log_sigma)
        if grid is None:
            return zcdp_to_dp_optimal(math.sqrt(k) * d / s, dl)[0]
        rdp = k * gaussian_rdp(grid, d, s)
        return rdp_to_dp(grid, rdp, dl)[0]

    # rho = sqrt(k) Delta / sigma solves rho^2/2 + rho sqrt(2L) = eps in closed form; bracket around it
    L = math.log(1.0 / dl)
    rho0 = math.sqrt(2 * L + 2 * e) - math.sqrt(2 * L)
    lo = math.log(math.sqrt(k) * d / rho0) - 1.0
    hi = lo + 2.0
    while eps_of(hi) > e:  # a coarse order grid may need more noise than the exact optimum
        hi += 2.0
    return math.exp(scipy.optimize.brentq(lambda x: eps_of(x) - e, lo, hi, xtol=1e-14, rtol=1e-14))


# ---- Google's dp-accounting (privacy loss distributions): an independent accountant beside ours ----

def _pld(noise_multiplier: float):
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant

    # the loss grid scales with mu^2 (mu = 1 / noise_multiplier): 1e-4 of it keeps every row fast
    # (the pessimistic estimate stays an upper bound; at mu = 100 it moves eps by < 0.02%)
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4 * max(1.0, noise_multiplier**-2))
    acc.compose(dp_accounting.GaussianDpEvent(noise_multiplier=noise_multiplier))
    return acc


def pld_epsilon(noise_multiplier: float, delta: float) -> float:
    """PLD epsilon at ``delta`` of one Gaussian mechanism with this sigma / sensitivity."""
    return float(_pld(noise_multiplier).get_epsilon(delta))


def pld_delta(noise_multiplier: float, eps: float) -> float:
    """PLD delta at ``eps`` of one Gaussian mechanism with this sigma / sensitivity."""
    return float(_pld(noise_multiplier).get_delta(eps))
