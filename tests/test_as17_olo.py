"""Agarwal-Singh Table 1 rows 2-3 in N: Theorem 3.4's explicit bound."""
import numpy as np
import pandas as pd
import pytest

from dpregret.papers.as17.claims_tables import OLO_BOUNDS, evaluate_olo_bound, olo_bound_results, olo_regime
from dpregret.papers.as17.olo import eta_ftrl
from dpregret.papers.as17 import scenario_olo as as17_olo
from margins import assert_verdict, assert_z


@pytest.mark.parametrize("row", ["sphere", "cube"])
def test_d_noise_of_one_laplace_coordinate_is_twice_its_mean_absolute_value(row):
    # N = 1, T = 2: one draw per release (K = 1), range 2 |Z|, E|Lap(lam)| = lam
    m, se = as17_olo.d_noise_mc(row, 1, 2, 3.0, 40000, 7)
    assert_z(abs(m - 6.0), se, 4 * se, "below", k=1, what="|D_noise - 6|")  # within 4 se, by >= 1 se
    assert se < 0.05


def test_d_noise_of_the_cube_is_n_times_one_coordinate_and_the_sphere_less():
    one, se_one = as17_olo.d_noise_mc("cube", 1, 64, 1.0, 20000, 7)
    cube, se_cube = as17_olo.d_noise_mc("cube", 16, 64, 1.0, 20000, 7)
    ball, se_ball = as17_olo.d_noise_mc("sphere", 16, 64, 1.0, 20000, 7)
    ratio = cube / one
    assert_z(abs(ratio - 16.0), ratio * np.hypot(se_one / one, se_cube / cube), 0.03 * 16.0, "below", k=3,
             what="|cube / one - 16|")
    # 2 E||Z||_2 ~ 2 sqrt(N K 2) lam for K = 6 draws of Lap(1) per coordinate
    want = 2 * np.sqrt(16 * 6 * 2.0)
    assert_z(abs(ball - want), se_ball, 0.05 * want, "below", k=3, what="|ball - 2 sqrt(2 N K)|")


def test_subset_of_algorithms_reproduces_the_same_numbers_and_records_the_bound_terms():
    full = as17_olo.simulate("cube", "stochastic", 3, 64, [4.0], range(3), 5, mu=0.5)
    sub = as17_olo.simulate("cube", "stochastic", 3, 64, [4.0], range(3), 5, mu=0.5,
                            algorithms=("nonprivate", "tree", "wrong_sensitivity"))
    k = ["algorithm", "replicate"]
    a = full[full.algorithm.isin(sub.algorithm.unique())].set_index(k).sort_index()
    np.testing.assert_array_equal(a.regret.to_numpy(), sub.set_index(k).sort_index().regret.to_numpy())
    assert sub.eta.iloc[0] == pytest.approx(eta_ftrl(3.0, 32.0))
    # stochastic losses lie in the unit l1 ball: sum ||l||_2^2 / 2 <= T / 2; comparator = ||L_T||_1 <= T
    assert (sub.sum_sq_dual <= 32.0).all() and (sub.sum_sq_dual > 0).all()
    assert (sub.comparator <= 64.0).all() and (sub.comparator > 0).all()
    with pytest.raises(ValueError):
        as17_olo.simulate("cube", "stochastic", 3, 64, [4.0], range(3), 5, algorithms=("tree",))


def test_regime_window():
    # sphere: 2/eta <= E||Z_c||_2 = D_c/2 <= ||L_T||_2
    assert olo_regime("sphere", 8, 0.02, 400.0, 5000.0)["in_regime"]          # 100 <= 200 <= 5000
    assert not olo_regime("sphere", 8, 0.01, 300.0, 5000.0)["in_regime"]      # 150 < 200
    assert not olo_regime("sphere", 8, 0.02, 12000.0, 5000.0)["in_regime"]    # 6000 > 5000
    # cube, per coordinate: D_c / (2N) against ||L_T||_1 / N
    r = olo_regime("cube", 10, 0.04, 2000.0, 5000.0)
    assert (r["two_over_eta"], r["control_noise"], r["signal"], r["in_regime"]) == (50.0, 100.0, 500.0, True)


