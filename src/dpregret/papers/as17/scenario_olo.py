"""Agarwal and Singh (ICML 2017), section 3: Table 1 rows 2-4 (full information).

``row``:
- ``sphere``: Algorithm 1, R = ||x||^2 on the unit ball, losses in the unit l2 ball,
  Laplace tree noise ``lambda = diam_1(Y) (floor(log2 T)+1) / eps`` (Corollary 3.2 item 2
  with the sensitivity of the definition, see ``laplace_scale_cor3_2``);
- ``cube``: the same on [-1, 1]^N with losses in the unit l1 ball (Corollary 3.2 item 3);
- ``ftpl``: Algorithm 3 (FTPL) on the unit ball with Gaussian tree noise of Theorem 3.5
  (general OLO, Table 1 row 4); its non-private counterpart is the same FTPL with the
  first (regret) term of sigma only.

Algorithms per row: ``nonprivate``; ``tree`` (the paper's algorithm); ``fresh_noise``
(control: fresh noise on every release, no tree -- Laplace by advanced composition for
FTRL, Gaussian with sigma * sqrt(T / K) for FTPL); ``wrong_sensitivity`` (control for the
N-dependence, FTRL rows: lambda from the l1 diameter 2N of the l_inf ball, i.e. losses
assumed only coordinate-bounded).  One row per (algorithm, eps, replicate) with the regret
``sum_t <l_t, x_t> - min_X <L_T, x>`` and, for Theorem 3.4's explicit bound (FTRL rows),
the step size ``eta``, the realised ``sum_sq_dual = sum_t ||l_t||_2^2 / 2`` and the
comparator's size ``comparator = -min_X <L_T, x>`` (``||L_T||_2`` on the ball, ``||L_T||_1``
on the cube), which is also the regret of the non-learner frozen at the centre 0 on the same
losses.  Sequences (``env``): ``fixed`` (:class:`FixedOLO`, a fixed leader), ``stochastic`` and
``switching`` (``dpregret.core.environments.olo``).  :func:`d_noise_mc` estimates ``D_{D'}`` by Monte
Carlo.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from dpregret.core import _validate as V
from dpregret.core.environments.olo import KINDS, StochasticOLO, SwitchingOLO, best_in_hindsight
from dpregret.papers.as17.olo import BallFTRL, CubeFTRL, FTPLLinear, d_r_quadratic, eta_ftrl
from dpregret.papers.as17.prefix_sums import ExactSum, FreshNoise, TreeSum, scaled_draws
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.papers.as17.olo import ROW_DOMAIN as DOMAIN, d_noise_mc, noise_scales  # noqa: F401 (the scenario's names)

SCENARIO = "as17_olo"
BLOCK_DOUBLES = 2**18  # (rows x rounds x N) per block: memory only, the numbers are the same to rounding
ROWS = ("sphere", "cube", "ftpl")
# What each grid's claims read (FTRL rows): the T grid the rates in T (control: fresh noise),
# the N grid Theorem 3.4's bound in N (control: wrong sensitivity, at rate_eps only).
GRID_ALGORITHMS = {"T": ("nonprivate", "tree", "fresh_noise"), "N": ("nonprivate", "tree", "wrong_sensitivity"),
                   "R": ("nonprivate", "tree", "fresh_noise")}  # R: the regret rates' own T grid (regret_mu)


def switching_block(source: SwitchingOLO, t0: int, tb: int, R: int) -> np.ndarray:
    """Rounds ``t0 + 1 .. t0 + tb`` of :class:`SwitchingOLO`, ``(R, tb, N)``: ``source.loss`` at once."""
    sign = np.array([source.sign(t) for t in range(t0 + 1, t0 + tb + 1)])
    return np.broadcast_to(sign[None, :, None] * source.u, (R, tb, source.N))


ENVS = KINDS + ("fixed",)


class FixedOLO:
    """A deterministic oblivious sequence with a fixed leader (the mean of
    :class:`~dpregret.core.environments.olo.StochasticOLO`): ``l_t = mu u`` in every round, ``u`` the
    all-ones direction on the boundary of Y.  FTRL with R = ||x||^2 pays its ramp to the boundary,
    about ``D_R / eta`` = Theta(sqrt(T)) at the tuned eta, once ``mu T >> 1 / eta``; flips of the
    leader do not raise it (the 4-phase ``switching`` sequence gives a regret near 0 after its last
    flip), and the small mean ``mu`` is the learner's own timescale: a learner whose releases carry
    noise of size s cannot find the direction before ``mu t ~ s``, so the fresh-noise control (s ~
    sqrt(T log T) / eps) stays near the trivial regret ``mu T`` over a wider range of T than the tree
    (s ~ polylog / eps).  No randomness: only the learners' noise varies across replicates."""

    def __init__(self, domain: str, N: int, mu: float):
        from dpregret.core.environments.olo import direction
        self.N = V.integer("N", N)
        self.mu = V.probability("mu", mu, open_left=False, open_right=False)
        self.u = direction(domain, self.N)

    def block(self, tb: int, R: int) -> np.ndarray:
        """``tb`` rounds, ``(R, tb, N)``."""
        return np.broadcast_to(self.mu * self.u, (R, tb, self.N))


