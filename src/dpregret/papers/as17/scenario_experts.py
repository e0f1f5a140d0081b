"""Agarwal and Singh (ICML 2017), section 3: private prediction with expert advice.

Algorithm 1 with the entropic regulariser (exponential weights) on TreeBasedAgg prefix
sums, ``lambda = N * nodes_covering_leaf(T) / eps`` (Corollary 3.2, item 1, with the
leaf-covering count as the ``log T`` factor, see ``dpregret.core.tree``), ``eta`` from
:func:`dpregret.papers.as17.ftrl.eta_thm34`.  Beside it, on the same loss sequence (common
random numbers): the non-private learner with the same ``eta`` and the fresh-noise
learner (negative control, eps-DP without the tree).

:func:`simulate` runs one (environment, N, T) point for a grid of eps and a chunk of
replicates, all vectorised, and returns one row per (algorithm, eps, replicate) with the
regret and the realised terms of the Theorem 3.4 bound.  :func:`d_noise_mc` estimates
``D_{D'}`` by Monte Carlo.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from dpregret.core import _validate as V
from dpregret.core.environments.experts import KINDS, StochasticExperts, SwitchingExperts
from dpregret.papers.as17.ftrl import ExpWeights, bound_thm3_4, eta_thm34  # noqa: F401 (bound re-exported)
from dpregret.core.calibration import fresh_lambda, tree_lambda
from dpregret.papers.as17.prefix_sums import ExactSum, FreshNoise, TreeSum, scaled_draws
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.core.tree import draws_per_release

SCENARIO = "as17_experts"
ALGORITHMS = ("nonprivate", "tree", "fresh_noise")
ENVS = KINDS + ("fixed",)


class FixedExperts:
    """A deterministic oblivious sequence whose leader is fixed from round 1 (the mean of
    :class:`~dpregret.core.environments.experts.StochasticExperts`): expert 0 has loss ``1/2 - gap``
    in every round, every other expert ``1/2``.

    Exponential weights' regret is path-independent to first order (the potential telescopes),
    so switches of the leader do not raise it (the 4-phase ``switching`` sequence gives
    +-O(1/eta)); a fixed leader realises its whole ``log N / eta`` term, Theta(sqrt(T)) at the
    tuned eta, once ``eta gap T >> log N``.  The small margin ``gap`` is the learner's own
    timescale: a learner reading noise of scale s per release cannot separate the leader before
    ``gap t ~ s``, so the fresh-noise control (s ~ sqrt(T log T) / eps) stays near its trivial
    regret ``gap T (N - 1) / N`` over a wider range of T than the tree (s ~ polylog / eps).
    No randomness: only the learners' noise varies across replicates."""

    def __init__(self, N: int, gap: float, R: int):
        self.N = V.integer("N", N, minimum=2)
        gap = V.nonnegative("gap", gap)
        if gap > 0.5:
            raise ValueError(f"gap must lie in [0, 0.5], got {gap!r}")
        self.R = V.integer("R", R)
        self.l = np.full(self.N, 0.5)
        self.l[0] = 0.5 - gap

    def loss(self, t: int, R: int) -> np.ndarray:
        return np.broadcast_to(self.l, (V.integer("R", R), self.N))

    def block(self, rounds: int) -> np.ndarray:
        """The next ``rounds`` rounds, ``(R, rounds, N)`` (the same vector every round)."""
        return np.ascontiguousarray(np.broadcast_to(self.l, (self.R, V.integer("rounds", rounds), self.N)))


def loss_source(env: str, N: int, T: int, replicates, root_seed: int, gap: float, phases: int):
    """The loss sequence of one point (``env`` in :data:`ENVS`), its streams keyed by the point."""
    if env == "switching":
        return SwitchingExperts(T, N, phases)
    if env == "fixed":
        return FixedExperts(N, gap, len(replicates))
    point = (SCENARIO, env, N, T, gap)
    return StochasticExperts(N, gap, ReplicateStreams(root_seed, stable_key(*point, "losses"), replicates))


def point_key(env: str, N: int, T: int, gap: float, phases: int) -> tuple:
    """The key of one point's streams (the tree's and the fresh sums' draws)."""
    return (SCENARIO, env, N, T, phases if env == "switching" else gap)

