"""Online learners on the l2 ball for Zhang, Tran, Cutkosky (NeurIPS 2022), sections 2-5.

All follow the two-method protocol ``predict() -> w (R, d)`` then ``update(g)`` with ``g``
the (sub)gradient of the t-th loss at ``w_t``, vectorised over replicates.

- :class:`ProjectedOGD`: projected online gradient descent with the step of Remark 5,
  ``eta_t = D / sqrt(sum_{s<=t} Ghat_s^2)``, where ``Ghat_s^2`` bounds ``E||g_s||^2`` (the
  second part of Theorem 4).  Regret (standard OGD analysis, non-increasing steps):
  ``Regret_T <= D^2 / (2 eta_T) + sum_t eta_t ||g_t||^2 / 2``, so in expectation
  ``E Regret_T <= (3/2) D sqrt(sum_t Ghat_t^2)`` (:func:`ogd_regret_bound`).
- :class:`OptimisticOGD`: optimistic OGD (Rakhlin and Sridharan 2013) with hint ``h_t``
  (Theorem 6: ``h_t = g_{t-1} + gamma_{t-1}``, the previous loss vector) and the adaptive step
  ``eta_t = D / sqrt(2 (Ghat_1^2 + sum_{s<t} ||g_s - h_s||^2))``, whose regret is
  ``O(D sqrt(sum_t ||g_t - h_t||^2))``: eq. (8).
- :class:`StronglyConvexOSD`: OSD with step ``1 / sum_{i<=t} mu_i`` on mu_t-strongly convex
  losses (Remark 9): ``Regret_T <= sum_t ||g_t||^2 / (2 sum_{i<=t} mu_i)``.
- :class:`ParameterFree`: Krichevsky-Trofimov coin betting for the magnitude and OGD on the
  unit ball for the direction (Cutkosky and Orabona 2018, section 3), made constrained to W
  by their reduction (Theorem 3 there): play ``w = Proj_W(w_hat)`` and feed the
  unconstrained learner ``(g + ||g|| S'(w_hat)) / 2``, ``S(x) = dist(x, W)``.  Coins are
  normalised by a known bound ``Ghat_t`` on ``||g_t||`` (Theorem 11, second part).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from dpregret.core import validate as V
from dpregret.core.environments.stochastic import project_ball


class ProjectedOGD:
    def __init__(self, R: int, d: int, r: float, ghat_sq: Callable[[int], float]):
        self.R, self.d = V.integer("R", R), V.integer("d", d)
        self.r = V.positive("r", r)
        self.ghat_sq = ghat_sq
        self.w = np.zeros((self.R, self.d))
        self.t = 0
        self._acc = 0.0

    def predict(self) -> np.ndarray:
        return self.w

    def update(self, g: np.ndarray) -> None:
        self.t += 1
        self._acc += self.ghat_sq(self.t)
        eta = 2 * self.r / math.sqrt(self._acc)
        self.w = project_ball(self.w - eta * g, self.r)


def ogd_regret_bound(D: float, ghat_sq_sum: float) -> float:
    """E Regret_T of :class:`ProjectedOGD`: (3/2) D sqrt(sum_t Ghat_t^2)."""
    return 1.5 * D * math.sqrt(ghat_sq_sum)


class OptimisticOGD:
    """Optimistic OGD: ``w_t = Proj(u_t - eta_t h_t)``, ``u_{t+1} = Proj(u_t - eta_t g_t)``;
    the hint of round t+1 is the loss vector of round t (``hint="last"``), 0 (``"zero"``:
    plain adaptive OGD) or minus the loss vector of round t (``"negated"``: a misleading
    hint, a negative control)."""

    def __init__(self, R: int, d: int, r: float, g1_sq: float, hint: str = "last"):
        if hint not in ("last", "zero", "negated"):
            raise ValueError(f"hint must be 'last', 'zero' or 'negated', got {hint!r}")
        self.R, self.d = V.integer("R", R), V.integer("d", d)
        self.r = V.positive("r", r)
        self.hint_kind = hint
        self.u = np.zeros((self.R, self.d))
        self.h = np.zeros((self.R, self.d))
        self._acc = np.full((self.R, 1), float(g1_sq))
        self.eta = 2 * self.r / np.sqrt(2 * self._acc)
        self.w = self.u

    def predict(self) -> np.ndarray:
        self.w = project_ball(self.u - self.eta * self.h, self.r)
        return self.w

    def update(self, g: np.ndarray) -> None:
        self.u = project_ball(self.u - self.eta * g, self.r)
        self._acc = self._acc + np.sum((g - self.h) ** 2, axis=-1, keepdims=True)
        self.eta = 2 * self.r / np.sqrt(2 * self._acc)
        self.h = {"last": 1.0, "zero": 0.0, "negated": -1.0}[self.hint_kind] * g


class StronglyConvexOSD:
    def __init__(self, R: int, d: int, r: float, mu_t: Callable[[int], float]):
        self.R, self.d = V.integer("R", R), V.integer("d", d)
        self.r = V.positive("r", r)
        self.mu_t = mu_t
        self.w = np.zeros((self.R, self.d))
        self.t = 0
        self._acc = 0.0

    def predict(self) -> np.ndarray:
        return self.w

    def update(self, g: np.ndarray) -> None:
        self.t += 1
        self._acc += self.mu_t(self.t)
        self.w = project_ball(self.w - g / self._acc, self.r)


class ParameterFree:
    """KT betting x unit-ball OGD, constrained to the radius-r ball (see module docstring).
    ``ghat(t)`` bounds ``||g_t||``; ``eps0`` is the initial wealth (in units of Ghat).  ``x0`` (d,), optional: the
    start point in shifted coordinates (Zhang-Tran-Cutkosky, Section 5): the bet w^ is made around x0 and the
    learner plays Proj_W(x0 + w^), so its regret scales with ||u - x0|| (its caller regularises in w - x0)."""

    def __init__(self, R: int, d: int, r: float, ghat: Callable[[int], float], eps0: float = 1.0, x0=None):
        self.R, self.d = V.integer("R", R), V.integer("d", d)
        self.r = V.positive("r", r)
        self.ghat = ghat
        self.eps0 = V.positive("eps0", eps0)
        self.wealth = np.full(self.R, self.eps0)
        self.coin_sum = np.zeros(self.R)
        self.z = np.zeros((self.R, self.d))  # direction, unit ball
        self._dir_acc = np.zeros((self.R, 1))
        self.t = 0
        self.v = np.zeros(self.R)
        self.w_hat = np.zeros((self.R, self.d))
        self.x0 = None if x0 is None else V.finite_array("x0", x0, ndim=1)
        if self.x0 is not None and self.x0.shape != (self.d,):
            raise ValueError(f"x0 must have shape ({self.d},), got {self.x0.shape}")
        self.reg_centre = self.x0  # where the caller centres the regulariser (x0; a twin may leave it at the origin)
        self.w = self.w_hat

    def _raw(self) -> np.ndarray:
        return self.w_hat if self.x0 is None else self.x0 + self.w_hat

    def predict(self) -> np.ndarray:
        self.v = self.coin_sum / (self.t + 1) * self.wealth  # KT bet
        self.w_hat = self.v[:, None] * self.z
        self.w = project_ball(self._raw(), self.r)
        return self.w

    def update(self, g: np.ndarray) -> None:
        self.t += 1
        gn = np.linalg.norm(g, axis=-1, keepdims=True)
        out = self._raw() - self.w
        on = np.linalg.norm(out, axis=-1, keepdims=True)
        grad_s = np.where(on > 0, out / np.maximum(on, 1e-300), 0.0)
        gt = 0.5 * (g + gn * grad_s) / self.ghat(self.t)  # normalised; ||gt|| <= 1 when ||g|| <= Ghat
        norm = np.linalg.norm(gt, axis=-1, keepdims=True)
        gt = gt / np.maximum(norm, 1.0)  # guard the rare excursions above the high-probability bound
        c = -np.sum(gt * self.z, axis=-1)  # coin outcome for the magnitude
        self.wealth = self.wealth + c * self.v
        self.coin_sum = self.coin_sum + c
        self._dir_acc = self._dir_acc + np.sum(gt**2, axis=-1, keepdims=True)
        self.z = project_ball(self.z - gt / np.sqrt(2 * np.maximum(self._dir_acc, 1e-300)), 1.0)


class Frozen:
    """Plays a fixed point: linear regret (a negative control)."""

    def __init__(self, R: int, point: np.ndarray):
        self.w = np.broadcast_to(np.asarray(point, dtype=float), (R, len(point))).copy()

    def predict(self) -> np.ndarray:
        return self.w

    def update(self, g: np.ndarray) -> None:
        pass
