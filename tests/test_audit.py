"""The auditor: Clopper-Pearson limits, tightness on exact mechanisms, every privacy claim passes
with its correct mechanism, its primary and secondary controls are caught, two realistic bugs
(patched in here, never in the library) make their audits FAIL, and the recording hooks of the
compiled kernels read what the inner learner receives without changing a single result."""
import numpy as np
import pytest
from scipy import stats

from dpregret.audit import bernoulli_renyi, clopper_pearson, eps_lower_bound, gdp_mu_lower_bound
from dpregret.claims import privacy as P
from dpregret.claims.core import record
from dpregret.claims.privacy import SPECS, run_audit
from dpregret.learners.bandits import Exp2, PrivateFeedback
from dpregret.learners.exp2_jit import exp2_block
from dpregret.learners.scrible import Scrible
from dpregret.learners.scrible_jit import scrible_block
from dpregret.rng import ReplicateStreams
from dpregret.tree import TreeBasedAgg

FAST_N = 200_000  # every margin below holds at this sample count (the default preset runs 1e6)
SEED, ALPHA = 20261122, 0.05


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
    res = eps_lower_bound(s(yd), s(ydp), 0.0, 0.05, rng)
    assert 0.95 <= res.eps_lb <= 1.0


def test_score_columns_are_chosen_on_the_selection_half():
    """A useless column next to the LLR: the selection half picks the LLR, and the bound is the
    one the LLR alone gives (the choice costs no confidence)."""
    rng = np.random.default_rng(2)
    n = 200_000
    a, b = rng.laplace(1.0, 1.0, n), rng.laplace(0.0, 1.0, n)
    llr = lambda y: np.abs(y) - np.abs(y - 1.0)  # noqa: E731
    junk_a, junk_b = rng.random(n), rng.random(n)
    res = eps_lower_bound(np.stack([junk_a, llr(a)], 1), np.stack([junk_b, llr(b)], 1), 0.0, 0.05, rng)
    assert res.column == 1 and 0.93 <= res.eps_lb <= 1.0
    m, _ = gdp_mu_lower_bound(np.stack([junk_a, a], 1), np.stack([junk_b, b], 1), 0.05, rng)
    assert m > 0.5  # the shift column, not the uniform one


def test_gdp_lower_bound_for_gaussian_shift():
    rng = np.random.default_rng(1)
    n, mu = 400_000, 0.7
    a, b = rng.normal(mu, 1, n), rng.normal(0, 1, n)
    llr = lambda y: mu * y - mu**2 / 2  # noqa: E731
    m, _ = gdp_mu_lower_bound(llr(a), llr(b), 0.05, rng)
    assert 0.65 <= m <= mu


def test_bernoulli_renyi():
    assert bernoulli_renyi(2.0, 0.3, 0.3) == pytest.approx(0.0, abs=1e-15)
    p, q = 0.6, 0.2
    assert bernoulli_renyi(2.0, p, q) == pytest.approx(np.log(p**2 / q + (1 - p) ** 2 / (1 - q)))
    with pytest.raises(ValueError, match="alpha_order"):
        bernoulli_renyi(1.0, p, q)


def test_independence_check_false_alarm_and_power():
    rng = np.random.default_rng(3)
    x = rng.laplace(size=(100_000, 6))
    assert P._independence_check(x, 0.05)[0] is None
    x[:, 4] = x[:, 1]  # one draw reused
    err, info = P._independence_check(x, 0.05)
    assert err is not None and sorted(info["worst_pair"]) == [1, 4]
    x[:, 4] = np.abs(x[:, 1]) * np.sign(rng.standard_normal(len(x)))  # uncorrelated values, dependent sizes
    assert P._independence_check(x, 0.05)[0] is not None


# --- every audit at FAST_N --------------------------------------------------------------------
@pytest.fixture(scope="module")
def audits():
    return {cid: run_audit(spec, FAST_N, ALPHA, SEED) for cid, spec in SPECS.items()}


