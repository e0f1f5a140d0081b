"""Every noise scale the shipped code uses equals its lemma's formula, written out here from the paper
(never by calling the code's own formula), on a grid of parameters: a scale off by any factor (over- or
under-noising), or with a wrong exponent or log base, fails.

Where a learner computes its scale inside a run, the scale is read from the run: the learner draws from
:class:`_Unit`, a sampler whose standard draws are all 1, so the noise it adds *is* its scale.

The formulas, with the project's errata (docs/claims.md, "Errata"; each written out below):
- Agarwal and Singh (AS17): Lemma 3.3 / Corollary 3.2, ``lambda = diam_1(Y) (floor(log2 T) + 1) / eps``
  (one leaf lies in floor(log2 T) + 1 released nodes; replace-one neighbours move a node by diam_1(Y):
  N for experts in [0, 1]^N, 2 ||Y||_1 for the symmetric sphere / cube); Theorem 3.5's sigma; Lemma 4.2
  and Theorem 4.1, ``lambda = B / eps`` with B = 1 for arms; Theorem 4.5 with the replace-one range
  ``2 ||Y||_1 / eps``; the ExploreTree baseline, ``(N / gamma) (floor(log2 T) + 1) / eps``.
- Ene, Nguyen, Vladu (ENV): Lemma 5.1's lambda and Lemma 5.4's sigma as printed.
- Zhang, Tran, Cutkosky (ZTC): eq. (6), ``sigma_t = 2 (k+1) t^(k-1) (G + H max_i ||w_i - x_{i-1}||)
  sqrt(log2 2T) / rho``; the plain conversion's ``2 t^k G / rho``.
- Van der Hoeven (VdH): Lemma 4, density ``exp(-sum_j tau_j / 2 |z_j|)`` (Laplace scale 2/tau_j); Song et
  al.'s ``exp(-eps/2 ||z||_2)`` (norm ~ Gamma(d, 2/eps)).
"""
import math

import numpy as np
import pytest

from dpregret.core import calibration as C
from dpregret.core import mechanisms as M
from dpregret.core.rng import ReplicateStreams

REL = 1e-12
TS = [2, 3, 4, 5, 7, 8, 9, 100, 1000, 1023, 1024, 1025, 10**6]
EPSS = [0.1, 0.5, 1.0, 4.0, 12.0]
NS = [1, 2, 3, 8, 50]


def levels(T: int) -> int:
    """floor(log2 T) + 1, counted: the dyadic levels j with 2^j <= T (one covering node per level)."""
    return sum(1 for j in range(64) if 2**j <= T)


def ceil_log2(T: int) -> int:
    """ceil(log2 T) floored at 1, counted: the smallest K >= 1 with 2^K >= T."""
    return next(K for K in range(1, 64) if 2**K >= T)


def same(got, want):
    assert got == pytest.approx(want, rel=REL), (got, want)


class _Unit(ReplicateStreams):
    """A sampler whose standard draws are all 1 (Laplace, normal, exponential, Gamma(k) = k) and whose
    uniforms are 1/2: noise drawn through it equals the scale it is drawn at."""

    def __init__(self, R: int):  # noqa: D107 - no streams to hold
        self._R, self.consumed = R, 0

    @property
    def R(self):
        return self._R

    def uniform(self, shape=()):
        return np.full((self._R, *shape), 0.5)

    def laplace(self, scale, shape=()):
        return np.asarray(scale) * np.ones((self._R, *shape))

    def normal(self, shape=()):
        return np.ones((self._R, *shape))

    def gamma_int(self, k, shape=()):
        return np.ones((self._R, *shape))


def test_the_grid_checks_every_factor():
    """The helpers count, they do not compute logs: they differ from the naive forms where it matters."""
    assert [levels(T) for T in (1, 2, 3, 4, 7, 8, 9)] == [1, 2, 2, 3, 3, 4, 4]
    assert [ceil_log2(T) for T in (1, 2, 3, 4, 5, 8, 9)] == [1, 1, 2, 2, 3, 3, 4]


# --- AS17 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("T", TS)
@pytest.mark.parametrize("N", NS)
def test_as17_tree_lambda_experts(T, N):
    """Lemma 3.3 / Corollary 3.2 item 1 (experts, losses in [0, 1]^N: diam_1 = N); the experts scenario
    calibrates every node with this function."""
    for eps in EPSS:
        same(C.tree_lambda(N, T, eps), N * levels(T) / eps)