BLOCK = 4096  # rounds of losses / standard Laplace draws made at once (speed only: the same numbers)


class BlockedLaplace:
    """A stand-in for a ReplicateStreams in :func:`scaled_draws`: serves ``laplace(1.0, (k, N))``
    from standard Laplace draws made ``BLOCK`` rows at a time.  ``laplace`` is elementwise in the
    stream's uniforms, which a ReplicateStreams serves in order whatever the block, so every call
    returns the numbers of ``streams.laplace(1.0, (k, N))`` (``tests/test_as17_experts.py``)."""

    def __init__(self, streams: ReplicateStreams, N: int):
        self.streams, self.N, self.R = streams, N, streams.R
        self._buf = np.empty((streams.R, 0, N))
        self._pos = 0

    def laplace(self, scale, shape):
        k = shape[0]
        if scale != 1.0 or tuple(shape) != (k, self.N):
            raise ValueError("blocked draws serve standard Laplace (k, N) draws only")
        if self._pos + k > self._buf.shape[1]:
            self._buf = np.concatenate([self._buf[:, self._pos:], self.streams.laplace(1.0, (max(BLOCK, k), self.N))],
                                       axis=1)
            self._pos = 0
        self._pos += k
        return self._buf[:, self._pos - k : self._pos]


def simulate(env: str, N: int, T: int, eps: Sequence[float], replicates: Sequence[int], root_seed: int,
             gap: float = 0.1, phases: int = 4, tap=None) -> pd.DataFrame:
    """The paper's rows of one point.  ``tap``: an object given the rounds' draws as the compiled
    rounds make them (``tap.start(noise_0, fresh_0)``, then ``tap.block(t0, L, zt, zf)`` per block,
    :func:`_rounds_compiled`), so that another consumer of the same draws (a user's learner,
    ``papers.as17.user_experts``) need not draw them again; the rows do not depend on it."""
    if env not in ENVS:
        raise ValueError(f"env must be one of {ENVS}, got {env!r}")
    N = V.integer("N", N, minimum=2)
    T = V.integer("T", T)
    eps = np.array([V.positive("eps", e) for e in eps])
    replicates = list(replicates)
    R, E = len(replicates), eps.size
    point = point_key(env, N, T, gap, phases)
    source = loss_source(env, N, T, replicates, root_seed, gap, phases)
    eta = eta_thm34(N, T)
    tree_streams = ReplicateStreams(root_seed, stable_key(*point, "tree"), replicates)
    fresh_streams = ReplicateStreams(root_seed, stable_key(*point, "fresh"), replicates)
    sc_t = np.array([tree_lambda(N, T, e) for e in eps])
    sc_f = np.array([fresh_lambda(N, T, e) for e in eps])
    if tap is not None and not COMPILED:
        raise ValueError("tap needs the compiled rounds (COMPILED = True)")
    if COMPILED:
        suffered, cum, sum_sq, sum_max = _rounds_compiled(source, env, T, R, E, N, eta, tree_streams, fresh_streams, sc_t,
                                                          sc_f, tap)
    else:
        suffered, cum, sum_sq, sum_max = _rounds_reference(source, env, T, R, E, N, eta, tree_streams, fresh_streams, sc_t, sc_f)
    best = cum.min(axis=1)
    uniform = cum.mean(axis=1) - best  # the non-learner (uniform weights, sum_t <1/N, l_t>) on the same losses

    rows = []
    for name in ALGORITHMS:
        reg = suffered[name] - (best if name == "nonprivate" else np.tile(best, E))
        reg = reg.reshape(-1, R)
        for ei, e in enumerate(eps):
            r = reg[0] if name == "nonprivate" else reg[ei]
            rows.append(pd.DataFrame({
                "scenario": SCENARIO, "env": env, "algorithm": name, "N": N, "T": T, "eps": float(e),
                "replicate": replicates, "eta": eta, "regret": r, "sum_sq_dual": sum_sq, "max_regret": sum_max - best,
                "uniform_regret": uniform,
                "lambda": {"nonprivate": 0.0, "tree": tree_lambda(N, T, e), "fresh_noise": fresh_lambda(N, T, e)}[name],
            }))
    return pd.concat(rows, ignore_index=True)


