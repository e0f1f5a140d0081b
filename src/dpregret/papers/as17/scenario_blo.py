"""Agarwal and Singh (ICML 2017), section 4.2: private bandit linear optimisation
(Theorem 4.5, Table 2 row 1), and the door for your own bandit linear optimisation learner as
Algorithm 4's base learner.  Algorithm 4 around SCRiBLe on the unit ball (nu = 1) and
on the cube [-1, 1]^N (nu = 2N), losses in the unit l2 ball (ball) or the unit l1 ball
(cube), so M = max |<l, x>| = 1.  On the T grid the O~(T^(2/3)) baseline ``explore_tree``
(:mod:`papers.as17.blo_baseline`: explore-and-feed into private Euclidean FTRL on the tree's releases) runs on the
same losses at rate_eps (its own keyed streams ``explore`` and ``explore_tree``).

lambda follows Lemma 4.2 with the sensitivity of the definition: the forwarded value
``<l, x~>`` changes by at most ``2 max |<l, x~>| / ||x~||_inf <= 2 ||Y||_1`` under
replace-one neighbours with symmetric Y (the paper writes ||Y||_1; see the errata).
eta is Theorem 4.5's.  Algorithms: ``scrible`` (non-private, lambda = 0, eta of Thm 4.5
with lambda = 0), ``dp_scrible`` (the paper's), ``dp_scrible_composed`` (control: lambda
calibrated by advanced composition over the T rounds, as if each output depended on all
losses -- lambda ~ sqrt(T)/eps, so regret ~ T), ``dp_scrible_eps_squared`` (control:
lambda from eps^2, regret ~ 1/eps^2 where the noise dominates).  Regret is measured at the
centre x_t (the played point's conditional mean): ``sum_t <l_t, x_t> - min_X <L_T, x>``.
Sequences: those of Table 1 (``papers.as17.scenario_olo.loss_source``: ``fixed``, ``stochastic``,
``switching``).

Your own learner (``dpregret.core.contract``; the ``bco`` setting of ``dpregret.core.protocols``:
``predict()`` -> ``(R, n)`` points of K, ``update((R,) loss values)``).  Algorithm 4 is a
black-box reduction: it asks its base learner for a point ``y_t`` of K, plays it, and forwards
``<l_t, y_t> + <Z_t, y_t>`` with ``Z_t`` a vector of i.i.d. Laplace(lambda) coordinates (Lemma 4.2:
lambda = ``2 ||Y||_1 / eps``, the ``dp_scrible`` row, :func:`params`).  So any non-private BLO
learner is run privately in SCRiBLe's place (``papers.as17.base_learner_rounds``: its rounds, in
Python or, for a ``numba.experimental.jitclass`` learner, compiled), and Theorem 4.5's rate in T
(``AS17-T2-blo-<ball|cube>-rate-T``: regret / sqrt(ln T) grows at most as T^(1/2)) is the claim
such a learner can get; its control is the paper's: the same learner with lambda by advanced
composition over the T rounds (``dp_scrible_composed``, lambda ~ sqrt(T)/eps), whose regret should
grow ~ T.  :func:`simulate`'s ``learners`` run on the paper rows' losses and standard Laplace
vectors (the same keys), each per eps as ``name`` and ``name@composed``.  ``center`` (optional,
``(R, n)``, read after ``predict``): the conditional mean of the point the learner just drew, as
SCRiBLe's centre ``x_t`` -- the paper's rows measure regret there; without it the realised
``<l_t, y_t>`` is summed (an unbiased estimate of the same expected regret).  A compiled learner's
randomness comes from the wrapper: a jitclass that declares ``draws`` (an int k > 0) and a
``uniforms`` field (``float64[:, :]``) finds, before each ``predict``, that round's k uniforms on
[0, 1) per replicate row in ``uniforms`` (``(R, k)``), drawn from its own ``streams``.

``make(R, domain, T, lam, streams)`` builds the learner: ``domain`` a :class:`Domain` (``name``
``"ball"`` or ``"cube"``, so that a learner can pick its barrier; ``n`` the dimension;
``contains``, ``project``), ``T`` the horizon, ``lam`` the Laplace scale of the feedback's noise
vector, ``streams`` a :class:`~dpregret.core.rng.ReplicateStreams` for its own randomness, keyed by
the scenario point and the learner's name (the same for the learner and its control).
:data:`USER_CLAIMS`: Theorem 4.5's rate in T on the ball and on the cube, for any such learner.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from dpregret.core import validate as V
from dpregret.core.environments.olo import best_in_hindsight
# the same sequences as Table 1 (fixed: a fixed leader)
from dpregret.papers.as17.scenario_olo import ENVS, loss_block, loss_source
from dpregret.papers.as17.base_learner_rounds import TOL, run_user_rounds
from dpregret.papers.as17 import draws_jit
from dpregret.papers.as17.blo_baseline import ExploreTreeBLO
from dpregret.papers.as17.scrible import Scrible, theorem_4_5_eta
from dpregret.papers.as17.scrible import blo_row_params as params  # noqa: F401 (the scenario's name)
from dpregret.papers.as17.scrible_jit import scrible_block
from dpregret.core.protocols import build_learner, check_makes
from dpregret.core.rng import ReplicateStreams, stable_key

SCENARIO = "as17_blo"
BLOCK = 4096  # rounds per kernel call (memory only: any value gives the same draws)
ALGORITHMS = ("scrible", "dp_scrible", "dp_scrible_composed", "dp_scrible_eps_squared", "dp_scrible_eta_T23",
              "dp_scrible_nopriv_step")
# dp_scrible_eta_T23: the mis-tuned twin of the T-grid claims (Theorem 4.5's lambda, eta x T^(-1/6)), same draws;
# dp_scrible_nopriv_step: the eps window's twin (Theorem 4.5's lambda, its eta at lambda = 0), same draws
BASELINE = "explore_tree"  # the O~(T^(2/3)) baseline (papers.as17.blo_baseline), on the same losses


def point_key(domain: str, env: str, N: int, T: int, phases: int, mu: float) -> tuple:
    """The stable key prefix of a point's streams (the paper's rows' and your learners')."""
    return (SCENARIO, domain, env, N, T, phases if env == "switching" else mu)


def simulate(domain: str, env: str, N: int, T: int, plan: Mapping[str, Sequence[float]], replicates: Sequence[int],
             root_seed: int, phases: int = 4, mu: float = 0.5,
             learners: Mapping[str, Callable] | None = None) -> pd.DataFrame:
    """The rows of one (domain, env, N, T) point: the paper's algorithms among ``plan``'s keys, each
    at its eps (``scrible``: none), through the compiled kernel.  ``learners`` (your own BLO
    learners, section "Your own learner" below): after the paper's rows (unchanged; none if ``plan``
    names no paper algorithm), for every ``{name: make}`` at each eps of ``plan[name]`` (default:
    those of ``plan["dp_scrible"]``), the rows ``name`` (Algorithm 4 around it, lambda of Lemma 4.2
    as ``dp_scrible``) and ``name@composed`` (the control: lambda by advanced composition, as
    ``dp_scrible_composed``), on the paper rows' losses and noise draws.  Columns as the paper's;
    ``nu``, ``eta`` and ``bound_thm4_5`` are NaN for a learner's rows."""
    learners = check_makes(learners, (*ALGORITHMS, BASELINE), SIGNATURE)
    if learners:
        return _with_learners(domain, env, N, T, plan, replicates, root_seed, phases, mu, learners)
    if domain not in ("ball", "cube"):
        raise ValueError(f"domain must be 'ball' or 'cube', got {domain!r}")
    if env not in ENVS:
        raise ValueError(f"env must be one of {ENVS}, got {env!r}")
    N, T = V.integer("N", N), V.integer("T", T)
    replicates = list(replicates)
    R = len(replicates)
    point = point_key(domain, env, N, T, phases, mu)

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)

    rows = [(a, None if a == "scrible" else float(V.positive("eps", e))) for a in ALGORITHMS if a in plan
            for e in ([None] if a == "scrible" else plan[a])]
    P = [params(domain, a, N, T, e) for a, e in rows]
    col = lambda key: np.repeat([p[key] for p in P], R)[:, None]  # noqa: E731
    B = len(rows) * R
    eta, lam = col("eta")[:, 0], col("lambda")[:, 0]
    draws, noise = streams("scrible"), streams("noise")
    source = loss_source(domain, env, N, T, phases, mu, streams)
    base = (ExploreTreeBLO(domain, N, T, [float(V.positive("eps", e)) for e in plan[BASELINE]], streams("explore"),
                           streams("explore_tree")) if plan.get(BASELINE) else None)
    S, suffered, cum = np.zeros((B, N)), np.zeros(B), np.zeros((R, N))
    for t0 in range(0, T, BLOCK):  # blocks of rounds through the compiled kernel (scrible_jit)
        tb = min(BLOCK, T - t0)
        L = np.ascontiguousarray(loss_block(source, t0, tb, R))
        Z = draws_jit.laplace(noise, (tb, N))  # noise.laplace(1.0, (tb, N)), compiled
        U = np.ascontiguousarray(draws.uniform((tb,)))
        if B:
            scrible_block(domain == "ball", S, eta, lam, L, Z, U, suffered)
        if base is not None:  # the baseline on the same losses (its own keyed streams: the paper's draws unmoved)
            base.run(L)
        cum += L.sum(axis=1)
    best = best_in_hindsight(domain, cum)
    reg = suffered - np.tile(best, len(rows))
    out = []
    if base is not None:
        breg = base.suffered - np.tile(best, base.E)
        for k, e in enumerate(plan[BASELINE]):
            out.append(pd.DataFrame({"scenario": SCENARIO, "row": domain, "env": env, "algorithm": BASELINE, "N": N,
                                     "T": T, "eps": float(e), "replicate": replicates,
                                     "regret": breg[k * R:(k + 1) * R], "trivial_regret": -best, "nu": np.nan,
                                     "lambda": base.lam[k], "eta": base.eta, "bound_thm4_5": np.nan}))
    for k, (a, e) in enumerate(rows):
        out.append(pd.DataFrame({"scenario": SCENARIO, "row": domain, "env": env, "algorithm": a, "N": N, "T": T,
                                 "eps": np.nan if e is None else e, "replicate": replicates,
                                 "regret": reg[k * R:(k + 1) * R], "trivial_regret": -best,  # playing the centre
                                 **{key: P[k][key] for key in ("nu", "lambda", "eta", "bound_thm4_5")}}))
    return pd.concat(out, ignore_index=True)