@pytest.mark.parametrize("T", TS)
def test_as17_olo_scales(T):
    """Corollary 3.2 items 2 and 3 (sphere: ||Y||_1 = sqrt N; cube: 1; diam_1 = 2 ||Y||_1) and Theorem
    3.5's sigma = max{||Y||_2 sqrt(T / (sqrt(N) K)), sqrt(N)/eps K ln(K/delta)}, K = ceil(log2 T) (the
    tree's draws per release), as the Table 1 scenario's rows use them (delta = 1/T, ||Y||_2 = 1)."""
    from dpregret.papers.as17.scenario_olo import noise_scales

    for N in NS[1:]:
        for eps in EPSS:
            K = ceil_log2(T)
            same(noise_scales("sphere", N, T, eps)["tree"], 2 * math.sqrt(N) * levels(T) / eps)
            same(noise_scales("cube", N, T, eps)["tree"], 2 * 1.0 * levels(T) / eps)
            same(noise_scales("ftpl", N, T, eps)["tree"],
                 max(math.sqrt(T / (math.sqrt(N) * K)), math.sqrt(N) / eps * K * math.log(K * T)))


@pytest.mark.parametrize("T", TS)
def test_as17_algorithm4_lambda(T):
    """Lemma 4.2 / Theorem 4.1: lambda = B / eps, B = 1 for arms; eta and gamma of Theorem 4.1; and the
    noise PrivateFeedback forwards is lambda times a standard draw (read from a run)."""
    from dpregret.papers.as17.bandits import Exp2, PrivateFeedback
    from dpregret.papers.as17.scenario_bandits import row_params

    for N in NS[1:]:
        for eps in EPSS:
            lam, eta, gam = row_params("dp_exp2", N, T, eps)
            same(lam, 1.0 / eps)
            c = 1 + 2 * (1 / eps) ** 2 * math.log(N * T)
            same(eta, math.sqrt(math.log(N) / (2 * N * T * c)))
            same(gam, min(1.0, math.sqrt(math.log(N) / (2 * N * T * c)) * N * math.sqrt(c)))
    st = _Unit(3)
    learner = PrivateFeedback(Exp2(4, 0.1, 0.2, st, 3), 1.0 / 0.7, st)
    learner.predict()
    learner.update(np.zeros(3))
    np.testing.assert_allclose(learner.z, 1.0 / 0.7, rtol=REL)


@pytest.mark.parametrize("domain", ["ball", "cube"])
def test_as17_scrible_lambda(domain):
    """Theorem 4.5 through Lemma 4.2 with replace-one neighbours: the forwarded <l, y> / ||y||_inf ranges
    over 2 ||Y||_1 (||Y||_1 = sqrt N on the ball, 1 on the cube), so lambda = 2 ||Y||_1 / eps."""
    from dpregret.papers.as17.scenario_blo import params

    for N in NS:
        for T in TS:
            for eps in EPSS:
                y1 = math.sqrt(N) if domain == "ball" else 1.0
                same(params(domain, "dp_scrible", N, T, eps)["lambda"], 2 * y1 / eps)


@pytest.mark.parametrize("T", [8, 100, 1000, 1025])
def test_as17_explore_tree_lambda(T):
    """The ExploreTree baseline: TreeBasedAgg over importance-weighted losses (N / gamma) v e_j, l1
    sensitivity N / gamma, gamma = min(1, (N ln N / T)^(1/3)): lambda = (N / gamma) (floor(log2 T)+1) / eps
    (read from the run: the first node drawn through _Unit is lambda)."""
    from dpregret.papers.as17.bandits import ExploreTreeRounds

    for N in (2, 5):
        eps = np.array([0.5, 2.0])
        ex = ExploreTreeRounds(N, T, eps, _Unit(1), _Unit(1))
        gamma = min(1.0, (N * math.log(N) / T) ** (1 / 3))
        want = (N / gamma) * levels(T) / eps
        got = ex.tree._draw(1)[:, 0, 0]
        np.testing.assert_allclose(got, want, rtol=REL)


# --- ENV -----------------------------------------------------------------------------------------
def lemma5_1(T, n, L, eps):
    return T**0.5 * n * L * math.log2(T) / eps


def lemma5_4(T, n, L, eps, delta):
    ell = math.log((n + T) / delta)
    return T**0.25 * n**0.5 * L * math.log2(T) * math.log(T / delta) / eps * (ell + math.sqrt((1 + T**0.5 / n) * ell))


