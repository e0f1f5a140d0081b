"""Van der Hoeven scenarios (Sec. 3.4) and claims: data, controls, the vectorised run against a
plain per-step loop, determinism, chunk invariance, shared draws across experiments, and the
claims decided on a small run with the large-effect controls caught."""
import math

import numpy as np
import pandas as pd
import pytest

from dpregret.core.environments.absolute_loss import sphere_abs_mean, wdbc_problem
from dpregret.papers.vdh19 import bounds as vdh_bounds
from dpregret.papers.vdh19 import learners as vdh
from dpregret.papers.vdh19.controls import FixedStepOGD, Frozen, LazySparsePotential, PrintedRule
from dpregret.core.mechanisms import l2_laplace_randomiser
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.papers.vdh19 import scenario as S
from dpregret.papers.vdh19.run import Masks, smallest_positions
from margins import assert_not_verdict, assert_verdict, assert_z

P = dict(d=5, T=[30, 100, 300, 1000, 3000], u_frac=[0, 0.5, 1, 4], rate_eps=2.0, eps_grid=[1.0, 4.0], T_eps=100,
         n_grid=[0, 1, 10, 100], T_n=100, b=1.0, D_guess=10.0, printed_T_max=100,
         u_grid=[1, 3.16, 10, 31.6, 100], T_u=300, d_u=5, T_sparse=[200], d_sparse=10, s=2, k=2, u_max=1.0,
         d_sens=3, tau=1.0, D_ratio_grid=[10, 31.6, 100, 316, 1000])
KEY = ["experiment", "alg", "placement", "eps", "n_private", "u_star_norm", "u_frac", "replicate"]


def _sorted(df, key=KEY):
    return df.sort_values(key).reset_index(drop=True)


def test_wdbc_problem_and_optimum():
    A, y, w = wdbc_problem(5)
    assert A.shape == (569, 5) and np.allclose(np.linalg.norm(A, axis=1), 1.0)
    loss = lambda v: np.abs(A @ v - y).mean()  # noqa: E731
    rng = np.random.default_rng(0)
    L = loss(w)
    assert all(loss(w + 0.05 * rng.normal(size=5)) >= L - 1e-12 for _ in range(200))
    assert 1.0 < np.linalg.norm(w) < 3.0  # the finite optimum of the scenario (||w*|| = 1.79)


def test_sphere_constant_and_noise_moment():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(200_000, 5))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    a = np.abs(x[:, 0])  # within 3e-3 of the constant, by >= 3 standard errors
    assert_z(abs(a.mean() - sphere_abs_mean(5)), a.std(ddof=1) / np.sqrt(a.size), 3e-3, "below", k=3,
             what="|E|x_1| - constant|")
    z = l2_laplace_randomiser(np.zeros((200_000, 5)), 2.0, rng)
    q = np.sum(z**2, axis=1) / S.l2_noise_second_moment(5, 2.0)  # its mean within 2% of 1, by >= 3 se
    assert_z(abs(q.mean() - 1), q.std(ddof=1) / np.sqrt(q.size), 0.02, "below", k=3, what="|E||z||^2 / moment - 1|")
    assert S.n_private(100) == 5 and S.n_private(10_000) == 10


def test_lazy_sparse_potential_equals_sparse_potential():
    rng = np.random.default_rng(2)
    a, b = vdh.SparsePotential(1.0, 6, batch=(3,)), LazySparsePotential(1.0, 6, batch=(3,))
    for _ in range(400):
        assert np.array_equal(a.predict(), b.predict())
        g = rng.normal(size=(3, 6)) * (rng.random((3, 6)) < 0.3)
        a.update(g)
        b.update(g)


def test_controls():
    rng = np.random.default_rng(3)
    g = rng.normal(size=(50, 4, 3))
    f = FixedStepOGD(0.3, (4, 3))
    lin = np.zeros(4)
    for t in range(50):
        lin += np.sum(f.predict() * g[t], axis=1)
        f.update(g[t])
    u = np.array([0.5, -1.0, 2.0])
    reg = lin - g.sum(axis=0) @ u
    ident = (u @ u - np.sum((f.w - u) ** 2, axis=1)) / 0.6 + 0.15 * np.sum(g**2, axis=(0, 2))
    assert np.allclose(reg, ident)  # the OGD identity behind the controls
    fz = Frozen((4, 3))
    fz.update(np.full((4, 3), 1.0))
    assert np.all(fz.predict() == 0.0)  # the non-learner ignores its feedback
    pr = PrintedRule(1.0, b=1.0, shape=(2,))
    pr.update(np.array([-0.4, 0.3]))
    assert np.allclose(pr.predict(), vdh.prediction_printed_3_3_4(pr.L, 1.0 + pr.V, 1.0, 1.0))


