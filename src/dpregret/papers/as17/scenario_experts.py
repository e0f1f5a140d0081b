"""Agarwal and Singh (ICML 2017), section 3: private prediction with expert advice, and its door
for your own experts learner.

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

Your own learner (``dpregret.core.contract``; the full-information experts setting of
``dpregret.core.protocols``: ``predict()`` -> ``(R, N)`` weights on the simplex, ``update((R, N)
losses)``).  The privacy of Algorithm 1/2 comes from the tree: the prefix sums ``L~_0, ..., L~_T``
that TreeBasedAgg releases are eps-DP (Lemma 3.3, Corollary 3.2 item 1), and anything computed
from them is post-processing.  So any experts learner runs privately when fed the losses
*reconstructed from the releases*, ``L~_t - L~_{t-1}`` (``papers.as17.release_feed``: fed
``L~_0`` before round 1, then the increments); its non-private twin is the same learner fed the
exact losses, its control (the paper's ``fresh_noise``) the same learner fed the increments of
fresh-noise prefix sums (``calibration.fresh_lambda``), whose gap grows like sqrt(T).  A learner
that is a function of the sum of what it was fed (exponential weights on the cumulative loss)
plays on exactly the tree's prefix sums, the paper's Algorithm 1 (:func:`paper_expweights`
through the door gives the paper's numbers, to rounding); a learner with per-round state sees the
same private releases but may accumulate more of their noise (each reconstructed loss carries the
difference of two releases' noise, not a loss in [0, 1]); that is what the check measures.
``make(R, N, T)`` needs nothing about eps.  :func:`simulate`'s ``learners`` run on the paper rows'
draws (with the compiled rounds, the very arrays they draw, handed over block by block), after
the paper's rows: ``name`` (tree), ``name@nonprivate`` and ``name@fresh_noise``.
:data:`USER_CLAIMS` declares the claim that holds for any such learner: ``AS17-cor3.2-gap-rate-T``
(the paired privacy gap divided by log2(T)^2 does not grow with T), decided on the stochastic
environment at ``rate_eps`` over the preset's T grid.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from dpregret.core import validate as V
from dpregret.core.protocols import build_learner, check_makes, check_play
from dpregret.core.environments.experts import KINDS, StochasticExperts, SwitchingExperts
from dpregret.papers.as17.ftrl import ExpWeights, bound_thm3_4, eta_thm34  # noqa: F401 (bound re-exported)
from dpregret.core.calibration import fresh_lambda, tree_lambda
from dpregret.papers.as17.prefix_sums import ExactSum, FreshNoise, TreeSum, scaled_draws
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.core.tree import draws_per_release
from dpregret.papers.as17.experts_names import TWIN_NONPRIVATE, TWIN_TREE
from dpregret.papers.as17.release_feed import ReleasePlayer, running_sum

SCENARIO = "as17_experts"
ALGORITHMS = ("nonprivate", "tree", "fresh_noise")
# the mis-tuned twin (the claims' twin control, claims_experts.TWIN): Algorithm 1 with eta ~ T^(-2/3) (eta_twin) on
# the exact sums and on the tree's own releases (the same draws)
TWIN_ALGORITHMS = (TWIN_NONPRIVATE, TWIN_TREE)


def eta_twin(N: int, T: int) -> float:
    """The mis-tuned twin's step: Theorem 3.4's ``sqrt(log N / T)`` with its exponent of T one notch off,
    ``sqrt(log N) T^(-2/3)`` (x T^(-1/6)): the learning term ``log N / eta`` grows as T^(2/3)."""
    return float(eta_thm34(N, T) * T ** (-1.0 / 6.0))
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
    returns the numbers of ``streams.laplace(1.0, (k, N))`` (``tests/papers/as17/test_as17_experts.py``)."""

    def __init__(self, streams: ReplicateStreams, N: int):
        self.streams, self.N, self.R = streams, N, streams.R
        self._buf = np.empty((streams.R, 0, N))
        self._pos = 0

    def laplace(self, scale, shape):
        from dpregret.papers.as17 import draws_jit

        k = shape[0]
        if scale != 1.0 or tuple(shape) != (k, self.N):
            raise ValueError("blocked draws serve standard Laplace (k, N) draws only")
        if self._pos + k > self._buf.shape[1]:
            fresh = draws_jit.laplace(self.streams, (max(BLOCK, k), self.N))  # streams.laplace(1.0, .), compiled
            self._buf = np.concatenate([self._buf[:, self._pos:], fresh], axis=1)
            self._pos = 0
        self._pos += k
        return self._buf[:, self._pos - k : self._pos]