def grid_plan(p: dict, grid: str) -> dict[str, list]:
    """The algorithms (and their eps) of each as17_blo grid: the T grid at rate_eps (with the
    advanced-composition control), the eps window (with the eps^2 control)."""
    r = p["rate_eps"]
    return ({"scrible": [None], "dp_scrible": [r], "dp_scrible_composed": [r],
             "dp_scrible_eta_T23": [r], BASELINE: [r]} if grid == "T" else
            {"scrible": [None], "dp_scrible": p["eps_window"], "dp_scrible_eps_squared": p["eps_window"],
             "dp_scrible_nopriv_step": p["eps_window"]})


def simulate_job(params: dict, wildcards: dict, outputs: list[str]) -> None:
    """The workflow's simulate job (``dpregret.pipeline.jobs``): one (domain, env, grid, T, replicate chunk),
    or every T of a fixed-leader grid in one process (each output its own point, named
    ``results/as17/blo/{row}/{env}/{grid}_T{T}/chunk{lo-hi}.parquet``: the same numbers as one job
    per point, the start-up paid once)."""
    import re

    p, seed = params["p"], params["seed"]
    lo, hi = map(int, wildcards["chunk"].split("-"))
    for path in outputs:
        row, env, grid, T = re.search(r"blo/(ball|cube)/(\w+)/(T|eps)_T(\d+)/chunk", path).groups()
        df = simulate(row, env, p["N"], int(T), grid_plan(p, grid), range(lo, hi), seed, phases=p["phases"], mu=p["mu"])
        df["grid"] = grid
        df.to_parquet(path, index=False)
        print(path, len(df), "rows")


