"""Zhang, Tran, Cutkosky (NeurIPS 2022), "Differentially Private Online-to-Batch for Smooth Losses":
the bounds on Algorithm 1 (:func:`dpregret.papers.ztc22.o2b.run`) as plain functions: Theorem 4
(Sec. 2, excess risk, and its second part on E||g_t + gamma_t||^2, the OGD step size of Remark 5),
Theorem 8 (section 4, strongly convex, on Lemma 7's regularised losses) with its second part
and Remark 9's OSD regret, and Theorem 11 (section 5, parameter-free; its A, A', Phi come from
:func:`dpregret.papers.ztc22.o2b.pf_params`).
"""
from __future__ import annotations

import math

import numpy as np


LAMBDA_L2 = 2.0  # ||.||_2^2 is 2-strongly convex w.r.t. ||.||_2 (Assumption 1)


def thm4_gsq(t: int, T: int, k: float, rho: float, problem, lam: float = LAMBDA_L2) -> float:
    """Theorem 4, second part: E||g_t + gamma_t||^2 <= 3 t^(2k) (G^2 + 4(k+1)^2/lambda
    ((sigma_G + D sigma_H)^2 / t + 2 V (G + DH)^2 log2(2T)^2 / (rho^2 t^2))), V = d."""
    p = problem
    priv = 2 * p.d * (p.G + p.D * p.H) ** 2 * math.log2(2 * T) ** 2 / (rho**2 * t**2) if math.isfinite(rho) else 0.0
    return 3 * t ** (2 * k) * (p.G**2 + 4 * (k + 1) ** 2 / lam * ((p.sigma_G + p.D * p.sigma_H) ** 2 / t + priv))


def bound_thm4(regret: np.ndarray, T: int, k: float, rho: float, problem, lam: float = LAMBDA_L2) -> np.ndarray:
    """Theorem 4: E[L(x_T) - L(x*)] <= (k+1) E[Regret_T(x*)] / T^(k+1) + 2 (k+1)^2 D / sqrt(lambda)
    ((sigma_G + D sigma_H) / sqrt(T) + sqrt(2V) (G + DH) log2(2T) / (rho T)), V = d.
    ``regret``: per-replicate measured Regret_T(x*) (its mean is E Regret)."""
    p = problem
    priv = math.sqrt(2 * p.d) * (p.G + p.D * p.H) * math.log2(2 * T) / (rho * T) if math.isfinite(rho) else 0.0
    return (k + 1) * np.asarray(regret) / T ** (k + 1) + 2 * (k + 1) ** 2 * p.D / math.sqrt(lam) * (
        (p.sigma_G + p.D * p.sigma_H) / math.sqrt(T) + priv)


def bound_thm8(regret: np.ndarray, T: int, k: float, rho: float, problem, lam: float = LAMBDA_L2) -> np.ndarray:
    """Theorem 8: E[L(x_T) - L(x*)] <= (k+1) E[Regret-bar_T(x*)] / T^(k+1) + 16 (k+1)^3 / (lambda mu)
    ((sigma_G + D sigma_H)^2 / T + 2 V (G + DH)^2 log2(2T)^2 / (rho^2 T^2))."""
    p = problem
    priv = 2 * p.d * (p.G + p.D * p.H) ** 2 * math.log2(2 * T) ** 2 / (rho**2 * T**2) if math.isfinite(rho) else 0.0
    return (k + 1) * np.asarray(regret) / T ** (k + 1) + 16 * (k + 1) ** 3 / (lam * p.mu) * (
        (p.sigma_G + p.D * p.sigma_H) ** 2 / T + priv)


def thm8_gbar_sq(t: int, T: int, k: float, rho: float, problem, lam: float = LAMBDA_L2) -> float:
    """Theorem 8, second part: E||gbar_t||^2 <= t^(2k) (4G^2 + mu^2 D^2 + 16(k+1)^2/lambda
    ((sigma_G + D sigma_H)^2 / t + 2V (G + DH)^2 log2(2T)^2 / (rho^2 t^2)))."""
    p = problem
    priv = 2 * p.d * (p.G + p.D * p.H) ** 2 * math.log2(2 * T) ** 2 / (rho**2 * t**2) if math.isfinite(rho) else 0.0
    return t ** (2 * k) * (4 * p.G**2 + p.mu**2 * p.D**2 + 16 * (k + 1) ** 2 / lam * (
        (p.sigma_G + p.D * p.sigma_H) ** 2 / t + priv))


def osd_regret_bound_thm8(T: int, k: float, rho: float, problem) -> float:
    """Remark 9's OSD on the beta_t mu/2-strongly convex losses of Lemma 7:
    E Regret-bar_T <= sum_t E||gbar_t||^2 / (2 sum_{i<=t} mu_i), mu_i = i^k mu / 2."""
    acc, out = 0.0, 0.0
    for t in range(1, T + 1):
        acc += t**k * problem.mu / 2
        out += thm8_gbar_sq(t, T, k, rho, problem) / (2 * acc)
    return out


def bound_thm11(regret_bar: np.ndarray, T: int, rho: float, problem, pf: dict, x0=None) -> np.ndarray:
    """Theorem 11 (holds with probability >= 1 - delta): L(x_T) - L(x*) <= 4 Regret-bar_T(x*) / T^4
    + 8 A ||x*|| (G + 28 ||x*|| H) Phi / sqrt(T) + 8 A' ||x*|| (G + DH) Phi log2(2T) / (rho T); ``x0``: the
    learner's start in Section 5's shifted coordinates ("by shifting coordinates", before Theorem 10), where
    ||x*|| becomes ||x* - x0|| (Regret-bar then regularised in w - x0)."""
    p = problem
    # ||x* - x0||: a number, or one per row of a family
    xs = np.linalg.norm(p.x_star if x0 is None else p.x_star - x0, axis=-1)
    priv = (8 * pf["A1"] * xs * (p.G + p.D * p.H) * pf["Phi"] * math.log2(2 * T) / (rho * T)
            if math.isfinite(rho) else 0.0)
    return (4 * np.asarray(regret_bar) / T**4
            + 8 * pf["A"] * xs * (p.G + 28 * xs * p.H) * pf["Phi"] / math.sqrt(T) + priv)


def thm6_terms(T: int, rho: float, problem, lam: float = LAMBDA_L2) -> tuple[float, float]:
    """Section 3's adaptive rate (Theorem 6 with Theorem 4, the display after Theorem 6), its two terms with Theorem
    4's explicit constants: E[L(x_T) - L(x*)] = O(D (sigma_G + D sigma_H)/sqrt(T) + sqrt(d) D (G + DH) log T/(rho T)),
    returned as (statistical, privacy) = (2(k+1)^2 D/sqrt(lambda) (sigma_G + D sigma_H)/sqrt(T),
    2(k+1)^2 D/sqrt(lambda) sqrt(2V)(G + DH) log2(2T)/(rho T)) at k = 1 (the common factor only scales both; their
    ratio is what ZTC-thm6-adaptive-sigma's regime condition reads), V = d; privacy 0 at rho = inf."""
    p = problem
    c = 2 * 4 * p.D / math.sqrt(lam)
    stat = c * (p.sigma_G + p.D * p.sigma_H) / math.sqrt(T)
    priv = c * math.sqrt(2 * p.d) * (p.G + p.D * p.H) * math.log2(2 * T) / (rho * T) if math.isfinite(rho) else 0.0
    return stat, priv
