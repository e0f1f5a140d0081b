"""Your own online linear optimisation learner beside Agarwal and Singh's Algorithm 1 over the
sphere and the cube (ICML 2017, section 3, Table 1 rows 2-3, Corollary 3.2 items 2-3): the
full-information OLO setting (``dpregret.core.protocols``: ``predict()`` -> ``(R, d)`` points of X,
``update((R, d) linear losses)``), X the unit l2 ball (``domain = "ball"``, the sphere row) or
the cube ``[-1, 1]^d`` (``domain = "cube"``).

As for the experts (``papers.as17.user_experts``), the privacy comes from the tree: the
prefix sums ``L~_0, ..., L~_T`` TreeBasedAgg releases are eps-DP (Lemma 3.3 with the row's
Laplace scale ``lambda = diam_1(Y) (floor(log2 T) + 1) / eps``,
``papers.as17.olo.laplace_scale_cor3_2``), and anything computed from them is post-processing.  So
any OLO learner runs privately when fed the losses *reconstructed from the releases*,
``L~_t - L~_{t-1}``; its non-private twin is the same learner fed the exact losses ``l_t``, its
control (the paper's ``fresh_noise``) the same learner fed the increments of fresh-noise prefix
sums (Laplace on every release, no tree, advanced composition over the T releases:
``calibration.fresh_noise_lambda``, ~ sqrt(T)/eps).  The scales are the paper rows'
(``as17_olo.noise_scales``).

The protocol, for each of the three feeds (``released_0`` is ``L~_0``, the tree's initial
release of K noise draws; ``0`` for the exact feed; the fresh-noise sums' first release for the
control):

    learner.update(released_0)                      # before round 1
    for t = 1..T:  x_t = learner.predict()          # (R, d) in X, checked
                   suffer <x_t, l_t>
                   learner.update(released_t - released_{t-1})

so a learner that is a function of the sum of what it was fed (lazy projection, FTRL) plays on
exactly the tree's prefix sums ``L~_{t-1}``: the paper's Algorithm 1 (a test: the paper's
BallFTRL / CubeFTRL through this path give the paper's ``tree`` / ``nonprivate`` /
``fresh_noise`` numbers, to rounding).  A learner with per-round state (greedy projected
gradient steps, a step size that reads the losses) sees the same private releases -- still
private -- but each reconstructed loss carries the difference of two releases' noise, of scale
lambda sqrt(log T) per coordinate, not a loss in Y; what it makes of that is what the check
measures.  ``make(R, d, T, domain)`` needs nothing about eps: the wrapper adds the noise.

The losses, tree draws and fresh-noise draws are the paper rows' (``as17_olo.simulate``: the
same streams under the same keys), so each user row is paired with the paper's on the same draws
(common random numbers); :func:`simulate` returns the paper's rows unchanged and then, for every
user learner ``name`` and eps, rows ``name`` (tree), ``name@nonprivate`` and
``name@fresh_noise``.  :data:`USER_CLAIMS` declares, for the sphere and the cube, the claim that
holds for any such learner: ``AS17-T1-<row>-gap-rate-T`` (the paired privacy gap divided by
log2(T)^2 does not grow with T), decided on the stochastic environment at ``rate_eps`` over the
preset's T grid, by the pipeline's check (``papers.as17.claims_tables.olo_gap_rate_T_claim``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from dpregret.core import _validate as V
from dpregret.core.environments.olo import best_in_hindsight
from dpregret.papers.as17.prefix_sums import scaled_draws
from dpregret.core.protocols import build_learner, check_makes, check_play
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.papers.as17 import scenario_olo as X
from dpregret.papers.as17.user_experts import running_sum, play_on_releases  # the same feed in both full-information settings

SCENARIO = X.SCENARIO
ROWS = ("sphere", "cube")  # Algorithm 1's rows (Corollary 3.2 items 2-3); FTPL's is not a post-processing claim here
ROLES = ("nonprivate", "fresh_noise")  # a user learner ``name``'s twin and control rows: ``name@<role>``
RESERVED = ("nonprivate", "tree", "fresh_noise", "wrong_sensitivity")  # the paper's FTRL rows
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
    ``as17_olo.simulate`` under the same keys, so the same draws."""
    point = X.point_key(row, env, N, T, phases, mu)

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)
    source = X.loss_source(X.DOMAIN[row], env, N, T, phases, mu, streams)
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


