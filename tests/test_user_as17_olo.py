"""Your own OLO learner over the sphere / the cube fed TreeBasedAgg's private prefix sums (Agarwal
and Singh 2017, Table 1 rows 2-3, Corollary 3.2 items 2-3; ``dpregret.papers.as17.user_olo``): the paper's rows do not move, the paper's FTRL through the generic per-round path gives
the paper's tree / nonprivate / fresh_noise numbers, the learner sees exactly the tree's releases,
and a small learner gets the verdict of ``AS17-T1-<row>-gap-rate-T`` with its control (fresh-noise
sums) caught."""
import numpy as np
import pandas as pd
import pytest

from dpregret.papers.as17 import claims_tables as C
from dpregret.claims.core import check_rng
from dpregret.papers.as17.olo import BallFTRL, CubeFTRL, d_r_quadratic, eta_ftrl
from dpregret.papers.as17.prefix_sums import ExactSum, FreshNoise, scaled_draws
from dpregret.rng import stable_key
from dpregret.papers.as17 import scenario_olo as X
from dpregret.papers.as17 import user_olo as U
from dpregret.tree import TreeBasedAgg


def _proj(y, domain):
    if domain == "ball":
        return y / np.maximum(1.0, np.linalg.norm(y, axis=1, keepdims=True))
    return np.clip(y, -1.0, 1.0)


class LazyOGD:
    """Dual averaging (lazy projected OGD) with the anytime step 1/sqrt(t), x_t = Proj_X(-S / sqrt(t))
    on the sum S of what it was fed: a user's learner, vectorised over R rows."""

    def __init__(self, R, d, T, domain):
        self.domain, self.S, self.t = domain, np.zeros((R, d)), 0

    def predict(self):
        self.t += 1
        return _proj(-self.S / np.sqrt(self.t), self.domain)

    def update(self, losses):
        self.S = self.S + losses


class GreedyOGD:
    """Projected OGD x_{t+1} = Proj_X(x_t - eta l_t), eta = diam(X) / sqrt(T): per-round state, so
    the noise of the reconstructed losses does not telescope through its projections."""

    def __init__(self, R, d, T, domain):
        self.domain, self.x = domain, np.zeros((R, d))
        self.eta = (2.0 if domain == "ball" else 2.0 * np.sqrt(d)) / np.sqrt(T)

    def predict(self):
        return self.x

    def update(self, losses):
        self.x = _proj(self.x - self.eta * losses, self.domain)


def paper_ftrl(R, d, T, domain):
    """The paper's learner (Algorithm 1, R = ||x||^2, the scenario's eta) reading the sum of its feed."""
    return (BallFTRL if domain == "ball" else CubeFTRL)(eta_ftrl(d_r_quadratic(domain, d), T / 2.0), ExactSum(R, d))


CASES = [(r, e) for r in U.ROWS for e in ("stochastic", "switching")]


@pytest.mark.parametrize("row,env", CASES)
def test_papers_rows_are_bit_identical_with_and_without_a_user_learner(row, env):
    kw = dict(phases=3, mu=0.3)
    alone = X.simulate(row, env, 4, 300, [1.0, 4.0], range(2, 5), 11, **kw)
    both = U.simulate(row, env, 4, 300, [1.0, 4.0], range(2, 5), 11, learners={"mine": LazyOGD}, **kw)
    pd.testing.assert_frame_equal(both.iloc[: len(alone)], alone)  # the paper's rows, in their positions
    mine = both.iloc[len(alone):]
    assert list(mine.columns) == list(alone.columns)
    assert sorted(set(mine.algorithm)) == ["mine", "mine@fresh_noise", "mine@nonprivate"]
    assert len(mine) == 3 * 2 * 3 and mine.regret.notna().all() and mine.eta.isna().all()
    assert U.simulate(row, env, 4, 300, [1.0, 4.0], range(2, 5), 11, **kw).equals(alone)
    sub = X.GRID_ALGORITHMS["T"]
    alone = X.simulate(row, env, 4, 300, [4.0], range(2, 5), 11, algorithms=sub, **kw)
    both = U.simulate(row, env, 4, 300, [4.0], range(2, 5), 11, algorithms=sub, learners={"mine": LazyOGD}, **kw)
    pd.testing.assert_frame_equal(both.iloc[: len(alone)], alone)


