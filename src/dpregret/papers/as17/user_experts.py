"""Your own experts learner beside Agarwal and Singh's Algorithm 1 (ICML 2017, section 3): the full-information experts setting (``dpregret.core.protocols``: ``predict()`` ->
``(R, N)`` weights on the simplex, ``update((R, N) losses)``).

The privacy of Algorithm 1/2 comes from the tree: the prefix sums ``L~_0, L~_1, ..., L~_T``
that TreeBasedAgg releases are eps-DP (Lemma 3.3, Corollary 3.2 item 1, ``lambda =
calibration.tree_lambda``), and anything computed from them is post-processing.  So any
experts learner can be run privately by feeding it the losses *reconstructed from the
releases*, ``L~_t - L~_{t-1}``: it sees exactly what a post-processing of the private releases
may see.  Its non-private twin is the same learner fed the exact losses ``l_t``, and its
control (the paper's ``fresh_noise``) the same learner fed the increments of fresh-noise prefix
sums (Laplace on every release, no tree, calibrated by advanced composition over the T
releases: ``calibration.fresh_lambda``), whose gap grows like sqrt(T).

The protocol the wrapper runs, for each of the three feeds (``released_0`` is ``L~_0``, the
tree's initial release of K noise draws; ``0`` for the exact feed; the fresh-noise sums' first
release for the control):

    learner.update(released_0)                      # before round 1
    for t = 1..T:  x_t = learner.predict()          # (R, N) on the simplex, checked
                   suffer <x_t, l_t>
                   learner.update(released_t - released_{t-1})

so a learner that is a function of the sum of what it was fed (FTRL-like, e.g. exponential
weights on the cumulative loss) plays on exactly the tree's prefix sums ``L~_{t-1}``, the
paper's Algorithm 1 (a test: the paper's ExpWeights through this path gives the paper's
``tree`` / ``nonprivate`` / ``fresh_noise`` numbers, to rounding).  A learner with per-round
state (a step that depends on the individual losses, a restart, a multiplicative update of
the weights) sees the same private releases -- still private -- but may accumulate more of
their noise (each reconstructed loss carries the difference of two releases' noise, of scale
lambda log T, not a loss in [0, 1]); that is what the check measures.  ``make(R, N, T)``
needs nothing about eps: the noise is added by the wrapper.

The losses, tree draws and fresh-noise draws are the paper rows' (``as17_experts.simulate``:
the same streams under the same keys; with its compiled rounds, the very arrays they draw, handed
over block by block rather than drawn a second time), so each user row is paired with the paper's
on the same draws (common random numbers); :func:`simulate` returns the paper's rows unchanged and
then, for every user learner ``name`` and eps, rows ``name`` (tree), ``name@nonprivate`` and
``name@fresh_noise``.  :data:`USER_CLAIMS` declares the claim that holds for any such learner:
``AS17-cor3.2-gap-rate-T`` (the paired privacy gap divided by log2(T)^2 does not grow with T),
decided on the stochastic environment at ``rate_eps`` over the preset's T grid.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from dpregret.core.calibration import fresh_lambda, tree_lambda
from dpregret.papers.as17.prefix_sums import FreshNoise, scaled_draws
from dpregret.core.protocols import build_learner, check_makes, check_play
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.core.tree import TreeReleases
from dpregret.papers.as17 import scenario_experts as X

SCENARIO = X.SCENARIO
ROLES = ("nonprivate", "fresh_noise")  # a user learner ``name``'s twin and control rows: ``name@<role>``
SIGNATURE = "make(R, N, T)"
SIGNATURE_DOC = ("make(R, N, T) -> an experts learner (dpregret.core.protocols: predict() -> (R, N) weights on the "
                 "simplex, update((R, N) losses)) for R replicate rows, N experts and horizon T; the wrapper feeds "
                 "it the increments of the tree's private prefix sums (no eps needed)")
BLOCK = 4096  # rounds of losses and releases made at once (speed only: the same draws)
try:  # np.einsum without its Python dispatch (optimize=False calls exactly this): the same numbers
    from numpy._core.multiarray import c_einsum as _einsum
except ImportError:  # pragma: no cover - another numpy layout
    _einsum = np.einsum


def point_streams(env: str, N: int, T: int, replicates: Sequence[int], root_seed: int, gap: float, phases: int):
    """(loss source, tree streams, fresh-noise streams) of one point: the streams of
    ``as17_experts.simulate`` under the same keys, so the same draws."""
    point = X.point_key(env, N, T, gap, phases)
    source = X.loss_source(env, N, T, list(replicates), root_seed, gap, phases)
    return (source, ReplicateStreams(root_seed, stable_key(*point, "tree"), replicates),
            ReplicateStreams(root_seed, stable_key(*point, "fresh"), replicates))


def build_user_learner(make: Callable, name: str, R: int, N: int, T: int, built: list):
    """``make(R, N, T)``, checked (``protocols.build_learner``)."""
    return build_learner(make, name, (R, N, T), SIGNATURE_DOC, "losses", built)


class _Run:
    """One user learner on one feed (role ``tree``, ``nonprivate`` or ``fresh_noise``) at one eps."""

    def __init__(self, name: str, role: str, eps: float | None, rows: slice, learner):
        self.name, self.role, self.eps, self.rows, self.learner = name, role, eps, rows, learner
        self.suffered = None


def _feed(run: _Run, feeds: dict) -> np.ndarray:
    return feeds[run.role] if run.role == "nonprivate" else feeds[run.role][run.rows]


def simulate(env: str, N: int, T: int, eps: Sequence[float], replicates: Sequence[int], root_seed: int,
             gap: float = 0.1, phases: int = 4, learners: Mapping[str, Callable] | None = None) -> pd.DataFrame:
    """The paper's rows (``as17_experts.simulate``, unchanged) and, for every ``{name: make}`` in
    ``learners``, its rows ``name`` (fed the tree's reconstructed losses), ``name@nonprivate``
    (the exact losses; repeated at every eps, as the paper's ``nonprivate``) and
    ``name@fresh_noise`` (fresh-noise prefix sums' increments) at each eps, on the same draws.
    Columns as the paper's; ``eta`` is NaN for a user's rows, ``lambda`` the noise scale of the
    releases it was fed."""
    if env not in X.ENVS:
        raise ValueError(f"env must be one of {X.ENVS}, got {env!r}")
    learners = check_makes(learners, X.ALGORITHMS, SIGNATURE)
    if not learners:
        return X.simulate(env, N, T, eps, replicates, root_seed, gap=gap, phases=phases)
    session = _Session(env, int(N), int(T), [float(e) for e in eps], list(replicates), root_seed, gap, phases, learners)
    if X.COMPILED:  # the user learners play on the paper's rounds' draws as they are made (not drawn twice)
        paper = X.simulate(env, N, T, eps, replicates, root_seed, gap=gap, phases=phases, tap=session)
    else:
        paper = X.simulate(env, N, T, eps, replicates, root_seed, gap=gap, phases=phases)
        session.run()
    user = session.rows()
    return pd.concat([paper, user[paper.columns]], ignore_index=True)


class _Player:
    """Every user learner fed the full-information releases, shared by the experts and the OLO rows
    (:func:`play_on_releases`): built with the releases' initial state, then fed block by block
    (:meth:`block`), so the blocks may come from the rows' own loop or from the paper's rounds
    (:class:`_Session` as the tap of ``as17_experts.simulate``).  ``tree_initial``: the tree's initial noise already drawn (the sum of its
    K scaled draws, as ``TreeReleases`` would make it), else drawn by ``tree_draws``."""

    def __init__(self, build: Callable, learners: Mapping[str, Callable], R: int, N: int, T: int,
                 eps: Sequence[float], tree_draws, fresh_draws, setting: str, check_block, tree_initial=None):
        ER = len(eps) * R
        self.R, self.N, self.eps, self.setting, self.check_block = R, N, eps, setting, check_block
        self.tree = tree = TreeReleases(T, N, tree_draws, ER, initial=tree_initial)  # L~_0's K draws, as TreeBasedAgg
        self.fresh = fresh = FreshNoise(ER, N, fresh_draws)
        self.runs = runs = []
        built = []
        for name, make in learners.items():
            runs.append(_Run(name, "nonprivate", None, slice(0, R), build(make, name, built)))
            for k, e in enumerate(eps):
                for role in ("tree", "fresh_noise"):
                    runs.append(_Run(name, role, e, slice(k * R, (k + 1) * R), build(make, name, built)))
        first = {"tree": tree.true + tree.noise, "fresh_noise": fresh.estimate, "nonprivate": np.zeros((R, N))}
        for u in runs:  # the releases before round 1 (L~_0), as update() before the first predict()
            u.learner.update(_feed(u, first).copy())
            u.suffered = np.zeros(R)

    def block(self, t0: int, L: np.ndarray) -> None:
        """Rounds ``t0 + 1 .. t0 + tb`` on the losses ``L`` (``(R, tb, N)``)."""
        R, N, eps, runs, setting, check_block = self.R, self.N, self.eps, self.runs, self.setting, self.check_block
        ER, tb = len(eps) * R, L.shape[1]
        LE = np.broadcast_to(L[None], (len(eps), R, tb, N)).reshape(ER, tb, N)
        inc = {}
        for role, sums in (("tree", self.tree), ("fresh_noise", self.fresh)):
            before = sums.block(LE)  # the release each round is played on, L~_{t-1}
            after = sums.true + sums.noise if role == "tree" else sums.estimate  # L~_{t0 + tb}
            inc[role] = np.diff(np.concatenate([before, after[:, None]], axis=1), axis=1)  # L~_t - L~_{t-1}
        # per run: its block of plays, of <x_t, l_t>, and what it is fed each round ((tb, R, N), contiguous:
        # the same values as the round's slice, copied fresh for the learner every round)
        fed = {"nonprivate": np.ascontiguousarray(L.transpose(1, 0, 2))}
        for role in ("tree", "fresh_noise"):
            fed[role] = np.ascontiguousarray(inc[role].transpose(1, 0, 2))
        plays = [np.empty((tb, R, N)) for _ in runs]
        dots = [np.empty((tb, R)) for _ in runs]
        feeds = [fed["nonprivate"] if u.role == "nonprivate" else fed[u.role][:, u.rows] for u in runs]
        work = list(zip(runs, [u.learner for u in runs], plays, dots, feeds))
        for s in range(tb):
            l = L[:, s]
            for u, learner, played, dot, feed in work:
                x = learner.predict()
                if not (type(x) is np.ndarray and x.dtype == np.float64 and x.shape == (R, N)):
                    x = np.asarray(x, dtype=float)
                    if x.shape != (R, N):
                        try:
                            check_play(setting, x, R, N)  # raises, naming the shape
                        except ValueError as err:
                            raise ValueError(f"learner {u.name!r} ({u.role}) in round {t0 + s + 1}: {err}") from None
                played[s] = x
                _einsum("bi,bi->b", x, l, out=dot[s])
                learner.update(feed[s].copy())
        for u, dot in zip(runs, dots):
            u.suffered = running_sum(u.suffered, dot.T)  # the rounds' <x_t, l_t>, added in order
        for u, played in zip(runs, plays):  # every play of the block
            try:
                check_block(played)
            except ValueError as err:
                raise ValueError(f"learner {u.name!r} ({u.role}) in rounds {t0 + 1}..{t0 + tb}: {err}") from None


def play_on_releases(build: Callable, learners: Mapping[str, Callable], R: int, N: int, T: int,
                     eps: Sequence[float], tree_draws, fresh_draws, blocks, setting: str, check_block) -> list[_Run]:
    """Every user learner fed the full-information releases, shared by the experts and the OLO rows.

    For each ``name`` a run on the exact losses (``nonprivate``) and, at each eps, one on the
    increments of TreeBasedAgg's releases (``tree``) and one on the fresh-noise sums' (``fresh_noise``),
    each built by ``build(make, name, built)``; the releases' draws (``tree_draws``,
    ``fresh_draws``: row ``e * R + r`` is eps ``e``, replicate ``r``) as the paper rows'.
    ``blocks`` yields ``(t0, L)``, the losses of rounds ``t0 + 1 .. t0 + tb`` as ``(R, tb, N)``;
    ``check_block(plays)`` validates a run's ``(tb, R, N)`` plays.  Returns the runs, with
    ``suffered`` the summed ``<x_t, l_t>`` per replicate.  (The rows do not depend on how the
    rounds are cut into blocks.)"""
    player = _Player(build, learners, R, N, T, eps, tree_draws, fresh_draws, setting, check_block)
    for t0, L in blocks:
        player.block(t0, L)
    return player.runs


def running_sum(acc: np.ndarray, per_round: np.ndarray) -> np.ndarray:
    """``acc`` plus each of ``per_round``'s rounds (axis 1), added in order."""
    return np.cumsum(np.concatenate([acc[:, None], per_round], axis=1), axis=1)[:, -1]


class _Session:
    """The user rows of one point: the learners played on the paper rows' draws, either drawn again
    from the same streams (:meth:`run`) or handed over by the paper's compiled rounds as they make
    them (``as17_experts.simulate(..., tap=session)``: :meth:`start`, :meth:`block`), the same
    numbers either way (the draws, the arithmetic and the summation order do not depend on who draws
    or on the blocks); then :meth:`rows`."""

    def __init__(self, env, N, T, eps, replicates, root_seed, gap, phases, learners):
        self.env, self.N, self.T, self.eps, self.replicates, self.learners = env, N, T, eps, replicates, learners
        self.R = R = len(replicates)
        self.source, self.tree_streams, self.fresh_streams = point_streams(env, N, T, replicates, root_seed, gap, phases)
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
        self.player = _Player(lambda make, name, built: build_user_learner(make, name, R, N, T, built), self.learners,
                              R, N, T, self.eps, tree_draws, fresh_draws, "experts", self._check_block, tree_initial)

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
        self._build(scaled_draws(self.tree_streams, self.sc_t, self.N), scaled_draws(self.fresh_streams, self.sc_f, self.N))
        for t0 in range(0, self.T, BLOCK):
            tb = min(BLOCK, self.T - t0)
            self.player.block(t0, self._losses(t0, tb))

    # the tap of as17_experts.simulate: the paper's draws, as its compiled rounds make them
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
                                 p["phases"], check_makes(learners, X.ALGORITHMS, SIGNATURE))

    def paper_rows(tables, p, point):  # simulate_point's paper rows: the pipeline's, at rate_eps
        t = tables[PAPER_TABLE]
        keep = (t.env == USER_ENV) & (t.N == int(p["N"])) & (t["T"] == int(point)) & (t.eps == float(p["rate_eps"]))
        return in_order(t[keep], "algorithm", X.ALGORITHMS, "replicate")

    return UserClaim(
        "AS17-cor3.2-gap-rate-T", SCENARIO, "experts", SIGNATURE,
        "your learner fed the losses reconstructed from TreeBasedAgg's eps-DP prefix sums (L~_t - L~_{t-1}, "
        "lambda = N (floor(log2 T) + 1) / eps, the paper's draws), gap paired with it fed the exact losses, on the "
        "stochastic experts at rate_eps; control: your learner fed fresh-noise prefix sums (advanced composition, "
        "no tree)",
        "tree", "paper (Algorithm 1: exponential weights on TreeBasedAgg)", X.ALGORITHMS,
        lambda p: [int(t) for t in p["T"]], simulate_point, decide, env=USER_ENV, user_rows=user_rows,
        paper_tables=(PAPER_TABLE,), paper_rows=paper_rows,
        paper_on_door=PaperOnDoor(lambda p, point, reps, seed: paper_expweights,
                                  (("", "tree"), ("@nonprivate", "nonprivate"), ("@fresh_noise", "fresh_noise")),
                                  ("eps", "replicate", "regret", "sum_sq_dual", "max_regret", "lambda"), 1e-12))


def paper_expweights(R: int, N: int, T: int):
    """The paper's learner in this signature: exponential weights with Theorem 3.4's eta, reading
    the running sum of what it is fed (the door feeds L~_0, then the increments of the releases)."""
    from dpregret.papers.as17.ftrl import ExpWeights, eta_thm34
    from dpregret.papers.as17.prefix_sums import ExactSum
    return ExpWeights(eta_thm34(N, T), ExactSum(R, N))


# Corollary 3.2's additive gap holds for any post-processing of the tree's releases (dpregret.core.contract)
USER_CLAIMS = (_user_claim(),)
