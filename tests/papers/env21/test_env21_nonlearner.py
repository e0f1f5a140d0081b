"""Ene-Nguyen-Vladu: the instance where the theorems bite (the loss's minimum at a vertex) and the
non-learner control (the learner frozen at the centre, on the same draws, by the same check).

Margins (tests/margins.py): verdicts are asserted with their intervals clear of the threshold by
at least one half-width; the numbers in the comments were measured at the seeds used here."""
import numpy as np
import pandas as pd
import pytest

from dpregret.verdict.core import Result, check_rate
from dpregret.papers.env21.rates import gap_rate, learning_gate
from dpregret.core.environments.polytopes import make_domain
from dpregret.papers.env21.learners import batch_schedule, private_bandit
from dpregret.core.rng import RowStreams
from dpregret.papers.env21 import scenario as S
from dpregret.papers.env21.learners import FrozenCentre
from dpregret.papers.env21.run import env21_streams, private_bandit_around, run_variants
from margins import assert_verdict

DEFAULT_T = [300, 1000, 3000, 10000, 30000]  # config presets.default.env21.T (the simplex grid)
DEFAULT_T_TREE = [100, 316, 1000, 3162, 10000]


@pytest.mark.parametrize("name,n", [("simplex", 5), ("spanning_tree", 4)])
def test_rate_losses_have_their_minimum_at_a_vertex(name, n):
    dom = make_domain(name, n)
    ls = S.rate_losses(dom, 500, L=2.0)
    V = dom.vertices()
    v1 = V[0]
    assert ls.best_fixed([1, 500]) == pytest.approx([0.0, 0.0], abs=1e-12)  # the comparator v_1 pays 0
    np.testing.assert_allclose(ls.value(7, v1[None]), [0.0], atol=1e-15)
    c = dom.centre[None]
    np.testing.assert_allclose(ls.value(7, c), 2.0 * np.linalg.norm(dom.centre - v1), rtol=1e-15)
    # |f_t| <= L D on K (the paper's convention): the largest value is at a vertex
    assert ls.value(1, V).max() <= 2.0 * dom.D * (1 + 1e-12)


def test_vertex_switching_schedule_and_comparator():
    dom = make_domain("simplex", 5)
    T = 1000
    ls = S.vertex_switching(dom, T, L=1.5)
    b = batch_schedule(T)[0]
    rounds = np.arange(T) // b
    np.testing.assert_array_equal(ls.schedule, (rounds % S.SWITCH_EVERY == S.SWITCH_EVERY - 1).astype(int))
    v1, v2 = ls.centres
    assert np.array_equal(v1, dom.vertices()[0]) and np.linalg.norm(v1 - v2) == pytest.approx(dom.D)
    # the comparator is v_1 (weight 2/3 > 1/3): it pays L ||v_1 - v_2|| at each step of the v_2 rounds
    k = int(ls.schedule.sum())
    assert k < T / 2
    assert ls.best_fixed([T])[0] == pytest.approx(1.5 * np.sqrt(2.0) * k, rel=1e-9)


@pytest.mark.parametrize("engine", ["numpy", "jit"])
@pytest.mark.parametrize("losses", ["rate", "switching"])
def test_nonlearner_rows_are_the_frozen_learner_through_the_door(engine, losses):
    """private_bandit(..., nonlearner=True) gives the regret of FrozenCentre run through
    private_bandit_around on the same directions (to rounding), and leaves the run unchanged."""
    dom = make_domain("simplex", 5)
    T, reps, key = 1000, range(3), ("unit", "nl")
    make = S.rate_losses if losses == "rate" else S.vertex_switching
    variants = [("none", "none", 0.0), ("laplace", "laplace", 5.0)]
    run = run_variants(dom, make(dom, T), variants, reps, 7, key, nonlearner=True, engine=engine)
    plain = run_variants(dom, make(dom, T), variants, reps, 7, key, engine=engine)
    assert np.array_equal(run.regret, plain.regret) and run.oracle_calls == plain.oracle_calls
    door = private_bandit_around(dom, make(dom, T), FrozenCentre, RowStreams(env21_streams(7, reps, *key, "u"), 1))
    np.testing.assert_allclose(run.nonlearner_regret[:3], door["regret"], rtol=1e-9)
    np.testing.assert_allclose(run.nonlearner_regret[3:], door["regret"], rtol=1e-9)  # every variant's rows
    with pytest.raises(ValueError, match="nonlearner"):
        private_bandit(dom, make(dom, T), env21_streams(7, reps, *key, "u"), nonlearner=True, checkpoints=[10, T])


def _rate(runs, alg, tol):
    xs = np.array(sorted(runs), dtype=float)
    return check_rate(xs, [runs[int(T)][alg] for T in xs], 0.75, tol, 0.05, np.random.default_rng(0))


@pytest.mark.parametrize("domain,grid,tol", [("simplex", DEFAULT_T, 0.15), ("spanning_tree", DEFAULT_T_TREE, 0.10)])
def test_the_instance_bites_on_the_default_grid(domain, grid, tol):
    """On the default T grid the learner frozen at the centre FAILs the T-rate check -- at the
    largest tolerance of its claims (0.15 on the simplex: Lemmas 5.2, 5.5, Theorem 1.1; 0.10 on
    the tree) -- and Algorithm 1 (no noise) PASSes at the smallest (0.10).  Measured (seed 12345,
    4 replicates): simplex frozen 0.965 [0.961, 0.968] vs 0.90, learner 0.751 [0.745, 0.757] vs 0.85;
    tree frozen 0.904 [0.901, 0.907] vs 0.85, learner 0.740 [0.730, 0.748]."""
    n = 5 if domain == "simplex" else 4
    runs = {}
    for T in grid:
        dom = make_domain(domain, n)
        run = run_variants(dom, S.rate_losses(dom, T), [("none", "none", 0.0)], range(4), 12345, ("rates", domain, T),
                           nonlearner=True)
        runs[T] = {"none": run.regret[:, -1], "frozen": run.nonlearner_regret}
    assert_verdict(_rate(runs, "frozen", tol), "FAIL", what=f"{domain}: frozen centre")
    assert_verdict(_rate(runs, "none", 0.10), "PASS", what=f"{domain}: Algorithm 1")


