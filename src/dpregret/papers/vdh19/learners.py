"""Van der Hoeven (thesis ch. 3; NeurIPS 2019), "User-Specified Local Differential Privacy
in Unconstrained Adaptive Online Learning": Algorithm 1 (Sec. 3.3, the private adaptive
potential with the conjugate prior, eq. (3.3.4), and the improper prior, eq. (3.8.1)),
Algorithm 2 (Sec. 3.3.1, black-box reduction, eq. (3.3.5)), Algorithm 3 (Sec. 3.3.2,
coordinate-wise Algorithm 1) and the baselines of Sec. 3.4 (diagonal AdaGrad with a guessed D,
OGD tuned to the worst-case noise).  The bounds of Theorems 10, 11, 12 and eq. (3.3.5) are in
:mod:`dpregret.papers.vdh19.bounds`.

Algorithm 1 plays ``w_t = E_{v~P}[v exp(v L_t - v^2 V_t)]`` (eq. (3.3.2)), ``L_t = -sum_{s<t}
g~_s``, ``V_t = sum_{s<t} g~_s^2``, over ``v in [-C, C]``, ``C = 1/(5G)``, where ``G`` bounds
``|E[g~_t]|``.  Conjugate prior ``dP/dv = exp(-b v^2)/Z`` (``Z = sqrt(pi/b) erf(C sqrt b)``,
``B_t = b + V_t``); improper prior ``dP/dv = 1/|v|`` (``B_t = V_t``).

Closed forms (derived from (3.3.2); ``x = v/C``, ``lam = C|L|``, ``beta = C^2 B``,
``h = sqrt(beta)``, ``y = lam/(2h)``)::

    conjugate: w = sign(L) C^2 n(lam, beta) / Z,
        n = int_{-1}^{1} x e^{lam x - beta x^2} dx
          = sqrt(pi) y e^{y^2} [erf(y+h) - erf(y-h)] / (2 beta) - e^{-beta} sinh(lam) / beta
      i.e. w = [sqrt(pi) L e^{L^2/4B} (erf((L+2CB)/2sqrtB) - erf((L-2CB)/2sqrtB)) / (4 B^{3/2})
                - e^{-C^2 B} sinh(C L) / B] / Z;
    improper:  w = sign(L) C p(lam, beta),
        p = int_{-1}^{1} sign(x) e^{lam x - beta x^2} dx
          = sqrt(pi) e^{y^2} [2 erf(y) - erf(y-h) - erf(y+h)] / (2h)          (= eq. (3.8.1)).

Both are evaluated in log space, in three regimes chosen so that no step cancels badly:
``lam <= 2``: the power series ``2 sum_k lam^(2k+1)/(2k+1)! m_j(beta)`` (``j = 2k+2`` for n,
``2k+1`` for p; ``m_j = int_0^1 x^j e^{-beta x^2} dx`` by its Taylor series for ``beta <= 1``,
by ``gammainc`` otherwise); peak ``L/(2B)`` inside ``(-C, C)``: the erf/erfc form with
``e^{y^2}`` factored out; peak at or beyond the boundary: an erfcx form with ``e^{lam - beta}``
factored out, using ``r(x) = 1 - sqrt(pi) x erfcx(x)`` (asymptotic series for ``x >= 10``).
Agreement with mpmath quadrature of (3.3.2) is ~1e-12 relative (``tests/papers/vdh19/test_vdh19_learners.py``).
Predictions whose value overflows float64 raise ``ValueError`` naming ``w_t``.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special as sp

from dpregret.core import validate as V
from dpregret.core.mechanisms import local_laplace_scale

__all__ = [
    "ERRATA", "bet_radius", "log_prediction", "prediction", "prediction_printed_3_3_4",
    "prediction_printed_3_8_1", "PrivatePotential", "ProjectedOGDBall", "BlackBoxReduction",
    "SparsePotential", "DiagonalAdaGrad", "NoiseTunedOGD", "laplace_noise_second_moment", "logsumexp_rows",
]

PRIORS = ("conjugate", "improper")
LOG_MAX = math.log(np.finfo(float).max)
SQRT_PI = math.sqrt(math.pi)  # sqrt(pi), in the series here and in vdh_bounds
_K = 15  # series terms: 2^(2K+1)/(2K+1)! < 1e-22

ERRATA = [
    {"paper": "VDH19",
     "where": "Sec. 3.3, eq. (3.3.4) (predictions (3.3.2) with the conjugate prior)",
     "printed": "w_t = sqrt(b) L e^{(L+2CB)^2/4B} (erf((L-2CB)/2sqrtB) - erf((L+2CB)/2sqrtB)) / "
                "(erf(C sqrt b) e^{C(L+CB)} 4 B^{3/2}) + 2 sqrtB (e^{2CL} - 1) / (erf(C sqrt b) e^{C(L+CB)} 4 B^{3/2})",
     "correct": "(3.3.2) gives w_t = T1 - T2 with T1 = sqrt(b) L e^{L^2/4B} (erf((L+2CB)/2sqrtB) - "
                "erf((L-2CB)/2sqrtB)) / (4 B^{3/2} erf(C sqrt b)) and T2 = sqrt(b) e^{-C^2 B} sinh(CL) / (sqrt(pi) B "
                "erf(C sqrt b)); the printed form equals -T1 + sqrt(pi/b) T2: the erf difference is reversed and the "
                "second term has the wrong sign and lacks the factor sqrt(b/pi) of 1/Z, so it is neither w_t nor -w_t "
                "(for L > 0 it can even have the wrong sign). Checked against mpmath quadrature of (3.3.2); dpregret "
                "implements T1 - T2 (in log space)",
     "test": "tests/papers/vdh19/test_vdh19_learners.py::test_printed_3_3_4_disagrees_with_definition"},
]


def bet_radius(G):
    """``C = 1/(5G)``: the prior's support ``[-C, C]`` (Algorithm 1 input, Lemma 7 needs |v E g~| <= 1/5)."""
    return 1.0 / (5.0 * positive_array("G", G))


