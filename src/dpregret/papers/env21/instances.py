"""The small instances the mutation suite (:mod:`dpregret.pipeline.mutation`) decides Ene, Nguyen and
Vladu's claims on: the smoke preset's scenario at the grids of :data:`SMALL` (chosen for cost), decided
by the same ``simulate`` function and :func:`dpregret.papers.env21.claims.evaluate` as the pipeline's
rules.  The rates in T (:data:`ENV_RATES_T`) are decided on an instance of their own, ``env21_rates``,
which only the mutants targeting them pay for.  The declarations are those of
:mod:`dpregret.verdict.instances`."""
from __future__ import annotations

from dpregret.verdict.instances import Ctx, decide_scenario

# Grids of the small instances: overrides of the smoke preset (same keys as config.yaml).
SMALL = {
    "env21": {"T": [1000], "T_tree": [100], "dims": [2, 4], "T_n": 400, "T_eps": 400,
              "eps_laplace": [1, 10], "eps_gaussian": [100, 1000], "T_cost": 64, "n_cost": [10], "T_oco": [100],
              "replicates": 4},
}
# ENV21's rates in T: the simplex at the smoke grid, every other experiment at the env21 instance's
SMALL["env21_rates"] = {**SMALL["env21"], "T": [100, 316, 1000, 3162, 10000]}
# the scenario of the smoke preset each instance starts from
BASE = {"env21": "env21", "env21_rates": "env21"}
ENV_RATES_T = ("ENV-lemma3.1-rate-T", "ENV-lemma3.1-rate-T-noise", "ENV-lemma3.1-rate-T-switching",
               "ENV-lemma3.1-rate-T-interior",
               "ENV-lemma5.2-rate-T", "ENV-lemma5.5-rate-T", "ENV-thm1.1-rate-T")
# the audit of this paper's releases runs more samples than the audit instance's 20 000, where a mutant's
# catch is close (env-lambda-missing-log: 0.94 half-widths)
AUDIT_SAMPLES = {"AUDIT-env-lemma5.1-releases": 100000}


def instance_of(cid: str) -> str | None:
    """The instance deciding claim ``cid`` (None: not a claim of this paper)."""
    if cid in ENV_RATES_T:
        return "env21_rates"
    if cid.startswith("ENV-"):
        return "env21"
    return None


def _scenario(tables_of, ctx: Ctx, cids, inst: str = "env21"):
    from dpregret.papers.env21 import claims

    return decide_scenario(claims, tables_of, ctx, cids, inst)


def _env_tables(ctx: Ctx, p: dict, cids: list) -> dict:
    import pandas as pd

    from dpregret.papers.env21 import scenario as S

    reps = range(p["replicates"])
    return {"tables": {e: pd.concat([S.simulate(e, p, pt, reps, ctx.seed) for pt in pts], ignore_index=True)
                       for e, pts in S.points(p).items()}}


INSTANCES = {
    "env21": lambda ctx, cids: _scenario(_env_tables, ctx, cids),
    "env21_rates": lambda ctx, cids: _scenario(_env_tables, ctx, cids, inst="env21_rates"),
}
