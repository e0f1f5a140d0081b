"""The auditor: Clopper-Pearson limits, tightness on exact mechanisms, every privacy claim passes
with its correct mechanism, its primary and secondary controls are caught, two realistic bugs
(patched in here, never in the library) make their audits FAIL, and the recording hooks of the
compiled kernels read what the inner learner receives without changing a single result."""
import numpy as np
import pytest
from scipy import stats

import copy

from scipy import special

from dpregret.verdict import audit as A
from dpregret.verdict.audit import bernoulli_renyi, clopper_pearson, eps_lower_bound, gdp_mu_lower_bound
from dpregret.verdict import privacy as P
from dpregret.verdict import privacy_audit as PA
from dpregret.verdict.core import record
from dpregret.verdict.privacy import run_audit
from dpregret.papers.as17.audit import Received
from dpregret.papers.as17.bandits import Exp2, PrivateFeedback
from dpregret.papers.as17.exp2_jit import exp2_block
from dpregret.papers.as17.scrible import Scrible
from dpregret.papers.as17.scrible_jit import scrible_block
from dpregret.pipeline.registry import audit_specs
from dpregret.core.rng import ReplicateStreams
from dpregret.core.tree import TreeBasedAgg
from margins import assert_z

FAST_N = 200_000  # every margin below holds at this sample count (the default preset runs 1e6)
SEED, ALPHA = 20261122, 0.05
SPECS = audit_specs()


# --- margins: a lower bound beside its point estimate -------------------------------------------------
# A lower bound's half-width is estimate - bound (the evaluation half's counts at the chosen threshold).  A
# control is caught with margin when its bound clears the claim by >= 1 half-width.  The correct mechanism of
# a tight claim cannot: its estimate is the claim up to sampling error, so its bound sits about one
# half-width under the claim by construction (the auditor's guarantee: above it with probability <= alpha);
# its PASS is asserted with the bound >= PASS_MARGIN half-widths under the claim (measured: >= 0.43), a
# margin that no last-bit change moves (scores are rounded to 1e-9, the counts are integers).
PASS_MARGIN = 0.25


def _halves(rng, n_d, n_dp):
    r = copy.deepcopy(rng)
    return r.random(n_d) < 0.5, r.random(n_dp) < 0.5


def eps_estimate(scores_d, scores_dp, res, rng_before) -> tuple[float, float, float, float]:
    """(raw lower bound, point estimate, p1, p0) of ``eps_lower_bound``'s ``res``: its evaluation half's counts at
    its threshold, the halves drawn again from a copy of the rng it was given; the counts are checked to
    give res's Clopper-Pearson limits."""
    s_d, s_dp = A.score_array("d", scores_d), A.score_array("dp", scores_dp)
    m_d, m_dp = _halves(rng_before, len(s_d), len(s_dp))
    sign = 1.0 if res.orientation.startswith("D vs D'") else -1.0
    ev1, ev0 = (s_d[~m_d], s_dp[~m_dp]) if sign > 0 else (s_dp[~m_dp], s_d[~m_d])
    e1, e0, tau = sign * ev1[:, res.column], sign * ev0[:, res.column], sign * res.threshold
    k1, k0, a = int(np.sum(e1 >= tau)), int(np.sum(e0 >= tau)), res.alpha / 4
    lo, hi = clopper_pearson(k1, e1.size, a, a)[0], clopper_pearson(k0, e0.size, a, a)[1]
    assert (float(lo), float(hi)) == (res.p1_lo, res.p0_hi), "eps_estimate no longer mirrors eps_lower_bound"
    raw = float(np.log((lo - res.delta) / hi)) if lo > res.delta else -np.inf
    p1, p0 = k1 / e1.size, k0 / e0.size
    est = np.inf if p0 == 0 else (float(np.log((p1 - res.delta) / p0)) if p1 > res.delta else -np.inf)
    return raw, est, p1, p0


def mu_estimate(scores_d, scores_dp, mu_lb, tau, alpha, rng_before) -> tuple[float, float]:
    """(raw lower bound, point estimate) of ``gdp_mu_lower_bound``'s ``(mu_lb, tau)``, as :func:`eps_estimate`
    (the column: the one whose evaluation counts give mu_lb)."""
    s_d, s_dp = A.score_array("d", scores_d), A.score_array("dp", scores_dp)
    m_d, m_dp = _halves(rng_before, len(s_d), len(s_dp))
    a = alpha / 2
    for c in range(s_d.shape[1]):
        x1, x0 = np.sort(s_d[~m_d, c]), np.sort(s_dp[~m_dp, c])
        ka, kb = x0.size - np.searchsorted(x0, tau, side="left"), np.searchsorted(x1, tau, side="left")
        raw = float(special.ndtri(1 - clopper_pearson(ka, x0.size, a, a)[1])
                    - special.ndtri(clopper_pearson(kb, x1.size, a, a)[1]))
        if max(raw, 0.0) == mu_lb:
            a0, b0 = ka / x0.size, kb / x1.size
            return raw, float(special.ndtri(1 - a0) - special.ndtri(b0)) if 0 < a0 and b0 < 1 else np.inf
    raise AssertionError("mu_estimate no longer mirrors gdp_mu_lower_bound")


