"""What Zhang, Tran and Cutkosky's folder declares and contributes to the registries: its paper and its
scenario (``PAPER``, ``SCENARIOS``: ``dpregret.papers`` builds its registries from them), and, for the
pipeline's registries (:mod:`dpregret.pipeline.registry` collects every folder's), its built-in learners,
its claims and its privacy audits.  Light at import (``dpregret.papers`` imports it in every process):
each function imports the modules it needs when it runs."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from dpregret.papers import Paper, Scenario

if TYPE_CHECKING:
    from dpregret.core.protocols import LearnerSpec

PAPER = Paper("ZTC22", "Zhang, Tran, Cutkosky 2022", "Differentially Private Online-to-Batch for Smooth Losses",
              "Qinzi Zhang, Hoang Tran and Ashok Cutkosky", 2022,
              "Advances in Neural Information Processing Systems 35 (NeurIPS)", "zhang2022differentially",
              "002_ea604baa8d00e606.txt")
# its scenario (run by the workflow's generic rules; its config parameters in this folder's config.schema.yaml)
SCENARIOS = (Scenario("ztc22", "ZTC22", "ztc22_", folder=__package__, generic=True),)


def validate(scenario: str, p: dict) -> None:
    """The rules across the scenario's keys that its schema cannot say (``dpregret.pipeline.config``): ``d`` within
    the 30 features of data/wdbc.csv, Theorem 11's ``C_pf`` among ``C_grid_pf``, Section 5's shifts ``s_shift_pf``
    within ``r_pf``; the grids put in ascending order."""
    from dpregret.papers import ParamError

    p["T"] = sorted(p["T"])
    p["s_grid"] = sorted(p["s_grid"])
    if "s_adapt" in p:
        p["s_adapt"] = sorted(p["s_adapt"])
    if p["d"] > 30:
        raise ParamError("d", f"{p['d']} exceeds the 30 features of data/wdbc.csv")
    if p["C_pf"] not in p["C_grid_pf"]:
        raise ParamError("C_grid_pf", f"{p['C_grid_pf']} must contain ztc22.C_pf = {p['C_pf']} (the claim is decided "
                         "at C_pf; a smaller C is a secondary control)")
    if any(s > p["r_pf"] for s in p.get("s_shift_pf", [])):
        raise ParamError("s_shift_pf", f"{p['s_shift_pf']}: every ||x* - x_0|| must be <= ztc22.r_pf = {p['r_pf']} "
                         "(the shifted start x_0 lies on the segment from the origin to x*, inside W)")


def learners() -> dict[str, LearnerSpec]:
    """name -> :class:`~dpregret.core.protocols.LearnerSpec`: the OCO learners Algorithm 1 converts
    (Remark 5's projected OGD, Sec. 3's optimistic OGD, Sec. 4's strongly convex OSD, Sec. 5's
    parameter-free learner; the shared ``learners.oco``) and the frozen control."""
    import numpy as np

    from dpregret.core.learners import oco
    from dpregret.core.protocols import LearnerSpec

    specs = [
        LearnerSpec("projected_ogd", "oco", "ZTC22",
                    lambda reps, d, T, seed: oco.ProjectedOGD(len(reps), d, 1.0, lambda t: 1.0)),
        LearnerSpec("optimistic_ogd", "oco", "ZTC22",
                    lambda reps, d, T, seed: oco.OptimisticOGD(len(reps), d, 1.0, 1.0)),
        LearnerSpec("strongly_convex_osd", "oco", "ZTC22",
                    lambda reps, d, T, seed: oco.StronglyConvexOSD(len(reps), d, 1.0, lambda t: t / 2)),
        LearnerSpec("parameter_free", "oco", "ZTC22",
                    lambda reps, d, T, seed: oco.ParameterFree(len(reps), d, 1.0, lambda t: 2.0 * t)),
        LearnerSpec("frozen", "oco", "ZTC22",
                    lambda reps, d, T, seed: oco.Frozen(len(reps), np.full(d, 1.0 / math.sqrt(d))), "control"),
    ]
    return {s.name: s for s in specs}


def claims() -> dict:
    """claim id -> :class:`~dpregret.verdict.core.Claim` (:mod:`.claims`, with Remark 5's of :mod:`.claims_linear`)."""
    from dpregret.papers.ztc22.claims import CLAIMS

    return dict(CLAIMS)


def audits() -> dict:
    """claim id -> :class:`~dpregret.verdict.privacy_audit.AuditSpec` of the audits of its own code
    (:mod:`.audit`), built now from the library as it is: Algorithm 1 end to end (Theorem 3) and
    the DP-SGD baseline.  Theorem 3's tree alone is a shared mechanism's audit
    (``verdict.privacy_trees``)."""
    from dpregret.papers.ztc22 import audit

    specs = (audit.ztc_o2b_spec(), audit.dpsgd_spec())
    return {s.claim.claim_id: s for s in specs}