@pytest.fixture(scope="module")
def sphere_run():
    T, p = 3000, {"rows": ["sphere"], "envs": ["stochastic"], "T_N": 3000, "rate_eps": 4.0, "mc_samples": 4000}
    df = pd.concat([as17_olo.simulate("sphere", "stochastic", N, T, [4.0], range(8), 11, mu=0.5,
                                      algorithms=as17_olo.GRID_ALGORITHMS["N"]).assign(grid="N") for N in (2, 8, 32)])
    return df, p


def test_bound_claim_passes_and_points_outside_the_regime_decide_nothing(sphere_run):
    df, p = sphere_run
    (cid, env), (claim, control) = next(iter(olo_bound_results(df, p, 11, 0.05).items()))
    assert (cid, env) == ("AS17-T1-sphere-thm3.4-bound-N", "stochastic") and cid in OLO_BOUNDS
    # at T = 3000: 2/eta = 77.5; the control's noise is ~74 at N = 2 (below), ~640 at N = 8 (inside) and
    # ~5300 at N = 32 (above mu T = 1500)
    assert [q["N"] for q in claim.detail["out_of_regime"]] == [2, 32]
    assert [q["N"] for q in claim.detail["points"]] == [8]
    # N = 2 is out by a Monte Carlo estimate 4.5% under 2/eta: >= 3 of its standard errors (measured 5.4)
    g2 = df[(df.N == 2) & (df.algorithm == "wrong_sensitivity")]
    m, se = as17_olo.d_noise_mc("sphere", 2, p["T_N"], float(g2.noise_scale.iloc[0]), p["mc_samples"], 11)
    assert_z(m / 2, se / 2, 2 / float(g2.eta.iloc[0]), "below", k=3, what="control noise at N = 2 against 2/eta")
    assert_verdict(claim, "PASS")
    # the control reads the same bound at the same point, and its regret is above the claim's (paired, by
    # >= 3 standard errors of the difference; measured 17)
    q, qc = claim.detail["points"][0], control.detail["points"][0]
    assert qc["bound"] == q["bound"]
    g8 = df[df.N == 8].sort_values("replicate")
    d = g8[g8.algorithm == "wrong_sensitivity"].regret.to_numpy() - g8[g8.algorithm == "tree"].regret.to_numpy()
    assert_z(d.mean(), d.std(ddof=1) / np.sqrt(d.size), 0.0, "above", k=3, what="control regret - claim regret")


def test_no_point_in_the_regime_is_inconclusive_with_the_numbers(sphere_run):
    df, p = sphere_run
    d = {(2, "tree"): (10.0, 0.1), (2, "wrong_sensitivity"): (20.0, 0.1)}
    claim, control = evaluate_olo_bound(df[df.N == 2], "sphere", d, 0.05)
    assert claim.verdict == control.verdict == "INCONCLUSIVE"
    assert "not in the regime" in claim.detail["not_in_regime"]
    assert claim.detail["regime_numbers"]["points"][0]["N"] == 2


@pytest.mark.parametrize("row,env", [("sphere", "switching"), ("cube", "stochastic"), ("ftpl", "stochastic"),
                                     ("ftpl", "switching")])
