"""The claims registry (DESIGN.md, "The claims registry"): each claim is data plus a
check, and names a negative control that its check must catch."""
from .core import Claim, Result, check_bound, check_comparison, check_exact, check_privacy, check_rate

__all__ = ["Claim", "Result", "all_claims", "check_bound", "check_comparison", "check_exact", "check_privacy", "check_rate"]


def all_claims() -> dict:
    """claim id -> :class:`Claim`, over every paper's registry (the base ids, without an env suffix)."""
    from ..papers.env21 import claims as env21
    from ..papers.vdh19 import claims as vdh19
    from ..papers.ztc22 import claims as ztc22
    from ..papers.as17 import claims_experts as as17_experts, claims_tables as as17_tables

    out = {**as17_experts.CLAIMS, as17_experts.EXACT_CLAIM.claim_id: as17_experts.EXACT_CLAIM}
    for spec in as17_tables.OLO_SPECS + as17_tables.MAB_SPECS + as17_tables.BLO_SPECS:
        out[spec.claim.claim_id] = spec.claim
    out.update(as17_tables.OLO_BOUNDS)
    out.update(as17_tables.EXTRA)
    for mod in (env21, vdh19, ztc22):
        out.update(mod.CLAIMS)
    return out