def test_the_switching_instance_bites_on_the_default_grid():
    """Switching between two vertices: the frozen centre FAILs the switching claim's check (tolerance
    0.10; seed 12345, 4 replicates: 0.917 [0.911, 0.924]), Algorithm 1 PASSes (0.725 [0.712, 0.738])."""
    runs = {}
    for T in DEFAULT_T:
        dom = make_domain("simplex", 5)
        run = run_variants(dom, S.vertex_switching(dom, T), [("none", "none", 0.0)], range(4), 12345,
                           ("rates", "simplex", T),
                           nonlearner=True)
        runs[T] = {"none": run.regret[:, -1], "frozen": run.nonlearner_regret}
    assert_verdict(_rate(runs, "frozen", 0.10), "FAIL", what="switching: frozen centre")
    assert_verdict(_rate(runs, "none", 0.10), "PASS", what="switching: Algorithm 1")


def test_noisyoco_nonlearner_is_frozen_at_its_start_point():
    p = dict(n_oco=3, rho_oco=50.0, kappa_over_G=2.0, gamma=[0.0, 0.5], T_oco=[64], replicates=2)
    df = S.simulate_noisyoco(p, 64, range(2), 5)
    fz = df[df.alg == "frozen"]
    ell = S.oco_losses(p, 64, 5)
    want = 50.0 * np.abs(ell.sum(axis=0)).max()  # start point 0: regret = rho ||sum_t l_t||_inf
    np.testing.assert_allclose(fz.regret, want, rtol=1e-12)
    assert sorted(fz.gamma.unique()) == [0.0, 0.5] and len(fz) == 4


def _gap_table(xs, gap, nonpriv, frozen, R=16, seed=0):
    """A synthetic n-experiment table: per x, R replicates of the noise-free regret, the private one
    (noise-free + gap, 5% noise) and the frozen centre's, with a control whose gap grows as x^2."""
    rng = np.random.default_rng(seed)
    rows = []
    for x, g, b, f in zip(xs, gap, nonpriv, frozen):
        base = b * (1 + 0.02 * rng.standard_normal(R))
        for alg, reg in (("none", base), ("laplace", base + g * (1 + 0.05 * rng.standard_normal(R))),
                         ("ctl", base + g * (x / xs[0]) * (1 + 0.05 * rng.standard_normal(R))),
                         ("frozen", f * (1 + 0.01 * rng.standard_normal(R)))):
            # oracle_regret 0: the synthetic regret is the learning regret (rates.learning_regret)
            rows += [{"dim": x, "alg": alg, "replicate": r, "regret": v, "oracle_regret": 0.0}
                     for r, v in enumerate(reg)]
    return pd.DataFrame(rows)


def _decide(df):
    from dpregret.verdict.core import paired_gap
    g = paired_gap(df[df.alg != "frozen"], ["dim", "replicate"], base_as="regret_none")
    return gap_rate("t", g, df[df.alg == "frozen"], "dim", "laplace", "ctl", 1.0, 0.1, 0.05,
                    lambda cid: np.random.default_rng(1), {"noise_share_min": 0.5, "trivial_share_max": 0.5})


def test_gap_rate_is_decided_only_in_the_regime():
    xs = [1.0, 3.0, 10.0, 30.0, 100.0]
    # in the regime at every point: gap = 2 x the noise-free regret, regret = 0.3 x the frozen centre's
    res, ctl = _decide(_gap_table(xs, [2.0 * x for x in xs], [1.0 * x for x in xs], [10.0 * x for x in xs]))
    assert_verdict(res, "PASS", what="in-regime gap rate")
    assert "not_in_regime" not in res.detail and res.detail["learning_gate"]["verdict"] == "PASS"
    assert res.detail["nonlearner"]["verdict"] == "FAIL"  # the frozen centre on the gate: 1.0 x > 0.5 x its own
    assert_verdict(ctl, "FAIL", what="control (gap ~ x^2)")
    # the same gaps where the learner does not learn (regret 3 x the frozen centre's): not in the regime
    res, _ = _decide(_gap_table(xs, [2.0 * x for x in xs], [1.0 * x for x in xs], [1.0 * x for x in xs]))
    assert res.verdict == "INCONCLUSIVE" and res.detail["verdict_in_window"] == "PASS"
    assert "0 of 5 points" in res.detail["not_in_regime"] and res.detail["learning_gate"]["verdict"] == "FAIL"
    assert res.detail["regime_numbers"]["regret_over_frozen_centre"][0] == pytest.approx(3.0, rel=0.05)


def test_learning_gate_and_the_nonlearner_on_it():
    df = _gap_table([1.0, 10.0], [1.0, 1.0], [1.0, 1.0], [10.0, 10.0])
    gate, nl = learning_gate({"laplace": df[df.alg == "laplace"]}, df[df.alg == "frozen"], "dim", [1.0, 10.0], 0.5,
                             0.05)
    assert_verdict(gate, "PASS", what="gate (regret 0.2 x the frozen centre's)")
    assert_verdict(nl, "FAIL", what="frozen centre on the gate")
    assert isinstance(gate, Result) and gate.detail["gate"].startswith("mean learning regret")
