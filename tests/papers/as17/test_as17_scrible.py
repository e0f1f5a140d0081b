"""SCRiBLe (Agarwal-Singh section 4.2 / Appendix D): FTRL step, Dikin sampling, unbiased
estimates, sublinear regret, batch tiling and argument checks."""
import numpy as np
import pytest
from scipy.optimize import minimize

from dpregret.papers.as17.scrible import (
    Scrible, eigenvectors, eta_condition_holds, ftrl_step, theorem_4_5_eta, theorem_d1_bound,
)
from dpregret.core.rng import ReplicateStreams, stable_key
from margins import assert_z


def streams(n=16, key="scrible-test"):
    return ReplicateStreams(root_seed=1, key=stable_key(key), replicates=range(n))


def barrier(domain, x):
    if domain == "ball":
        s = 1.0 - x @ x
        return -np.log(s), 2 * x / s, 2 * np.eye(x.size) / s + 4 * np.outer(x, x) / s**2
    s = 1.0 - x * x
    return -np.log(s).sum(), 2 * x / s, np.diag(2 * (1 + x * x) / s**2)


@pytest.mark.parametrize("domain", ["ball", "cube"])
@pytest.mark.parametrize("eta", [0.05, 0.7, 4.0])
def test_ftrl_step_matches_scipy(domain, eta):
    rng = np.random.default_rng(3)
    S = rng.normal(scale=2.0, size=(4, 5))
    x, _, _ = ftrl_step(domain, S, eta)
    for b in range(4):
        inside = lambda z: z @ z < 1 if domain == "ball" else np.all(np.abs(z) < 1)  # noqa: E731

        def f(z):  # +inf outside: the trust region rejects such steps
            if not inside(z):
                return np.inf, np.zeros_like(z)
            val, grad, _ = barrier(domain, z)
            return eta * S[b] @ z + val, eta * S[b] + grad

        def hess(z):
            return barrier(domain, z)[2] if inside(z) else np.eye(z.size)
        res = minimize(f, np.zeros(5), jac=True, hess=hess, method="trust-exact", options={"gtol": 1e-13})
        np.testing.assert_allclose(x[b], res.x, atol=1e-7)
    assert np.all(ftrl_step(domain, np.zeros((2, 5)), eta)[0] == 0)


def test_ball_hessian_eigenstructure():
    rng = np.random.default_rng(4)
    for N in (1, 2, 7):
        S = rng.normal(scale=3.0, size=(6, N))
        S[0] = 0.0                       # S = 0: H = 2I, any basis
        S[1] = -np.eye(N)[0]             # x along +e_1 (the reflection's sign branch)
        x, lam, w = ftrl_step("ball", S, 0.9)
        E = eigenvectors(w)
        for b in range(6):
            H = barrier("ball", x[b])[2]
            np.testing.assert_allclose(H @ E[b], E[b] * lam[b], atol=1e-9)
            np.testing.assert_allclose(E[b].T @ E[b], np.eye(N), atol=1e-12)
            if b > 0:  # column 0 lies along x
                np.testing.assert_allclose(abs(E[b][:, 0] @ x[b]), np.linalg.norm(x[b]), rtol=1e-12)
    x, lam, _ = ftrl_step("cube", S, 0.9)
    for b in range(6):
        np.testing.assert_allclose(np.diag(barrier("cube", x[b])[2]), lam[b], rtol=1e-12)


@pytest.mark.parametrize("domain", ["ball", "cube"])
def test_played_points_in_closed_domain(domain):
    N = 6
    learner = Scrible(domain, N, 0.5, streams())
    u = np.linspace(-1, 1, N)
    for t in range(300):  # eta large: the centre drifts close to the boundary
        y = learner.predict()
        if domain == "ball":
            assert np.all(np.linalg.norm(y, axis=1) <= 1 + 1e-12)
        else:
            assert np.all(np.abs(y) <= 1 + 1e-12)
        learner.update(y @ (u if t % 50 < 40 else -u))
    c = learner.center  # measured: >= 0.997 on every replicate, > 100 replicate sd above 0.9
    assert np.all(np.linalg.norm(c, axis=1) > 0.9) if domain == "ball" else np.all(np.abs(c).max(axis=1) > 0.9)


@pytest.mark.parametrize("domain", ["ball", "cube"])
def test_loss_estimate_is_unbiased(domain):
    N, R, n = 4, 64, 400
    learner = Scrible(domain, N, 0.8, streams(R, "scrible-unbiased"))
    S0 = np.tile(np.array([1.5, -0.7, 0.2, 2.0]), (R, 1))
    l = np.array([0.3, -0.5, 0.9, 0.1])
    est = np.empty((n, R, N))
    for k in range(n):
        learner.S = S0.copy()
        y = learner.predict()
        learner.update(y @ l)
        est[k] = learner.S - S0
    est = est.reshape(-1, N)
    se = est.std(axis=0, ddof=1) / np.sqrt(est.shape[0])
    for i in range(N):  # within 5 standard errors of the loss, by >= 1
        assert_z(abs(est[:, i].mean() - l[i]), se[i], 5 * se[i], "below", k=1, what=f"|mean estimate - l| ({i})")