def _recording():
    """Patches run_audit's lower bounds to record, per call in order, the bound and its estimate."""
    calls, eps_lb, mu_lb = [], PA.eps_lower_bound, PA.gdp_mu_lower_bound

    def eps_rec(sd, sdp, delta, alpha, rng):
        before = copy.deepcopy(rng)
        res = eps_lb(sd, sdp, delta, alpha, rng)
        calls.append(("eps", res, eps_estimate(sd, sdp, res, before)))
        return res

    def mu_rec(sd, sdp, alpha, rng):
        before = copy.deepcopy(rng)
        m, tau = mu_lb(sd, sdp, alpha, rng)
        calls.append(("mu", m, mu_estimate(sd, sdp, m, tau, alpha, before)))
        return m, tau

    mp = pytest.MonkeyPatch()
    mp.setattr(PA, "eps_lower_bound", eps_rec)
    mp.setattr(PA, "gdp_mu_lower_bound", mu_rec)
    return calls, mp


def _criteria(spec, calls, v):
    """One variant's (bound, raw bound, estimate, claim, what) per deciding quantity and cell -- eps, GDP mu,
    RDP, as ``_violates`` decides -- in the order audit_variant ran them (consumed from ``calls``, checked
    against the variant's recorded bounds)."""
    out = []
    for cell, c in v["cells"].items():
        kind, res, (raw, est, p1, p0) = calls.pop(0)
        assert kind == "eps" and res.eps_lb == c["eps_lb"], (cell, res.eps_lb, c["eps_lb"])
        if not spec.gdp_only:
            out.append((res.eps_lb, raw, est, spec.eps, f"eps {cell}"))
        if spec.gaussian_mu is not None:
            kind, m, (mraw, mest) = calls.pop(0)
            assert kind == "mu" and m == c["mu_lb"], (cell, m, c["mu_lb"])
            out.append((m, mraw, mest, spec.gaussian_mu, f"mu {cell}"))
        if spec.rdp is not None and not spec.gdp_only:
            for a in P.RDP_ORDERS:
                lb = bernoulli_renyi(a, res.p1_lo, res.p0_hi) if res.p1_lo > res.p0_hi else 0.0
                est_a = bernoulli_renyi(a, p1, p0) if p1 > p0 and p0 > 0 else (np.inf if p0 == 0 else 0.0)
                out.append((lb, lb, est_a, spec.rdp(a), f"rdp({a:g}) {cell}"))
    return out


def _clearance(crit, caught: bool) -> float:
    """Caught: the best criterion's (bound - claim) / half-width; not caught: the worst's (claim - bound)."""
    vals = []
    for lb, raw, est, claim, _ in crit:
        hw = est - raw
        if caught:
            vals.append(np.inf if est == np.inf and lb > claim else (lb - claim) / hw)
        else:
            vals.append(np.inf if not np.isfinite(est) and est < 0 else (claim - lb) / hw)
    return max(vals) if caught else min(vals)


def test_clopper_pearson_limits():
    lo, hi = clopper_pearson(0, 100, 0.05, 0.05)
    assert lo == 0 and hi == pytest.approx(1 - 0.05 ** (1 / 100), rel=1e-9)
    lo, hi = clopper_pearson(100, 100, 0.05, 0.05)
    assert hi == 1 and lo == pytest.approx(0.05 ** (1 / 100), rel=1e-9)
    ci = stats.binomtest(37, 100).proportion_ci(0.9, method="exact")
    lo, hi = clopper_pearson(37, 100, 0.05, 0.05)
    assert (lo, hi) == pytest.approx((ci.low, ci.high), rel=1e-9)


def test_eps_lower_bound_is_tight_for_randomised_response():
    """Randomised response with eps = 1: the LLR takes two values; eps_lb must approach 1 from below."""
    rng = np.random.default_rng(0)
    p = np.e / (1 + np.e)
    n = 400_000
    yd = rng.random(n) < p  # D answers 1 w.p. p
    ydp = rng.random(n) < 1 - p
    s = lambda y: np.where(y, 1.0, -1.0)  # noqa: E731
    before = copy.deepcopy(rng)
    res = eps_lower_bound(s(yd), s(ydp), 0.0, 0.05, rng)
    assert 0.95 <= res.eps_lb <= 1.0
    raw, est, _, _ = eps_estimate(s(yd), s(ydp), res, before)
    _margin((res.eps_lb - 0.95) / (est - raw), 1.0, "eps_lb above 0.95")
    _margin((1.0 - res.eps_lb) / (est - raw), PASS_MARGIN, "eps_lb under the true eps 1")


