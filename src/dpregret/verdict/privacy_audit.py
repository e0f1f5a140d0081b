"""The audit machinery of the privacy claims (:func:`dpregret.pipeline.registry.audit_specs` gathers the specs).

An :class:`AuditSpec` fixes worst-case neighbouring inputs and a ``draw`` that samples outputs of
the code under audit and scores them by the exact log-likelihood ratio under the *claimed*
noise; :func:`run_audit` runs the recipe of :mod:`dpregret.verdict.audit` on it.  Also here: the helpers
the specs share (:func:`privacy_claim`, :func:`chunks`, :func:`one_release`,
:func:`independence_check`, :class:`SampleStreams`, :func:`mean_shift_projection`) and the check
of a learner's realised noise scale against its formula (:func:`scale_check`, :func:`with_controls`:
too much noise is no privacy violation, so the l2 randomiser's and DP-SGD's audits check it both ways).

Cells.  A mechanism that releases a sequence is audited with the differing record at *every*
position t = 1..T of its small instance (and, for Lemma 4.2, on every implementation the
scenarios run): one cell per (implementation, position).  The neighbour D' (the base input) is
shared by the cells of one implementation; each D_t replaces record t.  Every cell gets its own
lower bound at level ``alpha / cells`` (Bonferroni: the per-cell bounds hold simultaneously with
probability >= 1 - alpha), and the claim is decided on the worst cell.

Statistical checks.  Where the transcript's noise is observable (known inputs), a spec also tests
that its noise draws are independent (pairwise correlations of the values and of their absolute
values, Bonferroni, at false-alarm level ``CHECK_SHARE * alpha``; the lower bounds then use the
rest of alpha): a reused draw leaves every single output correctly distributed, so the
likelihood ratio under the claimed independent-noise model cannot see it.

Controls.  Each spec names one *primary* control, the smallest plausible mistake (normally half
the noise), and secondary ones (grosser mistakes).  A control is caught (verdict FAIL) when its
lower bound exceeds the claim; otherwise it is INCONCLUSIVE (a lower bound cannot show that a
variant is private).  ``blind`` lists controls that the instance provably cannot catch, with the
computation that shows it (none today: Lemma 5.4's half-noise control, blind against the lemma's
loose (eps, delta), is caught on the exact accountant's mu, see :mod:`dpregret.papers.env21.audit`).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from dpregret.verdict.audit import eps_lower_bound, gdp_mu_lower_bound, renyi_lower_bound
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.verdict.core import FAIL_LEVEL, Claim, Result, check_privacy, fail_confirmation

VDH, AS17, ZTC = "VDH19", "AS17", "ZTC22"
ENV = "ENV21"
CHUNK = 2**15  # rows per simulation call: memory and cache only (the rows are i.i.d. either way)
CHECK_SHARE = 0.1  # share of alpha spent on a spec's statistical check (the lower bounds get the rest)
CHECK_SAMPLES = 100_000  # transcripts per statistical check (at most the audit's n)

# draw(variant, n, rng) -> {cell: (scores of n outputs under D, scores of n outputs under D')};
# scores are (n,) or (n, k) (k statistics of each output; the selection half picks one);
# rng(*parts) is the variant's generator for that part of the draw
RngFor = Callable[..., np.random.Generator]
Cells = dict[str, tuple[np.ndarray, np.ndarray]]
Draw = Callable[[str, int, RngFor], Cells]


@dataclass
class AuditSpec:
    claim: Claim
    eps: float  # claimed eps (for GDP claims: the claimed mu)
    delta: float
    draw: Draw
    primary: str  # the primary control (the smallest plausible mistake)
    controls: dict[str, str]  # every control (primary included) -> what is broken
    gaussian_mu: float | None = None  # claimed GDP mu (Gaussian claims)
    rdp: Callable[[float], float] | None = None  # claimed RDP eps(alpha)
    tight_floor: float | None = None  # eps_lb must reach this fraction of the claim (pure-DP Laplace)
    exact_check: Callable[[np.random.Generator], str | None] | None = None
    exact_ok: str = "releases = node map x nodes + padding (exact)"  # what a passing exact_check established
    gdp_only: bool = False  # the claim is mu-GDP only (no eps)
    # stat_check(n, alpha, rng) -> (failure or None, details): a test of the correct mechanism at
    # false-alarm level alpha (CHECK_SHARE of the audit's alpha)
    stat_check: Callable[[int, float, np.random.Generator], tuple[str | None, dict]] | None = None
    blind: dict[str, str] = field(default_factory=dict)  # controls this instance cannot catch, and why
    accountant: dict | None = None  # the exact accountant's numbers behind a tightened claim (recorded)

    @property
    def secondary(self) -> list[str]:
        return [k for k in self.controls if k != self.primary]


def privacy_claim(cid, paper, theorem, statement, controls: dict[str, str], primary: str,
                  near_miss: bool = True) -> Claim:
    """A privacy audit's :class:`Claim`: its controls by name, ``primary`` the one whose catch a PASS needs."""
    if primary not in controls:
        raise ValueError(f"{cid}: primary control {primary!r} is not among {sorted(controls)}")
    return Claim(cid, paper, theorem, "privacy", statement,
                 "empirical eps lower bound (or GDP mu) at the worst cell (position / implementation)",
                 f"{primary}: {controls[primary]}", near_miss=near_miss,
                 secondary="; ".join(f"{k}: {v}" for k, v in controls.items() if k != primary))


