"""Claims of Agarwal and Singh (ICML 2017), section 3, on prediction with expert advice.

Each claim is checked per environment (the preset's ``envs``: ``fixed``, a fixed leader,
and ``stochastic``) on the tidy table of :func:`dpregret.papers.as17.scenario_experts.simulate`, and
its negative control -- the same FTRL reading fresh-noise prefix sums (no tree; per-release
Laplace noise calibrated by advanced composition, whose regret is the multiplicative
O(sqrt(T)/eps)) -- goes through the very same check.  So does the non-learner, uniform weights
on the same losses (:mod:`dpregret.papers.as17.claims_gates`); the two gap claims, which a learner
ignoring its feedback meets with gap 0, carry the learning gate of the learner's own
non-private regret and their non-learner control is decided on it.  The regret rate in T is
decided at ``regret_eps`` and only where the run shows Corollary 3.2's sqrt(T) term dominating
(:func:`regret_regime`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from dpregret.papers.as17.ftrl import bound_thm3_4
from dpregret.papers.as17.claims_gates import SQRT_T_REGIME, gate_T, privacy_share_regime
from dpregret.papers.as17.experts_names import TWIN_NONPRIVATE, TWIN_TREE
from dpregret.verdict.core import (Claim, Result, check_bound, check_exact, check_rate, not_in_regime,
                                   paired_gap, with_learning_gate,
                   with_nonlearner, with_twin)
from dpregret.verdict.spec import TRANSFORMS, ClaimSpec, Twin, claim_tolerance, x_name

PAPER = "AS17"
ALG, CONTROL = "tree", "fresh_noise"
CONTROL_TEXT = ("FTRL on fresh-noise prefix sums without the tree (Laplace per release, "
                "advanced composition over T releases): multiplicative O~(sqrt(T)/eps)")

CLAIMS = {
    "AS17-thm3.4-bound": Claim(
        "AS17-thm3.4-bound", PAPER, "Theorem 3.4 (eqs. 3-4), Corollary 3.2 item 1", "bound",
        "E[Regret] <= D_R/eta + eta sum_t max_x ||l_t||*^2 + D_{D'} for the eta used, at every (T, eps) where "
        "the bound is below the trivial maximum sum_t max_i l_t,i - min_i L_T,i (vacuous points reported apart)",
        "regret - bound (per replicate; D_{D'} by Monte Carlo)",
        "the same runs against half the bound (a factor-2 slip in the theorem's constant)", secondary=CONTROL_TEXT),
    "AS17-cor3.2-regret-rate-T": Claim(
        "AS17-cor3.2-regret-rate-T", PAPER, "Corollary 3.2 item 1, Table 1 row 1", "rate",
        "total regret of private FTRL grows as O(sqrt(T)) at fixed eps", "regret vs T", CONTROL_TEXT),
    "AS17-cor3.2-gap-rate-T": Claim(
        "AS17-cor3.2-gap-rate-T", PAPER, "Corollary 3.2 item 1, Table 1 row 1", "rate",
        "the private-minus-non-private regret gap is O(N log N log^2 T / eps): after dividing "
        "by log2(T)^2 it does not grow with T (additive, not sqrt(T)/eps)",
        "paired regret gap / log2(T)^2 vs T", CONTROL_TEXT),
    "AS17-cor3.2-gap-eps": Claim(
        "AS17-cor3.2-gap-eps", PAPER, "Corollary 3.2 item 1, Table 1 row 1", "bound",
        "the gap stays below the privacy term of Corollary 3.2 with unit constant, "
        "N log N log2(T)^2 / eps, at every (T, eps) where that term is below the gap's trivial maximum "
        "(vacuous points reported apart; at least one needed): O~(1/eps), additive; decided only where the term "
        "binds (the gap reaches half of it at some eps of the noise-dominated window at the largest T), else not in "
        "the regime with the numbers",
        "paired regret gap - N ln N log2(T)^2 / eps", CONTROL_TEXT),
}


NONLEARNER = "uniform weights"  # the non-learner of the experts setting (column uniform_regret)


def evaluate(df: pd.DataFrame, d_noise: pd.DataFrame, env: str, rate_eps: float, tols: dict,
             alpha: float, rng: np.random.Generator, regret_eps: float | None = None,
             regime: dict | None = None) -> dict[str, dict]:
    """All claims for one environment: ``{claim_id: {"claim": Result, "control": Result}}``.

    Every claim's result carries its non-learner control (uniform weights on the same losses,
    decided by the same check, :mod:`dpregret.papers.as17.claims_gates`); the two gap claims carry the
    learning gate of the learner's own non-private regret, and their non-learner control is the
    non-learner's result on that gate.  ``regret_eps`` (default ``rate_eps``): the eps of the
    regret rate in T; ``regime`` (``{"privacy_share_max": s}``): that rate is decided only where the
    run shows the paper's sqrt(T) term dominating, i.e. the private-minus-non-private share of the
    regret at most ``s`` at every T (else not in the regime, :func:`regret_regime`)."""
    df = df[df.env == env]
    if df.empty:
        raise ValueError(f"no rows for env={env!r}")
    N = int(df.N.iloc[0])
    reps = rate_eps if regret_eps is None else regret_eps
    out = {}
    for cid in CLAIMS:
        tol = claim_tolerance(tols, cid, __name__) if CLAIMS[cid].kind == "rate" else 0.0  # a bound's: unused
        spec = RATE_SPECS.get(cid)
        eps_c = reps if spec is not None and spec.eps_param == "regret_eps" else rate_eps
        res = {role: check_claim(cid, df, d_noise, alg, N, eps_c, tol, alpha, rng) for role, alg in
               (("claim", ALG), ("control", CONTROL))}
        if cid == "AS17-thm3.4-bound":  # primary control: the near miss (half the bound); fresh noise: secondary
            res["secondary"] = {CONTROL_TEXT + ", against the same bound": res["control"]}
            res["control"] = check_claim(cid, df, d_noise, ALG, N, eps_c, tol, alpha, rng, scale=0.5)
        if spec is not None and spec.regime is not None and regime is not None:  # SQRT_T_REGIME
            res["claim"] = regret_regime(df, ALG, "nonprivate", eps_c, res["claim"], regime)
        if cid == "AS17-cor3.2-gap-eps":
            res["claim"] = gap_eps_regime(df, N, res["claim"])
        if cid in GATED:
            res["claim"] = with_learning_gate(res["claim"], learning_gate(df, "nonprivate", alpha, rng))
            nl = learning_gate(df, None, alpha, rng)
        else:
            nl = check_claim(cid, df, d_noise, None, N, eps_c, tol, alpha, rng)
        res["claim"] = with_nonlearner(res["claim"], NONLEARNER, nl)
        tw = twin_frame(df)
        if tw is not None:  # the mis-tuned twin by the claim's own check on the same draws
            twin = check_claim(cid, tw, d_noise, ALG, N, eps_c, tol, alpha, rng)
            why = spec.twin.why if spec is not None else TWIN_WHY + (
                "; decided against the bound of the paper's eta (Theorem 3.4's bound holds for the eta it is evaluated "
                "at)" if cid == "AS17-thm3.4-bound" else
                "; its gap is its own private minus its own non-private regret" if cid in GATED else "")
            res["claim"] = with_twin(res["claim"], TWIN_NAME, twin, why)
        out[cid] = res
    return out


TWIN_NAME = "eta ~ T^(-2/3) (Theorem 3.4's sqrt(log N / T) x T^(-1/6))"
TWIN_WHY = ("eta's exponent in T one notch off: Algorithm 1 on the same exact sums and tree releases (the same draws) "
            "with a step whose learning term log N / eta grows as T^(2/3), not T^(1/2)")

# Corollary 3.2's two rates in T, declared (verdict.spec): what they read, their exponent, controls, twin and regime;
# check_claim decides them from these (its selection: the rows of one environment, the gap paired per eps)
_NL = (NONLEARNER, "uniform_regret")
RATE_SPECS = {s.claim_id: s for s in (
    ClaimSpec(CLAIMS["AS17-cor3.2-regret-rate-T"], "T", "regret", 0.5, ALG, CONTROL, nonlearner=_NL,
              twin=Twin(TWIN_TREE, TWIN_NAME, TWIN_WHY, "nonprivate"), regime=SQRT_T_REGIME, eps_param="regret_eps"),
    ClaimSpec(CLAIMS["AS17-cor3.2-gap-rate-T"], "T", "gap", 0.0, ALG, CONTROL, transform="log2sq", nonlearner=_NL,
              twin=Twin(TWIN_TREE, TWIN_NAME,
                        TWIN_WHY + "; its gap is its own private minus its own non-private regret", TWIN_NONPRIVATE)),
)}


def twin_frame(df: pd.DataFrame) -> pd.DataFrame | None:
    """One environment's rows with the mis-tuned twin's rows (``tree_eta_T23``, ``nonprivate_eta_T23``,
    :mod:`dpregret.papers.as17.scenario_experts`) in place of the paper's ``tree`` and ``nonprivate`` (their
    ``eta`` column set to the paper's, so a bound reads the paper's step); None when the run has no twin rows."""

    if not (df.algorithm == TWIN_TREE).any():
        return None
    eta = df[df.algorithm == ALG].groupby("T").eta.first()
    keep = df[~df.algorithm.isin([ALG, "nonprivate", TWIN_TREE, TWIN_NONPRIVATE])]
    tw = df[df.algorithm.isin([TWIN_TREE, TWIN_NONPRIVATE])]
    tw = tw.assign(algorithm=tw.algorithm.map({TWIN_TREE: ALG, TWIN_NONPRIVATE: "nonprivate"}),
                   eta=tw["T"].map(eta).to_numpy())
    return pd.concat([keep, tw], ignore_index=True)


GATED = ("AS17-cor3.2-gap-rate-T", "AS17-cor3.2-gap-eps")  # paired gap claims: a learning gate
GAP_EPS_BINDS = 0.5  # the 1/eps term binds where the gap reaches this share of it (declared before the run)


def gap_eps_regime(df: pd.DataFrame, N: int, res: Result) -> Result:
    """Corollary 3.2's privacy term ``N ln N log2(T)^2 / eps`` is tested in eps only where it binds: at the largest T,
    some eps of the run's noise-dominated window (privacy share ``gap / private regret >= 0.5``) must carry a gap of
    at least :data:`GAP_EPS_BINDS` of the term; there the local slope of the gap in 1/eps is also reported.  Else
    :func:`not_in_regime` with the numbers (per eps: gap, term, their ratio, the privacy share; the fitted slope)."""
    from dpregret.verdict.core import fit_slope

    gaps = paired_gap(df[df.algorithm.isin([ALG, "nonprivate"])], ["env", "N", "T", "eps", "replicate"],
                      by="algorithm", base="nonprivate", alg=ALG)
    Tm = int(gaps["T"].max())
    g = gaps[gaps["T"] == Tm].groupby("eps").agg(gap=("gap", "mean"), regret=("regret", "mean"))
    term = N * np.log(N) * np.log2(Tm) ** 2 / g.index.to_numpy()
    ratio, share = g.gap.to_numpy() / term, (g.gap / g.regret).to_numpy()
    window = share >= 0.5
    slope = (float(fit_slope(1.0 / g.index.to_numpy()[window], g.gap.to_numpy()[window]))
             if window.sum() >= 2 and (g.gap.to_numpy()[window] > 0).all() else float("nan"))
    numbers = {"T": Tm, "eps": [float(e) for e in g.index], "gap": g.gap.round(2).tolist(),
               "term": [round(float(t), 1) for t in term], "gap_over_term": [round(float(r), 3) for r in ratio],
               "privacy_share": [round(float(x), 3) for x in share], "binds_at": GAP_EPS_BINDS,
               "slope_in_inv_eps_noise_window": slope}
    if bool((window & (ratio >= GAP_EPS_BINDS)).any()):
        res.detail["eps_numbers"] = numbers
        return res
    return not_in_regime(res, f"the gap reaches at most {ratio.max():.3g} of the 1/eps term at T = {Tm} (needs "
                         f"{GAP_EPS_BINDS} at some eps of the noise-dominated window): the term does not bind, and the "
                         f"gap's local slope in 1/eps there is {slope:.3g} (exponential weights' response to small "
                         "noise), "
                         "so the run measures no 1/eps law", numbers)


def learning_gate(df: pd.DataFrame, base: str | None, alpha: float, rng: np.random.Generator) -> Result:
    """The learning gate (:func:`as17_gates.gate_T`) of the learner whose non-private rows are
    ``algorithm == base`` (the paper's ``nonprivate``; a user's ``name@nonprivate``) on one
    environment's T grid; ``base=None``: the non-learner's own (uniform weights)."""
    rows = df[df.algorithm == (base if base is not None else ALG)]
    rows = rows[np.isclose(rows.eps, rows.eps.iloc[0])]  # the non-private learner does not depend on eps
    Ts = np.sort(rows["T"].unique())
    col = "regret" if base is not None else "uniform_regret"
    by_T = [rows[rows["T"] == T].sort_values("replicate") for T in Ts]
    who = "the learner's non-private regret" if base is not None else f"the non-learner's ({NONLEARNER}) regret"
    return gate_T(Ts, [g[col].to_numpy() for g in by_T], by_T[-1].uniform_regret.to_numpy(), alpha, rng, who)


def regret_regime(df: pd.DataFrame, alg: str, base: str, eps: float, res: Result, regime: dict) -> Result:
    """The regret rate in T is Corollary 3.2's sqrt(T log N) term only where it dominates the
    additive privacy term N log N log^2 T / eps (:func:`as17_gates.privacy_share_regime`, share
    ``regime["privacy_share_max"]``)."""
    priv = df[(df.algorithm == alg) & np.isclose(df.eps, eps)].groupby("T").regret.mean()
    return privacy_share_regime(priv, df[df.algorithm == base].groupby("T").regret.mean(), res,
                                regime["privacy_share_max"], eps)


def check_claim(cid, df, d_noise, alg, N, rate_eps, tol, alpha, rng, base="nonprivate", scale=1.0) -> Result:
    """Claim ``cid`` on the rows ``algorithm == alg``; the gap claims pair them with the rows
    ``algorithm == base`` (the non-private twin on the same losses).  ``alg=None``: the
    non-learner (uniform weights, column ``uniform_regret`` of the tree's rows), whose private and
    non-private regret coincide (gap 0)."""
    sub = df[df.algorithm == (ALG if alg is None else alg)]
    if alg is None:
        sub = sub.assign(regret=sub.uniform_regret)
    if cid == "AS17-thm3.4-bound":
        diffs, ratios, ses, labels, vacuous = [], [], [], [], []
        for (T, eps), g in sub.groupby(["T", "eps"]):
            dn = d_noise[(d_noise["T"] == T) & (d_noise.eps == eps) & (d_noise.N == N)].iloc[0]
            B = scale * bound_thm3_4(N, float(g.eta.iloc[0]), g.sum_sq_dual.to_numpy(), float(dn.d_noise))
            diffs.append(g.regret.to_numpy() - B)
            ratios.append(float(g.regret.mean() / B.mean()))
            ses.append(scale * float(dn.d_noise_se))
            top = float(g.max_regret.mean())  # trivial maximum of the mean regret on these losses
            labels.append({"T": int(T), "eps": float(eps), "bound": float(B.mean()), "trivial_max": top})
            vacuous.append(bool(B.mean() / scale >= top))  # vacuous by the theorem's bound, whatever the scale
        return check_bound(diffs, ratios, alpha, ses, labels, vacuous=vacuous)
    if cid == "AS17-cor3.2-regret-rate-T":
        spec = RATE_SPECS[cid]
        g = sub[np.isclose(sub.eps, rate_eps)].sort_values("T")
        Ts = np.sort(g["T"].unique())
        return check_rate(Ts, [g[g["T"] == T].sort_values("replicate").regret.to_numpy() for T in Ts], spec.exponent,
                          tol, alpha, rng, transform=TRANSFORMS[spec.transform], x_name=x_name(spec))
    if alg is None:  # the non-learner's gap is 0 by construction: its gap claims are decided on the gate
        raise ValueError(f"{cid}: the non-learner is decided on the learning gate")
    gaps = paired_gap(df, ["env", "N", "T", "eps", "replicate"], by="algorithm", base=base, alg=alg,
                      base_as="_base")
    # gap_max: the largest gap any play could give on these losses (trivial maximum of the metric)
    gaps["gap_max"] = gaps.max_regret - gaps._base
    if cid == "AS17-cor3.2-gap-rate-T":
        spec = RATE_SPECS[cid]
        g = gaps[np.isclose(gaps.eps, rate_eps)]
        Ts = np.sort(g["T"].unique())
        return check_rate(Ts, [g[g["T"] == T].gap.to_numpy() for T in Ts], spec.exponent, tol, alpha, rng,
                          transform=TRANSFORMS[spec.transform], x_name=x_name(spec))
    if cid == "AS17-cor3.2-gap-eps":
        diffs, ratios, labels, vacuous = [], [], [], []
        for (T, eps), g in gaps.groupby(["T", "eps"]):
            term = N * np.log(N) * np.log2(T) ** 2 / eps
            diffs.append(g.gap.to_numpy() - term)
            ratios.append(float(g.gap.mean() / term))
            top = float(g.gap_max.mean())  # trivial maximum of the mean gap on these losses
            labels.append({"T": int(T), "eps": float(eps), "bound": float(term), "trivial_max": top})
            vacuous.append(bool(term >= top))
        return check_bound(diffs, ratios, alpha, None, labels, vacuous=vacuous)
    raise KeyError(cid)


def gap_rate_T_claim(runs: pd.DataFrame, rate_eps: float, tol: dict, alpha: float, rng_for, name: str = ALG,
                     env: str = "stochastic") -> tuple[Result, Result]:
    """``AS17-cor3.2-gap-rate-T`` on ``env`` for the learner whose rows are ``algorithm == name``:
    the paper's (``"tree"``, paired with ``nonprivate``, control ``fresh_noise``) or a user's
    (``papers.as17.scenario_experts``: ``name`` paired with ``name@nonprivate``, control
    ``name@fresh_noise``), by the check :func:`evaluate` runs.  ``rng_for(claim id)`` gives the
    bootstrap's rng, used by the claim then the control (as :func:`evaluate`, which shares one rng
    over all the claims of an environment: the same measured values, other bootstrap draws).

    The result carries the learning gate of that learner's own non-private regret
    (:func:`learning_gate`): a learner that ignores its feedback has gap 0 and must not pass.  The
    non-learner control is not attached here (the pipeline attaches the non-learner decided
    through the same door; :func:`evaluate` attaches it to the paper's records)."""
    cid = "AS17-cor3.2-gap-rate-T"
    df = runs[runs.env == env]
    if df.empty:
        raise ValueError(f"no rows for env={env!r}")
    alg, ctl, base = (ALG, CONTROL, "nonprivate") if name == ALG else (name, f"{name}@{CONTROL}", f"{name}@nonprivate")
    for a in (alg, ctl, base):
        if not (df.algorithm == a).any():
            raise ValueError(f"no rows for algorithm={a!r} on env={env!r}")
    N, rng, t = int(df.N.iloc[0]), rng_for(cid), claim_tolerance(tol, cid, __name__)
    res, control = (check_claim(cid, df, None, a, N, rate_eps, t, alpha, rng, base=base) for a in (alg, ctl))
    return with_learning_gate(res, learning_gate(df, base, alpha, rng)), control


EXACT_CLAIM = Claim(
    "AS17-lemma3.3-draws", PAPER, "Lemma 3.3 (Distribution), Algorithm 2", "exact",
    "every released prefix sum, L~_0 included, is the true prefix sum plus exactly ceil(log2 T) i.i.d. "
    "draws, and with the noise off the releases are the exact prefix sums, for every T of the run",
    "draws per release; |released - true prefix sum| with noise off",
    "Jain et al.'s PrivateSum without the padding (popcount(t) draws per release), at the run's smallest T")


def check_draws(Ts: list[int], pad: bool = True, d: int = 2) -> Result:
    """Run TreeBasedAgg with unit draws (counts them) and with zero draws (exact sums)."""
    from dpregret.core.tree import TreeBasedAgg, draws_per_release

    failures, checked = [], 0
    for T in Ts:
        K = draws_per_release(T)
        ones = TreeBasedAgg(T, d, lambda k: np.ones((1, k, d)), 1, pad=pad)
        zeros = TreeBasedAgg(T, d, lambda k: np.zeros((1, k, d)), 1, pad=pad)
        losses = np.random.default_rng(T).uniform(size=(T, d))
        counts = [ones.last_draws]
        bad_noise = int(np.any(ones.noise != K))
        max_err = 0.0
        for t in range(T):
            ones.step(losses[t])
            zeros.step(losses[t])
            counts.append(ones.last_draws)
            bad_noise += int(np.any(ones.noise != K))
            max_err = max(max_err, float(np.abs(zeros.released - zeros.true_sum).max()))
        checked += T + 1
        wrong = [t for t, c in enumerate(counts) if c != K]
        if wrong or bad_noise:
            failures.append(f"T={T}: {len(wrong)} of {T + 1} releases do not carry K={K} draws (first t={wrong[:3]})")
        if max_err > 1e-9 * T:
            failures.append(f"T={T}: noise-free release differs from the prefix sum by {max_err:.3g}")
    return check_exact(failures, checked)


def claim_files(p: dict) -> list[str]:
    """The records :func:`check_job` writes (the outputs of the workflow's rule ``as17_experts_check``):
    every claim per environment of ``p["envs"]``, and Lemma 3.3's exact draws."""
    return [f"results/claims/{cid}--{env}.json" for cid in CLAIMS for env in p.get("envs", [])] + [
        f"results/claims/{EXACT_CLAIM.claim_id}.json"]


def check_job(params: dict, tables: dict) -> tuple[list[dict], dict]:
    """The workflow's check job (``dpregret.pipeline.jobs``): every claim per environment (bootstrap keyed
    by the environment), and Lemma 3.3's exact draws."""
    from dpregret.verdict.core import check_rng, record

    p, alpha = params["p"], params["alpha"]
    out = []
    for env in p["envs"]:
        rng = check_rng(params["seed"], "as17_experts", env)
        for cid, res in evaluate(tables["runs"], tables["d_noise"], env, p["rate_eps"], params["tolerances"], alpha,
                                 rng, p.get("regret_eps"), p.get("regret_regime")).items():
            out.append(record(CLAIMS[cid], res["claim"], res["control"], scenario="as17_experts", env=env,
                              ci_level=1 - alpha, secondary=res.get("secondary"), history=params["history"].get(cid)))
    out.append(record(EXACT_CLAIM, check_draws(p["T"]), check_draws(p["T"][:1], pad=False), scenario="as17_experts",
                      env=None, ci_level=1 - alpha))
    return out, {}