def test_blocks_of_rounds_equal_the_per_round_learners(row, env, monkeypatch):
    """simulate() runs blocks of rounds through the prefix sums' block(); the per-round
    predict/update loop of the same learners on the same draws gives the same regret to rounding,
    whatever the block size (here blocks of 37 rounds, so tree nodes carry over block edges)."""
    from dpregret.environments.olo import StochasticOLO, SwitchingOLO, best_in_hindsight
    from dpregret.rng import ReplicateStreams, stable_key
    N, T, eps, reps = 4, 300, [1.0, 4.0], [0, 3, 5]
    monkeypatch.setattr(as17_olo, "BLOCK_DOUBLES", 37 * len(eps) * len(reps) * N)
    got = as17_olo.simulate(row, env, N, T, eps, reps, 17, mu=0.3)
    # the reference: the same learners one round at a time (the loop simulate ran before the blocks)
    point = (as17_olo.SCENARIO, row, env, N, T, 4 if env == "switching" else 0.3)
    dom = as17_olo.DOMAIN[row]
    src = SwitchingOLO(dom, T, N, 4) if env == "switching" else StochasticOLO(
        dom, N, 0.3, ReplicateStreams(17, stable_key(*point, "losses"), reps))
    learners = as17_olo.row_learners(row, N, T, eps, reps, 17, point)
    R = len(reps)
    suffered = {a: 0.0 for a in learners}
    cum = np.zeros((R, N))
    for t in range(1, T + 1):
        l = src.loss(t, R)
        for name, learner in learners.items():
            x = learner.predict()
            lb = l if x.shape[0] == R else np.tile(l, (x.shape[0] // R, 1))
            suffered[name] = suffered[name] + np.einsum("bi,bi->b", x, lb)
            learner.update(lb)
        cum += l
    best = best_in_hindsight(dom, cum)
    for name in learners:
        want = (suffered[name] - np.tile(best, np.size(suffered[name]) // R)).reshape(-1, R)
        g = got[got.algorithm == name]
        for ei, e in enumerate(eps):
            have = g[g.eps == e].regret.to_numpy()
            np.testing.assert_allclose(have, want[0 if want.shape[0] == 1 else ei], rtol=1e-9, atol=1e-9)


def test_regret_rate_grid_R_runs_at_regret_mu_and_regret_eps_and_is_read_by_the_regret_rates(tmp_path):
    """Grid R (``regret_mu``): the simulate job writes Algorithm 1's runs of one env at the sequence's own
    mean and ``regret_eps`` only, the same numbers as ``simulate`` at that mu; the regret-rate check reads
    those rows (relabelled T) for its row, every other claim the shared T grid."""
    from dpregret.papers.as17.claims_tables import OLO_SPECS, regret_rate_rows
    p = {"rate_eps": 4.0, "regret_eps": 32.0, "eps": [4.0, 32.0], "phases": 4, "mu": 0.5, "mu_fixed": 0.2,
         "regret_mu": {"stochastic": 0.2}}
    assert as17_olo.grid_mu(p, "R", "cube", "stochastic") == 0.2 and as17_olo.grid_mu(p, "T", "cube", "stochastic") == 0.5
    out = [str(tmp_path / f"results/as17/olo/{row}/stochastic/R_N3_T64/chunk0-2.parquet") for row in ("sphere", "cube")]
    for o in out:
        (tmp_path / o).parent.mkdir(parents=True, exist_ok=True)
    as17_olo.simulate_job({"p": p, "seed": 5}, {"env": "stochastic", "chunk": "0-2"}, out)
    R = pd.concat([pd.read_parquet(o) for o in out], ignore_index=True)
    assert set(R.eps) == {32.0} and set(R.algorithm) == {"nonprivate", "tree", "fresh_noise"}
    ref = as17_olo.simulate("cube", "stochastic", 3, 64, [32.0], range(2), 5, mu=0.2,
                            algorithms=("nonprivate", "tree", "fresh_noise"))
    key = ["algorithm", "replicate"]
    np.testing.assert_array_equal(R[R.row == "cube"].sort_values(key).regret.to_numpy(), ref.sort_values(key).regret.to_numpy())
    T = as17_olo.simulate("cube", "stochastic", 3, 64, [4.0, 32.0], range(2), 5, mu=0.5,
                          algorithms=("nonprivate", "tree", "fresh_noise")).assign(grid="T")
    df = pd.concat([T, R], ignore_index=True)
    specs = {s.claim.claim_id: s for s in OLO_SPECS}
    got = regret_rate_rows(df, specs["AS17-T1-cube-regret-rate-T"])
    assert set(got.grid) == {"T"} and set(got.row) == {"cube"} and len(got) == len(R[R.row == "cube"])
    np.testing.assert_array_equal(got.sort_values(key).regret.to_numpy(), ref.sort_values(key).regret.to_numpy())
    # without grid R rows of the claim's row, the shared T grid (never another row's R rows)
    only_T = regret_rate_rows(df[df.row != "cube"].pipe(lambda d: pd.concat([d, T])), specs["AS17-T1-cube-regret-rate-T"])
    assert set(only_T.grid) == {"T"} and (only_T[only_T.row == "cube"].eps.nunique() == 2)