def simulate(env: str, N: int, T: int, eps: Sequence[float], replicates: Sequence[int], root_seed: int,
             gap: float = 0.1, phases: int = 4, learners: Mapping[str, Callable] | None = None) -> pd.DataFrame:
    """The rows of one (env, N, T) point: the paper's (``ALGORITHMS``) at every eps and replicate
    and, for every ``{name: make}`` in ``learners`` (your own experts learners, section "Your own
    learner" below), its rows ``name`` (fed the tree's reconstructed losses), ``name@nonprivate``
    (the exact losses; repeated at every eps, as the paper's ``nonprivate``) and
    ``name@fresh_noise`` (fresh-noise prefix sums' increments) at each eps, after the paper's, on
    the same draws: with the compiled rounds, the very arrays they draw, handed over block by
    block (:func:`_rounds_compiled`'s ``tap``).  A learner's rows have the paper's columns; ``eta``
    is NaN, ``lambda`` the noise scale of the releases it was fed.  Without ``learners``, the
    paper's rows alone (the same numbers either way)."""
    if env not in ENVS:
        raise ValueError(f"env must be one of {ENVS}, got {env!r}")
    N = V.integer("N", N, minimum=2)
    T = V.integer("T", T)
    eps = np.array([V.positive("eps", e) for e in eps])
    replicates = list(replicates)
    learners = check_makes(learners, ALGORITHMS, SIGNATURE)
    session = _Session(env, N, T, [float(e) for e in eps], replicates, root_seed, gap, phases,
                       learners) if learners else None
    tap = session if COMPILED else None  # with the compiled rounds, your learners play on their draws as they are made
    R, E = len(replicates), eps.size
    point = point_key(env, N, T, gap, phases)
    source = loss_source(env, N, T, replicates, root_seed, gap, phases)
    eta = eta_thm34(N, T)
    eta_tw = eta_twin(N, T)
    tree_streams = ReplicateStreams(root_seed, stable_key(*point, "tree"), replicates)
    fresh_streams = ReplicateStreams(root_seed, stable_key(*point, "fresh"), replicates)
    sc_t = np.array([tree_lambda(N, T, e) for e in eps])
    sc_f = np.array([fresh_lambda(N, T, e) for e in eps])
    if COMPILED:
        suffered, cum, sum_sq, sum_max = _rounds_compiled(source, env, T, R, E, N, eta, tree_streams,
                                                          fresh_streams, sc_t,
                                                          sc_f, tap, eta_tw)
    else:
        twin_streams = ReplicateStreams(root_seed, stable_key(*point, "tree"), replicates)  # the tree's own draws again
        suffered, cum, sum_sq, sum_max = _rounds_reference(source, env, T, R, E, N, eta, tree_streams,
                                                           fresh_streams, sc_t, sc_f,
                                                           eta_tw, twin_streams)
    best = cum.min(axis=1)
    uniform = cum.mean(axis=1) - best  # the non-learner (uniform weights, sum_t <1/N, l_t>) on the same losses

    rows = []
    for name in ALGORITHMS + TWIN_ALGORITHMS:
        reg = suffered[name] - (best if name in ("nonprivate", TWIN_NONPRIVATE) else np.tile(best, E))
        reg = reg.reshape(-1, R)
        for ei, e in enumerate(eps):
            r = reg[0] if name in ("nonprivate", TWIN_NONPRIVATE) else reg[ei]
            rows.append(pd.DataFrame({
                "scenario": SCENARIO, "env": env, "algorithm": name, "N": N, "T": T, "eps": float(e),
                "replicate": replicates, "eta": eta_tw if name in TWIN_ALGORITHMS else eta, "regret": r,
                "sum_sq_dual": sum_sq, "max_regret": sum_max - best, "uniform_regret": uniform,
                "lambda": {"nonprivate": 0.0, "tree": tree_lambda(N, T, e), "fresh_noise": fresh_lambda(N, T, e),
                           TWIN_NONPRIVATE: 0.0, TWIN_TREE: tree_lambda(N, T, e)}[name],
            }))
    paper = pd.concat(rows, ignore_index=True)
    if session is None:
        return paper
    if tap is None:  # the reference rounds: your learners on the same streams, drawn again
        session.run()
    return pd.concat([paper, session.rows()[paper.columns]], ignore_index=True)


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