# ---- Your own learner (dpregret.core.contract): the door of Theorem 4.5's rate for any base learner ----

CONTROL = "composed"  # a user learner ``name``'s control rows: ``name@composed``
SIGNATURE = "make(R, domain, T, lam, streams)"
SIGNATURE_DOC = ("make(R, domain, T, lam, streams) -> a bco learner (dpregret.core.protocols: predict() -> (R, n) "
                 "points of K, update((R,) loss values)) for R replicate rows; domain: the decision set (domain.name "
                 "'ball' or 'cube', domain.n its dimension, domain.contains(x), domain.project(x)); T the horizon; lam "
                 "the Laplace scale of the noise vector Z_t in the forwarded <l_t + Z_t, y_t>; streams: a "
                 "dpregret.core.rng.ReplicateStreams for its own randomness")


class Domain:
    """The decision set K of a point: the unit l2 ball (``"ball"``) or the cube ``[-1, 1]^n``
    (``"cube"``), with the interface of ``environments.polytopes`` domains that a bco learner may
    use (``name``, ``n``, ``contains``, ``project``)."""

    def __init__(self, name: str, n: int):
        if name not in ("ball", "cube"):
            raise ValueError(f"domain must be 'ball' or 'cube', got {name!r}")
        self.name, self.n = name, V.integer("n", n, minimum=1)

    def __repr__(self) -> str:
        return f"Domain({self.name!r}, {self.n})"

    def _rows(self, x) -> np.ndarray:
        a = np.asarray(x, dtype=float)
        if a.shape[-1:] != (self.n,):
            raise ValueError(f"points must have shape (R, {self.n}) or ({self.n},), got {a.shape}")
        return a

    def contains(self, x, tol: float = TOL):
        """Row-wise membership (a bool for one point)."""
        a = self._rows(x)
        size = np.linalg.norm(a, axis=-1) if self.name == "ball" else np.max(np.abs(a), axis=-1)
        return size <= 1.0 + tol

    def project(self, x) -> np.ndarray:
        """Euclidean projection onto K, row-wise."""
        a = self._rows(x)
        if self.name == "cube":
            return np.clip(a, -1.0, 1.0)
        return a / np.maximum(1.0, np.linalg.norm(a, axis=-1, keepdims=True))


