"""The elementary intervals every layer uses, once: the t interval of a mean, its one-sided limit
(Bonferroni over a family) and quantile, and the Clopper-Pearson limits of a binomial proportion
(scipy's ``stats.t.interval`` / ``stats.t.ppf`` and the beta quantiles that
``scipy.stats.binomtest(...).proportion_ci(method="exact")`` uses, vectorised over counts)."""
from __future__ import annotations

import numpy as np


def t_interval(values, alpha: float) -> tuple[float, float, float]:
    """(mean, lower, upper): the two-sided ``1 - alpha`` Student t interval of the mean of ``values``
    (one value: its own interval)."""
    from scipy import stats

    v = np.asarray(values, dtype=float).ravel()
    m = float(v.mean())
    if v.size < 2:
        return m, m, m
    se = float(v.std(ddof=1) / np.sqrt(v.size))
    if se == 0.0:
        return m, m, m
    lo, hi = stats.t.interval(1 - alpha, v.size - 1, loc=m, scale=se)
    return m, float(lo), float(hi)


def t_quantile(level: float, df: int | None) -> float:
    """The one-sided ``1 - level`` quantile of Student's t with ``df`` degrees of freedom (the
    normal's when ``df`` is None or 0): the multiplier of a standard error in a one-sided limit."""
    from scipy import stats

    return float(stats.t.ppf(1 - level, df) if df else stats.norm.ppf(1 - level))


def t_lower_limit(values, level: float, family: int = 1) -> float:
    """The one-sided ``1 - level`` lower t limit of the mean of ``values``, Bonferroni over ``family``
    limits (each at ``level / family``): ``mean - t_quantile(level / family, n - 1) x se``."""
    v = np.asarray(values, dtype=float).ravel()
    m, se = float(np.mean(v)), float(np.std(v, ddof=1) / np.sqrt(len(v)))
    return m - t_quantile(level / family, len(v) - 1) * se


def clopper_pearson(k, n: int, alpha_lo: float, alpha_hi: float):
    """One-sided Clopper-Pearson limits of ``k`` successes in ``n`` trials: (lower at level
    ``1 - alpha_lo``, upper at level ``1 - alpha_hi``), each an array shaped as ``k``."""
    from scipy import stats

    k = np.asarray(k, dtype=float)
    lo = np.where(k > 0, stats.beta.ppf(alpha_lo, np.maximum(k, 1), n - k + 1), 0.0)
    hi = np.where(k < n, stats.beta.ppf(1 - alpha_hi, k + 1, np.maximum(n - k, 1)), 1.0)
    return lo, hi
