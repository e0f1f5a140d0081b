"""Agarwal-Singh OLO over the sphere and the cube: closed forms, oracle, bounds, losses."""
import itertools
import math

import numpy as np
import pytest
from scipy.optimize import minimize

from dpregret.core.environments.olo import (SwitchingOLO, StochasticOLO, best_in_hindsight, direction,
                                       loss_norm)
from dpregret.papers.as17.olo import (BallFTRL, CubeFTRL, FTPLLinear, bound_thm3_4_quadratic, bound_thm3_5,
                                   d_noise_range, d_r_quadratic, dual_norm_sq, eta_ftrl, laplace_scale_cor3_2,
                                   laplace_scale_printed, linear_oracle, sigma_thm3_5)
from dpregret.papers.as17.prefix_sums import ExactSum, TreeSum
from dpregret.core.rng import ReplicateStreams, stable_key
from margins import assert_z
from dpregret.core.tree import draws_per_release, nodes_covering_leaf

FTRL = {"ball": BallFTRL, "cube": CubeFTRL}


class _Fixed:
    """A prefix-sum stand-in with a given estimate."""

    def __init__(self, L):
        self.estimate = np.atleast_2d(L)


def _scipy_argmin(domain, eta, L):
    """argmin_X eta <x, L> + ||x||^2 numerically; the objective is divided by 1 + eta ||L||
    (same argmin) so that SLSQP's tolerances are relative."""
    s = 1.0 / (1.0 + eta * np.linalg.norm(L))
    f = lambda x: s * (eta * x @ L + x @ x)  # noqa: E731
    jac = lambda x: s * (eta * L + 2 * x)  # noqa: E731
    x0 = np.zeros_like(L)
    if domain == "cube":
        res = minimize(f, x0, jac=jac, method="L-BFGS-B", bounds=[(-1, 1)] * L.size,
                       options={"ftol": 1e-15, "gtol": 1e-13})
    else:
        cons = {"type": "ineq", "fun": lambda x: 1 - np.linalg.norm(x),
                "jac": lambda x: -x / max(np.linalg.norm(x), 1e-300)}
        res = minimize(f, x0, jac=jac, method="SLSQP", constraints=[cons], options={"ftol": 1e-12, "maxiter": 500})
    assert res.success
    return res.x


@pytest.mark.parametrize("domain", ["ball", "cube"])
def test_ftrl_closed_form_matches_scipy(domain):
    rng = np.random.default_rng(1)
    for _ in range(40):
        N = int(rng.integers(1, 6))
        L = rng.normal(size=N) * rng.choice([0.1, 1.0, 10.0, 100.0])
        eta = float(np.exp(rng.uniform(-2, 2)))
        x = FTRL[domain](eta, _Fixed(L)).predict()[0]
        np.testing.assert_allclose(x, _scipy_argmin(domain, eta, L), atol=1e-7)


def test_ftrl_batched_eta():
    L = np.array([[3.0, -4.0], [0.1, 0.2]])
    x = BallFTRL(np.array([[1.0], [0.5]]), _Fixed(L)).predict()
    np.testing.assert_allclose(x, [[-0.6, 0.8], [-0.025, -0.05]])
    np.testing.assert_allclose(CubeFTRL(4.0, _Fixed(L)).predict(), [[-1, 1], [-0.2, -0.4]])


def test_linear_oracle_and_best_in_hindsight():
    rng = np.random.default_rng(2)
    for N in range(1, 5):
        vertices = np.array(list(itertools.product([-1.0, 1.0], repeat=N)))
        for _ in range(25):
            L = rng.normal(size=(3, N))
            brute = (L @ vertices.T).min(axis=1)
            x = linear_oracle("cube", L)
            assert np.all(np.abs(x) <= 1)
            np.testing.assert_allclose((x * L).sum(1), brute, rtol=1e-12)
            np.testing.assert_allclose(best_in_hindsight("cube", L), brute, rtol=1e-12)
            # ball: closed form, and no random point of the ball does better
            xb = linear_oracle("sphere", L)
            np.testing.assert_allclose(xb, -L / np.linalg.norm(L, axis=1, keepdims=True))
            np.testing.assert_allclose(best_in_hindsight("ball", L), (xb * L).sum(1))
            pts = rng.normal(size=(500, N))
            pts /= np.maximum(1, np.linalg.norm(pts, axis=1, keepdims=True))
            assert np.all((L @ pts.T).min(axis=1) >= best_in_hindsight("ball", L) - 1e-12)
            # simplex: a vertex is optimal
            xs = linear_oracle("simplex", L)
            np.testing.assert_allclose((xs * L).sum(1), L.min(axis=1))
            np.testing.assert_allclose(best_in_hindsight("simplex", L), L.min(axis=1))
    assert np.all(linear_oracle("ball", np.zeros((2, 3))) == 0)


