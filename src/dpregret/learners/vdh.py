"""Van der Hoeven (thesis ch. 3; NeurIPS 2019), "User-Specified Local Differential Privacy
in Unconstrained Adaptive Online Learning": Algorithm 1 (Sec. 3.3, the private adaptive
potential with the conjugate prior, eq. (3.3.4), and the improper prior, eq. (3.8.1)),
Algorithm 2 (Sec. 3.3.1, black-box reduction, eq. (3.3.5)), Algorithm 3 (Sec. 3.3.2,
coordinate-wise Algorithm 1), the baselines of Sec. 3.4 (diagonal AdaGrad with a guessed D,
OGD tuned to the worst-case noise) and the bounds of Theorems 10, 11, 12 and eq. (3.3.5).

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
Agreement with mpmath quadrature of (3.3.2) is ~1e-12 relative (``tests/test_vdh.py``).
Predictions whose value overflows float64 raise ``ValueError`` naming ``w_t``.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special as sp

from .. import _validate as V
from ..mechanisms import local_laplace_scale

__all__ = [
    "ERRATA", "bet_radius", "log_prediction", "prediction", "prediction_printed_3_3_4",
    "prediction_printed_3_8_1", "PrivatePotential", "ProjectedOGDBall", "BlackBoxReduction",
    "SparsePotential", "DiagonalAdaGrad", "NoiseTunedOGD", "laplace_noise_second_moment",
    "CONSTANTS", "bound_thm10", "bound_thm11", "bound_thm12", "bound_eq3_3_5", "bound_adagrad", "bound_ogd",
    "constant_feedback_regret", "COUNTEREXAMPLES", "counterexample",
]

PRIORS = ("conjugate", "improper")
LOG_MAX = math.log(np.finfo(float).max)
_SQPI = math.sqrt(math.pi)
_K = 15  # series terms: 2^(2K+1)/(2K+1)! < 1e-22

ERRATA = [
    {"paper": "VDH19",
     "where": "Sec. 3.3, eq. (3.3.4) (predictions (3.3.2) with the conjugate prior)",
     "printed": "w_t = sqrt(b) L e^{(L+2CB)^2/4B} (erf((L-2CB)/2sqrtB) - erf((L+2CB)/2sqrtB)) / "
                "(erf(C sqrt b) e^{C(L+CB)} 4 B^{3/2}) + 2 sqrtB (e^{2CL} - 1) / (erf(C sqrt b) e^{C(L+CB)} 4 B^{3/2})",
     "correct": "(3.3.2) gives w_t = T1 - T2 with T1 = sqrt(b) L e^{L^2/4B} (erf((L+2CB)/2sqrtB) - erf((L-2CB)/2sqrtB)) "
                "/ (4 B^{3/2} erf(C sqrt b)) and T2 = sqrt(b) e^{-C^2 B} sinh(CL) / (sqrt(pi) B erf(C sqrt b)); the printed "
                "form equals -T1 + sqrt(pi/b) T2: the erf difference is reversed and the second term has the wrong sign "
                "and lacks the factor sqrt(b/pi) of 1/Z, so it is neither w_t nor -w_t (for L > 0 it can even have the "
                "wrong sign). Checked against mpmath quadrature of (3.3.2); dpregret implements T1 - T2 (in log space)",
     "test": "tests/test_vdh.py::test_printed_3_3_4_disagrees_with_definition"},
    {"paper": "VDH19",
     "where": "Theorem 10 (hence Theorem 11, its per-coordinate sum); proof in Sec. 3.7.1 / Lemma 11",
     "printed": "E[R_T(u)] <= 1 + |u| max{11G (ln(|u| 11G) - 1 + ln(sqrt5 G sqrt(pi) / (4 sqrt b))), "
                "E[sqrt(8B ln(16 u^2 B^{3/2} sqrt(pi)/sqrt(b) + 1))]}, B = b + sum_t g~_t^2",
     "correct": "false as printed: with G = 1/2, b = 1 and the deterministic (so symmetric, |E g~| <= G) feedback "
                "g~_t = -0.05, Algorithm 1 (itself checked against quadrature of (3.3.2)) exceeds the printed bound by "
                "more than 2 at some (t <= 400, u). In the branch L > 2CB the proof's own eta = (5 - sqrt5)/(50G) gives "
                "1/(eta - 5G eta^2/2) = 100G/(7 - sqrt5) ~ 21G (printed 11G) and ln(Z/(C - eta)) = ln(50 G Z/(5 + sqrt5)) "
                "(printed ln(sqrt5 G sqrt(pi)/(4 sqrt b))); the expectation belongs outside the max (E[R] <= E[F_T^*(u)]). "
                "dpregret keeps the printed form (constants='printed') and adds constants='proof': 1 + E[|u| max{sqrt(4B "
                "ln(sqrt(e) + 8e u^2 B^2 Z^2)), (1/k)(ln(|u|/k) - 1 + ln(Z/(C - eta)))}] (derived in bound_thm10), "
                "which holds on the same sequences",
     "test": "tests/test_vdh.py::test_printed_theorem_10_violated_proof_constants_hold"},
    {"paper": "VDH19",
     "where": "Theorem 12, eq. (3.8.2), and its proof (Sec. 3.8)",
     "printed": "max{|u| E[sqrt(8V)(sqrt(ln(8u^2 V + 1)) + 1)], |u| 11G (ln(|u| 11G ln 2) - 1) + ln 2, "
                "|u| E[sqrt(2V)] + 1 + E[ln(1 + 2 sqrt(2V))]}, V = sum_t g~_t^2",
     "correct": "false as printed: with G = 0.2 and g~_t = -0.003, Algorithm 1 with the improper prior has regret "
                "~1.77 at u ~ 2, t ~ 517, above the printed ~1.37. The proof lower-bounds F_T(L) = "
                "int_{-C}^{C} (e^{vL - v^2 V} - 1)/|v| dv with the v > 0 half only, dropping the v < 0 half "
                "(~ -ln(CL) - 0.577 for large L); it also uses 11G where its eta gives ~21G and writes ln(|u| 11G ln2) "
                "for the conjugate's ln(|u| 11G / ln2). dpregret evaluates the printed form only (no corrected version)",
     "test": "tests/test_vdh.py::test_printed_theorem_12_violated"},
]


def bet_radius(G):
    """``C = 1/(5G)``: the prior's support ``[-C, C]`` (Algorithm 1 input, Lemma 7 needs |v E g~| <= 1/5)."""
    return 1.0 / (5.0 * _pos_array("G", G))


