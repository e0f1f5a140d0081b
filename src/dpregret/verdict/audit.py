"""Empirical privacy lower bounds (docs/claims.md, the privacy audits), white-box.

Recipe (DP-Sniper / Jagielski et al. style): draw outputs of the mechanism on two fixed
worst-case neighbouring inputs D and D'; score every output by its exact log-likelihood
ratio ``log p_D(y) / p_D'(y)`` under the *claimed* noise (rounded to 1e-9 so that equal
scores tie exactly); choose a threshold event ``{score >= tau}`` on one half of the
samples; on the other half, Clopper-Pearson bounds give

    eps_lb = ln((p1_lo - delta) / p0_hi),   p1 = P_D(E), p0 = P_D'(E),

in both orientations (D against D' with the upper tail, D' against D with the lower tail),
the error level ``alpha`` split over the two orientations and the two bounds of each, so
the reported ``eps_lb`` holds with probability >= 1 - alpha.

For Gaussian claims, :func:`gdp_mu_lower_bound` gives the Gaussian-DP ``mu`` lower bound of
the same threshold test, and :func:`renyi_lower_bound` the Renyi divergence of the two
event indicators (data processing: it cannot exceed the mechanism's RDP).

A lower bound can refute a privacy claim, never prove it; tightness (``eps_lb`` close to
the claim for pure-DP Laplace mechanisms) shows the auditor is not blind.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from scipy import special

from dpregret.core import validate as V
from dpregret.core.stats import clopper_pearson as _cp
from dpregret.verdict.audit_sort import sort_scores

SCORE_DECIMALS = 9
MAX_THRESHOLDS = 256
_CP_BATCH = 32  # candidates per Clopper-Pearson evaluation in _best_threshold (speed only)


def clopper_pearson(k, n, alpha_lo: float, alpha_hi: float):
    """One-sided Clopper-Pearson limits: (lower at level 1-alpha_lo, upper at 1-alpha_hi)
    (:func:`dpregret.core.stats.clopper_pearson`, with ``n`` validated)."""
    return _cp(k, V.integer("n", n), alpha_lo, alpha_hi)


@dataclass
class Audit:
    eps_lb: float
    delta: float
    alpha: float
    orientation: str
    threshold: float
    p1_lo: float
    p0_hi: float
    n_eval: int
    mu_lb: float | None = None
    column: int = 0  # the score column the selection half chose (0 for a single score)

    def as_dict(self) -> dict:
        return asdict(self)


def score_array(name: str, x) -> np.ndarray:
    """Scores as an (n, k) array (k candidate statistics of the same outputs), rounded."""
    a = np.asarray(x, dtype=float)
    a = V.finite_array(name, a[:, None] if a.ndim == 1 else a, ndim=2)
    return np.round(a, SCORE_DECIMALS)


def _quantiles(sorted_x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Linear-interpolation quantiles of an already sorted sample (no second sort)."""
    pos = q * (sorted_x.size - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, sorted_x.size - 1)
    return sorted_x[lo] + (sorted_x[hi] - sorted_x[lo]) * (pos - lo)