def positive_array(name, x, *, allow_zero=False):
    """``x`` as a float array, every entry finite and > 0 (>= 0 with ``allow_zero``), else ValueError."""
    a = np.asarray(x, dtype=float)
    if a.size == 0 or not np.all(np.isfinite(a)) or np.any(a < 0 if allow_zero else a <= 0):
        raise ValueError(f"{name} must be finite and {'>= 0' if allow_zero else '> 0'} (every entry), got {x!r}")
    return a


# --- numerics: n(lam, beta) and p(lam, beta) in log space -----------------------------------
def _r(x):
    """``r(x) = 1 - sqrt(pi) x erfcx(x)`` for ``x >= 0`` (~ 1/(2x^2) for large x)."""
    s = x < 10.0
    if s.all():  # no entry for the asymptotic series (the same numbers, without its loop over nothing)
        return 1.0 - SQRT_PI * x * sp.erfcx(x)
    out = np.empty_like(x)
    out[s] = 1.0 - SQRT_PI * x[s] * sp.erfcx(x[s])
    z = 1.0 / (2.0 * x[~s] ** 2)
    term, tot = np.ones_like(z), np.zeros_like(z)
    for k in range(1, 14):  # sum_k (-1)^(k+1) (2k-1)!! z^k, error < 25!! / 200^13 ~ 1e-17
        term = term * ((2 * k - 1) * z if k == 1 else -(2 * k - 1) * z)
        tot += term
    out[~s] = tot
    return out


