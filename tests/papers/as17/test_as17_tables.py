"""Agarwal-Singh Tables 1 and 2: bandit learners, scenarios' chunk invariance, rate specs."""
import numpy as np
import pandas as pd
import pytest

from dpregret.verdict.core import Claim
from dpregret.verdict.spec import ClaimSpec, evaluate_rate
from dpregret.papers.as17.bandits import Exp2, ExploreTree, PrivateFeedback, bound_thm4_1, exp2_params_thm4_1
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.papers.as17 import scenario_bandits as as17_bandits, scenario_blo as as17_blo, scenario_olo as as17_olo
from margins import assert_clear, assert_verdict, assert_z


def streams(R=4, role="t"):
    return ReplicateStreams(3, stable_key("bandit-test", role), range(R))


def test_exp2_plays_its_distribution_and_estimates_unbiasedly():
    R, N = 20000, 3
    learner = Exp2(N, 0.1, 0.3, streams(R))
    learner.logq = np.log(np.tile([0.6, 0.3, 0.1], (R, 1)))
    arms = learner.predict()
    p = 0.7 * np.array([0.6, 0.3, 0.1]) + 0.3 / 3
    freq = np.bincount(arms, minlength=N) / R
    l = np.array([0.2, 0.5, 0.9])
    est = np.zeros((R, N))
    est[np.arange(R), arms] = l[arms] / learner.p[np.arange(R), arms]
    # each within 4 standard errors of its expectation, by >= 1 (measured: |z| <= 1.04)
    for i in range(N):
        assert_z(abs(freq[i] - p[i]), np.sqrt(p[i] * (1 - p[i]) / R), 4 * np.sqrt(p[i] * (1 - p[i]) / R), "below", k=1,
                 what=f"|frequency - p| of arm {i}")
        se = est[:, i].std(ddof=1) / np.sqrt(R)
        assert_z(abs(est[:, i].mean() - l[i]), se, 4 * se, "below", k=1, what=f"|mean estimate - loss| of arm {i}")


def test_private_feedback_forwards_value_plus_noise_of_the_played_arm():
    inner = Exp2(4, 0.1, 0.2, streams(8, "a"))
    priv = PrivateFeedback(inner, 2.0, streams(8, "z"))
    arm = priv.predict()
    before = inner.logq.copy()
    v = np.full(8, 0.5)
    priv.update(v)
    rows = np.arange(8)
    forwarded = v + priv.z[rows, arm]
    # log-weights are renormalised by a common shift per row; the played arm moves by eta * estimate more
    moved = before - inner.logq
    shift = np.array([np.delete(moved[r], arm[r])[0] for r in rows])
    np.testing.assert_allclose(moved[rows, arm] - shift, 0.1 * forwarded / inner.p[rows, arm])


def test_thm41_parameters_and_bound():
    lam, eta, gamma = exp2_params_thm4_1(8, 10_000, 0.5)
    c = 1 + 2 * 4 * np.log(80_000)
    assert lam == 2.0
    assert eta == pytest.approx(np.sqrt(np.log(8) / (2 * 8 * 10_000 * c)))
    assert gamma == pytest.approx(eta * 8 * np.sqrt(c))
    # the proof's condition eta N (1 + 4 lambda log NT) <= gamma fails for these parameters (erratum)
    assert eta * 8 * (1 + 4 * lam * np.log(80_000)) > gamma
    assert bound_thm4_1(8, 10_000, eta, gamma, lam) > np.log(8) / eta
    with pytest.raises(ValueError, match="eps"):
        exp2_params_thm4_1(8, 100, -1.0)


def test_explore_tree_gamma_is_t_to_minus_one_third():
    et = ExploreTree(4, 8000, 1.0, streams(2, "e"), streams(2, "f"))
    assert et.gamma == pytest.approx((4 * np.log(4) / 8000) ** (1 / 3))


