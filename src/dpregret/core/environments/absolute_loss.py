"""Absolute-loss regression instances of Van der Hoeven (thesis ch. 3; NeurIPS 2019), Sec. 3.4
(``papers.vdh19.scenario``): wdbc's principal components with their offline optimum (a linear
programme), and the synthetic unit-sphere instance's direction and ``E|<x, e>|``."""
from __future__ import annotations

import functools
import math

import numpy as np
import scipy  # scipy.optimize loads on first use
from scipy import special

from dpregret.core import validate as V
from dpregret.core.environments.stochastic import load_wdbc


@functools.lru_cache(maxsize=8)
def wdbc_problem(d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(A, y, w*)``: wdbc's first ``d`` principal components (of the standardised features),
    each standardised, rows scaled to unit l2 norm; labels +-1; ``w*`` minimises the mean
    absolute loss ``mean_i |<a_i, w> - y_i|`` (a linear programme, HiGHS)."""
    d = V.integer("d", d)
    X, y, _ = load_wdbc()
    if d > X.shape[1]:
        raise ValueError(f"d must be <= {X.shape[1]} (features of wdbc), got {d}")
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    _, _, Vt = np.linalg.svd(Z, full_matrices=False)
    P = Z @ Vt[:d].T
    P = P / P.std(axis=0)
    A = P / np.linalg.norm(P, axis=1, keepdims=True)
    return A, y, lad(A, y)


def lad(A: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``argmin_w sum_i |<a_i, w> - y_i|`` as the LP ``min 1'(p + q)``, ``A w - y = p - q``."""
    n, d = A.shape
    res = scipy.optimize.linprog(np.r_[np.zeros(d), np.ones(2 * n)], A_eq=np.hstack([A, -np.eye(n), np.eye(n)]), b_eq=y,
                           bounds=[(None, None)] * d + [(0, None)] * (2 * n), method="highs")
    if res.status != 0:
        raise RuntimeError(f"LP for the absolute-loss optimum failed: {res.message}")
    return res.x[:d]


def sphere_abs_mean(d: int) -> float:
    """``gamma = E|<x, e>|`` for x uniform on the unit sphere of R^d and a unit vector e."""
    return float(math.exp(special.gammaln(d / 2) - special.gammaln((d + 1) / 2)) / math.sqrt(math.pi))


def fixed_direction(d: int) -> np.ndarray:
    """The synthetic optimum's direction: ``(1, -1/2, 1/3, ...)`` normalised."""
    v = np.array([(-1.0) ** j / (j + 1) for j in range(d)])
    return v / np.linalg.norm(v)
