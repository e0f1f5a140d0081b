"""The small instance the mutation suite (:mod:`dpregret.pipeline.mutation`) decides van der Hoeven's
claims on: the smoke preset's scenario at the grids of :data:`SMALL` (chosen for cost), decided by the
same ``simulate_*`` functions and :func:`dpregret.papers.vdh19.claims.evaluate` as the pipeline's
rules.  The declarations are those of :mod:`dpregret.verdict.instances`."""
from __future__ import annotations

from dpregret.verdict.instances import Ctx, decide_scenario

# Grids of the small instance: overrides of the smoke preset (same keys as config.yaml).
SMALL = {
    "vdh19": {"T": [100], "printed_T_max": 0, "T_u": 100, "T_sparse": [100], "u_frac": [0, 1, 2],
              "u_grid": [1, 10, 100], "D_ratio_grid": [10, 100, 1000], "replicates": 16},
}
# The privacy-cost claims (a rate in T: two decades of T needed) on an instance of their own, which only the
# mutants targeting them pay for: the default T grid, 16 replicates, Algorithm 2 and the frozen learner only.
SMALL["vdh19_cost"] = {"T": [100, 316, 1000, 3162, 10000], "replicates": 16}
COST_CLAIMS = ("VDH-sec3.4-minority-cost-rate-T", "VDH-sec3.4-minority-cost-rate-T-adversarial")
# the scenario of the smoke preset the instance starts from
BASE = {"vdh19": "vdh19", "vdh19_cost": "vdh19"}


def instance_of(cid: str) -> str | None:
    """The instance deciding claim ``cid`` (None: not a claim of this paper)."""
    if cid in COST_CLAIMS:
        return "vdh19_cost"
    return "vdh19" if cid.startswith("VDH-") else None


def _scenario(tables_of, ctx: Ctx, cids):
    from dpregret.papers.vdh19 import claims

    return decide_scenario(claims, tables_of, ctx, cids, "vdh19")


def _vdh_tables(ctx: Ctx, p: dict, cids: list) -> dict:
    import pandas as pd

    from dpregret.papers.vdh19 import scenario as S

    reps, s = range(p["replicates"]), ctx.seed
    return {"tables": {"minority": pd.concat([S.simulate_minority(p, T, reps, s) for T in p["T"]], ignore_index=True),
                       "unorm": S.simulate_unorm(p, reps, s),
                       "sparse": pd.concat([S.simulate_sparse(p, T, reps, s) for T in p["T_sparse"]],
                                           ignore_index=True),
                       "search": S.simulate_search(p, reps, s)}}


def _cost(ctx: Ctx, cids) -> dict:
    """The privacy-cost claims decided as :func:`dpregret.papers.vdh19.claims.evaluate` decides them (the
    cost's rate, its learning gate, the frozen learner on the gate), on Algorithm 2's and the frozen
    learner's minority rows at every T of the instance."""
    import pandas as pd

    from dpregret.papers.vdh19 import claims as C
    from dpregret.papers.vdh19 import scenario as S
    from dpregret.verdict.instances import Outcome

    p = ctx.params("vdh19_cost")
    reps = range(p["replicates"])
    mino = pd.concat([S.simulate_minority(p, T, reps, ctx.seed, paper_algs=("alg2", "frozen")) for T in p["T"]],
                     ignore_index=True)
    out = {}
    for cid in cids:
        placement = "adversarial" if cid.endswith("-adversarial") else "random"
        res, ctl = C.minority_cost_claim(mino, placement, ctx.tolerances, ctx.alpha, ctx.rng, cid)
        m1 = mino[mino.u_frac == 1.0]
        res = C.with_nonlearner(res, C.FROZEN,
                                C.learning_gate(m1, "frozen", ctx.alpha, ctx.rng(cid + "/gate-nonlearner")))
        out[cid] = Outcome(C.CLAIMS[cid], res, ctl)
    return out


INSTANCES = {
    "vdh19": lambda ctx, cids: _scenario(_vdh_tables, ctx, cids),
    "vdh19_cost": _cost,
}