def loss_source(domain: str, env: str, N: int, T: int, phases: int, mu: float, streams):
    """The loss sequence of one point (``env`` in :data:`ENVS`); ``streams(role)`` its streams."""
    if env == "switching":
        return SwitchingOLO(domain, T, N, min(phases, T))
    if env == "fixed":
        return FixedOLO(domain, N, mu)
    return StochasticOLO(domain, N, mu, streams("losses"))


def loss_block(source, t0: int, tb: int, R: int) -> np.ndarray:
    """Rounds ``t0 + 1 .. t0 + tb`` of any :func:`loss_source`, ``(R, tb, N)``."""
    if isinstance(source, SwitchingOLO):
        return switching_block(source, t0, tb, R)
    if isinstance(source, FixedOLO):
        return source.block(tb, R)
    return source.block(tb)


def point_key(row: str, env: str, N: int, T: int, phases: int, mu: float) -> tuple:
    """The key of one point's streams."""
    return (SCENARIO, row, env, N, T, phases if env == "switching" else mu)


def _scales(row: str, N: int, T: int, eps) -> dict[str, np.ndarray]:
    return {a: np.array([noise_scales(row, N, T, e)[a] for e in eps]) for a in noise_scales(row, N, T, eps[0])}


def row_learners(row: str, N: int, T: int, eps, replicates, root_seed: int, point: tuple) -> dict:
    """Every algorithm of the row, on its own stream (common random numbers across eps)."""
    R, E, domain = len(replicates), len(eps), DOMAIN[row]

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)
    scales = _scales(row, N, T, eps)
    learners = {}
    if row == "ftpl":
        learners["nonprivate"] = FTPLLinear(domain, TreeSum(T, R, N, scaled_draws(streams("nonprivate"), scales["nonprivate"][:1], N, "gaussian")))
        learners["tree"] = FTPLLinear(domain, TreeSum(T, E * R, N, scaled_draws(streams("tree"), scales["tree"], N, "gaussian")))
        learners["fresh_noise"] = FTPLLinear(domain, FreshNoise(E * R, N, scaled_draws(streams("fresh"), scales["fresh_noise"], N, "gaussian")))
    else:
        eta = eta_ftrl(d_r_quadratic(domain, N), T / 2.0)  # S = sum ||l||_2^2 / 2 <= T / 2 (||l||_2 <= 1)
        cls = BallFTRL if domain == "ball" else CubeFTRL
        learners["nonprivate"] = cls(eta, ExactSum(R, N))
        learners["tree"] = cls(eta, TreeSum(T, E * R, N, scaled_draws(streams("tree"), scales["tree"], N)))
        learners["fresh_noise"] = cls(eta, FreshNoise(E * R, N, scaled_draws(streams("fresh"), scales["fresh_noise"], N)))
        learners["wrong_sensitivity"] = cls(eta, TreeSum(T, E * R, N, scaled_draws(streams("wrong"), scales["wrong_sensitivity"], N)))
    return learners


