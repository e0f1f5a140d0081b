"""Agarwal and Singh (ICML 2017), sections 2 and 3: online linear optimisation over the
sphere (X = unit l2 ball) and the cube (X = {||x||_inf <= 1}).

- Algorithm 1 with ``R(x) = ||x||_2^2`` (Corollary 3.2, items 2 and 3): :class:`BallFTRL`,
  :class:`CubeFTRL`; Theorem 3.4's terms for this regulariser: :func:`d_r_quadratic`,
  :func:`dual_norm_sq`, :func:`eta_ftrl`, :func:`bound_thm3_4_quadratic`, :func:`d_noise_range`.
- Algorithm 3 (FTPL, Theorem 3.5 and its proof in Appendix A): :class:`FTPLLinear`,
  :func:`sigma_thm3_5`, :func:`bound_thm3_5`.
- The Laplace scale of Corollary 3.2 by its definition (Lemma 3.3) and as printed:
  :func:`laplace_scale_cor3_2`, :func:`laplace_scale_printed`.

Learners read a prefix-sum estimate ``L~`` (``dpregret.papers.as17.prefix_sums``), state
``(B, N)``, and follow ``ExpWeights``: ``predict()`` then ``update(l_t)``.

Stability constant for ``R(x) = ||x||_2^2`` (eq. (4) made explicit).  Let
``F_t(x) = eta <x, L_{t-1}> + ||x||^2``, 2-strongly convex in l2, ``x_t = argmin_X F_t``.
First-order optimality of ``x_t`` over the convex X plus strong convexity give
``F_t(y) - F_t(x_t) >= ||y - x_t||^2`` for every y in X.  Take ``y = x_{t+1}`` for F_t and
``y = x_t`` for ``F_{t+1} = F_t + eta <l_t, .>``, and add:
``eta <l_t, x_t - x_{t+1}> >= 2 ||x_t - x_{t+1}||^2``.  Cauchy-Schwarz then gives
``||x_t - x_{t+1}|| <= eta ||l_t||_2 / 2`` and

    <l_t, x_t - x_{t+1}> <= eta ||l_t||_2^2 / 2 = eta (||l_t||*)^2,

with ``(||l||*)^2 = l^T (grad^2 R)^{-1} l = ||l||_2^2 / 2``; equality holds while both
iterates are interior (then ``x_t - x_{t+1} = eta l_t / 2``).  So eq. (4) holds with
constant 1 in the dual local norm (1/2 in l2), and with the FTL-BTL step (3):
``Regret <= D_R / eta + eta S + D_noise``, ``S = sum_t ||l_t||_2^2 / 2``.
"""
from __future__ import annotations

import math

import numpy as np

from dpregret.core import validate as V
from dpregret.core.environments.olo import DOMAINS, domain_name  # noqa: F401 (re-exported)
from dpregret.core.calibration import fresh_noise_lambda
from dpregret.core.rng import stable_key
from dpregret.core.tree import draws_per_release, nodes_covering_leaf



def _eta(eta) -> np.ndarray:
    a = np.asarray(eta, dtype=float)
    if a.size == 0 or np.any(~np.isfinite(a)) or np.any(a <= 0):
        raise ValueError(f"eta must be finite and > 0, got {eta!r}")
    return a


def _nonneg(name: str, value) -> np.ndarray:
    a = np.asarray(value, dtype=float)
    if np.any(~np.isfinite(a)) or np.any(a < 0):
        raise ValueError(f"{name} must be finite and >= 0, got {value!r}")
    return a


# --- learners -----------------------------------------------------------------------

class _QuadraticFTRL:
    """``x_t = argmin_X eta <x, L~> + ||x||^2 = Proj_X(-eta L~ / 2)``, since the objective
    equals ``||x + eta L~ / 2||^2`` up to a constant.  ``eta``: scalar or ``(B, 1)``."""

    def __init__(self, eta, prefix_sum):
        self.eta = _eta(eta)
        self.sums = prefix_sum

    def predict(self) -> np.ndarray:
        return self.play(self.sums.estimate)

    def play(self, estimate: np.ndarray) -> np.ndarray:
        """The point played on the prefix-sum estimate ``estimate`` (any leading axes)."""
        return self._project(-0.5 * self.eta * estimate)

    def update(self, loss: np.ndarray) -> None:
        self.sums.step(loss)


class BallFTRL(_QuadraticFTRL):
    """Algorithm 1 on the unit l2 ball: ``x = y / max(1, ||y||_2)``, ``y = -eta L~ / 2``."""

    @staticmethod
    def _project(y: np.ndarray) -> np.ndarray:
        return y / np.maximum(1.0, np.linalg.norm(y, axis=-1, keepdims=True))


