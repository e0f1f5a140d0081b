"""Your own learner in Van der Hoeven's Sec. 3.4 minority scenario (``USER_CLAIMS`` of
``dpregret.papers.vdh19.user``): the user's OCO learner is Algorithm 2's direction learner A_Z on
the unit ball.  The paper's rows do not change when user learners run beside them; the paper's
own direction learner through the user path gives exactly the rows and verdicts of its fast path;
the user claim's decision equals ``evaluate``'s for the paper's learner; a small user learner
(projected OGD on the ball, step r/sqrt(t)) gets a verdict with its control caught; a direction
learner that never moves (cost 0) fails the claim's learning gate."""
import numpy as np
import pandas as pd
import pytest

from dpregret.papers.vdh19 import learners as vdh
from dpregret.papers.vdh19 import scenario as S
from dpregret.papers.vdh19 import user as U

P = dict(d=5, T=[30, 100, 300, 1000, 3000], u_frac=[0, 0.5, 1, 4], rate_eps=2.0, eps_grid=[1.0, 4.0], T_eps=100,
         n_grid=[0, 1, 10, 100], T_n=100, b=1.0, D_guess=10.0, printed_T_max=100,
         u_grid=[1, 3.16, 10, 31.6, 100], T_u=300, d_u=5, T_sparse=[200], d_sparse=10, s=2, k=2, u_max=1.0,
         d_sens=3, tau=1.0, D_ratio_grid=[10, 31.6, 100, 316, 1000])
CID = "VDH-sec3.4-minority-cost-rate-T"
TOL = {CID: 0.25, CID + "-adversarial": 0.25, "VDH-eq3.3.5-rate-u": 0.35}


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


def generic_paper(R, d, r):
    """The paper's direction learner (projected OGD with eta_t = (sum ||g~||^2)^(-1/2)) as a user's."""
    return vdh.ProjectedOGDBall(d, batch=(R,))


def _same(a, b, detail=False):
    """Two Results agree (NaN equal to NaN); with ``detail``, every field."""
    import dataclasses

    if detail:
        np.testing.assert_equal(dataclasses.asdict(a), dataclasses.asdict(b))
    else:
        np.testing.assert_equal([a.verdict, a.measured, a.ci_low, a.ci_high], [b.verdict, b.measured, b.ci_low, b.ci_high])


def _claim(cid=CID):
    return {uc.claim: uc for uc in S.USER_CLAIMS}[cid]


def test_paper_rows_unchanged_with_user_learners():
    for T in (60, 150):  # 150 > printed_T_max: without alg2_printed
        base = S.simulate_minority(P, T, range(3), 7)
        both = S.simulate_minority(P, T, range(3), 7, learners={"mine": BallOGD, "generic": generic_paper})
        paper = both[~both.alg.isin(["mine", "generic"])].reset_index(drop=True)
        pd.testing.assert_frame_equal(base, paper)
        for name in ("mine", "generic"):
            assert set(both[both.alg == name].placement) == {"none", "random", "adversarial", "uniform"}


def test_user_claim_run_gives_the_pipelines_alg2_rows():
    """The check runs only the paper's alg2 beside the user's learner: its rows equal the full run's."""
    full = S.simulate_minority(P, 60, range(3), 7)
    run = _claim().simulate(P, 60, range(3), 7, {"mine": BallOGD})
    assert set(run.alg) == {"alg2", "frozen", "mine"}
    pd.testing.assert_frame_equal(full[full.alg == "alg2"].reset_index(drop=True),
                                  run[run.alg == "alg2"].reset_index(drop=True))


def test_generic_path_equals_fast_path():
    """The paper's direction learner built by make(R, d, r) through UserDirection (one learner of
    V*R rows) plays exactly what the built-in alg2 plays (batch (V, R)): same rows, same verdicts."""
    run = _claim().simulate(P, 100, range(4), 3, {"generic": generic_paper})
    fast = run[run.alg == "alg2"].reset_index(drop=True)
    gen = run[run.alg == "generic"].reset_index(drop=True).assign(alg="alg2")
    pd.testing.assert_frame_equal(fast, gen)
    runs = pd.concat([_claim().simulate(P, T, range(4), 3, {"generic": generic_paper}) for T in P["T"]],
                     ignore_index=True)
    for cid in (CID, CID + "-adversarial"):
        a = _claim(cid).decide(runs, P, TOL, 0.05, lambda c: np.random.default_rng(0), "alg2")
        b = _claim(cid).decide(runs, P, TOL, 0.05, lambda c: np.random.default_rng(0), "generic")
        for ra, rb in zip(a, b):
            _same(ra, rb)