def test_d_noise_range_matches_oracle():
    Z = np.random.default_rng(3).laplace(size=(10, 4))
    for domain in ["ball", "cube", "simplex"]:
        hi = (linear_oracle(domain, -Z) * Z).sum(1)
        lo = (linear_oracle(domain, Z) * Z).sum(1)
        np.testing.assert_allclose(d_noise_range(domain, Z), hi - lo, rtol=1e-12)


def _play(learner, losses):
    """Non-private play on losses (T, N), batch of one; returns (regret, stability sum, S)."""
    cum = np.zeros(losses.shape[1])
    xs = []
    for l in losses:
        xs.append(learner.predict()[0])
        learner.update(l[None])
        cum += l
    xs.append(learner.predict()[0])
    xs = np.array(xs)
    suffered = np.einsum("ti,ti->", xs[:-1], losses)
    stab = np.einsum("ti,ti->", xs[:-1] - xs[1:], losses)
    return suffered - best_in_hindsight(learner_domain(learner), cum), stab, dual_norm_sq(losses).sum()


def learner_domain(learner):
    return "ball" if isinstance(learner, BallFTRL) else "cube"


@pytest.mark.parametrize("domain", ["ball", "cube"])
def test_regret_below_thm34_bound_with_derived_stability_constant(domain):
    rng = np.random.default_rng(4)
    worst = 0.0
    for _ in range(300):
        N, T = int(rng.integers(1, 5)), int(rng.integers(1, 25))
        eta = float(np.exp(rng.uniform(-3, 3)))
        g = rng.normal(size=(T, N))
        if rng.random() < 0.5:  # adversarial flavour: alternating signs of one direction
            g = np.outer((-1.0) ** np.arange(T), g[0])
        losses = g / np.maximum(loss_norm(domain, g), 1e-300)[:, None] * rng.uniform(0.2, 1, (T, 1))
        regret, stab, S = _play(FTRL[domain](eta, ExactSum(1, N)), losses)
        bound = bound_thm3_4_quadratic(eta, d_r_quadratic(domain, N), S, 0.0)
        assert regret <= bound + 1e-10
        assert stab <= eta * S + 1e-10  # eq. (4): <l_t, x_t - x_{t+1}> <= eta ||l_t||_2^2 / 2
        worst = max(worst, regret / bound)
    assert worst > 0.3  # the bound is not vacuous on these sequences


def test_stability_constant_is_tight_in_the_interior():
    losses = np.random.default_rng(5).normal(size=(30, 3))
    losses /= np.linalg.norm(losses, axis=1, keepdims=True)
    eta = 1e-3  # iterates stay interior: x_t - x_{t+1} = eta l_t / 2
    _, stab, S = _play(BallFTRL(eta, ExactSum(1, 3)), losses)
    assert stab == pytest.approx(eta * S, rel=1e-12)
    assert S == pytest.approx(15.0)


def test_eta_minimises_bound():
    for D_R, S in [(1.0, 50.0), (8.0, 2000.0)]:
        eta = eta_ftrl(D_R, S)
        best = bound_thm3_4_quadratic(eta, D_R, S)
        assert best == pytest.approx(2 * math.sqrt(D_R * S))
        assert best <= min(bound_thm3_4_quadratic(eta * f, D_R, S) for f in (0.9, 1.1))


