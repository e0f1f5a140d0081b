"""Noise calibration, one layer below the learners and the scenarios: the
Laplace scale lambda or Gaussian sigma that a paper's privacy statement prescribes, from
(eps, delta) and the sensitivity.  A user's learner calibrates with the same functions.

- Agarwal and Singh, Lemma 3.3 / Corollary 3.2: :func:`tree_lambda` (every TreeBasedAgg node);
  the fresh-noise baseline by advanced composition: :func:`fresh_noise_lambda`,
  :func:`fresh_lambda`.  (Table 1's per-row scales are ``papers.as17.olo.laplace_scale_cor3_2``.)
- Ene, Nguyen, Vladu, Lemmas 5.1 and 5.4: :func:`laplace_lambda_lemma5_1`,
  :func:`gaussian_sigma_lemma5_4`, :func:`lemma5_noise_scale`; what a noise does to the run:
  :func:`noise_mu` (Lemma 3.1's mu = E||noise||); the ratio the experiments' eps are chosen
  by is ``papers.env21.learners.noise_to_smoothing`` (it needs Algorithm 1's parameters).
- Zhang, Tran, Cutkosky, eq. (6): ``papers.ztc22.o2b.sigma_eq6`` (it depends on the run's path).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special

from dpregret.core import validate as V
from dpregret.core.tree import nodes_covering_leaf


def tree_lambda(N: int, T: int, eps: float) -> float:
    """Laplace scale of every tree node: ``N * (floor(log2 T) + 1) / eps`` (l1 sensitivity N)."""
    return V.integer("N", N) * nodes_covering_leaf(T) / V.positive("eps", eps)


def fresh_lambda(N: int, T: int, eps: float) -> float:
    """Laplace scale of the fresh-noise control: T releases, advanced composition, delta = 1/T^2."""
    return fresh_noise_lambda(N, T, eps, min(0.5, 1.0 / T**2))


def fresh_noise_lambda(sensitivity: float, T: int, eps: float, delta: float) -> float:
    """Laplace scale per release so that T releases are (eps, delta)-DP by advanced composition.

    Dwork, Rothblum, Vadhan: T-fold composition of eps0-DP is (eps0 sqrt(2 T ln(1/delta))
    + T eps0 (e^eps0 - 1), delta)-DP; we solve that for eps0 and return sensitivity/eps0.
    """
    from scipy.optimize import brentq

    sensitivity = V.positive("sensitivity", sensitivity)
    T = V.integer("T", T)
    eps = V.positive("eps", eps)
    delta = V.probability("delta", delta)

    def total(e0):
        return e0 * np.sqrt(2 * T * np.log(1 / delta)) + T * e0 * np.expm1(e0) - eps

    e0 = brentq(total, 1e-300, eps, xtol=1e-300, rtol=1e-14)
    return sensitivity / e0


def laplace_lambda_lemma5_1(T: int, n: int, L: float, eps: float) -> float:
    """Lemma 5.1: ``lambda = T^(1/2) n L log2(T) / eps`` (as printed; log = tree depth, base 2).

    Proof erratum: the batch vector's l1 norm is bounded by ``T_batch n^(1/2) M`` with
    ``M = L D n / zeta = T^(1/4) n^(1/2) L``, which is ``T^(3/4) n L``, not the printed
    ``T^(1/2) n L``.  The lambda is nevertheless sufficient under Definition 2.1: changing one
    f_t changes one term of one batch (later rounds see only released sums), and with
    ``0 <= f_t <= L D`` on the queried points the l1 change is at most
    ``M n^(1/2) = T^(1/4) n L`` (:func:`batch_sensitivity`), below the printed value.
    """
    T, n = V.integer("T", T), V.integer("n", n)
    return T**0.5 * n * V.positive("L", L) * math.log2(T) / V.positive("eps", eps)


def gaussian_sigma_lemma5_4(T: int, n: int, L: float, eps: float, delta: float) -> float:
    """Lemma 5.4 (as printed): ``sigma = T^(1/4) n^(1/2) L log2(T) ln(T/delta) / eps *
    (ln((n+T)/delta) + sqrt((1 + T^(1/2)/n) ln((n+T)/delta)))``.

    The proof applies Lemma 5.3 with ``||c||_2 <= Delta``; for a batch of ``T^(1/2)`` values
    ``|F_t| <= M`` that gives ``Delta = T^(1/4) M``, a factor ``T^(1/4)`` more than the printed
    ``M = O(T^(1/4) n^(1/2) L (...))``.  As for Lemma 5.1, the replace-one l2 sensitivity of a
    batch sum is one term, ``M = T^(1/4) n^(1/2) L``, so the printed sigma still covers it.
    """
    T, n = V.integer("T", T, minimum=2), V.integer("n", n)
    L, eps = V.positive("L", L), V.positive("eps", eps)
    delta = V.probability("delta", delta)
    ell = math.log((n + T) / delta)
    return (T**0.25 * math.sqrt(n) * L * math.log2(T) * math.log(T / delta) / eps
            * (ell + math.sqrt((1 + T**0.5 / n) * ell)))


def lemma5_noise_scale(kind: str, T: int, d: int, L: float, eps: float, delta: float) -> float:
    """Lemma 5.1's lambda (``laplace``) or Lemma 5.4's sigma (``gaussian``) for dimension d."""
    if kind == "laplace":
        return laplace_lambda_lemma5_1(T, d, L, eps)
    if kind == "gaussian":
        return gaussian_sigma_lemma5_4(T, d, L, eps, delta)
    raise ValueError(f"kind must be 'laplace' or 'gaussian', got {kind!r}")


def noise_mu(kind: str, d: int, scale: float) -> float:
    """``mu = E||X||`` for X of d i.i.d. coordinates: Gaussian exactly (chi mean
    ``sigma sqrt 2 Gamma((d+1)/2) / Gamma(d/2)``); Laplace its upper bound ``sqrt(2d) lambda``
    (Jensen; the paper's O(n^(1/2) lambda) with constant sqrt 2)."""
    if scale == 0.0 or kind == "none":
        return 0.0
    if kind == "laplace":
        return math.sqrt(2.0 * d) * scale
    return scale * math.sqrt(2.0) * math.exp(special.gammaln((d + 1) / 2) - special.gammaln(d / 2))

