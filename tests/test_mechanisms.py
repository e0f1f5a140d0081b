"""Tests of dpregret.core.mechanisms (thesis ch. 3 Sec. 3.2.1 / Lemma 4; Zhang et al. Remark 2)."""
import math

import numpy as np
import pytest
from scipy import integrate, stats

from dpregret.core import mechanisms as M
from dpregret.core.rng import ReplicateStreams, stable_key
from margins import assert_z

N = 20_000
P_MIN = 1e-3  # KS p-value threshold (fixed seeds, so deterministic)


def assert_ks(sample, cdf, what: str = ""):
    """KS test at P_MIN with a margin: sqrt(n) D under the Kolmogorov critical value by >= 1 sd of the
    Kolmogorov distribution (p > ~0.012; measured: >= 2.86 sd, p >= 0.11)."""
    r = stats.kstest(sample, cdf)
    assert r.pvalue > P_MIN, what
    assert_z(np.sqrt(np.size(sample)) * r.statistic, stats.kstwobign.std(), stats.kstwobign.ppf(1 - P_MIN), "below",
             k=1, what=f"KS sqrt(n) D {what}")


def gen(seed=12345):
    return np.random.default_rng(seed)


def streams(replicates=range(3), key="t"):
    return ReplicateStreams(root_seed=1, key=stable_key(key), replicates=replicates)


# --- Laplace / Gaussian ---------------------------------------------------------------
def test_laplace_mechanism_per_coordinate_scale():
    scale = np.array([0.5, 1.0, 3.0])
    x = np.array([1.0, -2.0, 0.0])
    out = M.laplace_mechanism(np.tile(x, (N, 1)), scale, gen())
    assert out.shape == (N, 3)
    for j in range(3):
        assert_ks(out[:, j] - x[j], stats.laplace(scale=scale[j]).cdf)


