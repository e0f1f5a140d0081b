"""The claims registry (DESIGN.md, "The claims registry"): each claim is data plus a
check, and names a negative control that its check must catch."""
from .core import Claim, Result, check_bound, check_comparison, check_exact, check_privacy, check_rate

__all__ = ["Claim", "Result", "check_bound", "check_comparison", "check_exact", "check_privacy", "check_rate"]
