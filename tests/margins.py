"""Declared margins for assertions on simulated quantities: no test on a knife-edge.

A test that asserts a verdict, or a threshold, on a simulated (stochastic) quantity does so
with a margin: the quantity's interval is clear of the threshold by at least ``k`` of its
half-widths (``k = 1`` unless the test states otherwise; where the check reports its point
estimate, the half-width of the side that decides: the skew-aware and bootstrap intervals are
not symmetric), or a statistic is clear of its threshold by ``k`` of its standard errors.  Then neither last-bit
differences of the arithmetic (NumPy dispatches SIMD kernels by CPU) nor another seed of the same design can
flip the assertion without the failure naming the numbers.  Where the outcome is exact (the
data are deterministic), tests assert it directly instead.

- :func:`assert_clear`: an interval ``[low, high]`` clear of ``threshold`` on ``side``;
- :func:`assert_result_clear`: a check's :class:`Result` has the verdict (PASS or FAIL) and its
  interval is clear of its threshold (``bound + tolerance``, or the one given) on that side;
- :func:`assert_z`: a statistic clear of ``threshold`` by ``k`` standard errors;
- :func:`assert_verdict` / :func:`assert_not_verdict`: a check's :class:`Result` has (has
  not) the verdict, with every deciding interval clear of its threshold.
"""
from __future__ import annotations

import math

SIDES = ("below", "above", "inside")


def clearance(low: float, high: float, threshold: float, side: str, estimate: float | None = None) -> float:
    """How far ``[low, high]`` clears ``threshold`` on ``side``, in half-widths of the interval
    (negative: on the wrong side).  ``below``: (threshold - high) / hw; ``above``:
    (low - threshold) / hw; ``inside``: the threshold's distance from the nearer end.  With the
    point ``estimate`` (strictly inside the interval) the half-width is that of the side in
    question: ``high - estimate`` for ``below``, ``estimate - low`` for ``above`` (the skew-aware
    and bootstrap intervals are not symmetric); else half the interval's width."""
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, got {side!r}")
    low, high, threshold = float(low), float(high), float(threshold)
    if not (math.isfinite(low) and math.isfinite(high) and math.isfinite(threshold)) or high < low:
        return float("nan")
    if estimate is not None and low < float(estimate) < high:
        up, down = high - float(estimate), float(estimate) - low
    else:
        up = down = (high - low) / 2
    parts = {"below": [(threshold - high, up)], "above": [(low - threshold, down)],
             "inside": [(threshold - low, down), (high - threshold, up)]}[side]
    out = []
    for d, hw in parts:
        out.append(math.copysign(math.inf, d) if hw == 0 and d else (0.0 if hw == 0 else d / hw))
    return min(out)


def assert_clear(low: float, high: float, threshold: float, side: str, k: float = 1.0, what: str = "",
                 estimate: float | None = None) -> float:
    """``[low, high]`` lies on ``side`` of ``threshold`` (``below``, ``above``; ``inside``: the
    threshold inside the interval) by at least ``k`` half-widths (see :func:`clearance`).
    Returns the clearance."""
    c = clearance(low, high, threshold, side, estimate)
    if not c >= k:
        raise AssertionError(f"{what or 'interval'} [{low:.6g}, {high:.6g}] is not {side} {threshold:.6g} "
                             f"by {k:g} half-width(s): clearance {c:.3g}")
    return c


def assert_result_clear(res, verdict: str, threshold: float | None = None, k: float = 1.0) -> float:
    """``res`` has ``verdict`` (``FAIL``: its interval above the threshold, ``PASS``: below) and its
    interval ``[ci_low, ci_high]`` clears the threshold (``bound + tolerance``, or ``threshold``) on
    that side by at least ``k`` half-widths.  Returns the clearance."""
    if verdict not in ("PASS", "FAIL"):
        raise ValueError(f"verdict must be PASS or FAIL, got {verdict!r}")
    assert res.verdict == verdict, f"verdict {res.verdict}, expected {verdict}: {res}"
    thr = res.bound + res.tolerance if threshold is None else threshold
    return assert_clear(res.ci_low, res.ci_high, thr, "above" if verdict == "FAIL" else "below", k, str(verdict))


def assert_z(stat: float, se: float, threshold: float, side: str, k: float, what: str = "") -> float:
    """The statistic lies on ``side`` (``below``/``above``) of ``threshold`` by at least ``k``
    standard errors ``se``.  Returns the distance in standard errors."""
    if side not in ("below", "above"):
        raise ValueError(f"side must be 'below' or 'above', got {side!r}")
    stat, se, threshold = float(stat), float(se), float(threshold)
    z = ((threshold - stat) if side == "below" else (stat - threshold)) / se if se > 0 else float("nan")
    if not z >= k:
        raise AssertionError(f"{what or 'statistic'} {stat:.6g} (se {se:.3g}) is not {side} {threshold:.6g} "
                             f"by {k:g} standard errors: {z:.3g}")
    return z