def simulate(row: str, env: str, N: int, T: int, eps: Sequence[float], replicates: Sequence[int], root_seed: int,
             phases: int = 4, mu: float = 0.1, algorithms: Sequence[str] | None = None,
             learners: Mapping[str, Callable] | None = None) -> pd.DataFrame:
    """The paper's rows (``as17_olo.simulate`` with ``algorithms``, unchanged) and, for every
    ``{name: make}`` in ``learners``, its rows ``name`` (fed the tree's reconstructed losses),
    ``name@nonprivate`` (the exact losses; repeated at every eps, as the paper's ``nonprivate``) and
    ``name@fresh_noise`` (fresh-noise prefix sums' increments) at each eps, on the same draws.
    Columns as the paper's; ``eta`` is NaN for a user's rows, ``noise_scale`` the Laplace scale of
    the releases it was fed (0 for the exact feed)."""
    if row not in ROWS:
        raise ValueError(f"row must be one of {ROWS} (Algorithm 1's rows), got {row!r}")
    if env not in X.ENVS:
        raise ValueError(f"env must be one of {X.ENVS}, got {env!r}")
    learners = check_makes(learners, RESERVED, SIGNATURE)
    paper = X.simulate(row, env, N, T, eps, replicates, root_seed, phases=phases, mu=mu, algorithms=algorithms)
    if not learners:
        return paper
    user = user_learner_rows(row, env, V.integer("N", N), V.integer("T", T), [float(e) for e in eps], list(replicates),
                             root_seed, phases, mu, learners)
    return pd.concat([paper, user[paper.columns]], ignore_index=True)


def user_learner_rows(row, env, N, T, eps, replicates, root_seed, phases, mu, learners) -> pd.DataFrame:
    """The rows of the user's learners at one (row, T): each fed the paper's tree and fresh-noise
    releases on the paper's draws."""
    R = len(replicates)
    domain = X.DOMAIN[row]
    source, tree_streams, fresh_streams = point_streams(row, env, N, T, replicates, root_seed, phases, mu)
    scales = [X.noise_scales(row, N, T, e) for e in eps]  # the paper's calibration of each row
    sc_t = np.array([s["tree"] for s in scales])
    sc_f = np.array([s["fresh_noise"] for s in scales])
    acc = {"cum": np.zeros((R, N)), "sum_sq": np.zeros(R)}

    def blocks():
        for t0 in range(0, T, BLOCK):
            tb = min(BLOCK, T - t0)
            L = X.loss_block(source, t0, tb, R)
            # as as17_olo.simulate: the running sums, sequentially (the same numbers for any block size)
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

    if row not in ROWS:
        raise ValueError(f"row must be one of {ROWS}, got {row!r}")

    def simulate_point(p, point, reps, seed, learners):
        df = simulate(row, USER_ENV, int(p["N"]), int(point), [p["rate_eps"]], reps, seed, phases=p["phases"],
                      mu=X.grid_mu(p, "T", row, USER_ENV), algorithms=X.GRID_ALGORITHMS["T"], learners=learners)
        df["grid"] = "T"
        return df

    def decide(runs, p, tol, alpha, rng_for, name):
        from dpregret.papers.as17.claims_tables import olo_gap_rate_T_claim
        return olo_gap_rate_T_claim(runs, row, p["rate_eps"], tol, alpha, rng_for, name, env=USER_ENV)

    def user_rows(p, point, reps, seed, learners):  # simulate_point's rows but the paper's (the same draws)
        df = user_learner_rows(row, USER_ENV, int(p["N"]), int(point), [float(p["rate_eps"])], list(reps), seed, p["phases"],
                               p["mu"], check_makes(learners, RESERVED, SIGNATURE))
        df["grid"] = "T"
        return df

    def paper_rows(tables, p, point):  # simulate_point's paper rows: the pipeline's T grid, at rate_eps
        t = tables[PAPER_TABLE]
        keep = ((t.row == row) & (t.env == USER_ENV) & (t.grid == "T") & (t.N == int(p["N"])) & (t["T"] == int(point))
                & (t.eps == float(p["rate_eps"])) & t.algorithm.isin(X.GRID_ALGORITHMS["T"]))
        return in_order(t[keep], "algorithm", X.GRID_ALGORITHMS["T"], "replicate")

    domain = X.DOMAIN[row]
    what = "unit l2 ball, losses in the unit l2 ball" if domain == "ball" else "cube [-1, 1]^d, losses in the unit l1 ball"
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
    from dpregret.papers.as17.olo import BallFTRL, CubeFTRL, d_r_quadratic, eta_ftrl
    from dpregret.papers.as17.prefix_sums import ExactSum
    return (BallFTRL if domain == "ball" else CubeFTRL)(eta_ftrl(d_r_quadratic(domain, d), T / 2.0), ExactSum(R, d))


# Corollary 3.2's additive gap holds for any post-processing of the tree's releases (dpregret.core.contract)
USER_CLAIMS = tuple(_user_claim(r) for r in ROWS)
