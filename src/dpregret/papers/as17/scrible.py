"""SCRiBLe for bandit linear optimisation: Agarwal and Singh (ICML 2017), section 4.2
(Theorem 4.5) and Appendix D (Theorem D.1 = Theorem 5.1 of Abernethy, Hazan and Rakhlin
2012, "Interior-point methods for full-information and bandit online learning").

Round t, per batch row (all state arrays have shape ``(B, N)``):

- ``x_t = argmin_x eta <S_{t-1}, x> + R(x)``, ``R`` a nu-self-concordant barrier;
- ``{lambda_i, e_i}`` = eigen-decomposition of ``H = grad^2 R(x_t)``;
- draw ``i`` uniform in ``[N]`` and ``eps`` in ``{-1, +1}``, play
  ``y_t = x_t + eps lambda_i^{-1/2} e_i`` (boundary of the Dikin ellipsoid, so in the domain);
- observe ``v_t = <l_t, y_t>``, set ``l^_t = N v_t eps lambda_i^{1/2} e_i`` (``E[l^_t] = l_t``)
  and ``S_t = S_{t-1} + l^_t``.

Domains, both with a closed-form FTRL step.  Write ``g = eta S`` and
``q = 1 + sqrt(1 + a^2)``:

- ``"ball"`` (Euclidean unit ball), ``R(x) = -log(1 - ||x||^2)``, nu = 1.  With ``a = ||g||``,
  the condition ``2x / (1 - ||x||^2) = -g`` gives ``x = -g / q``, ``r = ||x|| = a / q`` and
  ``1 - r^2 = 2 / q``.  ``H = 2I/(1-r^2) + 4xx^T/(1-r^2)^2`` has eigenvalue ``q`` on the
  directions orthogonal to ``x`` and ``q + a^2`` along ``x``; the eigenvectors are the
  columns of a Householder reflection taking ``e_1`` to ``+-x/||x||`` (column 0 = along x).
- ``"cube"`` (``[-1, 1]^N``), ``R(x) = -sum_i log(1 - x_i^2)``, nu = 2N.  Per coordinate, with
  ``a = |g_i|``: ``x_i = -g_i / q``, ``1 - x_i^2 = 2 / q``, ``H_ii = 2(1+x_i^2)/(1-x_i^2)^2 =
  q (q - 1)``; eigenvectors = coordinate axes.

The forms ``-g / (1 + sqrt(1 + a^2))`` avoid the cancellation of ``(sqrt(1+a^2) - 1)/a``
and need no special case at ``S = 0``.
"""
from __future__ import annotations

import math

import numpy as np

from dpregret.core import validate as V
from dpregret.core.calibration import fresh_noise_lambda
from dpregret.core.rng import ReplicateStreams

DOMAINS = ("ball", "cube")


def _check_domain(domain) -> str:
    if domain not in DOMAINS:
        raise ValueError(f"domain must be one of {DOMAINS}, got {domain!r}")
    return domain


def ftrl_step(domain: str, S: np.ndarray, eta) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``x = argmin_x eta <S, x> + R(x)`` and the Hessian spectrum at ``x``.

    Returns ``(x, lam, w)``: ``x`` and ``lam`` of shape ``(B, N)``.  For the cube ``lam`` is
    the Hessian diagonal and ``w`` is None; for the ball ``lam[:, 0]`` belongs to the
    direction of ``x`` and ``w`` is the Householder vector (:func:`eigenvectors`).
    """
    g = np.asarray(eta) * S
    if _check_domain(domain) == "cube":
        q = 1.0 + np.sqrt(1.0 + g * g)
        return -g / q, q * (q - 1.0), None
    a = np.linalg.norm(g, axis=1, keepdims=True)
    q = 1.0 + np.sqrt(1.0 + a * a)
    lam = np.repeat(q, S.shape[1], axis=1)
    lam[:, :1] += a * a
    # unit direction of x (any unit vector when S = 0: then H = 2I); reflect e_1 onto -+u with
    # w = e_1 + sign(u_1) u, so that ||w||^2 = 2 (1 + |u_1|) >= 2 (no cancellation)
    u = np.zeros_like(g)
    u[:, 0] = 1.0
    nz = a[:, 0] > 0
    u[nz] = -g[nz] / a[nz]
    w = np.where(u[:, :1] >= 0, u, -u)
    w[:, 0] += 1.0
    return -g / q, lam, w


def eigenvectors(w: np.ndarray) -> np.ndarray:
    """The ball's Hessian eigenvectors as columns, ``(B, N, N)``: ``P = I - 2 w w^T / ||w||^2``."""
    return np.eye(w.shape[1]) - 2.0 * w[:, :, None] * w[:, None, :] / np.sum(w * w, axis=1)[:, None, None]


