"""Ene, Nguyen, Vladu (AAAI 2021), "Projection-Free Bandit Optimization with Privacy
Guarantees", section 4.1: NOISYOCO (Algorithm 2) on linear losses with a controlled
(kappa, gamma)-noisy oracle, the setting of Lemma 4.1 (its bound:
:func:`dpregret.papers.env21.bounds.bound_lemma4_1`).  Shares the replicate,
draw and checkpoint conventions of :mod:`dpregret.papers.env21.learners`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpregret.core import validate as V
from dpregret.core.environments.polytopes import Polytope
from dpregret.papers.env21.learners import checkpoint_grid, normal_draws, replicate_count


@dataclass
class OCORun:
    checkpoints: np.ndarray
    regret: np.ndarray  # (R, C)
    eta: float
    grad_sd: float


def noisy_oco(domain: Polytope, loss_vectors, rng, *, kappa: float, gamma: float, R: int | None = None,
              eta: float | None = None, map_noise: str = "sphere", checkpoints=None) -> OCORun:
    """NOISYOCO (Algorithm 2) on linear losses ``f_t(x) = <l_t, x>`` (rows of ``loss_vectors``,
    shape (T, n)) over a domain with ``project`` (``grad omega*(y) = Proj_K(y)`` for
    ``omega = ||x||^2 / 2``), with a (kappa, gamma)-noisy oracle:

    - NOISYGRAD: ``l_t + xi``, ``xi ~ N(0, s^2 I_n)``, ``s^2 = (kappa^2 - max ||l_t||^2) / n``,
      so ``E||g~||^2 <= kappa^2`` (requires ``kappa >= max ||l_t||``);
    - NOISYMAP: ``Proj_K(-eta s) + gamma w`` with ``||w|| = 1``, so ``E||x~ - grad omega*|| = gamma``:
      ``map_noise="sphere"`` draws w uniformly; ``"adversarial"`` sets ``w = l_t / ||l_t||``
      (the worst error allowed by the definition; the oblivious ``l_t`` is known in advance).

    ``eta`` defaults to ``2 D_omega / (kappa T^(1/2))`` (Appendix B step (4); see
    :func:`~dpregret.papers.env21.bounds.bound_lemma4_1` for the printed line 1).
    Regret is against ``min_K <sum l_t, x>`` (LMO).
    """
    if not isinstance(domain, Polytope) or not domain.has_projection:
        raise ValueError("domain must be a Polytope with a Euclidean projection")
    Lv = V.finite_array("loss_vectors", loss_vectors, ndim=2)
    if Lv.shape[1] != domain.n:
        raise ValueError(f"loss_vectors must have shape (T, {domain.n}), got {Lv.shape}")
    if map_noise not in ("sphere", "adversarial"):
        raise ValueError(f"map_noise must be 'sphere' or 'adversarial', got {map_noise!r}")
    R = replicate_count(rng, R)
    T, n = Lv.shape
    G = float(np.linalg.norm(Lv, axis=1).max())
    kappa = V.positive("kappa", kappa)
    if kappa < G:
        raise ValueError(f"kappa must be >= max ||l_t|| = {G:.4g}, got {kappa}")
    gamma = V.nonnegative("gamma", gamma)
    eta = 2.0 * domain.D_omega / (kappa * math.sqrt(T)) if eta is None else V.positive("eta", eta)
    sd = math.sqrt((kappa**2 - G**2) / n)
    cps = checkpoint_grid(checkpoints, T)
    s = np.zeros((R, n))
    cum = np.zeros(R)
    out = np.zeros((R, cps.size))
    k = 0
    for t in range(1, T + 1):
        ell = Lv[t - 1]
        x = domain.project(-eta * s)
        if map_noise == "sphere":
            w = normal_draws(rng, R, (n,))
            w /= np.linalg.norm(w, axis=1, keepdims=True)
        else:
            nl = np.linalg.norm(ell)
            w = np.broadcast_to(ell / nl if nl > 0 else 0.0 * ell, (R, n))
        x = x + gamma * w
        cum += x @ ell
        s = s + ell + sd * normal_draws(rng, R, (n,))
        if t == cps[k]:
            out[:, k] = cum
            k += 1 if k + 1 < cps.size else 0
    prefix = np.cumsum(Lv, axis=0)[cps - 1]
    best = np.einsum("ij,ij->i", prefix, domain.lmo(prefix))
    return OCORun(checkpoints=cps, regret=out - best, eta=eta, grad_sd=sd)