@pytest.mark.parametrize("row,env", CASES)
def test_papers_ftrl_on_the_generic_path_gives_the_papers_numbers(row, env):
    """Fed L~_0 before round 1 and then L~_t - L~_{t-1}, the paper's FTRL plays on the tree's prefix
    sums: the paper's rows (tree, nonprivate, fresh_noise) to 1e-12 relative (the sums of the
    increments and the block sums round in the last bits); the columns of the sequence exactly."""
    df = U.simulate(row, env, 5, 2000, [1.0, 4.0], range(1, 5), 23, mu=0.3, learners={"paper": paper_ftrl})
    keys = ["row", "env", "N", "T", "eps", "replicate"]
    for alg, mine in (("tree", "paper"), ("nonprivate", "paper@nonprivate"), ("fresh_noise", "paper@fresh_noise")):
        a, b = (df[df.algorithm == n].reset_index(drop=True) for n in (alg, mine))
        pd.testing.assert_frame_equal(a[keys], b[keys])
        np.testing.assert_allclose(b.regret, a.regret, rtol=1e-12, atol=0)
        for col in ("sum_sq_dual", "comparator", "noise_scale"):
            np.testing.assert_array_equal(b[col], a[col])
    tree, nonpriv = (df[df.algorithm == a].regret.to_numpy() for a in ("tree", "nonprivate"))
    assert np.all(tree != nonpriv)


@pytest.mark.parametrize("row", U.ROWS)
def test_the_learner_sees_exactly_the_trees_releases_and_the_exact_losses(row):
    """What the wrapper feeds: the tree's L~_0 first, then increments whose running sums are the
    releases of TreeBasedAgg (the per-round class on the paper rows' draws and scale); the
    non-private twin gets 0 then the losses; the control the increments of FreshNoise's releases."""
    N, T, eps, reps, seed, mu = 3, 300, 2.0, range(2), 5, 0.2
    seen = []

    class Recording(LazyOGD):
        def __init__(self, R, d, T_, domain):
            assert domain == X.DOMAIN[row] and (R, d, T_) == (2, N, T)
            super().__init__(R, d, T_, domain)
            seen.append(self)
            self.fed = []

        def update(self, losses):
            self.fed.append(np.array(losses))
            super().update(losses)

    U.simulate(row, "stochastic", N, T, [eps], reps, seed, mu=mu, learners={"rec": Recording})
    exact, tree, fresh = (np.stack(r.fed, axis=1) for r in seen)  # built: nonprivate, then tree, fresh
    assert exact.shape == tree.shape == fresh.shape == (2, T + 1, N)
    source, ts, fs = U.point_streams(row, "stochastic", N, T, reps, seed, 4, mu)
    L = source.block(T)
    np.testing.assert_array_equal(exact[:, 0], 0.0)
    np.testing.assert_array_equal(exact[:, 1:], L)
    scales = X.noise_scales(row, N, T, eps)
    agg = TreeBasedAgg(T, N, scaled_draws(ts, [scales["tree"]], N), 2)
    rel = [agg.released.copy()]
    for t in range(T):
        agg.step(L[:, t])
        rel.append(agg.released.copy())
    np.testing.assert_allclose(np.cumsum(tree, axis=1), np.stack(rel, axis=1), rtol=1e-12, atol=1e-9)
    fn = FreshNoise(2, N, scaled_draws(fs, [scales["fresh_noise"]], N))
    est = [fn.estimate.copy()]
    for t in range(T):
        fn.step(L[:, t])
        est.append(fn.estimate.copy())
    np.testing.assert_allclose(np.cumsum(fresh, axis=1), np.stack(est, axis=1), rtol=1e-12, atol=1e-9)
    assert np.abs(tree[:, 0]).min() > 0  # L~_0 is noise: a real test


def test_user_rows_are_chunk_invariant_and_deterministic():
    run = lambda r: U.simulate("sphere", "stochastic", 3, 500, [2.0], r, 3, mu=0.2, learners={"g": GreedyOGD})  # noqa: E731
    whole = run(range(4))
    parts = pd.concat([run(range(0, 1)), run(range(1, 4))])
    key = ["algorithm", "eps", "replicate"]
    pd.testing.assert_frame_equal(whole.sort_values(key).reset_index(drop=True),
                                  parts.sort_values(key).reset_index(drop=True))
    pd.testing.assert_frame_equal(run(range(4)), whole)


class Fixed:
    def __init__(self, R, x, shape=None):
        self.x = np.broadcast_to(np.asarray(x, dtype=float), shape or (R, len(x))).copy()

    def predict(self):
        return self.x

    def update(self, losses):
        pass