def test_ftpl_plays_oracle_of_released_sum():
    streams = ReplicateStreams(0, stable_key("test_olo", "ftpl"), range(2))
    draw = lambda k: 0.7 * streams.normal((k, 3))  # noqa: E731
    for domain in ["ball", "cube", "simplex"]:
        learner = FTPLLinear(domain, TreeSum(8, 2, 3, draw))
        for _ in range(8):
            np.testing.assert_array_equal(learner.predict(), linear_oracle(domain, learner.sums.estimate))
            learner.update(np.array([0.2, -0.1, 0.3]))
    ftl = FTPLLinear("cube", ExactSum(1, 2))
    ftl.update(np.array([[1.0, -2.0]]))
    np.testing.assert_array_equal(ftl.predict(), [[-1.0, 1.0]])


@pytest.mark.parametrize("domain", ["ball", "sphere", "cube"])
def test_losses_respect_their_sets(domain):
    T, N = 40, 5
    sw = SwitchingOLO(domain, T, N, phases=4)
    st = StochasticOLO(domain, N, 0.3, ReplicateStreams(1, stable_key("test_olo", domain), range(3)))
    assert loss_norm(domain, direction(domain, N)) == pytest.approx(1.0)
    stoch = np.array([st.loss(t, 3) for t in range(1, T + 1)])
    for l in [np.array([sw.loss(t, 2) for t in range(1, T + 1)]), stoch]:
        assert np.all(loss_norm(domain, l) <= 1 + 1e-12)
    signs = [sw.sign(t) for t in range(1, T + 1)]
    assert signs == [1.0] * 10 + [-1.0] * 10 + [1.0] * 20  # last block +1: L_T = 2 m u
    big = StochasticOLO(domain, N, 0.3, ReplicateStreams(2, stable_key("test_olo", "mean"), range(4000)))
    L, want = big.loss(1, 4000), 0.3 * direction(domain, N)
    for i in range(N):  # within 0.05 of the mean, by >= 3 standard errors (measured >= 8.3)
        assert_z(abs(L[:, i].mean() - want[i]), L[:, i].std(ddof=1) / np.sqrt(len(L)), 0.05, "below", k=3,
                 what=f"|mean loss - mu u| ({i})")


@pytest.mark.parametrize("domain", ["ball", "cube"])
def test_switching_regret_grows_like_sqrt_T(domain):
    N = 3
    regret = {}
    for T in (250, 4000):
        env = SwitchingOLO(domain, T, N, phases=4)
        losses = np.array([env.loss(t, 1)[0] for t in range(1, T + 1)])
        S = dual_norm_sq(losses).sum()
        eta = eta_ftrl(d_r_quadratic(domain, N), S)
        regret[T], _, _ = _play(FTRL[domain](eta, ExactSum(1, N)), losses)
        assert 0 < regret[T] <= bound_thm3_4_quadratic(eta, d_r_quadratic(domain, N), S)
    assert 2 < regret[4000] / regret[250] < 8


def test_laplace_scale_definition_vs_printed():
    for domain, N in [("ball", 9), ("sphere", 4), ("cube", 7)]:
        for T in [1, 2, 3, 1000, 1023, 1024, 1025]:
            ratio = laplace_scale_cor3_2(domain, N, T, 0.5) / laplace_scale_printed(domain, N, T, 0.5)
            assert ratio == pytest.approx(2 * nodes_covering_leaf(T) / draws_per_release(T))
        assert laplace_scale_cor3_2(domain, N, 1000,
                                    1.0) == pytest.approx(2 * laplace_scale_printed(domain, N, 1000, 1.0))
    assert laplace_scale_printed("ball", 9, 1000, 1.0) == pytest.approx(3 * 10)
    assert laplace_scale_cor3_2("cube", 9, 1024, 2.0) == pytest.approx(2 * 11 / 2.0)


def test_thm35_sigma_and_bound():
    T, N, X2, Y2 = 2**20, 16, 1.0, 1.0
    K = draws_per_release(T)
    sigma = sigma_thm3_5(T, N, 1e3, 1e-6, Y2)  # large eps: the regret term is the max
    assert sigma == pytest.approx(Y2 * math.sqrt(T / (math.sqrt(N) * K)))
    assert bound_thm3_5(sigma, T, N, X2, Y2) == pytest.approx(1.5 * N**0.25 * X2 * Y2 * math.sqrt(T))
    small = sigma_thm3_5(T, N, 1e-2, 1e-6, Y2)
    assert small == pytest.approx(math.sqrt(N) / 1e-2 * K * math.log(K / 1e-6))
    assert math.isfinite(sigma_thm3_5(1, N, 1.0, 0.1, Y2))


