"""Zhang, Tran, Cutkosky (NeurIPS 2022) as claims, decided on ``papers.ztc22.scenario``'s tables:
Theorems 3, 4 and Remark 5 (Sec. 2), Theorem 6 (Sec. 3), Theorem 8 and Remark 9 (Sec. 4), Theorem 11 (Sec. 5)
and the comparison with one-pass DP-SGD.

The privacy audit of Algorithm 1 end to end (Theorem 3) is ``AUDIT-ztc-thm3-o2b`` in
``papers.ztc22.audit``; its tree alone is ``AUDIT-ztc-thm3-tree`` (``verdict.privacy_trees``).  Remark 5's rates in T,
rho and d, decided on the worst case over a family of linear losses, are in ``papers.ztc22.claims_linear``.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dpregret.verdict.core import (Result, fail_if_diverged, check_bound, check_comparison, check_coverage,
                                   check_exact, check_rate,
                   coverage_detectable_factor, paired_gap, samples_by, select, with_learning_gate,
                   with_nonlearner, with_twin, blind_to_tuning)
from dpregret.papers.ztc22.claims_linear import TWIN_WHY, linear_T_claims, minimax_claims
from dpregret.papers.ztc22.statements import CLAIMS, PAPER  # noqa: F401  (the folder's claims, re-exported)
from dpregret.verdict.spec import TRANSFORMS, ClaimSpec, Regime, Twin, claim_tolerance

FROZEN = "the learner frozen at its start x_0 = 0 (Algorithm 1 around it: x_t = x_0)"
# learning gate: the non-private twin's suboptimality falls at least as T^(-1/4) (regret T^(3/4)) ...
GATE_SLOPE = -0.25
GATE_SHARE = 0.5    # ... and ends at most half of L(x_0) - L* (declared with the gate, before the deciding run)

# ZTC-thm11-gbar's former primary control (the same runs against the bound at C_pf / 2) changed the bound, not the
# process: the deterministic part G t^3 + xi_t alone exceeds the halved bound.  Its primary control is now the
# process change of its random part (the tree with sigma_t doubled, decided on eq. (17): ZTC-thm11-eq17's control);
# C_pf / 2 is kept as a secondary (straw man).  Eqs. (14) and (17) are decided separately: ZTC-thm11-eq14, -eq17.

_at = select


def _paired(a: pd.DataFrame, b: pd.DataFrame, col="subopt") -> np.ndarray:
    m = a.merge(b, on="replicate", suffixes=("_a", "_b"))
    return (m[f"{col}_a"] - m[f"{col}_b"]).to_numpy()


# The instances each explicit bound was searched over for its worst case (the verdict rule's LOOSE needs it)
WORST_CASE_SEARCH = {
    "ZTC-thm4-bound": "every member of the linear family (the worst case of Remark 5: c on its grid, at T_lin_priv x "
                      "rho_lin and T_lin_stat x rho_stat, each with its own sigma_G), logistic regression at both rho "
                      "and every T, the location problem at every sigma_G; the largest ratios (0.02-0.05) are at the "
                      "family's vacuous points: the bound's constant is about 11x the noise it covers",
    "ZTC-thm8-bound": "ridge logistic regression and the location problem, every T at both rho (the linear family is "
                      "not strongly convex: Theorem 8 does not apply to it)",
}


def explain_loose(res: Result, ctl: Result, near_miss: str, cid: str | None = None) -> Result:
    """A bound that passes while its near miss also passes cannot tell them apart: record, with
    the numbers, how far below the bound both stay (the reason the verdict rule will give
    INCONCLUSIVE, "control not caught")."""
    if res.verdict == "PASS" and ctl.verdict != "FAIL":
        res.detail["numbered_reason"] = (
            f"1. the bound is loose on every non-vacuous instance run: the worst mean suboptimality / bound is "
            f"{res.measured:.3g} (at {res.detail.get('worst_ratio_point')}; the interval's most critical point: "
            f"{res.detail.get('critical_point')}); 2. the near miss ({near_miss}) reaches "
            f"{ctl.measured:.3g}, so no slip of that size can cross it; 3. vacuous points (bound at or above "
            f"L(x_0) - L*, met by the learner frozen at its start): {len(res.detail.get('vacuous_points', []))}")
    if cid in WORST_CASE_SEARCH:
        res.detail["worst_case_search"] = WORST_CASE_SEARCH[cid]
    return res


def learning_gate_T(x, samples, start: float, alpha: float, rng) -> Result:
    """The learning gate of a paired privacy-cost rate in T (``dpregret.verdict.core.with_learning_gate``): the
    learner's own non-private twin shows learning on the same run -- its mean suboptimality falls
    at least as T^GATE_SLOPE (the rate check's interval top <= GATE_SLOPE) and, at the largest T,
    is at most GATE_SHARE x L(x_0) - L* (a bound check).  PASS when both pass, FAIL when either
    fails.  A learner frozen at its start has slope 0 and L(x_0) - L*: FAIL."""
    slope = check_rate(x, samples, GATE_SLOPE, 0.0, alpha, rng)
    level = check_bound([np.asarray(samples[-1], dtype=float) - GATE_SHARE * start],
                        [float(np.mean(samples[-1]) / (GATE_SHARE * start))], alpha, labels=[f"T={int(x[-1])}"])
    vs = (slope.verdict, level.verdict)
    verdict = "PASS" if vs == ("PASS", "PASS") else ("FAIL" if "FAIL" in vs else "INCONCLUSIVE")
    return Result(verdict, slope.measured, GATE_SLOPE, slope.ci_low, slope.ci_high, 0.0,
                  {"ci_of": "log-log slope of the non-private twin's suboptimality vs T",
                   "margin": slope.detail.get("margin", float("nan")),
                   "slope": slope.as_dict(), "end_over_half_start": level.as_dict(),
                   "gate": f"twin's slope <= {GATE_SLOPE} and its suboptimality at the largest T <= {GATE_SHARE} x "
                           f"(L(x_0) - L* = {start:.4g})"})


def evaluate(rates: pd.DataFrame, opt: pd.DataFrame, sens: pd.DataFrame, sc: pd.DataFrame, p: dict, tol: dict,
             alpha: float, rng_for, mm: pd.DataFrame | None = None,
             pf: pd.DataFrame | None = None, lin: pd.DataFrame | None = None,
             ps: pd.DataFrame | None = None) -> dict[str, tuple[Result, Result]]:
    """Every ZTC claim: ``{claim_id: (result, control_result[, secondary results by name])}``.  ``rng_for(cid)`` gives
    the bootstrap generator of a rate claim."""
    out = {"ZTC-thm3-sensitivity": _thm3_sensitivity(sens),
           "ZTC-thm4-bound": _thm4_bound(rates, opt, lin, alpha)}
    # Remark 5 rates in T: the worst case over the linear family (``linear_T``)
    if lin is not None:
        out.update(linear_T_claims(lin, p, tol, alpha, rng_for))
    out["ZTC-thm8-bound"] = _thm8_bound(sc, alpha)
    cid = "ZTC-rem9-rate-T-stat"
    out[cid] = _rem9_stat(sc, p, claim_tolerance(tol, cid, __name__), alpha, rng_for, cid)
    cid = "ZTC-rem9-rate-T-priv"
    if not (loc := _at(sc, **RATE_SPECS[cid].where)).empty:
        out[cid] = _rem9_priv(loc, claim_tolerance(tol, cid, __name__), alpha, rng_for, cid)
    # Remark 5 in rho and d: worst case over the linear family, on the points the declared filter keeps
    if mm is not None:
        out.update(minimax_claims(mm, p, tol, alpha, rng_for))
    # Theorem 6 on its proof's quantity: D sqrt(sum_t ||ghat_t - ghat_{t-1}||^2) / beta_{1:T} at rho_opt_rate
    cid = "ZTC-thm6-optimistic"
    out[cid] = thm6(opt, p, claim_tolerance(tol, cid, __name__), alpha, rng_for)
    # Section 3's adaptive rate in sigma_G at fixed G (ZTC-thm6-adaptive-sigma)
    cid = "ZTC-thm6-adaptive-sigma"
    if (opt.alg == "adapt_optimistic").any():
        out[cid] = thm6_adaptive(opt, p, claim_tolerance(tol, cid, __name__), alpha, rng_for)
    out["ZTC-vs-dpsgd"] = _vs_dpsgd(rates, p, alpha)
    if pf is not None:
        out.update(param_free(pf, p, alpha))
        cid = "ZTC-sec5-shift-rate"
        if "shift_dist" in pf and pf.shift_dist.notna().any():
            out[cid] = shift_rate(pf, claim_tolerance(tol, cid, __name__), alpha, rng_for)
        else:  # a preset without s_shift_pf (the paper preset's committed run predates the claim)
            none = Result("INCONCLUSIVE", float("nan"), -1.0, float("nan"), float("nan"), 0.0,
                          {"reason": "not run in this preset: its ztc22.s_shift_pf is unset (no shifted starts)"})
            out[cid] = (none, none)
    if ps is not None:
        out.update(per_step(ps[ps.alg.isin(("eq4", "eq4_fresh", "eq7", "eq7_sqrt2"))], alpha))
        out.update(thm11_steps(ps, p, alpha))
        if "ZTC-thm11-gbar" in out and "ZTC-thm11-eq17" in out:  # its primary control: the process change (above)
            gres, gctl, *gsec = out["ZTC-thm11-gbar"]
            sec = {"C_half": gctl, **(gsec[0] if gsec else {})}
            out["ZTC-thm11-gbar"] = (gres, out["ZTC-thm11-eq17"][1], sec)
    return out


def _thm3_sensitivity(sens: pd.DataFrame) -> tuple:
    """ZTC-thm3-sensitivity, Theorem 3's run-time sensitivity: every run's ratio <= 1; primary control half the
    noise, secondaries the dropped terms."""
    def exact(alg):
        d = sens[sens.alg == alg]
        bad = [f"{r.problem} replicate {r.replicate}: ratio {r.sens_ratio:.3g}" for r in d.itertuples()
               if not r.sens_ratio <= 1.0]
        res = check_exact(bad, len(d))
        res.measured = float(d.sens_ratio.max())
        res.bound = 1.0
        res.detail["max_ratio_by_problem"] = d.groupby("problem").sens_ratio.max().to_dict()
        return res
    res = exact("eq6")
    if "k" in sens:
        res.detail["k_by_problem"] = sens.groupby("problem")["k"].first().astype(float).to_dict()
    return (res, exact("half"), {"G_only": exact("G_only"), "H_only": exact("H_only")})


def _bound(groups, alpha: float) -> Result:
    """An explicit bound's check over ``[(label, rows)]``: subopt - bound_explicit per point; points where the bound
    is at or above L(x_0) - L* are vacuous."""
    diffs, ratios, labels, vac, means = [], [], [], [], []
    for label, g in groups:
        diffs.append((g.subopt - g.bound_explicit).to_numpy())
        ratios.append(float(g.subopt.mean() / g.bound_explicit.mean()))
        labels.append(label)
        vac.append(bool(g.bound_explicit.mean() >= g.start_subopt.mean()))
        means.append(float(g.bound_explicit.mean()))
    return check_bound(diffs, ratios, alpha, labels=labels, vacuous=vac, bounds=means)


def _thm4_groups(kind: str, rates: pd.DataFrame, opt: pd.DataFrame, lin: pd.DataFrame | None) -> list:
    """ZTC-thm4-bound's points for ``kind`` (learner, control, frozen, twin): every member of the linear family
    (T_lin_priv at rho_lin, T_lin_stat at rho_stat), logistic regression (both rho, every T; not for the control) and
    the location problem (every sigma_G); the twin on the family's points alone."""
    lin_algs = {"learner": ("o2b", "o2b_stat"), "control": ("o2b_noise2",), "frozen": ("frozen_start",),
                "twin": ("o2b_npstep",)}[kind]
    # the mis-tuned twin's rows carry the paper's explicit bound (its learner's own regret bound)
    if kind == "twin":
        L = lin[lin.alg.isin(lin_algs) & lin.bound_thm4.notna()] if lin is not None and "bound_thm4" in lin else lin
        return [] if L is None else [(f"linear c={c:g}, T={T}, rho={rho:g}", g.assign(bound_explicit=g.bound_thm4))
                                     for (T, rho, c), g in L.groupby(["T", "rho", "c"])]
    gr = []
    if lin is not None and "bound_thm4" in lin:
        L = lin[lin.alg.isin(lin_algs) & lin.bound_thm4.notna()]
        gr += [(f"linear c={c:g}, T={T}, rho={rho:g}", g.assign(bound_explicit=g.bound_thm4))
               for (T, rho, c), g in L.groupby(["T", "rho", "c"])]
    if kind != "control":
        gr += [(f"logistic T={T}, rho={rho:g}", g) for (T, rho), g in
               _at(rates, alg={"learner": "o2b", "frozen": "frozen_start"}[kind]).groupby(["T", "rho"])]
    oa = {"learner": "plain", "control": "plain_noise2", "frozen": "frozen_start"}[kind]
    return gr + [(f"location s={s:g}, T={int(g['T'].iloc[0])}", g) for s, g in _at(opt, alg=oa).groupby("s")]


def _thm4_bound(rates: pd.DataFrame, opt: pd.DataFrame, lin: pd.DataFrame | None, alpha: float) -> tuple:
    """ZTC-thm4-bound, Theorem 4's explicit bound on :func:`_thm4_groups`' points; control sigma_t doubled, the
    non-learner the learner frozen at x_0 (same points), the twin the step ignoring the privacy term."""
    res = _bound(_thm4_groups("learner", rates, opt, lin), alpha)
    ctl = _bound(_thm4_groups("control", rates, opt, lin), alpha)
    if lin is not None and "bound_thm4" in lin:
        res.detail["worst_member"] = worst_members(lin[lin.alg.isin(("o2b", "o2b_stat"))])
    res = with_nonlearner(explain_loose(res, ctl, "sigma_t doubled", "ZTC-thm4-bound"), FROZEN,
                          _bound(_thm4_groups("frozen", rates, opt, lin), alpha))
    # the twin on the family's points at rho_lin (first replicates_twin replicates)
    if tg4 := _thm4_groups("twin", rates, opt, lin):
        res = with_twin(res, "step ignoring the privacy term (npstep)", _bound(tg4, alpha), TWIN_WHY["npstep"])
    return (res, ctl)


def _thm8_groups(sc: pd.DataFrame, alg: str) -> list:
    """Theorem 8's points: ridge logistic (both rho) and the location problem (rho_priv), every T."""
    gr = [(f"ridge logistic T={T}, rho={rho:g}", g)
          for (T, rho), g in _at(sc[sc.problem == "ridge_logistic"], alg=alg).groupby(["T", "rho"])]
    return gr + [(f"location T={T}, rho={rho:g}", g)
                 for (T, rho), g in _at(sc[sc.problem == "location"], alg=alg).groupby(["T", "rho"])]


def _thm8_bound(sc: pd.DataFrame, alpha: float) -> tuple:
    """ZTC-thm8-bound (strongly convex): control sigma_t doubled, non-learner frozen at x_0, twin Remark 9's OSD
    with the weights forgotten."""
    res = _bound(_thm8_groups(sc, "o2b_sc"), alpha)
    ctl = _bound(_thm8_groups(sc, "o2b_sc_noise2"), alpha)
    res = with_nonlearner(explain_loose(res, ctl, "sigma_t doubled", "ZTC-thm8-bound"), FROZEN,
                          _bound(_thm8_groups(sc, "frozen_start"), alpha))
    if tg8 := thm8_twin_groups(sc):  # the OSD twin's rows (Remark 9's rate claims') against the same explicit bound
        res = with_twin(res, "OSD with the weights beta_t forgotten (mu_t = mu/2)", _bound(tg8, alpha), OSD_TWIN_WHY)
    return (res, ctl)


def _rem9_stat(sc: pd.DataFrame, p: dict, tol: float, alpha: float, rng_for, cid: str) -> tuple:
    """ZTC-rem9-rate-T-stat as declared (:data:`RATE_SPECS`): ridge logistic at rho_stat, suboptimality at slope -1 in
    T; control the fresh sample, non-learner frozen at x_0 (the same check), twin the unweighted OSD (else blind to
    tuning)."""
    spec = RATE_SPECS[cid]
    rows = _at(sc, rho=p[spec.eps_param], **spec.where)

    def rate(alg, key=""):
        x, s = samples_by(_at(rows, alg=alg), spec.x, "subopt")
        return check_rate(x, s, spec.exponent, tol, alpha, rng_for(cid + key), x_name=spec.x)
    res = with_nonlearner(rate(spec.algorithm), spec.nonlearner[0], rate(spec.nonlearner_rows, "/nonlearner"))
    if len(_at(rows, alg=spec.twin.algorithm)):
        res = with_twin(res, spec.twin.name, rate(spec.twin.algorithm, "/twin"), spec.twin.why)
    else:
        res = blind_to_tuning(res, REM9_BLIND)
    return (res, rate(spec.control, "/control"))


def _rem9_priv(loc: pd.DataFrame, tol: float, alpha: float, rng_for, cid: str) -> tuple:
    """ZTC-rem9-rate-T-priv as declared (:data:`RATE_SPECS`): the location problem's privacy cost (paired against the
    non-private run) / log2(2T)^2 at slope -2 in T; control the naive conversion, the learning gate on the
    non-private twin (non-learner: frozen at x_0, on the gate), twin the unweighted OSD's cost against its own
    non-private run."""
    spec = RATE_SPECS[cid]
    transform = TRANSFORMS[spec.transform]

    def cost_rate(alg, base, key=""):
        cost = paired_gap(loc, ["T", "replicate"], by="alg", base=base, alg=alg, col="subopt")
        x, s = samples_by(cost, spec.x, "gap")
        return check_rate(x, s, spec.exponent, tol, alpha, rng_for(cid + key), transform=transform,
                          x_name=spec.x)
    res = cost_rate(spec.algorithm, spec.baseline)
    start = float(loc.start_subopt.iloc[0])
    if spec.nonlearner_rows in set(loc.alg):  # the gate: the learner's non-private twin learns
        xg, sg = samples_by(_at(loc, alg=spec.baseline), spec.x, "subopt")
        xf, sf = samples_by(_at(loc, alg=spec.nonlearner_rows), spec.x, "subopt")
        res = with_learning_gate(res, learning_gate_T(xg, sg, start, alpha, rng_for(cid + "/gate")))
        res = with_nonlearner(res, spec.nonlearner[0],
                              learning_gate_T(xf, sf, start, alpha, rng_for(cid + "/gate-nonlearner")))
    if spec.twin.algorithm in set(loc.alg):  # the twin's cost against its own non-private run
        res = with_twin(res, spec.twin.name, cost_rate(spec.twin.algorithm, spec.twin.baseline, "/twin"),
                        spec.twin.why)
    return (res, cost_rate(spec.control, spec.baseline, "/control"))


def _vs_dpsgd(rates: pd.DataFrame, p: dict, alpha: float) -> tuple:
    """ZTC-vs-dpsgd: Algorithm 1 vs DP-SGD at the largest T and rho_priv (paired); control the naive conversion,
    non-learner frozen at x_0, twin the step ignoring the privacy term."""
    last = _at(rates, T=rates["T"].max(), rho=p["rho_priv"])
    sgd = _at(last, alg="dpsgd")
    res = check_comparison(_paired(_at(last, alg="o2b"), sgd), alpha)
    res.detail["crossover"] = crossover(rates, p["rho_priv"])
    if "frozen_start" in set(last.alg):
        res = with_nonlearner(res, FROZEN, check_comparison(_paired(_at(last, alg="frozen_start"), sgd), alpha))
    if "o2b_npstep" in set(last.alg):  # the mis-tuned twin: the step ignoring the privacy term, same draws
        res = with_twin(res, "step ignoring the privacy term (npstep)",
                        check_comparison(_paired(_at(last, alg="o2b_npstep"), sgd), alpha), TWIN_WHY["npstep"])
    return (res, check_comparison(_paired(_at(last, alg="naive"), sgd), alpha))

def thm8_twin_groups(sc: pd.DataFrame) -> list:
    """ZTC-thm8-bound's mis-tuned twin: the rows of Remark 9's OSD with the weights forgotten (``o2b_sc_unweighted``,
    ridge logistic at rho_stat and the location problem at rho_priv, every T, the first replicates_twin replicates,
    the same draws as the paper's OSD), each (problem, T, rho) against the paper's learner's explicit bound there
    (Theorem 8's bound does not depend on the learner: Remark 9's OSD regret bound plugged in)."""
    tw = sc[sc.alg == "o2b_sc_unweighted"]
    gr = []
    for (prob, T, rho), g in tw.groupby(["problem", "T", "rho"]):
        ref = sc[(sc.alg == "o2b_sc") & (sc.problem == prob) & (sc["T"] == T) & (sc.rho == rho)]
        if ref.empty:
            continue
        name = "ridge logistic" if prob == "ridge_logistic" else prob
        gr.append((f"{name} T={T}, rho={rho:g}", g.assign(bound_explicit=float(ref.bound_explicit.mean()))))
    return gr


OSD_TWIN_WHY = ("Remark 9's OSD with the weights beta_t forgotten in its strong convexity (mu_t = mu/2 in place of "
                "t^k mu/2, as for unweighted online-to-batch): its step 1/sum_i mu_i is t^k/(k+1) times too large, the "
                "step's exponent in T one notch off (t^-1 in place of t^-2 at k = 1); same draws, first "
                "replicates_twin replicates")
REM9_BLIND = ("the realistic mis-tunings of Remark 9's OSD tried do not change the exponent this rate check decides: "
              "the OSD's mu doubled and halved gave slopes -1.05 and -1.02 (seed 12345, the claim's control search), "
              "inside -1 + tol = -0.9; the strongly convex step 1/sum_i mu_i self-corrects a constant factor, and the "
              "claim's upper-bound rate check cannot catch a twin that converges at the same rate with a worse "
              "constant")


# Inequality (8)'s constant for the optimistic OGD run (learners.oco.OptimisticOGD, eta_t = D / sqrt(2 A_t)): the
# standard analysis gives Regret <= D^2/(2 eta_T) + sum_t eta_t ||g_t - h_t||^2 <= (1/sqrt(2) + sqrt(2)) D sqrt(A_T)
# ~ 2.12 D sqrt(A_T); rounded up to 3 for the one-step lag of A_t (declared with the claim, 2026-11-29, before its
# deciding run of this check)
OPTIMISTIC_K = 3.0


def thm6(opt: pd.DataFrame, p: dict, tol: float, alpha: float, rng_for) -> tuple[Result, Result]:
    """Theorem 6 on its proof's quantity (App. D): Q_T = D sqrt(sum_t ||ghat_t - hint_t||^2) / beta_{1:T}, hint_t =
    ghat_{t-1}, per replicate of the optimistic learner's runs over T_opt_grid at rho_opt_rate; the control is hint 0
    (Q_T = D sqrt(sum_t ||ghat_t||^2) / beta_{1:T}).  Reported: the optimistic learner's regret against the best
    point of W over Q_T (inequality (8) with the learner's constant), and the privacy factor of the bound."""
    cid = "ZTC-thm6-optimistic"
    g = opt[opt.alg == "optimistic_Tgrid"]
    D = 2.0 * 1.0  # the location problem's W: the unit ball (r = 1)
    rho, d, lam = float(g.rho.iloc[0]), float(p["d_opt"]), 2.0
    q = g.assign(q=D * np.sqrt(g.hint_err_sq) / g.beta_sum, q0=D * np.sqrt(g.loss_sq) / g.beta_sum)
    x, smp = samples_by(q, "T", "q")
    xc, s0 = samples_by(q, "T", "q0")
    res = check_rate(x, smp, -1.5, tol, alpha, rng_for(cid))
    ctl = check_rate(xc, s0, -1.5, tol, alpha, rng_for(cid + "/control"))
    by_T = q.groupby("T")
    res.detail["privacy_factor_by_T"] = {int(T): 4 * math.sqrt(d) * math.log2(2 * T) / (math.sqrt(lam) * rho)
                                        for T in x}
    res.detail["mean_regret_max_over_beta_over_Q_by_T"] = {
        int(T): float((h.regret_max / h.beta_sum).mean() / h.q.mean()) for T, h in by_T}
    res.detail["regret_max_positive_share"] = float((g.regret_max > 0).mean())
    res.detail["rho"] = rho
    # Theorem 6's assumption (8) for the learner it runs: Regret_T <= K D sqrt(sum_t ||ghat_t - hint_t||^2), with
    # K = OPTIMISTIC_K declared from the learner's own analysis; a bound check per T (the learner's part of the claim)
    diffs, ratios, labels, means = [], [], [], []
    for T, h in by_T:
        h = h.sort_values("replicate")
        diffs.append((h.regret_max / h.beta_sum - OPTIMISTIC_K * h.q).to_numpy())
        ratios.append(float((h.regret_max / h.beta_sum).mean() / (OPTIMISTIC_K * h.q.mean())))
        labels.append(f"T={int(T)}")
        means.append(float(OPTIMISTIC_K * h.q.mean()))
    ineq = check_bound(diffs, ratios, alpha, labels=labels, bounds=means)
    res.detail["inequality_8"] = {**ineq.as_dict(), "K": OPTIMISTIC_K}
    if ineq.verdict == "FAIL":
        res = Result("FAIL", res.measured, res.bound, res.ci_low, res.ci_high, res.tolerance,
                     {**res.detail, "reason": f"the learner breaks inequality (8) with K = {OPTIMISTIC_K:g} (its "
                                              f"regret / (K Q) reaches {ineq.measured:.3g})",
                      **{k: ineq.detail[k] for k in ("fail_confirmed", "fail_confirmation") if k in ineq.detail}})
    elif ineq.verdict != "PASS" and res.verdict == "PASS":
        res = Result("INCONCLUSIVE", res.measured, res.bound, res.ci_low, res.ci_high, res.tolerance,
                     {**res.detail, "reason": f"inequality (8) undecided (K = {OPTIMISTIC_K:g})"})
    tg = opt[opt.alg.str.endswith("_Tgrid")].groupby(["alg", "T"])[["regret", "regret_max"]].mean()
    res.detail["mean_regret_by_T"] = {f"{a} T={t}": {"vs_x_star": float(r.regret),
                                                     "vs_best_point_of_W": float(r.regret_max)}
                                      for (a, t), r in tg.iterrows()}
    o = opt[~opt.alg.str.startswith("adapt_")]
    res.detail["subopt_by_sigma_G_over_G"] = {float(k): h[h["T"] == p["T_opt"]].groupby("alg").subopt.mean().to_dict()
                                              for k, h in o.groupby("sigma_G_over_G")}
    return res, ctl


def per_step(ps: pd.DataFrame, alpha: float) -> dict[str, tuple[Result, Result]]:
    """Eqs. (4) and (7) per step (``scenario.simulate_per_step``): a bound check over the steps of the grid
    (Bonferroni over them), each with its control that changes the process (the fresh-sample slip; sigma_t^2
    doubled)."""
    out = {}
    for cid, alg, ctl_alg in (("ZTC-eq4-variance", "eq4", "eq4_fresh"), ("ZTC-eq7-noise", "eq7", "eq7_sqrt2")):
        def bound(a):
            diffs, ratios, labels, means = [], [], [], []
            for t, h in ps[ps.alg == a].groupby("t"):
                h = h.sort_values("replicate")
                diffs.append((h.value - h.bound).to_numpy())
                ratios.append(float(h.value.mean() / h.bound.mean()))
                labels.append(f"t={int(t)}")
                means.append(float(h.bound.mean()))
            return check_bound(diffs, ratios, alpha, labels=labels, bounds=means)
        if not (ps.alg == alg).any():
            continue
        res, ctl = bound(alg), bound(ctl_alg)
        r = ps[ps.alg == alg].groupby("t").apply(lambda h: h.value.mean() / h.bound.mean())
        res.detail["ratio_by_t"] = {int(t): float(v) for t, v in r.items()}
        c = ps[ps.alg == ctl_alg].groupby("t").apply(lambda h: h.value.mean() / h.bound.mean())
        res.detail["control_ratio_by_t"] = {int(t): float(v) for t, v in c.items()}
        res.detail["T"] = int(ps[ps.alg == alg]["T"].iloc[0])
        res.detail["replicates"] = int(ps[ps.alg == alg].replicate.nunique())
        res.detail["worst_case_search"] = PER_STEP_SEARCH[cid]
        out[cid] = (res, ctl)
    return out


def thm11_steps(ps: pd.DataFrame, p: dict, alpha: float) -> dict[str, tuple[Result, Result]]:
    """Theorem 11's concentration steps, eqs. (14) and (17), per run (max over t <= T of quantity / bound, C = C_pf),
    decided as coverage against delta; controls change the process (fresh sample; sigma_t doubled)."""
    delta, out = p["delta_pf"], {}
    g = ps[ps.alg.isin(("eq14", "eq14_fresh", "eq17", "eq17_noise2"))]
    for cid, alg, ctl_alg, search in (
            ("ZTC-thm11-eq14", "eq14", "eq14_fresh",
             "the member c_pf of the linear family (its sampling noise ||z - c|| = 1 - c_pf a.s.; eq. (14) is stated "
             "with G, so a member with a larger sigma_G = 1 - c would be tighter, up to (1 - c)/(1 - c_pf) = 20x at "
             "c -> 0: not run), every replicate at every T of T_pf, every t <= T"),
            ("ZTC-thm11-eq17", "eq17", "eq17_noise2",
             "Algorithm 1's tree with N(0, I) at sigma_t of eq. (6) (H = 0, the same for every member and learner), "
             "every replicate at every T of T_pf, every t <= T (the largest ratios at t with many set bits)")):
        a, c = g[g.alg == alg], g[g.alg == ctl_alg]
        if a.empty:
            continue
        res = check_coverage((a.max_ratio <= 1.0).to_numpy(), delta, alpha)
        ctl = check_coverage((c.max_ratio <= 1.0).to_numpy(), delta, alpha)
        ratio = a.max_ratio.to_numpy(float)
        f, k = coverage_detectable_factor(ratio, delta, alpha)
        res.detail.update({"C": float(p["C_pf"]), "ratio": "max_t quantity / bound", "worst_ratio": float(ratio.max()),
                           "worst_ratio_point": f"T={int(a['T'].iloc[int(np.argmax(ratio))])}, replicate="
                                                f"{int(a.replicate.iloc[int(np.argmax(ratio))])}",
                           "detectable_factor": f,
                           "detectable_factor_point": f"the {k}-th largest of {ratio.size} runs",
                           "max_ratio_by_T": {int(T): float(h.max_ratio.max()) for T, h in a.groupby("T")},
                           "worst_case_search": search + f" (C is unspecified in the paper: decided at C_pf = "
                                                         f"{float(p['C_pf']):g})"})
        ctl.detail.update({"ratio": "max_t quantity / bound", "worst_ratio": float(c.max_ratio.max()),
                           "max_ratio_by_T": {int(T): float(h.max_ratio.max()) for T, h in c.groupby("T")}})
        out[cid] = (res, ctl)
    return out


PER_STEP_SEARCH = {
    "ZTC-eq4-variance": "the linear family of G-Lipschitz stochastic losses (H = 0), where ||grad l(x, z) - grad "
                        "L(x)|| = sigma_G almost surely (the largest variance a loss with that sigma_G has) and the "
                        "variance of g_t is exactly sum_i (beta_i - beta_{i-1})^2 sigma_G^2 (= t sigma_G^2 at k = 1: "
                        "eq. (4)'s 8 t sigma_G^2 is 1/8-tight for every t and member); every step t = 2^n - 1, 2^n up "
                        "to T",
    "ZTC-eq7-noise": "Algorithm 1's tree with N(0, I) noise and sigma_t of eq. (6) at H = 0 (G = 1): E||gamma_t||^2 = "
                     "d sum_{i in I_t} sigma_i^2 is largest at t = 2^n - 1 (|I_t| = n); every step t = 2^n - 1, 2^n "
                     "up to T; the ratio n / log2(2T) reaches 0.91 at n = 16, T = 1e5",
}


def param_free(pf: pd.DataFrame, p: dict, alpha: float) -> dict[str, tuple]:
    """Theorem 11's two high-probability statements at C = C_pf (the paper leaves C unspecified).
    Primary controls change only what the claim is about: the same runs (the learner at C_pf)
    against the bounds with C_pf / 2; the secondary (when the grid has a smaller C) is the whole
    algorithm at the smallest C of the grid.  The runs at a T where the bound's mean is at or above
    L(x_0) - L* (vacuous: the learner frozen at its start meets it) are left out of the first claim.
    Also reported: the smallest C that the C_pf runs support (bound only), the smallest C of the
    grid meeting both parts, and how far the iterate moved (the learner's own suboptimality)."""
    delta, c_claim, c_ctl = p["delta_pf"], float(p["C_pf"]), float(min(p["C_grid_pf"]))
    pf, learner_note = _pf_deciding_rows(pf, c_claim)
    per_c = {float(c): {"violation_rate": float((g.subopt > g.bound).mean()),
                        "max_gbar_ratio": float(g.gbar_ratio.max()),
                        "mean_subopt": float(g.subopt.mean()), "mean_bound": float(g.bound.mean()),
                        "mean_learner_subopt_w": float(g.subopt_w.mean()),
                        "mean_subopt_by_T": {int(T): float(h.subopt.mean()) for T, h in g.groupby("T")}}
             for c, g in pf.groupby("C")}
    res = _pf_bound_at(pf, c_claim, delta, alpha)
    res.detail["by_C"] = per_c
    res.detail.update(learner_note)
    ok = [c for c, v in per_c.items() if v["violation_rate"] <= delta and v["max_gbar_ratio"] <= 1.0]
    res.detail["smallest_C_meeting_both_parts"] = min(ok) if ok else None
    # the C the C_pf runs support: per run the smallest C' with subopt <= bound(C'), the bound's
    # concentration terms scaling as C'^2 (A, A' ~ C^2); its (1 - delta) quantile per T, max over T
    g = pf[pf.C == c_claim]
    conc = g.bound - g.bound_regret_term
    need = c_claim * np.sqrt(np.maximum(g.subopt - g.bound_regret_term, 0.0) / conc)
    res.detail["smallest_C_supported_bound_only"] = float(need.groupby(g["T"]).quantile(1 - delta).max())
    ctl = _pf_bound_at(pf, c_claim, delta, alpha, "bound_C_half")
    gctl = _pf_gbar_at(pf, c_claim, delta, alpha, "gbar_ratio_C_half")
    if res.verdict == "PASS":
        _slack(res, pf, c_claim, delta, alpha)
    gres = _pf_gbar_at(pf, c_claim, delta, alpha)
    gres.detail.update(learner_note)
    for r, c in ((res, ctl), (gres, gctl)):
        if r.verdict == "PASS" and c.verdict != "FAIL":
            r.detail["numbered_reason"] = (
                f"1. C is unspecified in the paper, so the check is only as strong as the declared C_pf = {c_claim:g}; "
                f"2. at C_pf / 2 the same runs still meet the bound (worst ratio "
                f"{c.detail.get('tightness', c.detail.get('max_ratio')):.3g}); 3. the C_pf runs support the "
                f"suboptimality bound down to C = {res.detail['smallest_C_supported_bound_only']:.3g}, and the "
                "smallest C of the grid meeting both parts (learner and bounds at C) is "
                f"{res.detail['smallest_C_meeting_both_parts']}")
    sec = c_ctl < c_claim
    return {"ZTC-thm11-bound": (res, ctl, {"smallest_C": _pf_bound_at(pf, c_ctl, delta, alpha)} if sec else {}),
            "ZTC-thm11-gbar": (gres, gctl, {"smallest_C": _pf_gbar_at(pf, c_ctl, delta, alpha)} if sec else {})}


def _pf_deciding_rows(pf: pd.DataFrame, c_claim: float) -> tuple[pd.DataFrame, dict]:
    """:func:`param_free`'s rows and the note on its learner: Remark 12's learner (one constant G^,
    ``o2b_pf_const``) decides, at C_pf; the time-varying normaliser (``o2b_pf``, every C of the grid) is a labelled
    variant, reported, and the smallest-C secondary."""
    tv = pf[pf.alg == "o2b_pf"] if "alg" in pf else pf
    if not ("alg" in pf and (pf.alg == "o2b_pf_const").any()):
        return pf, {}
    variant = {"name": "time-varying normaliser G^_t = Theorem 11's bound on ||gbar_t|| at t (clipped above)",
               **{f"C={float(c):g}": {"violation_rate": float((g.subopt > g.bound).mean()),
                                      "max_subopt_over_bound": float((g.subopt / g.bound).max()),
                                      "max_gbar_ratio": float(g.gbar_ratio.max()),
                                      "mean_subopt_by_T": {int(T): float(h.subopt.mean())
                                                           for T, h in g.groupby("T")}}
                  for c, g in tv[tv.C == c_claim].groupby("C")}}
    const = pf[pf.alg == "o2b_pf_const"]
    learner_note = {"learner": "Remark 12: KT x OGD normalised by one constant G^ = Theorem 11's bound on "
                               "||gbar_t|| at t = T", "G_hat_max_gbar_over_G_hat": float(
                                   const.gbar_over_normaliser.max()), "time_varying_variant": variant}
    return pd.concat([const, tv[tv.C != c_claim]], ignore_index=True), learner_note


def _pf_bound_at(pf: pd.DataFrame, c: float, delta: float, alpha: float, col: str = "bound") -> Result:
    """Theorem 11's suboptimality bound (column ``col``) at C = c: coverage against delta on the T where it is not
    vacuous; INCONCLUSIVE when vacuous at every T, FAIL when a run diverged."""
    gc = pf[pf.C == c]
    # a diverged learner (non-finite suboptimality or bound) FAILs: its rows would otherwise fail the
    # vacuity test (NaN < L(x_0) - L* is false) and be dropped as vacuous (verdict.core's rule)
    by_T = list(gc.groupby("T"))
    dv = fail_if_diverged(f"suboptimality or {col}",
                          [np.r_[h.subopt.to_numpy(float), h[col].to_numpy(float)] for _, h in by_T],
                          labels=[int(T) for T, _ in by_T])
    if dv is not None:
        dv.detail.update({"C": c, "bound": col})
        return dv
    keep = [T for T, h in by_T if h[col].mean() < h.start_subopt.mean()]
    g = gc[gc["T"].isin(keep)]
    if g.empty:
        return Result("INCONCLUSIVE", float("nan"), delta, float("nan"), float("nan"), 0.0,
                      {"reason": "the bound is vacuous (at or above L(x_0) - L*) at every T",
                       "mean_bound_by_T": {int(T): float(h[col].mean()) for T, h in gc.groupby("T")},
                       "start_subopt": float(gc.start_subopt.iloc[0]), "margin": float("nan")})
    res = check_coverage((g.subopt <= g[col]).to_numpy(), delta, alpha)
    res.detail.update({"C": c, "bound": col, "T": sorted(int(t) for t in g["T"].unique()),
                       "vacuous_T": sorted(int(t) for t in set(pf["T"]) - set(g["T"])),
                       "tightness": float((g.subopt / g[col]).max()), "start_subopt": float(g.start_subopt.iloc[0]),
                       "mean_bound_by_T": {int(T): float(h[col].mean()) for T, h in gc.groupby("T")}})
    return res


def _pf_gbar_at(pf: pd.DataFrame, c: float, delta: float, alpha: float, col: str = "gbar_ratio") -> Result:
    """Theorem 11's bound on ||gbar_t|| (ratio column ``col``) at C = c: coverage of ratio <= 1 against delta."""
    g = pf[pf.C == c]
    res = check_coverage((g[col] <= 1.0).to_numpy(), delta, alpha)
    res.detail.update({"C": c, "ratio": col, "max_ratio": float(g[col].max())})
    return res

THM11_SEARCH = (
    "the family of G-Lipschitz stochastic linear losses with x* on the boundary of W (||x*|| = r_pf, G = 1, H = 0: "
    "the instance of the private stochastic convex optimisation lower bound whose rate Theorem 11 matches), its "
    "member c_pf (the largest c of c_grid: the bound's concentration terms do not depend on c, while L(x_0) - L* = "
    "r c and the suboptimality shrink with c, so a smaller c is closer to vacuous; not run, a T = 3e5 run each), "
    "every replicate at every T of T_pf and every C of C_grid_pf")


def _slack(res: Result, pf: pd.DataFrame, c_claim: float, delta: float, alpha: float) -> None:
    """Theorem 11's slack at ``C_pf`` on the non-vacuous T of ``res`` (the verdict rule's LOOSE for a
    coverage check, ``dpregret.verdict.core.coverage_detectable_factor``): the largest per-run suboptimality / bound
    (``worst_ratio``), the detectable factor and the worst-case search over the runs' family."""
    g = pf[(pf.C == c_claim) & pf["T"].isin(res.detail["T"])]
    ratio = (g.subopt / g.bound).to_numpy(float)
    c, k = coverage_detectable_factor(ratio, delta, alpha)
    order = np.argsort(-ratio)
    rep = g["replicate"].to_numpy() if "replicate" in g else np.arange(len(g))
    where = [f"T={int(g['T'].iloc[i])}, replicate={int(rep[i])}" for i in order[:max(k, 1)]]
    res.detail.update({"worst_ratio": float(ratio[order[0]]), "worst_ratio_point": where[0], "detectable_factor": c,
                       "detectable_factor_point": f"{where[-1]} (the {k}-th largest of {ratio.size} runs: {k} "
                                                  f"violations of {ratio.size} FAIL at delta = {delta:g})"})
    by_C = {float(C): float((h.subopt / h.bound)[h["T"].isin(res.detail["T"])].max()) for C, h in pf.groupby("C")
            if h["T"].isin(res.detail["T"]).any()}
    res.detail["worst_case_search"] = {
        "family": THM11_SEARCH, "max_ratio": float(max(by_C.values())), "max_ratio_by_C": by_C,
        "note": f"C is unspecified in the paper: the bound is decided at the declared C_pf = {c_claim:g} (the runs "
                f"support it down to C = {res.detail.get('smallest_C_supported_bound_only', float('nan')):.3g})"}


def worst_members(lin: pd.DataFrame) -> dict:
    """Per (T, rho) of the linear family's Algorithm 1 rows: the member with the largest mean
    suboptimality / Theorem 4's bound among the non-vacuous ones (bound < L(x_0) - L* = r c), and
    the member with the largest suboptimality (the worst case, whose bound may be vacuous)."""
    out = {}
    for (T, rho), g in lin.groupby(["T", "rho"]):
        m = g.groupby("c")[["subopt", "bound_thm4", "start_subopt"]].mean()
        m["ratio"] = m.subopt / m.bound_thm4
        nv = m[m.bound_thm4 < m.start_subopt]
        top = m.subopt.idxmax()
        out[f"T={T}, rho={rho:g}"] = {
            "worst_nonvacuous_c": float(nv.ratio.idxmax()) if len(nv) else None,
            "worst_nonvacuous_ratio": float(nv.ratio.max()) if len(nv) else None,
            "worst_case_c": float(top), "worst_case_ratio": float(m.ratio[top]),
            "worst_case_bound_over_start": float(m.bound_thm4[top] / m.start_subopt[top])}
    return out


def crossover(rates: pd.DataFrame, rho: float) -> dict:
    """Mean suboptimality of Algorithm 1 and DP-SGD per T, and the smallest T of the grid from
    which Algorithm 1 is lower at every larger T (None if never)."""
    m = _at(rates, rho=rho).groupby(["T", "alg"]).subopt.mean().unstack()
    better = (m["o2b"] < m["dpsgd"]).to_numpy()
    T0 = None
    for i in range(len(better)):
        if better[i:].all():
            T0 = int(m.index[i])
            break
    return {"T": [int(t) for t in m.index], "o2b": m["o2b"].tolist(), "dpsgd": m["dpsgd"].tolist(), "from_T": T0}


def check_job(params: dict, tables: dict) -> tuple[list[dict], dict]:
    """The workflow's check job (``dpregret.pipeline.jobs``): every claim's record, with its secondary
    controls; bootstrap keyed by claim."""
    from dpregret.verdict.core import check_rng, record

    alpha, seed = params["alpha"], params["seed"]
    results = evaluate(tables["rates"], tables["optimistic"], tables["sensitivity"], tables["strongly_convex"],
                       params["p"], params["tolerances"], alpha, lambda cid: check_rng(seed, cid),
                       mm=tables["minimax"], pf=tables["param_free"], lin=tables["linear_T"],
                       ps=tables.get("per_step"))
    return [record(CLAIMS[cid], res, ctl, scenario="ztc22", env=None, ci_level=1 - alpha,
                   secondary=sec[0] if sec else None, history=params["history"].get(cid))
            for cid, (res, ctl, *sec) in results.items()], {}


ADAPT_REGIME_MAX = 0.5  # Theorem 6's privacy term <= 0.5 x its statistical term at every point (declared 2026-11-29)
ADAPT_TWIN_WHY = (
    "the optimistic learner with its hint dropped (hint 0: plain adaptive OGD, its step from sum_t ||ghat_t||^2 in "
    "place of sum_t ||ghat_t - ghat_{t-1}||^2): the one tuning choice Theorem 6 is about (the hint ghat_{t-1} is what "
    "turns Remark 5's G into sigma_G); same draws, every replicate")


# Remark 9's rates and Section 3's adaptive rate as declarations (dpregret.verdict.spec.ClaimSpec), decided by
# _rem9_stat, _rem9_priv and thm6_adaptive (what a spec cannot say: the learning gate on the non-private twin's
# suboptimality in T, learning_gate_T; Theorem 6's terms, bounds.thm6_terms); eps_param names the scenario's privacy
# parameter (rho: zCDP's), a twin's baseline its own non-private run.
OSD_TWIN = ("OSD with the weights beta_t forgotten (mu_t = mu/2)", OSD_TWIN_WHY)
RATE_SPECS = {s.claim_id: s for s in (
    ClaimSpec(CLAIMS["ZTC-rem9-rate-T-stat"], "T", "regret", -1.0, "o2b_sc", "fresh_sc",
              where={"problem": "ridge_logistic"}, twin=Twin("o2b_sc_unweighted", *OSD_TWIN),
              nonlearner=(FROZEN, "frozen_start"), nonlearner_rows="frozen_start", table="strongly_convex",
              eps_param="rho_stat"),
    ClaimSpec(CLAIMS["ZTC-rem9-rate-T-priv"], "T", "gap", -2.0, "o2b_sc", "naive_sc", where={"problem": "location"},
              baseline="nonprivate_sc", transform="log2sq_2x",
              twin=Twin("o2b_sc_unweighted", *OSD_TWIN, baseline="nonprivate_sc_unweighted"),
              nonlearner=(FROZEN + ", on the learning gate", "frozen_start_nonprivate"),
              nonlearner_rows="frozen_start_nonprivate", table="strongly_convex"),
    ClaimSpec(CLAIMS["ZTC-thm6-adaptive-sigma"], "G_over_sigma_G", "regret", -1.0, "adapt_optimistic", "adapt_noise10",
              baseline="adapt_nonprivate",
              twin=Twin("adapt_zero_hint", "optimistic learner with the hint dropped (hint 0)", ADAPT_TWIN_WHY),
              nonlearner=(FROZEN, "adapt_frozen"), nonlearner_rows="adapt_frozen", table="optimistic",
              regime=Regime("thm6_privacy_over_statistical", "max", ADAPT_REGIME_MAX,
                            why="Theorem 6's privacy term exceeds half its statistical term at some sigma_G")))}


# the learning gate: mean suboptimality <= 0.5 x the frozen start's at every s (declared 2026-12-03)
SHIFT_GATE_SHARE = 0.5
SHIFT_TWIN_WHY = (
    "Remark 12's learner with its play shifted to x_0 but Theorem 11's regulariser xi_t ||w|| + nu_t ||w||^2 left "
    "centred at the origin (the shift applied to the prediction only): the one choice the shifted bound adds; same "
    "draws, every replicate")
SHIFT_SPEC = ClaimSpec(CLAIMS["ZTC-sec5-shift-rate"], "inv_shift", "regret", -1.0, "o2b_pf_shift", "o2b_pf_const",
                       twin=Twin("o2b_pf_shift_play_only", "regulariser left centred at the origin", SHIFT_TWIN_WHY),
                       nonlearner=(FROZEN.replace("x_0 = 0", "x_0") + ", on the learning gate", "shift_start_subopt"),
                       table="param_free", x_grid="s_shift_pf", decades=2.0)


def shift_rate(pf: pd.DataFrame, tol: float, alpha: float, rng_for) -> tuple[Result, Result]:
    """ZTC-sec5-shift-rate (:data:`SHIFT_SPEC`): the mean suboptimality of Remark 12's learner started at x_0 against
    1/s, s = ||x* - x_0|| (``scenario.shifted_start``; exponent -1: at least linear in s), at the smallest T of T_pf,
    C = C_pf.  Control: the unshifted learner (its rows at that T, the same at every s); twin: the regulariser left at
    the origin; learning gate: at every s the mean suboptimality <= SHIFT_GATE_SHARE x the frozen start's (c s), the
    frozen learner's own gate its non-learner control (its slope is -1 exactly: only the gate can catch it)."""
    cid, spec = "ZTC-sec5-shift-rate", SHIFT_SPEC
    T = int(pf["T"].min())
    a = pf[(pf["T"] == T)].copy()
    sh = a[a.shift_dist.notna()].copy()
    sh[spec.x] = 1.0 / sh.shift_dist

    def rate(rows, key):
        x, smp = samples_by(rows, spec.x, "subopt")
        return check_rate(x, smp, spec.exponent, tol, alpha, rng_for(cid + key), decades=spec.decades,
                          x_name=spec.x)

    res = rate(sh[sh.alg == spec.algorithm], "")
    base = a[a.alg == spec.control].sort_values("replicate")
    ctl_rows = pd.concat([base.assign(**{spec.x: x}) for x in sorted(sh[spec.x].unique())], ignore_index=True)
    ctl = rate(ctl_rows, "/control")

    def gate(alg):
        diffs, ratios, labels = [], [], []
        for s_, h in sh[sh.alg == (spec.algorithm if alg == "frozen" else alg)].groupby("shift_dist"):
            h = h.sort_values("replicate")
            frozen = h.shift_start_subopt.to_numpy(float)
            m = frozen if alg == "frozen" else h.subopt.to_numpy(float)
            diffs.append(m - SHIFT_GATE_SHARE * frozen)
            ratios.append(float(m.mean() / (SHIFT_GATE_SHARE * frozen.mean())))
            labels.append({"s": float(s_), "subopt": float(m.mean()), "frozen": float(frozen.mean())})
        g = check_bound(diffs, ratios, alpha, labels=labels)
        g.detail["gate"] = f"mean suboptimality <= {SHIFT_GATE_SHARE:g} x the frozen start's (c s) at every s"
        return g

    by_s = {f"{float(s_):g}": {k: float(v) for k, v in h.groupby("alg").subopt.mean().items()}
            for s_, h in sh.groupby("shift_dist")}
    res.detail.update({"T": T, "x": "1 / ||x* - x_0||", "mean_subopt_by_s": by_s,
                       "unshifted_mean_subopt": float(base.subopt.mean()),
                       "start_subopt_by_s": {f"{float(s_):g}": float(h.shift_start_subopt.mean())
                                             for s_, h in sh.groupby("shift_dist")}})
    res = with_learning_gate(res, gate(spec.algorithm))
    res = with_nonlearner(res, spec.nonlearner[0], gate("frozen"))
    twin = with_learning_gate(rate(sh[sh.alg == spec.twin.algorithm], "/twin"), gate(spec.twin.algorithm))
    res = with_twin(res, spec.twin.name, twin, spec.twin.why)
    return res, ctl


def thm6_adaptive(opt: pd.DataFrame, p: dict, tol: float, alpha: float, rng_for) -> tuple[Result, Result]:
    """ZTC-thm6-adaptive-sigma: the optimistic learner's mean suboptimality vs G/sigma_G (exponent -1: at least linear
    in sigma_G) at T_opt, rho_adapt, fixed G (``scenario.simulate_adaptive``); regime: Theorem 6's privacy term <=
    ADAPT_REGIME_MAX x its statistical term (``bounds.thm6_terms``) at every point, else not in regime.  Control:
    sigma_t x 10; non-learner: the learner frozen at x_0; twin: hint 0.  Recorded: the measured privacy share per
    point (1 - the noiseless learner's mean suboptimality / the learner's, same draws) and the twin's slope."""
    from types import SimpleNamespace

    from dpregret.papers.ztc22 import bounds as o2b_bounds
    from dpregret.verdict.core import not_in_regime

    cid = "ZTC-thm6-adaptive-sigma"
    spec = RATE_SPECS[cid]
    a = opt[opt.alg.str.startswith("adapt_")].copy()
    a[spec.x] = 1.0 / a["sigma_G_over_G"]

    def rate(alg, key):
        x, smp = samples_by(a[a.alg == alg], spec.x, "subopt")
        return check_rate(x, smp, spec.exponent, tol, alpha, rng_for(cid + key), x_name=spec.x)
    res = rate(spec.algorithm, "")
    ctl = rate(spec.control, "/control")
    G, T, rho = float(a.G.iloc[0]), int(a["T"].iloc[0]), float(a.rho.iloc[0])
    share, ratio, means, level = {}, {}, {}, {}
    for sg, h in a.groupby("sigma_G_over_G"):
        s = float(sg) * G
        prob = SimpleNamespace(d=p["d_opt"], G=G, H=1.0, D=2.0, sigma_G=s, sigma_H=0.0)
        stat, priv = o2b_bounds.thm6_terms(T, rho, prob)
        m = h.groupby("alg").subopt.mean()
        ratio[f"{s:g}"] = priv / stat
        share[f"{s:g}"] = float(1.0 - m[spec.baseline] / m[spec.algorithm])
        means[f"{s:g}"] = {k: float(v) for k, v in m.items()}
        level[f"{s:g}"] = float(m[spec.twin.algorithm] / m[spec.algorithm])
    res.detail.update({"T": T, "rho": rho, "G": G, "x": "G / sigma_G",
                       "bound_privacy_over_statistical_by_sigma_G": ratio,
                       "measured_privacy_share_by_sigma_G": share, "mean_subopt_by_sigma_G": means,
                       "hint0_over_optimistic_by_sigma_G": level,  # reported, not decided: the level the hint buys
                       "regime": f"Theorem 6's privacy term <= {spec.regime.threshold:g} x its statistical term at "
                                 "every point (bounds.thm6_terms)"})
    res = with_nonlearner(res, spec.nonlearner[0], rate(spec.nonlearner_rows, "/nonlearner"))
    res = with_twin(res, spec.twin.name, rate(spec.twin.algorithm, "/twin"), spec.twin.why)
    if max(ratio.values()) > spec.regime.threshold:
        res = not_in_regime(res, spec.regime.why, {"bound_privacy_over_statistical_by_sigma_G": ratio})
    return res, ctl