def test_run_equals_plain_per_step_loop():
    """Algorithm 2 in the minority scenario (random placement) = a scalar loop over replicates
    with the same data, positions and noise draws."""
    p, T, reps, seed = dict(P, u_frac=[0.0, 1.0]), 40, range(3), 11
    df = S.simulate_minority(p, T, reps, seed)
    A, y, w_star = wdbc_problem(5)
    k, eps = S.n_private(T), p["rate_eps"]
    key = lambda role: ReplicateStreams(seed, stable_key("vdh19", "minority", "wdbc", 5, T, role), reps)  # noqa: E731
    data, noise, pos = key("data"), key("noise"), key("positions")
    ranks = np.argsort(np.argsort(pos.uniform((T,)), axis=1), axis=1)
    draws = []
    for _ in range(T):
        idx = np.minimum((data.uniform(()) * 569).astype(int), 568)
        draws.append((A[idx], y[idx], l2_laplace_randomiser(np.zeros((3, 5)), 1.0, noise)))
    for r in reps:
        alg = vdh.BlackBoxReduction(1.0, 5, b=1.0)
        lin, gsum, zg, S2 = 0.0, np.zeros(5), 0.0, 0.0
        for t in range(T):
            x, yy, xi = draws[t][0][r], draws[t][1][r], draws[t][2][r]
            z = alg.direction.predict()
            w = alg.predict()
            g = np.sign(x @ w - yy) * x
            gt = g + (xi / eps if ranks[r, t] < k else 0.0)
            lin += g @ w
            gsum += g
            zg += z @ g
            S2 += gt @ gt
            alg.update(gt)
        row = df[(df.alg == "alg2") & (df.placement == "random") & (df.replicate == r) & (df.u_frac == 1.0)].iloc[0]
        assert np.isclose(row.regret, lin - gsum @ w_star, rtol=1e-10, atol=1e-10)
        assert np.isclose(row.mag_regret, lin - np.linalg.norm(w_star) * zg, rtol=1e-10, atol=1e-10)
        assert np.isclose(row.sum_sq, S2, rtol=1e-12)


def test_determinism_and_chunk_invariance():
    for sim in (lambda r: S.simulate_minority(P, 60, r, 5), lambda r: S.simulate_sparse(P, 60, r, 5),
                lambda r: S.simulate_unorm(dict(P, T_u=60), r, 5),
                lambda r: S.simulate_minority_n(dict(P, T_n=60), r, 5)):
        whole = sim(range(4))
        parts = pd.concat([sim(range(0, 1)), sim(range(1, 4))])
        key = [c for c in KEY + ["D_ratio"] if c in whole]
        assert _sorted(whole, key).equals(_sorted(parts, key))
        assert _sorted(sim(range(4)), key).equals(_sorted(whole, key))


def test_eps_and_n_experiments_share_the_draws_of_the_T_run():
    T = 60
    base = S.simulate_minority(P, T, range(3), 9)
    eps = S.simulate_minority_eps(dict(P, T_eps=T, eps_grid=[1.0, 2.0]), range(3), 9)
    cols = ["alg", "placement", "eps", "replicate", "u_frac"]
    for pl in ("random", "none", "uniform"):
        a = _sorted(base[(base.alg == "alg2") & (base.placement == pl)], cols)
        b = _sorted(eps[(eps.alg == "alg2") & (eps.placement == pl) & ((eps.eps == 2.0) | (pl == "none"))], cols)
        assert np.array_equal(a.regret.to_numpy(), b.regret.to_numpy())


