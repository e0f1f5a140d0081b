"""Stochastic optimisation problems for Zhang, Tran, Cutkosky (NeurIPS 2022), section 1.1:
``min_{x in W} L(x) = E_z l(x, z)`` with W the l2 ball of radius r (diameter D = 2r), an
exactly computable population loss and a known minimiser, and the constants of Assumptions
2-6 (D, G, H, sigma_G, sigma_H) computed from the distribution, not guessed.

- :class:`Location`: ``l(x, z) = ||x - z||^2 / 2``, ``z = m + s xi``, ``xi`` uniform on
  ``{+-1/sqrt(d)}^d``.  ``L(x) = ||x - m||^2 / 2 + s^2 / 2``; the gradient noise is exactly
  ``s`` in norm, so ``sigma_G / G`` is set by ``s`` (Theorem 6), and ``sigma_H = 0``.
- :class:`LeastSquares`: random features ``a`` uniform on ``{+-A/sqrt(d)}^d``, labels
  ``b = <a, x0> + s u``, u uniform on [-1, 1]; ``l = (<a, x> - b)^2 / 2``.
  ``L(x) = A^2 ||x - x0||^2 / (2d) + s^2 / 6`` (closed form); features differ in their
  Hessian ``a a^T``, so the smoothness term of eq. (6) matters for the sensitivity.
- :class:`Logistic`: logistic regression whose population is a data set (``data/wdbc.csv``),
  optionally ridge-regularised (``mu > 0``, Theorem 8); the minimiser over W by a
  deterministic Newton solver with a bisection on the ball's multiplier (to 1e-12).

Every problem is vectorised over replicates: ``x`` has shape (R, d), a sample ``z`` is a
tuple of arrays with leading dimension R.  ``neighbours(z)`` lists replacement samples used
by the run-time sensitivity check (Theorem 3): extreme points of the support.
"""
from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np
import scipy  # scipy.optimize loads on first use
from scipy import special

from dpregret.core import validate as V
from dpregret.core.rng import ReplicateStreams, draw_uniform

WDBC_SHA256 = "3a43b0f0f79b844962a9c06d1da3dd81b5cec789aa17530d259bd75a41469ad3"


def project_ball(x: np.ndarray, r: float) -> np.ndarray:
    """Euclidean projection of the rows of x onto the l2 ball of radius r."""
    n = np.linalg.norm(x, axis=-1, keepdims=True)
    return x * np.minimum(1.0, r / np.maximum(n, 1e-300))


class _Problem:
    """Shared constants: ``d``, ``r`` (W radius), ``D = 2r``, ``G``, ``H``, ``sigma_G``,
    ``sigma_H``, ``mu`` (strong convexity of L, 0 if none), ``x_star``, ``L_star``."""

    mu = 0.0

    @property
    def D(self) -> float:
        return 2.0 * self.r

    def subopt(self, x: np.ndarray) -> np.ndarray:
        """L(x) - L(x*), clipped at 0 against rounding (it is >= 0 on W)."""
        return np.maximum(self.population_loss(x) - self.L_star, 0.0)

    def constants(self) -> dict:
        return {k: float(getattr(self, k)) for k in ("d", "r", "D", "G", "H", "sigma_G", "sigma_H", "mu")} | {
            "x_star_norm": float(np.linalg.norm(self.x_star)), "L_star": float(self.L_star)}


def _shape(src, R: int | None, *tail: int) -> tuple[int, ...]:
    """The shape to ask ``src`` for: ReplicateStreams prepend their own R."""
    return tail if isinstance(src, ReplicateStreams) or R is None else (R, *tail)


def _signs(src, shape) -> np.ndarray:
    return np.where(draw_uniform(src, shape) < 0.5, -1.0, 1.0)