def paper_learner(R: int, domain: Domain, T: int, lam: float, streams: ReplicateStreams) -> Scrible:
    """The paper's base learner in this signature: SCRiBLe on ``domain`` with Theorem 4.5's eta for
    the noise scale ``lam`` (``M = 1``; ``nu = 1`` and ``||X||_2 = 1`` on the ball, ``nu = 2n`` and
    ``sqrt(n)`` on the cube), drawing from ``streams``."""
    n = domain.n
    nu, X2 = (1.0, 1.0) if domain.name == "ball" else (2.0 * n, float(np.sqrt(n)))
    return Scrible(domain.name, n, theorem_4_5_eta(n, T, nu, 1.0, lam, X2), streams)


def streams_of(root_seed: int, point: tuple, name: str, replicates: Sequence[int]) -> ReplicateStreams:
    """The streams a user learner ``name`` draws from at ``point`` (its learner and its control each get
    a fresh instance: the same draws), keyed by replicate (chunk invariance)."""
    return ReplicateStreams(root_seed, stable_key(*point, "learner", name), replicates)


def build_user_learner(make: Callable, name: str, R: int, domain: Domain, T: int, lam: float,
                       streams: ReplicateStreams, built: list):
    """``make(R, domain, T, lam, streams)``, checked (``protocols.build_learner``)."""
    return build_learner(make, name, (R, domain, T, lam, streams), SIGNATURE_DOC, "values", built)


class _Run:
    """One user learner at one eps (``role`` "private": Lemma 4.2's lambda; "composed": the control)."""

    def __init__(self, name: str, role: str, eps: float, lam: float, learner, streams: ReplicateStreams | None = None):
        self.name, self.role, self.eps, self.lam, self.learner = name, role, eps, lam, learner
        self.streams = streams  # the learner's own streams (a compiled learner's uniforms are drawn from them)
        self.expected = None  # whether the learner exposes ``center`` (decided on round 1)
        self.suffered = None

    @property
    def alg(self) -> str:
        return self.name if self.role == "private" else f"{self.name}@{CONTROL}"