def _log_series(lam, beta, first):
    """``log(2 sum_{k<K} lam^(2k+1)/(2k+1)! m_{2k+first}(beta))``, ``first`` 1 (p) or 2 (n)."""
    c = _SERIES[first]
    lm = np.empty((lam.size, _K))
    s = beta <= 1.0
    if s.any():  # m_j = sum_i (-beta)^i / (i! (j + 1 + 2i)), alternating, |terms| decreasing
        bi = beta[s][None, :, None]
        lm[s] = np.log(np.sum((-bi) ** c.i / c.fact / c.den, axis=0))
    if (~s).any():  # m_j = Gamma(a) P(a, beta) / (2 beta^a), a = (j+1)/2
        bl = beta[~s][:, None]
        lm[~s] = np.log(sp.gammainc(c.a, bl)) + c.gammaln_a - c.a * np.log(bl) - math.log(2.0)
    with np.errstate(divide="ignore"):
        t = c.odd * np.log(lam)[:, None] - c.gammaln_odd + lm
    return math.log(2.0) + logsumexp_rows(t)


class _SeriesConstants:
    """The constants of :func:`_log_series` for ``first`` (1 or 2), computed once (the same calls, the same
    numbers): ``k = 0..K-1``, ``j = 2k + first``; ``i = 0..21`` (the Taylor terms of m_j), ``i!``, ``j + 1 + 2i``;
    ``a = (j + 1)/2`` and ``gammaln(a)``; ``2k + 1`` and ``gammaln(2k + 2)``."""

    def __init__(self, first: int):
        k = np.arange(_K)
        j = 2 * k + first
        self.i = np.arange(22)[:, None, None]
        self.fact = sp.factorial(self.i)
        self.den = j + 1 + 2 * self.i
        self.a = (j + 1) / 2.0
        self.gammaln_a = sp.gammaln(self.a)
        self.odd = 2 * k + 1
        self.gammaln_odd = sp.gammaln(2 * k + 2)


_SERIES = {first: _SeriesConstants(first) for first in (1, 2)}


