"""Ene, Nguyen, Vladu (AAAI 2021), "Projection-Free Bandit Optimization with Privacy
Guarantees": the paper's bounds as plain functions, for PRIVATEBANDIT (Algorithm 1,
section 3) and NOISYOCO (Algorithm 2, section 4.1) of :mod:`dpregret.papers.env21.learners`
and :mod:`dpregret.papers.env21.noisy_oco`: Lemma 3.1 (regret of Algorithm 1, with the explicit
constants of Appendix C), Lemma 4.1 (Algorithm 2, Appendix B's constants), Lemmas 5.2 and 5.5
(section 5, Laplace and Gaussian noise), Lemma C.2 and Corollary C.5 (Appendix C).

Logarithms as in :mod:`dpregret.papers.env21.learners`: ``log T`` counting tree levels is
base 2, the concentration/delta logarithms of Lemma 5.5 are natural.
"""
from __future__ import annotations

import math

from dpregret.core import validate as V
from dpregret.papers.env21.learners import algorithm1_parameters, batch_schedule


def bound_lemma_c2(T_batch: int, n: int, L: float, D: float, zeta: float, *, tight: bool = False) -> float:
    """Lemma C.2: ``E||g~_R||^2 <= T_batch (L D n / zeta)^2 + T_batch^2 L^2`` (statement);
    ``tight=True``: the proof's ``T_batch (L D n/zeta)^2 + (T_batch^2 - T_batch) L^2``.
    Needs ``0 <= f_t <= L D`` at every queried point (true with the shrinking trick)."""
    b = V.integer("T_batch", T_batch)
    a = b * (V.positive("L", L) * V.positive("D", D) * V.integer("n", n) / V.positive("zeta", zeta)) ** 2
    return a + (b * b - (b if tight else 0)) * L * L


def bound_cor_c5(T: int, T_batch: int, eta: float, mu: float, kappa: float, D: float) -> float:
    """Corollary C.5: ``E||x^_R - x~_R|| <= eta (ceil(log2 T) mu + kappa) + sqrt(20) D / sqrt(T_batch)``
    (Lemma C.3 + Lemma C.4; the Frank-Wolfe part is ``||x_k - x*|| <= sqrt(20) D / sqrt(k)``)."""
    T = V.integer("T", T)
    return (V.positive("eta", eta) * (math.ceil(math.log2(T)) * V.nonnegative("mu", mu) + V.nonnegative("kappa", kappa))
            + math.sqrt(20.0) * V.positive("D", D) / math.sqrt(V.integer("T_batch", T_batch)))


def bound_lemma4_1(T: int, kappa: float, gamma: float, D_omega: float, *, eta: float | None = None) -> float:
    """Lemma 4.1 with the proof's explicit constants (Appendix B, chain (1)-(4)):
    ``E R_T <= D_omega^2 / eta + (eta / 2) T kappa^2 + T kappa gamma``  (step (3), using
    ``omega*(0) + omega(x*) <= D_omega^2``, true when omega >= 0).  Default ``eta = 2 D_omega /
    (kappa T^(1/2))`` (step (4)), giving ``1.5 T^(1/2) kappa D_omega + T kappa gamma``; the
    statement's O(T^(1/2) kappa D_omega + T kappa gamma) hides that 1.5.

    Erratum: Algorithm 2 line 1 prints ``eta = D_omega^(1/2) / (kappa T^(1/2))``, which is not
    homogeneous in D_omega (the bound becomes ``D_omega^(3/2) kappa T^(1/2) + ...``, not
    O(T^(1/2) kappa D_omega)); :func:`~dpregret.papers.env21.noisy_oco.noisy_oco` uses step (4)'s eta.
    (Line 5's ``s_t = s_t + g~_t`` means ``s_t = s_{t-1} + g~_t``.)"""
    T = V.integer("T", T)
    kappa, D_omega = V.positive("kappa", kappa), V.positive("D_omega", D_omega)
    gamma = V.nonnegative("gamma", gamma)
    eta = 2.0 * D_omega / (kappa * math.sqrt(T)) if eta is None else V.positive("eta", eta)
    return D_omega**2 / eta + 0.5 * eta * T * kappa**2 + T * kappa * gamma


