"""Agarwal and Singh (ICML 2017), sections 3-4 (Tables 1 and 2): the non-learner controls and the
learning gates of the claims (the verdict rule's "a learner that does not learn must not pass",
:mod:`dpregret.verdict.core`).

The trivial learner of each setting is measured on the same draws as the paper's learner and
stored beside it in every run table, so no extra simulation is needed:

- experts: uniform weights, ``sum_t <1/N, l_t> - min_i L_T,i`` (column ``uniform_regret``);
- online linear optimisation (ball, cube): frozen at the centre 0, ``-min_X <L_T, x>``
  (column ``comparator``);
- multi-armed bandit: a uniformly random arm (column ``trivial_regret``, its expected regret);
- bandit linear optimisation: the centre of the domain (column ``trivial_regret``).

A rate, bound or comparison claim decides that learner by its own check on the same draws
(:func:`dpregret.verdict.core.with_nonlearner`).  A claim that a non-learner meets by construction
-- a paired gap (private minus non-private: 0 for a learner that ignores its feedback), a rate in
N or in 1/eps (its regret is flat in both) -- carries a *learning gate* instead
(:func:`dpregret.verdict.core.with_learning_gate`), and its non-learner control is the
non-learner's result on that gate:

- :func:`gate_T` (a grid in T): the learner's regret grows at most as ``T^GATE_SLOPE_MAX``
  (the upper limit of its log-log slope's interval, :func:`~dpregret.verdict.core.check_rate`
  with exponent 0.75 and no tolerance) *and* at the largest T it is at most ``GATE_SHARE_MAX``
  of the non-learner's on the same replicates (the paired upper limit of ``R - R_nl / 2`` below
  0, :func:`~dpregret.verdict.core.check_bound`);
- :func:`gate_points` (a grid in N or eps): at every point the learner's regret is at most
  ``GATE_SHARE_MAX`` of the non-learner's (paired, Bonferroni over the points).

A gate PASSes when every part PASSes, FAILs when some part FAILs (a non-learner: slope ~1 and
a share of 1), and is INCONCLUSIVE otherwise.  The thresholds are declared here, before any run.
"""
from __future__ import annotations

import numpy as np

import pandas as pd

from dpregret.verdict.core import Result, check_bound, check_rate
from dpregret.verdict.spec import Regime, share_regime

GATE_SLOPE_MAX = 0.75  # a learner's regret slope in T must stay below this (the non-learner's is 1)
GATE_SHARE_MAX = 0.5  # and its regret below this share of the non-learner's


def combine(parts: dict[str, Result], what: str) -> Result:
    """One gate from its parts: PASS if all PASS, FAIL if any FAILs, else INCONCLUSIVE.  The
    reported number is the first part's; ``margin`` (how far the FAIL side clears its threshold,
    in interval widths) the largest of the parts'."""
    verdicts = [r.verdict for r in parts.values()]
    verdict = "PASS" if all(v == "PASS" for v in verdicts) else ("FAIL" if "FAIL" in verdicts else "INCONCLUSIVE")
    first = next(iter(parts.values()))
    margins = [float(r.detail.get("margin", np.nan)) for r in parts.values()]
    margin = float(np.nanmax(margins)) if not np.all(np.isnan(margins)) else float("nan")
    return Result(verdict, first.measured, first.bound, first.ci_low, first.ci_high, first.tolerance,
                  {"gate": what, "ci_of": f"{next(iter(parts))} (first part)", "margin": margin,
                   "parts": {k: {"verdict": r.verdict, "measured": r.measured, "bound": r.bound, "ci_low": r.ci_low,
                                 "ci_high": r.ci_high, "margin": float(r.detail.get("margin", np.nan))}
                             for k, r in parts.items()}})


def gate_T(x, regret: list[np.ndarray], nonlearner_at_max: np.ndarray, alpha: float,
           rng: np.random.Generator, who: str = "the learner's non-private regret") -> Result:
    """The learning gate on a T grid: ``regret[i]`` are the learner's regrets at ``x[i]``
    (replicates in order), ``nonlearner_at_max`` the non-learner's at the largest T on the same
    replicates.  See the module docstring."""
    x = np.asarray(x, dtype=float)
    slope = check_rate(x, regret, GATE_SLOPE_MAX, 0.0, alpha, rng)
    top = int(np.argmax(x))
    r, nl = np.asarray(regret[top], dtype=float), np.asarray(nonlearner_at_max, dtype=float)
    if r.shape != nl.shape:
        raise ValueError(f"the learner has {r.shape} replicates at T = {x[top]:g}, the non-learner {nl.shape}")
    share = check_bound([r - GATE_SHARE_MAX * nl], [float(r.mean() / (GATE_SHARE_MAX * nl.mean()))], alpha,
                        labels=[{"T": float(x[top]), "regret": float(r.mean()), "nonlearner": float(nl.mean())}])
    return combine({f"slope of {who} in T <= {GATE_SLOPE_MAX}": slope,
                    f"{who} at the largest T <= {GATE_SHARE_MAX} x the non-learner's": share},
                   f"learning gate on {who}")


def gate_points(labels: list, regret: list[np.ndarray], nonlearner: list[np.ndarray], alpha: float,
                who: str = "the learner's regret") -> Result:
    """The learning gate on a grid in N or eps: at every point ``regret[i] <= GATE_SHARE_MAX x
    nonlearner[i]`` (paired by replicate), Bonferroni over the points."""
    diffs, ratios = [], []
    for r, nl in zip(regret, nonlearner):
        r, nl = np.asarray(r, dtype=float), np.asarray(nl, dtype=float)
        if r.shape != nl.shape:
            raise ValueError(f"the learner has {r.shape} replicates, the non-learner {nl.shape}")
        diffs.append(r - GATE_SHARE_MAX * nl)
        ratios.append(float(r.mean() / (GATE_SHARE_MAX * nl.mean())))
    share = check_bound(diffs, ratios, alpha, labels=list(labels))
    return combine({f"{who} <= {GATE_SHARE_MAX} x the non-learner's at every point": share},
                   f"learning gate on {who}")


# A regret rate in T stated for the paper's sqrt(T) term (Corollary 3.2, Theorem 3.5) is decided only where that term
# dominates the additive privacy term: the private-minus-non-private share of the mean regret at most the preset's
# regret_regime.privacy_share_max at every T (dpregret.verdict.spec.Regime)
SQRT_T_REGIME = Regime("privacy_share", "max", "regret_regime.privacy_share_max", optional=True,
                       why="the privacy term is more than its declared share of the regret at some T "
                           "(the paper's sqrt(T) term does not dominate there)")


def privacy_share_regime(priv: pd.Series, base: pd.Series, res: Result, share_max: float, eps: float) -> Result:
    """:data:`SQRT_T_REGIME` on the mean regret by T of the learner (``priv``) and of its non-private
    twin (``base``): the share ``1 - base / priv`` at most ``share_max`` at every T, else
    :func:`~dpregret.verdict.core.not_in_regime` with the numbers (:func:`~dpregret.verdict.spec.share_regime`)."""
    return share_regime(res, SQRT_T_REGIME, "T", priv, base.reindex(priv.index), share_max, eps)
