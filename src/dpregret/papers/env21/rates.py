"""Ene, Nguyen, Vladu (AAAI 2021): how ``papers.env21.claims``'s rate claims are fitted (the rates of
Theorem 1.1, Lemma 3.1 and Lemmas 5.2 / 5.5, sections 1, 3 and 5).

The conventions (rates in T on the regret itself, the stated polylogs carried by the
tolerance; rates in n and eps on the paired privacy gap) are stated once in ``papers.env21.claims``'s
module docstring, which also holds the claims' texts (``CLAIMS``) and ``evaluate``.  Here:

- :func:`column_rate`: one rate on one column of a table (per-x samples, optionally against 1/x);
- the rates in T on the simplex shared by the paper's learner and a user's learner inside
  PRIVATEBANDIT's privacy mechanism: :func:`rate_T` (Lemmas 3.1, 5.2, 5.5, with their
  detail: regret over the stated bounds, the polylog-divided fit, the noise-to-smoothing
  ratios), :func:`thm1_1` (Theorem 1.1: the worse of Lemmas 5.2 and 5.5) and
  :func:`rate_T_claims` (those three claims for a learner named by
  :func:`rate_T_algs`; ``USER_RATE_T``);
- :func:`slope_difference`: ``A depends less on x than B`` (``ENV-gauss-vs-laplace-n``);
- the non-learner controls: :func:`nonlearner_rate` (the learner frozen at the centre, rows
  ``frozen``, by a claim's own rate check), :func:`learning_gate` (a gap claim's learner must
  learn on the same run: regret <= ``trivial_share_max`` x the frozen centre's at every point)
  and :func:`gap_rate` (a rate of the privacy gap, decided only on the points in the regime
  where the privacy term dominates and the learner learns; else "not in the regime" with the
  numbers).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from dpregret.verdict.core import (
    Result, bootstrap_means, centered_slopes, check_bound, check_rate, confirm_by_se, fit_slope, not_in_regime,
    samples_by, select, width_margin,
    with_learning_gate, with_nonlearner, with_twin,
)
from dpregret.verdict.spec import claim_tolerance

SEVERITY = {"PASS": 0, "INCONCLUSIVE": 1, "FAIL": 2}
TWIN_SUFFIX = "_step_over_T"  # papers.env21.scenario.TWIN: the rows of the mis-tuned twin
TWIN_UP_SUFFIX = "_step_over_sqrtT"  # papers.env21.scenario.TWIN_UP: the private claims' twin
TWIN_UP_NAME = "Algorithm 1 with the step eta (T / T0)^(1/4) (eta ~ T^(-1/2) instead of T^(-3/4))"
TWIN_UP_WHY = ("the step's exponent in T one notch off upward (the full-information OGD step D / (G T^(1/2)) "
               "transplanted to the batched bandit; equal to Algorithm 1's at the grid's smallest T0, same noise, zeta "
               "and draws): where the privacy term dominates, the displacement eta ||Z|| of the played point by the "
               "tree noise grows by (T / T0)^(1/4), so the privacy cost's slope in T rises. (The 1/T twin, too small "
               "a step, trades learning speed for noise displacement and is reported in detail.other_twin: on the "
               "pilot, seed 12345, eps 20 / 700, its slope equalled the paper's, 0.820 vs 0.822 Laplace)")
TWIN_NAME = "Algorithm 1 with the step eta (T0 / T)^(1/4) (eta ~ 1/T instead of T^(-3/4))"
TWIN_WHY = ("the step's exponent in T one notch off (the 1/T step of a method tuned per step rather than per batch; "
            "equal to Algorithm 1's at the grid's smallest T0, same noise, zeta and draws): the learning transient "
            "D / (eta L) then grows as T instead of T^(3/4), so the learning regret's slope rises toward 1")
_at = select


FROZEN = "frozen"  # papers.env21.run.NONLEARNER: the learner frozen at the domain's centre
FROZEN_NAME = "frozen centre (plays the domain's centre, Algorithm 1's x~_0, whatever it is fed; same draws)"


def column_rate(df, x, col, exponent, tol, alpha, rng, transform=None, invert=False, decades=2.0):
    xs, s = samples_by(df, x, col, close=True)
    if invert:
        xs, s = 1.0 / xs[::-1], s[::-1]
    return check_rate(xs, s, exponent, tol, alpha, rng, transform=transform, decades=decades,
                      x_name=f"1 / {x}" if invert else x)


LEARNING = "learning_regret"  # regret minus the oracle at v_1's on the same draws (learning_regret)
LEARNING_METRIC = ("regret minus the regret of the oracle frozen at the loss's minimiser v_1, queried on the same "
                   "directions at Algorithm 1's zeta (papers.env21.run.run_variants(oracle=True)): on f_t = L ||x - "
                   "v_1|| that oracle pays exactly T L zeta, the smoothing cost every learner pays whatever it learns, "
                   "so the rate is that of learning (and of privacy)")


def paper_zeta(T: int, d: int, D: float) -> float:
    """Algorithm 1, line 1's smoothing radius ``zeta = D n^(1/2) / T^(1/4)``, written out here rather than taken
    from ``learners.algorithm1_parameters``: the reference of the learning regret (the oracle at v_1 queried at
    this radius) must not move with the learner's code (a learner with the wrong zeta pays the difference)."""
    return D * float(d) ** 0.5 / float(T) ** 0.25