@pytest.mark.parametrize("cid", sorted(SPECS))
def test_correct_mechanism_passes_and_every_control_is_caught(audits, cid):
    spec = SPECS[cid]
    res, primary, secondary = audits[cid]
    assert res.verdict == "PASS", res.detail
    assert res.measured <= (spec.gaussian_mu if spec.gdp_only else spec.eps)
    assert primary.verdict == "FAIL", (spec.primary, primary.measured)
    assert set(secondary) == set(spec.controls) - {spec.primary}
    for name, r in secondary.items():
        # a control is caught (FAIL) or, when the instance provably cannot catch it, INCONCLUSIVE -- never PASS
        assert r.verdict == ("INCONCLUSIVE" if name in spec.blind else "FAIL"), (name, r.measured)
    if spec.tight_floor is not None and cid != "AUDIT-as17-lemma3.3-tree":  # the tree's floor: test_default_preset
        assert res.measured >= spec.tight_floor * spec.eps
    assert res.detail.get("exact_check", spec.exact_ok) == spec.exact_ok
    assert (res.detail.get("stat_check") or {}).get("failure") is None
    rec = record(spec.claim, res, primary, secondary=secondary, scenario="audit", env=None, ci_level=1 - ALPHA)
    assert rec["result"]["verdict"] == "PASS" and rec["control_caught"]
    assert rec["evidence"] == ("near miss caught" if spec.claim.near_miss else "catches only gross errors")


def test_the_record_sits_at_every_position(audits):
    T = {"AUDIT-as17-lemma3.3-tree": 4, "AUDIT-ztc-thm3-tree": 4, "AUDIT-ztc-thm3-o2b": 8,
         "AUDIT-env-lemma5.1-releases": 3, "AUDIT-env-lemma5.4-releases": 3}
    for cid, t in T.items():
        assert sorted(audits[cid][0].detail["correct"]["cells"]) == [f"t={p}" for p in range(1, t + 1)]
    cells = audits["AUDIT-as17-lemma4.2-bandit"][0].detail["correct"]["cells"]
    assert sorted(cells) == sorted(f"{path} t={p}" for path in ("exp2-kernel", "exp2-numpy", "scrible-kernel")
                                   for p in range(1, 5))


def test_gaussian_instances_make_a_2x_error_visible(audits):
    """ZTC end to end: the worst record is near its designed mu (0.557 rho), and half the noise
    exceeds the claim.  Lemma 5.4: the printed sigma is too conservative for any instance to show
    a 2x error; the record says so."""
    res, half, _ = audits["AUDIT-ztc-thm3-o2b"]
    assert res.detail["worst_cell"] == "t=5" and 0.5 <= res.measured <= 0.557
    assert half.measured > 1.0
    sec = audits["AUDIT-env-lemma5.4-releases"][2]
    assert sec["half_noise"].verdict == "INCONCLUSIVE" and "no audit can catch it" in sec["half_noise"].detail["blind"]
    assert not SPECS["AUDIT-env-lemma5.4-releases"].claim.near_miss


def test_lemma_4_2_wrong_sensitivity_is_losses_in_minus_one_one(audits):
    """The control is no longer a copy of half_noise: the losses span [-1, 1] under lambda = 1/eps."""
    _, half, sec = audits["AUDIT-as17-lemma4.2-bandit"]
    assert sec["wrong_sensitivity"].measured > 1.5 and half.measured > 1.5
    assert "[-1, 1]" in SPECS["AUDIT-as17-lemma4.2-bandit"].controls["wrong_sensitivity"]


@pytest.mark.slow
def test_default_preset():
    """Every audit at the default preset's 1e6 samples: as the pipeline decides them, with the
    tightness floors."""
    for cid, spec in SPECS.items():
        res, primary, secondary = run_audit(spec, 1_000_000, ALPHA, SEED)
        assert res.verdict == "PASS" and primary.verdict == "FAIL", cid
        assert all(r.verdict == ("INCONCLUSIVE" if k in spec.blind else "FAIL") for k, r in secondary.items()), cid
        if spec.tight_floor is not None:
            assert res.measured >= spec.tight_floor * spec.eps, cid


# --- two realistic bugs, patched in by the test -----------------------------------------------
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
    res, _, _ = run_audit(SPECS["AUDIT-as17-lemma4.2-bandit"], 20_000, ALPHA, SEED)
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
    res, _, _ = run_audit(SPECS["AUDIT-as17-lemma3.3-tree"], 20_000, ALPHA, SEED)
    assert res.verdict == "FAIL"
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
    inner = P._Received(Exp2(3, 0.1, 0.2, st, 50))
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
    from dpregret.claims.core import Claim
    from dpregret.claims.privacy_audit import AuditSpec, run_audit

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
