"""Agarwal and Singh (ICML 2017), section 4: private non-stochastic multi-armed bandits.

One (environment, N, T) point and a chunk of replicates.  ``plan`` maps each algorithm to
the eps values it runs at; every EXP2-family row (all algorithms but ``explore_tree``) is
one row of the compiled rounds of :func:`~dpregret.papers.as17.exp2_jit.exp2_block` (the
arithmetic of :class:`Exp2` behind :class:`PrivateFeedback`, lambda = 0 for the non-private
row), run on blocks of rounds.  All
rows see the same loss sequence (common random numbers), and each replicate's standard
noise draw is shared by the rows (scaled per row).

Algorithms (column ``algorithm``):
- ``exp2``: Algorithm 5, non-private (lambda = 0; eta and gamma of Theorem 4.1);
- ``dp_exp2``: Algorithm 4 around Algorithm 5 with Theorem 4.1's lambda, eta, gamma;
- ``explore_tree``: the O~(T^(2/3)) private baseline (:class:`ExploreTree`);
- ``dp_exp2_full_sens`` (control): lambda = N/eps (the l1 sensitivity of the whole loss
  vector, not Lemma 4.2's B = 1), eta and gamma re-tuned for it: regret ~ N^1.5 / eps;
- ``dp_exp2_eps_squared`` (control for the rate in eps): lambda = 1/eps^2 (a mis-calibration),
  eta and gamma re-tuned for it: the theory gives regret ~ 1/eps^2, not 1/eps;
- ``dp_exp2_half_step`` (secondary control of the Theorem 4.1 bound, on the bound grid):
  Theorem 4.1's lambda and gamma with the step eta halved (a factor-2 slip in eta's constant),
  checked against the bound of the correct parameters;
- ``dp_exp2_fixed_explore`` (a gross control, mutation suite): gamma fixed at 1/2, a fixed
  exploration rate whose regret grows linearly in T;
- ``dp_exp2_biased`` (control of Lemma 4.3): Algorithm 4 whose noise on the sequence's arm 0 (the best
  in expectation) has mean lambda;
- the mis-tuned twins (:data:`~dpregret.papers.as17.bandits.TWINS`, the claims' twin controls): Theorem
  4.1's lambda with one tuning mistake -- ``dp_exp2_eta_T23`` (eta ~ T^(-2/3), the T^(2/3) approach's step, T grid),
  ``dp_exp2_nopriv_step`` (eta, gamma tuned for lambda = 0, eps window), ``dp_exp2_no_N`` (eta
  without its 1/N, N grid).

The arms' labels are drawn per replicate (a keyed permutation, ``arm-permutation``): the best arm
of every sequence sits at a random index, so a learner frozen on a fixed arm is not optimal by
construction.

Rows: expected regret ``sum_t <p_t, l_t> - min_i L_T(i)``; for Algorithm 4 rows also the
regret on the noisy losses ``l~_t = l_t + Z_t`` against the same comparator (Lemma 4.3)
and the Theorem 4.1 bound; on every row uniform play's regret (``trivial_regret``, the
non-learner's on the same losses) and the trivial maximum ``sum_t max_i l_t,i - min_i L_T,i``
(``max_regret``).  Sequences (``env``): ``stochastic``, ``switching``, ``periodic``
(:class:`PeriodicExperts`) and ``signed`` (:class:`SignedExperts`, Theorem 4.1's bound grid).

Your own learner (``dpregret.core.contract``): Algorithm 4 is a black-box
reduction, so any non-private bandit learner (``dpregret.core.protocols``, setting ``bandit``) is
run as its base learner by :func:`simulate`'s ``learners`` (:func:`run_user_block`, one round
at a time) on the paper rows' loss blocks and noise draws, and :data:`USER_CLAIMS` declares the
claim that holds for any such learner: the rate in T of Table 2 row 2 (``AS17-T2-mab-rate-T``),
with the O~(T^(2/3)) baseline ``explore_tree`` as its control on the same draws.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpregret.core import validate as V
from dpregret.core.environments.experts import KINDS, StochasticExperts, SwitchingExperts
from dpregret.papers.as17.bandits import TWINS, ExploreTreeRounds, bound_thm4_1, exp2_params_thm4_1, row_params
from dpregret.papers.as17 import draws_jit
from dpregret.papers.as17.exp2_jit import exp2_block, exp2_block_pulled
from dpregret.core.protocols import build_learner, check_makes, check_play
from dpregret.core.rng import ReplicateStreams, stable_key

SCENARIO = "as17_mab"
BLOCK_DOUBLES = 2**20  # draws per replicate-round buffered per kernel call: memory only, the numbers are the same
ALGORITHMS = ("exp2", "dp_exp2", "explore_tree", "dp_exp2_full_sens", "dp_exp2_eps_squared", "dp_exp2_fixed_explore",
              "dp_exp2_biased", "dp_exp2_half_step") + TWINS


ENVS = KINDS + ("periodic", "signed")


class SignedExperts:
    """The fixed-leader sequence of Theorem 4.1's bound grid: every round arm 1 has loss -1 and
    every other arm +1 (``||l_t||_inf <= 1``, as the theorem allows).  EXP2's regret here is its
    exploration ``2 gamma T (N - 1) / N`` plus the learning of the leader, about ``log N / eta``:
    with lambda -> 0 (large eps) two of the bound's three terms, ``log N / eta`` and ``2 T gamma``,
    are each sqrt(2 N T log N) and the third ``2 eta T N`` the same, so the regret reaches ~2/3 of
    the bound (against <= 0.33 on the [0, 1] sequences, where regret and exploration cost less than
    the bound's terms), and a factor-2 slip in the bound's constant shows.  No randomness."""

    def __init__(self, T: int, N: int):
        self.T, self.N = V.integer("T", T), V.integer("N", N, minimum=2)

    def block(self, t0: int, tb: int, R: int) -> np.ndarray:
        """Rounds ``t0 + 1 .. t0 + tb``, ``(R, tb, N)``."""
        L = np.ones((R, tb, self.N))
        L[:, :, 1] = -1.0
        return L


class PeriodicExperts:
    """A deterministic, non-i.i.d. sequence for Theorem 4.1: rounds repeat
    with period 4; in three of them arm 0 has loss 0 and the others loss 1, in the fourth
    arm 1 has loss 0 and the others 1.  Arm 0 is the best in hindsight (mean loss 1/4 against
    3/4 for arm 1 and 1 for the rest); no randomness: only the learner's draws and noise vary.
    (Sequences with a change point give FTRL-type learners a mean regret near 0, no rate.)"""

    def __init__(self, T: int, N: int, period: int = 4):
        self.T, self.N = V.integer("T", T), V.integer("N", N, minimum=2)
        self.period = V.integer("period", period, minimum=2)

    def block(self, t0: int, tb: int, R: int) -> np.ndarray:
        """Rounds ``t0 + 1 .. t0 + tb``, ``(R, tb, N)``."""
        t = np.arange(t0 + 1, t0 + tb + 1)
        L = np.ones((tb, self.N))
        L[np.arange(tb), np.where(t % self.period == 0, 1, 0)] = 0.0
        return np.ascontiguousarray(np.broadcast_to(L, (R, tb, self.N)))


def switching_block(source: SwitchingExperts, t0: int, tb: int, R: int) -> np.ndarray:
    """Rounds ``t0 + 1 .. t0 + tb`` of :class:`SwitchingExperts`, ``(R, tb, N)``: the vectors of
    ``source.loss`` (arm ``phase % 2`` has loss 0, the others 1), built without a per-round loop."""
    t = np.arange(t0 + 1, t0 + tb + 1)
    zero = (((t - 1) * source.phases) // source.T) % 2
    L = np.ones((tb, source.N))
    L[np.arange(tb), zero] = 0.0
    return np.ascontiguousarray(np.broadcast_to(L, (R, tb, source.N)))


def simulate(env: str, N: int, T: int, plan: Mapping[str, Sequence[float]], replicates: Sequence[int],
             root_seed: int, gap: float = 0.2, phases: int = 4, pulled_noise: bool = False,
             learners: Mapping[str, Callable] | None = None) -> pd.DataFrame:
    """``pulled_noise``: draw only the pulled arm's Laplace number per round
    (:func:`~dpregret.papers.as17.exp2_jit.exp2_block_pulled`; same law by Lemma 4.2, far fewer
    draws and exps at large N) and leave Lemma 4.3's ``noisy_regret`` out (NaN); the biased-noise
    control needs the whole vector and is refused.

    ``learners``: ``{name: make}`` of your own bandit learners, each run as Algorithm 4's base
    learner (:func:`run_user_block`) at the eps values ``plan[name]`` (default: those of
    ``plan["dp_exp2"]``), rows ``algorithm = name``; ``make`` is called as :data:`SIGNATURE`
    (:func:`build_user_learner`).  The paper's rows are the same with or without them."""
    N, T, learners = _checked_args(env, N, T, plan, pulled_noise, learners)
    replicates = list(replicates)
    R = len(replicates)
    point = (SCENARIO, env, N, T, gap if env == "stochastic" else phases)  # (periodic: no parameter of its own)

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)

    source = (SwitchingExperts(T, N, phases) if env == "switching" else PeriodicExperts(T, N) if env == "periodic"
              else SignedExperts(T, N) if env == "signed" else StochasticExperts(N, gap, streams("losses")))
    rows = [(a, None if a == "exp2" else float(V.positive("eps", e)))
            for a in ALGORITHMS if a in plan and a != "explore_tree"
            for e in ([None] if a == "exp2" else plan[a])]
    # the arms' labels, drawn per replicate (keyed): arm j of the run is arm perm[r, j] of the sequence, so the best
    # arm sits at a random index (a learner frozen on a fixed arm is not optimal by construction)
    perm = np.argsort(streams("arm-permutation").uniform((N,)), axis=1)
    batch = _Exp2Batch.start(rows, N, T, R, first=np.argmin(perm, axis=1))  # first: the sequence's arm 0
    batch.draws, batch.noise = streams("exp2"), streams("exp2/noise-pulled" if pulled_noise else "exp2/noise")
    tree_eps = [float(V.positive("eps", e)) for e in plan.get("explore_tree", [])]
    # the baseline in blocks of rounds (ExploreTreeRounds: ExploreTree's arithmetic and draws, vectorised over rounds)
    tree = ExploreTreeRounds(N, T, tree_eps, streams("explore_tree"),
                             streams("explore_tree/tree")) if tree_eps else None
    users = _user_runs(learners, plan, N, T, R, root_seed, point, replicates)
    cum, top = _play(source, perm, batch, users, tree, T, R, N, pulled_noise)
    best_arm, best = cum.argmin(axis=1), cum.min(axis=1)
    trivial = cum.mean(axis=1) - best  # regret of uniform play: the saturation level of the eps window
    max_regret = top - best  # sum_t max_i l_t,i - min_i L_T,i: the largest regret any play could have
    base = {"scenario": SCENARIO, "env": env, "N": N, "T": T, "replicate": replicates}
    sat = {"trivial_regret": trivial, "max_regret": max_regret}  # the columns after each row block's regret
    return pd.concat(_paper_frames(base, sat, batch, best, best_arm, N, T, R, pulled_noise)
                     + _tree_frames(base, sat, tree, tree_eps, best, R)
                     + _user_frames(base, sat, users, best, best_arm, R, pulled_noise), ignore_index=True)


