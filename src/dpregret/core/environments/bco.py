"""Ene, Nguyen, Vladu (AAAI 2021), section 2 ("Bandit Convex Optimization", "Parameters and
Assumptions"): oblivious sequences of convex L-Lipschitz losses with minimum 0 inside the
domain (so |f_t| <= L D on K), and the best fixed decision in hindsight.

A sequence is a set of K pieces and a schedule ``piece[t-1]`` in ``[0, K)``: an integer array
of length T, or a rule (:class:`ConstantSchedule`, :class:`SwitchingSchedule`) that computes
``piece(t)`` and the piece counts up to tau without storing T entries (the factories use
rules, so a sequence costs O(K) memory whatever T):

- :class:`DistanceLosses`: ``f_t(x) = L ||x - c_k||_2``, centres ``c_k in K``;
- :class:`AbsLinearLosses`: ``f_t(x) = L |<a_k, x - c_k>| / ||a_k||_2``, ``c_k in K``.

``value(t, x)`` takes ``x`` of shape ``(R, n)`` and returns ``(R,)``.  ``best_fixed(taus)`` is
``min_{x in K} sum_{t <= tau} f_t(x)`` for each checkpoint tau, by a deterministic solver:

- distance losses: the minimiser of ``sum_k w_k ||x - c_k||`` over R^n lies in conv{c_k}
  (a subset of K), so it is the weighted geometric median; each centre is first tested for
  optimality exactly (``||sum_{j != k} w_j u_kj|| <= w_k``), otherwise Weiszfeld's iteration
  runs until the certificate ``f(x) - f* <= ||grad f(x)|| diam{c_k}`` is below 1e-10 relative;
- absolute-linear losses: a linear programme over the convex hull of ``domain.vertices()``
  (HiGHS), exact to solver tolerance (~1e-9).

The factories build the sequences used by the tests and scenarios: ``stationary_distance``
(one centre), ``switching_distance`` and ``switching_abs_linear`` (two pieces alternating
over ``phases`` equal blocks; the centres are the midpoints between the domain's centre and
two far-apart vertices, so both lie inside K; the absolute-linear pieces share the direction
``c_1 - c_0``, so their zero sets are parallel and no point zeroes both).
"""
from __future__ import annotations

import numpy as np
import scipy  # scipy.optimize loads on first use

from dpregret.core import validate as V
from dpregret.core.environments.polytopes import Polytope


class ConstantSchedule:
    """Rule schedule: piece ``k`` at every step."""

    def __init__(self, T: int, k: int = 0):
        self.T, self.k = V.integer("T", T), V.integer("k", k, minimum=0)

    def piece(self, t: int) -> int:
        return self.k

    def pieces(self) -> tuple[int, int]:
        """(smallest, largest) piece used."""
        return self.k, self.k

    def counts(self, tau: int, K: int) -> np.ndarray:
        """Steps ``t <= tau`` using each piece, int64 of shape (K,) (as ``np.bincount``)."""
        out = np.zeros(K, dtype=np.int64)
        out[self.k] = tau
        return out