def _rounds_reference(source, env, T, R, E, N, eta, tree_streams, fresh_streams, sc_t, sc_f, eta_tw, twin_streams):
    """The rounds with the per-round classes (Algorithm 1 on ExactSum / TreeSum / FreshNoise; the mis-tuned twin
    on ExactSum and on a TreeSum drawing the tree's own draws, ``twin_streams``)."""
    learners = {
        "nonprivate": ExpWeights(eta, ExactSum(R, N)),
        "tree": ExpWeights(eta, TreeSum(T, E * R, N, scaled_draws(BlockedLaplace(tree_streams, N), sc_t, N))),
        "fresh_noise": ExpWeights(eta, FreshNoise(E * R, N, scaled_draws(BlockedLaplace(fresh_streams, N), sc_f, N))),
        TWIN_NONPRIVATE: ExpWeights(eta_tw, ExactSum(R, N)),
        TWIN_TREE: ExpWeights(eta_tw, TreeSum(T, E * R, N, scaled_draws(BlockedLaplace(twin_streams, N), sc_t, N))),
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


def _rounds_compiled(source, env, T, R, E, N, eta, tree_streams, fresh_streams, sc_t, sc_f, tap=None, eta_tw=None):
    """The same rounds through papers.as17.experts_jit.experts_block, BLOCK rounds at a time: the
    same draws in the same order (the tree's K initial draws, then 1 + K - popcount(t) per round;
    the fresh-noise learner's one initial draw, then one per round) and the same arithmetic.
    ``tap`` (:func:`simulate`'s :class:`_Session`, for your learners) gets the initial release's noise (the K scaled
    draws summed, a copy) and the fresh sums' scaled first draw, then each block's losses and standard draws before the
    kernel reads them."""
    from dpregret.papers.as17 import draws_jit
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
    neg_tw = 0.0 if eta_tw is None else float(-eta_tw)
    if eta_tw is not None:
        suffered.update({TWIN_NONPRIVATE: np.zeros(R), TWIN_TREE: np.zeros(ER)})
    for t0 in range(0, T, CBLOCK):
        B = min(CBLOCK, T - t0)
        if env == "switching":
            L = np.ascontiguousarray(np.stack([source.loss(t, R) for t in range(t0 + 1, t0 + B + 1)],
                                              axis=1), dtype=float)
        else:
            L = np.ascontiguousarray(source.block(B), dtype=float)
        rows = sum(1 + K - t.bit_count() for t in range(t0 + 1, t0 + B + 1))
        zt = draws_jit.laplace(tree_streams, (rows, N))  # tree_streams.laplace(1.0, (rows, N)), compiled
        zf = draws_jit.laplace(fresh_streams, (B, N))
        if tap is not None:
            tap.block(t0, L, zt, zf)
        Xn = np.empty((B, R, N))
        Xt = np.empty((B, ER, N))
        Xf = np.empty((B, ER, N))
        Xntw, Xttw = (np.empty((B, R, N)), np.empty((B, ER, N))) if eta_tw is not None else (Xn[:0], Xt[:0])
        experts_block(t0, K, L, neg_eta, sc_t, sc_f, zt, zf, est_n, alpha, noisy, node_noise, true_t, noise_t, true_f,
                      est_f, cum, sum_sq, Xn, Xt, Xf, neg_tw, Xntw, Xttw)
        Lt = np.ascontiguousarray(L.transpose(1, 0, 2))  # (B, R, N)
        LE = np.broadcast_to(Lt[:, None], (B, E, R, N)).reshape(B, ER, N)
        accumulate(suffered["nonprivate"], np.einsum("tbi,tbi->tb", Xn, Lt))
        accumulate(suffered["tree"], np.einsum("tbi,tbi->tb", Xt, LE))
        accumulate(suffered["fresh_noise"], np.einsum("tbi,tbi->tb", Xf, LE))
        if eta_tw is not None:
            accumulate(suffered[TWIN_NONPRIVATE], np.einsum("tbi,tbi->tb", Xntw, Lt))
            accumulate(suffered[TWIN_TREE], np.einsum("tbi,tbi->tb", Xttw, LE))
        for m in L.max(axis=2).T:  # round by round, the reference's order of summation
            sum_max += m
    return suffered, cum, sum_sq, sum_max


def d_noise_mc(N: int, T: int, eps: float, samples: int, root_seed: int) -> tuple[float, float]:
    """Monte Carlo ``D_{D'} = E[max_x <Z,x> - min_x <Z,x>]`` over the simplex.

    ``Z`` is the sum of ``K = draws_per_release(T)`` i.i.d. ``Lap^N(lambda)`` vectors, so
    the range over the simplex is ``max_i Z_i - min_i Z_i``.  Returns (mean, standard error).
    """
    V.integer("samples", samples, minimum=2)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        root_seed, spawn_key=stable_key(SCENARIO, "D_noise", N, T, eps))))
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