def test_sparse_scenario_structure():
    df = S.simulate_sparse(P, 80, range(2), 3)
    assert set(df.alg) == {"alg3", "adagrad", "adagrad_tuned", "frozen", "alg3_gnoise"}
    a3 = df[df.alg == "alg3"]
    # noise-free targets: l_t(u*) = 0, so the regret against u* is >= sum_t l_t(w_t) >= 0
    assert (df[df.u_frac == 1.0].regret >= -1e-9).all()
    # coordinates outside the sensitive set get no noise: sum g~^2 = sum g^2 there (support coord 0 is sensitive)
    assert np.all(a3.sum_sq >= a3.sum_sq_true) and np.all(a3.sum_sq_c0 > 0)
    with pytest.raises(ValueError, match="d_sparse"):
        S.simulate_sparse(dict(P, s=11), 10, range(1), 3)


@pytest.fixture(scope="module")
def small_tables():
    reps = range(4)
    return {"minority": pd.concat([S.simulate_minority(P, T, reps, 1) for T in P["T"]], ignore_index=True),
            "minority_eps": S.simulate_minority_eps(P, reps, 1), "minority_n": S.simulate_minority_n(P, reps, 1),
            "unorm": S.simulate_unorm(P, reps, 1),
            "sparse": pd.concat([S.simulate_sparse(P, T, reps, 1) for T in P["T_sparse"]], ignore_index=True)}