def chunks(n: int):
    """``(start, stop)`` of consecutive blocks of at most ``CHUNK`` samples covering ``range(n)``."""
    for a in range(0, n, CHUNK):
        yield a, min(n, a + CHUNK)


def one_release(sample, score) -> Draw:
    """A single-release mechanism: one cell, D and D' fixed by the spec."""
    def draw(variant, n, rng):
        return {"single release": (score(sample(variant, 0, n, rng("D")), variant),
                                   score(sample(variant, 1, n, rng("D'")), variant))}
    return draw


def mean_shift_projection(y: np.ndarray, m_dp: np.ndarray, m_d: np.ndarray) -> np.ndarray:
    """``<y - m_dp, m_d - m_dp>``: the output's shift along the difference of the neighbours' means
    (``m_d`` under D, ``m_dp`` under D'), oriented as the log-likelihood ratio (larger under D), a score
    that does not saturate.  The claimed Laplace log-likelihood ratio is constant beyond the
    neighbours' means, so its threshold events cannot reach a tail; beside it as a second score
    column (the selection half chooses), the events ``{<y, m_d - m_dp> >= c}`` reach every tail, so a
    noise of the claimed variance but a lighter-tailed shape (Gaussian for Laplace) is seen."""
    y = np.asarray(y, dtype=float)
    d = np.asarray(m_d, dtype=float) - np.asarray(m_dp, dtype=float)
    return (y.reshape(len(y), -1) - np.ravel(m_dp)) @ np.ravel(d)


def independence_check(noise: np.ndarray, alpha: float) -> tuple[str | None, dict]:
    """Are the columns of ``noise`` (n, m) -- the noise draws of one transcript (nodes, rounds) --
    independent?  Pearson correlations of the values and of their absolute values, every
    pair: under independence sqrt(n) r is ~ N(0, 1); Bonferroni over the 2 m (m-1)/2 tests,
    so a correct mechanism is flagged with probability <= alpha (asymptotically)."""
    n, m = noise.shape

    def corr(x):  # a constant (noise-free) column correlates with nothing
        c = x - x.mean(axis=0)
        sd = c.std(axis=0)
        ok = sd > 1e-12 * (1.0 + np.abs(x).mean(axis=0))
        z = np.where(ok, c / np.where(ok, sd, 1.0), 0.0)
        return (z.T @ z) / n

    iu = np.triu_indices(m, 1)
    z = np.sqrt(n) * np.concatenate([corr(noise)[iu], corr(np.abs(noise))[iu]])
    thr = float(special.ndtri(1 - alpha / (2 * z.size)))
    k = int(np.argmax(np.abs(z)))
    info = {"tests": int(z.size), "max_abs_z": float(abs(z[k])), "threshold": thr, "false_alarm_level": alpha,
            "samples": int(n), "worst_pair": [int(iu[0][k % iu[0].size]), int(iu[1][k % iu[0].size])],
            "statistic": "values" if k < iu[0].size else "absolute values"}
    if abs(z[k]) > thr:
        return (f"the noise draws are not independent: |z| = {abs(z[k]):.3g} > {thr:.3g} for columns "
                f"{info['worst_pair']} ({info['statistic']})"), info
    return None, info