class CubeFTRL(_QuadraticFTRL):
    """Algorithm 1 on [-1, 1]^N: ``x = clip(-eta L~ / 2, -1, 1)``."""

    @staticmethod
    def _project(y: np.ndarray) -> np.ndarray:
        return np.clip(y, -1.0, 1.0)


def linear_oracle(domain: str, L: np.ndarray) -> np.ndarray:
    """A minimiser of ``<x, L>`` over X, along the last axis of ``L``.

    ball: ``-L / ||L||_2`` (0 if L = 0); cube: ``-sign(L)``; simplex: the vertex of the
    smallest coordinate (lowest index on ties).
    """
    domain = domain_name(domain)
    L = np.asarray(L, dtype=float)
    if domain == "ball":
        n = np.linalg.norm(L, axis=-1, keepdims=True)
        return -np.divide(L, n, out=np.zeros_like(L), where=n > 0)
    if domain == "cube":
        return -np.sign(L)
    return (np.arange(L.shape[-1]) == np.argmin(L, axis=-1)[..., None]).astype(float)


class FTPLLinear:
    """Algorithm 3: ``x_t = argmin_X <x, L~_{t-1}>`` by :func:`linear_oracle`.

    The perturbation is the noise of the prefix sum (a ``TreeSum`` with Gaussian draws of
    standard deviation :func:`sigma_thm3_5` gives the algorithm of Theorem 3.5; an
    ``ExactSum`` gives follow-the-leader).
    """

    def __init__(self, domain: str, prefix_sum):
        self.domain = domain_name(domain)
        self.sums = prefix_sum

    def predict(self) -> np.ndarray:
        return self.play(self.sums.estimate)

    def play(self, estimate: np.ndarray) -> np.ndarray:
        """The point played on the prefix-sum estimate ``estimate`` (any leading axes)."""
        return linear_oracle(self.domain, estimate)

    def update(self, loss: np.ndarray) -> None:
        self.sums.step(loss)


# --- Theorem 3.4 with R(x) = ||x||^2 --------------------------------------------------

def d_r_quadratic(domain: str, N: int) -> float:
    """``D_R = max_X ||x||^2 - min_X ||x||^2``: 1 on the ball, N on the cube."""
    domain = domain_name(domain, ("ball", "cube"))
    N = V.integer("N", N)
    return 1.0 if domain == "ball" else float(N)


def dual_norm_sq(loss: np.ndarray) -> np.ndarray:
    """``(||l||*_{grad^2 R})^2 = l^T (2 I)^{-1} l = ||l||_2^2 / 2`` along the last axis."""
    loss = np.asarray(loss, dtype=float)
    return 0.5 * np.einsum("...i,...i->...", loss, loss)


def eta_ftrl(D_R: float, S: float) -> float:
    """``eta = sqrt(D_R / S)``, the minimiser of ``D_R / eta + eta S`` (Theorem 3.4's
    terms, eqs. (3)-(4)); ``S = sum_t dual_norm_sq(l_t)``, e.g. ``T / 2`` for unit-l2 losses."""
    return math.sqrt(V.positive("D_R", D_R) / V.positive("S", S))


def bound_thm3_4_quadratic(eta, D_R: float, sum_sq_dual, d_noise=0.0):
    """``D_R / eta + eta * sum_sq_dual + d_noise`` (Theorem 3.4 with its eta explicit).

    ``sum_sq_dual = sum_t ||l_t||_2^2 / 2`` (:func:`dual_norm_sq`): the stability constant
    derived in the module docstring, ``<l_t, x_t - x_{t+1}> <= eta ||l_t||_2^2 / 2``.  At
    ``eta = eta_ftrl(D_R, S)`` this is ``2 sqrt(D_R S) + d_noise``.
    """
    eta = _eta(eta)
    D_R = V.positive("D_R", D_R)
    return D_R / eta + eta * _nonneg("sum_sq_dual", sum_sq_dual) + _nonneg("d_noise", d_noise)


def d_noise_range(domain: str, Z: np.ndarray) -> np.ndarray:
    """``max_X <Z, x> - min_X <Z, x>`` per sample (last axis): ball ``2 ||Z||_2``, cube
    ``2 ||Z||_1``, simplex ``max_i Z_i - min_i Z_i``; its mean is Theorem 3.4's ``D_{D'}``."""
    domain = domain_name(domain)
    Z = np.asarray(Z, dtype=float)
    if domain == "ball":
        return 2.0 * np.linalg.norm(Z, axis=-1)
    if domain == "cube":
        return 2.0 * np.abs(Z).sum(axis=-1)
    return Z.max(axis=-1) - Z.min(axis=-1)


# --- Theorem 3.5 (FTPL with Gaussian noise) ------------------------------------------

