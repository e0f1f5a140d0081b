"""Remark 5 (Sec. 2) of Zhang, Tran, Cutkosky (NeurIPS 2022) decided on its worst case: the rates in T,
rho and d of Algorithm 1 over the family of G-Lipschitz stochastic linear losses on the ball.

Remark 5 bounds the suboptimality of Algorithm 1 by a statistical term (sigma_G + D sigma_H) /
sqrt(T) and a privacy term sqrt(d) log T / (rho T), both upper bounds over every G-Lipschitz
problem; a fixed instance shows its own curvature instead (``papers.ztc22.scenario``'s module
docstring).  So each point of the grid (T, 1/rho or d) takes the family member ``c*`` with the
largest mean suboptimality, or privacy cost (minus the non-private twin's, paired by
replicate), over the signal grid ``c_grid`` of ``LinearFamily`` (:func:`worst_case`), and the
slope of that supremum is fitted on the points that pass the filter declared before the
deciding run (:func:`worst_case_rate`).  Decided here, for ``papers.ztc22.claims``'s ``evaluate`` and
for a user's learner inside Algorithm 1 (``papers.ztc22.scenario``'s user claims):

- ``ZTC-rem5-rate-T-priv`` and ``ZTC-rem5-rate-T-stat`` on the ``linear_T`` table
  (:func:`linear_T_claims`, any OCO learner named by :func:`linear_T_algs`);
- ``ZTC-rem5-rate-rho`` and ``ZTC-rem5-rate-d`` on the ``minimax`` table
  (:func:`minimax_claims`).

The claims' texts are in ``papers.ztc22.claims.CLAIMS``.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dpregret.verdict.core import (Result, check_bound, check_rate, not_in_regime, with_learning_gate, with_nonlearner,
                                   with_twin)
from dpregret.verdict.spec import claim_tolerance

# The mis-tuned twins (``papers.ztc22.scenario.TWINS``: the paper's OGD with one tuning mistake, on the same draws,
# the first ``replicates_twin`` replicates), declared per claim before the run that decides them, with why each is
# the smallest realistic tuning mistake that claim should see.
TWIN_WHY = {
    "npstep": "Remark 5's OGD with the step that ignores the privacy term (Ghat_t^2 of Theorem 4's second part at "
              "rho = inf: the learner tuned for the data alone, the most common slip when a non-private learner is "
              "dropped into a private conversion); its step does not shrink with the noise, so its regret grows with "
              "the noise's variance (1/rho^2, d) instead of its standard deviation (1/rho, sqrt(d))",
    "sumstep": "Remark 5's OGD with its step's exponent in T one notch off: 2r / sum_s Ghat_s in place of 2r / "
               "sqrt(sum_s Ghat_s^2) (a dropped square root; t^-2 in place of t^-3/2 at k = 1): the learner moves "
               "too little to leave its start on the members whose signal is small",
}


def worst_case(g: pd.DataFrame, key: str, alg: str, base: str | None = "nonprivate") -> list[dict]:
    """Per value of ``key`` (T, rho or d) in a ``LinearFamily`` table: the family member ``c*``
    with the largest mean of ``alg``'s suboptimality (minus ``base``'s, paired by replicate,
    when ``base`` is given: the privacy cost), its per-replicate samples, whether c* is at an
    end of the signal grid, ``alg``'s mean suboptimality at c* over its largest possible value
    ``2 r c*`` (saturation), and ``base``'s own worst case over the family (the statistical
    term).  Sorted by x (1/rho for rho)."""
    out = []
    for v, h in g.groupby(key):
        a = h[h.alg == alg].set_index(["c", "replicate"]).subopt
        nb = h[h.alg == (base or "nonprivate")]
        val = a - nb.set_index(["c", "replicate"]).subopt.reindex(a.index) if base else a
        means = val.groupby(level="c").mean()
        c_star = float(means.idxmax())
        cs = sorted(means.index)
        r = float(h["r"].iloc[0]) if "r" in h else 1.0
        out.append({"x": 1.0 / v if key == "rho" else float(v), "c_star": c_star,
                    "samples": val.xs(c_star, level="c").sort_index().to_numpy(),
                    "edge": c_star in (cs[0], cs[-1]), "members": len(cs), "r": r,
                    "saturation": float(a.xs(c_star, level="c").mean() / (2 * r * c_star)),
                    "stat": float(nb.groupby("c").subopt.mean().max()) if len(nb) else float("nan")})
    return sorted(out, key=lambda o: o["x"])


def worst_case_costs(g: pd.DataFrame, key: str, alg: str):
    """x (1/rho or d), the per-replicate paired privacy cost at the worst family member, and
    that member's c, per grid point (figures)."""
    w = worst_case(g, key, alg)
    return np.array([o["x"] for o in w]), [o["samples"] for o in w], [o["c_star"] for o in w]