def test_laplace_noise_replicate_streams():
    scale = np.array([0.5, 2.0])
    z = M.laplace_noise(scale, (N // 3, 2), streams())
    assert z.shape == (3, N // 3, 2)
    for j in range(2):
        assert_ks(z[..., j].ravel(), stats.laplace(scale=scale[j]).cdf)


@pytest.mark.parametrize("source", ["generator", "streams"])
def test_gaussian_mechanism(source):
    sigma = 1.7
    if source == "generator":
        z = M.gaussian_mechanism(np.zeros((N, 2)), sigma, gen())
    else:
        z = M.gaussian_mechanism(np.zeros(N // 3), sigma, streams())
        assert z.shape == (3, N // 3)
    assert_ks(z.ravel(), stats.norm(scale=sigma).cdf)


# --- Lemma 4: local Laplace randomiser --------------------------------------------------
def test_local_laplace_scale_and_inf_coordinates():
    tau = np.array([0.5, np.inf, 2.0, np.inf])
    bound = np.array([1.0, 1.0, 0.5, 3.0])
    g = np.array([0.3, -0.7, 0.5, 2.9])
    out = M.local_laplace_randomiser(np.tile(g, (N, 1)), tau, gen(), bound=bound)
    np.testing.assert_array_equal(out[:, 1], g[1])  # tau = inf: unchanged, exactly
    np.testing.assert_array_equal(out[:, 3], g[3])
    for j in (0, 2):
        b = 2.0 * bound[j] / tau[j]  # Lemma 4: density ∝ exp(-tau_j/2 |z_j|), scaled by the bound
        assert_ks(out[:, j] - g[j], stats.laplace(scale=b).cdf)
    np.testing.assert_allclose(M.local_laplace_scale(tau, bound), [4.0, 0.0, 0.5, 0.0])


def test_local_laplace_epsilon():
    assert M.local_laplace_epsilon([0.5, 1.5]) == 2.0
    assert M.local_laplace_epsilon([0.5, np.inf, 1.5]) == np.inf
    assert M.local_laplace_epsilon([0.5, np.inf, 1.5], protected_only=True) == 2.0


def test_local_laplace_eps_budget_check():
    g = np.zeros(3)
    M.local_laplace_randomiser(g, [0.25, 0.75, np.inf], gen(), eps=1.0)
    with pytest.raises(ValueError, match="tau"):
        M.local_laplace_randomiser(g, [0.25, 0.5, np.inf], gen(), eps=1.0)


# --- Song et al. l2 randomiser -----------------------------------------------------------
@pytest.mark.parametrize("d,eps,bound", [(4, 0.7, 1.0), (2, 3.0, 2.5)])
def test_l2_randomiser_norm_and_direction(d, eps, bound):
    z = M.l2_laplace_randomiser(np.zeros((N, d)), eps, gen(d), bound=bound)
    r = np.linalg.norm(z, axis=1)
    assert_ks(r, stats.gamma(a=d, scale=2.0 * bound / eps).cdf)
    u = z / r[:, None]
    sd_mean = math.sqrt(1.0 / (d * N))
    for j in range(d):  # within 5 sd of the sphere's moments, by >= 1 sd
        assert_z(abs(u[:, j].mean()), sd_mean, 5 * sd_mean, "below", k=1, what=f"|mean u_{j}|")
    sd_sq = math.sqrt((3.0 / (d * (d + 2)) - 1.0 / d**2) / N)
    for j in range(d):
        assert_z(abs((u[:, j] ** 2).mean() - 1.0 / d), sd_sq, 5 * sd_sq, "below", k=1, what=f"|mean u_{j}^2 - 1/d|")
    # uniform on the sphere: (u_1 + 1)/2 ~ Beta((d-1)/2, (d-1)/2) for d >= 2
    a = (d - 1) / 2
    assert_ks((u[:, 0] + 1) / 2, stats.beta(a, a).cdf)


def test_l2_randomiser_replicate_streams_norm():
    d, eps = 3, 1.3
    z = M.l2_laplace_randomiser(np.zeros(d), eps, streams())
    assert z.shape == (3, d)
    many = ReplicateStreams(root_seed=1, key=stable_key("l2"), replicates=range(5000), block=8)
    r = np.linalg.norm(M.l2_laplace_randomiser(np.zeros(d), eps, many), axis=1)
    assert_ks(r, stats.gamma(a=d, scale=2.0 / eps).cdf)


# --- replicate streams: shapes and chunk independence -------------------------------------
CALLS = {
    "laplace": lambda x, rng: M.laplace_mechanism(x, 0.5, rng),
    "gaussian": lambda x, rng: M.gaussian_mechanism(x, 0.5, rng),
    "local": lambda x, rng: M.local_laplace_randomiser(x, [1.0, np.inf, 2.0], rng),
    "l2": lambda x, rng: M.l2_laplace_randomiser(x, 1.0, rng),
}


@pytest.mark.parametrize("name", CALLS)
def test_replicate_shapes_and_chunking(name):
    f = CALLS[name]
    g = np.array([0.2, -0.3, 0.1])
    assert f(g, streams()).shape == (3, 3)
    per_rep = np.array([g, -g, 0.5 * g])
    assert f(per_rep, streams()).shape == (3, 3)
    with pytest.raises(ValueError, match="x|g"):
        f(np.zeros((2, 3)), streams())
    # replicate 1 gives the same numbers whichever chunk serves it
    whole = f(g, streams(range(3)))
    alone = f(g, streams([1]))
    np.testing.assert_array_equal(whole[1], alone[0])
    assert f(g, gen()).shape == (3,)


# --- log-densities ---------------------------------------------------------------------------
def test_laplace_logpdf():
    scale = np.array([0.5, 2.0])
    z = np.array([[0.3, -1.0], [-2.0, 4.0]])
    expected = stats.laplace(scale=scale).logpdf(z).sum(axis=1)
    np.testing.assert_allclose(M.laplace_logpdf(z, scale), expected, rtol=1e-13)
    total = sum(integrate.quad(lambda t: math.exp(M.laplace_logpdf([t], 0.7)), a, b)[0]
                for a, b in [(-np.inf, 0), (0, np.inf)])
    assert total == pytest.approx(1.0, abs=1e-9)


def test_gaussian_logpdf():
    z = np.array([[0.3, -1.0, 2.0], [0.0, 0.0, 0.0]])
    expected = stats.multivariate_normal(mean=np.zeros(3), cov=1.3**2 * np.eye(3)).logpdf(z)
    np.testing.assert_allclose(M.gaussian_logpdf(z, 1.3), expected, rtol=1e-13)
    total = integrate.quad(lambda t: math.exp(M.gaussian_logpdf([t], 1.3)), -np.inf, np.inf)[0]
    assert total == pytest.approx(1.0, abs=1e-9)


def test_l2_logpdf_1d_is_laplace():
    z = np.array([[-3.0], [0.0], [0.4]])
    expected = stats.laplace(scale=2 * 1.5 / 0.8).logpdf(z[:, 0])
    np.testing.assert_allclose(M.l2_laplace_logpdf(z, 0.8, bound=1.5), expected, rtol=1e-13)


def test_l2_logpdf_integrates_to_one_2d():
    eps = 2.0
    quadrant = integrate.dblquad(lambda y, x: math.exp(M.l2_laplace_logpdf([x, y], eps)),
                                 0, np.inf, 0, np.inf, epsabs=1e-11)[0]
    assert 4 * quadrant == pytest.approx(1.0, abs=1e-7)


def test_l2_logpdf_3d_radial_is_gamma():
    # in d = 3 the sphere has area 4 pi, so the norm has density 4 pi r^2 rho(r e_1)
    eps, r = 1.1, np.array([0.1, 1.0, 5.0])
    z = np.stack([r, 0 * r, 0 * r], axis=1)
    lhs = math.log(4 * math.pi) + 2 * np.log(r) + M.l2_laplace_logpdf(z, eps)
    np.testing.assert_allclose(lhs, stats.gamma(a=3, scale=2 / eps).logpdf(r), rtol=1e-12)
    d = 6  # general d against the Gamma(d, 2/eps) law of the norm
    area = 2 * math.pi ** (d / 2) / math.gamma(d / 2)
    z = np.zeros((3, d))
    z[:, 2] = r
    lhs = math.log(area) + (d - 1) * np.log(r) + M.l2_laplace_logpdf(z, eps)
    np.testing.assert_allclose(lhs, stats.gamma(a=d, scale=2 / eps).logpdf(r), rtol=1e-12)


# --- argument validation -----------------------------------------------------------------------
BAD = [
    ("scale", lambda: M.laplace_mechanism(np.zeros(2), 0.0, gen())),
    ("scale", lambda: M.laplace_mechanism(np.zeros(2), [1.0, -1.0], gen())),
    ("scale", lambda: M.laplace_mechanism(np.zeros(2), [1.0, 1.0, 1.0], gen())),
    ("scale", lambda: M.laplace_noise(np.nan, (2,), gen())),
    ("shape", lambda: M.laplace_noise(1.0, [2], gen())),
    ("x", lambda: M.laplace_mechanism([0.0, np.nan], 1.0, gen())),
    ("x", lambda: M.gaussian_mechanism(np.zeros((2, 2, 2)), 1.0, gen())),
    ("sigma", lambda: M.gaussian_mechanism(np.zeros(2), 0.0, gen())),
    ("sigma", lambda: M.gaussian_mechanism(np.zeros(2), np.inf, gen())),
    ("rng", lambda: M.gaussian_mechanism(np.zeros(2), 1.0, 42)),
    ("tau", lambda: M.local_laplace_randomiser(np.zeros(2), [1.0, -0.5], gen())),
    ("tau", lambda: M.local_laplace_randomiser(np.zeros(2), [1.0, 0.0], gen())),
    ("tau", lambda: M.local_laplace_randomiser(np.zeros(2), [1.0, np.nan], gen())),
    ("tau", lambda: M.local_laplace_randomiser(np.zeros(2), [1.0, 1.0, 1.0], gen())),
    ("tau", lambda: M.local_laplace_epsilon([[1.0]])),
    ("g", lambda: M.local_laplace_randomiser([0.5, 1.5], [1.0, 1.0], gen())),
    ("g", lambda: M.local_laplace_randomiser(0.5, [1.0], gen())),
    ("g", lambda: M.local_laplace_randomiser([0.5, np.inf], [1.0, 1.0], gen())),
    ("bound", lambda: M.local_laplace_randomiser([0.5, 0.5], [1.0, 1.0], gen(), bound=0.0)),
    ("eps", lambda: M.local_laplace_randomiser([0.5, 0.5], [1.0, 1.0], gen(), eps=-1.0)),
    ("eps", lambda: M.l2_laplace_randomiser(np.zeros(2), 0.0, gen())),
    ("eps", lambda: M.l2_laplace_randomiser(np.zeros(2), np.nan, gen())),
    ("g", lambda: M.l2_laplace_randomiser([0.8, 0.8], 1.0, gen())),
    ("bound", lambda: M.l2_laplace_randomiser(np.zeros(2), 1.0, gen(), bound=-1.0)),
    ("z", lambda: M.laplace_logpdf(0.5, 1.0)),
    ("z", lambda: M.gaussian_logpdf([np.nan], 1.0)),
    ("scale", lambda: M.laplace_logpdf([0.5], 0.0)),
    ("sigma", lambda: M.gaussian_logpdf([0.5], -1.0)),
    ("eps", lambda: M.l2_laplace_logpdf([0.5], 0.0)),
]


@pytest.mark.parametrize("name,call", BAD, ids=[f"{i}-{n}" for i, (n, _) in enumerate(BAD)])
def test_invalid_arguments(name, call):
    with pytest.raises(ValueError, match=name):
        call()


def test_replicate_streams_laplace_in_place_path_is_the_formula():
    """ReplicateStreams.laplace computes -b sign(u - 1/2) log1p(-2|u - 1/2|) in place where the scale broadcasts
    to the draw's shape: the formula's bits, for scalar, per-coordinate, zero and broadcast scales (and the
    formula itself where the scale would widen the draw, or is an integer)."""
    from dpregret.core.rng import ReplicateStreams

    cases = [(1.0, ()), (2.5, (3,)), (np.array([1.0, 2.0, 0.0]), (3,)), (np.array([[1.0], [2.0]]), (2, 4)),
             (3, (2,)), (np.ones((1, 3)), (3,)), (np.array([[[1.0]], [[2.0]]]), (1,))]
    for scale, shape in cases:
        a, b = ReplicateStreams(5, (1, 2), range(7)), ReplicateStreams(5, (1, 2), range(7))
        for _ in range(20):
            w = b.uniform(shape) - 0.5
            want = -np.asarray(scale) * np.sign(w) * np.log1p(-2.0 * np.abs(w))
            got = a.laplace(scale, shape)
            assert got.shape == want.shape and np.array_equal(got.view(np.int64), want.view(np.int64))
