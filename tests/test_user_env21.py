"""Your own learner beside Ene, Nguyen, Vladu's (papers.env21.user): an ``oco``
learner inside PRIVATEBANDIT's privacy mechanism gets Theorem 1.1's / Lemma 5.2's / Lemma 5.5's
rate in T with its slow-zeta control on the paper's draws; the paper's rows do not change; the
paper's learner gives the fast path's numbers through the generic path and the pipeline's
verdicts through the user claim."""
import math

import numpy as np
import pandas as pd
import pytest

import dpregret
from dpregret.api import preset_params
from dpregret.environments.polytopes import make_domain
from dpregret.rng import RowStreams
from dpregret.papers.env21 import scenario as S
from dpregret.papers.env21 import user as U
from dpregret.papers.env21.run import env21_streams


class LazyProjection:
    """A small user learner: dual averaging, x = Proj_K(-eta * sum of the fed vectors),
    eta = D / (G T_round^(1/2)) (projections, no LMO)."""

    def __init__(self, R, domain, rounds, G):
        self.dom, self.eta = domain, domain.D / (G * math.sqrt(rounds))
        self.S = np.zeros((R, domain.n))

    def predict(self):
        return self.dom.project(-self.eta * self.S)

    def update(self, g):
        self.S = self.S + g


class Vertex:
    """Plays the vertex e_2 whatever it is fed: linear regret (the losses' centre is halfway
    between the domain's centre and e_1, at distance 0.92 from e_2)."""

    def __init__(self, R, domain, rounds, G):
        self.x = np.zeros((R, domain.n))
        self.x[:, 1] = 1.0

    def predict(self):
        return self.x

    def update(self, g):
        pass


@pytest.fixture(scope="module")
def smoke():
    run, p = preset_params("env21", "smoke", None, None, None)
    return run, p


def test_user_rows_leave_the_papers_rows_unchanged(smoke):
    run, p = smoke
    for point in (("simplex", 100), "simplex:316"):
        base = S.simulate_rates(p, point, range(3), run["seed"])
        both = S.simulate_rates(p, point, range(3), run["seed"], learners={"mine": LazyProjection})
        mine = both.alg.str.startswith("mine")
        pd.testing.assert_frame_equal(base.drop(columns="wall_time"),
                                      both[~mine].reset_index(drop=True).drop(columns="wall_time"))
        assert set(both[mine].alg) == {"mine", "mine@laplace_slow_zeta", "mine@gaussian", "mine@gaussian_slow_zeta"}
        assert (both[mine].projections > 0).all() and (both[mine].oracle_calls == 0).all()
    # the spanning-tree rows carry no user rows
    tree = S.simulate_rates(p, ("spanning_tree", 100), range(2), run["seed"], learners={"mine": LazyProjection})
    assert not tree.alg.str.startswith("mine").any()


def _initial_release(seed, reps, T, scales, kinds, d):
    """L~_0, the tree's release before the first round, from fresh streams of the run's keys."""
    from dpregret.papers.env21.learners import noise_draw, batch_schedule
    from dpregret.tree import TreeBasedAgg

    if scales is None:
        return None
    nz = RowStreams(env21_streams(seed, reps, "rates", "simplex", T, "noise"), len(scales), scales, kinds)
    return TreeBasedAgg(batch_schedule(T)[1], d, noise_draw("laplace", 1.0, nz, nz.R, d), nz.R).released


