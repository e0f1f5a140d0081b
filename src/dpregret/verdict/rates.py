"""Rate claims declared as data (Agarwal and Singh, Tables 1 and 2), checked generically: the names
the rate claims have always used for :mod:`dpregret.verdict.spec`'s (``RateSpec`` is its
:class:`~dpregret.verdict.spec.ClaimSpec`; :func:`~dpregret.verdict.spec.evaluate_rate` decides a
spec's algorithm and its primary control, :func:`~dpregret.verdict.spec.evaluate_spec` the whole
claim: regime, learning gate, twin and non-learner)."""
from __future__ import annotations

from dpregret.verdict.spec import TRANSFORMS, ClaimSpec, RateSpec, evaluate_rate, evaluate_spec, select_rows

__all__ = ["TRANSFORMS", "ClaimSpec", "RateSpec", "evaluate_rate", "evaluate_spec", "select_rows"]