def bound_lemma3_1(T: int, n: int, L: float, D: float, mu: float, *, C: float = 1.0,
                   explicit: bool = False, D_omega: float | None = None, r: float | None = None) -> float:
    """Lemma 3.1: ``R_T = O(T^(3/4) n^(1/2) L D + T^(1/4) D mu log2 T)``; ``C`` is the hidden
    constant (default 1): returns ``C * (...)``.

    ``explicit=True`` returns the proof's chain with every constant (Appendix C): Lemma 4.1
    step (3) over the T_round rounds with Algorithm 1's eta,
    ``D_omega^2 / eta + (eta/2) T_round kappa^2 + T_round kappa gamma`` with
    ``kappa^2`` = :func:`bound_lemma_c2` and ``gamma`` = :func:`bound_cor_c5`, plus
    ``2 T zeta L`` (C.1 + C.3), plus ``T zeta L D / r`` if the shrinking radius ``r`` is given
    (Appendix D).  ``D_omega`` defaults to D, as the proof's "D_omega^2 = max ||x||^2/2 <= D^2"
    (an erratum in general: the cycle C_6's spanning-tree polytope has max ||x||^2/2 = 2.5 > D^2 = 2;
    the step only needs ``omega*(0) + omega(x*) <= max omega - min omega``).
    """
    T, n = V.integer("T", T, minimum=2), V.integer("n", n)
    L, D, mu = V.positive("L", L), V.positive("D", D), V.nonnegative("mu", mu)
    if not explicit:
        return V.positive("C", C) * (T**0.75 * math.sqrt(n) * L * D + T**0.25 * D * mu * math.log2(T))
    b, rounds, _ = batch_schedule(T)
    zeta, eta = algorithm1_parameters(T, n, L, D)
    kappa = math.sqrt(bound_lemma_c2(b, n, L, D, zeta))
    gamma = bound_cor_c5(T, b, eta, mu, kappa, D)
    Dw = D if D_omega is None else V.positive("D_omega", D_omega)
    out = Dw**2 / eta + 0.5 * eta * rounds * kappa**2 + rounds * kappa * gamma + 2 * T * zeta * L
    return out + (T * zeta * L * D / V.positive("r", r) if r is not None else 0.0)


def bound_lemma5_2(T: int, n: int, L: float, D: float, eps: float, *, C: float = 1.0) -> float:
    """Lemma 5.2 (Laplace): ``C (T^(3/4) n^(1/2) L D + T^(3/4) n^(3/2) L D log2^2 T / eps)``.
    Hidden constants: Lemma 3.1's and ``mu <= sqrt(2 n) lambda`` (the paper's O(n^(1/2) lambda))."""
    T, n = V.integer("T", T, minimum=2), V.integer("n", n)
    L, D, eps = V.positive("L", L), V.positive("D", D), V.positive("eps", eps)
    return V.positive("C", C) * (T**0.75 * n**0.5 * L * D + T**0.75 * n**1.5 * L * D * math.log2(T) ** 2 / eps)


def bound_lemma5_5(T: int, n: int, L: float, D: float, eps: float, delta: float, *, C: float = 1.0) -> float:
    """Lemma 5.5 (Gaussian): ``C (T^(3/4) n^(1/2) L D
    + T^(1/2) n L D log2^2 T ln(T/delta) ln((n+T)/delta) / eps
    + T^(3/4) n^(1/2) L D log2^2 T ln(T/delta) ln((n+T)/delta)^(1/2) / eps)``; hidden constants:
    Lemma 3.1's, ``mu <= n^(1/2) sigma`` and ``sqrt(1 + a) <= 1 + sqrt(a)``.  (The paper asks
    ``delta = 1/(n+T)^O(1)``; any delta in (0, 1) is accepted.)"""
    T, n = V.integer("T", T, minimum=2), V.integer("n", n)
    L, D, eps = V.positive("L", L), V.positive("D", D), V.positive("eps", eps)
    delta = V.probability("delta", delta)
    lg, lt, ln_ = math.log2(T), math.log(T / delta), math.log((n + T) / delta)
    return V.positive("C", C) * (T**0.75 * n**0.5 * L * D + T**0.5 * n * L * D * lg**2 * lt * ln_ / eps
                                 + T**0.75 * n**0.5 * L * D * lg**2 * lt * math.sqrt(ln_) / eps)