@pytest.mark.parametrize("mod,args", [
    (as17_bandits, ("stochastic", 3, 60, {"exp2": [None], "dp_exp2": [1.0, 4.0], "explore_tree": [4.0],
                                          "dp_exp2_biased": [4.0]})),
    (as17_olo, ("sphere", "switching", 3, 60, [1.0, 4.0])),
    (as17_olo, ("ftpl", "stochastic", 3, 60, [1.0])),
    (as17_blo, ("cube", "stochastic", 3, 60, {"scrible": [None], "dp_scrible": [1.0, 4.0],
                                              "dp_scrible_composed": [1.0]})),
])
def test_replicate_chunking_does_not_change_results(mod, args):
    whole = mod.simulate(*args, range(0, 5), 9)
    parts = pd.concat([mod.simulate(*args, range(0, 2), 9), mod.simulate(*args, range(2, 5), 9)])
    key = [c for c in ("algorithm", "eps", "replicate") if c in whole.columns]
    pd.testing.assert_frame_equal(whole.sort_values(key).reset_index(drop=True),
                                  parts.sort_values(key).reset_index(drop=True))


def test_lemma43_noisy_regret_matches_in_mean_and_biased_noise_breaks_it():
    df = as17_bandits.simulate("stochastic", 2, 400, {"dp_exp2": [1.0], "dp_exp2_biased": [1.0]},
                               range(200), 4, gap=0.3)
    d = df.assign(diff=df.noisy_regret - df.regret).groupby("algorithm")["diff"].agg(["mean", "std", "count"])
    se = d["std"] / np.sqrt(d["count"])
    # unbiased: within 4 se of 0, by >= 1 se (measured z = -0.55); biased: beyond 10 se, by >= 10 (z = -111)
    assert_z(abs(d.loc["dp_exp2", "mean"]), se["dp_exp2"], 4 * se["dp_exp2"], "below", k=1, what="|noisy - true|")
    assert_z(abs(d.loc["dp_exp2_biased", "mean"]), se["dp_exp2_biased"], 10 * se["dp_exp2_biased"], "above", k=10,
             what="|noisy - true| with biased noise")


def test_rate_spec_recovers_slopes_and_catches_control():
    rng = np.random.default_rng(0)
    rows = []
    for T in [100, 300, 1000, 3000, 10000]:
        for r in range(30):
            rows.append({"algorithm": "good", "T": T, "eps": 1.0, "replicate": r,
                         "regret": np.sqrt(T) * rng.lognormal(0, 0.05)})
            rows.append({"algorithm": "bad", "T": T, "eps": 1.0, "replicate": r, "regret": T * rng.lognormal(0, 0.05)})
    spec = ClaimSpec(Claim("X", "p", "t", "rate", "s", "m", "c"), "T", "regret", 0.5, "good", "bad")
    res, ctl = evaluate_rate(pd.DataFrame(rows), spec, 1.0, 0.1, 0.05, rng)
    assert_verdict(res, "PASS")
    assert_verdict(ctl, "FAIL")
    # the slopes recovered: each CI inside its true slope +- 0.02, clear of both ends by >= 1 half-width
    for r, slope in ((res, 0.5), (ctl, 1.0)):
        assert_clear(r.ci_low, r.ci_high, slope + 0.02, "below", what=f"slope CI (true {slope})")
        assert_clear(r.ci_low, r.ci_high, slope - 0.02, "above", what=f"slope CI (true {slope})")


def test_a_diverging_learner_is_a_fail_with_its_reason_not_a_crash():
    """SCRiBLe with eta tuned as if there were no noise can blow up: that is a result (FAIL,
    reason recorded); a control that diverges is not counted as caught."""
    from dpregret.verdict.core import record

    rng = np.random.default_rng(1)
    rows = []
    for T in [100, 300, 1000, 3000, 10000]:
        for r in range(8):
            rows.append({"algorithm": "good", "T": T, "eps": 1.0, "replicate": r,
                         "regret": np.sqrt(T) * rng.lognormal(0, 0.05)})
            blown = np.inf if (T == 10000 and r == 3) else T * rng.lognormal(0, 0.05)
            rows.append({"algorithm": "blown", "T": T, "eps": 1.0, "replicate": r, "regret": blown})
    df = pd.DataFrame(rows)
    claim = Claim("X", "p", "t", "rate", "s", "m", "c")
    res, ctl = evaluate_rate(df, ClaimSpec(claim, "T", "regret", 0.5, "blown", "good"), 1.0, 0.1, 0.05, rng)
    assert res.verdict == "FAIL" and "1 of 8 replicates at point 10000" in res.detail["diverged"]
    res, ctl = evaluate_rate(df, ClaimSpec(claim, "T", "regret", 0.5, "good", "blown"), 1.0, 0.1, 0.05, rng)
    rec = record(claim, res, ctl, scenario="s", env=None, ci_level=0.95)
    assert_verdict(res, "PASS")
    assert rec["result"]["verdict"] == "INCONCLUSIVE" and not rec["control_caught"]