@pytest.mark.parametrize("T", TS)
def test_env_lemma5_scales(T):
    for n in NS:
        for L in (0.5, 1.0, 3.0):
            for eps in EPSS:
                same(C.laplace_lambda_lemma5_1(T, n, L, eps), lemma5_1(T, n, L, eps))
                same(C.lemma5_noise_scale("laplace", T, n, L, eps, 0.1), lemma5_1(T, n, L, eps))
                for delta in (1e-6, 0.01, 0.1, 0.5):
                    same(C.gaussian_sigma_lemma5_4(T, n, L, eps, delta), lemma5_4(T, n, L, eps, delta))
                    same(C.lemma5_noise_scale("gaussian", T, n, L, eps, delta), lemma5_4(T, n, L, eps, delta))


@pytest.mark.parametrize("kind", ["laplace", "gaussian"])
@pytest.mark.parametrize("T,dim,eps", [(3, 2, 1.0), (9, 3, 4.0), (16, 2, 0.5)])
def test_private_bandit_releases_at_the_lemmas_scale(kind, T, dim, eps):
    """PRIVATEBANDIT as the env21 scenario calls it (eps, delta; no noise_scale): with all losses 0 and
    unit draws, the first release is its K = ceil(log2 T_round) draws (T_round = ceil(T / ceil(sqrt T))
    rounds), i.e. K times the scale the run uses."""
    from dpregret.papers.env21.audit import FixedDirections, OneStepLoss
    from dpregret.core.environments.polytopes import Simplex
    from dpregret.papers.env21.learners import private_bandit

    dom, delta, L = Simplex(dim + 1), 0.1, 1.0
    r = private_bandit(dom, OneStepLoss(dom, T, L, 0), FixedDirections(2), noise=kind, eps=eps,
                       delta=delta if kind == "gaussian" else None, noise_rng=_Unit(2), record_rounds=True)
    want = lemma5_1(T, dim, L, eps) if kind == "laplace" else lemma5_4(T, dim, L, eps, delta)
    b = math.ceil(math.sqrt(T))
    np.testing.assert_allclose(r.releases[0], ceil_log2(math.ceil(T / b)) * want, rtol=REL)


# --- ZTC -----------------------------------------------------------------------------------------
def eq6(t, T, k, rho, G, H, maxdist):
    return 2 * (k + 1) * t ** (k - 1) * (G + H * maxdist) * math.sqrt(math.log2(2 * T)) / rho