# Declared before the deciding run: a worst-case point enters a rate fit only if its
# worst member is inside the signal grid (not at an end: the supremum may lie beyond it), the
# worst member is not saturated (Algorithm 1's suboptimality there below half its largest
# possible value 2 r c*) and, for the privacy rates, Theorem 4's privacy term is at least twice
# its statistical term at the point (the paper's term dominates; ``thm4_term_ratio``).  For the
# statistical rate, Algorithm 1's worst case is within 25% of its non-private twin's.
SATURATION_MAX = 0.5
PRIVACY_TERM_RATIO_MIN = 2.0
STAT_RATIO_MAX = 1.25
# (COST_OVER_STAT_MIN_RHO, a 4x cost-over-statistical-error filter on the rho rate, was placed after the rate
# was seen between observed points: removed 2026-11-29, config history of ZTC-rem5-rate-rho.  The regime is
# Theorem 4's own: its privacy term >= PRIVACY_TERM_RATIO_MIN x its statistical term, derived before any run.)
# The learning gate of the paired privacy-cost claims (``core.with_learning_gate``), declared with it: at
# every grid point the non-private twin's mean suboptimality at the point's deciding member c* is at most
# half of that member's L(x_0) - L* = r c* (a learner frozen at its start has all of it).
GATE_SHARE = 0.5


def family_learning_gate(g: pd.DataFrame, key: str, alg: str, base: str, alpha: float) -> Result:
    """The learning gate of a worst-case privacy cost over the family: the learner's own
    non-private twin (``base``) learns at the member that decides each point (the worst member of
    ``alg``'s paired cost): its suboptimality there minus GATE_SHARE x r c* is below 0 at every
    point (a bound check, Bonferroni over the points).  PASS: the learner learns."""
    diffs, ratios, labels = [], [], []
    at = {(1.0 / v if key == "rho" else float(v)): (v, h) for v, h in g.groupby(key)}
    for o in worst_case(g, key, alg, base):
        v, h = at[o["x"]]
        r = float(h["r"].iloc[0]) if "r" in h else 1.0
        tw = h[(h.alg == base) & np.isclose(h.c, o["c_star"])].sort_values("replicate").subopt.to_numpy()
        diffs.append(tw - GATE_SHARE * r * o["c_star"])
        ratios.append(float(tw.mean() / (GATE_SHARE * r * o["c_star"])))
        labels.append(f"{key}={v:g}, c*={o['c_star']:g}")
    res = check_bound(diffs, ratios, alpha, labels=labels)
    res.detail["gate"] = (f"the non-private twin's suboptimality at each point's deciding member c* <= {GATE_SHARE} x "
                          "L(x_0) - L* = r c* (measured: the largest twin / (half start) ratio)")
    return res


def thm4_term_ratio(T, rho, d, G=1.0, D=2.0, H=0.0, sigma_G=1.0, sigma_H=0.0) -> float:
    """Theorem 4's privacy term over its statistical term at one point:
    sqrt(2d) (G + DH) log2(2T) / (rho T)  /  ((sigma_G + D sigma_H) / sqrt(T))."""
    return math.sqrt(2 * d) * (G + D * H) * math.log2(2 * T) / (rho * T) / ((sigma_G + D * sigma_H) / math.sqrt(T))


