"""Near-miss controls of Van der Hoeven (thesis ch. 3; NeurIPS 2019), run beside the paper's
learners (:mod:`dpregret.papers.vdh19.learners`) by ``papers.vdh19.scenario``: the non-learner (frozen at its start
point 0), fixed-step OGD (in Algorithm 2's magnitude slot), Algorithm 1 playing the printed eq.
(3.3.4), Algorithm 3 re-evaluated only where its state moved, and the direction learner tuned as if no user
cared about privacy (:class:`QuietStepOGDBall`)."""
from __future__ import annotations

import numpy as np

from dpregret.core import validate as V
from dpregret.papers.vdh19 import learners as vdh


class Frozen:
    """The non-learner: frozen at its start point ``0`` (any shape), ignoring its feedback.  In
    Algorithm 2's magnitude slot (``v_t = 0``) the reduction plays ``w_t = v_t z_t = 0`` while its
    direction learner still runs, so Algorithm 1's feedback ``<z_t, g~_t>`` is defined (Theorem 10's
    non-learner); its regret ``R_T(u) = -sum_t <g_t, u>`` is that of every learner frozen at 0 --
    Algorithm 2 with a direction learner that never moves (``z_t = 0``), Algorithm 3 frozen at 0."""

    def __init__(self, shape):
        self.shape = tuple(shape) if np.ndim(shape) else (int(shape),)
        self._w = np.zeros(self.shape)

    def predict(self) -> np.ndarray:
        return self._w.copy()

    def update(self, g) -> None:
        pass


class FixedStepOGD:
    """Control: unconstrained OGD with a fixed step, ``w_1 = 0``, ``w_{t+1} = w_t - eta g~_t``
    (any shape; in Algorithm 2's magnitude slot it replaces Algorithm 1).  Its regret obeys
    the identity ``sum_t <g~_t, w_t - u> = (||u||^2 - ||w_{T+1} - u||^2)/(2 eta) + eta/2 sum_t
    ||g~_t||^2``: linear in T, quadratic in ||u||, and ``R_T(0) > 1`` once ``eta/2 sum ||g~||^2``
    exceeds ``1 + ||w_{T+1}||^2/(2 eta)``, which Theorems 10-12 and (3.3.5) exclude."""

    def __init__(self, eta: float, shape):
        self.eta = V.positive("eta", eta)
        self.w = np.zeros(shape)

    def predict(self) -> np.ndarray:
        return self.w.copy()

    def update(self, g) -> None:
        self.w = self.w - self.eta * np.asarray(g, dtype=float)


class PrintedRule(vdh.PrivatePotential):
    """Algorithm 1 (conjugate prior) playing the printed eq. (3.3.4) instead of (3.3.2)
    (:func:`dpregret.papers.vdh19.learners.prediction_printed_3_3_4`, naive evaluation).  Entries whose
    value leaves float64 play 0 from then on and are flagged in ``failed``."""

    def __init__(self, G, *, b=1.0, shape=()):
        super().__init__(G, prior="conjugate", b=b, shape=shape)
        self.failed = np.zeros(self.shape, dtype=bool)

    def predict(self) -> np.ndarray:
        G = 1.0 / (5.0 * self.C)
        with np.errstate(all="ignore"):
            w = vdh.prediction_printed_3_3_4(self.L, self.b + self.V, G, self.b)
        self.failed |= ~np.isfinite(w)
        return np.where(self.failed, 0.0, w)


class LazySparsePotential(vdh.SparsePotential):
    """Algorithm 3 (:class:`dpregret.papers.vdh19.learners.SparsePotential`) re-evaluating (3.3.2) only
    where the state moved: a zero feedback ``g~_{t,j} = 0`` leaves ``L_j``, ``V_j`` and hence
    ``w_{t+1,j}`` unchanged, so with sparse subgradients and sparse noise most coordinates keep
    their prediction.  Same values as :class:`SparsePotential` (``tests/papers/vdh19/test_vdh19.py``)."""

    def __init__(self, G, d: int, *, batch=(), b=1.0):
        super().__init__(G, d, batch=batch, b=b)
        self._G = np.broadcast_to(np.asarray(G, dtype=float), self.shape).copy()
        self._w = None
        self._dirty = np.ones(self.shape, dtype=bool)

    def predict(self) -> np.ndarray:
        if self._w is None:
            self._w = super().predict()
        elif self._dirty.any():
            ix = self._dirty
            self._w[ix] = vdh.prediction(self.L[ix], self.b[ix] + self.V[ix], self._G[ix], b=self.b[ix])
        self._dirty[...] = False
        return self._w.copy()

    def update(self, g) -> None:
        super().update(g)
        self._dirty |= np.asarray(g) != 0


class StepPowerOGDBall(vdh.ProjectedOGDBall):
    """Mis-tuned twin of Algorithm 2's direction learner: projected OGD on the unit ball with
    ``eta_t = 1 / sum_{s<=t} ||g~_s||^2`` instead of ``(sum_s ||g~_s||^2)^{-1/2}`` (the AdaGrad-style
    step one power off: the square root forgotten).  With ``||g~|| ~ 1`` its steps shrink like 1/t, so
    the direction all but freezes after the first rounds (after a noisy round, at once)."""

    def update(self, g) -> None:
        g = vdh.feedback(g, self.shape)
        self.S = self.S + np.einsum("...i,...i->...", g, g)
        eta = np.divide(1.0, self.S, out=np.zeros_like(self.S), where=self.S > 0)
        y = self.z - eta[..., None] * g
        self.z = y / np.maximum(1.0, np.linalg.norm(y, axis=-1, keepdims=True))


class QuietStepOGDBall(vdh.ProjectedOGDBall):
    """Mis-tuned twin of Algorithm 2's direction learner tuned as if no user cared about privacy: projected OGD on
    the unit ball with ``eta_t = (G^2 t)^{-1/2}``, the step set from the bound ``G`` on the *noiseless*
    subgradients, instead of ``(sum_{s<=t} ||g~_s||^2)^{-1/2}`` (the privacy term of the sum ignored).  Where
    nobody privatises and ``||g_t|| = G`` (the minority runs: unit-norm rows) it plays exactly as
    :class:`~dpregret.papers.vdh19.learners.ProjectedOGDBall`; a private round's noise moves it by ``||xi_t|| /
    sqrt(t)`` instead of ``||xi_t|| / sqrt(sum ||g~||^2)``."""

    def __init__(self, d: int, *, batch=(), G: float = 1.0):
        super().__init__(d, batch=batch)
        self.G2 = V.positive("G", G) ** 2
        self.t = 0

    def update(self, g) -> None:
        g = vdh.feedback(g, self.shape)
        self.t += 1
        self.S = self.S + np.einsum("...i,...i->...", g, g)
        y = self.z - g / np.sqrt(self.G2 * self.t)
        self.z = y / np.maximum(1.0, np.linalg.norm(y, axis=-1, keepdims=True))


def noise_folded_G(G: float, sigma2: float) -> float:
    """The mis-tuned twin's ``G`` of Algorithm 1: ``sqrt(G^2 + sigma^2)``, the bound on the *noisy*
    feedback's root mean square (``sigma^2`` the randomiser's second moment) where Lemma 7 needs only a
    bound on ``|E g~|``: the privacy noise folded into the prior's support ``C = 1/(5G)`` (bets too small)."""
    return float(np.sqrt(G * G + sigma2))
