"""Agarwal and Singh (ICML 2017), section 3: Table 1 rows 2-4 (full information), and the door
for your own online linear optimisation learner over the sphere and the cube (rows 2-3).

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

Your own learner (``dpregret.core.contract``; the full-information OLO setting of
``dpregret.core.protocols``: ``predict()`` -> ``(R, d)`` points of X, ``update((R, d) linear
losses)``, X the unit l2 ball, ``domain = "ball"``, the sphere row, or the cube ``[-1, 1]^d``,
``domain = "cube"``).  As for the experts (``papers.as17.scenario_experts``), the privacy comes
from the tree: the prefix sums TreeBasedAgg releases are eps-DP (Lemma 3.3 with the row's Laplace
scale, ``noise_scales``), and anything computed from them is post-processing.  So any OLO learner
runs privately when fed the losses reconstructed from the releases, ``L~_t - L~_{t-1}``
(``papers.as17.release_feed``: fed ``L~_0`` before round 1, then the increments); its non-private
twin is the same learner fed the exact losses, its control (the paper's ``fresh_noise``) the same
learner fed the increments of fresh-noise prefix sums.  A learner that is a function of the sum
of what it was fed (lazy projection, FTRL) plays on exactly the tree's prefix sums, the paper's
Algorithm 1 (:func:`paper_ftrl` through the door gives the paper's ``tree`` / ``nonprivate`` /
``fresh_noise`` numbers, to rounding); a learner with per-round state (greedy projected gradient
steps) sees the same private releases, but each reconstructed loss carries the difference of two
releases' noise, not a loss in Y; what it makes of that is what the check measures.
``make(R, d, T, domain)`` needs nothing about eps.  :func:`simulate`'s ``learners`` run on the
paper rows' losses, tree draws and fresh-noise draws (the same streams under the same keys), after
the paper's rows: ``name`` (tree), ``name@nonprivate`` and ``name@fresh_noise``.
:data:`USER_CLAIMS` declares, for the sphere and the cube, the claim that holds for any such
learner: ``AS17-T1-<row>-gap-rate-T`` (the paired privacy gap divided by log2(T)^2 does not grow
with T), decided on the stochastic environment at ``rate_eps`` over the preset's T grid, by the
pipeline's check (``papers.as17.claims_tables.olo_gap_rate_T_claim``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from dpregret.core import validate as V
from dpregret.core.environments.olo import KINDS, StochasticOLO, SwitchingOLO, best_in_hindsight
from dpregret.papers.as17.olo import BallFTRL, CubeFTRL, FTPLLinear, d_r_quadratic, eta_ftrl, eta_twins
from dpregret.papers.as17.prefix_sums import ExactSum, FreshNoise, TreeSum, scaled_draws
from dpregret.core.protocols import build_learner, check_makes, check_play
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.papers.as17.release_feed import play_on_releases, running_sum
from dpregret.papers.as17.olo import ROW_DOMAIN as DOMAIN, d_noise_mc, noise_scales  # noqa: F401 (the scenario's names)

SCENARIO = "as17_olo"
BLOCK_DOUBLES = 2**18  # (rows x rounds x N) per block: memory only, the numbers are the same to rounding
ROWS = ("sphere", "cube", "ftpl")
# What each grid's claims read (FTRL rows): the T grid the rates in T (control: fresh noise),
# the N grid Theorem 3.4's bound in N (control: wrong sensitivity, at rate_eps only).
GRID_ALGORITHMS = {"T": ("nonprivate", "tree", "fresh_noise"), "N": ("nonprivate", "tree", "wrong_sensitivity"),
                   "R": ("nonprivate", "tree", "fresh_noise")}  # R: the regret rates' own T grid (regret_mu)
# The mis-tuned twins (claims_tables' specs, olo.eta_twins) each grid's claims decide, on the tree's own draws:
# the rates in T eta x T^(-1/6) (private and, for the gaps, non-private), the bound in N eta / sqrt(N).
TWIN_ALGORITHMS = {"T": ("tree_eta_T23", "nonprivate_eta_T23"), "N": ("tree_eta_N",), "R": ("tree_eta_T23",)}


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
    """The loss sequence of one point (``env`` in :data:`ENVS`); ``streams(role)`` its streams.

    Every replicate's coordinates carry a sign drawn for it (keyed stream ``signs``, attribute ``signs``,
    ``(R, N)``; :func:`loss_block` applies it): the sequences' leading direction (the all-ones ``u``) becomes a
    random vertex direction ``s * u``, so the comparator does not sit at a guessable point (a learner frozen at
    ``-u / ||u||`` is not optimal by construction).  Ball and cube are symmetric under sign flips, so each
    replicate's sequence is the same problem."""
    if env == "switching":
        source = SwitchingOLO(domain, T, N, min(phases, T))
    elif env == "fixed":
        source = FixedOLO(domain, N, mu)
    else:
        source = StochasticOLO(domain, N, mu, streams("losses"))
    source.signs = np.where(streams("signs").uniform((N,)) < 0.5, -1.0, 1.0)
    return source