def _checked_args(env: str, N: int, T: int, plan, pulled_noise: bool, learners):
    """:func:`simulate`'s arguments checked: ``(N, T, learners)``."""
    if env not in ENVS:
        raise ValueError(f"env must be one of {ENVS}, got {env!r}")
    N = V.integer("N", N, minimum=2)
    T = V.integer("T", T)
    learners = check_makes(learners, ALGORITHMS, SIGNATURE)
    unknown = set(plan) - set(ALGORITHMS) - set(learners)
    if unknown:
        raise ValueError(f"plan keys must be among {ALGORITHMS} or the learners' names, got {sorted(unknown)}")
    if pulled_noise and "dp_exp2_biased" in plan:
        raise ValueError("dp_exp2_biased needs the whole noise vector (pulled_noise=False)")
    return N, T, learners


@dataclass
class _Exp2Batch:
    """The EXP2 family's rows of :func:`simulate` as one batch through the compiled kernel: row k, replicate r
    is batch row k*R + r; per batch row lambda, eta, gamma, the noise bias (Lemma 4.3's control: mean lambda on the
    sequence's arm 0), the log-probabilities and the running sums the kernel updates."""

    rows: list  # (algorithm, eps or None)
    par: np.ndarray  # (rows, 3): lambda, eta, gamma
    lam_b: np.ndarray | None
    eta_b: np.ndarray | None
    gam_b: np.ndarray | None
    bias_b: np.ndarray | None
    logq: np.ndarray
    suffered: np.ndarray
    noisy: np.ndarray
    zsum: np.ndarray
    draws: ReplicateStreams | None = None  # the sampling uniforms
    noise: ReplicateStreams | None = None  # the Laplace noise (shared with the user learners)

    @classmethod
    def start(cls, rows, N: int, T: int, R: int, first: np.ndarray) -> _Exp2Batch:
        par = np.array([row_params(a, N, T, e) for a, e in rows])  # (rows, 3)
        B = len(rows) * R
        lam_b, eta_b, gam_b = (np.repeat(par[:, k], R) for k in range(3)) if rows else (None,) * 3
        bias_b = np.concatenate([np.eye(N)[first] if a == "dp_exp2_biased" else np.zeros((R, N)) for a, _ in rows]) \
            if rows else None
        logq = np.full((B, N), -np.log(N))
        return cls(rows, par, lam_b, eta_b, gam_b, bias_b, logq, np.zeros(B), np.zeros(B), np.zeros((B, N)))

    def play(self, L: np.ndarray, Lp: np.ndarray, perm: np.ndarray, tb: int, N: int, pulled_noise: bool):
        """One block of rounds for every row: ``L`` the sequence's (the pulled-noise kernel reads it through the
        arm labels ``perm``), ``Lp`` the same in the replicate's arm labels (the full kernel's); returns the
        Laplace draws it used ``(z, Z)`` (pulled arm's, whole vector; None where not drawn)."""
        z = Z = None
        if self.rows and pulled_noise:
            U = np.ascontiguousarray(self.draws.uniform((tb,)))
            z = draws_jit.laplace(self.noise, (tb,))  # self.noise.laplace(1.0, (tb,)), compiled
            exp2_block_pulled(self.logq, self.eta_b, self.gam_b, self.lam_b, L, perm, z, U, self.suffered)
        elif self.rows:  # the EXP2 family through the compiled kernel (papers/as17/exp2_jit.py)
            U = np.ascontiguousarray(self.draws.uniform((tb,)))
            Z = draws_jit.laplace(self.noise, (tb, N))
            exp2_block(self.logq, self.eta_b, self.gam_b, self.lam_b, self.bias_b, Lp, Z, U,
                       self.suffered, self.noisy, self.zsum)
        return z, Z


