"""Ene, Nguyen, Vladu, Lemma 5.4, in the report's independent accountant (``dpregret.pipeline.report.accountant``):
PRIVATEBANDIT with its Gaussian sigma at the (eps, delta) of the env21 experiments.  Ours: the lemma's eps; PLD: a
record's batch sum (l2 sensitivity of one term) enters the ``floor(log2 T_round) + 1`` tree nodes that cover its
leaf, each with noise sigma: one Gaussian event of noise multiplier ``sigma / (sqrt(m) Delta)``."""
from __future__ import annotations

import math


def rows(run: dict) -> list[dict]:
    """One row per Gaussian point of the env21 experiments (rates, n, eps)."""
    from dpregret.core.accounting import pld_epsilon
    from dpregret.core.calibration import lemma5_noise_scale as noise_scale
    from dpregret.core.environments.polytopes import make_domain
    from dpregret.core.tree import nodes_covering_leaf
    from dpregret.papers.env21.learners import algorithm1_parameters, batch_schedule, batch_sensitivity

    if "env21" not in run.get("scenarios", []):
        return []
    p = run["env21"]
    out, L, delta = [], float(p["L"]), float(p["delta"])
    points = [("rates", int(T), int(p["n_simplex"]), float(p["eps_rate_gaussian"])) for T in p["T"]]
    points += [("n", int(p["T_n"]), int(dim) + 1, float(p["eps_n_gaussian"])) for dim in p["dims"]]
    points += [("eps", int(p["T_eps"]), int(p["dim_eps"]) + 1, float(e)) for e in p["eps_gaussian"]]
    for exp, T, n, eps in points:
        dom = make_domain("simplex", n)
        d = dom.dim
        sigma = noise_scale("gaussian", T, d, L, eps, delta)
        zeta = algorithm1_parameters(T, d, L, dom.D)[0]
        sens = batch_sensitivity(T, d, L, dom.D, zeta=zeta, ord=2)
        m = nodes_covering_leaf(batch_schedule(T)[1])
        out.append({"paper": "Ene, Nguyen, Vladu 2021", "where": f"Lemma 5.4 ({exp} experiment, T = {T}, n = {d})",
                    "level": f"eps = {eps:g}", "delta": delta, "eps_ours": eps,
                    "eps_pld": pld_epsilon(sigma / (math.sqrt(m) * sens), delta)})
    return out