# Declared before the deciding run of 2026-11-26 (the rates in T, for a learner whose points the filter
# drops): a dropped point's worst case over the signal grid is still a lower bound on the supremum over
# the family, and no member's suboptimality exceeds ENVELOPE_TOP = 2 r G (G = 1, the family's Lipschitz
# constant).  If even the steepest decay these bounds allow, from 2 r G at the smallest T to the lower
# limit of the worst case at the largest T, is slower than T^(exponent + tol), the supremum cannot decay
# at the stated rate whatever lies beyond the grid: FAIL (flagged at alpha, confirmed at the run-wide
# level; Bonferroni over the grid's members, since c* is chosen on the same data).
ENVELOPE_G = 1.0


def envelope_rate(w: list[dict], exponent: float, tol: float, alpha: float, transform=None) -> Result:
    """The steepest decay of the family's supremum that the worst cases ``w`` (:func:`worst_case`)
    allow, between the smallest and the largest x (declared above): slope of
    ``lower limit of the worst case at x_max`` over ``2 r G at x_min`` in log-log (after ``transform``).
    FAIL when it lies above ``exponent + tol`` (confirmed at :data:`core.FAIL_LEVEL`), else
    INCONCLUSIVE: bounds alone cannot show a decay."""
    from dpregret.core.stats import t_lower_limit
    from dpregret.verdict.core import FAIL_LEVEL, fail_confirmation

    lo, hi = w[0], w[-1]
    top = 2 * max(o["r"] for o in w) * ENVELOPE_G
    s = hi["samples"]
    m = float(np.mean(s))
    tr = transform or (lambda x, v: v)

    def slope(v):
        return float(np.log(tr(hi["x"], max(v, 1e-300)) / tr(lo["x"], top)) / np.log(hi["x"] / lo["x"]))

    def limit(level):
        return t_lower_limit(s, level, hi["members"])  # Bonferroni over the worst case's members

    thr = exponent + tol
    s_lo, s_mid, s_hi = slope(limit(alpha)), slope(m), slope(m + (m - limit(alpha)))
    flagged = s_lo > thr
    detail = {"ci_of": f"steepest log-log slope from {top:g} (2 r G) at x = {lo['x']:g} to the lower limit of the "
                       f"worst case at x = {hi['x']:g}",
              "envelope": {"top": top, "x_min": lo["x"], "x_max": hi["x"], "worst_at_x_max": m,
                           "lower_limit": limit(alpha)},
              "margin": (s_lo - thr) / (s_mid - s_lo) if s_mid > s_lo else math.copysign(math.inf, s_lo - thr)}
    if flagged:
        s_conf = slope(limit(FAIL_LEVEL))
        detail.update(fail_confirmation(s_conf > thr, f"slope with the lower limit at level {FAIL_LEVEL:g} "
                                                      f"= {s_conf:.4g} (> {thr:.4g} confirms)"))
    return Result("FAIL" if flagged else "INCONCLUSIVE", s_mid, exponent, s_lo, s_hi, tol, detail)


def log2(x, m):
    """Divide out the log2(2T) that Remark 5 states (eq. (6) and the tree)."""
    return m / np.log2(2 * x)


