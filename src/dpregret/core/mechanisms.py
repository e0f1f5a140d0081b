"""Noise mechanisms: Van der Hoeven (thesis ch. 3), Sec. 3.2.1 (the l2 randomiser of
Song et al. 2015 and the local Laplace randomiser, Lemma 4), and Zhang, Tran & Cutkosky,
Sec. 1 "Differential Privacy" / Remark 2 (the Gaussian mechanism).

Every mechanism draws all of its randomness through :mod:`dpregret.core.rng`, so ``rng`` may
be a numpy ``Generator`` or a :class:`~dpregret.core.rng.ReplicateStreams`.

Shape convention.  The data ``x`` is a scalar, a vector ``(d,)`` or a batch ``(B, d)``
(the last axis holds the coordinates).  With a ``Generator`` the noise has ``x.shape``.
With ``ReplicateStreams`` of ``R`` replicates, a scalar or vector ``x`` is shared by all
replicates and the output is ``(R, *x.shape)``; a 2-D ``x`` must be ``(R, d)`` (one row
per replicate) and the output keeps that shape.

The ``*_logpdf`` functions give the normalised log-density of a noise *vector* ``z``
(last axis = coordinates), returning one value per leading index.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special

from dpregret.core import validate as V
from dpregret.core.rng import ReplicateStreams, draw_gamma_int, draw_laplace, draw_normal

__all__ = [
    "laplace_noise",
    "laplace_mechanism",
    "gaussian_mechanism",
    "local_laplace_scale",
    "local_laplace_randomiser",
    "local_laplace_epsilon",
    "l2_laplace_randomiser",
    "laplace_logpdf",
    "gaussian_logpdf",
    "l2_laplace_logpdf",
]


# --- argument checks ---------------------------------------------------------------
def _data(name: str, x, rng, *, ndim=(0, 1, 2)) -> tuple[np.ndarray, tuple[int, ...]]:
    """Validate the data array; return it and the ``shape`` to pass to the draw_* functions."""
    a = V.finite_array(name, x, ndim=ndim)
    if isinstance(rng, ReplicateStreams):
        if a.ndim == 2:
            if a.shape[0] != rng.R:
                raise ValueError(
                    f"{name} is 2-D, so with ReplicateStreams it must have shape (R, d) = "
                    f"({rng.R}, d), got {a.shape}"
                )
            return a, a.shape[1:]
    elif not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator or ReplicateStreams, got {type(rng).__name__}")
    return a, a.shape


def _positive_array(name: str, v, *, length: int | None = None) -> np.ndarray:
    """A finite scalar or 1-D array, all entries > 0 (length ``length`` if 1-D)."""
    a = V.finite_array(name, v, ndim=(0, 1))
    if not np.all(a > 0):
        raise ValueError(f"{name} must be > 0 (every entry), got {v!r}")
    if a.ndim == 1 and length is not None and a.shape[0] != length:
        raise ValueError(f"{name} must be a scalar or have length {length}, got shape {a.shape}")
    return a


def _tau(tau, d: int | None = None) -> np.ndarray:
    """Per-coordinate budgets tau_j in (0, inf]; inf means the coordinate is not privatised."""
    t = np.asarray(tau, dtype=float)
    if t.ndim != 1 or t.size == 0:
        raise ValueError(f"tau must be a non-empty 1-D array, got shape {t.shape}")
    if d is not None and t.shape[0] != d:
        raise ValueError(f"tau must have length d = {d} (one budget per coordinate), got {t.shape[0]}")
    if np.any(np.isnan(t)) or np.any(t <= 0):
        # tau_j = 0 is allowed by the thesis' "tau_j >= 0" but gives the improper density
        # exp(-0 |z_j|) (infinite noise), which cannot be sampled.
        raise ValueError(f"tau must lie in (0, inf] entrywise (inf = no noise), got {tau!r}")
    return t


# --- Laplace and Gaussian mechanisms --------------------------------------------------
def laplace_noise(scale, shape: tuple[int, ...], rng) -> np.ndarray:
    """Laplace(0, scale) noise; ``scale`` scalar or per-coordinate (broadcast on the last axis).

    Output shape is ``shape`` (Generator) or ``(R, *shape)`` (ReplicateStreams).
    """
    if not isinstance(shape, tuple) or not all(isinstance(s, int | np.integer) and s >= 0 for s in shape):
        raise ValueError(f"shape must be a tuple of integers >= 0, got {shape!r}")
    last = shape[-1] if shape else None
    s = _positive_array("scale", scale, length=last)
    if s.ndim == 1 and last is None:
        raise ValueError("scale must be a scalar when shape is ()")
    return draw_laplace(rng, s, shape)


def laplace_mechanism(x, scale, rng) -> np.ndarray:
    """``x + Laplace(0, scale)`` with independent coordinates.

    ``scale`` is a scalar or an array of length ``x.shape[-1]`` (per-coordinate scale b_j,
    density ``exp(-|z_j|/b_j) / (2 b_j)``).  With l1-sensitivity Delta, ``b = Delta/eps`` gives
    eps-DP (Dwork & Roth 2014).
    """
    a, shape = _data("x", x, rng)
    s = _positive_array("scale", scale, length=a.shape[-1] if a.ndim else None)
    if s.ndim == 1 and a.ndim == 0:
        raise ValueError("scale must be a scalar when x is a scalar")
    return a + draw_laplace(rng, s, shape)


def gaussian_mechanism(x, sigma, rng) -> np.ndarray:
    """``x + N(0, sigma^2 I)``.

    Zhang et al., Remark 2 / Lemma 18: with l2-sensitivity Delta this is
    ``(alpha, alpha Delta^2 / (2 sigma^2))``-RDP for every alpha > 1.
    """
    a, shape = _data("x", x, rng)
    s = V.positive("sigma", sigma)
    return a + s * draw_normal(rng, shape)


# --- Van der Hoeven, Lemma 4: the local Laplace randomiser ---------------------------
def local_laplace_scale(tau, bound=1.0) -> np.ndarray:
    """Laplace scale of each coordinate: ``2 * bound_j / tau_j`` (0 where tau_j = inf).

    The thesis' density ``rho(z) ∝ exp(-sum_j tau_j/2 |z_j|)`` is Laplace with scale
    ``2/tau_j`` on coordinate j for ``|g_j| <= 1``; for ``|g_j| <= bound_j`` apply it to
    ``g / bound`` and rescale, i.e. scale ``2 bound_j / tau_j``.
    """
    t = _tau(tau)
    b = _positive_array("bound", bound, length=t.shape[0])
    return np.where(np.isinf(t), 0.0, 2.0 * b / t)


def local_laplace_epsilon(tau, *, protected_only: bool = False) -> float:
    """Privacy level of the local Laplace randomiser (Lemma 4): ``eps_t = sum_j tau_j``.

    Infinite as soon as one tau_j is inf.  With ``protected_only`` the sum runs over the
    finite tau_j only: the LDP level of the sub-vector of privatised coordinates (the
    thesis, Sec. 3.4: guarantees hold "for attributes with tau_j < inf").
    """
    t = _tau(tau)
    return float(t[np.isfinite(t)].sum() if protected_only else t.sum())


def local_laplace_randomiser(g, tau, rng, *, bound=1.0, eps: float | None = None) -> np.ndarray:
    """Van der Hoeven, Lemma 4: ``g + xi`` with ``xi_j ~ Laplace(0, 2 bound_j / tau_j)``.

    Lemma 4 (thesis ch. 3): *Suppose |g_{t,j}| <= 1, then the local Laplace randomiser
    (noise density rho_t(z) ∝ exp(-sum_j tau_{t,j}/2 |z_j|), sum_j tau_{t,j} = eps_t,
    tau_{t,j} >= 0) is eps_t-local differentially private, where eps_t = sum_j tau_{t,j}.*
    So coordinate j gets Laplace noise of scale ``2/tau_j`` (``2 bound_j/tau_j`` for
    ``|g_j| <= bound_j``) and is itself tau_j-LDP.  ``tau_j = inf`` leaves coordinate j
    unchanged (exactly); ``tau_j = 0`` (infinite noise) is refused.

    Parameters
    ----------
    g : gradient, shape ``(d,)`` or ``(B, d)`` (``(R, d)`` with ReplicateStreams);
        must satisfy ``|g_j| <= bound_j`` (the lemma's hypothesis).
    tau : per-coordinate budgets, shape ``(d,)``, entries in (0, inf].
    bound : the coordinate bound (scalar or ``(d,)``), 1 in the lemma.
    eps : optional total budget; if given, the finite tau_j must sum to it.
    """
    a, shape = _data("g", g, rng, ndim=(1, 2))
    t = _tau(tau, a.shape[-1])
    b = _positive_array("bound", bound, length=a.shape[-1])
    if np.any(np.abs(a) > b):
        raise ValueError("g must satisfy |g_j| <= bound_j on every coordinate (Lemma 4 hypothesis)")
    if eps is not None:
        e = V.positive("eps", eps)
        total = t[np.isfinite(t)].sum()
        if not math.isclose(total, e, rel_tol=1e-9):
            raise ValueError(f"tau: the finite tau_j must sum to eps = {e}, got {total}")
    scale = local_laplace_scale(t, b)
    # Scale 0 gives noise of exactly (+/-)0, so tau_j = inf coordinates are returned unchanged.
    return a + draw_laplace(rng, scale, shape)


# --- Song et al. (2015), as quoted in the thesis Sec. 3.2.1: the l2 randomiser ------------
def l2_laplace_randomiser(g, eps, rng, *, bound=1.0) -> np.ndarray:
    """``g + z`` with ``rho(z) ∝ exp(-eps/(2 bound) ||z||_2)`` on R^d.

    Thesis Sec. 3.2.1 (Song et al. 2015, Thm 1): ``rho(z) ∝ exp(-eps/2 ||z||)`` is
    eps-LDP for ``||g|| <= 1`` (any two inputs differ by at most 2 in norm; the thesis writes
    a generic norm, here the Euclidean one).  For ``||g||_2 <= bound`` the noise is scaled
    by ``bound``.  Sampling: ``||z|| ~ Gamma(d, scale 2 bound/eps)``, independent of a
    direction uniform on the sphere (a normalised standard normal vector).
    """
    a, shape = _data("g", g, rng, ndim=(1, 2))
    e = V.positive("eps", eps)
    b = V.positive("bound", bound)
    if np.any(np.linalg.norm(a, axis=-1) > b):
        raise ValueError("g must satisfy ||g||_2 <= bound (the randomiser's hypothesis)")
    d = a.shape[-1]
    u = draw_normal(rng, shape)
    u /= np.linalg.norm(u, axis=-1, keepdims=True)
    r = draw_gamma_int(rng, d, shape[:-1]) * (2.0 * b / e)
    return a + r[..., None] * u


# --- log-densities (for auditing) ----------------------------------------------------
def _vectors(name: str, z) -> np.ndarray:
    a = V.finite_array(name, z)
    if a.ndim < 1:
        raise ValueError(f"{name} must have ndim >= 1 (last axis = coordinates), got a scalar")
    return a


def laplace_logpdf(z, scale) -> np.ndarray:
    """Log-density of independent Laplace(0, scale_j) coordinates, summed over the last axis."""
    a = _vectors("z", z)
    s = _positive_array("scale", scale, length=a.shape[-1])
    return np.sum(-np.log(2.0 * s) - np.abs(a) / s, axis=-1)


def gaussian_logpdf(z, sigma) -> np.ndarray:
    """Log-density of N(0, sigma^2 I_d) at the vectors ``z`` (last axis)."""
    a = _vectors("z", z)
    s = V.positive("sigma", sigma)
    d = a.shape[-1]
    return -0.5 * np.sum(a * a, axis=-1) / s**2 - d * (math.log(s) + 0.5 * math.log(2 * math.pi))


def l2_laplace_logpdf(z, eps, *, bound=1.0) -> np.ndarray:
    """Exact log-density of ``rho(z) = c exp(-a ||z||_2)`` on R^d, ``a = eps/(2 bound)``.

    ``1/c = |S^{d-1}| Gamma(d) / a^d`` with sphere area ``|S^{d-1}| = 2 pi^{d/2} / Gamma(d/2)``.
    """
    x = _vectors("z", z)
    e = V.positive("eps", eps)
    b = V.positive("bound", bound)
    d = x.shape[-1]
    rate = e / (2.0 * b)
    log_c = (d * math.log(rate) - special.gammaln(d) - math.log(2.0) - 0.5 * d * math.log(math.pi)
             + special.gammaln(d / 2))
    return log_c - rate * np.linalg.norm(x, axis=-1)