def learning_regret(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the column ``learning_regret`` = regret - oracle_regret (:data:`LEARNING_METRIC`); rows
    without an ``oracle_regret`` (NaN) get ``T L zeta_1``, the oracle's exact regret on ``rate_losses``."""
    orc = df["oracle_regret"].to_numpy(dtype=float) if "oracle_regret" in df else np.full(len(df), np.nan)
    miss = ~np.isfinite(orc)
    if miss.any():
        sub = df[miss]
        orc = orc.copy()
        orc[miss] = [T * L * paper_zeta(int(T), int(d), D)
                     for T, d, L, D in zip(sub["T"], sub["dim"], sub["L"], sub["D"])]
    return df.assign(**{LEARNING: df["regret"].to_numpy(dtype=float) - orc})


def nonlearner_rate(res: Result, frozen_rows: pd.DataFrame, cid: str, exponent: float, tol: float, alpha: float,
                    rng_for, x: str = "T", col: str = LEARNING) -> Result:
    """``res`` (a rate in T of a learner's regret) with its non-learner control: the rows of the
    learner frozen at the centre on the same draws, decided by the same check (own bootstrap
    stream); its regret per T over the non-learner's in ``detail``."""
    nl = column_rate(learning_regret(frozen_rows), x, col, exponent, tol, alpha, rng_for(cid + "/nonlearner"))
    res.detail["regret_over_frozen_centre"] = [round(float(a) / float(b), 4) for a, b in
                                               zip(res.detail.get("mean", []), nl.detail.get("mean", []))]
    return with_nonlearner(res, FROZEN_NAME, nl)


def _paired(df: pd.DataFrame, x: str, col: str = "regret") -> dict:
    """``{x value: samples sorted by replicate}``."""
    xs, s = samples_by(df, x, col, close=True)
    return dict(zip(xs.tolist(), s))


def learning_gate(learners: dict[str, pd.DataFrame], frozen: pd.DataFrame, x: str, xs, share_max: float,
                  alpha: float) -> tuple[Result, Result]:
    """The learning gate of a gap claim (core.with_learning_gate) and the non-learner's result on
    it: at every point ``x in xs`` and for every learner (``{name: rows}``), mean regret <=
    ``share_max`` x the frozen centre's, decided as a bound on the paired per-replicate
    differences ``regret - share_max x frozen`` (Bonferroni over the points).  The frozen centre
    itself on the gate (``frozen - share_max x frozen``) is the claim's non-learner control."""
    fz = _paired(learning_regret(frozen), x, LEARNING)
    diffs, ratios, labels, nl_d, nl_r = [], [], [], [], []
    for name, rows in learners.items():
        lr = _paired(learning_regret(rows), x, LEARNING)
        for v in xs:
            r, f = lr[float(v)], fz[float(v)]
            diffs.append(r - share_max * f)
            ratios.append(float(r.mean() / (share_max * f.mean())))
            labels.append(f"{name}, {x}={v:g}")
    for v in xs:
        f = fz[float(v)]
        nl_d.append(f - share_max * f)
        nl_r.append(1.0 / share_max)
    gate = check_bound(diffs, ratios, alpha, labels=labels)
    nl = check_bound(nl_d, nl_r, alpha, labels=[f"{FROZEN}, {x}={v:g}" for v in xs])
    gate.detail["gate"] = nl.detail["gate"] = (f"mean learning regret (regret minus the oracle at v_1's T L zeta) <= "
                                               f"{share_max:g} x the frozen centre's at every point (paired per "
                                               "replicate; measured: the worst ratio to that threshold)")
    return gate, nl


def _regime_numbers(g: pd.DataFrame, frozen: pd.DataFrame, x: str, alg: str, regime: dict) -> dict:
    """Per x: the private regret, the noise-free run's (same replicates), the frozen centre's, and on the
    learning regret (:func:`learning_regret`: minus the oracle at v_1's T L zeta, which every learner pays)
    the noise share ``gap / learning regret`` and the learning regret over the frozen centre's, with the
    declared thresholds (the regime is decided on the learning regret); the shares of the regret itself
    are reported beside (``noise_share_of_regret``, ``regret_over_frozen_centre``)."""
    rows = learning_regret(g[g.alg == alg])
    orc = rows["regret"] - rows[LEARNING]
    rows = rows.assign(learning_none=rows["regret_none"] - orc)
    a = rows.groupby(x)[["regret", "regret_none", LEARNING, "learning_none"]].mean()
    fr = learning_regret(frozen)
    fz = fr.groupby(x).regret.mean().reindex(a.index)
    fzl = fr.groupby(x)[LEARNING].mean().reindex(a.index)
    share = 1.0 - a.learning_none / a[LEARNING]
    over = a[LEARNING] / fzl
    ok = (share >= regime["noise_share_min"]) & (over <= regime["trivial_share_max"])
    return {x: a.index.tolist(), "mean_regret": a.regret.round(2).tolist(), "nonprivate_regret":
            a.regret_none.round(2).tolist(), "frozen_centre_regret": fz.round(2).tolist(),
            "learning_regret": a[LEARNING].round(2).tolist(), "nonprivate_learning_regret":
            a.learning_none.round(2).tolist(), "frozen_centre_learning_regret": fzl.round(2).tolist(),
            "noise_share": share.round(4).tolist(), "learning_over_frozen_centre": over.round(4).tolist(),
            "noise_share_of_regret": (1.0 - a.regret_none / a.regret).round(4).tolist(),
            "regret_over_frozen_centre": (a.regret / fz).round(4).tolist(),
            "in_regime": ok.tolist(), "noise_share_min": regime["noise_share_min"],
            "trivial_share_max": regime["trivial_share_max"], "metric": LEARNING_METRIC}


def gap_rate(cid: str, g: pd.DataFrame, frozen: pd.DataFrame, x: str, alg: str, ctl: str, exponent: float,
             tol: float, alpha: float, rng_for, regime: dict, invert: bool = False,
             twin: tuple[str, str, str] | None = None) -> tuple[Result, Result]:
    """A rate of the privacy gap (``g``: :func:`~dpregret.verdict.core.paired_gap` rows with ``gap``
    and ``regret_none``) in ``x`` (``invert``: in 1/x), decided only where it measures a learner's
    privacy cost: at the points where the privacy term dominates (noise share ``gap / regret >=
    regime["noise_share_min"]``) and the learner learns (regret ``<= regime["trivial_share_max"]``
    x the frozen centre's, same draws).  With >= 4 such points spanning >= 1 decade the claim and
    its control are decided there; otherwise on the whole grid, recorded INCONCLUSIVE "not in
    the regime" with the numbers per point (:func:`~dpregret.verdict.core.not_in_regime`).  Either
    way with the learning gate (:func:`learning_gate`, on the points decided) and the frozen
    centre on it as the non-learner control.  ``twin``: ``(rows' alg, name, why)`` of the mis-tuned twin, run on
    the same draws (its gap paired with the same noise-free run), decided by the same check on the same points
    (:func:`~dpregret.verdict.core.with_twin`)."""
    nums = _regime_numbers(g, frozen, x, alg, regime)
    xs = np.array(nums[x], dtype=float)
    inr = xs[np.array(nums["in_regime"], dtype=bool)]
    span = float(np.log10(inr.max() / inr.min())) if inr.size else 0.0
    decided = inr if (inr.size >= 4 and span >= 1.0 - 1e-9) else xs
    on = lambda df: df[np.isclose(df[x].to_numpy(dtype=float)[:, None], decided[None]).any(axis=1)]  # noqa: E731
    dec = 2.0 if decided is xs else 1.0  # the whole grid as declared (2 decades), the regime's window 1 at least
    res = column_rate(on(g[g.alg == alg]), x, "gap", exponent, tol, alpha, rng_for(cid), invert=invert, decades=dec)
    cres = column_rate(on(g[g.alg == ctl]), x, "gap", exponent, tol, alpha, rng_for(cid + "/control"), invert=invert,
                 decades=dec)
    if invert:
        res.detail["x_is"] = f"1/{x}"
    if decided is xs:
        pts = "; ".join(f"{x} = {v:g}: noise share {s:.2f}, learning regret {o:.2f} x the frozen centre's"
                        for v, s, o in zip(xs, nums["noise_share"], nums["learning_over_frozen_centre"]))
        res = not_in_regime(res, f"{inr.size} of {xs.size} points of the grid are in the regime (noise share of the "
                                 f"learning regret >= {regime['noise_share_min']:g}: the privacy term dominates; "
                                 f"learning regret <= {regime['trivial_share_max']:g} x the frozen centre's: the "
                                 f"learner learns), a rate needs >= 4 spanning >= 1 decade ({pts})", nums)
    else:
        res.detail["regime_numbers"] = nums
    gate, nl = learning_gate({alg: g[g.alg == alg]}, frozen, x, decided, regime["trivial_share_max"], alpha)
    if twin is not None:
        talg, tname, twhy = twin
        tres = column_rate(on(g[g.alg == talg]), x, "gap", exponent, tol, alpha, rng_for(cid + "/twin"),
                           invert=invert, decades=dec)
        res = with_twin(res, tname, tres, twhy)
    return with_nonlearner(with_learning_gate(res, gate), FROZEN_NAME, nl), cres


def _worst(results: list[Result]) -> Result:
    """The most critical result: highest severity, then highest CI top."""
    return max(results, key=lambda r: (SEVERITY[r.verdict], np.nan_to_num(r.ci_high, nan=np.inf)))


def _least_caught(results: list[Result]) -> Result:
    return min(results, key=lambda r: (SEVERITY[r.verdict], np.nan_to_num(r.ci_low, nan=-np.inf)))


def slope_difference(x, a: list[np.ndarray], b: list[np.ndarray], alpha: float, rng: np.random.Generator,
                     margin: float = 0.0, n_boot: int = 2000) -> Result:
    """``A depends less on x than B``: slope(log mean a) - slope(log mean b) < -margin.

    Paired percentile bootstrap (the same resampled replicates for a and b at each point;
    a[i], b[i] sorted by replicate).  PASS if the CI's top < -margin, FAIL if its bottom
    > -margin, else INCONCLUSIVE (also if a mean is <= 0 or > alpha/2 of resamples are)."""
    x = np.asarray(x, dtype=float)
    if x.size < 2 or any(len(p) != len(q) for p, q in zip(a, b)):
        raise ValueError("slope_difference needs >= 2 points and paired samples of equal size")
    ma, mb = np.array([v.mean() for v in a]), np.array([v.mean() for v in b])
    detail = {"x": x.tolist(), "mean_a": ma.tolist(), "mean_b": mb.tolist(), "ci_of": "slope(a) - slope(b)"}
    if np.any(ma <= 0) or np.any(mb <= 0):
        return Result("INCONCLUSIVE", float("nan"), -margin, float("nan"), float("nan"), margin,
                      {**detail, "reason": "a mean gap is <= 0"})
    sa, sb = fit_slope(x, ma), fit_slope(x, mb)
    idx, ba = bootstrap_means(a, rng, n_boot)
    _, bb = bootstrap_means(b, rng, n_boot, idx)  # paired: the same resampled replicates
    ok = np.all(ba > 0, axis=1) & np.all(bb > 0, axis=1)
    if np.mean(~ok) > alpha / 2:
        return Result("INCONCLUSIVE", sa - sb, -margin, float("nan"), float("nan"), margin,
                      {**detail, "reason": f"{np.mean(~ok):.1%} of bootstrap means <= 0"})
    with np.errstate(invalid="ignore", divide="ignore"):
        d = centered_slopes(np.log(np.where(ok[:, None], ba, 1.0)) - np.log(np.where(ok[:, None], bb, 1.0)), np.log(x))
    lo, hi = np.quantile(np.where(ok, d, np.inf), [alpha / 2, 1 - alpha / 2])
    verdict = "PASS" if hi < -margin else ("FAIL" if lo > -margin else "INCONCLUSIVE")
    confirm = confirm_by_se(sa - sb, float(np.std(d[ok], ddof=1)), -margin, "above") if verdict == "FAIL" else {}
    return Result(verdict, sa - sb, -margin, float(lo), float(hi), margin,
                  {**detail, "slope_a": sa, "slope_b": sb, "margin": width_margin(lo, hi, -margin), **confirm})


def _noise_ratios(a: pd.DataFrame, kind: str) -> dict:
    """The noise-to-smoothing ratio r = eta E||Z|| / zeta (papers.env21.learners.noise_to_smoothing) per T
    of the grid, at the claim's eps and at eps = 10, with D / zeta (saturation)."""
    from dpregret.core.calibration import lemma5_noise_scale as noise_scale
    from dpregret.papers.env21.learners import noise_to_smoothing
    out = {"T": [], "eps": float(a.eps.iloc[0]), "at_eps": [], "eps_10": [], "D_over_zeta": []}
    for T, g in a.groupby("T"):
        d, L, D, delta = int(g.dim.iloc[0]), float(g.L.iloc[0]), float(g.D.iloc[0]), float(g.delta.iloc[0])
        out["T"].append(int(T))
        out["at_eps"].append(round(noise_to_smoothing(kind, int(T), d, L, D, float(g.noise_scale.iloc[0])), 3))
        out["eps_10"].append(round(noise_to_smoothing(kind, int(T), d, L, D,
                                                      noise_scale(kind, int(T), d, L, 10.0, delta)), 1))
        out["D_over_zeta"].append(round(D / float(g.zeta.iloc[0]), 2))
    return out


def _polylog(kind: str, delta: float, dim: int):
    if kind == "laplace":
        return lambda x, m: m / np.log2(x) ** 2
    return lambda x, m: m / (np.log2(x) ** 2 * np.log(x / delta) * np.sqrt(np.log((dim + x) / delta)))


# ------------------------------------------------------------------------- your own learner
USER_RATE_T = {"ENV-lemma5.2-rate-T": "laplace", "ENV-lemma5.5-rate-T": "gaussian"}

PAPER_LEARNER = "private_bandit"
USER_RATE_ROLES = ("laplace", "laplace_slow_zeta", "gaussian", "gaussian_slow_zeta")


def rate_T_algs(name: str = PAPER_LEARNER) -> dict[str, str]:
    """The ``rates`` rows of a learner: role -> ``alg``.  The paper's are its own rows (with
    the fixed-step secondaries); a user's learner ``name`` has ``name`` (Laplace, Lemma 5.1's
    lambda), ``name@gaussian`` (Lemma 5.4's sigma) and the slow-zeta controls of both."""
    if name == PAPER_LEARNER:
        return {**{r: r for r in USER_RATE_ROLES + ("laplace_fixed_step", "gaussian_fixed_step")},
                "laplace_twin": "laplace" + TWIN_SUFFIX, "gaussian_twin": "gaussian" + TWIN_SUFFIX,
                "laplace_twin_up": "laplace" + TWIN_UP_SUFFIX, "gaussian_twin_up": "gaussian" + TWIN_UP_SUFFIX}
    return {r: name if r == "laplace" else f"{name}@{r}" for r in USER_RATE_ROLES}
REFERENCE = "frozen_centre"  # the learner frozen at the centre (papers.env21.learners.FrozenCentre)


def rate_T_claims(rates: pd.DataFrame, p: dict, tol: dict, alpha: float, rng_for, name: str = "private_bandit",
                  claims=("ENV-lemma5.2-rate-T", "ENV-lemma5.5-rate-T", "ENV-thm1.1-rate-T")
                  ) -> dict[str, tuple[Result, Result]]:
    """Lemma 5.2's, Lemma 5.5's and Theorem 1.1's rates in T for the learner ``name`` inside
    PRIVATEBANDIT's privacy mechanism (:func:`rate_T_algs`; the paper's learner:
    ``"private_bandit"``, its own rows), each against its slow-zeta control run with the same
    learner: the check of ``papers.env21.claims.evaluate`` (same tolerance, same bootstrap generators, same
    detail; the fixed-step secondary control exists for the paper's learner only: a user's
    learner has its own step)."""
    a = rate_T_algs(name)
    simplex = _at(rates, domain="simplex")
    out = {}
    need = set(claims) | (set(USER_RATE_T) if "ENV-thm1.1-rate-T" in claims else set())
    for cid, kind in USER_RATE_T.items():
        if cid not in need:
            continue
        rows, crow = _at(simplex, alg=a[kind]), _at(simplex, alg=a[f"{kind}_slow_zeta"])
        sec = a.get(f"{kind}_fixed_step")
        tw = a.get(f"{kind}_twin")  # the mis-tuned twin (the paper's learner only: a user's learner has its own step)
        twu = a.get(f"{kind}_twin_up")
        res, cres = rate_T(rows, crow, None if sec is None else _at(simplex, alg=sec), sec, cid,
                           claim_tolerance(tol, cid, __name__), alpha, rng_for, kind=kind,
                           twin=None if tw is None else _at(simplex, alg=tw),
                           base=_at(simplex, alg="none"), regime=p.get("regime"),
                           twin_up=None if twu is None else _at(simplex, alg=twu),
                           regime_rows=None if name == PAPER_LEARNER else _at(simplex, alg=rate_T_algs()[kind]))
        res.detail["learner"] = name
        ref = _at(simplex, alg=FROZEN)  # the learner frozen at the centre, same draws (the paper's rows)
        if not len(ref):
            ref = _at(simplex, alg=rate_T_algs(REFERENCE)[kind])  # the same learner through the door
        if len(ref):
            m = rows.groupby("T").regret.mean()
            res.detail["regret_over_frozen_centre"] = (m / ref.groupby("T").regret.mean()).round(4).tolist()
        out[cid] = (res, cres)
    if "ENV-thm1.1-rate-T" in claims:  # the worse of the two, against the less caught control (as evaluate)
        res, ctl = out["ENV-thm1.1-rate-T"] = thm1_1(out, tol)
        for k, cid in (("laplace", "ENV-lemma5.2-rate-T"), ("gaussian", "ENV-lemma5.5-rate-T")):
            if "regret_over_frozen_centre" in out[cid][0].detail:
                res.detail["components"][k]["regret_over_frozen_centre"] = (
                    out[cid][0].detail["regret_over_frozen_centre"])
    return {c: out[c] for c in claims}


def rate_T(a: pd.DataFrame, c: pd.DataFrame, sec_rows: pd.DataFrame | None, sec: str | None, cid: str, t: float,
           alpha: float, rng_for, kind: str | None = None, twin: pd.DataFrame | None = None,
           base: pd.DataFrame | None = None, regime: dict | None = None,
           twin_up: pd.DataFrame | None = None, regime_rows: pd.DataFrame | None = None) -> tuple[Result, Result]:
    """A rate in T on the simplex (Lemma 3.1, 5.2, 5.5): the learner's rows ``a`` against the
    control's ``c`` (slow zeta), the secondary control's slope (``sec``, None: not applicable),
    and the detail shared by the paper's learner and a user's: regret over Lemma 3.1's bound and
    its explicit chain; for a private run (``kind`` "laplace" / "gaussian") over the stated
    bound, the slope with the stated polylog divided out, the noise-to-smoothing ratios."""
    a, c = learning_regret(a), learning_regret(c)
    res = column_rate(a, "T", LEARNING, 0.75, t, alpha, rng_for(cid))
    cres = column_rate(c, "T", LEARNING, 0.75, t, alpha, rng_for(cid + "/control"))
    res.detail["metric"] = LEARNING_METRIC
    mr = a.groupby("T")[["regret", LEARNING]].mean()
    res.detail["learning_share_of_regret"] = (mr[LEARNING] / mr.regret).round(4).tolist()
    res.detail["regret_slope"] = column_rate(a, "T", "regret", 0.75, t, alpha, rng_for(cid + "/regret")).measured
    if twin is not None and len(twin):
        tw = column_rate(learning_regret(twin), "T", LEARNING, 0.75, t, alpha, rng_for(cid + "/twin"))
        if twin_up is not None and len(twin_up):  # the private claims: the too-large step is their twin
            res.detail["other_twin"] = {"name": TWIN_NAME, "verdict": tw.verdict, "slope": tw.measured,
                                        "ci": [tw.ci_low, tw.ci_high]}
            tw = column_rate(learning_regret(twin_up), "T", LEARNING, 0.75, t, alpha, rng_for(cid + "/twin_up"))
            res = with_twin(res, TWIN_UP_NAME, tw, TWIN_UP_WHY)
        else:
            res = with_twin(res, TWIN_NAME, tw, TWIN_WHY)
    if sec is None:
        res.detail["secondary_control"] = {"alg": None, "verdict": "not applicable (the step is the learner's own)"}
    else:
        sres = column_rate(learning_regret(sec_rows), "T", LEARNING, 0.75, t, alpha, rng_for(cid + "/secondary"))
        res.detail["secondary_control"] = {"alg": sec, "verdict": sres.verdict, "slope": sres.measured,
                                           "ci": [sres.ci_low, sres.ci_high]}
    res.detail["control_zeta_over_algorithm1"] = (c.groupby("T").zeta.first() / a.groupby("T").zeta.first()
                                                  ).round(4).tolist()
    m = a.groupby("T")[["regret", "bound_lemma3_1", "bound_lemma3_1_explicit"]].mean()
    res.detail["regret_over_lemma3_1_C1"] = (m.regret / m.bound_lemma3_1).round(4).tolist()
    res.detail["regret_over_explicit_chain"] = (m.regret / m.bound_lemma3_1_explicit).round(4).tolist()
    res.detail["explicit_chain_over_LDT"] = (m.bound_lemma3_1_explicit / (a.L.iloc[0] * a.D.iloc[0] * m.index)
                                             ).round(3).tolist()
    if kind is not None:
        dim, delta = int(a.dim.iloc[0]), float(a.delta.iloc[0])
        bcol = "bound_lemma5_2" if kind == "laplace" else "bound_lemma5_5"
        mb = a.groupby("T")[bcol].mean()
        res.detail[f"regret_over_{bcol}_C1"] = (m.regret / mb).round(4).tolist()
        res.detail["stated_bound_over_LDT"] = (mb / (a.L.iloc[0] * a.D.iloc[0] * mb.index)).round(3).tolist()
        tf = _polylog(kind, delta, dim)
        div = column_rate(a, "T", "regret", 0.75, t, alpha, rng_for(cid + "/polylog"), transform=tf)
        divc = column_rate(c, "T", "regret", 0.75, t, alpha, rng_for(cid + "/polylog/control"), transform=tf)
        res.detail["polylog_divided"] = {"slope": div.measured, "ci": [div.ci_low, div.ci_high], "verdict": div.verdict,
                                         "control_slope": divc.measured, "control_verdict": divc.verdict}
        res.detail["noise_to_smoothing"] = _noise_ratios(a, kind)
        if base is not None and len(base):  # the noise-free run on the same draws: the privacy term's share
            # the regime is the instance's (eps, T), shown by the paper's learner (``regime_rows``: its private rows
            # when a user's learner is decided, so that both are decided on the same points)
            mp = (mr if regime_rows is None or not len(regime_rows)
                  else learning_regret(regime_rows).groupby("T")[[LEARNING]].mean())
            mb_ = learning_regret(base).groupby("T")[LEARNING].mean().reindex(mp.index)
            share = (1.0 - mb_ / mp[LEARNING]).round(4)
            res.detail["noise_share"] = share.tolist()  # (private - noise-free) / private learning regret, per T
            res.detail["nonprivate_learning_regret"] = mb_.round(2).tolist()
            res.detail["private_learning_regret"] = mr[LEARNING].round(2).tolist()
            # outside the regime a PASS says nothing about privacy; a FAIL (a rate above the claim's whatever the
            # privacy term) still refutes it
            if regime is not None and res.verdict != "FAIL" and not bool((share >= regime["noise_share_min"]).all()):
                nums = {"T": mr.index.tolist(), "noise_share": share.tolist(),
                        "noise_share_min": regime["noise_share_min"], "eps": float(a.eps.iloc[0])}
                res = not_in_regime(res, f"the privacy term does not dominate at every T (noise share of the "
                                         f"learning regret {share.min():.2f} < {regime['noise_share_min']:g} at "
                                         f"T = {share.idxmin():g}, eps = {float(a.eps.iloc[0]):g})", nums)
    return res, cres


def thm1_1(out: dict, tol: dict) -> tuple[Result, Result]:
    """Theorem 1.1: the worse of Lemma 5.2's and Lemma 5.5's rates, against the less caught control."""
    comp = [out["ENV-lemma5.2-rate-T"], out["ENV-lemma5.5-rate-T"]]
    w = _worst([r for r, _ in comp])
    twins = [r.detail["twin"] for r, _ in comp if "twin" in r.detail]
    if twins:  # the less caught of the two twins
        w = replace(w, detail={**w.detail, "twin": min(
            twins, key=lambda t_: (bool(t_["caught"]), np.nan_to_num(t_["ci_low"], nan=-np.inf)))})
    t = claim_tolerance(tol, "ENV-thm1.1-rate-T", __name__)
    res = Result(w.verdict, w.measured, w.bound, w.ci_low, w.ci_high, t,
                 {**w.detail, "components": {k: {"verdict": r.verdict, "slope": r.measured, "ci": [r.ci_low, r.ci_high],
                                                 "noise_to_smoothing": r.detail.get("noise_to_smoothing")}
                                             for k, (r, _) in zip(("laplace", "gaussian"), comp)}})
    res.detail["secondary_control"] = {k: r.detail["secondary_control"]
                                       for k, (r, _) in zip(("laplace", "gaussian"), comp)}
    return res, _least_caught([c for _, c in comp])