def test_score_columns_are_chosen_on_the_selection_half():
    """A useless column next to the LLR: the selection half picks the LLR, and the bound is the
    one the LLR alone gives (the choice costs no confidence)."""
    rng = np.random.default_rng(2)
    n = 200_000
    a, b = rng.laplace(1.0, 1.0, n), rng.laplace(0.0, 1.0, n)
    llr = lambda y: np.abs(y) - np.abs(y - 1.0)  # noqa: E731
    junk_a, junk_b = rng.random(n), rng.random(n)
    sa, sb = np.stack([junk_a, llr(a)], 1), np.stack([junk_b, llr(b)], 1)
    before = copy.deepcopy(rng)
    res = eps_lower_bound(sa, sb, 0.0, 0.05, rng)
    assert res.column == 1 and 0.93 <= res.eps_lb <= 1.0
    raw, est, _, _ = eps_estimate(sa, sb, res, before)
    _margin((res.eps_lb - 0.93) / (est - raw), 1.0, "eps_lb above 0.93")
    _margin((1.0 - res.eps_lb) / (est - raw), PASS_MARGIN, "eps_lb under the true eps 1")
    ga, gb = np.stack([junk_a, a], 1), np.stack([junk_b, b], 1)
    before = copy.deepcopy(rng)
    m, tau = gdp_mu_lower_bound(ga, gb, 0.05, rng)
    assert m > 0.5  # the shift column, not the uniform one
    raw, est = mu_estimate(ga, gb, m, tau, 0.05, before)
    _margin((m - 0.5) / (est - raw), 1.0, "mu_lb above 0.5")


def test_gdp_lower_bound_for_gaussian_shift():
    rng = np.random.default_rng(1)
    n, mu = 400_000, 0.7
    a, b = rng.normal(mu, 1, n), rng.normal(0, 1, n)
    llr = lambda y: mu * y - mu**2 / 2  # noqa: E731
    before = copy.deepcopy(rng)
    m, tau = gdp_mu_lower_bound(llr(a), llr(b), 0.05, rng)
    assert 0.65 <= m <= mu
    raw, est = mu_estimate(llr(a)[:, None], llr(b)[:, None], m, tau, 0.05, before)
    _margin((m - 0.65) / (est - raw), 1.0, "mu_lb above 0.65")
    _margin((mu - m) / (est - raw), PASS_MARGIN, "mu_lb under the true mu")


def test_bernoulli_renyi():
    assert bernoulli_renyi(2.0, 0.3, 0.3) == pytest.approx(0.0, abs=1e-15)
    p, q = 0.6, 0.2
    assert bernoulli_renyi(2.0, p, q) == pytest.approx(np.log(p**2 / q + (1 - p) ** 2 / (1 - q)))
    with pytest.raises(ValueError, match="alpha_order"):
        bernoulli_renyi(1.0, p, q)


def test_independence_check_false_alarm_and_power():
    rng = np.random.default_rng(3)
    x = rng.laplace(size=(100_000, 6))
    level = ALPHA * P.CHECK_SHARE  # the level the audits run it at (at 0.05 this sample's max |z| is 0.42 under)
    err, info = P.independence_check(x, level)
    assert err is None
    assert_z(info["max_abs_z"], 1.0, info["threshold"], "below", k=0.5, what="independent draws' max |z|")
    x[:, 4] = x[:, 1]  # one draw reused
    err, info = P.independence_check(x, level)
    assert err is not None and sorted(info["worst_pair"]) == [1, 4]
    x[:, 4] = np.abs(x[:, 1]) * np.sign(rng.standard_normal(len(x)))  # uncorrelated values, dependent sizes
    err, info = P.independence_check(x, level)
    assert err is not None
    assert_z(info["max_abs_z"], 1.0, info["threshold"], "above", k=3, what="dependent sizes' max |z|")


# --- every audit at FAST_N --------------------------------------------------------------------
@pytest.fixture(scope="module")
def audit_runs():
    """Every audit at FAST_N, with each variant's deciding bounds beside their estimates (``_criteria``)."""
    calls, mp = _recording()
    out = {}
    try:
        for cid, spec in SPECS.items():
            res, primary, secondary = run_audit(spec, FAST_N, ALPHA, SEED)
            crit = {"correct": _criteria(spec, calls, res.detail["correct"])}
            for name in spec.controls:  # run_audit's order: the controls after the correct mechanism
                crit[name] = _criteria(spec, calls,
                                       (primary if name == spec.primary else secondary[name]).detail["variant"])
            assert not calls, f"{cid}: {len(calls)} lower bounds not accounted for"
            out[cid] = (res, primary, secondary, crit)
    finally:
        mp.undo()
    return out


@pytest.fixture(scope="module")
def audits(audit_runs):
    return {cid: run[:3] for cid, run in audit_runs.items()}


def _margin(c: float, k: float, what: str):
    assert c >= k, f"{what}: {c:.3g} half-widths, needs >= {k:g}"


def _bound_at(crit, value):
    """The (bound, raw, estimate, claim, what) of the criterion whose bound is ``value``."""
    return next(c for c in crit if c[0] == value)


def _above(c, threshold: float) -> float:
    """How far the bound of criterion ``c`` is above ``threshold``, in half-widths; an infinite estimate
    (no D' output in the event: the supports differ, exactly) counts as infinitely clear."""
    lb, raw, est, _, _ = c
    return np.inf if est == np.inf and lb > threshold else (lb - threshold) / (est - raw)


