"""The O~(T^(2/3)) baseline of Table 2 row 1 (``dpregret.papers.as17.blo_baseline``): its compiled block path against
a plain per-round loop written here (the same draws), the tuning's exponents, the estimate's unbiasedness, and its
rows in the scenario beside the paper's (whose numbers it does not move)."""
import math

import numpy as np
import pytest

from dpregret.core.rng import ReplicateStreams
from dpregret.papers.as17 import blo_baseline as BB
from dpregret.papers.as17 import scenario_blo as B


def _loop(domain, N, T, eps, U, Z, L):
    """The baseline round by round, literally: play FTRL's point on the tree's release of the estimates' prefix sums
    (the release at t-1: true sum + the noise of the dyadic nodes of [1, t-1]), explore with prob gamma."""
    P = BB.explore_params(domain, N, T, eps)
    gamma, eta, lam = P["gamma"], P["eta"], P["lambda"]
    R = L.shape[0]
    suffered = np.zeros(R)
    for r in range(R):
        est = np.zeros((T, N))
        node = {}  # (level, index) -> noise of the dyadic node [index 2^level + 1 - 2^level, index 2^level]
        for t in range(1, T + 1):
            tr = est[: t - 1].sum(axis=0)
            noise = sum((node[(j, (t - 1) >> j)] for j in range((t - 1).bit_length()) if ((t - 1) >> j) & 1),
                        np.zeros(N))
            z = -eta * (tr + noise)
            x = z / max(1.0, np.linalg.norm(z)) if domain == "ball" else np.clip(z, -1, 1)
            suffered[r] += (1 - gamma) * x @ L[r, t - 1]
            if U[r, t - 1, 0] < gamma:
                i = min(int(U[r, t - 1, 1] * N), N - 1)
                est[t - 1, i] = L[r, t - 1, i] * N / gamma
            j = (t & -t).bit_length() - 1  # the node completed at t
            node[(j, t >> j)] = lam * Z[r, t - 1]
    return suffered


@pytest.mark.parametrize("domain", ["ball", "cube"])
def test_block_path_equals_a_plain_loop(domain):
    N, T, R = 3, 300, 2
    s1, s2 = ReplicateStreams(11, (1, 2), range(R)), ReplicateStreams(11, (1, 3), range(R))
    U = ReplicateStreams(11, (1, 2), range(R)).uniform((T, 2))
    Z = ReplicateStreams(11, (1, 3), range(R)).laplace(1.0, (T, N))
    rng = np.random.default_rng(3)
    L = rng.uniform(-1, 1, (R, T, N)) + 0.4  # a drift, so FTRL's point moves
    L /= np.maximum(1.0, np.linalg.norm(L, axis=-1, keepdims=True) if domain == "ball" else np.abs(L).sum(-1,
                                                                                                    keepdims=True))
    b = BB.ExploreTreeBLO(domain, N, T, [2.0], s1, s2)
    for t0 in range(0, T, 64):  # blocks of any size: the same rounds
        b.run(L[:, t0:t0 + 64])
    np.testing.assert_allclose(b.suffered, _loop(domain, N, T, 2.0, U, Z, L), rtol=1e-9, atol=1e-9)


def test_tuning_exponents_and_privacy_scale():
    N = 4
    g = [BB.explore_params("ball", N, T, 1.0)["gamma"] for T in (10**4, 10**7)]
    assert abs(math.log(g[1] / g[0]) / math.log(1e3) + 1 / 3) < 1e-12  # gamma ~ T^(-1/3)
    e = [BB.explore_params("cube", N, T, 1.0)["eta"] for T in (10**4, 10**7)]
    assert abs(math.log(e[1] / e[0]) / math.log(1e3) + 2 / 3) < 1e-12  # eta ~ sqrt(gamma / T) ~ T^(-2/3)
    p1, p4 = BB.explore_params("ball", N, 10**5, 1.0), BB.explore_params("ball", N, 10**5, 4.0)
    assert abs(p1["lambda"] / p4["lambda"] - 4) < 1e-12
    assert abs(p1["lambda"] - 2 * N / p1["gamma"] * (10**5).bit_length()) < 1e-9  # l1 sensitivity 2N/gamma x nodes
    with pytest.raises(ValueError):
        BB.explore_params("simplex", N, 100, 1.0)


def test_one_point_estimate_is_unbiased():
    """E[l^] over (explore?, coordinate) = gamma * mean_i (N l_i e_i / gamma) = l, exactly."""
    N, gamma = 5, 0.2
    l = np.random.default_rng(0).uniform(-1, 1, N)
    mean = sum(gamma / N * (N * l[i] / gamma) * np.eye(N)[i] for i in range(N))
    np.testing.assert_allclose(mean, l, rtol=1e-12)


def test_scenario_rows_beside_the_papers_unchanged():
    plan = {"dp_scrible": [4.0], "scrible": [None]}
    a = B.simulate("ball", "stochastic", 3, 500, plan, range(3), 5)
    b = B.simulate("ball", "stochastic", 3, 500, {**plan, B.BASELINE: [4.0]}, range(3), 5)
    pd_a = a.sort_values(["algorithm", "replicate"]).reset_index(drop=True)
    pd_b = b[b.algorithm != B.BASELINE].sort_values(["algorithm", "replicate"]).reset_index(drop=True)
    np.testing.assert_array_equal(pd_a.regret.to_numpy(), pd_b.regret.to_numpy())
    base = b[b.algorithm == B.BASELINE]
    assert len(base) == 3 and np.all(np.isfinite(base.regret)) and np.all(base.regret < base.trivial_regret + 500)


def test_the_comparison_claim_carries_its_controls_on_the_same_draws():
    import pandas as pd

    from dpregret.papers.as17 import claims_tables as C

    p = {"rate_eps": 4.0, "eps_window": [1.0]}
    fr = []
    for env in ("stochastic", "fixed"):
        for T in (300, 1000):
            df = B.simulate("cube", env, 3, T, B.grid_plan(p, "T"), range(3), 2)
            fr.append(df.assign(grid="T"))
    out = C.blo_vs_baseline(pd.concat(fr, ignore_index=True), 4.0, 0.05)
    assert set(out) == {"AS17-thm4.5-vs-T2-3-cube", "AS17-thm4.5-vs-T2-3-cube--fixed"} and set(out) <= set(C.EXTRA)
    for claim, ctl in out.values():
        d = claim.detail
        assert {"nonlearner", "twin", "mean_diff_by_T", "ratio_baseline_over_paper_by_T", "slope_in_T"} <= set(d)
        assert set(d["mean_diff_by_T"]) == {300, 1000}
        assert d["nonlearner"]["measured"] > claim.measured  # the centre is worse than the learner on the same losses