def _with_learners(domain, env, N, T, plan, replicates, root_seed, phases, mu, learners) -> pd.DataFrame:
    """:func:`simulate` with ``learners`` (checked): the paper's rows of ``plan``, then the learners'."""
    if domain not in ("ball", "cube"):
        raise ValueError(f"domain must be 'ball' or 'cube', got {domain!r}")
    if env not in ENVS:
        raise ValueError(f"env must be one of {ENVS}, got {env!r}")
    N, T = V.integer("N", N), V.integer("T", T)
    unknown = set(plan) - set(ALGORITHMS) - set(learners)
    if unknown:
        raise ValueError(f"plan keys must be among {ALGORITHMS} or the learners' names, got {sorted(unknown)}")
    replicates = list(replicates)
    paper_plan = {a: v for a, v in plan.items() if a in ALGORITHMS}
    paper = simulate(domain, env, N, T, paper_plan, replicates, root_seed, phases=phases, mu=mu) if paper_plan else None
    user = _user_rows(domain, env, N, T, plan, replicates, root_seed, phases, mu, learners)
    if paper is None:
        return user
    return pd.concat([paper, user[paper.columns]], ignore_index=True)


def _user_rows(domain, env, N, T, plan, replicates, root_seed, phases, mu, learners) -> pd.DataFrame:
    R = len(replicates)
    point = point_key(domain, env, N, T, phases, mu)
    K = Domain(domain, N)
    runs, built = [], []
    for name, make in learners.items():
        eps_list = plan.get(name, plan.get("dp_scrible"))
        if not eps_list:
            raise ValueError(f"learner {name!r} has no eps to run at: give plan[{name!r}] (or plan['dp_scrible'])")
        for e in eps_list:
            e = float(V.positive("eps", e))
            for role, alg in (("private", "dp_scrible"), (CONTROL, "dp_scrible_composed")):
                lam = params(domain, alg, N, T, e)["lambda"]
                own = streams_of(root_seed, point, name, replicates)
                runs.append(_Run(name, role, e, lam, build_user_learner(make, name, R, K, T, lam, own, built), own))

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)

    # the draws of the paper's rows (same keys, same order per stream)
    source = loss_source(domain, env, N, T, phases, mu, streams)
    noise = streams("noise")
    cum = np.zeros((R, N))
    for t0 in range(0, T, BLOCK):
        tb = min(BLOCK, T - t0)
        L = loss_block(source, t0, tb, R)
        Z = noise.laplace(1.0, (tb, N))
        for u in runs:
            run_user_rounds(u, K, L, Z, t0)
        cum += L.sum(axis=1)
    best = best_in_hindsight(domain, cum)
    out = []
    for u in runs:
        out.append(pd.DataFrame({"scenario": SCENARIO, "row": domain, "env": env, "algorithm": u.alg, "N": N, "T": T,
                                 "eps": u.eps, "replicate": replicates, "regret": u.suffered - best,
                                 "trivial_regret": -best, "nu": np.nan, "lambda": u.lam, "eta": np.nan,
                                 "bound_thm4_5": np.nan}))
    return pd.concat(out, ignore_index=True)


USER_ENV = "stochastic"
PAPER_TABLE = "results/as17/blo/runs.parquet"  # the pipeline's table of the paper's rows (rule as17_tables_merge)