# ---- Your own learner (dpregret.core.contract): the door of section 3's post-processing claim ----

SIGNATURE = "make(R, N, T)"
SIGNATURE_DOC = ("make(R, N, T) -> an experts learner (dpregret.core.protocols: predict() -> (R, N) weights on the "
                 "simplex, update((R, N) losses)) for R replicate rows, N experts and horizon T; the wrapper feeds "
                 "it the increments of the tree's private prefix sums (no eps needed)")


def point_streams(env: str, N: int, T: int, replicates: Sequence[int], root_seed: int, gap: float, phases: int):
    """(loss source, tree streams, fresh-noise streams) of one point: the streams of
    :func:`simulate`'s paper rows under the same keys, so the same draws."""
    point = point_key(env, N, T, gap, phases)
    source = loss_source(env, N, T, list(replicates), root_seed, gap, phases)
    return (source, ReplicateStreams(root_seed, stable_key(*point, "tree"), replicates),
            ReplicateStreams(root_seed, stable_key(*point, "fresh"), replicates))


def build_user_learner(make: Callable, name: str, R: int, N: int, T: int, built: list):
    """``make(R, N, T)``, checked (``protocols.build_learner``)."""
    return build_learner(make, name, (R, N, T), SIGNATURE_DOC, "losses", built)