@pytest.mark.parametrize("domain", ["ball", "cube"])
def test_regret_is_sublinear(domain):
    N = 4
    nu, X2 = (1.0, 1.0) if domain == "ball" else (2.0 * N, np.sqrt(N))
    u = np.array([0.5, -0.5, 0.5, -0.5]) / (1 if domain == "ball" else 2)
    M = np.linalg.norm(u) if domain == "ball" else np.abs(u).sum()   # max_x |<u, x>|, = 1
    avg, se = {}, {}
    for T in (250, 4000):
        eta = theorem_4_5_eta(N, T, nu, M, 0.0, X2)
        learner = Scrible(domain, N, eta, streams())
        loss = np.zeros(16)
        for _ in range(T):
            v = learner.predict() @ u
            learner.update(v)
            loss += v
        avg[T] = (loss.mean() + T * M) / T   # best fixed point has loss -M per round
        se[T] = loss.std(ddof=1) / np.sqrt(loss.size) / T
        assert_z(avg[T] * T, se[T] * T, theorem_d1_bound(N, T, nu, M, 0.0, X2), "below", k=3, what=f"regret at T = {T}")
    assert_z(avg[4000], se[4000], 0.0, "above", k=3, what="average regret at T = 4000")
    # the average regret shrinks: avg(4000) - 0.65 avg(250) < 0 by >= 3 standard errors (as of independent runs)
    assert_z(avg[4000] - 0.65 * avg[250], np.hypot(se[4000], 0.65 * se[250]), 0.0, "below", k=3,
             what="avg regret(4000) - 0.65 avg regret(250)")


def test_batch_tiling_shares_draws_per_replicate():
    R = 16
    eta = np.repeat([[0.3]], 2 * R, axis=0)
    a = Scrible("ball", 3, eta, streams(R))
    c = Scrible("cube", 3, 0.3, streams(R), batch=2 * R)
    half = Scrible("ball", 3, 0.3, streams(R))
    part = Scrible("ball", 3, 0.3, ReplicateStreams(1, stable_key("scrible-test"), range(8, 16)))
    l = np.array([0.2, -0.4, 0.1])
    for _ in range(50):
        ya, yc, yh, yp = a.predict(), c.predict(), half.predict(), part.predict()
        np.testing.assert_array_equal(ya[:R], ya[R:])
        np.testing.assert_array_equal(yc[:R], yc[R:])
        np.testing.assert_array_equal(ya[:R], yh)
        np.testing.assert_array_equal(yh[8:], yp)   # chunk invariance
        for learner, y in ((a, ya), (c, yc), (half, yh), (part, yp)):
            learner.update(y @ l)
    assert not np.array_equal(a.S[0], a.S[1])


def test_argument_errors_name_the_argument():
    st = streams(4)
    with pytest.raises(ValueError, match="domain"):
        Scrible("simplex", 3, 0.1, st)
    with pytest.raises(ValueError, match="^N must"):
        Scrible("ball", 0, 0.1, st)
    for bad in (0.0, -1.0, np.inf, np.array([[0.1], [0.0], [0.1], [0.1]]), np.ones((4, 2)), np.ones((3, 1))):
        with pytest.raises(ValueError, match="eta"):
            Scrible("cube", 3, bad, st)
    with pytest.raises(ValueError, match="batch"):
        Scrible("cube", 3, 0.1, st, batch=6)
    learner = Scrible("ball", 3, 0.1, st)
    with pytest.raises(RuntimeError):
        learner.update(np.zeros(4))
    learner.predict()
    with pytest.raises(ValueError, match="value"):
        learner.update(np.zeros(5))
    with pytest.raises(ValueError, match="T"):
        theorem_4_5_eta(3, 1, 1.0, 1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="lam"):
        theorem_d1_bound(3, 100, 1.0, 1.0, -1.0, 1.0)


def test_theorem_4_5_eta_balances_and_condition():
    """With lam = 0 the eta of Theorem 4.5 equalises the two eta-terms of the final display;
    the hypothesis eta <= 1/(4N(M+L)) of Theorem D.1 fails for small T (printed: "it can now
    be verified")."""
    N, T, nu, M = 8, 1000, 1.0, 1.0
    eta = theorem_4_5_eta(N, T, nu, M, 0.0, 1.0)
    assert 2 * eta * T * N**2 * M**2 == pytest.approx(nu * np.log(T) / eta, rel=1e-12)
    assert theorem_d1_bound(N, T, nu, M, 0.0, 1.0) == pytest.approx(
        2 * np.sqrt(2 * nu * np.log(T) * T) * N * M + 2 * M + 1, rel=1e-12)
    ok = lambda T, nu, lam: eta_condition_holds(N, T, M, lam, 1.0, theorem_4_5_eta(N, T, nu, M, lam, 1.0))  # noqa: E731
    assert not ok(26, 1.0, 0.0) and ok(27, 1.0, 0.0)           # T >= 8 nu log T
    assert not ok(10**5, 1.0, 1.0) and ok(10**8, 1.0, 1.0)     # lam > 0: T >~ 128 nu log T log^2 NT