def loss_block(source, t0: int, tb: int, R: int) -> np.ndarray:
    """Rounds ``t0 + 1 .. t0 + tb`` of any :func:`loss_source`, ``(R, tb, N)``, with the replicates' signs."""
    if isinstance(source, SwitchingOLO):
        L = switching_block(source, t0, tb, R)
    elif isinstance(source, FixedOLO):
        L = source.block(tb, R)
    else:
        L = source.block(tb)
    signs = getattr(source, "signs", None)
    return L if signs is None else L * signs[:, None, :]


def point_key(row: str, env: str, N: int, T: int, phases: int, mu: float) -> tuple:
    """The key of one point's streams."""
    return (SCENARIO, row, env, N, T, phases if env == "switching" else mu)


def _scales(row: str, N: int, T: int, eps) -> dict[str, np.ndarray]:
    """Every algorithm's noise scale at each eps: the paper's calibration computed once per eps."""
    per_eps = [noise_scales(row, N, T, e) for e in eps]
    return {a: np.array([s[a] for s in per_eps]) for a in per_eps[0]}


def row_learners(row: str, N: int, T: int, eps, replicates, root_seed: int, point: tuple) -> dict:
    """Every algorithm of the row, on its own stream (common random numbers across eps)."""
    R, E, domain = len(replicates), len(eps), DOMAIN[row]

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)
    scales = _scales(row, N, T, eps)
    learners = {}
    if row == "ftpl":
        learners["nonprivate"] = FTPLLinear(domain, TreeSum(T, R, N, scaled_draws(
            streams("nonprivate"), scales["nonprivate"][:1], N, "gaussian")))
        learners["tree"] = FTPLLinear(domain, TreeSum(T, E * R, N, scaled_draws(
            streams("tree"), scales["tree"], N, "gaussian")))
        learners["fresh_noise"] = FTPLLinear(domain, FreshNoise(E * R, N, scaled_draws(
            streams("fresh"), scales["fresh_noise"], N, "gaussian")))
        # the mis-tuned twin (olo.sigma_twin_T23) on the tree's own draws (stream "tree": common random numbers)
        learners["tree_sigma_T23"] = FTPLLinear(domain, TreeSum(T, E * R, N, scaled_draws(
            streams("tree"), scales["tree_sigma_T23"], N, "gaussian")))
    else:
        eta = eta_ftrl(d_r_quadratic(domain, N), T / 2.0)  # S = sum ||l||_2^2 / 2 <= T / 2 (||l||_2 <= 1)
        cls = BallFTRL if domain == "ball" else CubeFTRL
        learners["nonprivate"] = cls(eta, ExactSum(R, N))
        learners["tree"] = cls(eta, TreeSum(T, E * R, N, scaled_draws(streams("tree"), scales["tree"], N)))
        learners["fresh_noise"] = cls(eta,
                                      FreshNoise(E * R, N, scaled_draws(streams("fresh"), scales["fresh_noise"], N)))
        learners["wrong_sensitivity"] = cls(eta,
                                            TreeSum(T, E * R, N,
                                                    scaled_draws(streams("wrong"), scales["wrong_sensitivity"], N)))
        # the mis-tuned twins (olo.eta_twins) on the tree's own draws (stream "tree": common random numbers)
        etas = eta_twins(row, N, T)
        learners["nonprivate_eta_T23"] = cls(etas["nonprivate_eta_T23"], ExactSum(R, N))
        for a in ("tree_eta_T23", "tree_eta_N"):
            learners[a] = cls(etas[a], TreeSum(T, E * R, N, scaled_draws(streams("tree"), scales[a], N)))
    return learners