class Location(_Problem):
    """Mean estimation as least squares with identity features (see module docstring)."""

    def __init__(self, d: int, s: float, r: float = 1.0, m_norm: float = 0.5):
        self.d = V.integer("d", d, minimum=1)
        self.s = V.nonnegative("s", s)
        self.r = V.positive("r", r)
        m_norm = V.nonnegative("m_norm", m_norm)
        if m_norm >= self.r:
            raise ValueError(f"m_norm must be < r = {self.r} (the minimiser must lie inside W), got {m_norm}")
        self.m = np.full(self.d, m_norm / math.sqrt(self.d))
        self.x_star = self.m
        self.L_star = self.s**2 / 2
        self.G = self.r + m_norm + self.s  # ||x - z|| <= ||x|| + ||m|| + s
        self.H = 1.0
        self.sigma_G = self.s  # grad L(x) - grad l(x, z) = s xi, ||xi|| = 1
        self.sigma_H = 0.0  # the Hessian is I for every z
        self.mu = 1.0

    def population_loss(self, x):
        return 0.5 * np.sum((x - self.m) ** 2, axis=-1) + self.s**2 / 2

    def sample(self, src, R: int | None = None):
        xi = _signs(src, _shape(src, R, self.d))
        return (self.m + self.s * xi / math.sqrt(self.d),)

    def grad(self, x, z):
        return x - z[0]

    def neighbours(self, z, x_t, x_prev):
        c = self.s / math.sqrt(self.d)
        return [(self.m + sgn * c * np.sign(z[0] - self.m + 1e-300),) for sgn in (-1.0, 1.0)]


class LeastSquares(_Problem):
    """Linear regression with Rademacher features of norm A (see module docstring)."""

    def __init__(self, d: int, s: float, r: float = 1.0, x0_norm: float = 0.5, A: float = 1.0):
        self.d = V.integer("d", d, minimum=1)
        self.s = V.nonnegative("s", s)
        self.r = V.positive("r", r)
        self.A = V.positive("A", A)
        x0_norm = V.nonnegative("x0_norm", x0_norm)
        if x0_norm >= self.r:
            raise ValueError(f"x0_norm must be < r = {self.r}, got {x0_norm}")
        self.x0 = np.full(self.d, x0_norm / math.sqrt(self.d))
        self.x_star = self.x0
        self.L_star = self.s**2 / 6
        A2, dd = self.A**2, self.d
        self.b_max = self.A * x0_norm + self.s  # |<a, x0>| <= A ||x0||
        self.G = self.A * (self.A * self.r + self.b_max)
        self.H = A2
        # E||(a a^T - Sigma) e||^2 = A^4 (1/d - 1/d^2) ||e||^2, Sigma = A^2 I / d; ||e|| <= r + ||x0||
        self.sigma_H = A2 * math.sqrt(max(1.0 / dd - 1.0 / dd**2, 0.0))
        self.sigma_G = math.sqrt(self.sigma_H**2 * (self.r + x0_norm) ** 2 + A2 * self.s**2 / 3)
        self.mu = A2 / dd

    def population_loss(self, x):
        return self.A**2 / (2 * self.d) * np.sum((x - self.x0) ** 2, axis=-1) + self.s**2 / 6

    def sample(self, src, R: int | None = None):
        a = self.A * _signs(src, _shape(src, R, self.d)) / math.sqrt(self.d)
        u = 2.0 * draw_uniform(src, _shape(src, R)) - 1.0
        return a, np.sum(a * self.x0, axis=-1) + self.s * u

    def grad(self, x, z):
        a, b = z
        return (np.sum(a * x, axis=-1) - b)[..., None] * a

    def neighbours(self, z, x_t, x_prev):
        c = self.A / math.sqrt(self.d)
        dirs = [np.sign(x_t - x_prev + 1e-300), np.sign(x_t + 1e-300), np.sign(x_prev + 1e-300)]
        return [(sgn * c * v, np.full(v.shape[:-1], bb)) for v in dirs for sgn in (-1.0, 1.0)
                for bb in (-self.b_max, self.b_max)]