@pytest.mark.parametrize("domain", ["ball", "cube"])
def test_center_cache_follows_S(domain):
    """The FTRL step is computed once per round and cached; every change of S (update or
    assignment) invalidates it, so ``center`` always equals ``ftrl_step(S)``."""
    N = 5
    learner = Scrible(domain, N, 0.3, streams(3, "scrible-cache"))
    rng = np.random.default_rng(0)
    for _ in range(20):
        c0 = learner.center
        y = learner.predict()
        assert learner.center is c0  # no recomputation within a round
        np.testing.assert_array_equal(c0, ftrl_step(domain, learner.S, 0.3)[0])
        learner.update(y @ rng.normal(size=N))
        np.testing.assert_array_equal(learner.center, ftrl_step(domain, learner.S, 0.3)[0])
    learner.S = np.ones((3, N))
    np.testing.assert_array_equal(learner.center, ftrl_step(domain, np.ones((3, N)), 0.3)[0])
    with pytest.raises(ValueError):
        learner.center[0, 0] = 1.0  # read-only: the cached centre cannot be corrupted


def _reference_blo(domain, env, N, T, plan, replicates, root_seed, phases=4, mu=0.5):
    """as17_blo.simulate's regret written round by round with the numpy class (the
    definition the compiled kernel must reproduce)."""
    from dpregret.core.environments.olo import StochasticOLO, SwitchingOLO, best_in_hindsight
    from dpregret.papers.as17 import scenario_blo as as17_blo
    from dpregret.core.rng import stable_key

    R = len(replicates)
    point = (as17_blo.SCENARIO, domain, env, N, T, phases if env == "switching" else mu)
    streams = lambda role: ReplicateStreams(root_seed, stable_key(*point, role), replicates)  # noqa: E731
    rows = [(a, e) for a in as17_blo.ALGORITHMS if a in plan for e in plan[a]]
    P = [as17_blo.params(domain, a, N, T, e) for a, e in rows]
    B = len(rows) * R
    eta = np.repeat([p["eta"] for p in P], R)[:, None]
    lam = np.repeat([p["lambda"] for p in P], R)[:, None]
    learner = Scrible(domain, N, eta, streams("scrible"), B)
    noise = streams("noise")
    source = (SwitchingOLO(domain, T, N, phases) if env == "switching"
              else StochasticOLO(domain, N, mu, streams("losses")))
    # every replicate's coordinate signs (scenario_olo.loss_source: keyed stream "signs", applied to every round)
    signs = np.where(streams("signs").uniform((N,)) < 0.5, -1.0, 1.0)
    suffered, cum = np.zeros(B), np.zeros((R, N))
    for t in range(1, T + 1):
        lb = np.tile(source.loss(t, R) * signs, (B // R, 1))
        y = learner.predict()
        suffered += (learner.center * lb).sum(axis=1)
        z = lam * np.tile(noise.laplace(1.0, (N,)), (B // R, 1))
        learner.update(((lb + z) * y).sum(axis=1))
        cum += lb[:R]
    return suffered - np.tile(best_in_hindsight(domain, cum), len(rows))


@pytest.mark.parametrize("domain", ["ball", "cube"])
@pytest.mark.parametrize("env", ["switching", "stochastic"])
def test_compiled_kernel_matches_class(domain, env, monkeypatch):
    """The scenario's fused numba rounds (blocks of 64 here, so block edges are crossed)
    equal the class's predict/update loop on the same draws, to rounding."""
    from dpregret.papers.as17 import scenario_blo as as17_blo

    monkeypatch.setattr(as17_blo, "BLOCK", 64)
    plan = {"scrible": [None], "dp_scrible": [1.0, 4.0], "dp_scrible_composed": [4.0]}
    T, reps = 300, [3, 5, 6]
    got = as17_blo.simulate(domain, env, 4, T, plan, reps, 11).regret.to_numpy()
    ref = _reference_blo(domain, env, 4, T, {"scrible": [None], "dp_scrible": [1.0, 4.0], "dp_scrible_composed": [4.0]},
                         reps, 11)
    assert got.shape == ref.shape
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-9)
    assert np.ptp(ref) > 1.0  # the rows differ: the comparison is not between constants
