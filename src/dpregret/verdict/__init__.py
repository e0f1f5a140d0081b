"""The verdict layer: the claims machinery (core: Claim, Result, the verdict rule; intervals; spec: claims
declared as data and decided; the privacy audits, privacy*), the audit estimators (audit) and what the paper
folders' small instances of the mutation suite declare (instances).  It imports the core layer, never the
pipeline; the paper folders only through the registries pyproject.toml's layers contract names.

The verdict machinery of the claims (docs/claims.md, "How a claim is decided"): each claim is data plus
a check, and names a negative control that its check must catch.  The claims themselves sit in
the papers' folders; :func:`dpregret.pipeline.registry.all_claims` collects them."""
from dpregret.verdict.core import Claim, Result, check_bound, check_comparison, check_exact, check_privacy, check_rate

__all__ = ["Claim", "Result", "check_bound", "check_comparison", "check_exact", "check_privacy", "check_rate"]