def simulate(row: str, env: str, N: int, T: int, eps: Sequence[float], replicates: Sequence[int], root_seed: int,
             phases: int = 4, mu: float = 0.1, algorithms: Sequence[str] | None = None) -> pd.DataFrame:
    """One (row, env, N, T) point; ``algorithms`` (default: all of the row) picks a subset
    (each keeps its own random stream, so a subset reproduces the same numbers)."""
    if row not in ROWS:
        raise ValueError(f"row must be one of {ROWS}, got {row!r}")
    if env not in ENVS:
        raise ValueError(f"env must be one of {ENVS}, got {env!r}")
    N, T = V.integer("N", N), V.integer("T", T)
    eps = [V.positive("eps", e) for e in eps]
    replicates = list(replicates)
    R, E = len(replicates), len(eps)
    domain = DOMAIN[row]
    point = point_key(row, env, N, T, phases, mu)

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)

    source = loss_source(domain, env, N, T, phases, mu, streams)
    scales = _scales(row, N, T, eps)
    learners = row_learners(row, N, T, eps, replicates, root_seed, point)
    eta = eta_ftrl(d_r_quadratic(domain, N), T / 2.0) if row != "ftpl" else None  # as in row_learners
    if algorithms is not None:
        unknown = set(algorithms) - set(learners)
        if unknown or "nonprivate" not in algorithms:
            raise ValueError(f"algorithms must include 'nonprivate' and lie in {tuple(learners)}, got {algorithms!r}")
        learners = {a: learners[a] for a in learners if a in algorithms}
    # blocks of rounds: the learners' inputs (full information, oblivious sequences) do not depend
    # on their plays, so each prefix sum releases a block's estimates at once (prefix_sums *.block;
    # the per-round predict/update path is the reference, tests/test_as17_olo.py)
    suffered = {a: 0.0 for a in learners}
    cum = np.zeros((R, N))
    sum_sq = np.zeros(R)
    block = max(1, min(T, BLOCK_DOUBLES // (E * R * N)))
    for t0 in range(0, T, block):
        tb = min(block, T - t0)
        L = loss_block(source, t0, tb, R)
        sum_sq = np.cumsum(np.concatenate([sum_sq[:, None], 0.5 * np.einsum("rsi,rsi->rs", L, L)], axis=1), axis=1)[:, -1]
        for name, learner in learners.items():
            B = learner.sums.estimate.shape[0]
            lb = L if B == R else np.tile(L, (B // R, 1, 1))
            suffered[name] = suffered[name] + np.einsum("bsi,bsi->b", learner.play(learner.sums.block(lb)), lb)
        cum = np.cumsum(np.concatenate([cum[:, None], L], axis=1), axis=1)[:, -1]
    best = best_in_hindsight(domain, cum)
    out = []
    for name in learners:
        reg = (suffered[name] - np.tile(best, np.size(suffered[name]) // R)).reshape(-1, R)
        for ei, e in enumerate(eps):
            out.append(pd.DataFrame({"scenario": SCENARIO, "row": row, "env": env, "algorithm": name, "N": N, "T": T,
                                     "eps": float(e), "replicate": replicates, "regret": reg[0 if reg.shape[0] == 1 else ei],
                                     "noise_scale": scales[name][0 if name == "nonprivate" else ei],
                                     "eta": np.nan if row == "ftpl" else eta, "sum_sq_dual": sum_sq, "comparator": -best}))
    return pd.concat(out, ignore_index=True)


def grid_mu(p: dict, grid: str, row: str, env: str) -> float:
    """The mean loss of a point: ``mu_fixed`` (default ``mu``) on Algorithm 1's T grid (rows sphere
    and cube) on the fixed-leader sequence, the learner's timescale of its regret rate
    (:class:`FixedOLO`); ``mu`` everywhere else: the N grid (the bound's regime), the stochastic
    sequence (at mu = 0.2 its gap rates sit on their threshold) and FTPL's T grid (its Gaussian
    perturbation, of scale ~ sqrt(T), finds a small mean late: at mu = 0.2 its regret's slope is
    0.69 over [300, 3e4], still in that transient).  Grid ``R`` (Algorithm 1's own T grid of the
    regret rates on the sequences of ``regret_mu``): ``regret_mu[env]``."""
    if grid == "R":
        return float(p["regret_mu"][env])
    if grid == "T" and row != "ftpl" and env == "fixed":
        return float(p.get("mu_fixed", p["mu"]))
    return float(p["mu"])


def simulate_job(params: dict, wildcards: dict, outputs: list[str]) -> None:
    """The workflow's simulate job (``dpregret.pipeline.jobs``): every point of the job's grids for one
    replicate chunk, each written to its own file
    ``results/as17/olo/{row}/{env}/{grid}_N{N}_T{T}/chunk{lo-hi}.parquet`` (row and env read from
    the path: the R grid's job holds every FTRL row of one env).  Grid ``R``: the T grid of
    Algorithm 1's regret rates on a sequence of ``regret_mu`` (eps = ``regret_eps`` only)."""
    import re

    p, seed = params["p"], params["seed"]
    lo, hi = map(int, wildcards["chunk"].split("-"))
    for path in outputs:
        row, env = path.split("/")[-4:-2]
        grid, N, T = re.fullmatch(r"(T|N|R)_N(\d+)_T(\d+)", path.split("/")[-2]).groups()
        eps = {"N": [p["rate_eps"]], "R": [p.get("regret_eps", p["rate_eps"])]}.get(grid, p["eps"])
        df = simulate(row, env, int(N), int(T), eps, range(lo, hi), seed, phases=p["phases"],
                      mu=grid_mu(p, grid, row, env), algorithms=GRID_ALGORITHMS[grid] if row != "ftpl" else None)
        df["grid"] = grid
        df.to_parquet(path, index=False)
        print(path, len(df), "rows")