@pytest.mark.parametrize("T", [100, 1000])
def test_paper_learner_through_the_generic_path_gives_the_fast_paths_numbers(smoke, T):
    """Algorithm 1's learner (FrankWolfeOCO) inside private_bandit_around reproduces the fast
    path's (compiled) rows: noise-free, Laplace + Gaussian, and the slow-zeta controls, to 1e-9
    relative.  The generic path does not hand the learner L~_0 (the tree's noise-only release
    before the first round, which the fast path's first Frank-Wolfe steps use); the test gives
    it to FrankWolfeOCO out of band (s0), from fresh streams of the same keys."""
    from dpregret.papers.env21.learners import algorithm1_parameters, batch_schedule

    run, p = smoke
    reps = range(3)
    paper = S.simulate_rates(p, ("simplex", T), reps, run["seed"])
    dom = make_domain("simplex", p["n_simplex"])
    d, L = dom.dim, float(p["L"])
    lam, sig = paper[paper.alg == "laplace"].noise_scale.iloc[0], paper[paper.alg == "gaussian"].noise_scale.iloc[0]
    zp = paper[paper.alg == "laplace_slow_zeta"].zeta.iloc[0]
    eta = algorithm1_parameters(T, d, L, dom.D)[1]
    b = batch_schedule(T)[0]
    for algs, zeta, scales, kinds in ((("none",), None, None, None),
                                      (("laplace", "gaussian"), None, [lam, sig], ["laplace", "gaussian"]),
                                      (("laplace_slow_zeta", "gaussian_slow_zeta"), zp, [lam, sig],
                                       ["laplace", "gaussian"])):
        V = len(algs)
        u = RowStreams(env21_streams(run["seed"], reps, "rates", "simplex", T, "u"), V)
        nz = None if scales is None else RowStreams(env21_streams(run["seed"], reps, "rates", "simplex", T, "noise"),
                                                    V, scales, kinds)
        L0 = _initial_release(run["seed"], reps, T, scales, kinds, d)
        s0 = None if L0 is None else L0 @ dom.Q.T

        def make(R, domain, rounds, G):
            return U.FrankWolfeOCO(domain, R, eta, b, s0=s0)
        out = U.private_bandit_around(dom, S.rate_losses(dom, T, L=L), make, u, zeta=zeta, noise_rng=nz)
        want = np.concatenate([paper[paper.alg == a].sort_values("replicate").regret.to_numpy() for a in algs])
        np.testing.assert_allclose(out["regret"], want, rtol=1e-9, atol=1e-9 * T)
        assert out["oracle_calls"] == batch_schedule(T)[1] * b  # one LMO call per step (full last round)


def test_paper_learner_gets_the_pipelines_verdicts(smoke):
    """The user claims' decide() for the paper's learner gives evaluate()'s numbers."""
    from dpregret.papers.env21 import claims as C
    from dpregret.rng import stable_key

    run, p = smoke
    reps = range(int(p["replicates"]))
    tables = {e: pd.concat([S.simulate(e, p, pt, reps, run["seed"]) for pt in pts], ignore_index=True)
              for e, pts in S.points(p).items()}

    def rng_for(cid):
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(run["seed"], spawn_key=stable_key("t", cid))))
    alpha = 1 - run["ci_level"]
    ev = C.evaluate(tables, p, run["tolerances"], alpha, rng_for)
    for uc in S.USER_CLAIMS:
        res, ctl = uc.decide(tables["rates"], p, run["tolerances"], alpha, rng_for, uc.paper_name)
        er, ec = ev[uc.claim][:2]
        for a, b in ((res, er), (ctl, ec)):
            assert (a.verdict, a.measured, a.ci_low, a.ci_high, a.tolerance) == \
                (b.verdict, b.measured, b.ci_low, b.ci_high, b.tolerance)
        assert res.detail["secondary_control"] == er.detail["secondary_control"]


def _clear(res, verdict, k=1.0):
    """The declared margin of a stochastic verdict: ``res`` has ``verdict`` and its interval clears
    the threshold (bound + tolerance) on that side by at least ``k`` half-widths."""
    thr, half = res.bound + res.tolerance, (res.ci_high - res.ci_low) / 2
    gap = res.ci_low - thr if verdict == "FAIL" else thr - res.ci_high
    assert res.verdict == verdict and gap >= k * half, f"{verdict}: [{res.ci_low:.3f}, {res.ci_high:.3f}] vs {thr} {res}"


def _decided(out, claim, name, preset="smoke"):
    """The check's own results for both learners (rule applied, check, control), recomputed from its runs."""
    from dpregret.api import decide_learners
    from dpregret.scenarios.contract import user_claims

    uc = user_claims()[claim]
    run, p = preset_params(uc.scenario, preset, None, None, None)
    return {k: (rec, res, ctl) for k, (rec, ctl, _, res) in decide_learners(uc, out.runs, p, run, name).items()}