def worst_case_rate(g, key, alg, ctl, exponent, tol, alpha, rng_claim, rng_ctl, *, base="nonprivate",
                    transform=None, decades=1.0, stat_ratio_max=None, term_ratio=None,
                    cost_over_stat_min=None, twin=None, rng_twin=None) -> tuple[Result, Result]:
    """A rate claim on the worst case over the family (module docstring of
    ``papers.ztc22.scenario``), on the points that pass the declared filter above; the control is
    decided on the same points (its own worst case, whatever its member).  ``term_ratio(x)``:
    Theorem 4's privacy term over its statistical term at x (privacy rates).  Fewer than 4
    points over ``decades`` left: INCONCLUSIVE, not in the regime, with the numbers."""
    w = worst_case(g, key, alg, base)
    wc = {o["x"]: o for o in worst_case(g, key, ctl, base)}
    keep, dropped = [], {}
    for o in w:
        why = []
        if o["edge"]:
            why.append(f"worst member c* = {o['c_star']:g} at the end of the signal grid")
        if o["saturation"] > SATURATION_MAX:
            why.append(f"saturated: suboptimality {o['saturation']:.2f} of its maximum 2 r c*")
        if term_ratio is not None and term_ratio(o["x"]) < PRIVACY_TERM_RATIO_MIN:
            why.append(f"Theorem 4's privacy term only {term_ratio(o['x']):.2f} x its statistical term")
        if cost_over_stat_min is not None and o["samples"].mean() < cost_over_stat_min * o["stat"]:
            why.append(f"privacy cost {o['samples'].mean():.3g} below {cost_over_stat_min:g} x the non-private "
                       f"worst case {o['stat']:.3g}")
        if stat_ratio_max is not None and o["samples"].mean() > stat_ratio_max * o["stat"]:
            why.append(f"Algorithm 1's worst case {o['samples'].mean():.3g} above {stat_ratio_max:g} x the "
                       f"non-private one {o['stat']:.3g} (privacy term not negligible)")
        if why:
            dropped[f"{o['x']:g}"] = "; ".join(why)
        else:
            keep.append(o)
    x = np.array([o["x"] for o in keep])
    res = check_rate(x, [o["samples"] for o in keep], exponent, tol, alpha, rng_claim, transform=transform,
                     decades=decades)
    ctl_res = check_rate(x, [wc[o["x"]]["samples"] for o in keep], exponent, tol, alpha, rng_ctl,
                         transform=transform, decades=decades)
    twin_res = None
    if twin is not None and (g.alg == twin).any():  # the mis-tuned twin: the same check on the same points
        wt = {o["x"]: o for o in worst_case(g, key, twin, base)}
        if all(o["x"] in wt for o in keep):
            twin_res = check_rate(x, [wt[o["x"]]["samples"] for o in keep], exponent, tol, alpha, rng_twin,
                                  transform=transform, decades=decades)
            twin_res.detail.update({"argmax_c": {f"{o['x']:g}": wt[o["x"]]["c_star"] for o in keep},
                                    "mean_at_worst": {f"{o['x']:g}": float(wt[o["x"]]["samples"].mean()) for o in keep},
                                    "replicates": int(len(wt[keep[0]["x"]]["samples"])) if keep else 0})
    numbers = {"dropped_points": dropped, "argmax_c": {f"{o['x']:g}": o["c_star"] for o in w},
               "saturation": {f"{o['x']:g}": o["saturation"] for o in w},
               "mean_at_worst": {f"{o['x']:g}": float(o["samples"].mean()) for o in w},
               "nonprivate_worst": {f"{o['x']:g}": o["stat"] for o in w},
               **({"thm4_term_ratio": {f"{o['x']:g}": term_ratio(o["x"]) for o in w}} if term_ratio else {})}
    if len(keep) >= 2:
        lx, ly = np.log(x), np.log(np.maximum([o["samples"].mean() for o in keep], 1e-300))
        if transform is not None:
            ly = np.log(np.maximum(transform(x, np.exp(ly)), 1e-300))
        numbers["local_slopes"] = (np.diff(ly) / np.diff(lx)).tolist()
    res.detail.update(numbers)
    if res.verdict == "INCONCLUSIVE" and len(keep) >= 4 and "local_slopes" in numbers:
        res.detail["numbered_reason"] = (
            f"1. the slope's interval [{res.ci_low:.3f}, {res.ci_high:.3f}] straddles {exponent:g} + {tol:g}; "
            f"2. local slopes across the in-regime window: {', '.join(f'{v:.2f}' for v in numbers['local_slopes'])}; "
            f"3. points dropped by the declared filter: {len(dropped)}")
    if len(keep) < 4 or (len(keep) and np.log10(x.max() / x.min()) < decades - 1e-9):
        res = not_in_regime(res, f"{len(keep)} of {len(w)} points pass the declared filter "
                            f"(>= 4 over {decades:g} decades needed)", numbers)
        env = envelope_rate(w, exponent, tol, alpha, transform) if len(w) >= 2 and exponent < 0 else None
        if env is not None and env.verdict == "FAIL":
            env.detail.update({"envelope_rule": "the filter dropped the points, but the supremum's bounds alone "
                               "rule out the stated decay (ztc22_linear.envelope_rate)", **numbers})
            res = env
    if twin is not None:
        return res, ctl_res, twin_res
    return res, ctl_res


