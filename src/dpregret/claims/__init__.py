"""The verdict machinery of the claims (DESIGN.md, "The claims registry"): each claim is data plus
a check, and names a negative control that its check must catch.  The claims themselves sit in
the papers' folders; :func:`dpregret.registry.all_claims` collects them."""
from .core import Claim, Result, check_bound, check_comparison, check_exact, check_privacy, check_rate

__all__ = ["Claim", "Result", "check_bound", "check_comparison", "check_exact", "check_privacy", "check_rate"]
