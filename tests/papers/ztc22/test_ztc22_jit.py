"""The compiled minimax path of o2b.run (papers.ztc22.o2b_jit) gives the reference loop's numbers, bit for bit."""
import math

import numpy as np
import pytest

from dpregret.core.environments.stochastic import LinearFamily, TiledStreams
from dpregret.papers.ztc22 import bounds as o2b_bounds
from dpregret.papers.ztc22 import o2b
from dpregret.core.learners.pairwise_jit import pairwise_sum
from dpregret.core.learners.oco import ProjectedOGD
from dpregret.core.rng import stable_key


def _run(d, conversion, sensitivity, factor, T, cps, reps=range(3, 6), cg=(0.01, 0.3)):
    prob = LinearFamily(d, list(cg), len(reps))
    rho = math.inf if conversion == "none" else 0.3
    learner = ProjectedOGD(len(reps) * len(cg), d, prob.r, lambda t: o2b_bounds.thm4_gsq(t, T, 1, rho, prob))
    run = o2b.run(prob, learner, T, k=1, rho=rho, src=TiledStreams(7, stable_key("t", "data", d), reps, len(cg)),
                  noise_src=TiledStreams(7, stable_key("t", "noise", d), reps, len(cg)), checkpoints=cps,
                  conversion=conversion, sensitivity=sensitivity, noise_factor=factor)
    return run, learner


@pytest.mark.parametrize("d,conversion,sensitivity,factor,T,cps", [
    (1, "tree", "eq6", 1.0, 77, [77]), (8, "tree", "eq6", 2.5, 130, [1, 64, 100, 130]),
    (13, "none", "eq6", 1.0, 90, [45, 90]), (5, "tree", "H_only", 1.0, 40, [40]), (3, "tree", "G_only", 0.5, 50, [20]),
    (150, "tree", "eq6", 1.0, 33, [33]), (4, "naive", "eq6", 1.0, 90, [30, 90]), (9, "naive", "eq6", 2.0, 41, [41]),
])
def test_fast_path_equals_reference_loop(monkeypatch, d, conversion, sensitivity, factor, T, cps):
    assert o2b.linear_fast_path(LinearFamily(d, [0.1], 1), ProjectedOGD(1, d, 1.0, lambda t: 1.0), conversion, None,
                                False, False, TiledStreams(1, (1,), [0], 1), TiledStreams(1, (2,), [0], 1))
    fast, lf = _run(d, conversion, sensitivity, factor, T, cps)
    monkeypatch.setattr(o2b, "linear_fast_path", lambda *a, **k: False)
    ref, lr = _run(d, conversion, sensitivity, factor, T, cps)
    for name in ("subopt", "regret", "subopt_w"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(ref, name))
    np.testing.assert_array_equal(lf.w, lr.w)  # the learner ends in the same state
    assert (lf.t, lf._acc) == (lr.t, lr._acc)


def test_pairwise_sum_rounds_as_numpy():
    rng = np.random.default_rng(0)
    for n in [1, 2, 7, 8, 9, 16, 100, 127, 128, 129, 130, 250, 256, 300, 1000, 2049]:
        a = rng.standard_normal(n) * np.exp(5 * rng.standard_normal(n))
        assert pairwise_sum(a, 0, n) == np.sum(a)


def test_blocked_normal_serves_the_streams_draws_and_stops_where_they_stop():
    from dpregret.core.rng import ReplicateStreams

    a, b = ReplicateStreams(5, (9,), range(3)), ReplicateStreams(5, (9,), range(3))
    bn = o2b.BlockedNormal(b, 4, block=7, limit=20)
    for _ in range(20):
        np.testing.assert_array_equal(bn.standard_normal((1, 4)), a.normal((1, 4)))
    assert a.consumed == b.consumed
    bn = o2b.BlockedNormal(b, 4, block=3, limit=5)
    for _ in range(5):
        np.testing.assert_array_equal(bn.standard_normal((4,)), a.normal((4,)))
    assert a.consumed == b.consumed


@pytest.mark.parametrize("d,T,cps,cg,rho,shift", [(4, 300, [300], (0.95,), 1.0, 0.0),
                                                   (3, 130, [1, 64, 130], (0.2, 0.9), 0.5, 0.0),
                                                   (1, 77, [77], (0.5,), 2.0, 0.0),
                                                   (9, 40, [20, 40], (0.95,), 1.0, 0.0),
                                                   (4, 300, [150, 300], (0.95,), 1.0, 1.75),
                                                   (3, 130, [130], (0.2, 0.9), 0.5, -0.5),
                                                   (4, 200, [200], (0.95,), 1.0, "play-only")])