@pytest.mark.parametrize("cid", sorted(SPECS))
def test_correct_mechanism_passes_and_every_control_is_caught(audit_runs, cid):
    spec = SPECS[cid]
    res, primary, secondary, crit = audit_runs[cid]
    # margins (module top): the correct mechanism's bounds under their claims by >= PASS_MARGIN half-widths;
    # every control caught (FAIL) by >= 1, a blind one's bound under the claim by >= 1
    _margin(_clearance(crit["correct"], caught=False), PASS_MARGIN, f"{cid} correct mechanism")
    for name, cr in crit.items():
        if name != "correct":
            _margin(_clearance(cr, caught=name not in spec.blind), 1.0, f"{cid} control {name}")
    for info in _stat_infos(res.detail.get("stat_check")):  # each z has unit se; the max of m of them, sd < 0.5
        assert_z(info["max_abs_z"], 1.0, info["threshold"], "below", k=0.5, what=f"{cid} independence check max |z|")
    assert res.verdict == "PASS", res.detail
    assert res.measured <= (spec.gaussian_mu if spec.gdp_only else spec.eps)
    assert primary.verdict == "FAIL", (spec.primary, primary.measured)
    assert set(secondary) == set(spec.controls) - {spec.primary}
    for name, r in secondary.items():
        # a control is caught (FAIL) or, when the instance provably cannot catch it, INCONCLUSIVE -- never PASS
        assert r.verdict == ("INCONCLUSIVE" if name in spec.blind else "FAIL"), (name, r.measured)
    if spec.tight_floor is not None and cid != "AUDIT-as17-lemma3.3-tree":  # the tree's floor: test_default_preset
        assert res.measured >= spec.tight_floor * spec.eps
        lb, raw, est, _, _ = _bound_at(crit["correct"], res.measured)
        _margin((lb - spec.tight_floor * spec.eps) / (est - raw), 1.0, f"{cid} tightness floor")
    assert res.detail.get("exact_check", spec.exact_ok) == spec.exact_ok
    assert (res.detail.get("stat_check") or {}).get("failure") is None
    rec = record(spec.claim, res, primary, secondary=secondary, scenario="audit", env=None, ci_level=1 - ALPHA)
    assert rec["result"]["verdict"] == "PASS" and rec["control_caught"]
    assert rec["evidence"] == ("near miss caught" if spec.claim.near_miss else "catches only gross errors")


def _stat_infos(d):
    """The statistical checks' {max_abs_z, threshold} records (one, or one per path)."""
    if not isinstance(d, dict):
        return []
    if "max_abs_z" in d:
        return [d]
    return [v for v in d.values() if isinstance(v, dict) and "max_abs_z" in v]


def test_the_record_sits_at_every_position(audits):
    T = {"AUDIT-as17-lemma3.3-tree": 4, "AUDIT-ztc-thm3-tree": 4, "AUDIT-ztc-thm3-o2b": 8,
         "AUDIT-env-lemma5.1-releases": 3, "AUDIT-env-lemma5.4-releases": 3}
    for cid, t in T.items():
        assert sorted(audits[cid][0].detail["correct"]["cells"]) == [f"t={p}" for p in range(1, t + 1)]
    cells = audits["AUDIT-as17-lemma4.2-bandit"][0].detail["correct"]["cells"]
    assert sorted(cells) == sorted(f"{path} t={p}" for path in ("exp2-kernel", "exp2-numpy", "scrible-kernel")
                                   for p in range(1, 5))


def test_gaussian_instances_make_a_2x_error_visible(audit_runs):
    """ZTC end to end: the worst record is near its designed mu (0.557 rho), and half the noise
    exceeds the claim.  Lemma 5.4: the printed sigma is 13x what (eps, delta) needs, so the audit
    also claims the exact accountant's mu at the proof's sensitivity (tight): sigma / 2 is caught on
    it, and the accountant's mu meets the lemma's (eps, delta) (the exact check)."""
    res, half, _, crit = audit_runs["AUDIT-ztc-thm3-o2b"]
    assert res.detail["worst_cell"] == "t=5" and 0.5 <= res.measured <= 0.557
    lb, raw, est, _, _ = _bound_at(crit["correct"], res.measured)
    _margin((lb - 0.5) / (est - raw), 1.0, "o2b mu bound above 0.5")
    _margin((0.557 - lb) / (est - raw), PASS_MARGIN, "o2b mu bound under its designed mu")
    assert half.measured > 1.0
    lb, raw, est, _, _ = _bound_at(crit["half_noise"], half.measured)
    _margin((lb - 1.0) / (est - raw), 1.0, "o2b half noise above 1")
    spec = SPECS["AUDIT-env-lemma5.4-releases"]
    res, half, sec, crit = audit_runs["AUDIT-env-lemma5.4-releases"]
    acc = res.detail["accountant"]
    assert spec.claim.near_miss and spec.primary == "half_noise" and not spec.blind
    assert acc["mu"] == pytest.approx(spec.gaussian_mu) and acc["sigma_excess"] > 12 and acc["half_noise_private"]
    assert acc["eps_acc"] <= acc["eps_claimed"] and "exact accountant" in res.detail["exact_check"]
    assert half.verdict == "FAIL" and half.detail["variant"]["mu_lb"] > spec.gaussian_mu
    mu_half = half.detail["variant"]["mu_lb"]
    lb, raw, est, _, _ = _bound_at(crit["half_noise"], mu_half)
    _margin((lb - spec.gaussian_mu) / (est - raw), 1.0, "Lemma 5.4 half noise above the accountant's mu")