class LinearFamily(_Problem):
    """A family of stochastic linear losses run side by side: ``l(x, z) = <z, x>`` with
    ``z = c_i + s_i xi``, ``c_i = c_i (1, ..., 1)/sqrt(d)``, ``s_i = G - c_i`` (so every member
    is G-Lipschitz; smooth, H = 0), ``xi`` uniform on ``{+-1/sqrt(d)}^d`` and shared by the
    members.  Rows are ``member-major``: row ``i R + r`` is member i, replicate r, for ``R``
    replicates (use :class:`TiledStreams` so the members share their draws).  ``L_i(x) =
    <c_i, x>`` is minimised at ``x* = -r c_i/|c_i|``.  With no curvature at x*, the worst
    member for a given noise level is the one whose signal is comparable to the noise: the
    supremum over the family measures the minimax dependence of Remark 5 on d and rho, which
    a single fixed instance does not (its curvature gives the faster d/rho^2)."""

    def __init__(self, d: int, c_grid, R: int, G: float = 1.0, r: float = 1.0):
        self.d = V.integer("d", d, minimum=1)
        self.R = V.integer("R", R, minimum=1)
        self.G = V.positive("G", G)
        self.r = V.positive("r", r)
        c = np.asarray(c_grid, dtype=float)
        if c.ndim != 1 or c.size == 0 or np.any(c <= 0) or np.any(c >= self.G):
            raise ValueError(f"c_grid must be a non-empty list of values in (0, G = {G}), got {c_grid!r}")
        self.c_grid = c
        rows = np.repeat(c, self.R)[:, None]
        self.c = rows * np.full(self.d, 1 / math.sqrt(self.d))  # (m R, d)
        self.s_rows = self.G - rows
        self.x_star = -self.r * self.c / rows
        self.L_star = -self.r * rows[:, 0]
        self.H, self.sigma_G, self.sigma_H = 0.0, float(self.G - c.min()), 0.0

    def population_loss(self, x):
        return np.sum(x * self.c, axis=-1)

    def sample(self, src, R: int | None = None):
        return (self.c + self.s_rows * _signs(src, _shape(src, R, self.d)) / math.sqrt(self.d),)

    def grad(self, x, z):
        g = z[0]
        return g if g.shape == np.shape(x) else np.broadcast_to(g, np.shape(x))  # no view when none is needed

    def neighbours(self, z, x_t, x_prev):
        """The antipodal support point ``c + s (-xi) = 2c - z``: ||z - z'|| = 2 s, the largest
        replacement (Theorem 3's sensitivity; H = 0, so only eq. (6)'s G term is at stake)."""
        return [(2 * self.c - z[0],)]


class TiledStreams(ReplicateStreams):
    """A ReplicateStreams whose draws are repeated ``m`` times along the replicate axis
    (member-major), so the members of a :class:`LinearFamily` share their random numbers."""

    def __init__(self, root_seed: int, key, replicates, m: int, block: int = 8192):
        super().__init__(root_seed, key, replicates, block)
        self.m = V.integer("m", m, minimum=1)

    def uniform(self, shape: tuple[int, ...] = ()) -> np.ndarray:
        u = super().uniform(shape)
        return np.tile(u, (self.m,) + (1,) * (u.ndim - 1))