@pytest.mark.parametrize("call, name", [
    (lambda: BallFTRL(0.0, ExactSum(1, 2)), "eta"),
    (lambda: CubeFTRL(np.array([[1.0], [np.nan]]), ExactSum(2, 2)), "eta"),
    (lambda: FTPLLinear("torus", ExactSum(1, 2)), "domain"),
    (lambda: linear_oracle("torus", np.zeros(2)), "domain"),
    (lambda: d_noise_range(3, np.zeros(2)), "domain"),
    (lambda: d_r_quadratic("simplex", 3), "domain"),
    (lambda: d_r_quadratic("ball", 0), "N"),
    (lambda: eta_ftrl(0.0, 1.0), "D_R"),
    (lambda: eta_ftrl(1.0, -1.0), "S"),
    (lambda: bound_thm3_4_quadratic(-1.0, 1.0, 1.0), "eta"),
    (lambda: bound_thm3_4_quadratic(1.0, 0.0, 1.0), "D_R"),
    (lambda: bound_thm3_4_quadratic(1.0, 1.0, -1.0), "sum_sq_dual"),
    (lambda: bound_thm3_4_quadratic(1.0, 1.0, 1.0, np.nan), "d_noise"),
    (lambda: sigma_thm3_5(0, 2, 1.0, 0.1, 1.0), "T"),
    (lambda: sigma_thm3_5(10, 0, 1.0, 0.1, 1.0), "N"),
    (lambda: sigma_thm3_5(10, 2, 0.0, 0.1, 1.0), "eps"),
    (lambda: sigma_thm3_5(10, 2, 1.0, 1.0, 1.0), "delta"),
    (lambda: sigma_thm3_5(10, 2, 1.0, 0.1, -1.0), "Y2"),
    (lambda: bound_thm3_5(0.0, 10, 2, 1.0, 1.0), "sigma"),
    (lambda: bound_thm3_5(1.0, 1.5, 2, 1.0, 1.0), "T"),
    (lambda: bound_thm3_5(1.0, 10, 2, 0.0, 1.0), "X2"),
    (lambda: bound_thm3_5(1.0, 10, 2, 1.0, math.inf), "Y2"),
    (lambda: laplace_scale_cor3_2("simplex", 2, 10, 1.0), "domain"),
    (lambda: laplace_scale_cor3_2("cube", 2, 0, 1.0), "T"),
    (lambda: laplace_scale_cor3_2("cube", 2, 10, 0.0), "eps"),
    (lambda: laplace_scale_printed("ball", 0, 10, 1.0), "N"),
    (lambda: laplace_scale_printed("ball", 2, 10, -1.0), "eps"),
    (lambda: SwitchingOLO("simplex", 10, 2), "domain"),
    (lambda: SwitchingOLO("ball", 0, 2), "T"),
    (lambda: SwitchingOLO("ball", 10, 0), "N"),
    (lambda: SwitchingOLO("ball", 10, 2, phases=0), "phases"),
    (lambda: SwitchingOLO("ball", 10, 2, phases=11), "phases"),
    (lambda: SwitchingOLO("ball", 10, 2).loss(11, 1), "t"),
    (lambda: SwitchingOLO("ball", 10, 2).loss(0, 1), "t"),
    (lambda: SwitchingOLO("ball", 10, 2).loss(1, 0), "R"),
    (lambda: StochasticOLO("cube", 2, 1.5, ReplicateStreams(0, (1,), [0])), "mu"),
    (lambda: StochasticOLO("cube", 2, 0.5, ReplicateStreams(0, (1,), [0])).loss(1, 2), "R"),
    (lambda: best_in_hindsight("torus", np.zeros(2)), "domain"),
    (lambda: direction("ball", 0), "N"),
])
def test_invalid_arguments_raise_naming_them(call, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call()