COMPILED = True  # papers.as17.experts_jit (speed only; False: the per-round classes, the reference)
CBLOCK = 512  # rounds per compiled block (speed only: numpy's temporaries stay in cache)


def _losses(source, env, t, R, state):
    """The losses of round t: source.loss(t, R), BLOCK rounds at a time for the stochastic
    experts (StochasticExperts.block: the same draws)."""
    if env == "switching":
        return source.loss(t, R)
    i = (t - 1) % BLOCK
    if i == 0:
        state[0] = source.block(min(BLOCK, state[1] - t + 1))  # state = [current block, T]
    return state[0][:, i]


def _rounds_reference(source, env, T, R, E, N, eta, tree_streams, fresh_streams, sc_t, sc_f):
    """The rounds with the per-round classes (Algorithm 1 on ExactSum / TreeSum / FreshNoise)."""
    learners = {
        "nonprivate": ExpWeights(eta, ExactSum(R, N)),
        "tree": ExpWeights(eta, TreeSum(T, E * R, N, scaled_draws(BlockedLaplace(tree_streams, N), sc_t, N))),
        "fresh_noise": ExpWeights(eta, FreshNoise(E * R, N, scaled_draws(BlockedLaplace(fresh_streams, N), sc_f, N))),
    }
    suffered = {a: 0.0 for a in learners}
    cum = np.zeros((R, N))
    sum_sq = np.zeros(R)
    sum_max = np.zeros(R)  # sum_t max_i l_t,i: the trivial maximum of the regret is sum_max - min_i L_T,i
    state = [None, T]
    for t in range(1, T + 1):
        l = _losses(source, env, t, R, state)
        for name, learner in learners.items():
            x = learner.predict()
            lb = l if x.shape[0] == R else np.broadcast_to(l, (E, R, N)).reshape(E * R, N)
            suffered[name] = suffered[name] + np.einsum("bi,bi->b", x, lb)
            learner.update(lb)
        cum += l
        sum_sq += np.max(np.abs(l), axis=1) ** 2
        sum_max += np.max(l, axis=1)
    return suffered, cum, sum_sq, sum_max


def _rounds_compiled(source, env, T, R, E, N, eta, tree_streams, fresh_streams, sc_t, sc_f, tap=None):
    """The same rounds through papers.as17.experts_jit.experts_block, BLOCK rounds at a time: the
    same draws in the same order (the tree's K initial draws, then 1 + K - popcount(t) per round;
    the fresh-noise learner's one initial draw, then one per round) and the same arithmetic.
    ``tap`` (:func:`simulate`) gets the initial release's noise (the K scaled draws summed, a copy)
    and the fresh sums' scaled first draw, then each block's losses and standard draws before the
    kernel reads them."""
    from dpregret.papers.as17.experts_jit import accumulate, experts_block

    K = draws_per_release(T)
    levels = T.bit_length()
    ER = E * R
    init_t = scaled_draws(tree_streams, sc_t, N)(K)  # TreeBasedAgg.__init__: L~_0 = sum of K draws
    noise_t = init_t.sum(axis=1)
    first_f = scaled_draws(fresh_streams, sc_f, N)(1)
    est_f = np.zeros((ER, N)) + first_f[:, 0]  # FreshNoise.__init__
    if tap is not None:
        tap.start(noise_t.copy(), first_f)
    est_n = np.zeros((R, N))
    alpha = np.zeros((levels, ER, N))
    noisy = np.zeros((levels, ER, N))
    node_noise = np.zeros((ER, N))
    true_t = np.zeros((ER, N))
    true_f = np.zeros((ER, N))
    cum = np.zeros((R, N))
    sum_sq = np.zeros(R)
    sum_max = np.zeros(R)
    suffered = {"nonprivate": np.zeros(R), "tree": np.zeros(ER), "fresh_noise": np.zeros(ER)}
    neg_eta = float(-np.asarray(eta, dtype=float))
    for t0 in range(0, T, CBLOCK):
        B = min(CBLOCK, T - t0)
        if env == "switching":
            L = np.ascontiguousarray(np.stack([source.loss(t, R) for t in range(t0 + 1, t0 + B + 1)], axis=1), dtype=float)
        else:
            L = np.ascontiguousarray(source.block(B), dtype=float)
        rows = sum(1 + K - t.bit_count() for t in range(t0 + 1, t0 + B + 1))
        zt = np.ascontiguousarray(tree_streams.laplace(1.0, (rows, N)))
        zf = np.ascontiguousarray(fresh_streams.laplace(1.0, (B, N)))
        if tap is not None:
            tap.block(t0, L, zt, zf)
        Xn = np.empty((B, R, N))
        Xt = np.empty((B, ER, N))
        Xf = np.empty((B, ER, N))
        experts_block(t0, K, L, neg_eta, sc_t, sc_f, zt, zf, est_n, alpha, noisy, node_noise, true_t, noise_t, true_f,
                      est_f, cum, sum_sq, Xn, Xt, Xf)
        Lt = np.ascontiguousarray(L.transpose(1, 0, 2))  # (B, R, N)
        LE = np.broadcast_to(Lt[:, None], (B, E, R, N)).reshape(B, ER, N)
        accumulate(suffered["nonprivate"], np.einsum("tbi,tbi->tb", Xn, Lt))
        accumulate(suffered["tree"], np.einsum("tbi,tbi->tb", Xt, LE))
        accumulate(suffered["fresh_noise"], np.einsum("tbi,tbi->tb", Xf, LE))
        for m in L.max(axis=2).T:  # round by round, the reference's order of summation
            sum_max += m
    return suffered, cum, sum_sq, sum_max