def test_lemma_4_2_wrong_sensitivity_is_losses_in_minus_one_one(audit_runs):
    """The control is no longer a copy of half_noise: the losses span [-1, 1] under lambda = 1/eps."""
    _, half, sec, crit = audit_runs["AUDIT-as17-lemma4.2-bandit"]
    assert sec["wrong_sensitivity"].measured > 1.5 and half.measured > 1.5
    for name, r in (("wrong_sensitivity", sec["wrong_sensitivity"]), ("half_noise", half)):
        lb, raw, est, _, _ = _bound_at(crit[name], r.measured)
        _margin((lb - 1.5) / (est - raw), 1.0, f"{name} above 1.5")
    assert "[-1, 1]" in SPECS["AUDIT-as17-lemma4.2-bandit"].controls["wrong_sensitivity"]


@pytest.mark.slow
def test_default_preset():
    """Every audit at the default preset's 1e6 samples: as the pipeline decides them, with the
    tightness floors."""
    for cid, spec in SPECS.items():
        calls, mp = _recording()
        try:
            res, primary, secondary = run_audit(spec, 1_000_000, ALPHA, SEED)
        finally:
            mp.undo()
        assert res.verdict == "PASS" and primary.verdict == "FAIL", cid
        assert all(r.verdict == ("INCONCLUSIVE" if k in spec.blind else "FAIL") for k, r in secondary.items()), cid
        crit = _criteria(spec, calls, res.detail["correct"])
        _margin(_clearance(crit, caught=False), PASS_MARGIN, f"{cid} correct mechanism")
        for name in spec.controls:
            v = (primary if name == spec.primary else secondary[name]).detail["variant"]
            _margin(_clearance(_criteria(spec, calls, v), caught=name not in spec.blind), 1.0, f"{cid} control {name}")
        if spec.tight_floor is not None:
            assert res.measured >= spec.tight_floor * spec.eps, cid
            _margin(_above(_bound_at(crit, res.measured), spec.tight_floor * spec.eps), 1.0, f"{cid} tightness floor")


# --- two realistic bugs, patched in by the test -----------------------------------------------
def _bug_audit(cid):
    """run_audit at 20 000 samples; the correct mechanism's eps bound above 5 and the claim by >= 1 half-width."""
    calls, mp = _recording()
    try:
        res, _, _ = run_audit(SPECS[cid], 20_000, ALPHA, SEED)
    finally:
        mp.undo()
    crit = _criteria(SPECS[cid], calls, res.detail["correct"])
    _margin(_clearance(crit, caught=True), 1.0, f"{cid} bug caught")
    _margin(_above(_bound_at(crit, res.measured), 5.0), 1.0, f"{cid} bug's eps bound above 5")
    return res


def test_feedback_forwarding_the_raw_loss_from_round_2_fails_the_lemma_4_2_audit(monkeypatch):
    """PrivateFeedback still draws and stores Z_t every round, but from round 2 on forwards the raw
    loss.  Fixed at t = 1 and reading its own recomputation, the old audit gave 0.994 (PASS)."""
    update = PrivateFeedback.update

    def leaky(self, value):
        self._rounds = getattr(self, "_rounds", 0) + 1
        if self._rounds == 1:
            return update(self, value)
        inner_update, self.inner.update = self.inner.update, lambda v: None
        try:
            update(self, value)  # draws and keeps z as usual
        finally:
            self.inner.update = inner_update
        self.inner.update(value)

    monkeypatch.setattr(PrivateFeedback, "update", leaky)
    res = _bug_audit("AUDIT-as17-lemma4.2-bandit")
    assert res.verdict == "FAIL" and res.measured > 5
    assert res.detail["worst_cell"].startswith("exp2-numpy") and res.detail["worst_cell"] != "exp2-numpy t=1"


def test_tree_reusing_a_level_draw_fails_the_tree_audit(monkeypatch):
    """TreeBasedAgg draws a level's first node noise once and reuses it for every node of that
    level: every node looks right, the claimed-model LLR cannot see it (the old audit: 0.325,
    PASS), but same-level nodes differ by exactly their data."""
    step = TreeBasedAgg.step

    def reuse(self, loss):
        t = self.t + 1
        j0 = (t & -t).bit_length() - 1
        cache, draw = self.__dict__.setdefault("_level_draw", {}), self._draw

        def once(k):
            z = draw(k)
            z[:, 0] = cache.setdefault(j0, z[:, 0].copy())
            return z

        self._draw = once
        try:
            return step(self, loss)
        finally:
            self._draw = draw

    monkeypatch.setattr(TreeBasedAgg, "step", reuse)
    res = _bug_audit("AUDIT-as17-lemma3.3-tree")
    assert res.verdict == "FAIL"
    assert_z(res.detail["stat_check"]["max_abs_z"], 1.0, res.detail["stat_check"]["threshold"], "above", k=3,
             what="reused level draw's max |z|")
    assert res.measured > 5 and res.detail["correct"]["audit"]["column"] >= 1  # a same-level contrast
    assert "not independent" in res.detail["stat_check"]["failure"]  # and the independence check sees it