def sigma_thm3_5(T: int, N: int, eps: float, delta: float, Y2: float) -> float:
    """``sigma = max{ ||Y||_2 sqrt(T / (sqrt(N) log T)), sqrt(N)/eps log T log(log T / delta) }``.

    Every ``log T`` here counts tree levels -- the ``ceil(log T)`` draws in each release
    (Algorithm 3 line 2, Theorem A.1) -- so it is taken as ``K = draws_per_release(T) =
    max(1, ceil(log2 T))``: base 2 because the tree is binary, the ceiling because it is a
    count (and keeps T = 1 finite).  The outer ``log`` of ``log(log T / delta)`` comes from
    a Gaussian tail bound and is natural.  Printed form; note Theorem A.1 asks for
    ``||Y||_2`` where Theorem 3.5 prints ``sqrt(N)`` (>= ||Y||_2 when Y is in the unit cube).
    """
    T = V.integer("T", T)
    N = V.integer("N", N)
    eps = V.positive("eps", eps)
    delta = V.probability("delta", delta)
    Y2 = V.positive("Y2", Y2)
    K = draws_per_release(T)
    return max(Y2 * math.sqrt(T / (math.sqrt(N) * K)), math.sqrt(N) / eps * K * math.log(K / delta))


def sigma_twin_T23(T: int, N: int, eps: float, delta: float, Y2: float) -> float:
    """The mis-tuned twin of :func:`sigma_thm3_5` (the FTPL claims' twin control): the sqrt(T) branch with its
    exponent of T one notch off, ``||Y||_2 T^(2/3) / sqrt(sqrt(N) log T)`` (T^(1/2) x T^(1/6)); the privacy branch
    unchanged.  Where that branch sets sigma (large eps, large T), the perturbation term ``sigma sqrt(N log T)``
    of Appendix A's bound -- what FTPL pays on a fixed or stochastic leader -- grows as T^(2/3), not T^(1/2)."""
    K = draws_per_release(V.integer("T", T))
    priv = math.sqrt(N) / V.positive("eps", eps) * K * math.log(K / V.probability("delta", delta))
    return max(V.positive("Y2", Y2) * math.sqrt(T / (math.sqrt(N) * K)) * T ** (1.0 / 6.0), priv)


def bound_thm3_5(sigma: float, T: int, N: int, X2: float, Y2: float) -> float:
    """``sigma sqrt(N log T) ||X||_2 + T ||X||_2 ||Y||_2^2 / (2 sigma sqrt(log T))``
    (Appendix A, proof of Theorem 3.5), ``log T = draws_per_release(T)``: then
    ``sigma sqrt(log T)`` is exactly the per-coordinate standard deviation of the released
    noise (Theorem A.1, "Distribution"), the smoothing scale the bound is stated in."""
    sigma = V.positive("sigma", sigma)
    T = V.integer("T", T)
    N = V.integer("N", N)
    X2 = V.positive("X2", X2)
    Y2 = V.positive("Y2", Y2)
    K = draws_per_release(T)
    return sigma * math.sqrt(N * K) * X2 + T * X2 * Y2**2 / (2.0 * sigma * math.sqrt(K))


# --- Corollary 3.2, items 2 and 3: the Laplace scale ---------------------------------

def _y_l1(domain: str, N: int) -> float:
    """``||Y||_1 = max_{l in Y} ||l||_1``: sqrt(N) for the unit l2 ball, 1 for the unit l1 ball."""
    domain = domain_name(domain, ("ball", "cube"))
    return math.sqrt(V.integer("N", N)) if domain == "ball" else 1.0


def laplace_scale_cor3_2(domain: str, N: int, T: int, eps: float) -> float:
    """``lambda = diam_1(Y) * nodes_covering_leaf(T) / eps`` (Lemma 3.3's requirement).

    Erratum.  Corollary 3.2 prints ``sqrt(N) log T / eps`` (sphere) and ``log T / eps``
    (cube), i.e. ``||Y||_1 log T / eps`` (Theorem 3.1, Lemma 3.3).  Under replace-one
    neighbours (Definition 2.1) a tree node changes by ``l - l'``, whose l1 norm reaches
    ``diam_1(Y) = 2 ||Y||_1`` for symmetric Y (take ``l' = -l``): 2 sqrt(N) on the sphere,
    2 on the cube.  And one leaf lies in ``floor(log2 T) + 1`` released nodes, not
    ``ceil(log2 T)`` (see ``dpregret.core.tree``).  Ratio to :func:`laplace_scale_printed`:
    ``2 nodes_covering_leaf(T) / draws_per_release(T)`` (2 unless T is a power of two).
    """
    eps = V.positive("eps", eps)
    return 2.0 * _y_l1(domain, N) * nodes_covering_leaf(T) / eps