def test_claims_on_a_small_run(small_tables):
    from dpregret.papers.vdh19 import claims as C
    from dpregret.verdict.core import VERDICTS

    tol = {"VDH-eq3.3.5-rate-u": 0.35, "VDH-sec3.4-minority-cost-rate-T": 0.25,
           "VDH-sec3.4-minority-cost-rate-T-adversarial": 0.25, "VDH-eq3.1.1-privacy-term-rate": 0.25}
    out = C.evaluate(small_tables, P, tol, 0.05, lambda cid: np.random.default_rng(0))
    assert set(out) == set(C.CLAIMS) and all(c.startswith("VDH-") for c in out)
    for cid, (res, ctl) in out.items():
        assert res.verdict in VERDICTS and ctl.verdict in VERDICTS, cid
    # the printed Theorems 10, 11, 12 are false on their deterministic sequences (exact checks); the proof
    # forms hold there
    for cid in ("VDH-thm10-printed-bound", "VDH-thm11-bound", "VDH-thm12-printed-bound"):
        res, ctl = out[cid]
        assert_verdict(res, "FAIL", what=cid)
        assert res.measured > 1 and "realistic_runs" in res.detail, cid
        assert_verdict(ctl, "PASS", what=f"{cid} control")
    # the proof-constant bounds hold on the runs; a bound looser than 2x everywhere says so in a numbered reason.
    # 4 replicates: PASS or too wide to tell; not FAIL with margin, i.e. every point's mean under its bound
    # (measured at seeds 1-3: >= 1.04 half-widths of the lower side)
    for cid in ("VDH-thm10-proof-bound", "VDH-eq3.3.5-bound", "VDH-thm11-proof-bound"):
        res, ctl = out[cid]
        assert_not_verdict(res, "FAIL", what=cid)
        assert res.measured < 1, cid
    assert_verdict(out["VDH-sec3.4-minority-cost-rate-T"][1], "FAIL", what="VDH-sec3.4-minority-cost-rate-T control")
    res, ctl = out["VDH-sec3.4-sparse-vs-adagrad"]
    assert_verdict(ctl, "FAIL", what="VDH-sec3.4-sparse-vs-adagrad control")
    assert set(res.detail["by_T_and_D"]) == {f"T={T}" for T in P["T_sparse"]}
    assert all(v > 0.9 for v in res.detail["adagrad_regret_slope_in_D"].values())  # AdaGrad pays its guess linearly
    ada = small_tables["sparse"]
    ada = ada[(ada.alg == "adagrad") & (ada.u_frac == 1.0)]
    for T, g in ada.groupby("T"):  # ... clear of 0.9 by >= 3 standard errors of the per-replicate slopes
        slopes = [np.polyfit(np.log(r.D_ratio), np.log(r.regret), 1)[0] for _, r in g.groupby("replicate")]
        assert_z(res.detail["adagrad_regret_slope_in_D"][f"T={int(T)}"], np.std(slopes, ddof=1) / np.sqrt(len(slopes)),
                 0.9, "above", k=3, what=f"AdaGrad's regret slope in D at T = {T}")
    assert "printed_3_3_4_rule" in out["VDH-thm10-printed-bound"][0].detail
    # the non-learner (frozen at 0) by each claim's own check on the same draws
    from dpregret.verdict.core import Result

    def nl(cid):
        d = out[cid][0].detail["nonlearner"]
        return Result(**{k: d[k] for k in ("verdict", "measured", "bound", "ci_low", "ci_high", "tolerance", "detail")})
    for cid in ("VDH-thm10-proof-bound", "VDH-eq3.3.5-bound"):  # its regret grows linearly in T: caught
        assert_verdict(nl(cid), "FAIL", what=f"{cid} non-learner")
    # exactly linear in ||u*||: the rate in ||u*|| cannot catch it (kept in the detail) ...
    rate = out["VDH-eq3.3.5-rate-u"][0].detail["nonlearner_on_the_rate"]
    assert abs(rate["measured"] - 1) < 1e-9 and rate["verdict"] == "PASS"
    # ... so the rate and the sparse comparison carry a learning gate, and the frozen learner FAILs it (share 1)
    for cid, by in (("VDH-eq3.3.5-rate-u", "u_star_norm"), ("VDH-sec3.4-sparse-vs-adagrad", "T")):
        gate = nl(cid)
        assert all(v["ratio"] == 1.0 for v in gate.detail[f"by_{by}"].values())
        assert_verdict(gate, "FAIL", what=f"{cid} non-learner on the gate")
        assert "learning_gate" in out[cid][0].detail
    for cid in ("VDH-sec3.4-minority-cost-rate-T", "VDH-sec3.4-minority-cost-rate-T-adversarial"):
        gate = nl(cid)  # the frozen learner on the learning gate: slope 1, its own regret
        assert gate.verdict == "FAIL" and gate.detail["share_of_nonlearner"]["ratio"] == 1.0
        assert_verdict(gate, "FAIL", what=f"{cid} non-learner on the gate")
    assert all(k in out[c][0].detail["worst_case_search"] for c in ("VDH-eq3.3.5-bound", "VDH-thm11-proof-bound")
               for k in ("family", "max_ratio"))
    # eq. (3.1.1)'s privacy term: every point's x from its sum of sigma_t^2; a verdict only inside the regime window
    res, ctl = out["VDH-eq3.1.1-privacy-term-rate"]
    for lab, q in res.detail["points"].items():
        T = int(lab.split("T=")[1].split()[0])
        assert abs(q["x"] - float(vdh_bounds.privacy_term_eq3_1_1(T, q["sum_sigma2"]))) < 1e-9 * max(1.0, q["x"])
        inside = q["noise_share"] >= C.SIGMA_SHARE and q["regret_share_of_frozen"] <= C.SIGMA_SATURATION
        assert q["in_regime"] == inside
    if res.detail["window"]["decades"] < C.SIGMA_DECADES:
        assert res.verdict == "INCONCLUSIVE" and "not_in_regime" in res.detail
    assert "twin" in res.detail and res.detail["twin"]["name"] == "alg2_quiet"
    gate = nl("VDH-eq3.1.1-privacy-term-rate")  # the frozen learner on the gate: share 1 at every T
    assert all(v["ratio"] == 1.0 for v in gate.detail["by_T"].values())
    with pytest.raises(ValueError, match="u_frac"):
        C.evaluate(small_tables, dict(P, u_frac=[0, 2]), tol, 0.05, lambda cid: np.random.default_rng(0))


def test_figures(small_tables, tmp_path):
    from dpregret.papers.vdh19.figures import vdh19_figures

    outs = [str(tmp_path / f"f{i}.png") for i in range(5)]
    vdh19_figures(small_tables, P, 0.05, outs)
    assert all((tmp_path / f"f{i}.png").stat().st_size > 10_000 for i in range(5))


def test_bound_check_shift_is_exact():
    """The per-replicate differences average to mean(metric) - bound with the expectation where
    the theorem puts it (printed Theorem 10: inside the max)."""
    from dpregret.papers.vdh19.claims import shifted

    S_r = np.array([3.0, 50.0, 400.0, 900.0])
    m = np.array([1.0, 2.0, 3.0, 10.0])
    for u in (0.0, 0.3, 5.0):
        exact = float(vdh_bounds.bound_thm10(u, S_r, 1.0, 1.0, axis=0))
        d = shifted(m, vdh_bounds.bound_thm10(u, S_r, 1.0, 1.0), exact)
        assert math.isclose(d.mean(), m.mean() - exact, rel_tol=1e-12, abs_tol=1e-12)


