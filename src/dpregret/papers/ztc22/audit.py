"""Zhang, Tran, Cutkosky (NeurIPS 2022), "Differentially Private Online-to-Batch for Smooth Losses":
white-box support for the privacy audit of Algorithm 1 (Theorem 3, Sec. 2; proof in App. B.2): :class:`FixedData` serves
a fixed (worst-case neighbour) data set in order, and :func:`transcript_logpdf` is the exact
density of a released sequence under :func:`dpregret.papers.ztc22.o2b.run`.
"""
from __future__ import annotations

import math

import numpy as np

from .o2b import sensitivity_variant


class FixedData:
    """A fixed data set ``Z = (z_1, ..., z_T)`` served in order (for privacy audits, where the
    data are the worst-case neighbours and only the noise is random).  Wraps a problem."""

    def __init__(self, problem, zs: list[tuple]):
        self.problem, self.zs, self.i = problem, zs, 0
        for name in ("d", "r", "D", "G", "H", "sigma_G", "sigma_H", "mu", "x_star", "L_star"):
            setattr(self, name, getattr(problem, name))

    def sample(self, src, R):
        z = self.zs[self.i]
        self.i += 1
        return tuple(np.broadcast_to(np.asarray(c, dtype=float), (R, *np.shape(c))) for c in z)

    def grad(self, x, z):
        return self.problem.grad(x, z)

    def subopt(self, x):
        return self.problem.subopt(x)

    def neighbours(self, z, x_t, x_prev):
        return self.problem.neighbours(z, x_t, x_prev)


def transcript_logpdf(problem, zs: list[tuple], learner, released: np.ndarray, *, k: float, rho: float,
                      sensitivity: str = "eq6") -> np.ndarray:
    """log p_Z(y) of released sequences ``y = (g_t + gamma_t)_{t<=T}`` (shape (n, T, d)) under
    Algorithm 1 on the data set ``zs`` with a deterministic learner: replaying the algorithm on
    y fixes w_t, x_t, g_t and sigma_t, hence gamma_t = y_t - g_t and, through I_t, the node
    draw R_t = gamma_t - sum_{i in I_t, i < t} R_i ~ N(0, sigma_t^2 I).  Exact (white box)."""
    from ...tree import binary_prefix_set

    n, T, d = released.shape
    G, H = problem.G, problem.H
    x = np.zeros((n, d))
    g = np.zeros((n, d))
    bsum = 0.0
    maxdist = np.zeros(n)
    nodes: dict[int, np.ndarray] = {}
    logp = np.zeros(n)
    for t in range(1, T + 1):
        w = learner.predict()
        b_t, b_prev = float(t) ** k, float(t - 1) ** k
        x_prev = x
        bsum_prev, bsum = bsum, bsum + b_t
        x = (bsum_prev * x_prev + b_t * w) / bsum
        z = tuple(np.broadcast_to(np.asarray(c, dtype=float), (n, *np.shape(c))) for c in zs[t - 1])
        g = g + b_t * problem.grad(x, z) - (b_prev * problem.grad(x_prev, z) if t > 1 else 0.0)
        maxdist = np.maximum(maxdist, np.linalg.norm(w - x_prev, axis=-1))
        sigma = sensitivity_variant(sensitivity, t, k, G, H, maxdist) * math.sqrt(math.log2(2 * T)) / rho
        r_t = released[:, t - 1] - g - sum(nodes[i] for i in binary_prefix_set(t) if i < t)
        nodes[t] = r_t
        with np.errstate(divide="ignore", invalid="ignore"):
            sq = np.sum(r_t**2, axis=-1)
            lp = np.where(sigma > 0, -0.5 * sq / np.maximum(sigma, 1e-300) ** 2 - d * np.log(np.maximum(sigma, 1e-300)),
                          np.where(sq <= 1e-18, 0.0, -np.inf))
        logp += lp
        learner.update(released[:, t - 1])
    return logp
