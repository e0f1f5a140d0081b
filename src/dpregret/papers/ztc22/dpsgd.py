"""Zhang, Tran, Cutkosky (NeurIPS 2022), "Differentially Private Online-to-Batch for Smooth Losses":
the one-pass projected DP-SGD baseline at Algorithm 1's privacy budget (the "sanitised
inputs" camp of Sec. 1, Abadi et al. 2016), run on the same data streams as :func:`dpregret.papers.ztc22.o2b.run`.
"""
from __future__ import annotations

import math

import numpy as np

from dpregret.core import validate as V
from dpregret.core.environments.stochastic import project_ball
from dpregret.core.rng import ReplicateStreams, draw_normal
from dpregret.papers.ztc22.o2b import Run


def run_dpsgd(problem, T: int, *, rho: float, src, noise_src, checkpoints, R: int) -> Run:
    """One-pass projected DP-SGD: ``y_{t+1} = Proj_W(y_t - eta (grad l(y_t, z_t) + N(0, s^2 I)))``
    with the gradient clipped at G (a no-op: ||grad|| <= G), ``s = 2G / rho`` (each record enters
    one step: the RDP composition over the T steps is one Gaussian with sensitivity 2G, i.e.
    (alpha, alpha rho^2/2)-RDP, the same budget as Algorithm 1), constant step ``eta = D /
    sqrt(T (G^2 + d s^2))`` and the averaged iterate (Shamir and Zhang 2013's
    ``E[L(avg) - L*] <= O(D sqrt(G^2 + d s^2) / sqrt(T))``).  The data are drawn from ``src``
    as in :func:`run`, so a common key gives common data."""
    T = V.integer("T", T, minimum=1)
    d, G, r = problem.d, problem.G, problem.r
    s = 2.0 * G / rho if math.isfinite(rho) else 0.0
    eta = problem.D / math.sqrt(T * (G**2 + d * s**2))
    y = np.zeros((R, d))
    avg = np.zeros((R, d))
    cps = sorted({int(c) for c in checkpoints if 1 <= int(c) <= T})
    sub = []
    for t in range(1, T + 1):
        z = problem.sample(src, R)
        gr = problem.grad(y, z)
        gn = np.linalg.norm(gr, axis=-1, keepdims=True)
        gr = gr * np.minimum(1.0, G / np.maximum(gn, 1e-300))
        avg = avg + (y - avg) / t
        y = project_ball(y - eta * (gr + s * draw_normal(noise_src, (d,)
                                                         if isinstance(noise_src, ReplicateStreams) else (R, d))), r)
        if t in cps:
            sub.append(problem.subopt(avg))
    S = np.stack(sub, 1)
    return Run(cps, S, np.full_like(S, np.nan), S)
