"""Agarwal and Singh (ICML 2017), section 4: private non-stochastic multi-armed bandits.

One (environment, N, T) point and a chunk of replicates.  ``plan`` maps each algorithm to
the eps values it runs at; every EXP2-family row (all algorithms but ``explore_tree``) is
one row of the compiled rounds of :func:`~dpregret.learners.exp2_jit.exp2_block` (the
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
- ``dp_exp2_half_step`` (near-miss control for the Theorem 4.1 bound): Theorem 4.1's lambda
  and gamma with the step eta halved (a factor-2 slip in eta's constant), checked against the
  bound of the correct parameters;
- ``dp_exp2_fixed_explore`` (a gross control, mutation suite): gamma fixed at 1/2, a fixed
  exploration rate whose regret grows linearly in T;
- ``dp_exp2_biased`` (control of Lemma 4.3): Algorithm 4 whose noise on arm 0 has mean lambda.

Rows: expected regret ``sum_t <p_t, l_t> - min_i L_T(i)``; for Algorithm 4 rows also the
regret on the noisy losses ``l~_t = l_t + Z_t`` against the same comparator (Lemma 4.3)
and the Theorem 4.1 bound.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .. import _validate as V
from ..environments.experts import KINDS, StochasticExperts, SwitchingExperts
from ..learners.bandits import ExploreTreeRounds, bound_thm4_1, exp2_params_thm4_1
from ..learners.exp2_jit import exp2_block, exp2_block_pulled
from ..rng import ReplicateStreams, stable_key

SCENARIO = "as17_mab"
BLOCK_DOUBLES = 2**20  # draws per replicate-round buffered per kernel call: memory only, the numbers are the same
ALGORITHMS = ("exp2", "dp_exp2", "explore_tree", "dp_exp2_full_sens", "dp_exp2_eps_squared", "dp_exp2_fixed_explore",
              "dp_exp2_biased", "dp_exp2_half_step")


def row_params(name: str, N: int, T: int, eps: float | None) -> tuple[float, float, float]:
    """(lambda, eta, gamma) of one EXP2-family row."""
    if name == "exp2":
        return exp2_params_thm4_1(N, T, None)
    if name == "dp_exp2_eps_squared":
        return exp2_params_thm4_1(N, T, eps**2)
    lam, eta, gam = exp2_params_thm4_1(N, T, eps, N if name == "dp_exp2_full_sens" else 1.0)
    if name == "dp_exp2_fixed_explore":
        gam = 0.5
    if name == "dp_exp2_half_step":
        eta = eta / 2
    return lam, eta, gam


ENVS = KINDS + ("periodic",)


class PeriodicExperts:
    """A deterministic, non-i.i.d. sequence for Theorem 4.1 (issue 16 item 4): rounds repeat
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
             root_seed: int, gap: float = 0.2, phases: int = 4, pulled_noise: bool = False) -> pd.DataFrame:
    """``pulled_noise``: draw only the pulled arm's Laplace number per round
    (:func:`~dpregret.learners.exp2_jit.exp2_block_pulled`; same law by Lemma 4.2, far fewer
    draws and exps at large N) and leave Lemma 4.3's ``noisy_regret`` out (NaN); the biased-noise
    control needs the whole vector and is refused."""
    if env not in ENVS:
        raise ValueError(f"env must be one of {ENVS}, got {env!r}")
    N = V.integer("N", N, minimum=2)
    T = V.integer("T", T)
    unknown = set(plan) - set(ALGORITHMS)
    if unknown:
        raise ValueError(f"plan keys must be among {ALGORITHMS}, got {sorted(unknown)}")
    if pulled_noise and "dp_exp2_biased" in plan:
        raise ValueError("dp_exp2_biased needs the whole noise vector (pulled_noise=False)")
    replicates = list(replicates)
    R = len(replicates)
    point = (SCENARIO, env, N, T, gap if env == "stochastic" else phases)  # (periodic: no parameter of its own)

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)

    source = (SwitchingExperts(T, N, phases) if env == "switching" else PeriodicExperts(T, N) if env == "periodic"
              else StochasticExperts(N, gap, streams("losses")))
    rows = [(a, None if a == "exp2" else float(V.positive("eps", e))) for a in ALGORITHMS if a in plan and a != "explore_tree"
            for e in ([None] if a == "exp2" else plan[a])]
    par = np.array([row_params(a, N, T, e) for a, e in rows])  # (rows, 3)
    bias = np.array([np.eye(N)[0] if a == "dp_exp2_biased" else np.zeros(N) for a, _ in rows])
    B = len(rows) * R
    # per batch row (row k, replicate r -> k*R + r): lambda, eta, gamma and the noise bias
    lam_b, eta_b, gam_b = (np.repeat(par[:, k], R) for k in range(3)) if rows else (None,) * 3
    bias_b = np.repeat(bias, R, axis=0) if rows else None
    logq = np.full((B, N), -np.log(N))
    suffered, noisy, zsum = np.zeros(B), np.zeros(B), np.zeros((B, N))
    draws, noise = streams("exp2"), streams("exp2/noise-pulled" if pulled_noise else "exp2/noise")
    tree_eps = [float(V.positive("eps", e)) for e in plan.get("explore_tree", [])]
    # the baseline in blocks of rounds (ExploreTreeRounds: ExploreTree's arithmetic and draws, vectorised over rounds)
    tree = ExploreTreeRounds(N, T, tree_eps, streams("explore_tree"), streams("explore_tree/tree")) if tree_eps else None
    cum = np.zeros((R, N))
    block = max(1, min(T, BLOCK_DOUBLES // (R * N)))  # rounds per kernel call
    for t0 in range(0, T, block):
        tb = min(block, T - t0)
        L = (source.block(tb) if isinstance(source, StochasticExperts) else source.block(t0, tb, R)
             if isinstance(source, PeriodicExperts) else switching_block(source, t0, tb, R))
        if rows and pulled_noise:
            U = np.ascontiguousarray(draws.uniform((tb,)))
            z = np.ascontiguousarray(noise.laplace(1.0, (tb,)))
            exp2_block_pulled(logq, eta_b, gam_b, lam_b, np.ascontiguousarray(L), z, U, suffered)
        elif rows:  # the EXP2 family through the compiled kernel (learners/exp2_jit.py)
            U = np.ascontiguousarray(draws.uniform((tb,)))
            Z = np.ascontiguousarray(noise.laplace(1.0, (tb, N)))
            exp2_block(logq, eta_b, gam_b, lam_b, bias_b, np.ascontiguousarray(L), Z, U, suffered, noisy, zsum)
        if tree:
            tree.run(L)
        cum += L.sum(axis=1)
    best_arm, best = cum.argmin(axis=1), cum.min(axis=1)
    trivial = cum.mean(axis=1) - best  # regret of uniform play: the saturation level of the eps window

    out = []
    base = {"scenario": SCENARIO, "env": env, "N": N, "T": T, "replicate": replicates}
    if rows:
        reg = suffered - np.tile(best, len(rows))
        nz = reg + noisy - zsum[np.arange(B), np.tile(best_arm, len(rows))]  # Lemma 4.3
        for k, (a, e) in enumerate(rows):
            lam, eta, gam = par[k]
            sl = slice(k * R, (k + 1) * R)
            out.append(pd.DataFrame({**base, "algorithm": a, "eps": np.nan if e is None else e, "regret": reg[sl],
                                     "trivial_regret": trivial,
                                     "noisy_regret": nz[sl] if a != "exp2" and not pulled_noise else np.nan, "lambda": lam, "eta": eta,
                                     "gamma": gam, "bound_thm4_1": bound_thm4_1(N, T, eta, gam, lam)}))
    if tree_eps:
        reg = tree.suffered - np.tile(best, len(tree_eps))
        for k, e in enumerate(tree_eps):
            out.append(pd.DataFrame({**base, "algorithm": "explore_tree", "eps": e, "regret": reg[k * R:(k + 1) * R],
                                     "trivial_regret": trivial,
                                     "noisy_regret": np.nan, "lambda": np.nan, "eta": np.nan,
                                     "gamma": tree.gamma, "bound_thm4_1": np.nan}))
    return pd.concat(out, ignore_index=True)