def laplace_scale_printed(domain: str, N: int, T: int, eps: float) -> float:
    """Corollary 3.2 as printed: ``||Y||_1 ceil(log2 T) / eps`` (the count floored at 1,
    as ``draws_per_release``); kept to show the discrepancy with the definition."""
    eps = V.positive("eps", eps)
    return _y_l1(domain, N) * draws_per_release(T) / eps


# Table 1's rows (Agarwal and Singh, section 3) and their decision sets, per-release noise scales and D_{D'}
ROW_DOMAIN = {"sphere": "ball", "cube": "cube", "ftpl": "ball"}


def noise_scales(row: str, N: int, T: int, eps: float) -> dict[str, float]:
    """Per-release noise scale of every algorithm at one (N, T, eps)."""
    K = draws_per_release(T)
    if row == "ftpl":
        sig = sigma_thm3_5(T, N, eps, 1.0 / T, 1.0)
        return {"nonprivate": 1.0 * math.sqrt(T / (math.sqrt(N) * K)), "tree": sig,
                "fresh_noise": sig * math.sqrt(T / K),
                "tree_sigma_T23": sigma_twin_T23(T, N, eps, 1.0 / T, 1.0)}
    diam = 2.0 * (math.sqrt(N) if row == "sphere" else 1.0)
    lam = laplace_scale_cor3_2(ROW_DOMAIN[row], N, T, eps)
    return {"nonprivate": 0.0, "tree": lam,
            "fresh_noise": fresh_noise_lambda(diam, T, eps, min(0.5, 1.0 / T**2)),
            "wrong_sensitivity": 2.0 * N * nodes_covering_leaf(T) / eps,
            # the mis-tuned twins (scenario_olo.TWIN_ALGORITHMS): the tree's own lambda (and draws), another eta
            "tree_eta_T23": lam, "nonprivate_eta_T23": 0.0, "tree_eta_N": lam}


def eta_twins(row: str, N: int, T: int) -> dict[str, float]:
    """Algorithm 1's step of every FTRL algorithm of ``row`` (sphere, cube): Theorem 3.4's
    ``eta = eta_ftrl(D_R, T / 2)`` and its mis-tuned twins, each ONE realistic mistake:
    ``*_eta_T23``: the exponent of T one notch off, ``eta x T^(-1/6)`` (eta ~ T^(-2/3), as the
    O~(T^(2/3)) approach tunes its step: the ramp D_R / eta grows as T^(2/3));
    ``tree_eta_N``: a dimension factor misplaced, ``eta / sqrt(N)`` (cube: the ball's D_R = 1 used for
    the cube's D_R = N; sphere: S bounded through ||l||_1^2 <= N, the l1 size the privacy calibration
    uses, instead of ||l||_2^2 <= 1): the ramp D_R / eta grows by sqrt(N), which a bound in N sees."""
    eta = eta_ftrl(d_r_quadratic(ROW_DOMAIN[row], N), T / 2.0)
    return {"nonprivate": eta, "tree": eta, "fresh_noise": eta, "wrong_sensitivity": eta,
            "tree_eta_T23": eta * T ** (-1.0 / 6.0), "nonprivate_eta_T23": eta * T ** (-1.0 / 6.0),
            "tree_eta_N": eta / math.sqrt(N)}


def d_noise_mc(row: str, N: int, T: int, lam: float, samples: int, root_seed: int) -> tuple[float, float]:
    """Monte Carlo ``D_{D'} = E[max_X <Z, x> - min_X <Z, x>]`` (Theorem 3.4) for the FTRL rows.

    ``Z`` is the sum of ``K = draws_per_release(T)`` i.i.d. ``Lap^N(lam)`` vectors (Lemma 3.3,
    "Distribution"); the range is ``2 ||Z||_2`` on the ball, ``2 ||Z||_1`` on the cube
    (:func:`d_noise_range`).  Returns (mean, standard error); the draws are keyed as
    scenario ``as17_olo``'s (its tables' bound column uses the same estimate)."""
    if row not in ("sphere", "cube"):
        raise ValueError(f"row must be 'sphere' or 'cube', got {row!r}")
    N, T = V.integer("N", N), V.integer("T", T)
    lam = V.positive("lam", lam)
    samples = V.integer("samples", samples, minimum=2)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        root_seed, spawn_key=stable_key("as17_olo", "D_noise", row, N, T, float(lam)))))
    K = draws_per_release(T)
    out = np.empty(samples)
    step = 4096
    for i in range(0, samples, step):
        n = min(step, samples - i)
        out[i : i + n] = d_noise_range(ROW_DOMAIN[row], rng.laplace(0.0, lam, (n, K, N)).sum(axis=1))
    return float(out.mean()), float(out.std(ddof=1) / np.sqrt(samples))