def _reference_mab(env, N, T, plan, replicates, root_seed, gap=0.2, phases=4):
    """The EXP2-family rows of as17_bandits.simulate written round by round with the numpy
    classes (Exp2 behind PrivateFeedback): the definition the compiled kernel reproduces.
    Returns (regret, noisy_regret), rows in the scenario's order."""
    from dpregret.core.environments.experts import StochasticExperts, SwitchingExperts

    R = len(replicates)
    point = (as17_bandits.SCENARIO, env, N, T, gap if env == "stochastic" else phases)
    st = lambda role: ReplicateStreams(root_seed, stable_key(*point, role), replicates)  # noqa: E731
    source = SwitchingExperts(T, N, phases) if env == "switching" else StochasticExperts(N, gap, st("losses"))
    rows = [(a, e) for a in as17_bandits.ALGORITHMS if a in plan and a != "explore_tree" for e in plan[a]]
    par = np.array([as17_bandits.row_params(a, N, T, e) for a, e in rows])
    perm = np.argsort(st("arm-permutation").uniform((N,)), axis=1)  # the replicates' arm labels
    first = np.argmin(perm, axis=1)  # where the sequence's arm 0 sits
    bias = np.concatenate([np.eye(N)[first] if a == "dp_exp2_biased" else np.zeros((R, N)) for a, _ in rows])
    col = lambda v: np.repeat(v, R)[:, None]  # noqa: E731
    B = len(rows) * R
    L = PrivateFeedback(Exp2(N, col(par[:, 1]), col(par[:, 2]), st("exp2"), B), col(par[:, 0]), st("exp2/noise"), bias)
    suffered, noisy, zsum, cum = np.zeros(B), np.zeros(B), np.zeros((B, N)), np.zeros((R, N))
    for t in range(1, T + 1):
        l = np.take_along_axis(source.loss(t, R), perm, axis=1)
        arm = L.predict()
        lb = np.tile(l, (B // R, 1))
        suffered += (L.p * lb).sum(axis=1)
        L.update(lb[np.arange(B), arm])
        noisy += (L.p * L.z).sum(axis=1)
        zsum += L.z
        cum += l
    reg = suffered - np.tile(cum.min(axis=1), len(rows))
    return reg, reg + noisy - zsum[np.arange(B), np.tile(cum.argmin(axis=1), len(rows))]


@pytest.mark.parametrize("env", ["switching", "stochastic"])
def test_compiled_exp2_matches_the_classes(env, monkeypatch):
    """The scenario's fused numba rounds equal Exp2 behind PrivateFeedback on the same draws
    (every EXP2-family algorithm, including the biased-noise control), across block edges."""
    plan = {"exp2": [None], "dp_exp2": [0.5, 4.0], "dp_exp2_full_sens": [4.0], "dp_exp2_eps_squared": [0.5],
            "dp_exp2_fixed_explore": [4.0], "dp_exp2_biased": [4.0], "dp_exp2_half_step": [0.5],
            "dp_exp2_eta_T23": [4.0], "dp_exp2_nopriv_step": [0.5], "dp_exp2_no_N": [4.0]}
    N, T, reps = 5, 700, [1, 4, 6]
    monkeypatch.setattr(as17_bandits, "BLOCK_DOUBLES", 13 * len(reps) * N)  # blocks of 13 rounds
    got = as17_bandits.simulate(env, N, T, plan, reps, 19, gap=0.3)
    reg, nz = _reference_mab(env, N, T, plan, reps, 19, gap=0.3)
    np.testing.assert_allclose(got.regret.to_numpy(), reg, rtol=1e-9, atol=1e-9)
    priv = got.algorithm != "exp2"
    np.testing.assert_allclose(got.noisy_regret.to_numpy()[priv], nz[priv.to_numpy()], rtol=1e-9, atol=1e-9)
    assert np.ptp(reg) > 1.0


def test_pulled_noise_kernel_equals_the_full_kernel_fed_the_pulled_arms_noise():
    """exp2_block_pulled (one Laplace number per round, weights updated at the pulled arm) gives
    the same regret as exp2_block when every arm's noise equals that number (Lemma 4.2: only the
    pulled arm's noise reaches the learner), over many arm switches.  Step sizes as Theorem 4.1's
    (eta N / gamma < 1): far outside, the importance weights amplify rounding chaotically."""
    from dpregret.papers.as17.exp2_jit import exp2_block, exp2_block_pulled
    rng = np.random.default_rng(5)
    R, N, T = 3, 6, 4000
    eta, gam, lam = (np.repeat(v, R) for v in ([0.001, 0.01, 0.005], [0.01, 0.1, 0.05], [2.0, 0.5, 0.0]))
    B = eta.size
    L = (rng.random((R, T, N)) < np.linspace(0.3, 0.6, N)).astype(float)
    z, U = rng.laplace(size=(R, T)), rng.random((R, T))
    full, fast = np.zeros(B), np.zeros(B)
    lq_full, lq_fast = np.zeros((B, N)), np.zeros((B, N))
    rec = np.zeros((B, T, 2))
    exp2_block(lq_full, eta, gam, lam, np.zeros((B, N)), L,
               np.ascontiguousarray(np.repeat(z[:, :, None], N, axis=2)), U,
               full, np.zeros(B), np.zeros((B, N)), rec)
    exp2_block_pulled(lq_fast, eta, gam, lam, L, np.tile(np.arange(N), (R, 1)), z, U, fast)
    np.testing.assert_allclose(fast, full, rtol=1e-7)
    np.testing.assert_allclose(lq_fast - lq_fast.max(axis=1, keepdims=True), lq_full, atol=1e-6)
    assert all(len(np.unique(rec[b, :, 0])) == N for b in range(B))  # every arm is played: a real test


@pytest.mark.parametrize("env", ["switching", "stochastic"])
def test_pulled_noise_scenario_is_block_and_chunk_invariant(env, monkeypatch):
    plan = {"exp2": [None], "dp_exp2": [0.5, 4.0], "dp_exp2_full_sens": [4.0]}
    whole = as17_bandits.simulate(env, 4, 500, plan, range(5), 7, gap=0.3, pulled_noise=True)
    monkeypatch.setattr(as17_bandits, "BLOCK_DOUBLES", 17 * 2 * 4)
    parts = pd.concat([as17_bandits.simulate(env, 4, 500, plan, r, 7, gap=0.3, pulled_noise=True)
                       for r in (range(0, 2), range(2, 5))])
    key = ["algorithm", "eps", "replicate"]
    pd.testing.assert_frame_equal(whole.sort_values(key).reset_index(drop=True),
                                  parts.sort_values(key).reset_index(drop=True))
    assert whole.noisy_regret.isna().all() and np.ptp(whole.regret) > 1.0
    with pytest.raises(ValueError, match="biased"):
        as17_bandits.simulate(env, 4, 50, {"dp_exp2_biased": [1.0]}, range(2), 7, pulled_noise=True)


def test_switching_block_equals_the_sources_rounds():
    from dpregret.core.environments.experts import SwitchingExperts
    src = SwitchingExperts(103, 5, 4)
    got = as17_bandits.switching_block(src, 20, 60, 3)
    want = np.stack([src.loss(t, 3) for t in range(21, 81)], axis=1)
    np.testing.assert_array_equal(got, want)


def test_eps_window_regime_passes_a_noise_dominated_window_and_flags_one_outside():
    from dpregret.papers.as17.claims_tables import MAB_SPECS
    from dpregret.verdict.core import Result
    from dpregret.verdict.spec import apply_regime
    spec = next(s for s in MAB_SPECS if s.claim.claim_id == "AS17-T2-mab-rate-eps")
    regime = {"regime": {"noise_share_min": 0.5, "trivial_share_max": 0.5}}

    def frame(nonpriv, priv):
        rows = [{"algorithm": "exp2", "eps": np.nan, "regret": nonpriv, "grid": "eps", "trivial_regret": 1000.0}]
        rows += [{"algorithm": "dp_exp2", "eps": e, "regret": v, "grid": "eps", "trivial_regret": 1000.0}
                 for e, v in priv.items()]
        return pd.DataFrame(rows)

    ok = Result("PASS", 0.9, 1.0, 0.8, 1.0, 0.25, {})
    inside = apply_regime(frame(10.0, {0.2: 400.0, 2.0: 40.0}), spec, ok, 1.0, regime)
    assert inside.verdict == "PASS" and inside.detail["regime_numbers"]["noise_share"][1] == pytest.approx(0.75)
    flat = apply_regime(frame(30.0, {0.2: 400.0, 2.0: 40.0}), spec,
                        Result("PASS", 0.9, 1.0, 0.8, 1.0, 0.25, {}), 1.0, regime)
    assert flat.verdict == "INCONCLUSIVE" and "not in the regime" in flat.detail["not_in_regime"]
    saturated = apply_regime(frame(10.0, {0.2: 900.0, 2.0: 40.0}), spec,
                             Result("PASS", 0.9, 1.0, 0.8, 1.0, 0.25, {}), 1.0, regime)
    assert saturated.verdict == "INCONCLUSIVE"


def test_rate_window_of_one_decade_is_decided_only_when_declared():
    from dpregret.verdict.core import check_rate
    rng = np.random.default_rng(1)
    x = np.array([1.0, 2.0, 4.0, 10.0])
    samples = [x_ * rng.lognormal(0, 0.02, 20) for x_ in x]
    short = check_rate(x, samples, 1.0, 0.1, 0.05, rng)
    assert short.verdict == "INCONCLUSIVE" and "decades" in short.detail["reason"]  # by rule, not by the data
    assert_verdict(check_rate(x, samples, 1.0, 0.1, 0.05, rng, decades=1.0), "PASS")


def test_periodic_sequence_is_deterministic_non_iid_with_arm_0_best():
    src = as17_bandits.PeriodicExperts(40, 3)
    L = np.concatenate([src.block(0, 13, 2), src.block(13, 27, 2)], axis=1)
    assert L.shape == (2, 40, 3) and np.array_equal(L[0], L[1])
    np.testing.assert_array_equal(L[0, :4], [[0, 1, 1], [0, 1, 1], [0, 1, 1], [1, 0, 1]])
    assert list(L[0].sum(axis=0)) == [10, 30, 40]
    plan = {"exp2": [None], "dp_exp2": [4.0], "explore_tree": [4.0], "dp_exp2_biased": [4.0]}
    whole = as17_bandits.simulate("periodic", 2, 300, plan, range(4), 3)
    parts = pd.concat([as17_bandits.simulate("periodic", 2, 300, plan, r, 3) for r in (range(0, 1), range(1, 4))])
    key = ["algorithm", "eps", "replicate"]
    pd.testing.assert_frame_equal(whole.sort_values(key).reset_index(drop=True),
                                  parts.sort_values(key).reset_index(drop=True))
    assert (whole.trivial_regret == 75.0).all()  # uniform play: 150 - 75


@pytest.mark.parametrize("env", ["stochastic", "periodic"])
def test_explore_tree_rounds_equal_the_class(env):
    """ExploreTreeRounds (blocks of rounds, the scenario's path) gives the per-round class's
    sum_t <p_t, l_t> on the same draws, for two eps rows, across uneven block edges (blocks of
    7, 64 and 300 rounds, so stored tree nodes carry over between blocks)."""
    from dpregret.papers.as17.bandits import ExploreTree, ExploreTreeRounds
    from dpregret.core.rng import ReplicateStreams
    N, T, reps, eps = 3, 1000, [0, 2, 5], [0.5, 4.0]
    R = len(reps)
    rng = np.random.default_rng(3)
    L = (rng.random((R, T, N)) < [0.2, 0.5, 0.5]).astype(float) if env == "stochastic" else \
        as17_bandits.PeriodicExperts(T, N).block(0, T, R)

    def streams(role):
        return ReplicateStreams(11, (7, role), reps)
    ref = ExploreTree(N, T, np.repeat(eps, R)[:, None], streams(1), streams(2), len(eps) * R)
    suffered = np.zeros(len(eps) * R)
    for s in range(T):
        lb = np.tile(L[:, s], (len(eps), 1))
        ref.predict()
        suffered += np.einsum("bi,bi->b", ref.p, lb)
        ref.update(lb[np.arange(ref.B), ref.arm])
    fast = ExploreTreeRounds(N, T, eps, streams(1), streams(2))
    t0 = 0
    for tb in [7, 64, 300, 629]:
        fast.run(np.ascontiguousarray(L[:, t0:t0 + tb]))
        t0 += tb
    assert t0 == T and fast.gamma == ref.gamma
    np.testing.assert_allclose(fast.suffered.ravel(), suffered, rtol=1e-10)
    assert np.ptp(suffered) > 1.0


def test_signed_sequence_and_the_trivial_maximum():
    """The bound grid's signed fixed leader: arm 1 loss -1, the others +1 every round; uniform play's
    regret 2 T (N - 1) / N, the trivial maximum sum_t max_i l_t,i - min_i L_T,i = 2 T."""
    src = as17_bandits.SignedExperts(50, 4)
    L = src.block(10, 5, 3)
    assert L.shape == (3, 5, 4) and (L[:, :, 1] == -1).all() and (np.delete(L, 1, axis=2) == 1).all()
    df = as17_bandits.simulate("signed", 4, 200, {"dp_exp2": [64.0], "dp_exp2_half_step": [64.0]}, range(3), 5,
                               pulled_noise=True)
    assert np.allclose(df.trivial_regret, 2 * 200 * 3 / 4) and np.allclose(df.max_regret, 400.0)
    assert (df.regret < df.trivial_regret).all() and (df.regret > 0).all()
    st = as17_bandits.simulate("stochastic", 2, 100, {"dp_exp2": [4.0]}, range(2), 5)
    assert (st.regret <= st.max_regret + 1e-9).all() and (st.max_regret <= 100).all()


def test_thm41_bound_on_the_signed_grid_catches_the_halved_bound_and_the_nonlearner():
    """On the signed sequence at large eps EXP2 reaches ~2/3 of Theorem 4.1's bound (pilot 0.55-0.65):
    the claim passes, the same runs against half the bound fail, the uniform arm (2 T (N - 1) / N)
    fails against the bound; the step-halved secondary stays below the bound."""
    from dpregret.papers.as17.claims_tables import thm4_1_bound
    plan = {"dp_exp2": [256.0], "dp_exp2_half_step": [256.0]}
    df = pd.concat([as17_bandits.simulate("signed", 32, T, plan, range(8), 7, pulled_noise=True).assign(grid="bound")
                    for T in (1000, 10000)], ignore_index=True)
    claim, control, secondary = thm4_1_bound(df, 0.05)
    assert_verdict(claim, "PASS", what="Theorem 4.1 bound (signed)")
    assert_verdict(control, "FAIL", what="half the bound")
    assert 0.5 < claim.measured < 0.8
    nl = claim.detail["nonlearner"]
    assert nl["verdict"] == "FAIL" and nl["caught"] and nl["measured"] > 1.0
    (sec,) = secondary.values()
    assert sec.verdict != "FAIL" and sec.measured < 1.0


def test_learning_gates_pass_a_learner_and_fail_a_nonlearner():
    """papers.as17.claims_gates: the T-grid gate passes regret ~ sqrt(T) at 1/10 of the non-learner's and
    fails the non-learner itself (slope 1, share 1); the point gate likewise."""
    from dpregret.papers.as17.claims_gates import gate_points, gate_T
    rng = np.random.default_rng(0)
    Ts = np.array([1e3, 3e3, 1e4, 3e4, 1e5])
    noise = [rng.normal(1, 0.05, 16) for _ in Ts]
    learner = [np.sqrt(T) * z for T, z in zip(Ts, noise)]
    nonlearner = [0.1 * T * z for T, z in zip(Ts, noise)]
    assert_verdict(gate_T(Ts, learner, nonlearner[-1], 0.05, rng), "PASS", what="learner's gate")
    assert_verdict(gate_T(Ts, nonlearner, nonlearner[-1], 0.05, rng), "FAIL", what="non-learner's gate")
    labels = [{"N": n} for n in (2, 20, 200)]
    assert gate_points(labels, learner[:3], nonlearner[2:], 0.05).verdict == "PASS"
    assert gate_points(labels, nonlearner[2:], nonlearner[2:], 0.05).verdict == "FAIL"


def test_mab_rate_N_divides_out_sqrt_log_N_and_carries_its_gate():
    """AS17-T2-mab-rate-N: regret / sqrt(ln N) vs N (a regret exactly sqrt(N ln N) has slope 1/2), its
    learning gate on non-private EXP2 and its non-learner (uniform play) caught on it."""
    from dpregret.papers.as17.claims_tables import MAB_SPECS, rate_gate
    from dpregret.verdict.spec import evaluate_spec
    spec = next(s for s in MAB_SPECS if s.claim.claim_id == "AS17-T2-mab-rate-N")
    rng = np.random.default_rng(2)
    rows = []
    for N in (2, 5, 20, 50, 200):
        for r in range(8):
            z = rng.normal(1, 0.01)
            triv = 0.3 * 1e6 * (N - 1) / N
            for alg, reg, e in (("dp_exp2", 100 * np.sqrt(N * np.log(N)) * z, 4.0),
                                ("dp_exp2_full_sens", 100 * N**1.5 * z, 4.0),
                                ("exp2", 50 * np.sqrt(N * np.log(N)) * z, np.nan)):
                rows.append({"algorithm": alg, "grid": "N", "N": N, "T": 10**6, "eps": e, "replicate": r, "regret": reg,
                             "trivial_regret": triv})
    df = pd.DataFrame(rows)
    res, ctl = evaluate_spec(df, spec, {"rate_eps": 4.0}, 0.05, 0.05, rng, gate=rate_gate)
    assert_verdict(res, "PASS", what="rate in N")
    assert abs(res.measured - 0.5) < 0.01
    assert_verdict(ctl, "FAIL", what="lambda = N/eps")
    assert res.detail["learning_gate"]["verdict"] == "PASS"
    assert res.detail["nonlearner"]["verdict"] == "FAIL" and res.detail["nonlearner"]["caught"]


def test_fixed_olo_sequence_is_the_stochastic_mean_and_block_invariant():
    from dpregret.papers.as17 import scenario_olo as as17_olo
    src = as17_olo.FixedOLO("cube", 4, 0.2)
    np.testing.assert_allclose(as17_olo.loss_block(src, 5, 3, 2), np.full((2, 3, 4), 0.05))
    whole = as17_olo.simulate("sphere", "fixed", 4, 300, [4.0], range(4), 3, mu=0.2)
    parts = pd.concat([as17_olo.simulate("sphere", "fixed", 4, 300, [4.0], r, 3, mu=0.2)
                       for r in (range(0, 1), range(1, 4))])
    key = ["algorithm", "eps", "replicate"]
    pd.testing.assert_frame_equal(whole.sort_values(key).reset_index(drop=True),
                                  parts.sort_values(key).reset_index(drop=True))
    assert np.allclose(whole.comparator, 0.2 * 300)  # -min_X <L_T, x> = mu T ||u||_2 on the ball
    blo = as17_blo.simulate("cube", "fixed", 4, 500, {"scrible": [None], "dp_scrible": [4.0]}, range(2), 3, mu=0.2)
    assert np.allclose(blo.trivial_regret, 0.2 * 500)