def test_bad_make_and_bad_plays_are_clear_errors():
    base = dict(row="sphere", env="stochastic", N=2, T=20, eps=[1.0], replicates=range(2), root_seed=1)
    with pytest.raises(ValueError, match=r"make\(R, d, T, domain\).*cannot take"):
        U.simulate(learners={"mine": lambda R, d, T: None}, **base)
    with pytest.raises(ValueError, match="not a learner with predict"):
        U.simulate(learners={"mine": lambda R, d, T, domain: object()}, **base)
    with pytest.raises(ValueError, match="must be callable"):
        U.simulate(learners={"mine": 3}, **base)
    for name in ("tree", "nonprivate", "fresh_noise", "wrong_sensitivity", "my learner"):
        with pytest.raises(ValueError, match="identifier not among the paper's rows"):
            U.simulate(learners={name: LazyOGD}, **base)
    one = LazyOGD(2, 2, 20, "ball")
    with pytest.raises(ValueError, match="same object twice"):
        U.simulate(learners={"mine": lambda R, d, T, domain: one}, **base)
    with pytest.raises(ValueError, match=r"round 1: an olo learner's predict\(\) must return shape \(2, 2\)"):
        U.simulate(learners={"mine": lambda R, d, T, domain: Fixed(R, [0.5, 0.5], (R + 1, d))}, **base)
    with pytest.raises(ValueError, match=r"learner 'mine' \(\w+\) in rounds 1..20: .*unit l2 ball.*1.41421"):
        U.simulate(learners={"mine": lambda R, d, T, domain: Fixed(R, [1.0, 1.0])}, **base)
    with pytest.raises(ValueError, match=r"in rounds 1..20: .*cube.*1.5"):
        U.simulate(learners={"mine": lambda R, d, T, domain: Fixed(R, [1.5, 0.0])}, **{**base, "row": "cube"})
    U.simulate(learners={"mine": lambda R, d, T, domain: Fixed(R, [1.0, -1.0])}, **{**base, "row": "cube"})  # a vertex
    with pytest.raises(ValueError, match="non-finite"):
        U.simulate(learners={"mine": lambda R, d, T, domain: Fixed(R, [np.nan, 0.0])}, **base)
    with pytest.raises(ValueError, match="env must be one of"):
        U.simulate(**{**base, "env": "adversarial"}, learners={"mine": LazyOGD})
    with pytest.raises(ValueError, match="row must be one of"):
        U.simulate(**{**base, "row": "ftpl"}, learners={"mine": LazyOGD})


def _rng_for(cid):
    return np.random.default_rng(stable_key("check", cid))


def _clear(res, verdict, threshold=None):
    """The declared margin of a stochastic verdict: ``res`` has ``verdict`` (``FAIL``: above, ``PASS``:
    below) and its interval clears the threshold (``bound + tolerance``, or ``threshold``) on that
    side by at least its half-width."""
    thr = res.bound + res.tolerance if threshold is None else threshold
    half = (res.ci_high - res.ci_low) / 2
    gap = res.ci_low - thr if verdict == "FAIL" else thr - res.ci_high
    assert res.verdict == verdict and gap >= half, f"{verdict}: [{res.ci_low:.3f}, {res.ci_high:.3f}] vs {thr} {res}"


# the default preset's as17_olo T grid, N and mu (config/config.yaml), fewer replicates
P = {"N": 8, "T": [300, 1000, 3000, 10000, 30000], "rate_eps": 4, "mu": 0.5, "phases": 4, "eps": [1, 4]}
TOL = {"AS17-T1-sphere-gap-rate-T": 0.15, "AS17-T1-cube-gap-rate-T": 0.15}  # config/config.yaml's tolerances


def _uc(row):
    return {uc.claim: uc for uc in U.USER_CLAIMS}[f"AS17-T1-{row}-gap-rate-T"]


@pytest.fixture(scope="module", params=U.ROWS)
def small_runs(request):
    uc = _uc(request.param)
    runs = pd.concat([uc.simulate(P, t, range(6), 7, {"lazy": LazyOGD, "greedy": GreedyOGD}) for t in uc.points(P)],
                     ignore_index=True)
    return request.param, runs