# --- the recording hooks --------------------------------------------------------------------------
def _kernel_inputs(seed=5, R=6, T=40, N=3, B=12):
    rng = np.random.default_rng(seed)
    return (rng.random((R, T, N)), rng.laplace(size=(R, T, N)), rng.random((R, T)), rng.random(B) * 0.3,
            rng.random(B) * 0.5, rng.random(B) * 2, rng.random((B, N)) * 0.2)


def _exp2(L, Z, U, eta, gam, lam, bias, record=None):
    B, N = len(eta), L.shape[2]
    out = [np.full((B, N), -np.log(N)), np.zeros(B), np.zeros(B), np.zeros((B, N))]
    args = (out[0], eta, gam, lam, bias, L, Z, U, out[1], out[2], out[3])
    exp2_block(*args) if record is None else exp2_block(*args, record)
    return out


def _scrible(ball, L, Z, U, eta, lam, record=None):
    B, N = len(eta), L.shape[2]
    S, suffered = np.zeros((B, N)), np.zeros(B)
    args = (ball, S, eta, lam, 2 * L - 1, Z, U, suffered)
    scrible_block(*args) if record is None else scrible_block(*args, record)
    return [S, suffered]


def test_recording_does_not_change_the_kernels():
    L, Z, U, eta, gam, lam, bias = _kernel_inputs()
    rec = np.empty((len(eta), L.shape[1], 2))
    for a, b in zip(_exp2(L, Z, U, eta, gam, lam, bias), _exp2(L, Z, U, eta, gam, lam, bias, rec)):
        assert np.array_equal(a, b)  # bit-identical
    for ball in (False, True):
        rec = np.empty((len(eta), L.shape[1], 1 + L.shape[2]))
        for a, b in zip(_scrible(ball, L, Z, U, eta, lam), _scrible(ball, L, Z, U, eta, lam, rec)):
            assert np.array_equal(a, b)


class _Uniforms(ReplicateStreams):
    """The uniforms U[:, t] of the kernel inputs, one round per call (the learners tile them:
    row b uses replicate b % R, as the kernels do)."""

    def __init__(self, U):  # noqa: D107 - no streams to hold
        self.U, self.t = U, 0

    @property
    def R(self) -> int:
        return self.U.shape[0]

    def uniform(self, shape=()):
        self.t += 1
        return self.U[:, self.t - 1]


def test_exp2_kernel_records_what_exp2_receives():
    """EXP2 alone (no noise of its own), fed the recorded values with the same uniforms, plays the
    recorded arms and ends in the kernel's weights: the record is what the kernel's EXP2 consumed."""
    L, Z, U, eta, gam, lam, bias = _kernel_inputs()
    B, T = len(eta), L.shape[1]
    rec = np.empty((B, T, 2))
    logq = _exp2(L, Z, U, eta, gam, lam, bias, rec)[0]
    inner = Exp2(L.shape[2], eta[:, None], gam[:, None], _Uniforms(U), B)
    for t in range(T):
        assert np.array_equal(inner.predict(), rec[:, t, 0].astype(int))
        inner.update(rec[:, t, 1])
    np.testing.assert_allclose(np.exp(inner.logq), np.exp(logq), rtol=1e-9, atol=1e-12)
    r = np.arange(B) % L.shape[0]  # and the value is l[arm] + lam (Z[arm] + bias[arm])
    arm = rec[:, 0, 0].astype(int)
    np.testing.assert_allclose(rec[:, 0, 1], L[r, 0, arm] + lam * (Z[r, 0, arm] + bias[np.arange(B), arm]), rtol=1e-12)


def test_numpy_wrapper_records_what_exp2_receives():
    class St:
        def __init__(self, rng, R):
            self.rng, self.R = rng, R

        def uniform(self, shape=()):
            return self.rng.random((self.R, *shape))

        def laplace(self, scale, shape=()):
            return self.rng.laplace(0.0, 1.0, (self.R, *shape)) * scale

    st = St(np.random.default_rng(7), 50)
    inner = Received(Exp2(3, 0.1, 0.2, st, 50))
    learner = PrivateFeedback(inner, 1.0, st)
    losses = np.random.default_rng(8).random((5, 3))
    for row in losses:
        arm = learner.predict()
        learner.update(row[arm])
        assert np.array_equal(inner.arms[-1], arm)
        assert np.array_equal(inner.values[-1], row[arm] + learner.z[np.arange(50), arm])


