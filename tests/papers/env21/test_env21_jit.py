"""The compiled PRIVATEBANDIT rounds (papers/env21/jit.py) against the numpy loop:
same draws, same numbers to 1e-9, same oracle-call count, same monitor feed."""
import numpy as np
import pytest

from dpregret.core.environments.bco import stationary_distance, switching_distance
from dpregret.core.environments.polytopes import L1Ball, Simplex, SpanningTreePolytope, two_call_domain
from dpregret.papers.env21.learners import private_bandit
from dpregret.core.rng import ReplicateStreams, RowStreams, stable_key
from dpregret.papers.env21.run import RoundMeter


def _pair(make_dom, T, *, switching=False, V=1, noise=True, generator=False, **kw):
    runs = []
    for engine in ("numpy", "jit"):
        dom = make_dom()
        losses = switching_distance(dom, T, phases=7) if switching else stationary_distance(dom, T)
        if generator:
            u, nz, extra = np.random.default_rng(5), np.random.default_rng(7), {"R": 3}
        else:
            u = ReplicateStreams(3, stable_key("jit-test", "u"), range(4))
            u = RowStreams(u, V) if V > 1 else u
            nz, extra = ReplicateStreams(3, stable_key("jit-test", "z"), range(4 * V)), {}
        if noise:
            extra.update(noise="laplace", eps=40.0, noise_rng=nz)
        run = private_bandit(dom, losses, u, engine=engine, record_rounds=True, **extra, **kw)
        runs.append((run, dom))
    return runs


def _close(a, b, scale=None):
    scale = max(1.0, float(np.abs(a).max())) if scale is None else scale
    assert np.max(np.abs(a - b)) <= 1e-9 * scale


@pytest.mark.parametrize("make_dom", [lambda: Simplex(5), lambda: Simplex(2), lambda: L1Ball(4, rho=2.0),
                                      lambda: SpanningTreePolytope.complete(4, method="prim"),
                                      lambda: SpanningTreePolytope(5, [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)],
                                                                   method="prim")],
                         ids=["simplex5", "simplex2", "l1ball4", "tree-K4", "tree-bowtie"])
@pytest.mark.parametrize("case", [dict(), dict(switching=True, V=3, checkpoints=[1, 17, 500, 1000]),
                                  dict(noise=False, printed_line14_sign=True), dict(generator=True),
                                  dict(shrink=True, zeta=0.05)],
                         ids=["laplace", "switching-variants-checkpoints", "printed-sign", "generator", "shrink"])
def test_jit_matches_numpy(make_dom, case):
    (a, da), (b, db) = _pair(make_dom, 1000, **case)
    assert a.regret.shape == b.regret.shape and np.all(a.checkpoints == b.checkpoints)
    _close(a.loss, b.loss)
    _close(a.regret, b.regret, scale=max(1.0, float(np.abs(a.loss).max())))
    _close(a.plays, b.plays)
    _close(a.round_grads, b.round_grads)
    _close(a.releases, b.releases)
    assert da.oracle_calls == db.oracle_calls == 1000
    assert da.oracle_rows == db.oracle_rows


def test_jit_monitor_and_queries_match():
    meters, queries = [], []
    for engine in ("numpy", "jit"):
        dom = Simplex(4)
        meter = RoundMeter(dom)
        u = RowStreams(ReplicateStreams(9, stable_key("jit-test", "m"), range(3)), 2)
        run = private_bandit(dom, stationary_distance(dom, 400), u, engine=engine, monitor=meter, record_queries=True)
        meters.append(meter.result())
        queries.append(run.queries)
    _close(queries[0], queries[1])
    for k in ("c2_max", "c2_mean", "c5_max", "c5_mean"):
        _close(meters[0][k], meters[1][k])


def test_jit_engine_refuses_what_it_does_not_compile():
    dom = SpanningTreePolytope.complete(4, method="scipy")  # the compiled LMO is Prim's
    u = ReplicateStreams(1, stable_key("jit-test", "tree"), range(2))
    with pytest.raises(ValueError, match="engine='jit' is not available"):
        private_bandit(dom, stationary_distance(dom, 50), u, engine="jit")
    class OwnOracle(Simplex):  # a subclass may change the oracle: numpy only (the two-call control is compiled)
        def lmo(self, c):
            return Simplex.lmo(self, c)
    own = OwnOracle(3)
    with pytest.raises(ValueError, match="engine='jit' is not available"):
        private_bandit(own, stationary_distance(own, 50), u, engine="jit")
    two = two_call_domain(Simplex(3))  # the two-call control: compiled, the kernel answers twice and counts both
    assert private_bandit(two, stationary_distance(two, 50), u, engine="jit").oracle_calls == 100
    sx = Simplex(3)
    with pytest.raises(ValueError, match="engine must be one of"):
        private_bandit(sx, stationary_distance(sx, 50), u, engine="cuda")