def _best_threshold(s1s: np.ndarray, s0s: np.ndarray, delta: float, a: float) -> tuple[float, float]:
    """The threshold maximising the Clopper-Pearson eps bound on the selection half (``s1s``, ``s0s``:
    its two samples' scores, sorted), and that bound (the selection half's own value, used only to
    choose among score columns)."""
    # a quantile grid plus the largest distinct scores (atoms of the LLR, e.g. saturated Laplace terms)
    distinct = s1s[np.concatenate([[True], s1s[1:] != s1s[:-1]])]
    cand = np.unique(np.concatenate([_quantiles(s1s, np.linspace(0, 1, MAX_THRESHOLDS)),
                                     distinct[-MAX_THRESHOLDS // 4:]]))
    k1 = s1s.size - np.searchsorted(s1s, cand, side="left")
    k0 = s0s.size - np.searchsorted(s0s, cand, side="left")
    # Clopper-Pearson limits are the expensive part; the point estimate bounds a candidate's value from
    # above (p1_lo <= k1/n1, p0_hi >= k0/n0), so candidates are evaluated in decreasing order of that bound
    # until no remaining one can reach the best found: the same argmax as evaluating all of them
    with np.errstate(divide="ignore", invalid="ignore"):
        ub = np.log(np.maximum(k1 / s1s.size - delta, 0) / (k0 / s0s.size))
    ub = np.where(np.isnan(ub), -np.inf, ub)
    order = np.argsort(-ub, kind="stable")
    eps = np.full(cand.size, -np.inf)
    best, done = -np.inf, 0
    while done < cand.size and not ub[order[done]] + 1e-9 < best:
        idx = order[done:done + _CP_BATCH]
        p1_lo, _ = clopper_pearson(k1[idx], s1s.size, a, a)
        _, p0_hi = clopper_pearson(k0[idx], s0s.size, a, a)
        with np.errstate(divide="ignore", invalid="ignore"):
            e = np.log(np.maximum(p1_lo - delta, 0) / p0_hi)
        eps[idx] = np.where(np.isfinite(e), e, -np.inf)
        best, done = max(best, float(eps[idx].max())), done + idx.size
    i = int(np.argmax(eps))
    return float(cand[i]), float(eps[i])


def eps_lower_bound(scores_d: np.ndarray, scores_dp: np.ndarray, delta: float, alpha: float,
                    rng: np.random.Generator) -> Audit:
    """eps lower bound from scores of samples under D (``scores_d``) and D' (``scores_dp``).

    A score is any statistic of one output (its LLR under the claimed noise is the most
    powerful one when the claim is right).  Shape (n,) or (n, k): with k columns (k candidate
    statistics of the same outputs), the selection half picks the column and its threshold,
    and only the evaluation half enters the bound, so the choice costs no confidence."""
    delta = V.probability("delta", delta, open_left=False)
    alpha = V.probability("alpha", alpha)
    s_d, s_dp = score_array("scores_d", scores_d), score_array("scores_dp", scores_dp)
    if s_d.shape[1] != s_dp.shape[1]:
        raise ValueError(f"scores_d and scores_dp must have the same columns, got {s_d.shape[1]} and {s_dp.shape[1]}")
    if min(len(s_d), len(s_dp)) < 4:
        raise ValueError("scores_d and scores_dp need at least 4 samples each")
    a = alpha / 4  # two orientations x (lower bound on p1, upper bound on p0)
    # one random half of each sample selects (column, threshold), the other half evaluates;
    # both orientations use the same halves (the union bound over them needs no independence)
    m_d, m_dp = rng.random(len(s_d)) < 0.5, rng.random(len(s_dp)) < 0.5
    halves = {"sel": (s_d[m_d], s_dp[m_dp]), "ev": (s_d[~m_d], s_dp[~m_dp])}
    best = None
    if min(len(halves["sel"][0]), len(halves["sel"][1])) < 2:
        raise ValueError("scores_d and scores_dp need at least 4 samples each")
    # each selection column sorted once: the lower-tail orientation reads -x sorted as -(x sorted, reversed)
    srt = [[sort_scores(h[:, c]) for c in range(h.shape[1])] for h in halves["sel"]]
    for name, sign, k1, k0 in (("D vs D', upper tail", 1.0, 0, 1), ("D' vs D, lower tail", -1.0, 1, 0)):
        cols = zip(srt[k1], srt[k0])
        sel = [_best_threshold(x1, x0, delta, a) if sign > 0 else _best_threshold(-x1[::-1], -x0[::-1], delta, a)
               for x1, x0 in cols]
        col = int(np.argmax([e for _, e in sel]))
        tau = sel[col][0]
        e1, e0 = sign * halves["ev"][k1][:, col], sign * halves["ev"][k0][:, col]
        p1_lo, _ = clopper_pearson(np.sum(e1 >= tau), e1.size, a, a)
        _, p0_hi = clopper_pearson(np.sum(e0 >= tau), e0.size, a, a)
        eps = float(np.log(max(float(p1_lo) - delta, 0.0) / float(p0_hi))) if p1_lo > delta else -np.inf
        cand = Audit(max(eps, 0.0), delta, alpha, name, tau if sign > 0 else -tau,
                     float(p1_lo), float(p0_hi), int(min(e1.size, e0.size)), column=col)
        if best is None or cand.eps_lb > best.eps_lb:
            best = cand
    return best


def gdp_mu_lower_bound(scores_d: np.ndarray, scores_dp: np.ndarray, alpha: float,
                       rng: np.random.Generator) -> tuple[float, float]:
    """Gaussian-DP lower bound: a test with type I error a0 and type II error b0 implies
    ``mu >= Phi^-1(1 - a0) - Phi^-1(b0)``; Clopper-Pearson upper limits on both errors,
    threshold (and, for (n, k) scores, the column) chosen on one half.  Returns (mu_lb, threshold)."""
    alpha = V.probability("alpha", alpha)
    s_d, s_dp = score_array("scores_d", scores_d), score_array("scores_dp", scores_dp)
    if s_d.shape[1] != s_dp.shape[1]:
        raise ValueError(f"scores_d and scores_dp must have the same columns, got {s_d.shape[1]} and {s_dp.shape[1]}")
    a = alpha / 2
    m_d, m_dp = rng.random(len(s_d)) < 0.5, rng.random(len(s_dp)) < 0.5

    def mu(x1s, x0s, tau):
        # reject "D'" when score >= tau: type I error = P_D'(E), type II error = P_D(not E)
        _, a0 = clopper_pearson(x0s.size - np.searchsorted(x0s, tau, side="left"), x0s.size, a, a)
        _, b0 = clopper_pearson(np.searchsorted(x1s, tau, side="left"), x1s.size, a, a)
        return special.ndtri(1 - a0) - special.ndtri(b0)

    best = (-np.inf, 0.0, 0)
    for c in range(s_d.shape[1]):
        sel1, sel0 = sort_scores(s_d[m_d, c]), sort_scores(s_dp[m_dp, c])
        # two sorted runs: merged in O(n)
        cand = np.unique(_quantiles(np.sort(np.concatenate([sel1, sel0]), kind="stable"), np.linspace(0.01, 0.99, 99)))
        vals = mu(sel1, sel0, cand)
        k = int(np.nanargmax(vals))
        if vals[k] > best[0]:
            best = (float(vals[k]), float(cand[k]), c)
    _, tau, c = best
    e1, e0 = s_d[~m_d, c], s_dp[~m_dp, c]  # the evaluation half: two counts at tau (no sort needed)
    _, a0 = clopper_pearson(np.count_nonzero(e0 >= tau), e0.size, a, a)
    _, b0 = clopper_pearson(np.count_nonzero(e1 < tau), e1.size, a, a)
    m = special.ndtri(1 - a0) - special.ndtri(b0)
    return float(max(m, 0.0)), tau


def bernoulli_renyi(alpha_order: float, p: float, q: float) -> float:
    """Renyi divergence of order ``alpha_order`` between Bernoulli(p) and Bernoulli(q)."""
    a = V.positive("alpha_order", alpha_order)
    if a <= 1:
        raise ValueError(f"alpha_order must be > 1, got {alpha_order!r}")
    p = V.probability("p", p, open_left=False, open_right=False)
    q = V.probability("q", q)
    terms = [p**a * q ** (1 - a), (1 - p) ** a * (1 - q) ** (1 - a)]
    return float(np.log(sum(terms)) / (a - 1))


def renyi_lower_bound(audit: Audit, orders) -> dict[float, float]:
    """Renyi divergence lower bounds at fixed orders from an audit's event probabilities:
    moving p1 down to ``p1_lo`` and p0 up to ``p0_hi`` can only shrink the divergence."""
    out = {}
    for a in np.atleast_1d(orders):
        p1, p0 = audit.p1_lo, audit.p0_hi
        out[float(a)] = bernoulli_renyi(float(a), p1, p0) if p1 > p0 else 0.0
    return out