# The algorithm names of ``linear_T`` for a learner called ``name`` (the paper's OGD is "o2b"):
# Algorithm 1 at rho_lin, its non-private twin, the naive conversion (privacy-rate control),
# Algorithm 1 at rho_stat, and the fresh-sample slip (statistical-rate control).
def linear_T_algs(name: str = "o2b") -> dict[str, str]:
    if name == "o2b":
        return {"priv": "o2b", "twin": "nonprivate", "naive": "naive", "stat": "o2b_stat", "fresh": "fresh_stat"}
    return {"priv": name, "twin": f"{name}@nonprivate", "naive": f"{name}@naive", "stat": f"{name}@stat",
            "fresh": f"{name}@fresh"}


LINEAR_T_CLAIMS = ("ZTC-rem5-rate-T-priv", "ZTC-rem5-rate-T-stat")  # apply to any OCO learner inside Algorithm 1


def linear_T_claims(lin: pd.DataFrame, p: dict, tol: dict, alpha: float, rng_for, name: str = "o2b",
                    rates: tuple[str, ...] = ("priv", "stat")) -> dict[str, tuple[Result, Result]]:
    """Remark 5's two rates in T on the worst case over the linear family for the learner
    ``name`` inside Algorithm 1 (the paper's OGD: ``"o2b"``), each with its control run with
    the same learner: the naive conversion (privacy rate) and the fresh-sample slip
    (statistical rate)."""
    a = linear_T_algs(name)
    sig = 1.0 - min(p["c_grid"])  # the family's sigma_G (G = 1, s_i = G - c_i)
    out = {}
    cid = "ZTC-rem5-rate-T-priv"
    g = lin[lin.alg.isin([a["priv"], a["naive"], a["twin"]]) & lin["T"].isin(p["T_lin_priv"])]
    if "priv" in rates:
        gg = g.replace({"alg": {a["twin"]: "nonprivate"}})
        tw_alg = "o2b_npstep" if name == "o2b" and (g0 := lin[(lin.alg == "o2b_npstep")]).size else None
        if tw_alg:
            gg = pd.concat([gg, g0[g0["T"].isin(p["T_lin_priv"])]], ignore_index=True)
        res, ctl, *tw = worst_case_rate(gg, "T", a["priv"], a["naive"], -1.0,
                                       claim_tolerance(tol, cid, __name__), alpha, rng_for(cid),
                                        rng_for(cid + "/control"), transform=log2,
                                       decades=2.0,
                                        term_ratio=lambda T: thm4_term_ratio(T, p["rho_lin"], p["d_lin"], sigma_G=sig),
                                       twin=tw_alg, rng_twin=rng_for(cid + "/twin"))
        res = with_learning_gate(res, family_learning_gate(gg, "T", a["priv"], "nonprivate", alpha))
        fz = lin[(lin.alg == "frozen_start") & lin["T"].isin(p["T_lin_priv"])]
        fz = fz[fz.rho == p["rho_lin"]] if "rho" in fz else fz.iloc[:0]
        if name == "o2b" and len(fz):  # the paper's rows: its non-learner
            res = with_nonlearner(res, "the learner frozen at its start x_0 = 0, on the learning gate",
                                  family_learning_gate(fz, "T", "frozen_start", "frozen_start", alpha))
        if tw and tw[0] is not None:
            res = with_twin(res, "step ignoring the privacy term (npstep)", tw[0], TWIN_WHY["npstep"])
        out[cid] = (res, ctl)
    cid = "ZTC-rem5-rate-T-stat"
    g = lin[lin.alg.isin([a["stat"], a["fresh"], a["twin"]]) & lin["T"].isin(p["T_lin_stat"])]
    if "stat" in rates:
        tw_alg = "o2b_stat_sumstep" if name == "o2b" and (lin.alg == "o2b_stat_sumstep").any() else None
        if tw_alg:
            g = pd.concat([g, lin[(lin.alg == tw_alg) & lin["T"].isin(p["T_lin_stat"])]], ignore_index=True)
        res, ctl, *tw = worst_case_rate(g.replace({"alg": {a["twin"]: "nonprivate"}}), "T", a["stat"], a["fresh"], -0.5,
                                       claim_tolerance(tol, cid, __name__), alpha, rng_for(cid),
                                       rng_for(cid + "/control"), base=None,
                                       decades=2.0, stat_ratio_max=STAT_RATIO_MAX, twin=tw_alg,
                                       rng_twin=rng_for(cid + "/twin"))
        if tw and tw[0] is not None:
            res = with_twin(res, "step exponent one notch off (sumstep)", tw[0], TWIN_WHY["sumstep"])
        out[cid] = (res, ctl)
    return out