def _pos_array(name, x, *, allow_zero=False):
    a = np.asarray(x, dtype=float)
    if a.size == 0 or not np.all(np.isfinite(a)) or np.any(a < 0 if allow_zero else a <= 0):
        raise ValueError(f"{name} must be finite and {'>= 0' if allow_zero else '> 0'} (every entry), got {x!r}")
    return a


# --- numerics: n(lam, beta) and p(lam, beta) in log space -----------------------------------
def _r(x):
    """``r(x) = 1 - sqrt(pi) x erfcx(x)`` for ``x >= 0`` (~ 1/(2x^2) for large x)."""
    out = np.empty_like(x)
    s = x < 10.0
    out[s] = 1.0 - _SQPI * x[s] * sp.erfcx(x[s])
    z = 1.0 / (2.0 * x[~s] ** 2)
    term, tot = np.ones_like(z), np.zeros_like(z)
    for k in range(1, 14):  # sum_k (-1)^(k+1) (2k-1)!! z^k, error < 25!! / 200^13 ~ 1e-17
        term = term * ((2 * k - 1) * z if k == 1 else -(2 * k - 1) * z)
        tot += term
    out[~s] = tot
    return out


def _log_series(lam, beta, first):
    """``log(2 sum_{k<K} lam^(2k+1)/(2k+1)! m_{2k+first}(beta))``, ``first`` 1 (p) or 2 (n)."""
    k = np.arange(_K)
    j = 2 * k + first
    lm = np.empty((lam.size, _K))
    s = beta <= 1.0
    if s.any():  # m_j = sum_i (-beta)^i / (i! (j + 1 + 2i)), alternating, |terms| decreasing
        i = np.arange(22)[:, None, None]
        bi = beta[s][None, :, None]
        lm[s] = np.log(np.sum((-bi) ** i / sp.factorial(i) / (j + 1 + 2 * i), axis=0))
    if (~s).any():  # m_j = Gamma(a) P(a, beta) / (2 beta^a), a = (j+1)/2
        a = (j + 1) / 2.0
        bl = beta[~s][:, None]
        lm[~s] = np.log(sp.gammainc(a, bl)) + sp.gammaln(a) - a * np.log(bl) - math.log(2.0)
    with np.errstate(divide="ignore"):
        t = (2 * k + 1) * np.log(lam)[:, None] - sp.gammaln(2 * k + 2) + lm
    return math.log(2.0) + sp.logsumexp(t, axis=1)


