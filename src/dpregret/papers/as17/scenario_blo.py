"""Agarwal and Singh (ICML 2017), section 4.2: private bandit linear optimisation
(Theorem 4.5, Table 2 row 1): Algorithm 4 around SCRiBLe on the unit ball (nu = 1) and
on the cube [-1, 1]^N (nu = 2N), losses in the unit l2 ball (ball) or the unit l1 ball
(cube), so M = max |<l, x>| = 1.

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
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from dpregret.core import _validate as V
from dpregret.core.environments.olo import best_in_hindsight
from dpregret.papers.as17.scenario_olo import ENVS, loss_block, loss_source  # the same sequences as Table 1 (fixed: a fixed leader)
from dpregret.papers.as17.scrible import blo_row_params as params  # noqa: F401 (the scenario's name)
from dpregret.papers.as17.scrible_jit import scrible_block
from dpregret.core.rng import ReplicateStreams, stable_key

SCENARIO = "as17_blo"
BLOCK = 4096  # rounds per kernel call (memory only: any value gives the same draws)
ALGORITHMS = ("scrible", "dp_scrible", "dp_scrible_composed", "dp_scrible_eps_squared")


def simulate(domain: str, env: str, N: int, T: int, plan: Mapping[str, Sequence[float]], replicates: Sequence[int],
             root_seed: int, phases: int = 4, mu: float = 0.5) -> pd.DataFrame:
    if domain not in ("ball", "cube"):
        raise ValueError(f"domain must be 'ball' or 'cube', got {domain!r}")
    if env not in ENVS:
        raise ValueError(f"env must be one of {ENVS}, got {env!r}")
    N, T = V.integer("N", N), V.integer("T", T)
    replicates = list(replicates)
    R = len(replicates)
    point = (SCENARIO, domain, env, N, T, phases if env == "switching" else mu)

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
    S, suffered, cum = np.zeros((B, N)), np.zeros(B), np.zeros((R, N))
    for t0 in range(0, T, BLOCK):  # blocks of rounds through the compiled kernel (scrible_jit)
        tb = min(BLOCK, T - t0)
        L = np.ascontiguousarray(loss_block(source, t0, tb, R))
        Z = np.ascontiguousarray(noise.laplace(1.0, (tb, N)))
        U = np.ascontiguousarray(draws.uniform((tb,)))
        scrible_block(domain == "ball", S, eta, lam, L, Z, U, suffered)
        cum += L.sum(axis=1)
    best = best_in_hindsight(domain, cum)
    reg = suffered - np.tile(best, len(rows))
    out = []
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
    return ({"scrible": [None], "dp_scrible": [r], "dp_scrible_composed": [r]} if grid == "T" else
            {"scrible": [None], "dp_scrible": p["eps_window"], "dp_scrible_eps_squared": p["eps_window"]})


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