def _full_masks(variants, T, u):
    """The (T, V, R) masks built from the whole (R, T) block of position uniforms (reference)."""
    ranks = np.argsort(np.argsort(u, axis=1, kind="stable"), axis=1, kind="stable")
    out = np.zeros((T, len(variants), u.shape[0]), dtype=bool)
    for i, v in enumerate(variants):
        if v["placement"] == "uniform":
            out[:, i] = True
        elif v["placement"] == "adversarial":
            out[:, i] = (np.arange(T) < v["n"])[:, None]
        elif v["placement"] == "random":
            out[:, i] = (ranks < v["n"]).T
    return out


class _Served:
    """A stand-in for ReplicateStreams serving a fixed (R, T) array of uniforms in order."""

    def __init__(self, u):
        self.u, self.i, self.R = u, 0, u.shape[0]

    def uniform(self, shape):
        out = self.u[:, self.i:self.i + shape[0]]
        self.i += shape[0]
        return out


@pytest.mark.parametrize("block", [1, 7, 64, 1024])
def test_smallest_positions_equal_stable_ranks_with_ties(block):
    rng = np.random.default_rng(4)
    for T, n in ((1, 1), (50, 1), (50, 50), (300, 17), (2500, 9), (2500, 2600)):
        u = rng.integers(0, 4, size=(3, T)).astype(float)  # many ties: lower position first
        ref = np.argsort(u, axis=1, kind="stable")[:, :min(n, T)]
        assert np.array_equal(smallest_positions(_Served(u), T, n, block=block), ref)


