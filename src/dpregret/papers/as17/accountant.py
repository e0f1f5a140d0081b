"""Agarwal and Singh, Theorem 3.5, in the report's independent accountant (``dpregret.pipeline.report.accountant``):
FTPL's Gaussian tree noise at every (T, eps) of the as17_olo runs (delta = 1/T): a loss in the unit ball moves each
of the ``floor(log2 T) + 1`` nodes covering its leaf by at most 2 (replace-one), so one Gaussian event of noise
multiplier ``sigma / (2 sqrt(m))``."""
from __future__ import annotations

import math


def rows(run: dict) -> list[dict]:
    """One row per (T, eps) of the as17_olo runs when FTPL's row runs."""
    from dpregret.core.accounting import pld_epsilon
    from dpregret.core.tree import nodes_covering_leaf
    from dpregret.papers.as17.olo import sigma_thm3_5

    if "as17_olo" not in run.get("scenarios", []) or "ftpl" not in run["as17_olo"].get("rows", []):
        return []
    p = run["as17_olo"]
    out, N = [], int(p["N"])
    for T in p["T"]:
        for eps in p["eps"]:
            sigma = sigma_thm3_5(int(T), N, float(eps), 1.0 / T, 1.0)
            m = nodes_covering_leaf(int(T))
            out.append({"paper": "Agarwal and Singh 2017", "where": f"Theorem 3.5 (FTPL, T = {T}, N = {N})",
                        "level": f"eps = {eps:g}", "delta": 1.0 / T, "eps_ours": float(eps),
                        "eps_pld": pld_epsilon(sigma / (2.0 * math.sqrt(m)), 1.0 / T)})
    return out