def minimax_claims(mm: pd.DataFrame, p: dict, tol: dict, alpha: float, rng_for) -> dict[str, tuple[Result, Result]]:
    """Remark 5 in rho and in d on the ``minimax`` table: the worst-case privacy cost over the
    family at ``T_mm`` against 1/rho (d = ``d_mm``; control ``rho_squared``) and against d
    (rho = ``rho_mm``; control ``sqrt_d``), on the points the declared filter keeps."""
    out = {}
    sig = 1.0 - min(p["c_grid"])
    for cid, grid, expo, ctl_alg in (("ZTC-rem5-rate-rho", "rho", 1.0, "rho_squared"),
                                      ("ZTC-rem5-rate-d", "d", 0.5, "sqrt_d")):
        ratio = ((lambda x: thm4_term_ratio(p["T_mm"], 1.0 / x, p["d_mm"], sigma_G=sig)) if grid == "rho" else
                 (lambda x: thm4_term_ratio(p["T_mm"], p["rho_mm"], x, sigma_G=sig)))
        g = mm[mm.grid == grid]
        res, ctl, *tw = worst_case_rate(g, grid, "o2b", ctl_alg, expo, claim_tolerance(tol, cid, __name__), alpha,
                                       rng_for(cid), rng_for(cid + "/control"), decades=1.0, term_ratio=ratio,
                                       twin="npstep", rng_twin=rng_for(cid + "/twin"))
        res = with_learning_gate(res, family_learning_gate(g, grid, "o2b", "nonprivate", alpha))
        if "frozen_start" in set(g.alg):  # the learner frozen at its start, on the gate (its cost is 0)
            res = with_nonlearner(res, "the learner frozen at its start x_0 = 0, on the learning gate",
                                  family_learning_gate(g, grid, "frozen_start", "frozen_start", alpha))
        if tw and tw[0] is not None:
            res = with_twin(res, "step ignoring the privacy term (npstep)", tw[0], TWIN_WHY["npstep"])
        ls = res.detail.get("local_slopes")
        if grid == "rho" and ls and len(ls) >= 3:  # the drift along the window, reported (2026-11-29)
            res.detail["slope_drift"] = (
                f"local slopes along 1/rho: {', '.join(f'{v:.2f}' for v in ls)}: they fall toward 1 as Theorem 4's "
                "privacy term grows against its statistical term "
                f"({', '.join(f'{v:.1f}' for v in res.detail.get('thm4_term_ratio', {}).values())}); "
                "the theorem states no factor at which the paired cost's slope reaches 1 + tol, so no sub-window is "
                "chosen: the whole in-regime window decides")
        out[cid] = (res, ctl)
    return out