def test_parameter_free_fast_path_equals_reference_loop(monkeypatch, d, T, cps, cg, rho, shift):
    """Theorem 11's regularised losses around the parameter-free learner (papers.ztc22.o2b_jit.linear_pf_block),
    from the origin and from a shifted start x0 = shift e_1 (Section 5's shifted coordinates)."""
    from dpregret.core.learners.oco import ParameterFree

    def go():
        reps = range(2, 5)
        prob = LinearFamily(d, list(cg), len(reps), r=2.0)
        pf = o2b.pf_params(prob, T, rho, 1.0, 0.05)
        pf["ghat_controls"] = {"C_half": o2b.pf_params(prob, T, rho, 0.5, 0.05)["ghat"]}
        x0 = None if shift == 0.0 else (1.5 if shift == "play-only" else shift) * np.eye(d)[0]
        learner = ParameterFree(len(reps) * len(cg), d, prob.r, pf["ghat"], x0=x0)
        if shift == "play-only":  # the twin: the play shifted, the regulariser left at the origin
            learner.reg_centre = None
        run = o2b.run(prob, learner, T, k=3, rho=rho, src=TiledStreams(7, stable_key("pf", "data", d), reps, len(cg)),
                      noise_src=TiledStreams(7, stable_key("pf", "noise", d), reps, len(cg)), checkpoints=cps,
                      reg="pf", pf=pf)
        return run, learner

    fast, lf = go()
    monkeypatch.setattr(o2b, "linear_pf_fast_path", lambda *a, **k: False)
    ref, lr = go()
    for name in ("subopt", "regret", "subopt_w"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(ref, name))
    for name in ("gbar_ratio", "gbar_ratio_C_half"):
        np.testing.assert_array_equal(fast.extra[name], ref.extra[name])
    for name in ("wealth", "coin_sum", "z", "_dir_acc", "w"):
        np.testing.assert_array_equal(getattr(lf, name), getattr(lr, name))
    assert lf.t == lr.t == T


def test_run_shared_gives_each_runs_numbers():
    """o2b.run_shared: runs on the same streams in lockstep (each block drawn once; a run on the first replicates
    reads the block's first rows) give what each gives on its own, in the calls' order; regret=False only leaves
    the regret out."""
    d, T, cg = 3, 70, (0.05, 0.4)

    def calls():
        out = []
        for reps, conv, factor, regret in ((range(4), "tree", 1.0, True), (range(4), "none", 1.0, False),
                                           (range(2), "tree", 2.0, False), (range(4), "naive", 1.0, True),
                                           (range(4), "fresh", 1.0, True)):
            prob = LinearFamily(d, list(cg), len(reps))
            rho = math.inf if conv == "none" else 0.3
            learner = ProjectedOGD(len(reps) * len(cg), d, prob.r,
                                   lambda t, rho=rho, prob=prob: o2b_bounds.thm4_gsq(t, T, 1, rho, prob))
            out.append(dict(problem=prob, learner=learner, T=T, k=1, rho=rho, checkpoints=[30, T], conversion=conv,
                            src=TiledStreams(7, stable_key("s", "data", d), reps, len(cg)),
                            noise_src=TiledStreams(7, stable_key("s", "noise", d), reps, len(cg)),
                            noise_factor=factor, regret=regret))
        return out

    shared = o2b.run_shared(calls())
    for kw, got in zip(calls(), shared):
        want = o2b.run(**kw)
        for name in ("subopt", "subopt_w") + (("regret",) if kw["regret"] else ()):
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name))
        if not kw["regret"]:
            assert np.isnan(got.regret).all()


def test_run_shared_parameter_free_runs():
    """o2b.run_shared on Theorem 11's runs (the compiled pf path): the same numbers as each run on its own, with
    pf['cache'] (each function's values kept for the next run of the same T) or without."""
    from dpregret.core.learners.oco import ParameterFree

    d, T = 3, 90

    def calls(cache):
        prob = LinearFamily(d, [0.9], 3, r=2.0)
        pf = o2b.pf_params(prob, T, 1.0, 1.0, 0.05)
        out = []
        for ghat in (lambda t: 50.0, pf["ghat"]):
            run_pf = {**pf, "ghat": ghat, "ghat_controls": {"thm11": pf["ghat"]}, **cache}
            out.append(dict(problem=prob, learner=ParameterFree(3, d, prob.r, ghat), T=T, k=3, rho=1.0,
                            src=TiledStreams(7, stable_key("pfs", "data", d), range(3), 1),
                            noise_src=TiledStreams(7, stable_key("pfs", "noise", d), range(3), 1),
                            checkpoints=[40, T], reg="pf", pf=run_pf))
        return out

    want = [o2b.run(**kw) for kw in calls({})]
    for got, ref in zip(o2b.run_shared(calls({"cache": {}})), want):
        for name in ("subopt", "regret", "subopt_w"):
            np.testing.assert_array_equal(getattr(got, name), getattr(ref, name))
        for name in ("gbar_ratio", "gbar_ratio_thm11"):
            np.testing.assert_array_equal(got.extra[name], ref.extra[name])


def test_blocked_location_sampler_serves_the_streams_samples():
    """o2b.sampler on a Location: the samples Location.sample draws, in order, past its limit too."""
    from dpregret.core.environments.stochastic import Location
    from dpregret.core.rng import ReplicateStreams

    prob = Location(5, 0.3)
    a, b = ReplicateStreams(3, (4,), range(3)), ReplicateStreams(3, (4,), range(3))
    sample = o2b.sampler(prob, b, 3, limit=7)
    for _ in range(10):
        np.testing.assert_array_equal(sample()[0], prob.sample(a, 3)[0])
    assert a.consumed == b.consumed