def simulate(row: str, env: str, N: int, T: int, eps: Sequence[float], replicates: Sequence[int], root_seed: int,
             phases: int = 4, mu: float = 0.1, algorithms: Sequence[str] | None = None,
             learners: Mapping[str, Callable] | None = None) -> pd.DataFrame:
    """One (row, env, N, T) point; ``algorithms`` (default: all of the row) picks a subset
    (each keeps its own random stream, so a subset reproduces the same numbers).

    ``learners`` (your own OLO learners, section "Your own learner" below; Algorithm 1's rows
    :data:`DOOR_ROWS` only): after the paper's rows (unchanged), for every ``{name: make}`` its rows
    ``name`` (fed the tree's reconstructed losses), ``name@nonprivate`` (the exact losses; repeated
    at every eps, as the paper's ``nonprivate``) and ``name@fresh_noise`` (fresh-noise prefix sums'
    increments) at each eps, on the same draws.  Columns as the paper's; ``eta`` is NaN for a
    learner's rows, ``noise_scale`` the Laplace scale of the releases it was fed (0 for the exact
    feed)."""
    if row not in ROWS:
        raise ValueError(f"row must be one of {ROWS}, got {row!r}")
    if env not in ENVS:
        raise ValueError(f"env must be one of {ENVS}, got {env!r}")
    learners = check_makes(learners, RESERVED, SIGNATURE)
    if learners and row not in DOOR_ROWS:
        raise ValueError(f"row must be one of {DOOR_ROWS} (Algorithm 1's rows) to run your learners, got {row!r}")
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
    paper = row_learners(row, N, T, eps, replicates, root_seed, point)
    etas = eta_twins(row, N, T) if row != "ftpl" else {}  # as in row_learners
    if algorithms is not None:
        unknown = set(algorithms) - set(paper)
        if unknown or "nonprivate" not in algorithms:
            raise ValueError(f"algorithms must include 'nonprivate' and lie in {tuple(paper)}, got {algorithms!r}")
        paper = {a: paper[a] for a in paper if a in algorithms}
    # blocks of rounds: the learners' inputs (full information, oblivious sequences) do not depend
    # on their plays, so each prefix sum releases a block's estimates at once (prefix_sums *.block;
    # the per-round predict/update path is the reference, tests/papers/as17/test_as17_olo.py)
    suffered = {a: 0.0 for a in paper}
    cum = np.zeros((R, N))
    sum_sq = np.zeros(R)
    block = max(1, min(T, BLOCK_DOUBLES // (E * R * N)))
    for t0 in range(0, T, block):
        tb = min(block, T - t0)
        L = loss_block(source, t0, tb, R)
        sum_sq = np.cumsum(np.concatenate([sum_sq[:, None], 0.5 * np.einsum("rsi,rsi->rs", L, L)], axis=1),
                           axis=1)[:, -1]
        for name, learner in paper.items():
            B = learner.sums.estimate.shape[0]
            lb = L if B == R else np.tile(L, (B // R, 1, 1))
            suffered[name] = suffered[name] + np.einsum("bsi,bsi->b", learner.play(learner.sums.block(lb)), lb)
        cum = np.cumsum(np.concatenate([cum[:, None], L], axis=1), axis=1)[:, -1]
    best = best_in_hindsight(domain, cum)
    out = []
    for name in paper:
        reg = (suffered[name] - np.tile(best, np.size(suffered[name]) // R)).reshape(-1, R)
        for ei, e in enumerate(eps):
            out.append(pd.DataFrame({"scenario": SCENARIO, "row": row, "env": env, "algorithm": name, "N": N, "T": T,
                                     "eps": float(e), "replicate": replicates,
                                     "regret": reg[0 if reg.shape[0] == 1 else ei],
                                     "noise_scale": scales[name][0 if name == "nonprivate" else ei],
                                     "eta": etas.get(name, np.nan), "sum_sq_dual": sum_sq, "comparator": -best}))
    rows = pd.concat(out, ignore_index=True)
    if not learners:
        return rows
    user = user_learner_rows(row, env, N, T, [float(e) for e in eps], replicates, root_seed, phases, mu, learners)
    return pd.concat([rows, user[rows.columns]], ignore_index=True)


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
                      mu=grid_mu(p, grid, row, env),
                      algorithms=GRID_ALGORITHMS[grid] + TWIN_ALGORITHMS[grid] if row != "ftpl" else None)
        df["grid"] = grid
        df.to_parquet(path, index=False)
        print(path, len(df), "rows")


# ---- Your own learner (dpregret.core.contract): the door of Table 1 rows 2-3's post-processing claims ----

# Algorithm 1's rows (Corollary 3.2 items 2-3); FTPL's is not a post-processing claim here
DOOR_ROWS = ("sphere", "cube")
RESERVED = ("nonprivate", "tree", "fresh_noise", "wrong_sensitivity",  # the paper's FTRL rows and their twins
            "tree_eta_T23", "nonprivate_eta_T23", "tree_eta_N")
SIGNATURE = "make(R, d, T, domain)"
SIGNATURE_DOC = ("make(R, d, T, domain) -> an olo learner (dpregret.core.protocols: predict() -> (R, d) points of X, "
                 "update((R, d) linear losses)) for R replicate rows, dimension d, horizon T and X the unit l2 ball "
                 "(domain 'ball') or the cube [-1, 1]^d (domain 'cube'); the wrapper feeds it the increments of the "
                 "tree's private prefix sums (no eps needed)")
BLOCK = 4096  # rounds of losses and releases made at once (speed only: the same draws)
DOMAIN_TOL = 1e-9  # a play may exceed X by this much (rounding of a projection)


def point_streams(row: str, env: str, N: int, T: int, replicates: Sequence[int], root_seed: int, phases: int,
                  mu: float):
    """(loss source, tree streams, fresh-noise streams) of one point: the streams of
    :func:`simulate`'s paper rows under the same keys, so the same draws."""
    point = point_key(row, env, N, T, phases, mu)

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)
    source = loss_source(DOMAIN[row], env, N, T, phases, mu, streams)
    return source, streams("tree"), streams("fresh")


def check_olo_play(x: np.ndarray, d: int, domain: str) -> None:
    """``check_play("olo", ...)`` (finite) and every point of ``x`` (shape ``(..., d)``: rounds and
    replicates) in X: ``||x||_2 <= 1`` (ball) or ``||x||_inf <= 1`` (cube), up to :data:`DOMAIN_TOL`."""
    x = np.asarray(x, dtype=float).reshape(-1, d)
    check_play("olo", x, x.shape[0], d)
    size = np.linalg.norm(x, axis=-1) if domain == "ball" else np.abs(x).max(axis=-1)
    if np.any(size > 1.0 + DOMAIN_TOL):
        what = "unit l2 ball" if domain == "ball" else "cube [-1, 1]^d"
        norm = "||x||_2" if domain == "ball" else "||x||_inf"
        raise ValueError(f"an olo learner's points must lie in X, the {what}; played {norm} = {float(size.max()):.6g}")


def build_user_learner(make: Callable, name: str, R: int, d: int, T: int, domain: str, built: list):
    """``make(R, d, T, domain)``, checked (``protocols.build_learner``)."""
    return build_learner(make, name, (R, d, T, domain), SIGNATURE_DOC, "losses", built)


def user_learner_rows(row, env, N, T, eps, replicates, root_seed, phases, mu, learners) -> pd.DataFrame:
    """The rows of the user's learners at one (row, T): each fed the paper's tree and fresh-noise
    releases on the paper's draws."""
    R = len(replicates)
    domain = DOMAIN[row]
    source, tree_streams, fresh_streams = point_streams(row, env, N, T, replicates, root_seed, phases, mu)
    scales = [noise_scales(row, N, T, e) for e in eps]  # the paper's calibration of each row
    sc_t = np.array([s["tree"] for s in scales])
    sc_f = np.array([s["fresh_noise"] for s in scales])
    acc = {"cum": np.zeros((R, N)), "sum_sq": np.zeros(R)}

    def blocks():
        for t0 in range(0, T, BLOCK):
            tb = min(BLOCK, T - t0)
            L = loss_block(source, t0, tb, R)
            # as the paper's rows: the running sums, sequentially (the same numbers for any block size)
            acc["sum_sq"] = running_sum(acc["sum_sq"], 0.5 * np.einsum("rsi,rsi->rs", L, L))
            acc["cum"] = running_sum(acc["cum"], L)
            yield t0, L

    runs = play_on_releases(lambda make, name, built: build_user_learner(make, name, R, N, T, domain, built),
                            learners, R, N, T, eps, scaled_draws(tree_streams, sc_t, N),
                            scaled_draws(fresh_streams, sc_f, N), blocks(), "olo",
                            lambda plays: check_olo_play(plays, N, domain))  # finite and in X
    cum, sum_sq = acc["cum"], acc["sum_sq"]
    best = best_in_hindsight(domain, cum)
    out = []
    for u in runs:
        for k, e in enumerate(eps):
            if u.role != "nonprivate" and e != u.eps:
                continue
            lam = {"nonprivate": 0.0, "tree": sc_t[k], "fresh_noise": sc_f[k]}[u.role]
            out.append(pd.DataFrame({
                "scenario": SCENARIO, "row": row, "env": env,
                "algorithm": u.name if u.role == "tree" else f"{u.name}@{u.role}", "N": N, "T": T, "eps": e,
                "replicate": replicates, "regret": u.suffered - best, "noise_scale": float(lam), "eta": np.nan,
                "sum_sq_dual": sum_sq, "comparator": -best}))
    return pd.concat(out, ignore_index=True)


USER_ENV = "stochastic"
PAPER_TABLE = "results/as17/olo/runs.parquet"  # the pipeline's table of the paper's rows (rule as17_tables_merge)


def _user_claim(row: str):
    """Corollary 3.2's additive privacy gap over the ``row`` (``AS17-T1-<row>-gap-rate-T``) for any
    OLO learner fed the tree's reconstructed losses (post-processing of the eps-DP releases), paired
    with the same learner fed the exact losses; control: the same learner on fresh-noise prefix sums.
    Points: the preset's T grid ``p["T"]`` at ``rate_eps`` on the stochastic environment (the
    pipeline decides the paper's claim per environment; the stochastic one is the environment the
    other AS17 user claims use).  The rows carry ``grid = "T"`` (the pipeline's T grid)."""
    from dpregret.core.contract import PaperOnDoor, UserClaim, in_order

    if row not in DOOR_ROWS:
        raise ValueError(f"row must be one of {DOOR_ROWS}, got {row!r}")

    def simulate_point(p, point, reps, seed, learners):
        df = simulate(row, USER_ENV, int(p["N"]), int(point), [p["rate_eps"]], reps, seed, phases=p["phases"],
                      mu=grid_mu(p, "T", row, USER_ENV), algorithms=GRID_ALGORITHMS["T"], learners=learners)
        df["grid"] = "T"
        return df

    def decide(runs, p, tol, alpha, rng_for, name):
        from dpregret.papers.as17.claims_tables import olo_gap_rate_T_claim
        return olo_gap_rate_T_claim(runs, row, p["rate_eps"], tol, alpha, rng_for, name, env=USER_ENV)

    def user_rows(p, point, reps, seed, learners):  # simulate_point's rows but the paper's (the same draws)
        df = user_learner_rows(row, USER_ENV, int(p["N"]), int(point), [float(p["rate_eps"])], list(reps), seed,
                               p["phases"],
                               p["mu"], check_makes(learners, RESERVED, SIGNATURE))
        df["grid"] = "T"
        return df

    def paper_rows(tables, p, point):  # simulate_point's paper rows: the pipeline's T grid, at rate_eps
        t = tables[PAPER_TABLE]
        keep = ((t.row == row) & (t.env == USER_ENV) & (t.grid == "T") & (t.N == int(p["N"])) & (t["T"] == int(point))
                & (t.eps == float(p["rate_eps"])) & t.algorithm.isin(GRID_ALGORITHMS["T"]))
        return in_order(t[keep], "algorithm", GRID_ALGORITHMS["T"], "replicate")

    domain = DOMAIN[row]
    what = ("unit l2 ball, losses in the unit l2 ball" if domain == "ball"
            else "cube [-1, 1]^d, losses in the unit l1 ball")
    lam = "2 sqrt(d)" if domain == "ball" else "2"
    return UserClaim(
        f"AS17-T1-{row}-gap-rate-T", SCENARIO, "olo", SIGNATURE,
        f"your learner (domain={domain!r}: the {what}) fed the losses reconstructed from TreeBasedAgg's eps-DP prefix "
        f"sums (L~_t - L~_{{t-1}}, lambda = {lam} (floor(log2 T) + 1) / eps, the paper's draws), gap paired with it "
        "fed the exact losses, on the stochastic sequence at rate_eps; control: your learner fed fresh-noise prefix "
        "sums (advanced composition, no tree)",
        "tree", f"paper (Algorithm 1: FTRL with R = ||x||^2 on TreeBasedAgg, {row})", RESERVED,
        lambda p: [int(t) for t in p["T"]], simulate_point, decide, env=USER_ENV, user_rows=user_rows,
        paper_tables=(PAPER_TABLE,), paper_rows=paper_rows,
        paper_on_door=PaperOnDoor(lambda p, point, reps, seed: paper_ftrl,
                                  (("", "tree"), ("@nonprivate", "nonprivate"), ("@fresh_noise", "fresh_noise")),
                                  ("row", "env", "N", "T", "eps", "replicate", "regret", "sum_sq_dual", "comparator",
                                   "noise_scale"), 1e-12))


def paper_ftrl(R: int, d: int, T: int, domain: str):
    """The paper's learner in this signature: Algorithm 1 (FTRL with R = ||x||^2 and the scenario's
    eta) on ``domain``, reading the running sum of what it is fed."""
    return (BallFTRL if domain == "ball" else CubeFTRL)(eta_ftrl(d_r_quadratic(domain, d), T / 2.0), ExactSum(R, d))


# Corollary 3.2's additive gap holds for any post-processing of the tree's releases (dpregret.core.contract)
USER_CLAIMS = tuple(_user_claim(r) for r in DOOR_ROWS)
