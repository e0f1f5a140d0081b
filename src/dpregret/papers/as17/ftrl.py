"""FTRL with the entropic regulariser on the simplex (exponential weights).

Agarwal and Singh (ICML 2017), section 3: Algorithm 1 with ``R(x) = sum_i x_i log x_i`` (Corollary
3.2, item 1): ``x_t = argmin_x eta <x, L~_{t-1}> + R(x) = softmax(-eta L~_{t-1})``, where
``L~`` is whatever prefix-sum estimate it is given (exact, tree, input-perturbed); Theorem 3.4's
step size and bound (:func:`eta_thm34`, :func:`bound_thm3_4`).
"""
from __future__ import annotations

import numpy as np

from dpregret.core import validate as V


class ExpWeights:
    """Exponential weights over N experts reading a prefix-sum estimate.

    ``eta`` is a scalar or an array of shape ``(B, 1)`` (one step size per batch row).
    """

    def __init__(self, eta, prefix_sum):
        eta_arr = np.asarray(eta, dtype=float)
        if np.any(~np.isfinite(eta_arr)) or np.any(eta_arr <= 0):
            raise ValueError(f"eta must be finite and > 0, got {eta!r}")
        self.eta = eta_arr
        self.sums = prefix_sum

    def predict(self) -> np.ndarray:
        z = -self.eta * self.sums.estimate
        w = np.exp(z - z.max(axis=-1, keepdims=True))  # softmax in log-space
        return w / w.sum(axis=-1, keepdims=True)

    def update(self, loss: np.ndarray) -> None:
        self.sums.step(loss)


def eta_thm34(N: int, T: int, sum_sq_dual: float | None = None) -> float:
    """The step size minimising Theorem 3.4's FTRL terms ``D_R/eta + eta S``.

    ``eta = sqrt(D_R / S)`` with ``D_R = log N`` (entropic regulariser on the simplex) and
    ``S = sum_t max_x ||l_t||_{*,x}^2 = sum_t ||l_t||_inf^2 <= T`` for losses in [0, 1]^N.
    """
    N = V.integer("N", N, minimum=2)
    T = V.integer("T", T, minimum=1)
    S = float(T) if sum_sq_dual is None else V.positive("sum_sq_dual", sum_sq_dual)
    return float(np.sqrt(np.log(N) / S))


def bound_thm3_4(N: int, eta: float, sum_sq_dual, d_noise: float):
    """Theorem 3.4 with its terms explicit for the step size used (eqs. (3)-(4)).

    ``D_R / eta + eta * sum_t max_x (||l_t||*_{grad^2 R(x)})^2 + D_{D'}`` with ``D_R = log N``
    and ``max_x (||l||*_x)^2 = max_x sum_i x_i l_i^2 = ||l||_inf^2`` on the simplex.  The
    stability step (4) with constant 1 holds for non-negative losses (exponential weights:
    ``x_{t+1,i} >= x_{t,i} (1 - eta l_{t,i})``).  The printed Theorem 3.4 is this at the
    optimal eta *without* the factor 2 (``2 sqrt(D_R S)``); see the report's errata.
    """
    return np.log(V.integer("N", N, minimum=2)) / V.positive("eta", eta) + eta * np.asarray(sum_sq_dual) + d_noise
