"""The small instances the mutation suite (:mod:`dpregret.pipeline.mutation`) decides Zhang, Tran
and Cutkosky's claims on: the smoke preset's scenario at the grids of :data:`SMALL` (chosen for cost),
decided by the same ``simulate_*`` functions and :func:`dpregret.papers.ztc22.claims.evaluate` as the
pipeline's rules.  A claim of :data:`ZTC_TABLES` reads one table on a grid of its own: it is decided on
instance ``ztc22/<table>``, which only the mutants targeting it pay for.  The declarations are those of
:mod:`dpregret.verdict.instances`."""
from __future__ import annotations

from dpregret.verdict.instances import Ctx, decide_scenario

# Grids of the small instance: overrides of the smoke preset (same keys as config.yaml).
SMALL = {
    "ztc22": {"T": [100], "T_opt": 100, "s_grid": [0.02], "T_opt_grid": [100], "T_sens": 100, "replicates": 4},
}
# ZTC22: the table each of these claims reads; it is decided on instance "ztc22/<table>", that table at
# its grid (T_rates / T_sc / T_lin_* / T_pf), every other table at the ztc22 instance's smallest point.
ZTC_TABLES = {"ZTC-thm6-optimistic": "opt", "ZTC-rem5-rate-T-stat": "lin", "ZTC-rem5-rate-T-priv": "lin",
              "ZTC-rem9-rate-T-stat": "sc",
              "ZTC-rem9-rate-T-priv": "sc", "ZTC-vs-dpsgd": "rates", "ZTC-thm11-bound": "pf", "ZTC-thm11-gbar": "pf",
              "ZTC-eq4-variance": "ps", "ZTC-eq7-noise": "ps", "ZTC-thm11-eq14": "ps", "ZTC-thm11-eq17": "ps"}
SMALL["ztc22"].update({"T_rates": [1000], "replicates_rates": 16, "T_opt_grid_opt": [30, 100, 300, 1000, 3000],
                       "T_sc": [10, 31, 100, 316, 1000], "T_lin_stat": [100, 316, 1000, 3162, 10000],
                       "T_lin_priv": [316, 1000, 3162, 10000], "T_pf": [300000],
                       "s_shift_pf": []})  # no mutant targets ZTC-sec5-shift-rate: its shifted runs are not paid for
# (T_pf 3e5: the smallest T of the default grid, where Theorem 11's bound is below L(x_0) - L*; there Remark 12's
# constant-G^ learner betting the wrong way diverges in 8 of 8 runs -- a non-finite suboptimality, a FAIL; at 3e4, the
# instance before 2026-12-03, it did not (mean suboptimality 3.16, the bound vacuous); about 5 s both ways)
# the scenario of the smoke preset the instance starts from
BASE = {"ztc22": "ztc22"}


def instance_of(cid: str) -> str | None:
    """The instance deciding claim ``cid`` (None: not a claim of this paper)."""
    if cid in ZTC_TABLES:
        return f"ztc22/{ZTC_TABLES[cid]}"
    if cid.startswith("ZTC-"):
        return "ztc22"
    return None


def _scenario(tables_of, ctx: Ctx, cids):
    from dpregret.papers.ztc22 import claims

    return decide_scenario(claims, tables_of, ctx, cids, "ztc22")


def _ztc_tables(ctx: Ctx, p: dict, cids: list, need: str | None = None) -> dict:
    """The tables of ``papers.ztc22.claims.evaluate``: the table ``need`` (instance ``ztc22/<need>``) at its
    grid, the others at the instance's smallest point (``T``); ``lin`` and ``pf`` only when needed."""
    import pandas as pd

    from dpregret.papers.ztc22 import scenario as S

    reps, s = range(p["replicates"]), ctx.seed
    wide = range(p.get(f"replicates_{need}", p["replicates"]))  # the replicates of the table at its grid
    out = {"rates": pd.concat([S.simulate_rates(p, T, wide, s) for T in p["T_rates"]] if need == "rates" else
                              [S.simulate_rates(p, T, reps, s) for T in p["T"]], ignore_index=True),
           "opt": pd.concat([S.simulate_optimistic({**p, "T_opt_grid": p["T_opt_grid_opt"]} if need == "opt" else p, x,
                                                   reps, s) for x in p["s_grid"]], ignore_index=True),
           "sens": pd.concat([S.simulate_sensitivity(p, pr, reps, s) for pr in ("least_squares", "logistic")],
                             ignore_index=True),
           "sc": pd.concat([S.simulate_strongly_convex(p, T, reps, s) for T in p["T_sc" if need == "sc" else "T"]],
                           ignore_index=True)}
    if need == "lin":
        out["lin"] = pd.concat([S.simulate_linear_T(p, T, reps,
                                                    s) for T in sorted(set(p["T_lin_stat"]) | set(p["T_lin_priv"]))],
                               ignore_index=True)
    if need == "pf":
        out["pf"] = pd.concat([S.simulate_param_free(p, T, reps, s) for T in p["T_pf"]], ignore_index=True)
    if need == "ps":
        out["ps"] = pd.concat([S.simulate_per_step(p, pt, reps, s)
                               for pt in S.experiments(p)["per_step"]], ignore_index=True)
    return out


INSTANCES = {
    "ztc22": lambda ctx, cids: _scenario(_ztc_tables, ctx, cids),
    **{f"ztc22/{t}": (lambda ctx, cids, t=t: _scenario(lambda c, p, i: _ztc_tables(c, p, i, t), ctx, cids))
       for t in sorted(set(ZTC_TABLES.values()))},
}