def _user_runs(learners, plan, N: int, T: int, R: int, root_seed: int, point, replicates) -> list[UserRun]:
    """Your learners (Algorithm 4 around each): one per (name, eps), randomness keyed by the point and the name."""
    users = []
    for name, make in learners.items():
        eps_list = plan.get(name, plan.get("dp_exp2"))
        if not eps_list:
            raise ValueError(f"learner {name!r} has no eps to run at: give plan[{name!r}] (or plan['dp_exp2'])")
        for e in eps_list:
            e = float(V.positive("eps", e))
            lam = exp2_params_thm4_1(N, T, e)[0]  # Lemma 4.2: lambda = 1/eps, as the dp_exp2 row
            users.append(UserRun(name, e, lam, build_user_learner(make, name, R, N, T, lam,
                                                                  streams_of(root_seed, point, name, replicates))))
    return users


def _play(source, perm, batch: _Exp2Batch, users, tree, T: int, R: int, N: int, pulled_noise: bool):
    """Every learner over the T rounds, in blocks of rounds; returns the arms' cumulative losses ``(R, N)`` and
    sum_t max_i l_t,i ``(R,)``.  The sums are taken on the sequence's blocks and put in the replicate's arm
    labels at the end (each arm's sum is the same sequence of additions in either labelling); the pulled-noise
    kernel reads the sequence's block through the labels, so the block is relabelled only for the other learners."""
    cum, top = np.zeros((R, N)), np.zeros(R)
    block = max(1, min(T, BLOCK_DOUBLES // (R * N)))  # rounds per kernel call
    relabel = bool(users or tree or not pulled_noise)
    for t0 in range(0, T, block):
        tb = min(block, T - t0)
        L = _sequence_block(source, t0, tb, R, as_float=relabel)
        Lp = np.ascontiguousarray(np.take_along_axis(L, perm[:, None, :], axis=2)) if relabel else L
        z, Z = batch.play(L, Lp, perm, tb, N, pulled_noise)
        if users:  # the same noise draws as the paper's rows (drawn here only if no EXP2 row runs)
            if pulled_noise:
                z = batch.noise.laplace(1.0, (tb,)) if z is None else z
            else:
                Z = batch.noise.laplace(1.0, (tb, N)) if Z is None else Z
            for u in users:
                run_user_block(u, Lp, z if pulled_noise else Z)
        if tree:
            tree.run(Lp)
        cum += L.sum(axis=1)
        top = _running(top, L.max(axis=2))
    return np.take_along_axis(cum, perm, axis=1), top


def _sequence_block(source, t0: int, tb: int, R: int, as_float: bool) -> np.ndarray:
    """Rounds ``t0 + 1 .. t0 + tb`` of the sequence, ``(R, tb, N)``; the stochastic sequence's as uint8 unless
    ``as_float`` (the same draws as ``source.block``, whose float losses are these 0 and 1)."""
    if isinstance(source, StochasticExperts):
        return source.block(tb) if as_float else (source.streams.uniform((tb, source.N)) < source.means).view(np.uint8)
    if isinstance(source, (PeriodicExperts, SignedExperts)):
        return source.block(t0, tb, R)
    return switching_block(source, t0, tb, R)


def _paper_frames(base: dict, sat: dict, batch: _Exp2Batch, best, best_arm, N: int, T: int, R: int,
                  pulled_noise: bool) -> list[pd.DataFrame]:
    """The EXP2 family's rows (Lemma 4.3's ``noisy_regret`` for the private ones, unless ``pulled_noise``)."""
    rows, out = batch.rows, []
    if rows:
        B = len(rows) * R
        reg = batch.suffered - np.tile(best, len(rows))
        nz = reg + batch.noisy - batch.zsum[np.arange(B), np.tile(best_arm, len(rows))]  # Lemma 4.3
        for k, (a, e) in enumerate(rows):
            lam, eta, gam = batch.par[k]
            sl = slice(k * R, (k + 1) * R)
            out.append(pd.DataFrame({**base, "algorithm": a, "eps": np.nan if e is None else e,
                                     "regret": reg[sl], **sat,
                                     "noisy_regret": nz[sl] if a != "exp2" and not pulled_noise else np.nan,
                                     "lambda": lam, "eta": eta,
                                     "gamma": gam, "bound_thm4_1": bound_thm4_1(N, T, eta, gam, lam)}))
    return out


def _tree_frames(base: dict, sat: dict, tree, tree_eps, best, R: int) -> list[pd.DataFrame]:
    """The ExploreTree baseline's rows, one block per eps."""
    out = []
    if tree_eps:
        reg = tree.suffered - np.tile(best, len(tree_eps))
        for k, e in enumerate(tree_eps):
            out.append(pd.DataFrame({**base, "algorithm": "explore_tree", "eps": e,
                                     "regret": reg[k * R:(k + 1) * R], **sat,
                                     "noisy_regret": np.nan, "lambda": np.nan, "eta": np.nan,
                                     "gamma": tree.gamma, "bound_thm4_1": np.nan}))
    return out


def _user_frames(base: dict, sat: dict, users, best, best_arm, R: int, pulled_noise: bool) -> list[pd.DataFrame]:
    """Your learners' rows, after the paper's (which keep their positions)."""
    out = []
    for u in users:
        reg = u.suffered - best
        nz = np.nan if pulled_noise else reg + u.noisy - u.zsum[np.arange(R), best_arm]
        out.append(pd.DataFrame({**base, "algorithm": u.name, "eps": u.eps, "regret": reg, **sat,
                                 "noisy_regret": nz, "lambda": u.lam, "eta": np.nan, "gamma": np.nan,
                                 "bound_thm4_1": np.nan}))
    return out



# --- your own learner as Algorithm 4's base learner ---------------------------------
SIGNATURE = "make(R, N, T, lam, streams)"
SIGNATURE_DOC = ("make(R, N, T, lam, streams) -> a bandit learner (dpregret.core.protocols) for R replicate rows on N "
                 "arms and horizon T, fed losses plus Laplace(lam) noise (lam = 1/eps, Lemma 4.2); streams: a "
                 "dpregret.core.rng.ReplicateStreams for its own randomness (R rows, keyed by the scenario point and "
                 "its name)")


def streams_of(root_seed: int, point: tuple, name: str, replicates: Sequence[int]) -> ReplicateStreams:
    """The streams a user learner ``name`` draws from at ``point``: keyed by replicate, so its rows
    do not depend on how replicates are chunked; the same at every eps (as the paper's rows share
    their arm draws across eps)."""
    return ReplicateStreams(root_seed, stable_key(*point, "learner", name), replicates)


def build_user_learner(make: Callable, name: str, R: int, N: int, T: int, lam: float, streams: ReplicateStreams):
    """``make(R, N, T, lam, streams)``, checked (``protocols.build_learner``)."""
    return build_learner(make, name, (R, N, T, lam, streams), SIGNATURE_DOC, "losses")


class UserRun:
    """One user learner at one eps inside Algorithm 4, and its accumulators over the rounds."""

    def __init__(self, name: str, eps: float, lam: float, learner):
        self.name, self.eps, self.lam, self.learner = name, eps, lam, learner
        self.expected = None  # whether the learner exposes its play distribution ``p`` (set on round 1)
        self.suffered = self.noisy = self.zsum = None


def _bad_p(u: UserRun, p, R: int, N: int) -> ValueError:
    return ValueError(f"learner {u.name!r}: attribute p must be the (R, N) distribution predict() drew its arms from "
                      f"(or absent: realised regret), got {None if p is None else np.shape(p)}")


def _check_arms(u: UserRun, a, R: int, N: int) -> None:
    """``protocols.check_play`` of a bandit play, its error naming the learner."""
    try:
        check_play("bandit", a, R, N)
    except ValueError as err:
        raise ValueError(f"learner {u.name!r}: {err}") from None


def _check_user_block(u: UserRun, R: int, N: int, arms: np.ndarray, P: np.ndarray | None, upto: int,
                      armed: int | None = None) -> None:
    """The arms (``(tb, R)``) and distributions (``(tb, R, N)``) of a block's first ``upto`` rounds
    (arms: ``armed``, default ``upto``): arm indices in [0, N) and each ``p`` a distribution, else
    the error the first bad round raised round by round (its arms before its ``p``)."""
    armed = upto if armed is None else armed
    bad_arm = np.any((arms[:armed] < 0) | (arms[:armed] >= N), axis=1)
    bad_p = np.zeros(armed, dtype=bool)
    if P is not None:
        bad_p[:upto] = (P[:upto].min(axis=(1, 2)) < -1e-12) | (np.abs(P[:upto].sum(axis=2) - 1).max(axis=1) > 1e-9)
    for s in np.flatnonzero(bad_arm | bad_p):
        if bad_arm[s]:
            _check_arms(u, arms[s], R, N)  # raises, naming the learner and the arms
        if bad_p[s]:
            raise _bad_p(u, P[s], R, N)


def run_user_block(u: UserRun, L: np.ndarray, noise: np.ndarray) -> None:
    """Algorithm 4 around ``u.learner`` for the rounds of the loss block ``L`` (``(R, tb, N)``).

    Round s: the learner plays ``a = predict()`` (``(R,)`` arm indices, checked), suffers
    ``l_s(a)`` and is updated with ``l_s(a) + lam z`` where ``z`` is the paper's rows' standard
    Laplace draw: ``noise[r, s]`` (``(R, tb)``, pulled-arm noise) or ``noise[r, s, a]`` (``(R, tb,
    N)``, the whole vector Z_t of which Algorithm 4 forwards <Z_t, e_a>).  Suffered loss: the
    expected ``<p, l_s>`` if the learner exposes the distribution it drew ``a`` from as attribute
    ``p`` (``(R, N)``, set by ``predict``; the paper's rows' measure), else the realised ``l_s(a)``
    (an unbiased estimate of it).  With the whole vector also Lemma 4.3's noisy-loss terms.

    The round does only what the learner needs: the arms' type and shape are checked at once,
    their range and ``p`` (a distribution) for the block after it (and before any exception the
    learner raises meanwhile is passed on); the fed values ``l_s + lam z_s``, the regret's terms
    and Lemma 4.3's sums are made for the block at once, each by the elementwise arithmetic and
    in the order of the round-by-round sums."""
    R, tb, N = L.shape
    rows = np.arange(R)
    pulled = noise.ndim == 2
    if u.suffered is None:
        u.suffered, u.noisy, u.zsum = np.zeros(R), np.zeros(R), np.zeros((R, N))
    lz = u.lam * noise  # the rounds' lam z, (R, tb) or (R, tb, N)
    fed = L + (lz[:, :, None] if pulled else lz)  # l_s(i) + lam z_s(i) (pulled: the arm's own draw)
    arms = np.empty((tb, R), dtype=np.int64)
    P = None if u.expected is False else np.empty((tb, R, N))
    now = np.zeros(tb, dtype=bool)  # rounds whose <p, l_s>, <p, lam z_s> were taken at once (p not C-contiguous)
    suf_now, noisy_now = np.empty((tb, R)), np.empty((tb, R))
    learner = u.learner
    ready = armed = 0  # rounds whose p (and arms) are recorded
    try:
        for s in range(tb):
            a = learner.predict()
            if not (type(a) is np.ndarray and a.shape == (R,) and a.dtype.kind in "iu"):
                _check_arms(u, a, R, N)
                a = np.asarray(a)
            arms[s] = a
            armed = s + 1
            p = getattr(learner, "p", None)
            if u.expected is None:
                u.expected = p is not None
                if not u.expected:
                    P = None
            if u.expected:
                if not (type(p) is np.ndarray and p.dtype == np.float64 and p.shape == (R, N)):
                    p = np.asarray(p, dtype=float) if p is not None else None
                    if p is None or p.shape != (R, N):
                        raise _bad_p(u, p, R, N)
                P[s] = p
                if not p.flags.c_contiguous:  # the block's sums below assume the round's layout
                    now[s] = True
                    suf_now[s] = (p * L[:, s]).sum(axis=1)
                    if not pulled:
                        noisy_now[s] = (p * (u.lam * noise[:, s])).sum(axis=1)
            ready = s + 1
            learner.update(fed[rows, s, a])
    except Exception:
        _check_user_block(u, R, N, arms, P, ready, armed)  # a bad play before the failure is the error
        raise
    _check_user_block(u, R, N, arms, P, tb)
    steps = np.arange(tb)
    if u.expected:
        suf = (P * L.transpose(1, 0, 2)).sum(axis=2)  # (tb, R): <p_s, l_s>, as the round's sum
        suf[now] = suf_now[now]
    else:
        suf = L[rows[None, :], steps[:, None], arms]  # l_s(a_s)
    u.suffered = _running(u.suffered, suf.T)
    if not pulled:
        if u.expected:
            nz = (P * lz.transpose(1, 0, 2)).sum(axis=2)
            nz[now] = noisy_now[now]
        else:
            nz = lz[rows[None, :], steps[:, None], arms]
        u.noisy = _running(u.noisy, nz.T)
        u.zsum = _running(u.zsum, lz)


def _running(acc: np.ndarray, per_round: np.ndarray) -> np.ndarray:
    """``acc`` plus each of ``per_round``'s rounds (axis 1), added in order (as ``acc += x`` round by round)."""
    return np.cumsum(np.concatenate([acc[:, None], per_round], axis=1), axis=1)[:, -1]


def _user_claim():
    """Table 2 row 2's rate in T (``AS17-T2-mab-rate-T``) for any bandit learner as Algorithm 4's
    base learner (Theorem 4.1 / Lemma 4.3: Algorithm 4's regret is the base learner's on the
    noisy losses).  Points: the T grid ``p["T"]`` on the stochastic sequence at ``rate_eps``, with
    the paper's plan for that claim (``dp_exp2`` and the baseline ``explore_tree``, the whole
    noise vector as the pipeline's T grid draws it, so the paper's rows are the pipeline's)."""
    from dpregret.core.contract import PaperOnDoor, UserClaim, in_order

    def simulate_point(p, point, reps, seed, learners):
        r = p["rate_eps"]
        plan = {"dp_exp2": [r], "explore_tree": [r], **{name: [r] for name in learners}}
        df = simulate("stochastic", int(p["N"]), int(point), plan, reps, seed, gap=p["gap"], learners=learners)
        df["grid"] = "T"
        return df

    def decide(runs, p, tol, alpha, rng_for, name):
        from dpregret.papers.as17.claims_tables import mab_rate_T_claim
        return mab_rate_T_claim(runs, p["rate_eps"], tol, alpha, rng_for, name)

    def user_rows(p, point, reps, seed, learners):  # simulate_point's rows but the paper's (the same draws)
        df = simulate("stochastic", int(p["N"]), int(point), {name: [p["rate_eps"]] for name in learners}, reps, seed,
                      gap=p["gap"], learners=learners)
        df["grid"] = "T"
        return df

    def paper_rows(tables, p, point):  # simulate_point's paper rows: the pipeline's T grid, at rate_eps
        t = tables[PAPER_TABLE]
        keep = ((t.env == "stochastic") & (t.grid == "T") & (t.N == int(p["N"])) & (t["T"] == int(point))
                & (t.eps == float(p["rate_eps"])) & t.algorithm.isin(("dp_exp2", "explore_tree")))
        return in_order(t[keep], "algorithm", ("dp_exp2", "explore_tree"), "replicate")

    return UserClaim(
        "AS17-T2-mab-rate-T", SCENARIO, "bandit", SIGNATURE,
        "your learner as the base learner of Algorithm 4 (fed the pulled arm's loss plus Laplace noise of scale "
        "lambda = 1/eps, the same draws as the paper's), on the stochastic sequence at rate_eps; regret expected "
        "(<p_t, l_t>) if your learner exposes its distribution p, else realised; control: the O~(T^(2/3)) "
        "explore-and-feed baseline (explore_tree) on the same draws",
        "dp_exp2", "paper (Algorithm 4 + EXP2)", ALGORITHMS,
        lambda p: [int(t) for t in p["T"]], simulate_point, decide, env="stochastic", user_rows=user_rows,
        paper_tables=(PAPER_TABLE,), paper_rows=paper_rows,
        paper_on_door=PaperOnDoor(lambda p, point, reps,
                                  seed: paper_exp2(seed, int(p["N"]), int(point), p["gap"], reps),
                                  (("", "dp_exp2"),), ("eps", "replicate", "lambda", "regret", "noisy_regret")))


def paper_exp2(root_seed: int, N: int, T: int, gap: float, replicates: Sequence[int]) -> Callable:
    """The paper's learner in this signature at the stochastic point (N, T, gap): EXP2 with Theorem
    4.1's eta and gamma for eps = 1/lam, drawing its arms from the paper rows' stream (not from
    ``streams``), so the door plays the compiled kernel's arms."""
    from dpregret.papers.as17.bandits import Exp2

    def make(R, N_, T_, lam, streams):
        _, eta, gam = row_params("dp_exp2", N_, T_, 1.0 / lam)
        return Exp2(N_, eta, gam, ReplicateStreams(root_seed, stable_key(SCENARIO, "stochastic", N, T, gap, "exp2"),
                                                   replicates))
    return make


PAPER_TABLE = "results/as17/mab/runs.parquet"  # the pipeline's table of the paper's rows (rule as17_tables_merge)
# Theorem 4.1's rate in T holds for any bandit learner inside Algorithm 4 (dpregret.core.contract)
USER_CLAIMS = (_user_claim(),)


def grid_plan(p: dict, grid: str) -> dict[str, list]:
    """The algorithms (and their eps) each grid of the as17_mab scenario runs: the T grid (the
    claim, the T^(2/3) baseline, the eps^2 rows of the figure and Lemma 4.3's control), the N grid
    (the full-sensitivity control), the eps window (the eps^2 control) and the bound grid (Theorem
    4.1's bound on the signed sequence, with the step-halved secondary control)."""
    r = p["rate_eps"]
    if grid == "T":
        return {"exp2": [None], "dp_exp2": p["eps"], "explore_tree": [r], "dp_exp2_eps_squared": p["eps"],
                "dp_exp2_biased": [r], "dp_exp2_eta_T23": [r]}
    if grid == "N":
        return {"exp2": [None], "dp_exp2": [r], "dp_exp2_full_sens": [r], "dp_exp2_no_N": [r]}
    if grid == "bound":  # Theorem 4.1's bound on the signed sequence (its secondary control: eta halved)
        return {"dp_exp2": p["bound_grid"]["eps"], "dp_exp2_half_step": p["bound_grid"]["eps"],
                "dp_exp2_eta_T23": p["bound_grid"]["eps"]}
    return {"exp2": [None], "dp_exp2": p["eps_window"], "dp_exp2_eps_squared": p["eps_window"],
            "dp_exp2_nopriv_step": p["eps_window"]}


def simulate_job(params: dict, wildcards: dict, outputs: list[str]) -> None:
    """The workflow's simulate job (``dpregret.pipeline.jobs``): one (env, grid, N, T, replicate chunk), or
    every T of the bound grid in one process (each output its own point, named
    ``results/as17/mab/{env}/{grid}_N{N}_T{T}/chunk{lo-hi}.parquet``: the same numbers as one job per
    point, the start-up paid once).  Lemma 4.3's noisy-loss regret is needed on the T grid only;
    elsewhere only the pulled arm's noise is drawn."""
    import re

    p, seed = params["p"], params["seed"]
    lo, hi = map(int, wildcards["chunk"].split("-"))
    for path in outputs:
        env, grid, N, T = re.search(r"mab/(\w+)/(T|N|eps|bound)_N(\d+)_T(\d+)/chunk", path).groups()
        df = simulate(env, int(N), int(T), grid_plan(p, grid), range(lo, hi), seed, gap=p["gap"],
                      pulled_noise=grid != "T")
        df["grid"] = grid
        df.to_parquet(path, index=False)
        print(path, len(df), "rows")