def _log_np(lam, beta, kind):
    """``log n`` (kind "n") or ``log p`` (kind "p") for flat arrays ``lam >= 0``, ``beta >= 0``
    (``beta > 0`` for n); ``-inf`` at ``lam = 0``."""
    out = np.empty(lam.shape)
    ser = lam <= 2.0
    out[ser] = _log_series(lam[ser], beta[ser], 2 if kind == "n" else 1)
    zero = ~ser & (beta == 0.0)  # improper prior before any feedback: p = 2 (cosh lam - 1) / lam
    out[zero] = lam[zero] + 2.0 * np.log(-np.expm1(-lam[zero])) - np.log(lam[zero])
    inside = ~ser & ~zero & (lam < 2.0 * beta)  # peak L/(2B) inside (-C, C)
    l, b = lam[inside], beta[inside]
    h = np.sqrt(b)
    y = l / (2.0 * h)
    if kind == "n":
        br = _SQPI * y * (1.0 - 0.5 * (sp.erfc(h - y) + sp.erfc(h + y))) - 0.5 * (
            np.exp(l - b - y * y) - np.exp(-l - b - y * y))
        out[inside] = y * y - np.log(b) + np.log(br)
    else:
        br = 2.0 * sp.erf(y) - sp.erfc(h - y) + sp.erfc(h + y)
        out[inside] = y * y + math.log(_SQPI / 2.0) - np.log(h) + np.log(br)
    edge = ~ser & ~zero & ~inside  # peak at or beyond C: factor e^{lam - beta} out
    l, b = lam[edge], beta[edge]
    h = np.sqrt(b)
    y = l / (2.0 * h)
    p, q = y - h, y + h
    if kind == "n":
        br = _SQPI * h * sp.erfcx(p) - _r(p) + np.exp(-2.0 * l) * (_r(q) + _SQPI * h * sp.erfcx(q))
        out[edge] = l - b - np.log(2.0 * b) + np.log(br)
    else:
        br = sp.erfcx(p) - 2.0 * np.exp(b - l) * sp.erfcx(y) + np.exp(-2.0 * l) * sp.erfcx(q)
        out[edge] = l - b + math.log(_SQPI / 2.0) - np.log(h) + np.log(br)
    return out


def _log_pred(L, B, C, b, prior):
    """(sign, log|w|) of (3.3.2) for broadcast arrays (all checked by the caller)."""
    L, B, C, b = np.broadcast_arrays(L, B, C, b)
    lam, beta = (C * np.abs(L)).ravel(), (C * C * B).ravel()
    if prior == "conjugate":
        hb = C * np.sqrt(b)  # log Z = log(sqrt(pi) erf(C sqrt b) / sqrt b)
        log_w = 2 * np.log(C) + _log_np(lam, beta, "n").reshape(L.shape) - (
            math.log(_SQPI) + np.log(sp.erf(hb)) - 0.5 * np.log(b))
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
    B = _pos_array("B", B, allow_zero=prior == "improper")
    C = bet_radius(G)
    if prior == "conjugate":
        b = _pos_array("b", b)
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
    return _SQPI * np.exp(L * L / (4 * B)) * (
        2 * sp.erf(L / s) - sp.erf((L + 2 * C * B) / s) - sp.erf((L - 2 * C * B) / s)) / s


# --- learners ---------------------------------------------------------------------------------
def _shape(name, shape):
    if isinstance(shape, int | np.integer) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, tuple) or not all(
            isinstance(s, int | np.integer) and not isinstance(s, bool) and s >= 1 for s in shape):
        raise ValueError(f"{name} must be a tuple of integers >= 1, got {shape!r}")
    return tuple(int(s) for s in shape)


def _feedback(g, shape):
    g = V.finite_array("g", g)
    if g.shape != shape:
        raise ValueError(f"g must have shape {shape}, got {g.shape}")
    return g


def _param(name, x, shape, *, allow_zero=False):
    a = _pos_array(name, x, allow_zero=allow_zero)
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
        g = _feedback(g, self.shape)
        self.L = self.L - g
        self.V = self.V + g * g