class SwitchingSchedule:
    """Rule schedule: ``piece(t) = floor((t - 1) phases / T) mod 2`` (two pieces alternating
    over ``phases`` blocks; the same numbers as ``switching_schedule(T, phases)[t - 1]``)."""

    def __init__(self, T: int, phases: int):
        self.T, self.phases = V.integer("T", T), V.integer("phases", phases)
        if self.phases > self.T:
            raise ValueError(f"phases must be <= T = {self.T}, got {self.phases}")

    def piece(self, t: int) -> int:
        return ((t - 1) * self.phases // self.T) % 2

    def pieces(self) -> tuple[int, int]:
        return 0, min(self.phases, 2) - 1

    def counts(self, tau: int, K: int) -> np.ndarray:
        # block j holds the 0-based steps i with j T <= i phases < (j + 1) T: [ceil(jT/p), ceil((j+1)T/p))
        j = np.arange(self.phases + 1, dtype=np.int64)
        edge = -(-j * self.T // self.phases)
        n = np.clip(np.minimum(edge[1:], tau) - edge[:-1], 0, None)
        out = np.zeros(K, dtype=np.int64)
        out[0], out[1] = n[0::2].sum(), n[1::2].sum()
        return out


_RULES = (ConstantSchedule, SwitchingSchedule)


class _Pieces:
    def __init__(self, domain: Polytope, T: int, L: float, centres, schedule):
        self.domain = domain
        self.T = V.integer("T", T)
        self.L = V.positive("L", L)
        c = V.finite_array("centres", centres, ndim=2)
        if c.shape[1] != domain.n:
            raise ValueError(f"centres must have shape (K, {domain.n}), got {c.shape}")
        if not np.all(domain.contains(c, 1e-9)):
            raise ValueError("centres must lie in the domain (each loss has its minimum 0 inside K)")
        if isinstance(schedule, _RULES):
            lo, hi = schedule.pieces()
            if schedule.T != self.T or lo < 0 or hi >= len(c):
                raise ValueError(f"schedule must be a rule for T = {self.T} with pieces in [0, {len(c)})")
            self._rule, self._sched = schedule, None
        else:
            s = np.asarray(schedule)
            if s.shape != (self.T,) or not np.issubdtype(s.dtype, np.integer) or s.min() < 0 or s.max() >= len(c):
                raise ValueError(f"schedule must be T = {self.T} integers in [0, {len(c)})")
            self._rule, self._sched = None, np.asarray(s, dtype=np.int64)  # no copy if already int64
        self.centres = c
        self.n = domain.n

    @property
    def schedule(self) -> np.ndarray:
        """``piece[t-1]`` for t = 1..T as an int64 array (built on demand for a rule: O(T))."""
        if self._sched is not None:
            return self._sched
        return np.fromiter((self._rule.piece(t) for t in range(1, self.T + 1)), dtype=np.int64, count=self.T)

    def piece(self, t: int) -> int:
        if not 1 <= t <= self.T:
            raise ValueError(f"t must lie in [1, T = {self.T}], got {t!r}")
        return int(self._sched[t - 1]) if self._rule is None else self._rule.piece(t)

    def weights(self, tau: int) -> np.ndarray:
        """``L * (number of steps t <= tau using piece k)``, shape (K,)."""
        tau = V.integer("tau", tau)
        if self._rule is None:
            return self.L * np.bincount(self._sched[:tau], minlength=len(self.centres))
        return self.L * self._rule.counts(min(tau, self.T), len(self.centres))

    def value(self, t: int, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return self._value(self.piece(t), x)

    def total(self, x, tau: int | None = None) -> np.ndarray:
        """``sum_{t <= tau} f_t(x)`` for rows ``x`` of shape ``(M, n)``."""
        w = self.weights(self.T if tau is None else tau)
        x = np.atleast_2d(np.asarray(x, dtype=float))
        return sum(w[k] / self.L * self._value(k, x) for k in range(len(w)) if w[k] > 0)

    def best_fixed(self, taus) -> np.ndarray:
        taus = np.atleast_1d(np.asarray(taus))
        return np.array([self._best(self.weights(int(t))) for t in taus])


class DistanceLosses(_Pieces):
    """``f_t(x) = L ||x - c_{piece(t)}||_2``."""

    def _value(self, k, x):
        return self.L * np.linalg.norm(x - self.centres[k], axis=-1)

    def _best(self, w) -> float:
        return geometric_median(self.centres, w)[1]


class AbsLinearLosses(_Pieces):
    """``f_t(x) = L |<a_k, x - c_k>| / ||a_k||_2`` (L-Lipschitz, zero on a hyperplane through c_k)."""

    def __init__(self, domain, T, L, directions, centres, schedule):
        super().__init__(domain, T, L, centres, schedule)
        a = V.finite_array("directions", directions, ndim=2)
        if a.shape != self.centres.shape or np.any(np.linalg.norm(a, axis=1) == 0):
            raise ValueError(f"directions must be non-zero rows of shape {self.centres.shape}")
        self.a = a / np.linalg.norm(a, axis=1, keepdims=True)
        self.offset = np.sum(self.a * self.centres, axis=1)

    def _value(self, k, x):
        return self.L * np.abs(x @ self.a[k] - self.offset[k])

    def _best(self, w) -> float:
        # variables (lambda over vertices, s_k): min sum w_k s_k, s_k >= +-(<a_k, V^T lam> - b_k)
        Vt = self.domain.vertices()
        act = np.flatnonzero(w > 0)
        if act.size == 0:
            return 0.0
        m, K = len(Vt), act.size
        AV = self.a[act] @ Vt.T  # (K, m)
        A_ub = np.block([[AV, -np.eye(K)], [-AV, -np.eye(K)]])
        b_ub = np.r_[self.offset[act], -self.offset[act]]
        A_eq = np.r_[np.ones(m), np.zeros(K)][None]
        res = scipy.optimize.linprog(np.r_[np.zeros(m), w[act]], A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[1.0],
                               bounds=[(0, None)] * (m + K), method="highs",
                               options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
        if res.status != 0:
            raise RuntimeError(f"comparator LP failed: {res.message}")
        return float(res.fun)


def geometric_median(points, weights, rtol: float = 1e-10, max_iter: int = 100_000) -> tuple[np.ndarray, float]:
    """``argmin_x sum_k w_k ||x - p_k||`` and its value (see the module docstring)."""
    P = np.asarray(points, dtype=float)
    w = np.asarray(weights, dtype=float)
    P, w = P[w > 0], w[w > 0]
    if len(w) == 0:
        return np.zeros(np.shape(points)[1]), 0.0

    def f(x):
        return float(w @ np.linalg.norm(P - x, axis=1))

    for k in range(len(P)):  # exact optimality test at each data point
        d = P[k] - P
        nr = np.linalg.norm(d, axis=1)
        other = nr > 0
        G = (w[other, None] * d[other] / nr[other, None]).sum(axis=0)
        if np.linalg.norm(G) <= w[~other].sum() * (1 + 1e-12):
            return P[k].copy(), f(P[k])
    diam = max(np.linalg.norm(P[:, None] - P[None], axis=2).max(), 1e-300)
    x = (w[:, None] * P).sum(axis=0) / w.sum()
    for _ in range(max_iter):
        d = np.linalg.norm(P - x, axis=1)
        if np.any(d == 0):  # landed on a (non-optimal) data point: nudge off it
            x = x + 1e-9 * diam
            continue
        g = (w[:, None] * (x - P) / d[:, None]).sum(axis=0)
        fx = f(x)
        if np.linalg.norm(g) * diam <= rtol * fx:
            return x, fx
        x = (w[:, None] * P / d[:, None]).sum(axis=0) / (w / d).sum()
    raise RuntimeError("geometric_median: Weiszfeld did not reach the requested accuracy")


def _two_centres(domain: Polytope) -> np.ndarray:
    V_ = domain.vertices()
    v0 = V_[0]
    v1 = V_[np.argmax(np.linalg.norm(V_ - v0, axis=1))]
    return np.vstack([(domain.centre + v0) / 2, (domain.centre + v1) / 2])


def switching_schedule(T: int, phases: int) -> np.ndarray:
    """Round t's phase bit, 0 or 1: the horizon cut into ``phases`` equal phases that alternate."""
    T, phases = V.integer("T", T), V.integer("phases", phases)
    if phases > T:
        raise ValueError(f"phases must be <= T = {T}, got {phases}")
    return ((np.arange(T) * phases) // T) % 2


def stationary_distance(domain: Polytope, T: int, L: float = 1.0, centre=None) -> DistanceLosses:
    c = _two_centres(domain)[0] if centre is None else np.asarray(centre, dtype=float)
    return DistanceLosses(domain, T, L, c[None], ConstantSchedule(T))


def switching_distance(domain: Polytope, T: int, L: float = 1.0, phases: int = 4) -> DistanceLosses:
    return DistanceLosses(domain, T, L, _two_centres(domain), SwitchingSchedule(T, phases))


def switching_abs_linear(domain: Polytope, T: int, L: float = 1.0, phases: int = 4) -> AbsLinearLosses:
    c = _two_centres(domain)
    a = np.repeat((c[1] - c[0])[None], 2, axis=0)  # parallel zero sets: the comparator must trade off
    return AbsLinearLosses(domain, T, L, a, c, SwitchingSchedule(T, phases))


class OffsetLosses:
    """``f_t + offset`` (same gradients, same comparator up to ``offset * tau``): violates the
    paper's convention that each f_t attains 0 in the domain (so |f_t| <= L D)."""

    def __init__(self, base, offset: float):
        self.base, self.offset = base, float(offset)
        self.domain, self.T, self.L, self.n = base.domain, base.T, base.L, base.n

    def value(self, t, x):
        return self.base.value(t, x) + self.offset

    def best_fixed(self, taus):
        taus = np.atleast_1d(np.asarray(taus))
        return self.base.best_fixed(taus) + self.offset * taus