def test_ztc_eq6():
    from dpregret.papers.ztc22.o2b import sigma_eq6

    for T in TS:
        for t in sorted({1, 2, T // 2 + 1, T}):
            for k in (1.0, 2.0, 3.0):
                for rho in (0.1, 1.0, 8.0):
                    for G, H, md in ((1.0, 0.0, 0.0), (0.5, 2.0, 0.3), (2.0, 1.0, 1.0)):
                        got = sigma_eq6(t, T, k, rho, G, H, np.array([md]))
                        np.testing.assert_allclose(got, eq6(t, T, k, rho, G, H, md), rtol=REL)


@pytest.mark.parametrize("T,k,rho", [(8, 1.0, 1.0), (13, 2.0, 0.5), (16, 3.0, 4.0)])
def test_ztc_algorithm1_runs_at_eq6(monkeypatch, T, k, rho):
    """Algorithm 1 (o2b.run, the tree conversion) asks its tree for eq. (6)'s sigma_t at every step, with
    the run's own max ||w_i - x_{i-1}|| (a fixed-schedule learner with one jump); the plain conversion
    adds 2 t^k G / rho times a standard draw."""
    from dpregret.papers.ztc22 import audit as o2b_audit
    from dpregret.papers.ztc22 import o2b
    from dpregret.papers.ztc22.audit import HuberPair, Schedule

    q = T // 2 + 1
    ws = [0.0] * (q - 1) + [1.0] * (T - q + 1)
    prob = HuberPair(G=0.3, H=1.7, a=0.2, r=2.0)
    data = [(np.array([-1.0]),)] * T
    asked = []
    step = o2b.TreeNoise.step
    monkeypatch.setattr(o2b.TreeNoise, "step", lambda self, s: asked.append(np.array(s, dtype=float)) or step(self, s))
    o2b.run(o2b_audit.FixedData(prob, data), Schedule(ws, 2), T, k=k, rho=rho, src=None, noise_src=_Unit(2),
            checkpoints=[T])
    x_prev, bsum, md = 0.0, 0.0, 0.0
    for t in range(1, T + 1):  # the run's x_{t-1} and max_i |w_i - x_{i-1}|, replayed
        w = ws[min(t - 1, len(ws) - 1)]
        md = max(md, abs(w - x_prev))
        bsum_new = bsum + t**k
        x_prev, bsum = (bsum * x_prev + t**k * w) / bsum_new, bsum_new
        np.testing.assert_allclose(asked[t - 1], eq6(t, T, k, rho, prob.G, prob.H, md), rtol=1e-12)
    assert len(asked) == T
    run = o2b.run(o2b_audit.FixedData(prob, data), Schedule(ws, 2), T, k=k, rho=rho, src=None, noise_src=_Unit(2),
                  checkpoints=[T], conversion="naive", record_released=True)
    g = run.extra["released"][:, :, 0]
    noise_free = o2b.run(o2b_audit.FixedData(prob, data), Schedule(ws, 2), T, k=k, rho=math.inf, src=None,
                         noise_src=_Unit(2), checkpoints=[T], conversion="naive", record_released=True)
    np.testing.assert_allclose(g - noise_free.extra["released"][:, :, 0],
                               np.tile([2 * t**k * prob.G / rho for t in range(1, T + 1)], (2, 1)), rtol=1e-12)


# --- VdH -----------------------------------------------------------------------------------------
def test_vdh_local_laplace_scale():
    """Lemma 4: rho(z) ~ exp(-sum_j tau_j / 2 |z_j|), Laplace scale 2 / tau_j (2 bound_j / tau_j for
    |g_j| <= bound_j); tau_j = inf: no noise.  Read from the randomiser itself (unit draws)."""
    for tau in ([0.6, 0.4, np.inf], [1.0, 2.0, 0.1], [5.0, np.inf, 0.01]):
        for bound in (1.0, 0.5, 3.0):
            t = np.array(tau)
            want = np.where(np.isinf(t), 0.0, 2 * bound / np.where(np.isinf(t), 1.0, t))
            np.testing.assert_allclose(M.local_laplace_scale(t, bound), want, rtol=REL)
            out = M.local_laplace_randomiser(np.zeros((4, 3)), t, _Unit(4), bound=bound)
            np.testing.assert_allclose(out, np.broadcast_to(want, (4, 3)), rtol=REL)


def test_vdh_l2_randomiser_scale():
    """Song et al. (thesis 3.2.1): rho(z) ~ exp(-eps / (2 bound) ||z||_2): ||z|| ~ Gamma(d, 2 bound / eps);
    with a unit Gamma draw the noise norm is the scale 2 bound / eps.  The vdh19 scenario draws at eps = 1
    and multiplies by 1 / eps: the same law at eps.  Its worst-case E||xi||^2 = d (d+1) (2/eps)^2."""
    from dpregret.papers.vdh19.scenario import l2_noise_second_moment

    for d in (1, 2, 5):
        for eps in EPSS:
            for bound in (1.0, 2.5):
                z = M.l2_laplace_randomiser(np.zeros((3, d)), eps, _Unit(3), bound=bound)
                np.testing.assert_allclose(np.linalg.norm(z, axis=1), 2 * bound / eps, rtol=REL)
            same(l2_noise_second_moment(d, eps), d * (d + 1) * (2 / eps) ** 2)


# --- advanced composition (the fresh-noise baselines) -----------------------------------------------
@pytest.mark.parametrize("T", [10, 100, 10**4])
def test_fresh_noise_lambda_composes_to_eps(T):
    """Dwork, Rothblum, Vadhan: T releases of eps0-DP are (eps0 sqrt(2 T ln 1/delta) + T eps0 (e^eps0 - 1),
    delta)-DP.  At the returned scale (eps0 = sensitivity / lambda) the composition is exactly eps: a
    larger eps0 (less noise) exceeds it, a smaller one wastes it."""
    for sens in (1.0, 2.0, 8.0):
        for eps in EPSS:
            for delta in (1e-6, 1.0 / T**2):
                lam = C.fresh_noise_lambda(sens, T, eps, delta)
                e0 = sens / lam
                same(e0 * math.sqrt(2 * T * math.log(1 / delta)) + T * e0 * math.expm1(e0), eps)
    same(C.fresh_lambda(4, T, 1.0), C.fresh_noise_lambda(4, T, 1.0, min(0.5, 1 / T**2)))