def logsumexp_rows(a: np.ndarray) -> np.ndarray:
    """``scipy.special.logsumexp(a, axis=1)`` for a real 2-D ``a``: scipy's own steps (1.17, the version
    config/constraints.txt pins), the same NumPy calls in the same order, so the same bits, without its
    array-API dispatch (most of its time on these small arrays).  ``tests/papers/vdh19`` compares the two bit
    for bit."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out_inf = np.log(np.sum(np.exp(a), axis=1, keepdims=True))  # where the result is infinite
        a_max = np.max(a, axis=1, keepdims=True)
        i_max = a == a_max
        rest = a.copy()
        rest[i_max] = -np.inf  # the maxima are separated out of the sum (for precision)
        m = np.sum(i_max.astype(a.dtype), axis=1, keepdims=True, dtype=a.dtype)
        s = np.sum(np.exp(rest - a_max), axis=1, keepdims=True, dtype=a.dtype)
        s = np.where(s == 0, s, s / m)
        sgn = np.sign(s + 1) * np.sign(m)
        s = np.where(s < -1, -s - 2, s)
        m = np.abs(m)
        out = np.log1p(s) + np.log(m) + a_max
        out[sgn < 0] = np.nan
        out = np.where(np.isfinite(out), out, out_inf)
    return np.squeeze(out, axis=1)


def _log_np(lam, beta, kind):
    """``log n`` (kind "n") or ``log p`` (kind "p") for flat arrays ``lam >= 0``, ``beta >= 0``
    (``beta > 0`` for n); ``-inf`` at ``lam = 0``.  A regime no entry is in is skipped (the same numbers)."""
    out = np.empty(lam.shape)
    ser = lam <= 2.0
    if ser.any():
        out[ser] = _log_series(lam[ser], beta[ser], 2 if kind == "n" else 1)
    rest = ~ser
    if not rest.any():
        return out
    zero = rest & (beta == 0.0)  # improper prior before any feedback: p = 2 (cosh lam - 1) / lam
    if zero.any():
        out[zero] = lam[zero] + 2.0 * np.log(-np.expm1(-lam[zero])) - np.log(lam[zero])
    inside = rest & ~zero & (lam < 2.0 * beta)  # peak L/(2B) inside (-C, C)
    if inside.any():
        out[inside] = _log_inside(lam[inside], beta[inside], kind)
    edge = rest & ~zero & ~inside  # peak at or beyond C: factor e^{lam - beta} out
    if edge.any():
        out[edge] = _log_edge(lam[edge], beta[edge], kind)
    return out


def _log_inside(l, b, kind):
    """:func:`_log_np` where the peak ``L/(2B)`` is inside ``(-C, C)``: the erf/erfc form, ``e^{y^2}`` factored out."""
    h = np.sqrt(b)
    y = l / (2.0 * h)
    if kind == "n":
        br = SQRT_PI * y * (1.0 - 0.5 * (sp.erfc(h - y) + sp.erfc(h + y))) - 0.5 * (
            np.exp(l - b - y * y) - np.exp(-l - b - y * y))
        return y * y - np.log(b) + np.log(br)
    br = 2.0 * sp.erf(y) - sp.erfc(h - y) + sp.erfc(h + y)
    return y * y + math.log(SQRT_PI / 2.0) - np.log(h) + np.log(br)


def _log_edge(l, b, kind):
    """:func:`_log_np` where the peak is at or beyond C: the erfcx form, ``e^{lam - beta}`` factored out."""
    h = np.sqrt(b)
    y = l / (2.0 * h)
    p, q = y - h, y + h
    if kind == "n":
        br = SQRT_PI * h * sp.erfcx(p) - _r(p) + np.exp(-2.0 * l) * (_r(q) + SQRT_PI * h * sp.erfcx(q))
        return l - b - np.log(2.0 * b) + np.log(br)
    br = sp.erfcx(p) - 2.0 * np.exp(b - l) * sp.erfcx(y) + np.exp(-2.0 * l) * sp.erfcx(q)
    return l - b + math.log(SQRT_PI / 2.0) - np.log(h) + np.log(br)


def _log_pred(L, B, C, b, prior):
    """(sign, log|w|) of (3.3.2) for broadcast arrays (all checked by the caller)."""
    L, B, C, b = np.broadcast_arrays(L, B, C, b)
    lam, beta = (C * np.abs(L)).ravel(), (C * C * B).ravel()
    if prior == "conjugate":
        hb = C * np.sqrt(b)  # log Z = log(sqrt(pi) erf(C sqrt b) / sqrt b)
        log_w = 2 * np.log(C) + _log_np(lam, beta, "n").reshape(L.shape) - (
            math.log(SQRT_PI) + np.log(sp.erf(hb)) - 0.5 * np.log(b))
    else:
        log_w = np.log(C) + _log_np(lam, beta, "p").reshape(L.shape)
    return np.sign(L), log_w


def _prior(prior):
    if prior not in PRIORS:
        raise ValueError(f"prior must be one of {PRIORS}, got {prior!r}")
    return prior


def _check_pred_args(L, B, G, prior, b):
    prior = _prior(prior)
    L = V.finite_array("L", L)
    B = positive_array("B", B, allow_zero=prior == "improper")
    C = bet_radius(G)
    if prior == "conjugate":
        b = positive_array("b", b)
        if np.any(B < b):
            raise ValueError("B must be >= b (B_t = b + sum_s g~_s^2 for the conjugate prior)")
    else:
        b = 0.0
    return L, B, C, b, prior


def log_prediction(L, B, G, *, prior="conjugate", b=None):
    """``(sign(w), log|w|)`` of Algorithm 1's prediction (3.3.2) at ``L_t``, ``B_t``.

    ``B`` is the paper's ``B_t``: ``b + sum_{s<t} g~_s^2`` (conjugate prior, needs ``b > 0``)
    or ``sum_{s<t} g~_s^2`` (improper prior).  Arrays broadcast; ``w = 0`` at ``L = 0``
    (sign 0, log -inf).  Finite even where ``w`` itself overflows float64.
    """
    L, B, C, b, prior = _check_pred_args(L, B, G, prior, b)
    return _log_pred(L, B, C, b, prior)


def _exp_checked(sign, log_w, what="w_t"):
    if np.any(log_w > LOG_MAX):
        raise ValueError(
            f"{what} (Algorithm 1's prediction, eq. (3.3.2)) is not representable in float64: "
            f"log|{what}| = {np.max(log_w):.6g} > {LOG_MAX:.6g} (the potential/wealth overflows) "
            f"at {int(np.sum(log_w > LOG_MAX))} entr(y/ies)")
    with np.errstate(under="ignore"):
        return sign * np.exp(log_w)


def prediction(L, B, G, *, prior="conjugate", b=None):
    """Algorithm 1's prediction (3.3.2) (closed form in the module docstring).

    Raises ``ValueError`` (naming ``w_t``) where ``|w_t|`` exceeds the float64 range.
    """
    return _exp_checked(*log_prediction(L, B, G, prior=prior, b=b))


def prediction_printed_3_3_4(L, B, G, b):
    """Eq. (3.3.4) exactly as printed, evaluated naively (moderate arguments only); it
    disagrees with its definition (3.3.2), see :data:`ERRATA`.  Kept to show the erratum."""
    L, B, C, b, _ = _check_pred_args(L, B, G, "conjugate", b)
    den = sp.erf(C * np.sqrt(b)) * np.exp(C * (L + C * B)) * 4.0 * B**1.5
    t1 = np.sqrt(b) * L * np.exp((L + 2 * C * B) ** 2 / (4 * B)) * (
        sp.erf((L - 2 * C * B) / (2 * np.sqrt(B))) - sp.erf((L + 2 * C * B) / (2 * np.sqrt(B))))
    return (t1 + 2.0 * np.sqrt(B) * (np.exp(2 * C * L) - 1.0)) / den


def prediction_printed_3_8_1(L, B, G):
    """Eq. (3.8.1) as printed, evaluated naively (``B > 0``, moderate arguments); it agrees
    with (3.3.2) for the improper prior."""
    L, B, C, _, _ = _check_pred_args(L, B, G, "improper", None)
    s = 2.0 * np.sqrt(B)
    return SQRT_PI * np.exp(L * L / (4 * B)) * (
        2 * sp.erf(L / s) - sp.erf((L + 2 * C * B) / s) - sp.erf((L - 2 * C * B) / s)) / s


# --- learners ---------------------------------------------------------------------------------
def _shape(name, shape):
    if isinstance(shape, int | np.integer) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, tuple) or not all(
            isinstance(s, int | np.integer) and not isinstance(s, bool) and s >= 1 for s in shape):
        raise ValueError(f"{name} must be a tuple of integers >= 1, got {shape!r}")
    return tuple(int(s) for s in shape)


def feedback(g, shape):
    g = V.finite_array("g", g)
    if g.shape != shape:
        raise ValueError(f"g must have shape {shape}, got {g.shape}")
    return g


def _param(name, x, shape, *, allow_zero=False):
    a = positive_array(name, x, allow_zero=allow_zero)
    try:
        return np.broadcast_to(a, shape).copy()
    except ValueError:
        raise ValueError(f"{name} must broadcast to shape {shape}, got shape {a.shape}") from None


class PrivatePotential:
    """Algorithm 1 (Sec. 3.3): ``w_t`` of eq. (3.3.2), vectorised over ``shape`` (e.g.
    replicates x coordinates); every entry is an independent 1-D learner.

    ``G`` (scalar or broadcastable to ``shape``): bound on ``|E[g~_t]|``, ``C = 1/(5G)``.
    ``prior``: ``"conjugate"`` (``exp(-b v^2)`` on ``[-C, C]``, eq. (3.3.4) corrected) or
    ``"improper"`` (``1/|v|``, eq. (3.8.1)).  ``b > 0`` (conjugate only; the thesis leaves it
    free, default 1).  No other parameter: the initial wealth is the ``-1`` inside ``F_T``
    (eq. (3.3.1)), i.e. 1.  State: ``L = -sum g~``, ``V = sum g~^2``.
    """

    def __init__(self, G, *, prior="conjugate", b=1.0, shape=()):
        self.shape = _shape("shape", shape)
        self.prior = _prior(prior)
        self.C = 1.0 / (5.0 * _param("G", G, self.shape))
        self.b = _param("b", b, self.shape) if self.prior == "conjugate" else np.zeros(self.shape)
        self.L = np.zeros(self.shape)
        self.V = np.zeros(self.shape)

    def log_predict(self):
        return _log_pred(self.L, self.b + self.V, self.C, self.b, self.prior)

    def predict(self) -> np.ndarray:
        return _exp_checked(*self.log_predict())

    def update(self, g) -> None:
        self._update(feedback(g, self.shape))

    def _update(self, g) -> None:
        """:meth:`update` on feedback its caller checked (finite, of shape ``self.shape``): Algorithm 2 checks
        each round's feedback once, at its own boundary."""
        self.L = self.L - g
        self.V = self.V + g * g


