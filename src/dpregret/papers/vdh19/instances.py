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
# the scenario of the smoke preset the instance starts from
BASE = {"vdh19": "vdh19"}


def instance_of(cid: str) -> str | None:
    """The instance deciding claim ``cid`` (None: not a claim of this paper)."""
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
                                           ignore_index=True)}}


INSTANCES = {
    "vdh19": lambda ctx, cids: _scenario(_vdh_tables, ctx, cids),
}