def d_noise_mc(N: int, T: int, eps: float, samples: int, root_seed: int) -> tuple[float, float]:
    """Monte Carlo ``D_{D'} = E[max_x <Z,x> - min_x <Z,x>]`` over the simplex.

    ``Z`` is the sum of ``K = draws_per_release(T)`` i.i.d. ``Lap^N(lambda)`` vectors, so
    the range over the simplex is ``max_i Z_i - min_i Z_i``.  Returns (mean, standard error).
    """
    V.integer("samples", samples, minimum=2)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(root_seed, spawn_key=stable_key(SCENARIO, "D_noise", N, T, eps))))
    lam = tree_lambda(N, T, eps)
    K = draws_per_release(T)
    out = np.empty(samples)
    step = 4096
    for i in range(0, samples, step):
        n = min(step, samples - i)
        z = rng.laplace(0.0, lam, (n, K, N)).sum(axis=1)
        out[i : i + n] = z.max(axis=1) - z.min(axis=1)
    return float(out.mean()), float(out.std(ddof=1) / np.sqrt(samples))


def simulate_job(params: dict, wildcards: dict, outputs: list[str]) -> None:
    """The workflow's simulate job (``dpregret.pipeline.jobs``): every T of one (env, replicate chunk) of the
    experts runs (each output ``results/as17/experts/{env}/T{T}/chunk{lo-hi}.parquet`` its own point),
    or the Monte Carlo ``D_{D'}`` of every (T, eps) of the run (``d_noise.parquet``)."""
    p, seed = params["p"], params["seed"]
    if outputs[0].endswith("d_noise.parquet"):
        rows = [{"N": p["N"], "T": T, "eps": float(eps), "d_noise": m, "d_noise_se": se}
                for T in p["T"] for eps in p["eps"]
                for m, se in [d_noise_mc(p["N"], T, eps, p["mc_samples"], seed)]]
        pd.DataFrame(rows).to_parquet(outputs[0], index=False)
        return
    import re

    lo, hi = map(int, wildcards["chunk"].split("-"))
    for path in outputs:  # one file per T (every T of the sequence in one job: the same calls, one start-up)
        env, T = re.search(r"experts/(\w+)/T(\d+)/chunk", path).groups()
        df = simulate(env, p["N"], int(T), p["eps"], range(lo, hi), seed, gap=p["gap"], phases=p["phases"])
        df.to_parquet(path, index=False)
        print(path, len(df), "rows")