class SparsePotential(PrivatePotential):
    """Algorithm 3 (Sec. 3.3.2): one Algorithm 1 with the conjugate prior per coordinate,
    ``w_{t,j} = v_{t,j}``; shape ``(*batch, d)``.

    ``G``, ``b``: scalars or length-d arrays (``G_j`` bounds ``|E g~_{t,j}|``; with the local
    Laplace randomiser of Lemma 4 this is the coordinate bound ``bound_j`` of
    :func:`dpregret.core.mechanisms.local_laplace_randomiser`, 1 in the lemma).  The noise levels
    ``tau_j`` are not inputs: the learner never sees them, and coordinates with
    ``tau_j = inf`` (no noise) are handled exactly like the others.
    """

    def __init__(self, G, d: int, *, batch=(), b=1.0):
        d = V.integer("d", d)
        super().__init__(G, prior="conjugate", b=b, shape=(*_shape("batch", batch), d))


class ProjectedOGDBall:
    """Projected OGD on the unit l2 ball (Algorithm 2's direction learner ``A_Z``):
    ``z_1 = 0``, ``z_{t+1} = Proj(z_t - eta_t g~_t)``, ``eta_t = (sum_{s<=t} ||g~_s||_2^2)^{-1/2}``
    (Orabona and Pal 2018, cited in Sec. 3.3.1); no step while that sum is 0.  Shape
    ``(*batch, d)``."""

    def __init__(self, d: int, *, batch=()):
        self.shape = (*_shape("batch", batch), V.integer("d", d))
        self.z = np.zeros(self.shape)
        self.S = np.zeros(self.shape[:-1])

    def predict(self) -> np.ndarray:
        return self.z.copy()

    def update(self, g) -> None:
        self._update(feedback(g, self.shape))

    def _update(self, g) -> None:
        """:meth:`update` on feedback its caller checked (see :meth:`PrivatePotential._update`)."""
        self.S = self.S + np.einsum("...i,...i->...", g, g)
        eta = np.divide(1.0, np.sqrt(self.S), out=np.zeros_like(self.S), where=self.S > 0)
        y = self.z - eta[..., None] * g
        self.z = y / np.maximum(1.0, np.linalg.norm(y, axis=-1, keepdims=True))