class _Session:
    """The user rows of one point: the learners played on the paper rows' draws, either drawn again
    from the same streams (:meth:`run`) or handed over by the paper's compiled rounds as they make
    them (the ``tap`` of :func:`simulate`'s compiled rounds: :meth:`start`, :meth:`block`), the same
    numbers either way (the draws, the arithmetic and the summation order do not depend on who draws
    or on the blocks); then :meth:`rows`."""

    def __init__(self, env, N, T, eps, replicates, root_seed, gap, phases, learners):
        self.env, self.N, self.T, self.eps, self.replicates, self.learners = env, N, T, eps, replicates, learners
        self.R = R = len(replicates)
        self.source, self.tree_streams, self.fresh_streams = point_streams(env, N, T, replicates,
                                                                           root_seed, gap, phases)
        self.sc_t = np.array([tree_lambda(N, T, e) for e in eps])
        self.sc_f = np.array([fresh_lambda(N, T, e) for e in eps])
        self.acc = {"cum": np.zeros((R, N)), "sum_sq": np.zeros(R), "sum_max": np.zeros(R)}
        self.player = None
        self._z = {}

    def _check_block(self, plays):  # finite and on the simplex
        R, N, tb = self.R, self.N, plays.shape[0]
        check_play("experts", plays.reshape(tb * R, N), tb * R, N)

    def _build(self, tree_draws, fresh_draws, tree_initial=None):
        R, N, T = self.R, self.N, self.T
        self.player = ReleasePlayer(lambda make, name, built: build_user_learner(make, name, R, N, T, built),
                                    self.learners, R, N, T, self.eps, tree_draws, fresh_draws, "experts",
                                    self._check_block, tree_initial)

    def _losses(self, t0: int, tb: int, given=None) -> np.ndarray:
        if self.env == "switching":  # the rows' own vectors (deterministic; their layout is the rows' own)
            L = np.stack([self.source.loss(t, self.R) for t in range(t0 + 1, t0 + tb + 1)], axis=1).astype(float)
        else:
            L = self.source.block(tb) if given is None else given
        acc = self.acc
        acc["cum"] = running_sum(acc["cum"], L)
        acc["sum_sq"] = running_sum(acc["sum_sq"], np.max(np.abs(L), axis=2) ** 2)
        acc["sum_max"] = running_sum(acc["sum_max"], np.max(L, axis=2))
        return L

    def run(self) -> None:
        """The rounds with the rows' own draws (the streams of the paper's rows, drawn again)."""
        self._build(scaled_draws(self.tree_streams, self.sc_t, self.N),
                    scaled_draws(self.fresh_streams, self.sc_f, self.N))
        for t0 in range(0, self.T, BLOCK):
            tb = min(BLOCK, self.T - t0)
            self.player.block(t0, self._losses(t0, tb))

    # the tap of simulate's compiled rounds: the paper's draws, as they are made
    def _scaled(self, scales, z, k):
        if z.shape[1] != k:
            raise RuntimeError(f"the paper's block has {z.shape[1]} draws, the rows need {k}")
        return (scales[:, None, None, None] * z[None]).reshape(scales.size * self.R, k, self.N)  # as scaled_draws

    def start(self, tree_noise_0: np.ndarray, fresh_first: np.ndarray) -> None:
        first = [fresh_first]

        def fresh_draws(k):
            return first.pop() if first else self._scaled(self.sc_f, self._z["zf"], k)
        self._build(lambda k: self._scaled(self.sc_t, self._z["zt"], k), fresh_draws, tree_noise_0)

    def block(self, t0: int, L: np.ndarray, zt: np.ndarray, zf: np.ndarray) -> None:
        self._z = {"zt": zt, "zf": zf}
        self.player.block(t0, self._losses(t0, L.shape[1], L))

    def rows(self) -> pd.DataFrame:
        eps, acc = self.eps, self.acc
        best = acc["cum"].min(axis=1)
        out = []
        for u in self.player.runs:
            for k, e in enumerate(eps):
                if u.role != "nonprivate" and e != u.eps:
                    continue
                lam = {"nonprivate": 0.0, "tree": self.sc_t[k], "fresh_noise": self.sc_f[k]}[u.role]
                out.append(pd.DataFrame({
                    "scenario": SCENARIO, "env": self.env,
                    "algorithm": u.name if u.role == "tree" else f"{u.name}@{u.role}", "N": self.N, "T": self.T,
                    "eps": e, "replicate": self.replicates, "eta": np.nan, "regret": u.suffered - best,
                    "sum_sq_dual": acc["sum_sq"], "max_regret": acc["sum_max"] - best,
                    "uniform_regret": acc["cum"].mean(axis=1) - best, "lambda": float(lam)}))
        return pd.concat(out, ignore_index=True)


def user_learner_rows(env, N, T, eps, replicates, root_seed, gap, phases, learners) -> pd.DataFrame:
    """The user rows with their own draws (the same as the paper's: the same streams)."""
    session = _Session(env, N, T, eps, replicates, root_seed, gap, phases, learners)
    session.run()
    return session.rows()