def _ratio_interval(runs, alg):
    """The 95% t-interval of alg's regret over the frozen centre's, replicate by replicate (the same
    draws), at the largest T."""
    from scipy import stats

    last = runs[runs["T"] == runs["T"].max()]
    x = (last[last.alg == alg].sort_values("replicate").regret.to_numpy()
         / last[last.alg == U.REFERENCE].sort_values("replicate").regret.to_numpy())
    h = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    return x.mean() - h, x.mean() + h


def test_a_small_user_learner_gets_a_verdict_with_its_control_caught():
    """Default preset (on the instance with the loss's minimum at a vertex the smoke grid, T from
    100, leaves the slow-zeta near miss uncaught: 0.912 [0.894, 0.927] against 0.9 for the paper's
    learner); each verdict with the declared margin (measured: lazy 0.758 [0.750, 0.766] and the
    paper's 0.752 [0.747, 0.757] against 0.9, their controls 0.915 [0.905, 0.925] and 0.913 [0.908,
    0.918]: lazy's control clears the threshold by 0.57 half-widths, so its margin is declared at 0.5)."""
    out = dpregret.check(LazyProjection, "ENV-thm1.1-rate-T", name="lazy", preset="default")
    v = out.verdicts.set_index("learner")
    assert v.loc["lazy", "verdict"] == "PASS" and bool(v.loc["lazy", "control_caught"])
    assert v.loc["lazy", "evidence"] == "near miss caught"
    assert v.loc["paper (Algorithm 1, Frank-Wolfe)", "verdict"] == "PASS"
    for learner, (rec, res, ctl) in _decided(out, "ENV-thm1.1-rate-T", "lazy", "default").items():
        _clear(res, "PASS")
        _clear(ctl, "FAIL", k=0.5 if learner == "lazy" else 1.0)
    assert {"lazy", "lazy@gaussian", "lazy@laplace_slow_zeta", "lazy@gaussian_slow_zeta"} <= set(out.runs.alg)
    comp = v.loc["lazy", "detail"]["components"]
    assert set(comp) == {"laplace", "gaussian"}


def test_a_learner_with_linear_regret_fails_and_the_reference_is_reported():
    """A learner stuck far from the optimum FAILs, as does the one stuck at the centre (the reference
    FrozenCentre: the loss's minimum is at a vertex, so its regret is linear); each learner's regret
    over the reference's is reported per T (detail.regret_over_frozen_centre)."""
    out = dpregret.check(Vertex, "ENV-lemma5.2-rate-T", name="vertex")
    v = out.verdicts.set_index("learner")
    assert v.loc["vertex", "verdict"] == "FAIL"
    _clear(_decided(out, "ENV-lemma5.2-rate-T", "vertex")["vertex"][1], "FAIL")  # 0.977 [0.974, 0.980] against 0.9
    ratio = v.loc["vertex", "detail"]["regret_over_frozen_centre"]
    paper = v.loc["paper (Algorithm 1, Frank-Wolfe)", "detail"]["regret_over_frozen_centre"]
    assert len(ratio) == len(paper) == 5  # reported per T (ratios of the mean regrets)
    # far worse than not moving from the centre, the paper's better, each clear of its threshold by the
    # interval's half-width (replicate by replicate at the largest T: 1.545 [1.545, 1.551] and 0.39 [0.36, 0.42])
    lo, hi = _ratio_interval(out.runs, "vertex")
    assert lo - 1.5 >= (hi - lo) / 2
    lo, hi = _ratio_interval(out.runs, "laplace")
    assert 1.0 - hi >= (hi - lo) / 2


def test_bad_learners_are_named(smoke):
    run, p = smoke

    class Outside(Vertex):
        def predict(self):
            return 2.0 * self.x

    with pytest.raises(ValueError, match="outside the domain"):
        S.simulate_rates(p, ("simplex", 100), range(2), run["seed"], learners={"out": Outside})
    with pytest.raises(ValueError, match="taken"):
        dpregret.check(LazyProjection, "ENV-thm1.1-rate-T", name="laplace")
    with pytest.raises(ValueError, match="taken"):
        dpregret.check(LazyProjection, "ENV-thm1.1-rate-T", name="private_bandit")
