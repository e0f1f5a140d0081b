"""Van der Hoeven (thesis ch. 3; NeurIPS 2019): the runs behind the claims of ``claims.vdh19``.

Section 3.4's two scenarios, as online absolute-loss regression ``l_t(w) = |<x_t, w> - y_t|``
(subgradient ``g_t = sign(<x_t, w_t> - y_t) x_t``, ``||g_t||_2 <= ||x_t||_2 <= 1``, a finite
optimum).  The regret is the linearised one the theorems bound (eq. (3.2.1)),
``R_T(u) = sum_t <g_t, w_t - u>`` with the TRUE subgradient at ``w_t`` (its expectation equals
that of ``sum_t <g~_t, w_t - u>`` since the noise is independent of ``w_t``), for every ``u``
of a grid at once: ``u = f u_ref`` with ``f`` in ``u_frac`` and ``u_ref`` the offline optimum.

Experiments (one tidy table each; one row per algorithm x point x replicate x comparator ``f``):

- ``minority`` (one job per T): wdbc (its first ``d`` principal components, standardised, rows
  scaled to unit l2 norm; labels +-1; optimum ``w*`` by linear programming over the 569 rows,
  which are sampled uniformly each round).  ``ceil(ln T)`` of the T providers privatise their
  subgradient with the l2 randomiser of Sec. 3.2.1 (``rho(z) ∝ exp(-eps/2 ||z||)``, eps =
  ``rate_eps``), the others send it as is.  Placements (``placement``): ``random`` (positions
  uniform among the T rounds), ``adversarial`` (the first ``ceil(ln T)`` rounds), and the
  references ``none`` (nobody privatises) and ``uniform`` (every provider at eps: the
  maximal-privacy counterfactual of Sec. 3.4).  Algorithms: ``alg2`` (Algorithm 2: Algorithm 1
  with the conjugate prior, ``b``, ``G = 1``, for the norm and projected OGD on the unit ball
  for the direction), ``alg3`` (Algorithm 3, ``G_j = 1``), ``adagrad`` (diagonal AdaGrad on ``[-D, D]^d``,
  ``D = D_guess max_j |w*_j|``), ``ogd`` (OGD on the ball of radius ``D_guess ||w*||`` tuned
  to the worst-case noise ``sigma_max^2 = 4 d (d+1)/eps^2``), and the controls
  ``alg2_fixed`` (Algorithm 2 with Algorithm 1 replaced by OGD with the fixed step
  ``eta_fixed``: ``R^V_T(0) = eta/2 sum <z_t, g~_t>^2 - v_{T+1}^2/(2 eta)`` grows linearly) and,
  for ``T <= printed_T_max``, ``alg2_printed`` (Algorithm 1 evaluating the printed (3.3.4)).
- ``minority_eps``: the same at ``T_eps`` for every eps of ``eps_grid`` (random, adversarial,
  uniform) plus ``none``; ``alg2, alg3, adagrad, ogd``.
- ``minority_n``: the same at ``T_n``, random placement at ``rate_eps``, for every number of
  private providers in ``n_grid`` (0 = none, T = uniform).
- ``unorm``: synthetic data, ``x_t`` uniform on the unit sphere of R^``d_u``, ``y_t = <x_t,
  u*>`` (optimum ``u*``, loss 0 there), one instance per ``||u*||`` in ``u_grid`` (fixed
  direction), at ``T_u``, random placement, ``rate_eps``: ``alg2``, ``alg2_improper``,
  ``alg2_fixed`` (as above) and ``alg2_reach``: the same control with the step ``eta_reach =
  max(u_grid)/(gamma T_u)``, ``gamma = E|<x, e>|`` (it just reaches the largest ``u*`` within
  T_u rounds and pays ``||u*||^2/(2 eta)``, quadratic in ``||u*||``).
- ``sparse`` (one job per T): ``x_t`` with ``s`` of ``d_sparse`` coordinates non-zero (random
  support, entries ``+-1/sqrt(s)``), ``y_t = <x_t, u*>`` with ``u*`` supported on the first
  ``k`` coordinates (entries ``+-u_max``); the local Laplace randomiser of Lemma 4 with
  ``tau_j = tau`` on the first ``d_sens`` coordinates and ``tau_j = inf`` elsewhere.
  ``alg3``; ``adagrad`` at ``D = r u_max`` for r in ``D_ratio_grid``; controls
  ``adagrad_tuned`` (``D = u_max``), ``adagrad_fixed`` (AdaGrad's first step ``sqrt2 D``, never
  decayed, ``D = max(D_ratio_grid) u_max``) and ``alg3_fixed`` (coordinate-wise OGD with the
  fixed step ``eta_fixed``).  Per-coordinate ``sum_t g~_{t,j}^2`` of the support are kept
  (``sum_sq_c<j>``) for Theorem 11.

Your own learner (module ``scenarios.vdh19_user``: its ``USER_CLAIMS``, :mod:`dpregret.scenarios.contract`):
a user's OCO learner ``make(R, d, r)`` goes in Algorithm 2's black-box slot, the direction learner
``A_Z`` on the unit ball (``r = 1``; ``vdh19_user.UserDirection``, ``vdh19_user.user_reduction``), with Algorithm 1 learning
the norm as in ``alg2``: Lemma 9 splits the regret into Algorithm 1's and ``||u|| R^Z``, and the
privacy cost of Sec. 3.4 is claimed for the reduction with any ``A_Z`` whose regret adapts to
``sum_t ||g~_t||^2``.  Its rows (``alg`` = its name, every placement) run in
:func:`simulate_minority` beside ``alg2`` on the same draws and are decided by
``VDH-sec3.4-minority-cost-rate-T`` (and ``-adversarial``) with the uniform-privacy control.

Streams: the data key is (scenario, data, T, "data"), the noise key (..., "noise"), the
private positions (..., "positions"); never the algorithm, eps or placement.  Each round one
noise vector is drawn per replicate with the randomiser at eps = 1 (resp. at ``tau``) and
scaled by 1/eps (the l2 randomiser's noise is exactly proportional to 1/eps) for every
variant and algorithm, so all of them see the same data and noise draws (common random
numbers), and the ``minority_eps``/``minority_n`` runs share their draws with the ``minority``
run of the same T.  Replicates are given as a range; results do not depend on the chunking.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd
from scipy import optimize, special

from .. import _validate as V
from ..environments.stochastic import load_wdbc
from ..learners import vdh
from ..mechanisms import l2_laplace_randomiser, local_laplace_randomiser
from ..rng import ReplicateStreams, stable_key

EXPERIMENTS = ("minority", "minority_eps", "minority_n", "unorm", "sparse")
PLACEMENTS = ("none", "random", "adversarial", "uniform")
# The paper's rows of every experiment: no user learner may take these names (scenarios.vdh19_user).
PAPER_ALGS = ("alg2", "alg3", "adagrad", "ogd", "alg2_fixed", "alg2_printed", "alg2_improper", "alg2_reach",
              "adagrad_tuned", "adagrad_fixed", "alg3_fixed")


def _streams(seed, reps, *key):
    return ReplicateStreams(seed, stable_key("vdh19", *key), reps)


# --- controls ---------------------------------------------------------------------------------
class FixedStepOGD:
    """Control: unconstrained OGD with a fixed step, ``w_1 = 0``, ``w_{t+1} = w_t - eta g~_t``
    (any shape; in Algorithm 2's magnitude slot it replaces Algorithm 1).  Its regret obeys
    the identity ``sum_t <g~_t, w_t - u> = (||u||^2 - ||w_{T+1} - u||^2)/(2 eta) + eta/2 sum_t
    ||g~_t||^2``: linear in T, quadratic in ||u||, and ``R_T(0) > 1`` once ``eta/2 sum ||g~||^2``
    exceeds ``1 + ||w_{T+1}||^2/(2 eta)``, which Theorems 10-12 and (3.3.5) exclude."""

    def __init__(self, eta: float, shape):
        self.eta = V.positive("eta", eta)
        self.w = np.zeros(shape)

    def predict(self) -> np.ndarray:
        return self.w.copy()

    def update(self, g) -> None:
        self.w = self.w - self.eta * np.asarray(g, dtype=float)


class FixedStepBox:
    """Control: diagonal AdaGrad's first step ``eta = sqrt2 D`` never decayed, on the same box:
    ``w_{t+1} = clip(w_t - eta g~_t, -D, D)``."""

    def __init__(self, D: float, shape):
        self.D = V.positive("D", D)
        self.eta = math.sqrt(2.0) * self.D
        self.w = np.zeros(shape)

    def predict(self) -> np.ndarray:
        return self.w.copy()

    def update(self, g) -> None:
        self.w = np.clip(self.w - self.eta * np.asarray(g, dtype=float), -self.D, self.D)


class PrintedRule(vdh.PrivatePotential):
    """Algorithm 1 (conjugate prior) playing the printed eq. (3.3.4) instead of (3.3.2)
    (:func:`dpregret.learners.vdh.prediction_printed_3_3_4`, naive evaluation).  Entries whose
    value leaves float64 play 0 from then on and are flagged in ``failed``."""

    def __init__(self, G, *, b=1.0, shape=()):
        super().__init__(G, prior="conjugate", b=b, shape=shape)
        self.failed = np.zeros(self.shape, dtype=bool)

    def predict(self) -> np.ndarray:
        G = 1.0 / (5.0 * self.C)
        with np.errstate(all="ignore"):
            w = vdh.prediction_printed_3_3_4(self.L, self.b + self.V, G, self.b)
        self.failed |= ~np.isfinite(w)
        return np.where(self.failed, 0.0, w)


class LazySparsePotential(vdh.SparsePotential):
    """Algorithm 3 (:class:`dpregret.learners.vdh.SparsePotential`) re-evaluating (3.3.2) only
    where the state moved: a zero feedback ``g~_{t,j} = 0`` leaves ``L_j``, ``V_j`` and hence
    ``w_{t+1,j}`` unchanged, so with sparse subgradients and sparse noise most coordinates keep
    their prediction.  Same values as :class:`SparsePotential` (``tests/test_vdh19.py``)."""

    def __init__(self, G, d: int, *, batch=(), b=1.0):
        super().__init__(G, d, batch=batch, b=b)
        self._G = np.broadcast_to(np.asarray(G, dtype=float), self.shape).copy()
        self._w = None
        self._dirty = np.ones(self.shape, dtype=bool)

    def predict(self) -> np.ndarray:
        if self._w is None:
            self._w = super().predict()
        elif self._dirty.any():
            ix = self._dirty
            self._w[ix] = vdh.prediction(self.L[ix], self.b[ix] + self.V[ix], self._G[ix], b=self.b[ix])
        self._dirty[...] = False
        return self._w.copy()

    def update(self, g) -> None:
        super().update(g)
        self._dirty |= np.asarray(g) != 0


# --- data -------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def wdbc_problem(d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(A, y, w*)``: wdbc's first ``d`` principal components (of the standardised features),
    each standardised, rows scaled to unit l2 norm; labels +-1; ``w*`` minimises the mean
    absolute loss ``mean_i |<a_i, w> - y_i|`` (a linear programme, HiGHS)."""
    d = V.integer("d", d)
    X, y, _ = load_wdbc()
    if d > X.shape[1]:
        raise ValueError(f"d must be <= {X.shape[1]} (features of wdbc), got {d}")
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    _, _, Vt = np.linalg.svd(Z, full_matrices=False)
    P = Z @ Vt[:d].T
    P = P / P.std(axis=0)
    A = P / np.linalg.norm(P, axis=1, keepdims=True)
    return A, y, lad(A, y)


def lad(A: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``argmin_w sum_i |<a_i, w> - y_i|`` as the LP ``min 1'(p + q)``, ``A w - y = p - q``."""
    n, d = A.shape
    res = optimize.linprog(np.r_[np.zeros(d), np.ones(2 * n)], A_eq=np.hstack([A, -np.eye(n), np.eye(n)]), b_eq=y,
                           bounds=[(None, None)] * d + [(0, None)] * (2 * n), method="highs")
    if res.status != 0:
        raise RuntimeError(f"LP for the absolute-loss optimum failed: {res.message}")
    return res.x[:d]


def sphere_abs_mean(d: int) -> float:
    """``gamma = E|<x, e>|`` for x uniform on the unit sphere of R^d and a unit vector e."""
    return float(math.exp(special.gammaln(d / 2) - special.gammaln((d + 1) / 2)) / math.sqrt(math.pi))


def fixed_direction(d: int) -> np.ndarray:
    """The synthetic optimum's direction: ``(1, -1/2, 1/3, ...)`` normalised."""
    v = np.array([(-1.0) ** j / (j + 1) for j in range(d)])
    return v / np.linalg.norm(v)


def l2_noise_second_moment(d: int, eps: float) -> float:
    """``E||xi||_2^2 = 4 d (d+1)/eps^2`` for ``rho(z) ∝ exp(-eps/2 ||z||_2)`` (``||xi|| ~ Gamma(d, 2/eps)``)."""
    return 4.0 * d * (d + 1) / eps**2


def n_private(T: int) -> int:
    """Sec. 3.4: ``ceil(ln T)`` providers care for their privacy."""
    return int(math.ceil(math.log(T)))


# --- the run ----------------------------------------------------------------------------------
def _smallest(src, T: int, n: int, block: int = 1024) -> np.ndarray:
    """(R, n): per replicate, the positions of the ``n`` smallest of its next ``T`` uniforms of
    ``src``, in increasing order of (uniform, position): the positions of rank ``< n`` of a
    stable argsort of ``src.uniform((T,))``, i.e. ``argsort(u, kind="stable")[:, :n]``.

    The uniforms are drawn in consecutive blocks (the same numbers, in the same order, as one
    ``(R, T)`` draw) and merged into a running n-smallest, so memory is O(R (n + block)), not
    O(R T).  Ties keep the lower position first: the running set precedes each new block in the
    concatenation, all its positions are lower, and a stable sort keeps that order."""
    n = min(int(n), T)
    R = src.R
    vals, pos = np.empty((R, 0)), np.empty((R, 0), dtype=np.int64)
    for lo in range(0, T, block):
        hi = min(lo + block, T)
        u = src.uniform((hi - lo,))
        vals = np.concatenate([vals, u], axis=1)
        pos = np.concatenate([pos, np.broadcast_to(np.arange(lo, hi, dtype=np.int64), (R, hi - lo))], axis=1)
        keep = np.argsort(vals, axis=1, kind="stable")[:, :n]
        vals, pos = np.take_along_axis(vals, keep, axis=1), np.take_along_axis(pos, keep, axis=1)
    return pos


class _Masks:
    """Who privatises in round t: ``masks(t)`` -> (V, R) booleans, asked for t = 0, 1, ..., T-1
    in turn.  A replicate's random placement of ``n`` providers takes the rounds of rank ``< n``
    of a random permutation (the stable ranks of its ``T`` uniforms of the ``positions``
    stream); only the ``max n`` rounds of lowest rank are kept (:func:`_smallest`), with their
    rank, sorted by round, and a pointer per replicate walks them as the rounds go by: memory
    O(R max n) instead of (T, V, R) masks."""

    def __init__(self, variants, T: int, R: int, positions_src=None):
        self.T, self.R, self.t = T, R, 0
        kind = [v["placement"] for v in variants]
        self.n = np.array([v["n"] for v in variants], dtype=np.int64)
        self.uniform = np.array([k == "uniform" for k in kind])[:, None]
        self.adversarial = np.array([k == "adversarial" for k in kind])
        self.random = np.array([k == "random" for k in kind])[:, None]
        K = min(int(self.n[self.random[:, 0]].max()), T) if self.random.any() else 0
        self.K, self.rows = K, np.arange(R)
        self.rank_t = np.full(R, K)  # no random placement with n > 0: nobody is drawn
        if K > 0:
            top = _smallest(positions_src, T, K)  # (R, K) rounds, by rank
            order = np.argsort(top, axis=1, kind="stable")
            # rounds increasing, then their ranks, each with a sentinel column (round T, rank K)
            self.rounds = np.c_[np.take_along_axis(top, order, axis=1), np.full(R, T)]
            self.rank = np.c_[order, np.full(R, K)]
            self.ptr = np.zeros(R, dtype=np.int64)

    def __call__(self, t: int) -> np.ndarray:
        if t != self.t:
            raise ValueError(f"rounds must be asked in order: expected {self.t}, got {t}")
        self.t += 1
        rank_t = self.rank_t
        if self.K > 0:
            hit = self.rounds[self.rows, self.ptr] == t
            rank_t = np.where(hit, self.rank[self.rows, self.ptr], self.K)
            self.ptr += hit
        return self.uniform | (self.adversarial & (t < self.n))[:, None] | (self.random & (rank_t < self.n[:, None]))


class _Grouped:
    """Learners of one class whose scalar parameter differs between variants: one instance
    per distinct value, each with batch (variants of the group, R)."""

    def __init__(self, keys, make):
        self.groups = {}
        for i, k in enumerate(keys):
            self.groups.setdefault(k, []).append(i)
        self.learners = {k: make(k, len(ix)) for k, ix in self.groups.items()}
        self.V = len(keys)

    def predict(self):
        parts = {k: lr.predict() for k, lr in self.learners.items()}
        first = next(iter(parts.values()))
        out = np.empty((self.V, *first.shape[1:]))
        for k, ix in self.groups.items():
            out[ix] = parts[k]
        return out

    def update(self, g):
        for k, ix in self.groups.items():
            self.learners[k].update(g[ix])


def _run(T, R, d, draw, noise, scale, masks, learners):
    """Run every learner (batch (V, R)) for T rounds of absolute-loss regression.

    ``draw()`` -> ``x`` (R, d), ``y`` (R,) or (V, R); ``noise()`` -> (R, d) noise at scale 1;
    ``scale`` (V,): noise multiplier per variant; ``masks(t)`` -> (V, R) booleans (who
    privatises in round t, asked for t = 0, ..., T-1 in turn).  Returns per learner
    ``lin = sum <g, w>``, ``gsum = sum g``, ``S = sum ||g~||^2``, ``S_true = sum ||g||^2``, and
    for Algorithm 2-type learners (with a ``direction``) ``zg = sum <z, g>``, ``S_mag = sum
    <z, g~>^2``, ``S_mag_true = sum <z, g>^2``; for ``coords`` learners ``S_c`` (V, R, d)."""
    Vn = len(scale)
    acc = {}
    for name, (lr, kind) in learners.items():
        a = {"lin": np.zeros((Vn, R)), "gsum": np.zeros((Vn, R, d)), "S": np.zeros((Vn, R)), "S_true": np.zeros((Vn, R))}
        if kind == "alg2":
            a |= {"zg": np.zeros((Vn, R)), "S_mag": np.zeros((Vn, R)), "S_mag_true": np.zeros((Vn, R))}
        if kind == "coords":
            a["S_c"] = np.zeros((Vn, R, d))
        acc[name] = a
    for t in range(T):
        x, y = draw()
        xi = noise()
        nz = (masks(t) * scale[:, None])[..., None] * xi[None]  # (V, R, d)
        for name, (lr, kind) in learners.items():
            a = acc[name]
            if kind == "alg2":
                z = lr.direction.predict()
            w = lr.predict()
            m = np.einsum("vrd,rd->vr", w, x) - y
            g = np.sign(m)[..., None] * x[None]
            gt = g + nz
            a["lin"] += np.einsum("vrd,vrd->vr", g, w)
            a["gsum"] += g
            a["S"] += np.einsum("vrd,vrd->vr", gt, gt)
            a["S_true"] += np.einsum("vrd,vrd->vr", g, g)
            if kind == "alg2":
                zg, zgt = np.einsum("vrd,vrd->vr", z, g), np.einsum("vrd,vrd->vr", z, gt)
                a["zg"] += zg
                a["S_mag"] += zgt * zgt
                a["S_mag_true"] += zg * zg
            if kind == "coords":
                a["S_c"] += gt * gt
            lr.update(gt)
    return acc


def _minority_learners(p, T, d, variants, w_star, algs):
    R_shape = (len(variants), p["_R"])
    b, G = p.get("b", 1.0), 1.0
    out = {}
    if "alg2" in algs:
        out["alg2"] = (vdh.BlackBoxReduction(G, d, batch=R_shape, b=b), "alg2")
    if "alg3" in algs:
        out["alg3"] = (vdh.SparsePotential(G, d, batch=R_shape, b=b), "coords")
    if "adagrad" in algs:
        out["adagrad"] = (vdh.DiagonalAdaGrad(p["D_guess"] * float(np.abs(w_star).max()), d, batch=R_shape), "vec")
    if "ogd" in algs:
        sig = [math.sqrt(l2_noise_second_moment(d, v["eps"])) if v["n"] > 0 else 0.0 for v in variants]
        D = p["D_guess"] * float(np.linalg.norm(w_star))
        out["ogd"] = (_Grouped(sig, lambda s, n: vdh.NoiseTunedOGD(D, T, G, s, d, batch=(n, p["_R"]))), "vec")
    if "alg2_fixed" in algs:
        lr = vdh.BlackBoxReduction(G, d, batch=R_shape, b=b)
        lr.magnitude = FixedStepOGD(p["eta_fixed"], R_shape)
        out["alg2_fixed"] = (lr, "alg2")
    if "alg2_printed" in algs:
        lr = vdh.BlackBoxReduction(G, d, batch=R_shape, b=b)
        lr.magnitude = PrintedRule(G, b=b, shape=R_shape)
        out["alg2_printed"] = (lr, "alg2")
    return out


def _rows(acc, variants, u_ref, u_frac, reps, cols, extra=None) -> pd.DataFrame:
    """Tidy rows: algorithm x variant x replicate x comparator ``u = f u_ref[v]``."""
    frames = []
    reps = np.asarray(list(reps))
    u_ref = np.broadcast_to(np.asarray(u_ref, dtype=float), (len(variants), u_ref.shape[-1]))
    unorm = np.linalg.norm(u_ref, axis=1)
    for alg, a in acc.items():
        gdot = np.einsum("vrd,vd->vr", a["gsum"], u_ref)
        failed = extra.get(alg) if extra else None
        for i, v in enumerate(variants):
            for f in u_frac:
                reg = a["lin"][i] - f * gdot[i]
                df = {"alg": alg, "replicate": reps, "u_frac": float(f), "u_norm": float(f * unorm[i]),
                      "u_star_norm": float(unorm[i]), "regret": reg, "sum_sq": a["S"][i], "sum_sq_true": a["S_true"][i]}
                if "zg" in a:
                    df |= {"mag_regret": a["lin"][i] - f * unorm[i] * a["zg"][i], "mag_sum_sq": a["S_mag"][i],
                           "mag_sum_sq_true": a["S_mag_true"][i]}
                if failed is not None:
                    bad = failed[i]
                    df["regret"] = np.where(bad, np.nan, df["regret"])
                    if "mag_regret" in df:
                        df["mag_regret"] = np.where(bad, np.nan, df["mag_regret"])
                df = pd.DataFrame(df)
                for k in ("placement", "eps", "n_private", "eta"):
                    if k in v:
                        df[k] = v[k]
                frames.append(df)
    out = pd.concat(frames, ignore_index=True)
    for k, val in cols.items():
        out[k] = val
    for c in ("mag_regret", "mag_sum_sq", "mag_sum_sq_true"):
        if c not in out:
            out[c] = np.nan
    return out


def _minority_run(p, experiment, T, variants, reps, seed, algs, users=None) -> pd.DataFrame:
    d = p["d"]
    A, y_all, w_star = wdbc_problem(d)
    reps = list(reps)
    R, n = len(reps), A.shape[0]
    p = dict(p, _R=R)
    data = _streams(seed, reps, "minority", "wdbc", d, T, "data")
    nsrc = _streams(seed, reps, "minority", "wdbc", d, T, "noise")
    masks = _Masks(variants, T, R, _streams(seed, reps, "minority", "wdbc", d, T, "positions"))
    scale = np.array([1.0 / v["eps"] if v["n"] > 0 else 0.0 for v in variants])
    zeros = np.zeros((R, d))

    def draw():
        idx = np.minimum((data.uniform(()) * n).astype(np.int64), n - 1)
        return A[idx], y_all[idx]

    learners = _minority_learners(p, T, d, variants, w_star, algs)
    if users:
        from .vdh19_user import user_reduction
    for name, make in (users or {}).items():  # after the paper's: they do not move its draws or rows
        if name in learners or name in PAPER_ALGS:
            raise ValueError(f"learner name {name!r} is taken by the paper's rows; choose another")
        learners[name] = (user_reduction(make, d, (len(variants), R), p.get("b", 1.0)), "alg2")
    acc = _run(T, R, d, draw, lambda: l2_laplace_randomiser(zeros, 1.0, nsrc), scale, masks, learners)
    extra = {"alg2_printed": learners["alg2_printed"][0].magnitude.failed} if "alg2_printed" in learners else None
    vv = [{"placement": v["placement"], "eps": v["eps"] if v["n"] > 0 else math.inf, "n_private": v["n"]} for v in variants]
    df = _rows(acc, vv, w_star[None, :], p["u_frac"], reps, {}, extra)
    df["experiment"], df["data"], df["T"], df["d"] = experiment, "wdbc", T, d
    return df


def _variant(placement, eps, n):
    return {"placement": placement, "eps": V.positive("eps", eps), "n": int(n)}


def simulate_minority(p: dict, T: int, reps, seed: int, learners: dict | None = None,
                      paper_algs: tuple[str, ...] | None = None) -> pd.DataFrame:
    """The privacy-caring minority at one T (wdbc), placements none/random/adversarial/uniform.

    ``learners``: ``{name: make}`` of direction learners (``dpregret.protocols`` setting
    ``oco``; ``make(R, d, r)`` builds one for ``R`` rows on the ball of radius ``r = 1``), each
    run as Algorithm 2's ``A_Z`` (``vdh19_user.user_reduction``) beside the paper's learners, on the
    same data, positions and noise draws; its rows are ``alg = name`` at every placement, like
    ``alg2``'s.  ``paper_algs`` limits the paper's learners run (default: all); neither changes
    the paper's rows that are run (``tests/test_user_vdh19.py``)."""
    T = V.integer("T", T, minimum=2)
    eps, k = p["rate_eps"], n_private(T)
    variants = [_variant("none", eps, 0), _variant("random", eps, k), _variant("adversarial", eps, k),
                _variant("uniform", eps, T)]
    algs = ["alg2", "alg3", "adagrad", "ogd", "alg2_fixed"]
    if T <= p.get("printed_T_max", 0):
        algs.append("alg2_printed")
    if paper_algs is not None:
        algs = [a for a in algs if a in paper_algs]
    return _minority_run(p, "minority", T, variants, reps, seed, algs, learners)


def simulate_minority_eps(p: dict, reps, seed: int) -> pd.DataFrame:
    """Every eps of ``eps_grid`` at ``T_eps``: random and uniform placements, and none."""
    T = V.integer("T_eps", p["T_eps"], minimum=2)
    k = n_private(T)
    variants = [_variant("none", p["rate_eps"], 0)]
    for e in p["eps_grid"]:
        variants += [_variant("random", e, k), _variant("uniform", e, T)]
    return _minority_run(p, "minority_eps", T, variants, reps, seed, ["alg2", "alg3", "adagrad", "ogd"])


def simulate_minority_n(p: dict, reps, seed: int) -> pd.DataFrame:
    """Every number of private providers in ``n_grid`` at ``T_n`` (random positions, ``rate_eps``)."""
    T = V.integer("T_n", p["T_n"], minimum=2)
    ns = sorted({min(int(n), T) for n in p["n_grid"]})
    variants = [_variant("none" if n == 0 else ("uniform" if n == T else "random"), p["rate_eps"], n) for n in ns]
    return _minority_run(p, "minority_n", T, variants, reps, seed, ["alg2", "alg3", "adagrad", "ogd"])


def simulate_unorm(p: dict, reps, seed: int) -> pd.DataFrame:
    """Synthetic instances with ``||u*||`` in ``u_grid`` at ``T_u`` (random minority at ``rate_eps``)."""
    T, d = V.integer("T_u", p["T_u"], minimum=2), V.integer("d_u", p["d_u"])
    reps = list(reps)
    R, eps, k = len(reps), p["rate_eps"], n_private(T)
    U = np.array([V.positive("u_grid[i]", u) for u in p["u_grid"]])
    u_star = U[:, None] * fixed_direction(d)[None, :]  # (V, d)
    variants = [_variant("random", eps, k) for _ in U]
    eta = float(U.max() / (sphere_abs_mean(d) * T))
    data = _streams(seed, reps, "unorm", "sphere", d, T, "data")
    nsrc = _streams(seed, reps, "unorm", "sphere", d, T, "noise")
    masks = _Masks(variants, T, R, _streams(seed, reps, "unorm", "sphere", d, T, "positions"))
    scale = np.full(len(U), 1.0 / eps)
    zeros = np.zeros((R, d))

    def draw_xy():
        x = data.normal((d,))
        x /= np.linalg.norm(x, axis=1, keepdims=True)
        return x, np.einsum("rd,vd->vr", x, u_star)

    shape = (len(U), R)
    learners = {"alg2": (vdh.BlackBoxReduction(1.0, d, batch=shape, b=p.get("b", 1.0)), "alg2"),
                "alg2_improper": (vdh.BlackBoxReduction(1.0, d, batch=shape, prior="improper"), "alg2")}
    for name, step in (("alg2_fixed", p["eta_fixed"]), ("alg2_reach", eta)):
        fx = vdh.BlackBoxReduction(1.0, d, batch=shape, b=p.get("b", 1.0))
        fx.magnitude = FixedStepOGD(step, shape)
        learners[name] = (fx, "alg2")
    acc = _run(T, R, d, draw_xy, lambda: l2_laplace_randomiser(zeros, 1.0, nsrc), scale, masks, learners)
    vv = [{"placement": "random", "eps": eps, "n_private": k} for _ in U]
    df = _rows(acc, vv, u_star, p["u_frac"], reps, {})
    df["eta"] = np.select([df.alg == "alg2_fixed", df.alg == "alg2_reach"], [p["eta_fixed"], eta], np.nan)
    df["experiment"], df["data"], df["T"], df["d"] = "unorm", "synthetic", T, d
    return df


def simulate_sparse(p: dict, T: int, reps, seed: int) -> pd.DataFrame:
    """Sec. 3.4's second scenario at one T (see the module docstring)."""
    T = V.integer("T", T, minimum=2)
    d, s, k = V.integer("d_sparse", p["d_sparse"]), V.integer("s", p["s"]), V.integer("k", p["k"])
    d_sens, tau, u_max = V.integer("d_sens", p["d_sens"], minimum=0), V.positive("tau", p["tau"]), V.positive("u_max", p["u_max"])
    if s > d or k > d or d_sens > d:
        raise ValueError(f"s, k and d_sens must be <= d_sparse = {d}, got s={s}, k={k}, d_sens={d_sens}")
    reps = list(reps)
    R = len(reps)
    u_star = np.zeros(d)
    u_star[:k] = u_max * (-1.0) ** np.arange(k)
    taus = np.where(np.arange(d) < d_sens, tau, np.inf)
    data = _streams(seed, reps, "sparse", d, s, k, T, "data")
    nsrc = _streams(seed, reps, "sparse", d, s, k, T, "noise")
    zeros = np.zeros((R, d))
    inv = 1.0 / math.sqrt(s)

    def draw_xy():
        sup = np.argsort(data.uniform((d,)), axis=1, kind="stable")[:, :s]
        sgn = np.where(data.uniform((s,)) < 0.5, -1.0, 1.0)
        x = np.zeros((R, d))
        np.put_along_axis(x, sup, sgn * inv, axis=1)
        return x, x @ u_star

    ratios = [float(r) for r in p["D_ratio_grid"]]
    learners = {"alg3": (LazySparsePotential(1.0, d, batch=(1, R), b=p.get("b", 1.0)), "coords")}
    for r in ratios:
        learners[f"adagrad@{r!r}"] = (vdh.DiagonalAdaGrad(r * u_max, d, batch=(1, R)), "vec")
    learners["adagrad_tuned"] = (vdh.DiagonalAdaGrad(u_max, d, batch=(1, R)), "vec")
    learners["adagrad_fixed"] = (FixedStepBox(max(ratios) * u_max, (1, R, d)), "vec")
    learners["alg3_fixed"] = (FixedStepOGD(p["eta_fixed"], (1, R, d)), "coords")
    everyone = np.ones((1, R), dtype=bool)
    acc = _run(T, R, d, draw_xy, lambda: local_laplace_randomiser(zeros, taus, nsrc), np.ones(1),
               lambda t: everyone, learners)
    frames = []
    for name, a in acc.items():
        alg, _, r = name.partition("@")
        df = _rows({alg: a}, [{}], u_star[None, :], p["u_frac"], reps, {})
        df["D_ratio"] = float(r) if r else (1.0 if alg == "adagrad_tuned" else (max(ratios) if alg == "adagrad_fixed" else np.nan))
        if "S_c" in a:
            for j in range(k):
                df[f"sum_sq_c{j}"] = np.tile(a["S_c"][0, :, j], len(p["u_frac"]))
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df["u_norm"] = df["u_frac"] * u_max  # max_j |u_j| (the l_inf norm AdaGrad's D is compared with)
    df["experiment"], df["data"], df["T"], df["d"], df["s"], df["k"], df["tau"], df["d_sens"] = (
        "sparse", "sparse_synthetic", T, d, s, k, tau, d_sens)
    return df


def simulate_job(params: dict, wildcards: dict, outputs: list[str]) -> None:
    """The workflow's simulate job (``dpregret.jobs``): one point (``T<value>`` or ``all``) of one
    experiment, one replicate chunk."""
    p, seed, e = params["p"], params["seed"], wildcards["experiment"]
    lo, hi = map(int, wildcards["chunk"].split("-"))
    reps = range(lo, hi)
    fn = {"minority": simulate_minority, "sparse": simulate_sparse, "minority_eps": simulate_minority_eps,
          "minority_n": simulate_minority_n, "unorm": simulate_unorm}[e]
    df = fn(p, int(wildcards["point"][1:]), reps, seed) if e in ("minority", "sparse") else fn(p, reps, seed)
    df["scenario"] = "vdh19"
    df.to_parquet(outputs[0], index=False)
    print(len(df), "rows")