def intervals(r) -> list[tuple[float, float, float, float | None]]:
    """The deciding intervals of a check's :class:`~dpregret.verdict.core.Result` as
    ``(low, high, threshold, estimate)``: one per grid point for ``check_bound`` (mean(metric - B)
    against 0, estimate its mean), else the result's interval against its threshold (``bound +
    tolerance`` for a rate, ``bound`` for a comparison, a slope difference or a coverage rate;
    estimate ``measured``); a bound check that kept only its most critical point, that point
    against 0 (no estimate)."""
    d = r.detail
    if isinstance(d.get("ci_low"), list) and isinstance(d.get("ci_high"), list):
        est = d.get("mean_diff") or [None] * len(d["ci_low"])
        return [(lo, hi, 0.0, m) for lo, hi, m in zip(d["ci_low"], d["ci_high"], est)]
    ci_of = str(d.get("ci_of", ""))
    if ci_of.startswith("mean(metric - bound)"):  # a bound check reporting its most critical point only
        return [(r.ci_low, r.ci_high, 0.0, None)]
    thr = r.bound + r.tolerance if ci_of == "log-log slope" else r.bound
    return [(r.ci_low, r.ci_high, thr, r.measured)]


def _side_clearances(r, side: str) -> list[float]:
    return [clearance(lo, hi, thr, side, est) for lo, hi, thr, est in intervals(r)]


def verdict_clearance(r, verdict: str) -> float:
    """How robustly ``r`` has ``verdict``, in half-widths: PASS, every interval below its
    threshold (the least clear one); FAIL, some interval above (the clearest one);
    INCONCLUSIVE, the threshold inside: no interval's low end above it and some interval's high
    end above it (the smaller of the two distances)."""
    if "deterministic" in str(r.detail.get("ci_of", "")):  # check_exact: a count, no sampling error
        return math.inf if r.verdict == verdict else -math.inf
    below, above = _side_clearances(r, "below"), _side_clearances(r, "above")
    if verdict == "PASS":
        return min(below)
    if verdict == "FAIL":
        return max(above)
    if verdict == "INCONCLUSIVE":
        return min(min(-a for a in above), max(-b for b in below))
    raise ValueError(f"verdict must be PASS, FAIL or INCONCLUSIVE, got {verdict!r}")


def assert_verdict(r, verdict: str, k: float | None = None, what: str = "") -> float:
    """``r.verdict == verdict`` and its deciding intervals clear their thresholds by at least
    ``k`` half-widths (see :func:`verdict_clearance`).  ``k`` defaults to 1 for PASS and FAIL and
    to 0.5 for INCONCLUSIVE, whose clearance cannot exceed 1 (the threshold at the interval's
    centre).  Returns the clearance."""
    k = (0.5 if verdict == "INCONCLUSIVE" else 1.0) if k is None else k
    c = verdict_clearance(r, verdict)
    if r.verdict != verdict or not c >= k:
        raise AssertionError(f"{what or 'result'}: verdict {r.verdict}, expected {verdict} clear by {k:g} "
                             f"half-width(s): clearance {c:.3g}; intervals (low, high, threshold, estimate) "
                             f"{intervals(r)}")
    return c


def not_verdict_clearance(r, verdict: str) -> float:
    """How robustly ``r`` has not ``verdict``, in half-widths: not FAIL, every interval's low end
    under its threshold (the least clear one); not PASS, some interval's high end above it."""
    if "deterministic" in str(r.detail.get("ci_of", "")):  # check_exact: a count, no sampling error
        return math.inf if r.verdict != verdict else -math.inf
    if verdict == "FAIL":
        return min(-a for a in _side_clearances(r, "above"))
    if verdict == "PASS":
        return max(-b for b in _side_clearances(r, "below"))
    raise ValueError(f"verdict must be PASS or FAIL, got {verdict!r}")


def assert_not_verdict(r, verdict: str, k: float = 1.0, what: str = "") -> float:
    """``r.verdict != verdict`` with margin: not FAIL, every interval's low end below its
    threshold by at least ``k`` half-widths; not PASS, some interval's high end above it by ``k``."""
    c = not_verdict_clearance(r, verdict)
    if r.verdict == verdict or not c >= k:
        raise AssertionError(f"{what or 'result'}: verdict {r.verdict}, expected not {verdict} with the interval "
                             f"{k:g} half-width(s) away: {c:.3g}; intervals (low, high, threshold, estimate) "
                             f"{intervals(r)}")
    return c
