"""ENV21 (Ene, Nguyen, Vladu 2021): the learning regret's oracle, the mis-tuned twins' steps and the
compiled rounds' own LMO count (invariants, no verdicts)."""
import numpy as np
import pytest

from dpregret.core.environments.polytopes import L1Ball, Simplex, SpanningTreePolytope, make_domain, two_call_domain
from dpregret.core.environments.bco import stationary_distance
from dpregret.papers.env21.learners import algorithm1_parameters, private_bandit
from dpregret.papers.env21.run import rate_losses
from dpregret.papers.env21.scenario import twin_step, vertex_switching


@pytest.mark.parametrize("engine", ["numpy", "jit"])
def test_oracle_at_v1_pays_exactly_T_L_zeta(engine):
    """On f_t = L ||x - v_1|| the oracle frozen at v_1 pays L zeta per query whatever the direction."""
    dom = make_domain("simplex", 5)
    T, L = 400, 2.0
    ls = rate_losses(dom, T, L=L)
    z1 = algorithm1_parameters(T, dom.dim, L, dom.D)[0]
    run = private_bandit(dom, ls, np.random.default_rng(3), R=4, engine=engine, oracle_point=ls.centres[0],
                         oracle_zeta=z1, zeta=2 * z1)
    assert np.allclose(run.oracle_regret, T * L * z1, rtol=1e-9)


def test_oracle_does_not_change_the_run_and_engines_agree():
    dom = make_domain("simplex", 5)
    T = 300
    ls = vertex_switching(dom, T)
    out = []
    for engine in ("numpy", "jit"):
        d2 = make_domain("simplex", 5)
        l2 = vertex_switching(d2, T)
        a = private_bandit(d2, l2, np.random.default_rng(8), R=3, engine=engine, oracle_point=l2.centres[0])
        d3 = make_domain("simplex", 5)
        b = private_bandit(d3, vertex_switching(d3, T), np.random.default_rng(8), R=3, engine=engine)
        assert np.array_equal(a.regret, b.regret)
        out.append(a.oracle_regret)
    assert np.allclose(out[0], out[1], rtol=1e-9, atol=1e-9)
    assert ls.centres.shape[0] == 2


def test_twin_steps_equal_algorithm1_at_T0_and_move_one_notch():
    d, L, D, T0 = 4, 1.0, 2 ** 0.5, 300
    e = lambda T: algorithm1_parameters(T, d, L, D)[1]  # noqa: E731
    assert twin_step(T0, T0, d, L, D) == pytest.approx(e(T0))
    assert twin_step(T0, T0, d, L, D, up=True) == pytest.approx(e(T0))
    for T in (1000, 30000):
        assert twin_step(T, T0, d, L, D) * T == pytest.approx(twin_step(T0, T0, d, L, D) * T0)  # ~ 1/T
        assert twin_step(T, T0, d, L, D, up=True) * T ** 0.5 == pytest.approx(e(T0) * T0 ** 0.5)  # ~ T^(-1/2)


@pytest.mark.parametrize("make_dom", [lambda: Simplex(6), lambda: L1Ball(4, rho=2.0),
                                      lambda: SpanningTreePolytope.complete(4, method="prim")],
                         ids=["simplex", "l1ball", "tree"])
@pytest.mark.parametrize("two", [False, True])
def test_compiled_rounds_count_their_lmo_calls(make_dom, two):
    """The kernel counts its own LMO invocations: T per run, 2T for the two-call control, as the numpy loop."""
    T, calls = 150, []
    for engine in ("numpy", "jit"):
        dom = make_dom()
        dom = two_call_domain(dom) if two else dom
        run = private_bandit(dom, stationary_distance(dom, T), np.random.default_rng(2), R=3, engine=engine)
        calls.append(run.oracle_calls)
    assert calls[0] == calls[1] == (2 if two else 1) * T


def _small_p(**kw):
    from test_env21 import P
    return {**P, **kw}


def test_tight_noisyoco_near_miss_differs_by_exactly_T_gamma():
    """Lemma 4.1's tight rows: unit-norm losses and the adversarial map error gamma l_t / ||l_t|| cost exactly
    T gamma more per extra gamma, on the same gradient draws; both rows carry the bound at gamma."""
    from dpregret.papers.env21 import scenario as S
    p = _small_p(gamma_tight=[2.0, 5.0], kappa_over_G_tight=1.1)
    df = S.simulate_noisyoco(p, 64, range(3), 5)
    assert {"tight", "tight_2gamma"} <= set(df.alg)
    for g in (2.0, 5.0):
        a, b = (df[(df.alg == k) & (df.gamma == g)].sort_values("replicate") for k in ("tight", "tight_2gamma"))
        assert np.allclose(b.regret.to_numpy() - a.regret.to_numpy(), 64 * g, rtol=1e-9)
        assert np.allclose(a.bound.to_numpy(), b.bound.to_numpy()) and np.allclose(b.map_error, 2 * g)
        assert np.allclose(a.kappa, 1.1 * a.G) and np.allclose(a.G, 1.0)
    main = df[df.alg.isin(["sphere", "adversarial"])]
    assert np.allclose(main.map_error, main.gamma)
    # without gamma_tight the experiment is the one before (same rows, same numbers)
    base = S.simulate_noisyoco(_small_p(), 64, range(3), 5)
    pd_main = df[~df.alg.isin(["tight", "tight_2gamma"])].reset_index(drop=True)
    assert np.allclose(pd_main.regret.to_numpy(), base.regret.to_numpy())


def test_noise_horizons_run_only_the_fixed_noise_family_and_leave_the_grid_unchanged():
    from dpregret.papers.env21 import scenario as S
    p = _small_p(T=[32, 128], T_tree=[32], T_noise=[128, 512])
    assert S.noise_horizons(p) == [512]
    df = S.simulate_rates(p, "simplex", range(2), 9)
    extra = df[df["T"] == 512]
    assert set(extra.alg) == {"none", "fixed_noise", "frozen", "fixed_noise_step_over_T", "fixed_noise_slow_zeta",
                              "fixed_noise_fixed_step"}
    base = S.simulate_rates({**p, "T_noise": [32, 128]}, "simplex", range(2), 9)
    assert S.noise_horizons({**p, "T_noise": [32, 128]}) == []
    kept = df[df["T"] != 512].drop(columns=["wall_time"]).reset_index(drop=True)
    assert np.allclose(kept.regret.to_numpy(), base.drop(columns=["wall_time"]).regret.to_numpy())
    # the controls keep their anchor T0 = min(T): the twin's step at 512 is Algorithm 1's at 32 x (32 / 512)
    tw = extra[extra.alg == "fixed_noise_step_over_T"].eta.iloc[0]
    assert tw == pytest.approx(twin_step(512, 32, 3, 1.0, float(extra.D.iloc[0])))