class BlackBoxReduction:
    """Algorithm 2 (Sec. 3.3.1, eq. (3.3.5)): ``w_t = v_t z_t`` with ``z_t`` from the direction
    learner (default :class:`ProjectedOGDBall`; any object with ``predict()``/``update(g)``
    returning/accepting ``(*batch, d)`` arrays in the unit ball) and ``v_t`` from Algorithm 1
    (shape ``batch``) fed ``<z_t, g~_t>``; ``G`` bounds ``||E g~_t||_2``."""

    def __init__(self, G, d: int, *, batch=(), prior="conjugate", b=1.0, direction=None):
        batch = _shape("batch", batch)
        self.d = V.integer("d", d)
        self.magnitude = PrivatePotential(G, prior=prior, b=b, shape=batch)
        self.direction = ProjectedOGDBall(self.d, batch=batch) if direction is None else direction
        self.shape = (*batch, self.d)
        self._z = None

    def predict(self) -> np.ndarray:
        self._z = np.asarray(self.direction.predict(), dtype=float)
        return self._z * self.magnitude.predict()[..., None]

    def update(self, g) -> None:
        """Round t's feedback ``g~_t``, checked here once; its parts get it unchecked (the magnitude's
        ``<z_t, g~_t>`` is finite for the default direction, whose z_t lies in the unit ball; a direction or a
        magnitude of the caller's own, e.g. a frozen one, is fed through its public ``update``)."""
        g = feedback(g, self.shape)
        own = type(self.direction) is ProjectedOGDBall
        z = self._z if self._z is not None else np.asarray(self.direction.predict(), dtype=float)
        m = np.einsum("...i,...i->...", z, g)
        (self.magnitude._update if own and type(self.magnitude) is PrivatePotential else self.magnitude.update)(m)
        (self.direction._update if own else self.direction.update)(g)
        self._z = None