def load_wdbc(path: str | Path | None = None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Features (569, 30), labels in {-1, +1} (+1 = benign) and feature names, checksum verified."""
    p = Path(path) if path is not None else Path(__file__).resolve().parents[4] / "data" / "wdbc.csv"
    raw = p.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != WDBC_SHA256:
        raise ValueError(f"{p}: sha256 {digest} does not match the recorded {WDBC_SHA256} (see data/README.md)")
    lines = raw.decode().strip().splitlines()
    names = lines[0].split(",")
    arr = np.array([[float(v) for v in ln.split(",")] for ln in lines[1:]])
    return arr[:, :-1], np.where(arr[:, -1] > 0.5, 1.0, -1.0), names[:-1]


class Logistic(_Problem):
    """Logistic regression; the population is the rows of a data set.

    Features: the first ``d`` columns of ``features``, standardised, then all rows divided
    by the largest row norm (so ||a|| <= 1 with equality for one row).  ``G = max ||a|| +
    mu r``, ``H = max ||a||^2 / 4 + mu``; ``sigma_G <= sup_x (E||grad l||^2)^(1/2) <=
    max||a||`` and ``sigma_H <= max||a||^2 / 4`` (the variance is at most the second moment;
    the ridge term is deterministic).
    """

    def __init__(self, d: int, r: float = 1.0, mu: float = 0.0, data=None):
        X, y, names = load_wdbc() if data is None else data
        self.d = V.integer("d", d, minimum=1)
        if self.d > X.shape[1]:
            raise ValueError(f"d must be <= {X.shape[1]} (features in the data set), got {d}")
        self.r = V.positive("r", r)
        self.mu = V.nonnegative("mu", mu)
        Z = X[:, : self.d]
        Z = (Z - Z.mean(axis=0)) / Z.std(axis=0)
        self.a = Z / np.linalg.norm(Z, axis=1).max()
        self.y = y
        self.names = names[: self.d]
        amax = float(np.linalg.norm(self.a, axis=1).max())
        self.G = amax + self.mu * self.r
        self.H = amax**2 / 4 + self.mu
        self.sigma_G = amax
        self.sigma_H = amax**2 / 4
        self.x_star = self._solve()
        self.L_star = float(self.population_loss(self.x_star[None])[0])

    def population_loss(self, x):
        m = np.atleast_2d(x) @ (self.a * self.y[:, None]).T  # (R, n) margins
        return np.mean(np.logaddexp(0.0, -m), axis=-1) + 0.5 * self.mu * np.sum(np.atleast_2d(x) ** 2, axis=-1)

    def _newton(self, lam: float) -> np.ndarray:
        """argmin L(x) + lam ||x||^2 / 2 by damped Newton (strictly convex for lam + mu > 0)."""
        ay = self.a * self.y[:, None]
        x = np.zeros(self.d)
        reg = lam + self.mu
        for _ in range(200):
            m = ay @ x
            p = special.expit(-m)
            g = -(ay * p[:, None]).mean(axis=0) + reg * x
            W = p * (1 - p)
            Hm = (self.a * W[:, None]).T @ self.a / len(self.y) + reg * np.eye(self.d)
            step = np.linalg.solve(Hm, g)
            x = x - step
            if np.linalg.norm(step) < 1e-14 * max(1.0, np.linalg.norm(x)):
                break
        return x

    def _solve(self) -> np.ndarray:
        x = self._newton(1e-13 if self.mu == 0 else 0.0)
        if np.linalg.norm(x) <= self.r:
            return x
        f = lambda loglam: np.linalg.norm(self._newton(math.exp(loglam))) - self.r  # noqa: E731
        lo, hi = -30.0, 10.0
        loglam = scipy.optimize.brentq(f, lo, hi, xtol=1e-14, rtol=1e-14)
        return project_ball(self._newton(math.exp(loglam))[None], self.r)[0]

    def sample(self, src, R: int | None = None):
        n = len(self.y)
        u = draw_uniform(src, _shape(src, R))
        i = np.minimum((u * n).astype(np.int64), n - 1)
        return self.a[i], self.y[i]

    def grad(self, x, z):
        a, y = z
        m = y * np.sum(a * x, axis=-1)
        return (-y * special.expit(-m))[..., None] * a + self.mu * x

    def neighbours(self, z, x_t, x_prev):
        # the rows of largest norm, both labels, and the rows aligned with the step x_t - x_prev
        step = x_t - x_prev
        idx = np.argmax(np.abs(step @ self.a.T), axis=-1)
        big = int(np.argmax(np.linalg.norm(self.a, axis=1)))
        out = []
        for rows in (idx, np.full(x_t.shape[:-1], big)):
            for lab in (-1.0, 1.0):
                out.append((self.a[rows], np.full(x_t.shape[:-1], lab)))
        return out


PROBLEMS = {"location": Location, "least_squares": LeastSquares, "logistic": Logistic}