def test_scrible_kernel_records_what_scrible_receives():
    """SCRiBLe alone, fed the recorded values with the same uniforms, plays the recorded points
    and ends in the kernel's S."""
    L, Z, U, eta, _, lam, _ = _kernel_inputs()
    B, T = len(eta), L.shape[1]
    for ball, domain in ((False, "cube"), (True, "ball")):
        rec = np.empty((B, T, 1 + L.shape[2]))
        S = _scrible(ball, L, Z, U, eta, lam, rec)[0]
        learner = Scrible(domain, L.shape[2], eta[:, None], _Uniforms(U), B)
        for t in range(T):
            np.testing.assert_allclose(learner.predict(), rec[:, t, 1:], rtol=1e-9, atol=1e-12)
            learner.update(rec[:, t, 0])
        np.testing.assert_allclose(learner.S, S, rtol=1e-9, atol=1e-9)


def test_a_flag_on_the_correct_mechanism_must_be_confirmed_on_a_fresh_sample():
    """A statistical check that flags the correct mechanism at random (probability 1/2 per sample,
    whatever the level): the audit FAILs only where the fresh confirmation sample flags too, and
    otherwise PASSes with the unconfirmed flag recorded; the confirmation draws its own stream."""
    from dpregret.verdict.core import Claim
    from dpregret.verdict.privacy_audit import AuditSpec, run_audit

    def draw(variant, n, rng):  # randomised response at eps = 1 (the claim holds)
        p = np.exp(1.0) / (1 + np.exp(1.0))
        r = rng("rr")
        return {"x": (np.where(r.random(n) < p, 1.0, 0.0), np.where(r.random(n) < p, 0.0, 1.0))}

    def coin(n, level, rng):
        u = float(rng.random())
        return ("coin flagged" if u < 0.5 else None), {"u": u}

    spec = AuditSpec(Claim("AUDIT-x", "AS17", "t", "privacy", "s", "m", "c"), 1.0, 0.0, draw, "c", {"c": "broken"},
                     stat_check=coin)
    seen = {}
    for seed in range(40):
        res, _, _ = run_audit(spec, 2000, 0.05, seed)
        sc = res.detail["stat_check"]
        first, second = sc["failure"] is not None, (sc.get("confirmation") or {}).get("failure") is not None
        seen[(first, second)] = res.verdict
        assert res.verdict == ("FAIL" if first and second else "PASS")
        assert ("flag_not_confirmed" in res.detail) == (first and not second)
        if first:
            assert sc["confirmation"]["u"] != sc["u"]  # an independent draw
    assert set(seen) == {(False, False), (True, False), (True, True)}


# --- the distinguishing event: chosen per variant, on its own selection half ----------------------
def test_the_event_is_chosen_on_the_selection_half_only():
    """eps_lower_bound and gdp_mu_lower_bound choose (column, threshold) on the selection half: the same
    choice whatever the evaluation half holds (here replaced by garbage), and only the bound moves."""
    rng = np.random.default_rng(11)
    n = 40_000
    sd = np.stack([rng.laplace(1.0, 1.0, n), rng.normal(1.0, 1.4, n)], axis=1)
    sdp = np.stack([rng.laplace(0.0, 1.0, n), rng.normal(0.0, 1.4, n)], axis=1)
    m_d, m_dp = _halves(np.random.default_rng(5), n, n)
    gd, gdp = sd.copy(), sdp.copy()
    gd[~m_d], gdp[~m_dp] = rng.normal(size=(int((~m_d).sum()), 2)), rng.normal(size=(int((~m_dp).sum()), 2))
    r, g = (eps_lower_bound(a, b, 0.0, 0.05, np.random.default_rng(5)) for a, b in ((sd, sdp), (gd, gdp)))
    assert (r.column, r.threshold, r.orientation) == (g.column, g.threshold, g.orientation)
    assert r.eps_lb > 0.5 and g.eps_lb < 0.1  # the evaluation half alone decides the bound
    (m1, t1), (m2, t2) = (gdp_mu_lower_bound(a, b, 0.05, np.random.default_rng(5)) for a, b in ((sd, sdp), (gd, gdp)))
    assert t1 == t2 and m1 > 0.5 and m2 < 0.1


def test_every_variant_and_cell_chooses_its_own_event(monkeypatch):
    """run_audit calls the lower bound once per (variant, cell), each with its own split generator (keyed
    by claim, variant, cell): no variant reuses the correct mechanism's event or halves."""
    seen = []
    eps_lb = PA.eps_lower_bound

    def rec(sd, sdp, delta, alpha, rng):
        seen.append(copy.deepcopy(rng).random())
        return eps_lb(sd, sdp, delta, alpha, rng)

    monkeypatch.setattr(PA, "eps_lower_bound", rec)
    spec = SPECS["AUDIT-laplace-mechanism"]
    run_audit(spec, 4000, ALPHA, SEED)
    assert len(seen) == 1 + len(spec.controls) and len(set(seen)) == len(seen)
    seen.clear()
    spec = SPECS["AUDIT-env-lemma5.1-releases"]  # three cells (the record at t = 1, 2, 3)
    run_audit(spec, 4000, ALPHA, SEED)
    assert len(seen) == 3 * (1 + len(spec.controls)) and len(set(seen)) == len(seen)