def _user_claim(dom: str):
    """Theorem 4.5's rate in T on ``dom`` (``AS17-T2-blo-<dom>-rate-T``) for any BLO learner as
    Algorithm 4's base learner.  Points: the preset's T grid ``p["T"]`` at ``rate_eps`` on the
    stochastic sequence, with the paper's rows of that claim (``dp_scrible`` and its control
    ``dp_scrible_composed``, the pipeline's T-grid rows)."""
    from dpregret.core.contract import PaperOnDoor, UserClaim, in_order

    def simulate_point(p, point, reps, seed, learners):
        r = p["rate_eps"]
        plan = {"dp_scrible": [r], "dp_scrible_composed": [r], **{name: [r] for name in learners}}
        df = simulate(dom, USER_ENV, int(p["N"]), int(point), plan, reps, seed, phases=p["phases"], mu=p["mu"],
                      learners=learners)
        df["grid"] = "T"
        return df

    def decide(runs, p, tol, alpha, rng_for, name):
        from dpregret.papers.as17.claims_tables import blo_rate_T_claim
        return blo_rate_T_claim(runs, dom, p["rate_eps"], tol, alpha, rng_for, name, env=USER_ENV)

    def user_rows(p, point, reps, seed, learners):  # simulate_point's rows but the paper's (the same draws)
        df = simulate(dom, USER_ENV, int(p["N"]), int(point), {name: [p["rate_eps"]] for name in learners}, reps, seed,
                      phases=p["phases"], mu=p["mu"], learners=learners)
        df["grid"] = "T"
        return df

    def paper_rows(tables, p, point):  # simulate_point's paper rows: the pipeline's T grid, at rate_eps
        t = tables[PAPER_TABLE]
        keep = ((t.row == dom) & (t.env == USER_ENV) & (t.grid == "T") & (t.N == int(p["N"])) & (t["T"] == int(point))
                & (t.eps == float(p["rate_eps"])) & t.algorithm.isin(("dp_scrible", "dp_scrible_composed")))
        return in_order(t[keep], "algorithm", ("dp_scrible", "dp_scrible_composed"), "replicate")

    return UserClaim(
        f"AS17-T2-blo-{dom}-rate-T", SCENARIO, "bco", SIGNATURE,
        f"your learner on the {dom} as the base learner of Algorithm 4 (fed <l_t, y_t> + <Z_t, y_t>, Z_t Laplace of "
        "scale lambda = 2 ||Y||_1 / eps, the paper's draws), on the stochastic sequence at rate_eps; regret at your "
        "learner's center if it exposes one, else realised; control: your learner with lambda by advanced "
        "composition over the T rounds (~ sqrt(T)/eps), on the same draws",
        "dp_scrible", f"paper (Algorithm 4 + SCRiBLe, {dom})", ALGORITHMS,
        lambda p: [int(t) for t in p["T"]], simulate_point, decide, env=USER_ENV, user_rows=user_rows,
        paper_tables=(PAPER_TABLE,), paper_rows=paper_rows,
        paper_on_door=PaperOnDoor(
            lambda p, point, reps, seed: paper_scrible(seed, point_key(dom, USER_ENV, int(p["N"]),
                                                                       int(point), p["phases"],
                                                                       p["mu"]), reps),
            (("", "dp_scrible"), ("@composed", "dp_scrible_composed")), ("eps", "replicate",
                                                                         "lambda", "regret"), 1e-12),
        nonlearner_left_out=LEFT_OUT[dom])


# why the pipeline's non-learner does not run through these doors (UserClaim.nonlearner_left_out)
LEFT_OUT = {"ball": "bco: 2 x 1.46e7 rounds of the Python wrapper per claim on the default preset (T up to 1e7, the "
                    "learner and its control); measured for the frozen learner alone (the paper's rows apart), "
                    "2026-11-26: 6.0 s CPU at T = 3.2e5, about 280 s per claim, load 10",
            "cube": "bco: as the ball, 5.9 s CPU at T = 3.2e5, about 270 s per claim, load 10"}


def paper_scrible(root_seed: int, point: tuple, replicates: Sequence[int]) -> Callable:
    """:func:`paper_learner` drawing from the paper rows' stream at ``point`` (:func:`point_key`), not
    from ``streams``: through the door it plays the compiled kernel's rounds."""
    def make(R, domain, T, lam, streams):
        return paper_learner(R, domain, T, lam, ReplicateStreams(root_seed, stable_key(*point, "scrible"), replicates))
    return make


# Theorem 4.5's rate in T holds for any BLO learner inside Algorithm 4 (dpregret.core.contract)
USER_CLAIMS = (_user_claim("ball"), _user_claim("cube"))