USER_ENV = "stochastic"
PAPER_TABLE = "results/as17/experts/runs.parquet"  # the pipeline's table of the paper's rows (rule as17_experts_merge)


def _user_claim():
    """Corollary 3.2's additive privacy gap (``AS17-cor3.2-gap-rate-T``) for any experts learner fed
    the tree's reconstructed losses (post-processing of the eps-DP releases), paired with the same
    learner fed the exact losses; control: the same learner on fresh-noise prefix sums.  Points:
    the preset's T grid ``p["T"]`` at ``rate_eps`` on the stochastic environment (the pipeline
    decides the paper's claim per environment, ``...--stochastic`` and ``...--switching``; the
    stochastic one is the environment whose gap is not driven by the sequence's switches, and
    the one the other AS17 user claim uses)."""
    from dpregret.core.contract import PaperOnDoor, UserClaim, in_order

    def simulate_point(p, point, reps, seed, learners):
        return simulate(USER_ENV, int(p["N"]), int(point), [p["rate_eps"]], reps, seed, gap=p["gap"],
                        phases=p["phases"], learners=learners)

    def decide(runs, p, tol, alpha, rng_for, name):
        from dpregret.papers.as17.claims_experts import gap_rate_T_claim
        return gap_rate_T_claim(runs, p["rate_eps"], tol, alpha, rng_for, name, env=USER_ENV)

    def user_rows(p, point, reps, seed, learners):  # simulate_point's rows but the paper's (the same draws)
        return user_learner_rows(USER_ENV, int(p["N"]), int(point), [float(p["rate_eps"])], list(reps), seed, p["gap"],
                                 p["phases"], check_makes(learners, ALGORITHMS, SIGNATURE))

    def paper_rows(tables, p, point):  # simulate_point's paper rows: the pipeline's, at rate_eps
        t = tables[PAPER_TABLE]
        keep = (t.env == USER_ENV) & (t.N == int(p["N"])) & (t["T"] == int(point)) & (t.eps == float(p["rate_eps"]))
        return in_order(t[keep], "algorithm", ALGORITHMS + TWIN_ALGORITHMS, "replicate")

    return UserClaim(
        "AS17-cor3.2-gap-rate-T", SCENARIO, "experts", SIGNATURE,
        "your learner fed the losses reconstructed from TreeBasedAgg's eps-DP prefix sums (L~_t - L~_{t-1}, "
        "lambda = N (floor(log2 T) + 1) / eps, the paper's draws), gap paired with it fed the exact losses, on the "
        "stochastic experts at rate_eps; control: your learner fed fresh-noise prefix sums (advanced composition, "
        "no tree)",
        "tree", "paper (Algorithm 1: exponential weights on TreeBasedAgg)", ALGORITHMS,
        lambda p: [int(t) for t in p["T"]], simulate_point, decide, env=USER_ENV, user_rows=user_rows,
        paper_tables=(PAPER_TABLE,), paper_rows=paper_rows,
        paper_on_door=PaperOnDoor(lambda p, point, reps, seed: paper_expweights,
                                  (("", "tree"), ("@nonprivate", "nonprivate"), ("@fresh_noise", "fresh_noise")),
                                  ("eps", "replicate", "regret", "sum_sq_dual", "max_regret", "lambda"), 1e-12),
        nonlearner_left_out="experts: the scenario's own check already decides uniform weights on the same losses "
                            "(column uniform_regret of the tree's rows) on this claim's learning gate as its "
                            "non-learner control; the door's copy was only reported beside it, at 29 s of job CPU "
                            "on the default run of 2026-11-26")


def paper_expweights(R: int, N: int, T: int):
    """The paper's learner in this signature: exponential weights with Theorem 3.4's eta, reading
    the running sum of what it is fed (the door feeds L~_0, then the increments of the releases)."""
    return ExpWeights(eta_thm34(N, T), ExactSum(R, N))


# Corollary 3.2's additive gap holds for any post-processing of the tree's releases (dpregret.core.contract)
USER_CLAIMS = (_user_claim(),)