def test_gaussian_noise_of_the_claimed_variance_is_caught_where_the_claim_is_tight(audit_runs):
    """The Laplace claims' gaussian_shape control (N(0, 2 lambda^2) in place of Lap(lambda)): caught, on
    the projection column (the claimed LLR saturates beyond the neighbours' means, so its events alone
    give the Gaussian a bound under the claim)."""
    for cid in ("AUDIT-laplace-mechanism", "AUDIT-as17-lemma4.2-bandit"):
        spec = SPECS[cid]
        _, primary, secondary, crit = audit_runs[cid]
        r = secondary["gaussian_shape"]
        assert r.verdict == "FAIL" and r.detail["variant"]["audit"]["column"] == 1, (cid, r.measured)
        _margin(_clearance(crit["gaussian_shape"], caught=True), 1.0, f"{cid} gaussian_shape")
        assert spec.tight_floor is not None  # a tight claim
    cells = audit_runs["AUDIT-as17-lemma4.2-bandit"][2]["gaussian_shape"].detail["variant"]["cells"]
    assert sorted(cells) == [f"exp2-kernel t={p}" for p in range(1, 5)]  # the compiled rounds only
    spec = SPECS["AUDIT-laplace-mechanism"]  # the claimed LLR alone: the Gaussian stays under the claim
    cells = spec.draw("gaussian_shape", FAST_N, lambda *p: PA.audit_rng(SEED, "llr-only", *p))
    s0, s1 = cells["single release"]
    assert eps_lower_bound(s0[:, 0], s1[:, 0], 0.0, ALPHA, np.random.default_rng(1)).eps_lb < 0.8


# --- the audits draw through the scenarios' sampler: a wrong sampler is caught -----------------------
def _laplace_missing_factor_2(self, scale, shape=()):
    """A plausible slip in ReplicateStreams.laplace's inverse CDF: log1p(-|w|) for log1p(-2|w|), a noise
    bounded by ln 2 (every scenario drawing Laplace noise would get it)."""
    w = self.uniform(shape) - 0.5
    return -np.asarray(scale) * np.sign(w) * np.log1p(-np.abs(w))


def _normal_of_laplace_shape(self, shape=()):
    """A sampler that draws Laplace noise of unit variance for the standard normal."""
    w = self.uniform(shape) - 0.5
    return -np.sqrt(0.5) * np.sign(w) * np.log1p(-2.0 * np.abs(w))


@pytest.mark.parametrize("cid", ["AUDIT-laplace-mechanism", "AUDIT-as17-lemma4.2-bandit"])
def test_a_wrong_laplace_sampler_fails_the_audits(monkeypatch, cid):
    monkeypatch.setattr(ReplicateStreams, "laplace", _laplace_missing_factor_2)
    res = _bug_audit(cid)
    assert res.verdict == "FAIL"
    if cid == "AUDIT-as17-lemma4.2-bandit":  # the compiled kernels' draws too, not only the numpy twin
        assert all(c["eps_lb"] > 1 for k, c in res.detail["correct"]["cells"].items() if k.startswith("exp2-kernel"))


def test_a_wrong_normal_sampler_fails_the_gaussian_audit(monkeypatch):
    """The Gaussian mechanism with Laplace-shaped noise of the claimed variance: its GDP mu is above the
    claim (Laplace noise is more concentrated at the centre), caught on mu."""
    monkeypatch.setattr(ReplicateStreams, "normal", _normal_of_laplace_shape)
    calls, mp = _recording()
    spec = SPECS["AUDIT-gaussian-mechanism"]
    try:
        res, _, _ = run_audit(spec, FAST_N, ALPHA, SEED)
    finally:
        mp.undo()
    assert res.verdict == "FAIL"
    crit = _criteria(spec, calls, res.detail["correct"])
    _margin(_clearance(crit, caught=True), 1.0, "Laplace-shaped normal sampler caught")


def test_sort_scores_is_numpy_sort_bit_for_bit():
    """The audits' radix sort gives numpy.sort's bits: signed values, ties, infinities, a constant sample, both
    signed zeros (numpy's own order of them then) and samples too small for the compiled path."""
    from dpregret.verdict.audit_sort import sort_scores

    rng = np.random.default_rng(3)
    samples = [np.round(rng.standard_normal(200_000), 9), np.round(rng.laplace(size=50_000) * 1e6, 9),
               np.abs(rng.standard_normal(10_000)), np.round(rng.integers(-5, 5, 30_000) * 0.5, 9),
               np.r_[np.zeros(5000), -np.zeros(5), rng.random(5000)], np.r_[-np.zeros(5000), rng.random(5000) - 0.5],
               np.r_[np.inf, -np.inf, rng.standard_normal(9000), -np.inf], np.full(10_000, 2.5), rng.random(100)]
    for x in samples:
        want, got = np.sort(x), sort_scores(x)
        assert np.array_equal(want.view(np.int64), got.view(np.int64))
    col = np.round(rng.standard_normal((20_000, 3)), 9)[:, 1]  # a strided column, as the audits pass them
    assert np.array_equal(np.sort(col).view(np.int64), sort_scores(col).view(np.int64))