class DiagonalAdaGrad:
    """Baseline (Sec. 3.4): diagonal AdaGrad projected on the l_inf box ``[-D, D]^d`` with a
    guessed ``D``: ``w_1 = 0``, ``w_{t+1,j} = clip(w_{t,j} - eta g~_{t,j} / s_{t,j}, -D, D)``,
    ``s_{t,j} = sqrt(sum_{s<=t} g~_{s,j}^2)`` (no step while ``s_{t,j} = 0``), ``eta = sqrt(2) D``
    (Duchi et al. 2011, Cor. 6 with box diameter ``D_inf = 2D``; see
    :func:`~dpregret.papers.vdh19.bounds.bound_adagrad`)."""

    def __init__(self, D, d: int, *, batch=(), eta=None):
        self.D = V.positive("D", D)
        self.eta = math.sqrt(2.0) * self.D if eta is None else V.positive("eta", eta)
        self.shape = (*_shape("batch", batch), V.integer("d", d))
        self.w = np.zeros(self.shape)
        self.S = np.zeros(self.shape)

    def predict(self) -> np.ndarray:
        return self.w.copy()

    def update(self, g) -> None:
        g = feedback(g, self.shape)
        self.S = self.S + g * g
        step = np.divide(g, np.sqrt(self.S), out=np.zeros_like(g), where=self.S > 0)
        self.w = np.clip(self.w - self.eta * step, -self.D, self.D)


class NoiseTunedOGD:
    """Baseline (Sec. 3.4): OGD on the l2 ball of radius ``D`` with the step tuned to the
    worst-case noise: ``eta = D / sqrt(T (G^2 + sigma_max^2))``, ``w_1 = 0``,
    ``w_{t+1} = Proj_{||w||_2 <= D}(w_t - eta g~_t)``.  ``G >= ||g_t||_2``; ``sigma_max^2 >=
    E||xi_t||_2^2`` for every t (e.g. ``sum_j`` :func:`laplace_noise_second_moment`); this eta
    minimises :func:`~dpregret.papers.vdh19.bounds.bound_ogd` at ``||u|| = D``."""

    def __init__(self, D, T: int, G, sigma_max, d: int, *, batch=()):
        self.D = V.positive("D", D)
        T = V.integer("T", T)
        G = V.positive("G", G)
        s = V.nonnegative("sigma_max", sigma_max)
        self.eta = self.D / math.sqrt(T * (G * G + s * s))
        self.shape = (*_shape("batch", batch), V.integer("d", d))
        self.w = np.zeros(self.shape)

    def predict(self) -> np.ndarray:
        return self.w.copy()

    def update(self, g) -> None:
        y = self.w - self.eta * feedback(g, self.shape)
        self.w = y * np.minimum(1.0, self.D / np.maximum(np.linalg.norm(y, axis=-1, keepdims=True), 1e-300))


def laplace_noise_second_moment(tau, bound=1.0) -> np.ndarray:
    """``E[xi_j^2] = 2 (2 bound_j / tau_j)^2`` for the local Laplace randomiser (Lemma 4);
    0 where ``tau_j = inf`` (coordinate not privatised)."""
    return 2.0 * local_laplace_scale(tau, bound) ** 2