def test_user_decision_for_the_paper_equals_evaluate():
    from dpregret.papers.vdh19 import claims as C

    reps = range(4)
    tables = {"minority": pd.concat([S.simulate_minority(P, T, reps, 1) for T in P["T"]], ignore_index=True),
              "minority_eps": S.simulate_minority_eps(P, reps, 1), "minority_n": S.simulate_minority_n(P, reps, 1),
              "unorm": S.simulate_unorm(P, reps, 1),
              "sparse": pd.concat([S.simulate_sparse(P, T, reps, 1) for T in P["T_sparse"]], ignore_index=True)}
    out = C.evaluate(tables, P, TOL, 0.05, lambda cid: np.random.default_rng(0))
    for cid, placement in ((CID, "random"), (CID + "-adversarial", "adversarial")):
        mine = C.minority_cost_claim(tables["minority"], placement, TOL, 0.05, lambda c: np.random.default_rng(0), cid)
        res, ctl = out[cid]
        assert res.detail.pop("nonlearner")["detail"]["learner"] == "frozen"  # evaluate's own non-learner: the frozen learner's gate
        assert mine[0].detail["learning_gate"]["detail"]["learner"] == "alg2"
        for ra, rb in zip((res, ctl), mine):
            _same(ra, rb, detail=True)
        # and on the user check's reduced run (alg2 only): the same verdict and numbers
        runs = pd.concat([_claim(cid).simulate(P, T, reps, 1, {}) for T in P["T"]], ignore_index=True)
        red = _claim(cid).decide(runs, P, TOL, 0.05, lambda c: np.random.default_rng(0), "alg2")
        for ra, rb in zip(out[cid], red):
            _same(ra, rb)


def test_a_small_user_learner_gets_a_verdict_with_its_control_caught():
    """On the default preset's T grid (100 .. 10^4: the smoke grid spans 1.5 decades, too short
    for any rate), 8 replicates: projected OGD on the ball gets a verdict; its control (every
    provider at rate_eps) is caught, as the paper's is."""
    import dpregret

    from scipy import stats

    from dpregret.api import decide_learners, preset_params
    from dpregret.papers.vdh19.claims import minority_cost

    c = dpregret.check(BallOGD, CID, name="ball_ogd", preset="default", replicates=8)
    v = c.verdicts.set_index("learner")
    assert list(v.index) == [_claim().paper_label, "ball_ogd"]
    assert (v.control_verdict == "FAIL").all()
    assert v.loc["ball_ogd", "verdict"] == "PASS"
    # each verdict with the declared margin, its interval clear of 0 + 0.25 by its half-width (measured:
    # ball_ogd -0.16 [-0.25, -0.04], the paper's -0.21 [-0.36, -0.05], controls 1.06 [1.05, 1.07] and 0.90 [0.88, 0.92])
    uc = _claim()
    run, p = preset_params(uc.scenario, "default", None, None, 8)
    for _, (_, ctl, _, res) in decide_learners(uc, c.runs, p, run, "ball_ogd").items():
        for r, verdict in ((res, "PASS"), (ctl, "FAIL")):
            thr, half = r.bound + r.tolerance, (r.ci_high - r.ci_low) / 2
            assert r.verdict == verdict and (r.ci_low - thr if verdict == "FAIL" else thr - r.ci_high) >= half, r
    summ = v.loc["ball_ogd", "detail"]["section_3_4"]["ball_ogd"]
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
    from dpregret.claims.core import record
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


def test_bad_user_learners_are_named():
    import dpregret

    class Outside(BallOGD):
        def predict(self):
            return np.full_like(self.w, 1.0)  # ||z|| = sqrt(d) > 1

    with pytest.raises(ValueError, match="unit ball"):
        _claim().simulate(P, 30, range(2), 1, {"out": Outside})
    with pytest.raises(ValueError, match="taken"):
        S.simulate_minority(P, 30, range(2), 1, learners={"alg3": BallOGD})
    with pytest.raises(ValueError, match="taken"):
        dpregret.check(BallOGD, CID, name="alg2")