def test_user_claim_decides_a_small_learner_with_its_control_caught(small_runs):
    row, runs = small_runs
    uc = _uc(row)
    assert (uc.claim, uc.scenario, uc.setting, uc.signature, uc.paper_name) == (
        f"AS17-T1-{row}-gap-rate-T", "as17_olo", "olo", "make(R, d, T, domain)", "tree")
    assert uc.points(P) == P["T"]
    assert (runs.env == "stochastic").all() and np.isclose(runs.eps, 4).all()
    assert (runs.row == row).all() and (runs.grid == "T").all()
    assert set(runs.algorithm) == {"tree", "nonprivate", "fresh_noise"} | {
        f"{n}{s}" for n in ("lazy", "greedy") for s in ("", "@nonprivate", "@fresh_noise")}
    paper, paper_ctl = uc.decide(runs, P, TOL, 0.05, _rng_for, "tree")
    mine, mine_ctl = uc.decide(runs, P, TOL, 0.05, _rng_for, "lazy")
    # every verdict and threshold with the declared margin, the interval clear by its half-width (measured,
    # sphere / cube: controls ~0.55-0.61 +- 0.01, learners below 0.15 by 0.10-0.35, greedy 0.75-0.76 +- 0.005)
    for ctl in (paper_ctl, mine_ctl):  # fresh-noise sums: the gap grows ~ sqrt(T)
        _clear(ctl, "FAIL")
        _clear(ctl, "FAIL", 0.4)  # sqrt(T): 0.5 before the log2(T)^2
    for res in (paper, mine):
        _clear(res, "PASS")  # ci_high below 0 + 0.15
    assert mine.measured != paper.measured
    # greedy projected OGD: the reconstructed losses' noise does not telescope through its
    # projections, its gap grows ~ T^(3/4): the check says so (a FAIL, not a crash)
    greedy, _ = uc.decide(runs, P, TOL, 0.05, _rng_for, "greedy")
    _clear(greedy, "FAIL")
    _clear(greedy, "FAIL", 0.5)
    # the paper's learner is decided by the pipeline's check (check_job: evaluate_rate on OLO_SPECS,
    # rng check_rng(seed, claim id, env)); with that rng, the same result
    rows = runs[runs.algorithm.isin(X.GRID_ALGORITHMS["T"])]
    spec = {s.claim.claim_id: s for s in C.OLO_SPECS}[uc.claim]
    piped = C.evaluate_rate(rows, spec, 4, 0.15, 0.05, check_rng(7, uc.claim, "stochastic"))
    mine_rng = C.olo_gap_rate_T_claim(runs, row, 4, TOL, 0.05, lambda cid: check_rng(7, cid, "stochastic"), "tree")
    assert [(r.verdict, r.measured, r.ci_low, r.ci_high) for r in piped] == [
        (r.verdict, r.measured, r.ci_low, r.ci_high) for r in mine_rng]
    assert (piped[0].measured, piped[1].measured) == (paper.measured, paper_ctl.measured)


def test_olo_gap_rate_T_claim_names_missing_rows(small_runs):
    row, runs = small_runs
    with pytest.raises(ValueError, match="algorithm='nobody'"):
        C.olo_gap_rate_T_claim(runs, row, 4, TOL, 0.05, _rng_for, "nobody")
    with pytest.raises(ValueError, match="env='switching'"):
        C.olo_gap_rate_T_claim(runs, row, 4, TOL, 0.05, _rng_for, "lazy", env="switching")
    with pytest.raises(ValueError, match="row must be 'sphere' or 'cube'"):
        C.olo_gap_rate_T_claim(runs, "ftpl", 4, TOL, 0.05, _rng_for, "lazy")


@pytest.mark.parametrize("row", U.ROWS)
def test_user_claims_paper_rows_are_the_pipelines_rows(row):
    """The claim simulates only rate_eps; its paper rows equal the pipeline's (every eps of the
    preset, as17_olo.simulate_job on the T grid) at rate_eps."""
    uc = _uc(row)
    mine = uc.simulate(P, 300, range(3), 9, {})
    full = X.simulate(row, "stochastic", P["N"], 300, P["eps"], range(3), 9, phases=P["phases"], mu=P["mu"],
                      algorithms=X.GRID_ALGORITHMS["T"])
    full = full[np.isclose(full.eps, P["rate_eps"])].reset_index(drop=True).assign(grid="T")
    pd.testing.assert_frame_equal(mine, full, check_exact=False, rtol=1e-12)


def test_the_claims_are_found_by_the_contract_and_check_runs_them():
    import dpregret
    from dpregret.protocols import SIGNATURES
    from dpregret.scenarios.contract import user_claims

    found = user_claims()
    for uc in U.USER_CLAIMS:
        assert found[uc.claim] is uc
    assert SIGNATURES["olo"] == U.SIGNATURE
    out = dpregret.check(LazyOGD, "AS17-T1-sphere-gap-rate-T", name="lazy", preset="smoke", replicates=4)
    v = out.verdicts.set_index("learner")
    assert list(v.index) == [U.USER_CLAIMS[0].paper_label, "lazy"]
    assert set(out.runs.algorithm) == {"tree", "nonprivate", "fresh_noise", "lazy", "lazy@nonprivate",
                                       "lazy@fresh_noise"}
    for learner, r in v.iterrows():  # the verdict rule: no PASS without a caught control
        assert r.verdict != "PASS" or r.control_caught, learner
