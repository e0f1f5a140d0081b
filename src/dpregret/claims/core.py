"""Claim records and the generic checks (kinds ``bound`` and ``rate``).

- ``bound``: ``E[metric - B] <= 0`` at every grid point.  Per point a one-sided
  Student-t interval of the mean of the per-replicate differences (plus the Monte
  Carlo error of B when B holds an estimated expectation), Bonferroni over points.
  PASS if every upper limit is below 0; FAIL if some lower limit is above 0; else
  INCONCLUSIVE.  ``measured`` is the worst ratio mean(metric)/mean(B) (tightness).
- ``rate``: least-squares slope of log(mean metric) on log(x) over >= 4 points spanning
  >= 2 decades, percentile bootstrap over replicates (resampled within each point).
  PASS if the CI's top <= a + tol; FAIL if its bottom > a + tol; else INCONCLUSIVE.

The tolerance is part of the claim (declared in the config before any run), never
fitted to the data.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np
from scipy import stats

from .. import _validate as V

VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE")


@dataclass(frozen=True)
class Claim:
    claim_id: str
    paper: str  # file in ../shared/papers
    theorem: str
    kind: str  # bound | rate | comparison | privacy | exact
    statement: str
    metric: str
    control: str  # the negative control, in words


@dataclass
class Result:
    verdict: str
    measured: float
    bound: float
    ci_low: float
    ci_high: float
    tolerance: float
    detail: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


def check_bound(diffs: list[np.ndarray], ratios: list[float], alpha: float,
                bound_se: list[float] | None = None, labels: list | None = None) -> Result:
    """``diffs[i]``: per-replicate ``metric - B`` at point i; ``ratios[i]``: mean(metric)/mean(B)."""
    alpha = V.probability("alpha", alpha)
    if not diffs:
        raise ValueError("diffs must hold at least one grid point")
    m = len(diffs)
    bound_se = bound_se or [0.0] * m
    a = alpha / m
    lows, highs, means = [], [], []
    for d, bse in zip(diffs, bound_se):
        d = V.finite_array("diffs", d, ndim=1)
        if d.size < 2:
            raise ValueError("each grid point needs at least 2 replicates")
        se = np.sqrt(d.var(ddof=1) / d.size + bse**2)
        q = stats.t.ppf(1 - a, d.size - 1)
        means.append(d.mean())
        lows.append(d.mean() - q * se)
        highs.append(d.mean() + q * se)
    lows, highs = np.array(lows), np.array(highs)
    verdict = "PASS" if np.all(highs < 0) else ("FAIL" if np.any(lows > 0) else "INCONCLUSIVE")
    worst = int(np.argmax(ratios))
    return Result(verdict, float(ratios[worst]), 1.0, float(lows.max()), float(highs.max()), 0.0,
                  {"points": labels or list(range(m)), "mean_diff": [float(x) for x in means],
                   "ci_low": lows.tolist(), "ci_high": highs.tolist(), "ratio": [float(r) for r in ratios],
                   "alpha_per_point": a})


def fit_slope(x: np.ndarray, y: np.ndarray) -> float:
    """Least-squares slope of log(y) on log(x)."""
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def check_rate(x, samples: list[np.ndarray], exponent: float, tol: float, alpha: float,
               rng: np.random.Generator, n_boot: int = 2000, transform=None) -> Result:
    """Rate claim ``mean metric = O(x^exponent)``; ``samples[i]`` are the replicates at ``x[i]``.

    ``transform(x, means)`` may divide out factors the claim states explicitly (e.g. the
    log^2 T of a polylog bound) before the fit.
    """
    x = V.finite_array("x", x, ndim=1)
    alpha = V.probability("alpha", alpha)
    tol = V.nonnegative("tol", tol)
    if x.size != len(samples):
        raise ValueError(f"x has {x.size} points but samples has {len(samples)}")
    if x.size < 4 or np.any(x <= 0) or np.log10(x.max() / x.min()) < 2 - 1e-9:
        return Result("INCONCLUSIVE", float("nan"), exponent, float("nan"), float("nan"), tol,
                      {"reason": "a rate needs >= 4 positive grid points spanning >= 2 decades", "x": x.tolist()})
    tf = transform or (lambda xx, mm: mm)
    samples = [V.finite_array("samples", s, ndim=1) for s in samples]
    means = np.array([s.mean() for s in samples])
    y = tf(x, means)
    detail = {"x": x.tolist(), "mean": means.tolist(), "y": np.asarray(y).tolist()}
    if np.any(y <= 0):
        return Result("INCONCLUSIVE", float("nan"), exponent, float("nan"), float("nan"), tol,
                      {**detail, "reason": "a mean is <= 0, so no log-log slope"})
    slope = fit_slope(x, y)
    boots = np.empty(n_boot)
    idx = [rng.integers(0, s.size, (n_boot, s.size)) for s in samples]
    bmeans = np.stack([s[i].mean(axis=1) for s, i in zip(samples, idx)], axis=1)  # (n_boot, points)
    by = np.stack([tf(x, bm) for bm in bmeans])
    ok = np.all(by > 0, axis=1)
    lx = np.log(x)
    xc = lx - lx.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        boots = (np.log(np.where(ok[:, None], by, 1.0)) @ xc) / (xc @ xc)
    boots[~ok] = np.nan
    if np.mean(~ok) > alpha / 2:
        return Result("INCONCLUSIVE", slope, exponent, float("nan"), float("nan"), tol,
                      {**detail, "reason": f"{np.mean(~ok):.1%} of bootstrap means <= 0"})
    # undefined resamples are put at the unfavourable end (+inf), which can only widen the CI upward
    lo, hi = np.quantile(np.where(ok, boots, np.inf), [alpha / 2, 1 - alpha / 2])
    verdict = "PASS" if hi <= exponent + tol else ("FAIL" if lo > exponent + tol else "INCONCLUSIVE")
    return Result(verdict, slope, exponent, float(lo), float(hi), tol, detail)