class SparsePotential(PrivatePotential):
    """Algorithm 3 (Sec. 3.3.2): one Algorithm 1 with the conjugate prior per coordinate,
    ``w_{t,j} = v_{t,j}``; shape ``(*batch, d)``.

    ``G``, ``b``: scalars or length-d arrays (``G_j`` bounds ``|E g~_{t,j}|``; with the local
    Laplace randomiser of Lemma 4 this is the coordinate bound ``bound_j`` of
    :func:`dpregret.mechanisms.local_laplace_randomiser`, 1 in the lemma).  The noise levels
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
        g = _feedback(g, self.shape)
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
        g = _feedback(g, self.shape)
        z = self._z if self._z is not None else np.asarray(self.direction.predict(), dtype=float)
        self.magnitude.update(np.einsum("...i,...i->...", z, g))
        self.direction.update(g)
        self._z = None


class DiagonalAdaGrad:
    """Baseline (Sec. 3.4): diagonal AdaGrad projected on the l_inf box ``[-D, D]^d`` with a
    guessed ``D``: ``w_1 = 0``, ``w_{t+1,j} = clip(w_{t,j} - eta g~_{t,j} / s_{t,j}, -D, D)``,
    ``s_{t,j} = sqrt(sum_{s<=t} g~_{s,j}^2)`` (no step while ``s_{t,j} = 0``), ``eta = sqrt(2) D``
    (Duchi et al. 2011, Cor. 6 with box diameter ``D_inf = 2D``; see :func:`bound_adagrad`)."""

    def __init__(self, D, d: int, *, batch=(), eta=None):
        self.D = V.positive("D", D)
        self.eta = math.sqrt(2.0) * self.D if eta is None else V.positive("eta", eta)
        self.shape = (*_shape("batch", batch), V.integer("d", d))
        self.w = np.zeros(self.shape)
        self.S = np.zeros(self.shape)

    def predict(self) -> np.ndarray:
        return self.w.copy()

    def update(self, g) -> None:
        g = _feedback(g, self.shape)
        self.S = self.S + g * g
        step = np.divide(g, np.sqrt(self.S), out=np.zeros_like(g), where=self.S > 0)
        self.w = np.clip(self.w - self.eta * step, -self.D, self.D)


class NoiseTunedOGD:
    """Baseline (Sec. 3.4): OGD on the l2 ball of radius ``D`` with the step tuned to the
    worst-case noise: ``eta = D / sqrt(T (G^2 + sigma_max^2))``, ``w_1 = 0``,
    ``w_{t+1} = Proj_{||w||_2 <= D}(w_t - eta g~_t)``.  ``G >= ||g_t||_2``; ``sigma_max^2 >=
    E||xi_t||_2^2`` for every t (e.g. ``sum_j`` :func:`laplace_noise_second_moment`); this eta
    minimises :func:`bound_ogd` at ``||u|| = D``."""

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
        y = self.w - self.eta * _feedback(g, self.shape)
        self.w = y * np.minimum(1.0, self.D / np.maximum(np.linalg.norm(y, axis=-1, keepdims=True), 1e-300))


def laplace_noise_second_moment(tau, bound=1.0) -> np.ndarray:
    """``E[xi_j^2] = 2 (2 bound_j / tau_j)^2`` for the local Laplace randomiser (Lemma 4);
    0 where ``tau_j = inf`` (coordinate not privatised)."""
    return 2.0 * local_laplace_scale(tau, bound) ** 2


# --- bounds ---------------------------------------------------------------------------------
def _mean(x, axis):
    return x if axis is None else np.mean(x, axis=axis)


CONSTANTS = ("printed", "proof")
_ETA_G = (5 - math.sqrt(5)) / 50  # Lemma 11's eta, times G
_K_G = (7 - math.sqrt(5)) / 100  # eta - (5G/2) eta^2, times G: 1/k ~ 20.99 G (printed: 11 G)


def _thm10_terms(u, S, G, b, axis, constants):
    """Theorem 10 without the leading 1, per coordinate; 0 at ``u = 0``.  All inputs are
    broadcast to one shape before the mean over ``axis``."""
    if constants not in CONSTANTS:
        raise ValueError(f"constants must be one of {CONSTANTS}, got {constants!r}")
    a, S, G, b = np.broadcast_arrays(np.abs(V.finite_array("u", u)), _pos_array("sum_sq", S, allow_zero=True),
                                     _pos_array("G", G), _pos_array("b", b))
    B = b + S
    with np.errstate(divide="ignore", invalid="ignore"):
        if constants == "printed":
            sq = np.sqrt(8 * B * np.log1p(16 * a * a * B**1.5 * _SQPI / np.sqrt(b)))
            A = 11 * G * (np.log(a * 11 * G) - 1 + np.log(math.sqrt(5) * G * _SQPI / (4 * np.sqrt(b))))
            a, A, sq = _mean(a, axis), _mean(A, axis), _mean(sq, axis)  # max{A, E[sq]}
            return np.where(a > 0, a * np.maximum(A, sq), 0.0)
        C = 1 / (5 * G)
        Z = _SQPI * sp.erf(C * np.sqrt(b)) / np.sqrt(b)
        sq = np.sqrt(4 * B * np.log(math.exp(0.5) + 8 * math.e * (a * B * Z) ** 2))
        A = G / _K_G * (np.log(a * G / _K_G) - 1 + np.log(Z / (C - _ETA_G / G)))
        return _mean(np.where(a > 0, a * np.maximum(A, sq), 0.0), axis)  # E[max{...}]


def bound_thm10(u, sum_sq, G, b, *, axis=None, constants="printed"):
    """Theorem 10 (Algorithm 1, conjugate prior; stated below eq. (3.3.4)), a bound on the
    *expected* regret over the noise.  ``sum_sq`` holds realised ``S = sum_t g~_t^2``; ``E`` is
    the mean over ``axis`` (e.g. the replicate axis); ``axis=None`` evaluates per realisation
    (exact for noiseless feedback).  ``B = b + S``.

    ``constants="printed"``: ``1 + |u| max{ 11G (ln(|u| 11G) - 1 + ln(sqrt5 G sqrt(pi)/(4 sqrt b))),
    E[sqrt(8 B ln(16 u^2 B^{3/2} sqrt(pi)/sqrt(b) + 1))] }``.  This printed bound is violated
    by a deterministic sequence (see :data:`ERRATA`).

    ``constants="proof"``: the bound the proof's argument (Lemmas 5-8, Lemma 11's intervals)
    supports, ``E[R_T(u)] <= E[F_T^*(u)]`` with, pathwise, ``F_T^*(u) <= 1 + |u| max{Q, A}``,
    ``Z = sqrt(pi/b) erf(C sqrt b)``, ``C = 1/(5G)``:

    - ``L <= 2CB``: on ``[L/2B - 1/sqrt(2B), L/2B]`` the exponent is ``>= L^2/4B - 1/2``, so
      ``F(L) >= A0 e^{L^2/4B} - 1``, ``A0 = e^{-1/2}/(Z sqrt(2B))``; for ``L >= Lam =
      2 sqrt(B ln X)``, ``X = sqrt(e) + 4u^2 B/A0^2``, ``A0 e^{L^2/4B} >= |u| L`` (``X >= e^{1/2}``
      makes ``L^2/4B - ln L`` increasing there), hence ``uL - F(L) <= 1 + |u| Q`` with
      ``Q = sqrt(4 B ln(sqrt(e) + 8 e u^2 B^2 Z^2))`` (also covers ``L <= sqrt(2B)``, as ``Q >= sqrt(2B)``);
    - ``L > 2CB``: ``eta = (5 - sqrt5)/(50G)`` (the proof's), ``F(L) >= ((C - eta)/Z) e^{kL} - 1``,
      ``k = eta - 5G eta^2/2 = (7 - sqrt5)/(100G)``, whose conjugate gives
      ``A = (1/k)(ln(|u|/k) - 1 + ln(Z/(C - eta)))``.
    """
    return 1.0 + _thm10_terms(u, sum_sq, G, b, axis, constants)


def bound_thm11(u, sum_sq, G, b, *, axis=None, constants="printed"):
    """Theorem 11 (Algorithm 3): ``E[R_T(u)] <= d + sum_j`` (Theorem 10's term for coordinate j
    with ``G_j``, ``b_j``, ``S_j = sum_t g~_{t,j}^2``).  ``u``: ``(d,)``; ``sum_sq``: ``(..., d)``;
    ``G``, ``b``: scalar or ``(d,)``.  Expected regret; ``E`` = mean over ``axis`` (not the
    last axis); ``constants`` as in :func:`bound_thm10` (the printed form inherits Theorem
    10's erratum)."""
    u = V.finite_array("u", u, ndim=1)
    S = np.asarray(sum_sq, dtype=float)
    if S.ndim < 1 or S.shape[-1] != u.shape[0]:
        raise ValueError(f"sum_sq must have last axis of length d = {u.shape[0]}, got shape {S.shape}")
    return u.shape[0] + np.sum(_thm10_terms(u, S, G, b, axis, constants), axis=-1)


def bound_thm12(u, sum_sq, G, *, axis=None):
    """Theorem 12 (Algorithm 1, improper prior ``1/|v|``, eq. (3.8.2)), ``V = sum_t g~_t^2``::

        max{ |u| E[sqrt(8V) (sqrt(ln(8 u^2 V + 1)) + 1)],
             |u| 11G (ln(|u| 11G ln 2) - 1) + ln 2,
             |u| E[sqrt(2V)] + 1 + E[ln(1 + 2 sqrt(2V))] }

    (the third term as derived in the proof; the printed brackets are garbled).  Expected
    regret; ``E`` = mean over ``axis``.  Printed constants (the proof's conjugate of
    ``ln2 (e^{kL} - 1)`` would give ``ln(|u|/(k ln 2))`` and its eta gives ``1/k ~ 21G``).
    """
    a, Vs, G = np.broadcast_arrays(np.abs(V.finite_array("u", u)), _pos_array("sum_sq", sum_sq, allow_zero=True),
                                   _pos_array("G", G))
    t1 = _mean(a * np.sqrt(8 * Vs) * (np.sqrt(np.log1p(8 * a * a * Vs)) + 1), axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        t2 = np.where(a > 0, a * 11 * G * (np.log(a * 11 * G * math.log(2)) - 1), 0.0) + math.log(2)
    t3 = _mean(a * np.sqrt(2 * Vs) + 1 + np.log1p(2 * np.sqrt(2 * Vs)), axis)
    return np.maximum(np.maximum(t1, _mean(t2, axis)), t3)


def bound_eq3_3_5(u, sum_sq, G, b, *, axis=None, constants="proof"):
    """Eq. (3.3.5) (Algorithm 2 with :class:`ProjectedOGDBall` and the conjugate prior) with
    explicit constants; (3.3.5) itself is an O(.).  By Lemma 9,
    ``E[R_T(u)] = R^V(||u||) + ||u|| R^Z(u/||u||)``:

    - ``R^V <= bound_thm10(||u||, S, G, b, constants=constants)`` (default: the proof's
      constants, since the printed Theorem 10 fails, see :data:`ERRATA`): Theorem 10 for the feedback ``<z_t, g~_t>``, whose
      ``sum_t <z_t, g~_t>^2 <= S = sum_t ||g~_t||_2^2`` (``||z_t|| <= 1``; the bound grows with S);
    - ``R^Z <= 3 sqrt(S)`` pathwise: projected OGD with non-increasing ``eta_t = S_t^{-1/2}`` on
      a set of diameter 2 has regret ``<= 2^2/(2 eta_T) + sum_t eta_t ||g~_t||^2/2 <= 2 sqrt(S) +
      sqrt(S)`` (``sum_t a_t/sqrt(sum_{s<=t} a_s) <= 2 sqrt(sum_t a_t)``).

    So ``E[R_T(u)] <= bound_thm10(||u||, S, G, b) + 3 ||u|| E[sqrt(S)]``.  ``u``: vector (last
    axis) or its l2 norm as a scalar; ``E`` = mean over ``axis``.
    """
    u = np.asarray(u, dtype=float)
    nu = float(np.linalg.norm(u)) if u.ndim else abs(float(u))
    S = _pos_array("sum_sq", sum_sq, allow_zero=True)
    return bound_thm10(nu, S, G, b, axis=axis, constants=constants) + 3.0 * nu * _mean(np.sqrt(S), axis)


def bound_adagrad(D, sum_sq, *, axis=None):
    """Regret of :class:`DiagonalAdaGrad` (``eta = sqrt2 D``) against ``||u||_inf <= D``:
    ``<= 2 sqrt(2) D sum_j E[sqrt(sum_t g~_{t,j}^2)]`` (Duchi et al. 2011, Thm 5 / Cor. 6 with
    ``max_t ||w_t - u||_inf <= 2D``); ``sum_sq``: ``(..., d)``, ``E`` = mean over ``axis``."""
    D = V.positive("D", D)
    S = _pos_array("sum_sq", sum_sq, allow_zero=True)
    return 2.0 * math.sqrt(2.0) * D * np.sum(_mean(np.sqrt(S), axis), axis=-1)


def bound_ogd(u, eta, sum_sq, *, axis=None):
    """Regret of :class:`NoiseTunedOGD` (any fixed ``eta``, ``||u||_2 <= D``):
    ``E[R_T(u)] <= ||u||^2/(2 eta) + eta/2 E[sum_t ||g~_t||^2]``
    ``<= ||u||^2/(2 eta) + eta T (G^2 + sigma_max^2)/2``; ``sum_sq`` = realised
    ``sum_t ||g~_t||_2^2``, ``E`` = mean over ``axis``."""
    u = np.asarray(u, dtype=float)
    nu2 = float(u @ u) if u.ndim else float(u) ** 2
    eta = V.positive("eta", eta)
    return nu2 / (2 * eta) + eta / 2 * _mean(_pos_array("sum_sq", sum_sq, allow_zero=True), axis)


# --- counterexamples to the printed Theorems 10, 11 and 12 (ERRATA) ---------------------------
def constant_feedback_regret(learner, g: float, n: int, us) -> tuple[np.ndarray, np.ndarray]:
    """``learner`` (Algorithm 1 or Algorithm 3, one coordinate) fed the deterministic feedback
    ``g~_t = g`` for ``t <= n`` (noiseless, so symmetric with ``|E g~| = |g|``): the regret
    ``R_t(u) = sum_{s<=t} g (w_s - u)`` for every ``t`` and every ``u`` of ``us`` (shape
    ``(len(us), n)``) and ``S_t = t g^2`` (shape ``(1, n)``).  Exact: no randomness."""
    w = np.empty(n)
    for t in range(n):
        w[t] = float(np.ravel(learner.predict())[0])
        learner.update(np.full(np.shape(learner.predict()), g))
    t = np.arange(1, n + 1)
    us = np.asarray(us, dtype=float)
    return np.cumsum(w * g)[None, :] - us[:, None] * (t * g)[None, :], (t * g**2)[None, :]


# The deterministic sequences of ERRATA: theorem -> (learner, G, b, g, n); the comparators are
# ``np.geomspace(1e-3, 1e4, 71)``.  Theorem 11 is Theorem 10 summed over coordinates, so
# Algorithm 3 with d = 1 on Theorem 10's sequence is a counterexample to it.
COUNTEREXAMPLES = {
    "thm10": ("alg1", 0.5, 1.0, -0.05, 400),
    "thm11": ("alg3", 0.5, 1.0, -0.05, 400),
    "thm12": ("alg1_improper", 0.2, None, -0.003, 600),
}


def counterexample(theorem: str, constants: str = "printed") -> dict:
    """Run :data:`COUNTEREXAMPLES` [theorem] and compare the regret with the theorem's bound
    (``constants`` as in :func:`bound_thm10`; Theorem 12 has the printed form only): the largest
    excess ``max_{t,u} R_t(u) - bound``, where it happens, and the largest ratio."""
    kind, G, b, g, n = COUNTEREXAMPLES[theorem]
    us = np.geomspace(1e-3, 1e4, 71)
    learner = {"alg1": lambda: PrivatePotential(G, b=b), "alg3": lambda: SparsePotential(G, 1, b=b),
               "alg1_improper": lambda: PrivatePotential(G, prior="improper")}[kind]()
    R, S = constant_feedback_regret(learner, g, n, us)
    if theorem == "thm12":
        B = bound_thm12(us[:, None], S, G)
    elif theorem == "thm11":
        B = np.stack([bound_thm11(np.array([u]), S[0][:, None], G, b, constants=constants) for u in us])
    else:
        B = bound_thm10(us[:, None], S, G, b, constants=constants)
    i, t = np.unravel_index(np.argmax(R - B), R.shape)
    return {"theorem": theorem, "constants": constants, "learner": kind, "G": G, "b": b, "g": g, "n": n,
            "max_excess": float((R - B)[i, t]), "u": float(us[i]), "t": int(t + 1), "regret": float(R[i, t]),
            "bound": float(B[i, t]), "max_ratio": float(np.max(R / B))}