def _column(w: np.ndarray, i: np.ndarray) -> np.ndarray:
    """Column ``i`` (one index per row) of the Householder matrix of :func:`eigenvectors`."""
    B = w.shape[0]
    col = -2.0 * w * (w[np.arange(B), i] / np.sum(w * w, axis=1))[:, None]
    col[np.arange(B), i] += 1.0
    return col


class Scrible:
    """SCRiBLe on the unit ball or the cube ``[-1, 1]^N``, vectorised over ``B`` rows.

    ``eta`` is a scalar or an array of shape ``(B, 1)``.  ``batch`` (default: ``eta.shape[0]``
    for an array ``eta``, else ``streams.R``) must be a multiple of ``streams.R``; row
    ``e * R + r`` uses replicate ``r``'s draws, so rows differing only in ``eta`` share their
    randomness.  One uniform per replicate per round decides ``(i, eps)``.
    """

    def __init__(self, domain: str, N: int, eta, streams: ReplicateStreams, batch: int | None = None):
        self.domain = _check_domain(domain)
        self.N = V.integer("N", N, minimum=1)
        if not isinstance(streams, ReplicateStreams):
            raise ValueError(f"streams must be a ReplicateStreams, got {type(streams).__name__}")
        self.streams = streams
        if np.ndim(eta) == 0:
            self.eta = V.positive("eta", eta.item() if isinstance(eta, np.ndarray) else eta)
            default_batch = streams.R
        else:
            e = V.finite_array("eta", eta, ndim=2)
            if e.shape[1] != 1 or np.any(e <= 0):
                raise ValueError(f"eta must be > 0 with shape (B, 1), got shape {e.shape}")
            self.eta = e
            default_batch = e.shape[0]
        self.B = default_batch if batch is None else V.integer("batch", batch, minimum=1)
        if np.ndim(self.eta) and self.eta.shape[0] != self.B:
            raise ValueError(f"eta must have shape (batch, 1) = ({self.B}, 1), got {self.eta.shape}")
        if self.B % streams.R:
            name = "batch" if batch is not None else "eta"
            raise ValueError(f"{name}: the batch size must be a multiple of streams.R = {streams.R}, got {self.B}")
        self.nu = 1.0 if domain == "ball" else 2.0 * self.N
        self._pending = None
        self.S = np.zeros((self.B, self.N))

    @property
    def S(self) -> np.ndarray:
        """The cumulative loss estimate ``S_t``, ``(B, N)``."""
        return self._S

    @S.setter
    def S(self, value) -> None:
        self._S = value
        self._step = None  # ftrl_step(S) is cached until S changes

    def _ftrl(self):
        if self._step is None:
            step = ftrl_step(self.domain, self.S, self.eta)
            for a in step:
                if a is not None:
                    a.flags.writeable = False  # shared by center and predict: read-only
            self._step = step
        return self._step

    @property
    def center(self) -> np.ndarray:
        """``x_t``, the FTRL point for the next round, ``(B, N)`` (computed once per round)."""
        return self._ftrl()[0]

    def predict(self) -> np.ndarray:
        """Draw ``(i, eps)`` and return the played point ``y_t``, ``(B, N)``."""
        x, lam, w = self._ftrl()
        u = np.tile(self.streams.uniform(()), self.B // self.streams.R)
        k = np.minimum((u * (2 * self.N)).astype(np.int64), 2 * self.N - 1)
        i, sign = k // 2, 2.0 * (k % 2) - 1.0
        rows = np.arange(self.B)
        if w is None:
            e = np.zeros((self.B, self.N))
            e[rows, i] = 1.0
        else:
            e = _column(w, i)
        root = np.sqrt(lam[rows, i])
        self._pending = (e, self.N * sign * root)
        return x + (sign / root)[:, None] * e

    def update(self, value) -> None:
        """Feed ``v_t = <l_t, y_t>`` (shape ``(B,)``) for the point just played."""
        if self._pending is None:
            raise RuntimeError("update() must follow predict()")
        v = V.finite_array("value", value, ndim=1)
        if v.shape != (self.B,):
            raise ValueError(f"value must have shape ({self.B},), got {v.shape}")
        e, coef = self._pending
        self.S = self.S + (coef * v)[:, None] * e
        self._pending = None


def theorem_4_5_eta(N: int, T: int, nu: float, M: float, lam: float, X2: float) -> float:
    """Theorem 4.5's step: ``sqrt(nu log T / (2 N^2 T (M^2 + lam^2 N ||X||_2^2)))``.

    ``M >= max_{t, x in X} |<l_t, x>|``, ``lam`` the Laplace scale ``||Y||_1 / eps`` (0: no
    noise), ``X2 = ||X||_2 = max_{x in X} ||x||_2`` (1 for the ball, sqrt(N) for the cube).
    """
    N, T = V.integer("N", N), V.integer("T", T, minimum=2)
    nu, M, X2 = V.positive("nu", nu), V.positive("M", M), V.positive("X2", X2)
    lam = V.nonnegative("lam", lam)
    return math.sqrt(nu * math.log(T) / (2 * N**2 * T * (M**2 + lam**2 * N * X2**2)))


def noise_L(N: int, T: int, lam: float, X2: float) -> float:
    """Appendix D: ``L = max_{t,x} |<Z_t, x>| <= 4 lam ||X||_2 sqrt(N log^2 NT)`` on F-bar
    (Cauchy-Schwarz with ``||Z_t||_2^2 <= 10 lam^2 N log^2 NT``; sqrt(10) rounded up to 4)."""
    return 4.0 * lam * X2 * math.sqrt(N) * math.log(N * T)


def eta_condition_holds(N: int, T: int, M: float, lam: float, X2: float, eta: float) -> bool:
    """Theorem D.1's hypothesis as applied in Appendix D: ``eta <= 1 / (4 N (M + L))``.

    The proof says "it can now be verified" for the eta of Theorem 4.5; that is only true for
    T large enough: the condition reads ``8 nu log T (M + L)^2 <= T (M^2 + lam^2 N X2^2)``,
    i.e. ``T >= 8 nu log T`` when lam = 0 (T >= 27 for the ball, T >~ 1000 for the cube with
    N = 8) and ``T >~ 128 nu log T log^2 NT`` when lam dominates M.
    """
    return eta <= 1.0 / (4.0 * N * (M + noise_L(N, T, lam, X2)))


def theorem_d1_bound(N: int, T: int, nu: float, M: float, lam: float, X2: float,
                     eta: float | None = None) -> float:
    """The expected-regret bound of Theorem 4.5 as printed at the end of Appendix D.

    ``2 eta T N^2 (M^2 + lam^2 N X2^2)``  (Theorem D.1's ``2 eta sum N^2 <l~_t, x~_t>^2`` with
        ``E<l~, x~>^2 <= M^2 + E||Z||^2 X2^2``, Cauchy-Schwarz and eq. (11))
    ``+ nu log T / eta``                   (Theorem D.1, barrier term)
    ``+ 8 lam X2 sqrt(N log^2 NT) + 2M``   (Theorem D.1's ``2(M + L)`` with :func:`noise_L`)
    ``+ 1``                                (``P(F) E[Regret | F] <= (1/T) T``, eq. (9))

    ``eta`` defaults to :func:`theorem_4_5_eta`.  Inconsistencies of the printed proof,
    kept here as printed (the bound is what the paper claims, not a corrected one):

    - Theorem D.1 is stated with ``2 eta sum N <l_t, x_t>^2`` but applied with ``N^2``; ``N^2``
      is the right factor: the local dual norm of the estimate is
      ``||l^_t||_{x_t,*}^2 = N^2 v_t^2 lambda_i lambda_i^{-1} = N^2 v_t^2``.
    - eq. (11) gives ``E[||Z_t||_2^2 | F-bar] <= 10 lam^2 N log^2 NT``, but the last line uses
      ``lam^2 N`` (the 10 log^2 NT is dropped).  Without it the term is still not justified:
      a Laplace(lam) coordinate has variance 2 lam^2, so ``E||Z_t||_2^2 = 2 lam^2 N``.
    - eq. (10) conditions on F where F-bar is meant.
    - the failure term: regret on losses with ``|<l_t, x>| <= M`` is at most ``2MT``, not
      ``T``, so ``P(F) E[Regret | F] <= 2M``; the printed ``1`` assumes ``M <= 1/2``.
    - the hypothesis ``eta <= 1/(4N(M+L))`` holds for Theorem 4.5's eta only for large T
      (:func:`eta_condition_holds`).
    """
    eta_star = theorem_4_5_eta(N, T, nu, M, lam, X2)  # also validates the arguments
    eta = eta_star if eta is None else V.positive("eta", eta)
    return (2.0 * eta * T * N**2 * (M**2 + lam**2 * N * X2**2) + nu * math.log(T) / eta
            + 2.0 * (M + noise_L(N, T, lam, X2)) + 1.0)


def blo_row_params(domain: str, algorithm: str, N: int, T: int, eps: float | None) -> dict:
    """Algorithm 4's parameters for one row of Table 2 (bandit linear optimisation): the
    self-concordance nu, the feedback noise lambda, Theorem 4.5's eta, ||X||_2 and the explicit bound."""
    nu = 1.0 if domain == "ball" else 2.0 * N
    y1 = math.sqrt(N) if domain == "ball" else 1.0
    X2 = 1.0 if domain == "ball" else math.sqrt(N)
    e = None if algorithm == "scrible" else (eps**2 if algorithm == "dp_scrible_eps_squared" else eps)
    lam = 0.0 if e is None else 2.0 * y1 / e
    if algorithm == "dp_scrible_composed":
        lam = fresh_noise_lambda(2.0 * y1, T, eps, min(0.5, 1.0 / T**2))
    if algorithm in ("dp_scrible_eta_T23", "dp_scrible_nopriv_step"):  # the mis-tuned twins: Lemma 4.2's lambda
        lam = 2.0 * y1 / eps
    # dp_scrible_nopriv_step: the step that ignores the privacy term, Theorem 4.5's eta at lam = 0 (no lam^2 N X2^2)
    eta = theorem_4_5_eta(N, T, nu, 1.0, 0.0 if algorithm == "dp_scrible_nopriv_step" else lam, X2)
    if algorithm == "dp_scrible_eta_T23":
        eta = eta * T ** (-1.0 / 6.0)  # eta ~ T^(-2/3) up to logs, as the O~(T^(2/3)) approach tunes its step
    return {"nu": nu, "lambda": lam, "eta": eta, "X2": X2,
            "bound_thm4_5": theorem_d1_bound(N, T, nu, 1.0, lam, X2, eta=eta)}
