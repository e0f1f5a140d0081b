"""Zhang, Tran, Cutkosky (NeurIPS 2022), the experiments of Sec. 2-5: the runs behind the claims of
``papers.ztc22.claims`` (Remark 5's worst-case rates: ``papers.ztc22.claims_linear``).

Experiments (one tidy table each; one row per algorithm x point x replicate):

- ``rates``: logistic regression on ``data/wdbc.csv`` over the l2 ball, every T of the grid, at
  ``rho_stat`` (the non-private term dominates) and ``rho_priv`` (the privacy term dominates).
  Algorithms: ``o2b`` (Algorithm 1 + projected OGD, Remark 5), ``naive`` (the same learner on
  noised plain gradients), ``nonprivate`` (no noise), ``dpsgd`` (one-pass DP-SGD, same budget)
  and ``frozen_start``, the non-learner control: Algorithm 1 around the learner frozen at its
  start x_0 = 0 (x_t = x_0 whatever the draws, so its rows are computed: :func:`frozen_subopt`).
  Every table carries ``start_subopt`` = L(x_0) - L*: a suboptimality bound at or above it is
  vacuous (the frozen learner meets it).
- ``strongly_convex``: the same data with a ridge term (``mu``), Lemma 7's regularised losses
  and Remark 9's OSD (``o2b_sc``) and ``frozen_start``, at both rho; and the location
  problem (mu = 1, ``d_opt``) at ``rho_priv`` with ``o2b_sc``, its non-private twin
  (``nonprivate_sc``) and the naive conversion with the same learner (``naive_sc``), for the
  privacy-dominated rate of Remark 9, with ``frozen_start`` private and non-private (the learning
  gate's non-learner).
- ``rho_d``: Algorithm 1 and its non-private twin at ``T_rho_d`` over a grid of rho (d = ``d``)
  and a grid of d (rho = ``rho_priv``): the privacy cost's dependence on rho and d (figures;
  see README on why these are not rate claims on a fixed instance).
- ``minimax``: the family of G-Lipschitz stochastic linear losses (``LinearFamily``, signal
  ``c`` on ``c_grid``) at ``T_mm``, over ``rho_grid_mm`` (d = ``d_mm``) and ``d_grid_mm``
  (rho = ``rho_mm``): Algorithm 1, its non-private twin, and two mis-calibrated controls:
  ``rho_squared`` (sigma_t proportional to 1/rho^2, normalised to agree with Algorithm 1 at
  the geometric centre of the rho grid, so that it neither saturates at one end nor vanishes
  into the statistical noise at the other) and ``sqrt_d`` (sigma_t times sqrt(d / d_min):
  equal to Algorithm 1 at the smallest d, never below it); each runs on its own grid only;
  their costs grow as 1/rho^2 (resp. d); and ``frozen_start`` (the non-learner).  The twin,
  which does not depend on rho, is run once per process and d and reused (speed only).
- ``linear_T``: Remark 5 in T on the same family (``LinearFamily``, ``d_lin``), per T of the
  union of ``T_lin_stat`` and ``T_lin_priv``.  On ``T_lin_priv`` at ``rho_lin``: Algorithm 1
  (``o2b``), its non-private twin (``nonprivate``) and the naive conversion (``naive``, the
  control of the privacy rate).  On ``T_lin_stat`` at ``rho_stat``: Algorithm 1 (``o2b_stat``),
  the twin, and Algorithm 1 with a fresh sample at the second point (``fresh_stat``, the
  control of the statistical rate).  The family has no curvature at its worst member, so its
  supremum attains each term of Remark 5 (a fixed instance shows its own curvature instead).
  The paper's Algorithm 1 rows carry Theorem 4's explicit bound per member (``bound_thm4``,
  :func:`thm4_family_bound`); on ``T_lin_priv`` also ``o2b_noise2`` (sigma_t doubled: Theorem 4's
  near miss) and, at both rho, ``frozen_start``.
- ``optimistic``: the location problem (``sigma_G = s``) over a grid of ``sigma_G / G``, at
  ``T_opt``, ``rho_opt``: ``plain`` (Remark 5 OGD), ``optimistic`` (hint g_{t-1} +
  gamma_{t-1}, Theorem 6), ``optimistic_zero_hint`` (hint 0), ``plain_noise2`` (sigma_t
  doubled: Theorem 4's near miss) and ``frozen_start``; at the smallest sigma_G also the
  optimistic learner, hint 0 and the learner frozen at 0 over ``T_opt_grid`` at
  ``rho_opt_rate`` (``*_Tgrid``: Theorem 6's regret rate, with the regret against x* and
  against the best point of W).  ``plain`` and ``frozen_start`` carry Theorem 4's explicit bound.
- ``sensitivity``: least squares and logistic (k) and a linear member of the family (k_sens,
  where eq. (6) is 3/4-tight) at ``T_sens`` with the run-time check of Theorem 3 for eq. (6)
  and three understated sensitivities (``half``, ``G_only``, ``H_only``).
- ``param_free``: section 5.  A member ``c_pf`` of the linear family (G = 1, H = 0, x* on the
  boundary of the ball of radius ``r_pf``, ||x*|| = r_pf), Algorithm 1 with k = 3 around KT x
  OGD (``learners.oco.ParameterFree``, normalised by Theorem 11's bound on ``||gbar_t||``) on
  the regularised losses of Theorem 11, at every T of ``T_pf`` (large enough that the iterate
  leaves 0 and the bound falls below L(x_0) - L*) and every universal constant C of
  ``C_grid_pf`` (the paper leaves the C of Lemmas 22-23 unspecified; the claim is decided at
  the declared ``C_pf``), through the compiled path (``papers.ztc22.o2b_jit.linear_pf_block``).
  Each row carries the measured regularised regret, Theorem 11's bound with it (and with C / 2),
  L(x_0) - L* and max_t ||gbar_t|| / Theorem 11's bound on it (its second part).

Streams: the data key is (experiment, problem, T) and the noise key (experiment, problem, T,
noise role), never the algorithm or rho, so every algorithm of a point sees the same data
and every rho the same standard-normal draws (common random numbers).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dpregret.core.environments.stochastic import LeastSquares, LinearFamily, Location, Logistic, TiledStreams
from dpregret.papers.ztc22 import dpsgd, o2b
from dpregret.papers.ztc22 import bounds as o2b_bounds
from dpregret.core.learners.oco import (Frozen, OptimisticOGD, ParameterFree, ProjectedOGD,
                                        StronglyConvexOSD, ogd_regret_bound)
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.papers.ztc22.claims_linear import linear_T_algs  # the rows' names the claims read

EXPERIMENTS = ("rates", "linear_T", "optimistic", "sensitivity", "strongly_convex", "rho_d", "minimax", "param_free",
               "per_step")


def _streams(seed, reps, *key):
    return ReplicateStreams(seed, stable_key("ztc22", *key), reps)


def _ogd(prob, R, T, k, rho):
    return ProjectedOGD(R, prob.d, prob.r, lambda t: o2b_bounds.thm4_gsq(t, T, k, rho, prob))


# The mis-tuned twins of Remark 5's OGD (the paper's learner with ONE realistic tuning mistake), run on the
# same draws as the paper's learner (same stream keys; the first ``replicates_twin`` replicates):
# - "npstep": the step ignores the privacy term: Ghat_t^2 of Theorem 4's second part at rho = inf (the
#   non-private tuning, G and sigma_G only), so it is too large by up to sqrt(privacy / statistical part);
# - "sumstep": the step's exponent in T one notch off: 2r / sum_s Ghat_s in place of 2r / sqrt(sum_s Ghat_s^2)
#   (a dropped square root: t^-2 in place of t^-3/2 at k = 1).
TWINS = ("npstep", "sumstep")


def twin_ogd(prob, R: int, T: int, k: float, rho: float, kind: str) -> ProjectedOGD:
    """Remark 5's OGD with one tuning mistake (``TWINS``); ``rho`` is the run's."""
    if kind == "npstep":
        return ProjectedOGD(R, prob.d, prob.r, lambda t: o2b_bounds.thm4_gsq(t, T, k, math.inf, prob))
    if kind == "sumstep":
        S = np.cumsum([math.sqrt(o2b_bounds.thm4_gsq(t, T, k, rho, prob)) for t in range(1, T + 1)])
        inc = np.diff(np.r_[0.0, S**2])  # sum_{s<=t} inc_s = (sum_{s<=t} Ghat_s)^2: eta_t = 2r / sum_s Ghat_s
        return ProjectedOGD(R, prob.d, prob.r, lambda t: float(inc[t - 1]))
    raise ValueError(f"twin must be one of {TWINS}, got {kind!r}")


def osd_twin(prob, R: int) -> StronglyConvexOSD:
    """Remark 9's OSD with the weights beta_t forgotten in its strong convexity: mu_t = mu / 2 in place of
    t^k mu / 2 (Lemma 7's regularised loss is beta_t mu / 2-strongly convex): its step 1 / sum_i mu_i is t^k / (k+1)
    times too large (the step's exponent one notch off, t^-1 in place of t^-2 at k = 1)."""
    return StronglyConvexOSD(R, prob.d, prob.r, lambda t: prob.mu / 2)


def twin_reps(p: dict, reps) -> list:
    """The replicates a twin runs on: the first ``replicates_twin`` of ``reps`` (the same draws: streams
    are per replicate)."""
    reps = list(reps)
    return reps[:max(2, min(len(reps), int(p.get("replicates_twin", len(reps)))))]


def explicit_regret(prob, T: int, k: float, rho: float, gsq: list | None = None) -> float:
    """(3/2) D sqrt(sum_t Ghat_t^2): the expected-regret bound of the Remark 5 OGD (``gsq``: Ghat_t^2 at t = 1..T,
    if the caller has them: the same sum)."""
    if gsq is None:
        gsq = (o2b_bounds.thm4_gsq(t, T, k, rho, prob) for t in range(1, T + 1))
    return ogd_regret_bound(prob.D, sum(gsq))


def start_subopt(prob):
    """L(x_0) - L*: the suboptimality of the learners' first iterate x_0 = 0 (every learner here
    starts at the origin): a number, or one per row (member-major) for a family.  It is the trivial
    maximum of a suboptimality bound: the learner frozen at its start (the non-learner control)
    meets any bound above it, so a point whose bound is at or above it is vacuous."""
    if np.ndim(prob.x_star) == 1:
        return float(prob.subopt(np.zeros((1, prob.d)))[0])
    return prob.subopt(np.zeros_like(prob.x_star))


def frozen_subopt(prob, R: int) -> np.ndarray:
    """The suboptimality of Algorithm 1 around the learner frozen at its start (``Frozen`` at
    w_1 = 0, the non-learner control), for R replicates (a family: its rows, member-major): it
    plays 0 at every step, so x_t = 0 whatever the data and noise, and L(x_T) - L* = L(0) - L*
    exactly (computed, not simulated: ``tests/papers/ztc22/test_ztc22.py`` checks it against a run)."""
    s = start_subopt(prob)
    return np.full(R, s) if np.ndim(s) == 0 else np.asarray(s, dtype=float).copy()


def _rows(out: dict, reps, **cols) -> pd.DataFrame:
    df = pd.DataFrame({"replicate": list(reps), **out})
    for k, v in cols.items():
        df[k] = v
    return df


def simulate_rates(p: dict, T: int, reps, seed: int) -> pd.DataFrame:
    prob = Logistic(p["d"], r=p["r"])
    k, R = p["k"], len(reps)
    far = -prob.r * prob.x_star / np.linalg.norm(prob.x_star)
    frames = []
    for rho in (p["rho_stat"], p["rho_priv"]):
        plan = {"o2b": ("tree", "ogd"), "naive": ("naive", "ogd")}
        if rho == p["rho_stat"]:
            plan["nonprivate"] = ("none", "ogd")
        for alg, (conv, lk) in plan.items():
            learner = _ogd(prob, R, T, k, rho)
            run = o2b.run(prob, learner, T, k=k, rho=rho if conv != "none" else math.inf,
                          src=_streams(seed, reps, "rates", "data", T),
                          noise_src=_streams(seed, reps, "rates", "noise", conv, T),
                          checkpoints=[T], conversion=conv)
            reg = run.regret[:, -1]
            frames.append(_rows({"subopt": run.subopt[:, -1], "regret": reg,
                                 "bound_measured": o2b_bounds.bound_thm4(reg, T, k, rho, prob),
                                 "bound_explicit": o2b_bounds.bound_thm4(np.full(R, explicit_regret(prob, T, k, rho)),
                                                                         T, k, rho, prob)},
                                reps, alg=alg, rho=rho if conv != "none" else math.inf))
        run = dpsgd.run_dpsgd(prob, T, rho=rho, src=_streams(seed, reps, "rates", "data", T),
                            noise_src=_streams(seed, reps, "rates", "noise", "dpsgd", T), checkpoints=[T], R=R)
        frames.append(_rows({"subopt": run.subopt[:, -1]}, reps, alg="dpsgd", rho=rho))
        frames.append(_rows({"subopt": frozen_subopt(prob, R), "bound_explicit": o2b_bounds.bound_thm4(
            # the non-learner
            np.full(R, explicit_regret(prob, T, k, rho)), T, k, rho, prob)}, reps, alg="frozen_start", rho=rho))
        if rho == p["rho_priv"] and T == max(p["T"]):  # ZTC-vs-dpsgd's mis-tuned twin (the step ignores privacy)
            tr = twin_reps(p, reps)
            run = o2b.run(prob, twin_ogd(prob, len(tr), T, k, rho, "npstep"), T, k=k, rho=rho,
                          src=_streams(seed, tr, "rates", "data", T),
                          noise_src=_streams(seed, tr, "rates", "noise", "tree", T),
                          checkpoints=[T])
            frames.append(_rows({"subopt": run.subopt[:, -1]}, tr, alg="o2b_npstep", rho=rho))
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["problem"], df["T"], df["d"] = "rates", "logistic", T, prob.d
    df["max_subopt"] = float(prob.subopt(far[None])[0])  # L at the far end of W (reported)
    df["start_subopt"] = start_subopt(prob)  # L(x_0) - L*: a bound at or above it is vacuous
    return df


# ZTC-thm6-adaptive-sigma's runs (``simulate_adaptive``): the optimistic learner, its mis-tuned twin (hint 0), the
# same learner without noise (the measured privacy share), sigma_t x ADAPT_NOISE_FACTOR (the control: a noise floor
# that does not shrink with sigma_G) and the learner frozen at its start (computed)
ADAPT_ALGS = ("adapt_optimistic", "adapt_zero_hint", "adapt_nonprivate", "adapt_noise10", "adapt_frozen")
ADAPT_NOISE_FACTOR = 10.0


def adapt_G(p: dict) -> float:
    """The one Lipschitz constant of every point of the sigma_G grid of ZTC-thm6-adaptive-sigma: the location
    problem's G = r + ||m|| + s at the grid's largest s (a valid G at every smaller s), so that sigma_G varies at
    fixed G (and the tree's sigma_t of eq. (6), which scales with G, is the same at every point)."""
    return 1.0 + 0.5 + max(p["s_adapt"])


def simulate_adaptive(p: dict, s: float, reps, seed: int) -> pd.DataFrame:
    """Section 3's adaptive rate (ZTC-thm6-adaptive-sigma) at one sigma_G = s of ``s_adapt``: the location problem
    (d_opt, r = 1, ||m|| = 0.5) with G fixed at :func:`adapt_G`, T_opt, rho_adapt; rows ``ADAPT_ALGS``, all on the
    same draws (stream keys of their own: ("optimistic_adapt", ..., T), shared by every algorithm)."""
    prob = Location(p["d_opt"], s, r=1.0, m_norm=0.5)
    prob.G = adapt_G(p)
    k, R, T, rho = p["k"], len(reps), p["T_opt"], float(p["rho_adapt"])
    g1 = o2b_bounds.thm4_gsq(1, T, k, rho, prob)
    frames = []
    for alg, hint, conv, factor in (("adapt_optimistic", "last", "tree", 1.0), ("adapt_zero_hint", "zero", "tree", 1.0),
                                    ("adapt_nonprivate", "last", "none", 1.0),
                                    ("adapt_noise10", "last", "tree", ADAPT_NOISE_FACTOR)):
        run = o2b.run(prob, OptimisticOGD(R, prob.d, prob.r, g1, hint=hint), T, k=k,
                      rho=rho if conv != "none" else math.inf,
                      src=_streams(seed, reps, "optimistic_adapt", "data", T),
                      noise_src=_streams(seed, reps, "optimistic_adapt", "noise", T), checkpoints=[T],
                      conversion=conv, noise_factor=factor)
        frames.append(_rows({"subopt": run.subopt[:, -1]}, reps, alg=alg))
    frames.append(_rows({"subopt": frozen_subopt(prob, R)}, reps, alg="adapt_frozen"))
    df = pd.concat(frames, ignore_index=True)
    df["T"], df["rho"], df["G"] = T, rho, prob.G
    df["sigma_G_over_G"] = prob.sigma_G / prob.G
    df["start_subopt"] = start_subopt(prob)
    return df


def simulate_optimistic(p: dict, s: float, reps, seed: int) -> pd.DataFrame:
    frames = []
    if s in [float(v) for v in p.get("s_adapt", [])]:
        frames.append(simulate_adaptive(p, s, reps, seed))
    if s in [float(v) for v in p["s_grid"]]:
        frames.append(_simulate_optimistic(p, s, reps, seed))
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["problem"], df["s"] = "optimistic", "location", s
    return df


def _simulate_optimistic(p: dict, s: float, reps, seed: int) -> pd.DataFrame:
    prob = Location(p["d_opt"], s, r=1.0, m_norm=0.5)
    k, R, T, rho = p["k"], len(reps), p["T_opt"], p["rho_opt"]
    g1 = o2b_bounds.thm4_gsq(1, T, k, rho, prob)
    far = -prob.r * prob.x_star / np.linalg.norm(prob.x_star)
    explicit = o2b_bounds.bound_thm4(np.full(R, explicit_regret(prob, T, k, rho)), T, k, rho, prob)
    frames = []
    for alg, learner in (("plain", _ogd(prob, R, T, k, rho)), ("plain_noise2", _ogd(prob, R, T, k, rho)),
                         ("optimistic", OptimisticOGD(R, prob.d, prob.r, g1)),
                         ("optimistic_zero_hint", OptimisticOGD(R, prob.d, prob.r, g1, hint="zero"))):
        run = o2b.run(prob, learner, T, k=k, rho=rho, src=_streams(seed, reps, "optimistic", "data", T),
                      noise_src=_streams(seed, reps, "optimistic", "noise", T), checkpoints=[T],
                      noise_factor=2.0 if alg == "plain_noise2" else 1.0)
        reg = run.regret[:, -1]
        frames.append(_rows({"subopt": run.subopt[:, -1], "regret": reg, "regret_max": run.extra["regret_max"],
                             "bound_measured": o2b_bounds.bound_thm4(reg, T, k, rho, prob), "bound_explicit": explicit},
                            reps, alg=alg, T=T, rho=rho))
    frames.append(_rows({"subopt": frozen_subopt(prob, R), "bound_explicit": explicit}, reps, alg="frozen_start", T=T,
                        rho=rho))  # the non-learner of Theorem 4's location points
    if s == min(p["s_grid"]):  # Theorem 6's regret rate at rho_opt_rate: the optimistic learner, hint 0, frozen
        rho6 = p.get("rho_opt_rate", rho)
        for T2 in p["T_opt_grid"]:
            g1 = o2b_bounds.thm4_gsq(1, T2, k, rho6, prob)
            for alg, make in (("optimistic_Tgrid", lambda: OptimisticOGD(R, prob.d, prob.r, g1, hint="last")),
                              ("optimistic_zero_hint_Tgrid", lambda: OptimisticOGD(R, prob.d, prob.r, g1, hint="zero")),
                              ("frozen_start_Tgrid", lambda: Frozen(R, np.zeros(prob.d)))):
                run = o2b.run(prob, make(), T2, k=k, rho=rho6, src=_streams(seed, reps, "optimistic", "data", T2),
                              noise_src=_streams(seed, reps, "optimistic", "noise", T2), checkpoints=[T2])
                frames.append(_rows({"subopt": run.subopt[:, -1], "regret": run.regret[:, -1],
                                     "regret_max": run.extra["regret_max"], "hint_err_sq": run.extra["hint_err_sq"],
                                     "loss_sq": run.extra["loss_sq"]},
                                    reps, alg=alg, T=T2, rho=rho6))
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["problem"], df["s"] = "optimistic", "location", s
    df["sigma_G_over_G"] = prob.sigma_G / prob.G
    df["max_subopt"] = float(prob.subopt(far[None])[0])
    df["start_subopt"] = start_subopt(prob)
    df["beta_sum"] = (df["T"] * (df["T"] + 1) / 2 if k == 1
                      else [sum(t**k for t in range(1, int(T2) + 1)) for T2 in df["T"]])
    return df


SENSITIVITY_PROBLEMS = ("least_squares", "logistic", "linear")


def simulate_sensitivity(p: dict, problem: str, reps, seed: int) -> pd.DataFrame:
    """Theorem 3's run-time check.  ``linear`` is where eq. (6) is as tight as it can be: with
    H = 0 and antipodal replacements, ||delta_t - delta'_t|| = (t^k - (t-1)^k) 2G, i.e. a ratio
    (t^k - (t-1)^k) / ((k+1) t^(k-1)) to Delta_t, which tends to k / (k+1) (3/4 at k_sens = 3;
    at k = 1 eq. (6) is 2x loose for every convex smooth loss)."""
    if problem not in SENSITIVITY_PROBLEMS:
        raise ValueError(f"problem must be one of {SENSITIVITY_PROBLEMS}, got {problem!r}")
    R, T, rho = len(reps), p["T_sens"], p["rho_priv"]
    k = p["k_sens"] if problem == "linear" else p["k"]
    prob = {"least_squares": lambda: LeastSquares(p["d_sens"], 0.3), "logistic": lambda: Logistic(p["d"], r=p["r"]),
            "linear": lambda: LinearFamily(p["d_sens"], [min(p["c_grid"])], R)}[problem]()
    frames = []
    for sens in o2b.SENSITIVITIES:
        run = o2b.run(prob, _ogd(prob, R, T, k, rho), T, k=k, rho=rho,
                      src=_streams(seed, reps, "sensitivity", problem, "data", T),
                      noise_src=_streams(seed, reps, "sensitivity", problem, "noise", T), checkpoints=[T],
                      sensitivity=sens, check_sensitivity=True)
        frames.append(_rows({"sens_ratio": run.sens_ratio, "subopt": run.subopt[:, -1]}, reps, alg=sens))
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["problem"], df["T"], df["rho"], df["k"] = "sensitivity", problem, T, rho, k
    return df


def simulate_strongly_convex(p: dict, T: int, reps, seed: int) -> pd.DataFrame:
    prob = Logistic(p["d"], r=p["r"], mu=p["mu"])
    k, R = p["k"], len(reps)
    far = -prob.r * prob.x_star / np.linalg.norm(prob.x_star)
    frames = []
    for rho in (p["rho_stat"], p["rho_priv"]):
        explicit = o2b_bounds.bound_thm8(np.full(R, o2b_bounds.osd_regret_bound_thm8(T, k, rho, prob)), T, k, rho, prob)
        plan = [("o2b_sc", "tree")] + ([("fresh_sc", "fresh")] if rho == p["rho_stat"] else [])
        for alg, conv in plan:  # ridge logistic
            learner = StronglyConvexOSD(R, prob.d, prob.r, lambda t: t**k * prob.mu / 2)
            run = o2b.run(prob, learner, T, k=k, rho=rho, src=_streams(seed, reps, "sc", "data", T),
                          noise_src=_streams(seed, reps, "sc", "noise", "tree", T), checkpoints=[T], conversion=conv,
                          reg="sc")
            reg = run.regret[:, -1]
            frames.append(_rows({"subopt": run.subopt[:, -1], "regret": reg,
                                 "bound_measured": o2b_bounds.bound_thm8(reg, T, k, rho, prob),
                                 "bound_explicit": explicit},
                                reps, alg=alg, rho=rho))
        frames.append(_rows({"subopt": frozen_subopt(prob, R), "bound_explicit": explicit}, reps, alg="frozen_start",
                            rho=rho))  # the non-learner
        if rho == p["rho_stat"]:  # ZTC-rem9-rate-T-stat's mis-tuned twin (first replicates_twin replicates, same draws)
            tr = twin_reps(p, reps)
            run = o2b.run(prob, osd_twin(prob, len(tr)), T, k=k, rho=rho, src=_streams(seed, tr, "sc", "data", T),
                          noise_src=_streams(seed, tr, "sc", "noise", "tree", T), checkpoints=[T], reg="sc")
            frames.append(_rows({"subopt": run.subopt[:, -1]}, tr, alg="o2b_sc_unweighted", rho=rho))
    df = pd.concat(frames, ignore_index=True)
    df["problem"], df["d"], df["mu"] = "ridge_logistic", prob.d, prob.mu
    df["max_subopt"] = float(prob.subopt(far[None])[0])
    df["start_subopt"] = start_subopt(prob)
    loc = Location(p["d_opt"], 0.5, r=1.0, m_norm=0.5)
    far = -loc.r * loc.x_star / np.linalg.norm(loc.x_star)
    rho = p["rho_priv"]
    explicit = o2b_bounds.bound_thm8(np.full(R, o2b_bounds.osd_regret_bound_thm8(T, k, rho, loc)), T, k, rho, loc)
    frames = []
    for alg, conv, factor in (("o2b_sc", "tree", 1.0), ("nonprivate_sc", "none", 1.0), ("naive_sc", "naive", 1.0),
                              ("o2b_sc_noise2", "tree", 2.0)):
        run = o2b.run(loc, StronglyConvexOSD(R, loc.d, loc.r, lambda t: t**k * loc.mu / 2), T, k=k,
                      rho=rho if conv != "none" else math.inf, src=_streams(seed, reps, "sc_loc", "data", T),
                      noise_src=_streams(seed, reps, "sc_loc", "noise", conv, T), checkpoints=[T], conversion=conv,
                      reg="sc", noise_factor=factor)
        frames.append(_rows({"subopt": run.subopt[:, -1], "regret": run.regret[:, -1], "bound_explicit": explicit},
                            reps, alg=alg, rho=rho))
    tr = twin_reps(p, reps)  # ZTC-rem9-rate-T-priv's mis-tuned twin, private and its own non-private run
    for alg, conv in (("o2b_sc_unweighted", "tree"), ("nonprivate_sc_unweighted", "none")):
        run = o2b.run(loc, osd_twin(loc, len(tr)), T, k=k, rho=rho if conv != "none" else math.inf,
                      src=_streams(seed, tr, "sc_loc", "data", T),
                      noise_src=_streams(seed, tr, "sc_loc", "noise", conv, T),
                      checkpoints=[T], conversion=conv, reg="sc")
        frames.append(_rows({"subopt": run.subopt[:, -1]}, tr, alg=alg, rho=rho))
    frames.append(_rows({"subopt": frozen_subopt(loc, R), "bound_explicit": explicit}, reps,
                        alg="frozen_start", rho=rho))
    frames.append(_rows({"subopt": frozen_subopt(loc, R)}, reps, alg="frozen_start_nonprivate", rho=math.inf))
    lf = pd.concat(frames, ignore_index=True)
    lf["problem"], lf["d"], lf["mu"] = "location", loc.d, loc.mu
    lf["max_subopt"] = float(loc.subopt(far[None])[0])
    lf["start_subopt"] = start_subopt(loc)
    df = pd.concat([df, lf], ignore_index=True)
    df["experiment"], df["T"] = "strongly_convex", T
    return df


def simulate_rho_d(p: dict, point: str, reps, seed: int) -> pd.DataFrame:
    """``point`` is ``rho<value>`` (d = p["d"]) or ``d<value>`` (rho = p["rho_priv"])."""
    grid, val = ("rho", float(point[3:])) if point.startswith("rho") else ("d", int(point[1:]))
    d, rho = (p["d"], val) if grid == "rho" else (val, p["rho_priv"])
    prob = Logistic(d, r=p["r"])
    k, R, T = p["k"], len(reps), p["T_rho_d"]
    frames = []
    for alg, conv in (("o2b", "tree"), ("nonprivate", "none")):
        run = o2b.run(prob, _ogd(prob, R, T, k, rho if conv == "tree" else math.inf), T, k=k,
                      rho=rho if conv == "tree" else math.inf, src=_streams(seed, reps, "rho_d", "data", d, T),
                      noise_src=_streams(seed, reps, "rho_d", "noise", d, T), checkpoints=[T], conversion=conv)
        frames.append(_rows({"subopt": run.subopt[:, -1]}, reps, alg=alg))
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["problem"], df["T"], df["rho"], df["d"], df["grid"] = "rho_d", "logistic", T, rho, d, grid
    return df


def simulate_linear_T(p: dict, T: int, reps, seed: int, learners: dict | None = None,
                      rates: tuple[str, ...] = ("priv", "stat"), paper: bool = True) -> pd.DataFrame:
    """One T of ``linear_T`` (module docstring): every member of the family, every replicate.

    ``learners``: ``{name: make}`` of further OCO learners (``dpregret.core.protocols``, setting
    ``oco``) to run beside Remark 5's OGD inside the same conversions on the same draws;
    ``make(R, d, r)`` builds one for ``R`` rows on the ball of radius r.  Their rows are named
    by :func:`linear_T_algs`; the paper's rows are unchanged.  ``rates`` limits the runs to those
    of the privacy (``"priv"``) and/or statistical (``"stat"``) rate; ``paper=False`` leaves the
    paper's rows out (the learners' rows are the same: each run has its own draws)."""
    R, k, d, cg = len(reps), p["k"], p["d_lin"], list(p["c_grid"])
    prob = LinearFamily(d, cg, R)

    gsq = _Gsq(T, k, prob)
    paper_ogd = gsq.ogd
    if learners:  # names and makes checked before anything runs (dpregret.core.protocols)
        from dpregret.core.protocols import check_makes

        learners = check_makes(learners, DOOR_RESERVED, "make(R, d, r)")
    makers = {**({"o2b": None} if paper else {}), **(learners or {})}
    frames, built, pending = [], [], []  # pending: the paper's runs, (frame index, o2b.run kwargs, rows of the run)

    def streams(rr):
        return dict(src=TiledStreams(seed, stable_key("ztc22", "linear_T", "data", d, T), rr, len(cg)),
                    noise_src=TiledStreams(seed, stable_key("ztc22", "linear_T", "noise", d, T), rr, len(cg)))

    def later(call, rows):  # a paper's run, run with the others on shared draws (o2b.run_shared; speed only)
        frames.append(None)
        pending.append((len(frames) - 1, call, rows))
    if paper and T in p["T_lin_priv"] and "priv" in rates:  # Theorem 4's near miss: sigma_t doubled (the paper's OGD)
        later(dict(problem=prob, learner=paper_ogd(p["rho_lin"])(R * len(cg), d, prob.r), T=T, k=k, rho=p["rho_lin"],
                   **streams(reps), checkpoints=[T], noise_factor=2.0, regret=False),
              {"replicate": np.tile(list(reps), len(cg)), "c": np.repeat(cg, R), "alg": "o2b_noise2",
               "rho": p["rho_lin"], "bound_thm4": thm4_family_bound(prob, T, k, p["rho_lin"], R, gsq(p["rho_lin"]))})
    if paper:  # the mis-tuned twins (first replicates_twin replicates, the same draws): the step ignoring the
        # privacy term at rho_lin (ZTC-rem5-rate-T-priv, ZTC-thm4-bound), the step one notch off at rho_stat
        # (ZTC-rem5-rate-T-stat)
        tr = twin_reps(p, reps)
        ptw = LinearFamily(d, cg, len(tr))
        for alg, kind, rho, on in (("o2b_npstep", "npstep", p["rho_lin"], T in p["T_lin_priv"] and "priv" in rates),
                                   ("o2b_stat_sumstep", "sumstep", p["rho_stat"],
                                    T in p["T_lin_stat"] and "stat" in rates)):
            if on:
                later(dict(problem=ptw, learner=twin_ogd(ptw, len(tr) * len(cg), T, k, rho, kind), T=T, k=k, rho=rho,
                           **streams(tr), checkpoints=[T], regret=False),
                      {"replicate": np.tile(tr, len(cg)), "c": np.repeat(cg, len(tr)), "alg": alg, "rho": rho,
                       "bound_thm4": thm4_family_bound(prob, T, k, rho, len(tr), gsq(rho))})
    for rho in ([p["rho_lin"]] if paper and T in p["T_lin_priv"] and "priv" in rates else []) + (
            [p["rho_stat"]] if paper and T in p["T_lin_stat"] and "stat" in rates else []):  # the non-learner
        frames.append(pd.DataFrame({"replicate": np.tile(list(reps), len(cg)), "c": np.repeat(cg, R),
                                    "subopt": frozen_subopt(prob, R * len(cg)), "alg": "frozen_start", "rho": rho,
                                    "bound_thm4": thm4_family_bound(prob, T, k, rho, R, gsq(rho))}))
    for name, make in makers.items():
        a = linear_T_algs(name)
        plan = {}
        if T in p["T_lin_priv"] and "priv" in rates:
            plan.update({a["priv"]: ("tree", p["rho_lin"]), a["naive"]: ("naive", p["rho_lin"])})
        if T in p["T_lin_stat"] and "stat" in rates:
            plan.update({a["stat"]: ("tree", p["rho_stat"]), a["fresh"]: ("fresh", p["rho_stat"])})
        plan[a["twin"]] = ("none", math.inf)
        for alg, (conv, rho) in plan.items():
            bnd = thm4_family_bound(prob, T, k, rho, R, gsq(rho)) if make is None and conv == "tree" else np.nan
            rows = {"replicate": np.tile(list(reps), len(cg)), "c": np.repeat(cg, R), "alg": alg, "rho": rho,
                    "bound_thm4": bnd}
            if make is None:
                later(dict(problem=prob, learner=paper_ogd(rho)(R * len(cg), d, prob.r), T=T, k=k, rho=rho,
                           **streams(reps), checkpoints=[T], conversion=conv, regret=False), rows)
                continue
            from dpregret.core.protocols import build_learner

            learner = build_learner(make, name, (R * len(cg), d, prob.r), "make(R, d, r)", "g", built)
            run = o2b.run(prob, learner, T, k=k, rho=rho, **streams(reps), checkpoints=[T], conversion=conv)
            frames.append(_linear_rows(rows, run))
    for (i, _, rows), run in zip(pending, o2b.run_shared([call for _, call, _ in pending])):
        frames[i] = _linear_rows(rows, run)
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["problem"], df["T"], df["d"] = "linear_T", "linear_family", T, d
    df["r"] = prob.r
    df["start_subopt"] = df["r"] * df["c"]  # L(x_0) - L* = r c
    return df


class _Gsq:
    """Theorem 4's Ghat_t^2 at t = 1..T of one T and problem, per rho, computed once (``simulate_linear_T``: the
    paper's OGD reads them, and its explicit bound sums them)."""

    def __init__(self, T: int, k: float, prob):
        self.T, self.k, self.prob, self.tables = T, k, prob, {}

    def __call__(self, rho: float) -> list:
        if rho not in self.tables:
            self.tables[rho] = [o2b_bounds.thm4_gsq(t, self.T, self.k, rho, self.prob) for t in range(1, self.T + 1)]
        return self.tables[rho]

    def ogd(self, rho: float):
        """``make(R, d, r)`` of Remark 5's OGD at rho."""
        table = self(rho)
        return lambda rows, dd, r: ProjectedOGD(rows, dd, r, lambda t: table[t - 1])


def _linear_rows(rows: dict, run) -> pd.DataFrame:
    """A run's rows of ``linear_T``: replicate, c, subopt (at T), then the other columns of ``rows``."""
    return pd.DataFrame({"replicate": rows["replicate"], "c": rows["c"], "subopt": run.subopt[:, -1],
                         **{k: v for k, v in rows.items() if k not in ("replicate", "c")}})


def thm4_family_bound(prob, T: int, k: float, rho: float, R: int, gsq: list | None = None) -> np.ndarray:
    """Theorem 4's fully explicit bound for each member of a :class:`LinearFamily` (rows
    member-major, R replicates each): the OGD's own regret bound (3/2) D sqrt(sum_t Ghat_t^2)
    (Ghat_t from the family's constants, the learner's step) plugged in, and each member's own
    sigma_G = G - c_i (exact for that member: ||grad l - grad L|| = s_i)."""
    from types import SimpleNamespace

    reg = np.array([explicit_regret(prob, T, k, rho, gsq)])
    out = [o2b_bounds.bound_thm4(reg, T, k, rho, SimpleNamespace(d=prob.d, G=prob.G, H=prob.H, D=prob.D, sigma_H=0.0,
                                                                   sigma_G=prob.G - ci))[0] for ci in prob.c_grid]
    return np.repeat(out, R)



def _user_claim(rate: str):
    from dpregret.core.contract import UserClaim, in_order

    cid = f"ZTC-rem5-rate-T-{rate}"

    def decide(runs, p, tol, alpha, rng_for, name):
        from dpregret.papers.ztc22.claims_linear import linear_T_claims
        return linear_T_claims(runs, p, tol, alpha, rng_for, name=name, rates=(rate,))[cid]

    def paper_rows(tables, p, point):  # the door's paper rows: the pipeline's linear_T at this T
        t = tables[LINEAR_T_TABLE]
        a = linear_T_algs()
        algs = (a["priv"], a["naive"]) if rate == "priv" else (a["stat"], a["fresh"])
        extra = ("o2b_noise2", "frozen_start") if rate == "priv" else ("frozen_start",)  # at this rate's rho
        rho = p["rho_lin"] if rate == "priv" else p["rho_stat"]
        twins = ("o2b_npstep",) if rate == "priv" else ("o2b_stat_sumstep",)  # the mis-tuned twin's rows
        keep = (t["T"] == int(point)) & (t.alg.isin(algs + (a["twin"],) + twins)
                                         | (t.alg.isin(extra) & (t.rho == rho)))
        rows = t[keep].drop(columns="scenario")
        c_pos = rows.c.map({c: i for i, c in enumerate(p["c_grid"])})
        # simulate's order: the twin's rows come just before the non-learner's
        order = tuple(x for e in extra for x in (twins + (e,) if e == "frozen_start" else (e,))) + algs + (a["twin"],)
        return in_order(rows.assign(_c=c_pos), "alg", order, "_c", "replicate").drop(columns="_c")

    return UserClaim(
        cid, "ztc22", "oco", "make(R, d, r)",
        "your learner as the online learner of Algorithm 1 on the worst case over the family of G-Lipschitz "
        "stochastic linear losses; control: " + ("the naive conversion" if rate == "priv" else "the fresh-sample slip")
        + ", with your learner",
        "o2b", "paper (Remark 5 OGD)", DOOR_RESERVED,
        lambda p: list(p[f"T_lin_{rate}"]),
        lambda p, point, reps, seed, learners: simulate_linear_T(p, int(point), reps, seed, learners=learners,
                                                                 rates=(rate,)),
        decide,
        user_rows=lambda p, point, reps, seed, learners: simulate_linear_T(p, int(point), reps, seed, learners=learners,
                                                                           rates=(rate,), paper=False),
        paper_tables=(LINEAR_T_TABLE,), paper_rows=paper_rows,
        nonlearner_left_out="" if rate == "stat" else (
            "oco: 3 runs of Algorithm 1 per T (tree, naive, non-private twin) through the Python rounds, T up to 1e5 "
            "on 10 members x 16 replicates: 68 s of job CPU on the default run of 2026-11-26 (logs/bench), 100 s of "
            "wall; the scenario's own rows of the learner frozen at x_0 (alg frozen_start at rho_lin) are its "
            "non-learner control on the learning gate (papers.ztc22.claims_linear.linear_T_claims), and the oco door "
            "itself runs every default run with ZTC-rem5-rate-T-stat"))


# the paper's rows of the door's simulation: no learner of yours may take these names
DOOR_RESERVED = tuple(linear_T_algs().values()) + ("o2b", "o2b_noise2", "frozen_start",
                                                   "o2b_npstep", "o2b_stat_sumstep")
LINEAR_T_TABLE = "results/ztc22/linear_T.parquet"  # the pipeline's table of the paper's rows (rule ztc22_merge)
# Remark 5's rates in T hold for any OCO learner inside Algorithm 1 (dpregret.core.contract)
USER_CLAIMS = (_user_claim("priv"), _user_claim("stat"))

MINIMAX_ALGS = {"o2b": ("tree", None), "nonprivate": ("none", None), "rho_squared": ("tree", "rho"),
                "sqrt_d": ("tree", "d")}


_TWIN_CACHE: dict = {}


def simulate_minimax(p: dict, point: str, reps, seed: int) -> pd.DataFrame:
    """``point`` is ``rho<value>`` (d = p["d_mm"]) or ``d<value>`` (rho = p["rho_mm"]).  The point's runs share
    their draws (``o2b.run_shared``: the same streams, each block drawn once; speed only)."""
    grid, val = ("rho", float(point[3:])) if point.startswith("rho") else ("d", int(point[1:]))
    d, rho = (p["d_mm"], val) if grid == "rho" else (val, p["rho_mm"])
    R, T, k, cg = len(reps), p["T_mm"], p["k"], list(p["c_grid"])
    prob = LinearFamily(d, cg, R)

    def streams(rr):
        return dict(src=TiledStreams(seed, stable_key("ztc22", "minimax", "data", d, T), rr, len(cg)),
                    noise_src=TiledStreams(seed, stable_key("ztc22", "minimax", "noise", d, T), rr, len(cg)))
    subs, calls = {}, {}
    for alg, (conv, miscal) in MINIMAX_ALGS.items():
        if miscal not in (None, grid):  # each control runs on its own grid only
            continue
        r_eff = math.inf if conv == "none" else rho
        rho_c = math.sqrt(min(p["rho_grid_mm"]) * max(p["rho_grid_mm"]))
        factor = {None: 1.0, "rho": rho_c / rho, "d": math.sqrt(d / min(p["d_grid_mm"]))}[miscal]
        # the non-private twin does not depend on rho (no noise, the learner's step at rho = inf, the same data
        # stream): every rho point of a process reuses one run (speed only: the same numbers)
        key = (d, T, k, tuple(cg), tuple(reps), seed) if conv == "none" else None
        if key is not None and key in _TWIN_CACHE:
            subs[alg] = _TWIN_CACHE[key]
            continue
        learner = ProjectedOGD(R * len(cg), d, prob.r,
                               lambda t, r_eff=r_eff: o2b_bounds.thm4_gsq(t, T, k, r_eff, prob))
        calls[alg] = dict(problem=prob, learner=learner, T=T, k=k, rho=r_eff, **streams(reps), checkpoints=[T],
                          conversion=conv, noise_factor=factor, regret=False)
    # the mis-tuned twin of both rate claims: Algorithm 1 with the step that ignores the privacy term (its
    # non-private twin is the paper's: the same step at rho = inf), on the first replicates_twin replicates
    tr = twin_reps(p, reps)
    ptw = LinearFamily(d, cg, len(tr))
    calls["npstep"] = dict(problem=ptw, learner=twin_ogd(ptw, len(tr) * len(cg), T, k, rho, "npstep"), T=T, k=k,
                           rho=rho, **streams(tr), checkpoints=[T], regret=False)
    for alg, run in zip(calls, o2b.run_shared(list(calls.values()))):
        subs[alg] = run.subopt[:, -1]
        if MINIMAX_ALGS.get(alg, ("",))[0] == "none":
            _TWIN_CACHE.clear()  # one twin at a time: the rho points share a d
            _TWIN_CACHE[(d, T, k, tuple(cg), tuple(reps), seed)] = subs[alg].copy()
    frames = [pd.DataFrame({"replicate": np.tile(list(reps), len(cg)), "c": np.repeat(cg, R),
                            "subopt": np.array(subs[alg], copy=True), "alg": alg})
              for alg in MINIMAX_ALGS if alg in subs]
    frames.append(pd.DataFrame({"replicate": np.tile(list(reps), len(cg)), "c": np.repeat(cg, R),
                                "subopt": frozen_subopt(prob, R * len(cg)), "alg": "frozen_start"}))  # the non-learner
    frames.append(pd.DataFrame({"replicate": np.tile(tr, len(cg)), "c": np.repeat(cg, len(tr)),
                                "subopt": subs["npstep"], "alg": "npstep"}))
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["problem"], df["T"], df["rho"], df["d"], df["grid"] = ("minimax",
                                                                                "linear_family", T, rho, d, grid)
    df["r"] = prob.r
    return df


# Section 5's shifted start ("by shifting coordinates", before Theorem 10): Remark 12's learner started at x_0 on the
# segment from the origin to x*, at distance s = ||x* - x_0|| of s_shift_pf (D fixed); the twin shifts its play but
# leaves the regulariser xi_t ||w|| + nu_t ||w||^2 centred at the origin (ZTC-sec5-shift-rate; s_shift_pf is optional:
# unset, as in the paper preset whose committed run predates the claim, no shifted run is made)
SHIFT_ALGS = ("o2b_pf_shift", "o2b_pf_shift_play_only")


def shifted_start(prob, s: float) -> np.ndarray:
    """x_0 = (1 - s / ||x*||) x*: the start at distance s from x* (inside W), for a one-member family."""
    xs = np.asarray(prob.x_star, dtype=float).reshape(-1, prob.d)[0]
    return (1.0 - s / float(np.linalg.norm(xs))) * xs


def simulate_param_free(p: dict, T: int, reps, seed: int) -> pd.DataFrame:
    """Section 5 (Theorems 10-11): k = 3, regularised losses, parameter-free learner, one run
    per C of ``C_grid_pf`` (the learner's regulariser depends on C, so each C is its own
    algorithm; every C sees the same data and noise draws)."""
    prob = LinearFamily(p["d_pf"], [p["c_pf"]], len(reps), r=p["r_pf"])
    R, rho, delta = len(reps), p["rho_pf"], p["delta_pf"]
    frames, cache, runs, calls = [], {}, [], []
    for C in p["C_grid_pf"]:
        pf = o2b.pf_params(prob, T, rho, C, delta)
        half = o2b.pf_params(prob, T, rho, C / 2, delta)  # the bound-only control: the same run, C / 2 in the bounds
        # Remark 12's learner (decides ZTC-thm11-bound / -gbar, at C_pf): one constant G^ = Theorem 11's bound on
        # ||gbar_t|| at t = T (its largest: the bound grows with t), >= max_t ||gbar_t|| with probability 1 - delta;
        # the time-varying normaliser G^_t = the bound at t (``o2b_pf``) is kept as a labelled variant
        variants = [("o2b_pf", pf["ghat"])]
        if float(C) == float(p["C_pf"]):
            G_hat = float(pf["ghat"](T))
            variants.insert(0, ("o2b_pf_const", lambda t, G_hat=G_hat: G_hat))
        shifts = [(None, "")]
        if p.get("s_shift_pf") and float(C) == float(p["C_pf"]) and T == min(p["T_pf"]):  # Section 5's shifted start
            shifts += [(float(sd), alg) for sd in p.get("s_shift_pf", []) for alg in SHIFT_ALGS]
        for alg, ghat in variants:
            run_pf = {**pf, "ghat": ghat, "ghat_controls": {"C_half": half["ghat"], "thm11": pf["ghat"]},
                      "cache": cache}  # the runs of this T evaluate each (pure) function of pf_params once
            for sd, shift_alg in (shifts if alg == "o2b_pf_const" else shifts[:1]):
                learner = ParameterFree(R, prob.d, prob.r, ghat,
                                        x0=None if sd is None else shifted_start(prob, sd))
                if shift_alg == "o2b_pf_shift_play_only":  # the twin: the regulariser left centred at the origin
                    learner.reg_centre = None
                runs.append((shift_alg or alg, C, pf, half, learner.reg_centre, sd))
                calls.append(dict(problem=prob, learner=learner, T=T, k=3, rho=rho,
                                  src=_streams(seed, reps, "pf", "data", T),
                                  noise_src=_streams(seed, reps, "pf", "noise", T),
                                  checkpoints=[T], reg="pf", pf=run_pf))  # compiled: o2b_jit.linear_pf_block
    for (alg, C, pf, half, xr, sd), run in zip(runs, o2b.run_shared(calls)):  # every run on the same draws, once
        reg = run.regret[:, -1]
        b_reg = (o2b_bounds.bound_thm11(reg, T, rho, prob, pf, xr)
                 - o2b_bounds.bound_thm11(np.zeros(R), T, rho, prob, pf, xr))
        cols = {"subopt": run.subopt[:, -1], "regret_bar": reg,
                "bound": o2b_bounds.bound_thm11(reg, T, rho, prob, pf, xr),
                "bound_regret_term": b_reg,
                "bound_C_half": o2b_bounds.bound_thm11(reg, T, rho, prob, half, xr),
                "gbar_ratio": run.extra["gbar_ratio_thm11"],  # ||gbar_t|| / Theorem 11's bound at t
                "gbar_ratio_C_half": run.extra["gbar_ratio_C_half"],
                "gbar_over_normaliser": run.extra["gbar_ratio"],  # ||gbar_t|| / the learner's G^(_t)
                "subopt_w": run.subopt_w[:, -1]}
        if sd is not None:  # the shifted runs: their start's distance to x* and its suboptimality (the frozen learner)
            cols.update(shift_dist=np.full(R, sd), shift_start_subopt=prob.subopt(
                np.broadcast_to(shifted_start(prob, sd), (R, prob.d)).copy()))
        frames.append(_rows(cols, reps, alg=alg, C=float(C)))
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["problem"], df["T"], df["rho"], df["delta"] = "param_free", "linear_member", T, rho, delta
    df["max_subopt"] = 2 * prob.r * p["c_pf"]  # L at the far end of W (reported)
    df["start_subopt"] = float(start_subopt(prob)[0])  # L(x_0) - L* = r c: a bound at or above it is vacuous
    df["x_star_norm"] = float(np.linalg.norm(prob.x_star[0]))  # = r: x* on the boundary of W
    return df


EQ7_EXTRA = 3  # eq. (7) is decided on 4 x the chunk's replicates (declared before its first deciding run)


def step_grid(T: int) -> list[int]:
    """The steps at which eqs. (4) and (7) are decided: t = 2^n - 1 (the tree's gamma_t sums n nodes there:
    eq. (7) nearly tight) and t = 2^n (one node), n >= 0, up to T."""
    return sorted({t for n in range(T.bit_length() + 1) for t in (2**n - 1, 2**n) if 1 <= t <= T})


def simulate_per_step(p: dict, point: str, reps, seed: int) -> pd.DataFrame:
    """Eqs. (4) and (7) per step on the draws of the linear family's runs (``linear_T``: the same stream keys),
    where both quantities do not depend on the learner (linear losses: grad l(x, z) = -z whatever x; H = 0:
    sigma_t of eq. (6) does not depend on the iterates), so they are computed from the draws alone:

    - ``eq4``: ||beta_t grad L(x_t) - g_t||^2 = ||sum_{i<=t} (beta_i - beta_{i-1})(z_i - c)||^2, over
      sigma_G^2 (each member's ||z - c|| = s = sigma_G a.s., so the ratio to eq. (4)'s bound is the same for
      every member), on the data stream of ``linear_T`` at the largest T of T_lin_stat; ``eq4_fresh`` the
      fresh-sample slip (``conversion="fresh"``: beta_{i-1} grad l(x_{i-1}, z'_i), z'_i the stream's next
      sample, as :func:`o2b.run` draws it): sum_i (beta_i xi_i - beta_{i-1} xi'_i), no longer telescoping.
    - ``eq7``: ||gamma_t||^2 of Algorithm 1's tree (``TreeNoise``: gamma_t sums the nodes of t's binary
      prefixes, node s drawn at step s with sigma_s of eq. (6), H = 0) on the noise stream of ``linear_T`` at
      the largest T of T_lin_priv and rho_lin; ``eq7_sqrt2`` the same tree with sigma_t^2 doubled (its
      control: the process changed, not the bound).
    Rows: one per replicate and step of :func:`step_grid`, ``value`` the quantity and ``bound`` its bound."""
    if point == "eq4":
        frames = _per_step_eq4(p, reps, seed)
    elif point == "eq7":
        frames = _per_step_eq7(p, reps, seed)
    elif point.startswith("thm11_T"):
        return thm11_concentration(p, int(point[len("thm11_T"):]), reps, seed)
    else:
        raise ValueError(f"per_step point must be eq4, eq7 or thm11_T<T>, got {point!r}")
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["problem"], df["d"] = "per_step", "linear_family", p["d_lin"]
    return df


def _per_step_eq4(p: dict, reps, seed: int) -> list[pd.DataFrame]:
    """:func:`simulate_per_step`'s eq. (4) rows (``eq4`` and its fresh-sample slip ``eq4_fresh``)."""
    R, k, d = len(reps), p["k"], p["d_lin"]
    lam = o2b_bounds.LAMBDA_L2
    frames = []
    T = max(p["T_lin_stat"])
    ts = step_grid(T)
    src = ReplicateStreams(seed, stable_key("ztc22", "linear_T", "data", d, T), reps)
    xi = np.where(src.uniform((2 * T - 1, d)) < 0.5, -1.0, 1.0) / math.sqrt(d)  # the stream's samples, in order
    for alg, fresh in (("eq4", False), ("eq4_fresh", True)):
        t = np.arange(1, T + 1, dtype=float)
        b, bp = t**k, (t - 1) ** k
        if fresh:  # z_1, z_2, z'_2, z_3, z'_3, ...: z_t at 2t - 2 (t >= 2), z'_t at 2t - 1
            main = np.concatenate([xi[:, :1], xi[:, 1::2]], axis=1)[:, :T]
            prime = np.concatenate([np.zeros_like(xi[:, :1]), xi[:, 2::2]], axis=1)[:, :T]
            inc = b[None, :, None] * main - bp[None, :, None] * prime
        else:
            inc = (b - bp)[None, :, None] * xi[:, :T]
        cum = np.cumsum(inc, axis=1)
        idx = np.array(ts) - 1
        val = np.sum(cum[:, idx] ** 2, axis=-1)  # (R, len(ts)), in units of sigma_G^2
        bound = 4 * (k + 1) ** 2 * np.array(ts, dtype=float) ** (2 * k - 1) / lam
        frames.append(pd.DataFrame({"replicate": np.repeat(list(reps), len(ts)), "t": np.tile(ts, R),
                                    "value": val.ravel(), "bound": np.tile(bound, R), "alg": alg, "T": T}))
    return frames


def _per_step_eq7(p: dict, reps, seed: int) -> list[pd.DataFrame]:
    """:func:`simulate_per_step`'s eq. (7) rows (``eq7`` and its control ``eq7_sqrt2``), on the runs' replicates
    and ``EQ7_EXTRA`` x as many further ones."""
    from scipy import special

    k, d = p["k"], p["d_lin"]
    lam = o2b_bounds.LAMBDA_L2
    frames = []
    T, rho = max(p["T_lin_priv"]), p["rho_lin"]
    ts = step_grid(T)
    need = sorted({(t >> lv) << lv for t in ts for lv in range(t.bit_length()) if (t >> lv) & 1})
    # the runs' own replicates and EQ7_EXTRA x as many further ones of the same stream key (fresh draws, never
    # used by a run; indices offset by multiples of the replicate count, so chunks never overlap): eq. (7) is
    # ~0.9-tight at t = 2^n - 1, where 32 replicates leave an upper limit near 1
    nrep = int(p["replicates"])
    reps = [r + i * nrep for i in range(EQ7_EXTRA + 1) for r in reps]
    R = len(reps)
    noise = ReplicateStreams(seed, stable_key("ztc22", "linear_T", "noise", d, T), reps)
    nodes = {}
    block, t0 = 8192, 0
    need_arr = np.array(need)
    while t0 < T:
        B = min(block, T - t0)
        u = noise.uniform((B, d))  # step t0 + j + 1 draws row j
        sel = need_arr[(need_arr > t0) & (need_arr <= t0 + B)]
        for s in sel:  # N(0, 1) by the inverse CDF, elementwise: only the nodes read
            nodes[int(s)] = special.ndtri(u[:, s - t0 - 1])
        t0 += B
    G, L = 1.0, math.log2(2 * T)
    for alg, factor in (("eq7", 1.0), ("eq7_sqrt2", math.sqrt(2.0))):
        val = np.empty((R, len(ts)))
        for j, t in enumerate(ts):
            gam = np.zeros((R, d))
            for lv in range(t.bit_length()):
                if (t >> lv) & 1:
                    s = (t >> lv) << lv
                    sig = factor * o2b.sensitivity_eq6(s, k, G, 0.0, 0.0) * math.sqrt(L) / rho
                    gam = gam + sig * nodes[s]
            val[:, j] = np.sum(gam**2, axis=-1)
        bound = 8 * (k + 1) ** 2 * d * G**2 * L**2 * np.array(ts, dtype=float) ** (2 * k - 2) / (lam * rho**2)
        frames.append(pd.DataFrame({"replicate": np.repeat(list(reps), len(ts)), "t": np.tile(ts, R),
                                    "value": val.ravel(), "bound": np.tile(bound, R), "alg": alg, "T": T}))
    return frames


def tree_gamma_norms(noise: ReplicateStreams, T: int, d: int, sigma, block_bits: int = 12) -> np.ndarray:
    """``(R, T)``: ||gamma_t||_2 of Algorithm 1's tree at every step, from the noise stream ``noise`` as
    :func:`o2b.run` consumes it (step s draws the d normals of node s, ``ndtri`` of the stream's uniforms; node s
    holds ``sigma(s) R_s``; gamma_t sums the nodes at t's binary prefixes).  Vectorised in blocks of 2^block_bits
    steps aligned to multiples of the block: a prefix at a level below block_bits lies in the step's own block, one
    at a level at or above it is a multiple of the block size (kept)."""
    from scipy import special

    from dpregret.papers.ztc22.o2b_jit import tree_low_levels

    B = 1 << block_bits
    R = noise.R
    out = np.empty((R, T))
    kept: dict[int, np.ndarray] = {}  # node values at multiples of B
    for t0 in range(0, T, B):
        n = min(B, T - t0)
        s = np.arange(t0 + 1, t0 + n + 1)
        nodes = special.ndtri(noise.uniform((n, d))) * sigma(s.astype(float))[None, :, None]
        for v in s[s % B == 0]:
            kept[int(v)] = nodes[:, v - t0 - 1].copy()
        gam = np.zeros((R, n, d))
        tree_low_levels(nodes, gam, t0, block_bits)  # the levels below block_bits, in increasing level (compiled)
        for lv in range(block_bits, int(s[-1]).bit_length()):  # then the higher ones: kept nodes
            if (t0 >> lv) & 1 and min(n, B - 1) >= 1:  # the steps before t0 + B share t0's high bits
                gam[:, :min(n, B - 1)] += kept[(t0 >> lv) << lv][:, None]
            if n == B and ((t0 + B) >> lv) & 1:
                gam[:, B - 1] += kept[((t0 + B) >> lv) << lv]
        out[:, t0:t0 + n] = np.sqrt(np.sum(gam**2, axis=-1))
    return out


def thm11_concentration(p: dict, T: int, reps, seed: int) -> pd.DataFrame:
    """Theorem 11's two concentration steps (Appendix F), decided separately, per run, for every t <= T, on the
    draws of ``param_free``'s runs at this T (the same stream keys), where both are learner-independent (a member
    of the linear family: grad l(x, z) = -z; H = 0: sigma_t of eq. (6) does not depend on the iterates):

    - eq. (14): ||beta_t grad L(x_t) - g_t||_2 = s ||sum_{i<=t} (beta_i - beta_{i-1}) xi_i|| <= 8 C^2 Phi
      sqrt(sum_{i<=t} i^4 (G + H ||w_i - x_{i-1}||)^2), k = 3; control ``eq14_fresh``: the fresh-sample slip
      (beta_{i-1} grad l(x_{i-1}, z'_i), z'_i the stream's next sample);
    - eq. (17): ||gamma_t||_2 <= A'/rho (G + DH) Phi log2(2T) t^2; control ``eq17_noise2``: sigma_t doubled.
    Rows: one per replicate and check, ``max_ratio`` = max_t quantity / bound (C = C_pf)."""
    from types import SimpleNamespace

    prob = SimpleNamespace(G=1.0, H=0.0, D=2 * p["r_pf"], d=p["d_pf"])
    k, rho, C, d = 3, p["rho_pf"], float(p["C_pf"]), p["d_pf"]
    pf = o2b.pf_params(prob, T, rho, C, p["delta_pf"])
    Phi, A1, L = pf["Phi"], pf["A1"], math.log2(2 * T)
    s_member = 1.0 - p["c_pf"]
    t = np.arange(1, T + 1, dtype=float)
    rows = {}
    # eq. (14): the data stream of the pf runs (z_1, z_2, ... in order; the fresh slip reads z_1, z_2, z'_2, ...)
    src = _streams(seed, reps, "pf", "data", T)
    b14 = 8 * C**2 * Phi * np.sqrt(np.cumsum(t**4)) * prob.G
    tot = {"eq14": np.zeros(len(reps)), "eq14_fresh": np.zeros(len(reps))}
    cum = {a: np.zeros((len(reps), d)) for a in tot}
    B = 1 << 13  # samples per block of the data stream (2T - 1 in all: the fresh slip's z'_t too)
    n_total = 2 * T - 1
    xi_all_pos = 0
    while xi_all_pos < n_total:
        n = min(B, n_total - xi_all_pos)
        xi = np.where(src.uniform((n, d)) < 0.5, -1.0, 1.0) / math.sqrt(d)
        idx = np.arange(xi_all_pos, xi_all_pos + n)  # 0-based sample index
        # the paper's process: sample j (0-based) is z_{j+1}, for j < T
        m = idx < T
        if m.any():
            tt = idx[m] + 1.0
            inc = (tt**k - (tt - 1) ** k)[None, :, None] * xi[:, m]
            c = cum["eq14"][:, None, :] + np.cumsum(inc, axis=1)
            cum["eq14"] = c[:, -1]
            r = s_member * np.sqrt(np.sum(c**2, axis=-1)) / b14[idx[m]][None, :]
            tot["eq14"] = np.maximum(tot["eq14"], r.max(axis=1))
        # the fresh slip: sample 0 is z_1; for t >= 2, z_t = sample 2t-3, z'_t = sample 2t-2 (0-based)
        tt = np.where(idx == 0, 1, (idx + 3) // 2)
        first = (idx == 0) | (idx % 2 == 1)
        coef = np.where(first, tt.astype(float) ** k, -((tt - 1).astype(float) ** k))
        inc = coef[None, :, None] * xi
        c = cum["eq14_fresh"][:, None, :] + np.cumsum(inc, axis=1)
        cum["eq14_fresh"] = c[:, -1]
        done = ~first  # after z'_t the step t is complete (t = 1: after z_1)
        done |= idx == 0
        r = s_member * np.sqrt(np.sum(c[:, done] ** 2, axis=-1)) / b14[tt[done] - 1][None, :]
        tot["eq14_fresh"] = np.maximum(tot["eq14_fresh"], r.max(axis=1))
        xi_all_pos += n
    rows.update(tot)
    # eq. (17): the noise stream of the pf runs
    b17 = A1 / rho * (prob.G + prob.D * prob.H) * Phi * L * t**2
    g = tree_gamma_norms(_streams(seed, reps, "pf", "noise", T), T, d,
                         lambda v: 2.0 * (k + 1) * v ** (k - 1) * prob.G * math.sqrt(L) / rho)  # eq. (6), H = 0
    r17 = (g / b17[None, :]).max(axis=1)
    rows["eq17"], rows["eq17_noise2"] = r17, 2.0 * r17  # sigma_t doubled: gamma_t doubled on the same draws
    frames = [pd.DataFrame({"replicate": list(reps), "max_ratio": v, "alg": a}) for a, v in rows.items()]
    df = pd.concat(frames, ignore_index=True)
    df["T"], df["C"], df["t"], df["value"], df["bound"] = T, C, np.nan, np.nan, np.nan
    return df


JOBS = "experiment"  # every point of one experiment in one job: the start-up (~1.5 s CPU) paid once per experiment
PRIORITY = {"minimax": 10}  # the longest job (~100 s): started first, it never runs last
PLOT_EXPERIMENTS = ("rates", "optimistic", "strongly_convex", "rho_d", "minimax", "param_free", "linear_T")


def experiments(p: dict) -> dict[str, list[str]]:
    """Every experiment's points, as the workflow names them (its generic rules, workflow/rules/papers.smk)."""
    return {
        "rates": [f"T{T}" for T in p["T"]],
        "linear_T": [f"T{T}" for T in sorted(set(p["T_lin_stat"]) | set(p["T_lin_priv"]))],
        "optimistic": [f"s{s}" for s in sorted({float(v) for v in list(p["s_grid"]) + list(p.get("s_adapt", []))})],
        "sensitivity": ["least_squares", "logistic", "linear"],
        "strongly_convex": [f"T{T}" for T in p["T"]],
        "rho_d": [f"rho{r}" for r in p["rho_grid"]] + [f"d{d}" for d in p["d_grid"]],
        "minimax": [f"rho{r}" for r in p["rho_grid_mm"]] + [f"d{d}" for d in p["d_grid_mm"]],
        "param_free": [f"T{T}" for T in p["T_pf"]],
        "per_step": ["eq4", "eq7"] + [f"thm11_T{T}" for T in p["T_pf"]],
    }


def _simulate_point(p: dict, experiment: str, point: str, reps, seed: int) -> pd.DataFrame:
    """One point of one experiment (``point``: ``T<value>``, ``s<value>``, or the experiment's own)."""
    if experiment in ("rates", "linear_T", "strongly_convex", "param_free"):
        fn = {"rates": simulate_rates, "linear_T": simulate_linear_T, "strongly_convex": simulate_strongly_convex,
              "param_free": simulate_param_free}[experiment]
        return fn(p, int(point[1:]), reps, seed)
    if experiment == "optimistic":
        return simulate_optimistic(p, float(point[1:]), reps, seed)
    fn = {"minimax": simulate_minimax, "rho_d": simulate_rho_d, "sensitivity": simulate_sensitivity,
          "per_step": simulate_per_step}[experiment]
    return fn(p, point, reps, seed)


def simulate_job(params: dict, wildcards: dict, outputs: list[str]) -> None:
    """The workflow's simulate job (``dpregret.pipeline.jobs``): one point (one replicate chunk), or every
    point of one bundled experiment, each written to its own
    ``results/ztc22/{experiment}/{point}/chunk{lo}-{hi}.parquet``."""
    import re

    for path in outputs:
        experiment, point, lo, hi = re.fullmatch(r"results/ztc22/([A-Za-z_]+)/([^/]+)/chunk(\d+)-(\d+)\.parquet",
                                                 path).groups()
        df = _simulate_point(params["p"], experiment, point, range(int(lo), int(hi)), params["seed"])
        df["scenario"] = "ztc22"
        df.to_parquet(path, index=False)
        print(path, len(df), "rows")