def test_streamed_masks_equal_full_masks():
    """Per-round masks = the (T, V, R) array of the whole draw, for every placement, several n
    (ties, n >= T), and ReplicateStreams buffers smaller and larger than the block."""
    rng = np.random.default_rng(5)
    for T in (2, 40, 1500):
        for block in (5, 8192):
            ns = [0, 1, 3, T // 2, T - 1, T]
            variants = ([{"placement": "random", "n": n} for n in ns]
                        + [{"placement": "adversarial", "n": 3}, {"placement": "uniform", "n": T},
                           {"placement": "none", "n": 0}])
            src = lambda: ReplicateStreams(7, stable_key("t", T), range(2, 5), block=block)  # noqa: E731
            ref = _full_masks(variants, T, src().uniform((T,)))
            m = Masks(variants, T, 3, src())
            assert all(np.array_equal(m(t), ref[t]) for t in range(T))
            with pytest.raises(ValueError, match="in order"):
                m(0)
    u = rng.integers(0, 3, size=(4, 200)).astype(float)
    variants = [{"placement": "random", "n": n} for n in (1, 5, 60)]
    ref, m = _full_masks(variants, 200, u), Masks(variants, 200, 4, _Served(u))
    assert all(np.array_equal(m(t), ref[t]) for t in range(200))


def test_placement_memory_flat_in_T():
    """The placement masks hold O(R ln T), not O(T R): at T = 200,000 and R = 16 a (R, T)
    float64 draw alone would be 25 MiB."""
    import tracemalloc

    T, R = 200_000, 16
    variants = [S.placement_variant("random", 2.0, S.n_private(T)),
                S.placement_variant("adversarial", 2.0, S.n_private(T)),
                S.placement_variant("uniform", 2.0, T), S.placement_variant("none", 2.0, 0)]
    src = ReplicateStreams(1, stable_key("mem"), range(R), block=64)
    tracemalloc.start()
    try:
        m = Masks(variants, T, R, src)
        hits = sum(int(m(t)[0].sum()) for t in range(2000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * 2**20, peak
    assert 0 <= hits <= R * S.n_private(T)


def test_sparse_sensitive_coordinates_placed():
    """``sens_first`` moves the sensitive coordinates (tau finite) off u*'s support: there the
    frozen learner's feedback on the support is the true subgradient, x_j^2 in {0, 1/s}, so
    s sum_t g~_j^2 is an integer; with them on the support (the default 0) it is not."""
    q = dict(P, T_sparse=[50])
    for first, exact in ((P["k"], True), (0, False)):
        df = S.simulate_sparse(dict(q, sens_first=first), 50, range(3), 5)
        fz = df[(df.alg == "frozen") & (df.u_frac == 1.0)]
        v = fz[[f"sum_sq_c{j}" for j in range(P["k"])]].to_numpy() * P["s"]
        assert np.allclose(v, np.round(v)) == exact
    with pytest.raises(ValueError, match="sens_first"):
        S.simulate_sparse(dict(q, sens_first=P["d_sparse"] - 1), 50, range(2), 5)


# ---- the door for your own learner (papers.vdh19.scenario: DirectionSlot, USER_CLAIMS): what the door's contract
# over every claim (tests/test_door.py) does not cover -- the paper's rows beyond printed_T_max, the
# user claims' decision of the paper's learner equal to the pipeline's (evaluate), a small learner's
# verdict (projected OGD on the ball) and the learning gate failing a direction learner that never moves

CID = "VDH-sec3.4-minority-cost-rate-T"
TOL = {CID: 0.25, CID + "-adversarial": 0.25, "VDH-eq3.3.5-rate-u": 0.35, "VDH-eq3.1.1-privacy-term-rate": 0.25}


class BallOGD:
    """A user's learner: projected OGD on the l2 ball of radius r, step r/sqrt(t) (not adaptive
    to the gradients' size), for R independent rows."""

    def __init__(self, R, d, r):
        self.r, self.t, self.w = r, 0, np.zeros((R, d))

    def predict(self):
        return self.w.copy()

    def update(self, g):
        self.t += 1
        y = self.w - self.r / np.sqrt(self.t) * g
        self.w = y * np.minimum(1.0, self.r / np.maximum(np.linalg.norm(y, axis=1, keepdims=True), 1e-300))


def _same(a, b, detail=False):
    """Two Results agree (NaN equal to NaN); with ``detail``, every field."""
    import dataclasses

    if detail:
        np.testing.assert_equal(dataclasses.asdict(a), dataclasses.asdict(b))
    else:
        np.testing.assert_equal([a.verdict, a.measured, a.ci_low, a.ci_high],
                                [b.verdict, b.measured, b.ci_low, b.ci_high])


def _claim(cid=CID):
    return {uc.claim: uc for uc in S.USER_CLAIMS}[cid]


def test_paper_rows_unchanged_with_user_learners_beyond_printed_T_max():
    """At T = 150 > printed_T_max (no alg2_printed rows); at the smoke grid's first T: tests/test_door.py."""
    base = S.simulate_minority(P, 150, range(3), 7)
    both = S.simulate_minority(P, 150, range(3), 7, learners={"mine": BallOGD})
    pd.testing.assert_frame_equal(base, both[both.alg != "mine"].reset_index(drop=True))
    assert set(both[both.alg == "mine"].placement) == {"none", "random", "adversarial", "uniform"}
    with pytest.raises(ValueError, match="taken"):
        S.simulate_minority(P, 30, range(2), 1, learners={"alg3": BallOGD})


def test_user_decision_for_the_paper_equals_evaluate(small_tables):
    from dpregret.papers.vdh19 import claims as C

    reps, tables = range(4), small_tables
    out = C.evaluate(tables, P, TOL, 0.05, lambda cid: np.random.default_rng(0))
    runs = pd.concat([_claim().simulate(P, T, reps, 1, {}) for T in P["T"]], ignore_index=True)  # both claims' door
    for cid, placement in ((CID, "random"), (CID + "-adversarial", "adversarial")):
        mine = C.minority_cost_claim(tables["minority"], placement, TOL, 0.05, lambda c: np.random.default_rng(0), cid)
        res, ctl = out[cid]
        # evaluate's own non-learner: the frozen learner's gate
        assert res.detail.pop("nonlearner")["detail"]["learner"] == "frozen"
        # evaluate's mis-tuned twin (Algorithm 2 with the step one power off), when run
        tw = res.detail.pop("twin", None)
        assert tw is None or tw["name"] == "alg2_step"
        assert mine[0].detail["learning_gate"]["detail"]["learner"] == "alg2"
        for ra, rb in zip((res, ctl), mine):
            _same(ra, rb, detail=True)
        # and on the user check's reduced run (alg2 only): the same verdict and numbers
        assert _claim(cid).door_id == _claim().door_id
        red = _claim(cid).decide(runs, P, TOL, 0.05, lambda c: np.random.default_rng(0), "alg2")
        for ra, rb in zip(out[cid], red):
            _same(ra, rb)


def test_a_small_user_learner_gets_a_verdict_with_its_control_caught():
    """On the default preset's T grid (100 .. 10^4: the smoke grid spans 1.5 decades, too short
    for any rate), 8 replicates: projected OGD on the ball gets a verdict; its control (every
    provider at rate_eps) is caught, as the paper's is."""
    import dpregret

    from scipy import stats

    from dpregret.pipeline.api import decide_learners, preset_params
    from dpregret.papers.vdh19.claims import minority_cost

    c = dpregret.check(BallOGD, CID, name="ball_ogd", preset="default", replicates=8)
    v = c.verdicts.set_index("learner")
    assert list(v.index) == [_claim().paper_label, "ball_ogd"]
    assert (v.control_verdict == "FAIL").all()
    assert v.loc["ball_ogd", "verdict"] in ("PASS", "INCONCLUSIVE")
    # the controls caught with the declared margin, their interval clear of 0 + 0.25 by its half-width (measured:
    # controls 1.06 [1.05, 1.07] and 0.90 [0.88, 0.92]); ball_ogd's own slope is not asserted on a knife-edge: with
    # the minority data rotated per replicate (config rotate) its 8-replicate interval's top was 0.235 against 0.25
    # (it was -0.04 on the unrotated draws)
    uc = _claim()
    run, p = preset_params(uc.scenario, "default", None, None, 8)
    for _, (_, ctl, _, res) in decide_learners(uc, c.runs, p, run, "ball_ogd").items():
        thr, half = ctl.bound + ctl.tolerance, (ctl.ci_high - ctl.ci_low) / 2
        assert ctl.verdict == "FAIL" and ctl.ci_low - thr >= half, ctl
        assert res.verdict != "FAIL", res
    _summ = v.loc["ball_ogd", "detail"]["section_3_4"]["ball_ogd"]
    # at the two largest T the maximal-privacy cost is over 10x the minority's, with a margin: the uniform
    # cost's 95% lower limit over 10x the random cost's upper limit (per replicate, paired with the run
    # without noise; measured ~1970 and ~3900 against ~10 and ~6)
    cost = minority_cost(c.runs[c.runs.u_frac == 1.0], "ball_ogd")

    def limits(placement, T):
        x = cost[(cost.placement == placement) & (cost["T"] == T)].gap.to_numpy()
        h = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
        return x.mean() - h, x.mean() + h
    for T in sorted(set(cost["T"]))[-2:]:
        assert limits("uniform", T)[0] > 10 * limits("random", T)[1], T


class Still:
    """A direction learner that never moves (z_t = 0): Algorithm 2 then plays 0 and its privacy cost is 0."""

    def __init__(self, R, d, r):
        self.z = np.zeros((R, d))

    def predict(self):
        return self.z.copy()

    def update(self, g):
        pass


def test_a_direction_learner_that_never_moves_fails_the_learning_gate():
    from dpregret.papers.vdh19 import claims as C
    from dpregret.verdict.core import record
    from margins import assert_clear

    runs = pd.concat([_claim().simulate(P, T, range(4), 3, {"still": Still}) for T in P["T"]], ignore_index=True)
    key = ["T", "placement", "u_frac", "replicate"]
    still, frozen = (runs[runs.alg == a].sort_values(key).regret.to_numpy() for a in ("still", "frozen"))
    np.testing.assert_array_equal(still, frozen)  # both play w_t = 0: the same regret, exactly
    for cid in (CID, CID + "-adversarial"):
        res, ctl = _claim(cid).decide(runs, P, TOL, 0.05, lambda c: np.random.default_rng(0), "still")
        gate = res.detail["learning_gate"]
        assert gate["verdict"] == "FAIL" and gate["detail"]["share_of_nonlearner"]["ratio"] == 1.0
        assert_clear(gate["ci_low"], gate["ci_high"], 0.75, "above", what="the still learner's slope in T")
        assert record(C.CLAIMS[cid], res, ctl, scenario="vdh19", env=None, ci_level=0.95)["result"]["verdict"] != "PASS"