class SampleStreams(ReplicateStreams):
    """The scenarios' sampler for audits whose 'replicates' are a million independent samples:
    a :class:`~dpregret.core.rng.ReplicateStreams` (its ``laplace``, ``normal``, ``exponential``,
    ``gamma_int`` and ``choice``, the inverse transforms every scenario draws through) whose
    uniforms come from one Generator instead of a generator per sample.  Only the source of the
    uniforms differs from the scenarios', so a transform that drew the wrong distribution would
    be drawn, and audited, here too."""

    def __init__(self, rng: np.random.Generator, n: int):  # noqa: D107 - no super().__init__: one generator
        self.rng, self.replicates, self.block, self.consumed = rng, np.arange(int(n)), 1, 0

    @property
    def R(self) -> int:
        return self.replicates.size

    def _take(self, k: int) -> np.ndarray:
        self.consumed += k
        # as ReplicateStreams, an exact 0 becomes the smallest positive double (values in (0, 1))
        return np.maximum(self.rng.random((self.R, k)), np.finfo(float).tiny)


RDP_ORDERS = (2.0, 8.0, 32.0)


def audit_rng(seed: int, *parts) -> np.random.Generator:
    """A numpy Generator keyed by ``seed`` and ``parts`` (``stable_key("audit", *parts)``): one stream per part of a
    draw."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=stable_key("audit", *parts))))


def audit_variant(spec: AuditSpec, variant: str, n: int, alpha: float, seed: int, stream: tuple = ()) -> dict:
    """eps (and mu, RDP) lower bounds of one variant in every cell (Bonferroni: ``alpha / cells``
    each), and the worst cell's.  ``stream``: extra key parts for an independent sample (the
    confirmation of a flagged correct mechanism draws ``("confirm",)``)."""
    cid = spec.claim.claim_id
    cells = spec.draw(variant, n, lambda *parts: audit_rng(seed, cid, variant, *parts, *stream))
    a = alpha / len(cells)
    a_eps = a / 2 if spec.gaussian_mu is not None else a
    per = {}
    for cell, (s0, s1) in cells.items():
        res = eps_lower_bound(s0, s1, spec.delta, a_eps, audit_rng(seed, cid, variant, cell, "split", *stream))
        c = {"eps_lb": res.eps_lb, "audit": res.as_dict()}
        if spec.gaussian_mu is not None:
            c["mu_lb"], _ = gdp_mu_lower_bound(s0, s1, a / 2, audit_rng(seed, cid, variant, cell, "gdp", *stream))
            c["rdp_lb"] = renyi_lower_bound(res, RDP_ORDERS)
        per[cell] = c
    key = "mu_lb" if spec.gdp_only else "eps_lb"
    worst = max(per, key=lambda c: per[c][key])
    out = {"variant": variant, "eps_lb": per[worst]["eps_lb"], "worst_cell": worst, "audit": per[worst]["audit"],
           "alpha_per_cell": a, "cells": {c: {k: v for k, v in d.items() if k != "audit"} for c, d in per.items()}}
    if spec.gaussian_mu is not None:
        out["mu_lb"] = per[worst]["mu_lb"]
        out["rdp_lb"] = {o: max(d["rdp_lb"][o] for d in per.values()) for o in RDP_ORDERS}
    return out


def _violates(spec: AuditSpec, v: dict) -> bool:
    if spec.gdp_only:
        return v["mu_lb"] > spec.gaussian_mu
    bad = v["eps_lb"] > spec.eps
    if spec.gaussian_mu is not None:
        bad = bad or v["mu_lb"] > spec.gaussian_mu or any(v["rdp_lb"][a] > spec.rdp(a) for a in RDP_ORDERS)
    return bad


def _control_result(spec: AuditSpec, name: str, v: dict) -> Result:
    """A control's result: FAIL when its variant is caught (a lower bound above the claim),
    INCONCLUSIVE otherwise (a lower bound below the claim cannot show the variant private)."""
    key, claim = ("mu_lb", spec.gaussian_mu) if spec.gdp_only else ("eps_lb", spec.eps)
    caught = _violates(spec, v)
    margin = (v[key] - claim) / claim
    if spec.gaussian_mu is not None and not spec.gdp_only:  # caught on eps or on mu
        margin = max(margin, (v["mu_lb"] - spec.gaussian_mu) / spec.gaussian_mu)
    detail = {"ci_of": f"one-sided lower bound on {'mu' if spec.gdp_only else 'eps'} at the worst cell "
                       f"({v['worst_cell']}), Bonferroni over {len(v['cells'])} cells",
              "margin": float(margin), "margin_unit": "fraction of the claim (eps, or mu where larger)",
              "variant": v, "what": spec.controls[name]}
    if name in spec.blind:
        detail["blind"] = spec.blind[name]
    return Result("FAIL" if caught else "INCONCLUSIVE", float(v[key]), claim, float(v[key]), float("inf"), 0.0, detail)


def run_audit(spec: AuditSpec, n: int, alpha: float, seed: int) -> tuple[Result, Result, dict[str, Result]]:
    """(claim result, primary control result, {secondary control: result}).

    The claim FAILs when the exact check finds a discrepancy, or when the worst cell's lower bound
    exceeds the claim or the statistical check rejects (at ``CHECK_SHARE * alpha``; the lower bounds
    then use the rest of alpha) *and* that flag is confirmed on a fresh, independent sample at the
    run-wide level :data:`dpregret.verdict.core.FAIL_LEVEL`: a correct mechanism is reported FAIL with
    probability at most ``alpha * FAIL_LEVEL``.  A flag the fresh sample does not confirm is
    recorded (``detail["flag_not_confirmed"]``) and the audit stays PASS: it did not refute the claim."""
    cid = spec.claim.claim_id
    a_lb = alpha * (1 - CHECK_SHARE) if spec.stat_check is not None else alpha
    correct = audit_variant(spec, "correct", n, a_lb, seed)
    measured = correct["mu_lb"] if spec.gdp_only else correct["eps_lb"]
    res = check_privacy(measured, 1 - alpha, spec.gaussian_mu if spec.gdp_only else spec.eps)
    res.detail.update({"correct": correct, "tight_floor": spec.tight_floor, "claimed_mu": spec.gaussian_mu,
                       "accountant": spec.accountant,
                       "claimed_rdp": {a: spec.rdp(a) for a in RDP_ORDERS} if spec.rdp else None,
                       "cells": len(correct["cells"]), "worst_cell": correct["worst_cell"],
                       "multiplicity": f"Bonferroni: each of the {len(correct['cells'])} cells at level "
                                       f"{correct['alpha_per_cell']:.3g}; decided on the worst cell"})
    flags, confirmed = [], []
    if _violates(spec, correct):
        fresh = audit_variant(spec, "correct", n, FAIL_LEVEL * (1 - CHECK_SHARE) if spec.stat_check else FAIL_LEVEL,
                              seed, stream=("confirm",))
        flags.append(f"lower bound {measured:.4g} above the claim")
        res.detail["confirmation"] = {"eps_lb": fresh["eps_lb"], "mu_lb": fresh.get("mu_lb"),
                                      "level": FAIL_LEVEL, "violates": _violates(spec, fresh)}
        if _violates(spec, fresh):
            confirmed.append("lower bound")
    if spec.tight_floor is not None:
        res.detail["tight"] = bool(measured >= spec.tight_floor * spec.eps)
    exact_failed = False
    if spec.exact_check is not None:
        err = spec.exact_check(audit_rng(seed, cid, "exact"))
        res.detail["exact_check"] = err or spec.exact_ok
        exact_failed = bool(err)
    if spec.stat_check is not None:
        err, info = spec.stat_check(n, alpha * CHECK_SHARE, audit_rng(seed, cid, "stat_check"))
        res.detail["stat_check"] = {"failure": err, **info}
        if err:
            flags.append(f"statistical check: {err}")
            err2, info2 = spec.stat_check(n, FAIL_LEVEL * CHECK_SHARE, audit_rng(seed, cid, "stat_check", "confirm"))
            res.detail["stat_check"]["confirmation"] = {"failure": err2, "level": FAIL_LEVEL * CHECK_SHARE, **info2}
            if err2:
                confirmed.append("statistical check")
    if exact_failed or confirmed:
        res.verdict = "FAIL"
        res.detail.update(fail_confirmation(True, "exact check failed" if exact_failed and not confirmed else
                                            f"confirmed on a fresh sample: {', '.join(confirmed)}"))
    elif flags:
        res.verdict = "PASS"
        res.detail["flag_not_confirmed"] = (f"flagged on the first sample ({'; '.join(flags)}), not confirmed on a "
                                            f"fresh, independent sample at level {FAIL_LEVEL:g}: not a refutation")
    variants = {name: audit_variant(spec, name, n, alpha, seed) for name in spec.controls}
    ctl = {name: _control_result(spec, name, v) for name, v in variants.items()}
    # every control at a glance on the primary's record (the report's audit table reads these)
    ctl[spec.primary].detail.update({"variants": variants, "caught": {k: c.verdict == "FAIL" for k, c in ctl.items()},
                                     "primary": spec.primary})
    return res, ctl[spec.primary], {k: ctl[k] for k in spec.secondary}


# --- the realised noise scale against its formula -------------------------------------------
def scale_check(stat: np.ndarray, want: float, alpha: float, what: str) -> tuple[str | None, dict]:
    """Is ``want`` (the formula's value of E[stat]) inside the two-sided (1 - alpha) normal
    confidence interval of the mean of ``stat`` (i.i.d. draws, n >= 1e4: the CLT)?  Over- and
    under-noising by a factor both move E[stat] away from ``want``."""
    stat = np.asarray(stat, dtype=float).ravel()
    n = stat.size
    m, se = float(stat.mean()), float(stat.std(ddof=1) / math.sqrt(n))
    z = float(special.ndtri(1 - alpha / 2))
    lo, hi = m - z * se, m + z * se
    info = {"statistic": what, "formula": float(want), "estimate": m, "ci": [lo, hi], "ratio": m / want,
            "samples": int(n), "false_alarm_level": alpha,
            # as the independence checks report it: |z| of the formula against the estimate, and the critical |z|
            "max_abs_z": abs(m - want) / se if se > 0 else float("inf"), "threshold": z}
    if not lo <= want <= hi:
        return (f"the realised noise disagrees with its formula: {what} = {m:.5g} [{lo:.5g}, {hi:.5g}], "
                f"formula {want:.5g} (ratio {m / want:.4g})"), info
    return None, info


def with_controls(check, n, alpha, rng, factors=(2.0, 0.5)):
    """``check(factor, n, alpha, rng)`` on the correct code (factor 1) and on its controls (the
    noise scaled by each factor), which the check must reject: recorded in the info."""
    err, info = check(1.0, n, alpha, rng)
    info["controls"] = {}
    for f in factors:
        e, i = check(f, n, alpha, rng)
        info["controls"][f"noise x {f:g}"] = {"rejected": e is not None, "ratio": i["ratio"], "ci": i["ci"]}
    info["controls_caught"] = all(c["rejected"] for c in info["controls"].values())
    return err, info
