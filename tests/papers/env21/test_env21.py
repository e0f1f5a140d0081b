"""Ene-Nguyen-Vladu scenario and claims: determinism, chunk invariance, the batched-variant
streams, the instrumentation, and every claim decided on a tiny run."""
import dataclasses

import numpy as np
import pandas as pd
import pytest

from dpregret.core.calibration import lemma5_noise_scale, noise_mu
from dpregret.papers.env21.learners import noise_to_smoothing
from dpregret.papers.env21 import claims as C
from dpregret.verdict.core import VERDICTS
from dpregret.testing import declared_tolerances
from dpregret.core.environments.bco import OffsetLosses, stationary_distance
from dpregret.core.environments.polytopes import Simplex, two_call_domain
from dpregret.papers.env21.learners import private_bandit
from dpregret.core.rng import ReplicateStreams, RowStreams, stable_key
from dpregret.papers.env21 import scenario as S
from dpregret.papers.env21.run import RoundMeter, run_variants, env21_streams, instrument
from margins import assert_verdict, assert_z

P = dict(replicates=4, L=1.0, delta=1e-5, T=[32, 128, 512, 3200], n_simplex=4, eps_rate_laplace=80,
         eps_rate_gaussian=2700, noise_level=10.0, tree_nodes=4, T_tree=[32, 128, 512, 3200], T_n=256, dims=[2, 4, 8],
         eps_n_laplace=280, eps_n_gaussian=5500, T_eps=256, dim_eps=3, eps_laplace=[0.3, 3, 30],
         eps_gaussian=[10, 100, 1000], T_cost=64, n_cost=[5, 12], T_oco=[64, 512], n_oco=3, rho_oco=50.0,
         kappa_over_G=2.0, gamma=[0.0, 0.5], zeta_decay_control=0.1,
         zeta_decay_control_private=0.05, oco_replicate_factor=2,
         regime={"noise_share_min": 0.5, "trivial_share_max": 0.5})
TIMING = ["wall_time", "oracle_time", "projection_time"]
ONE_POINT = {"rates": ("simplex", 128), "n": 4, "eps": "all", "cost": ("l1ball", 5), "noisyoco": 64}


def _canon(df: pd.DataFrame) -> pd.DataFrame:
    df = df.drop(columns=[c for c in TIMING if c in df.columns])
    keys = [c for c in ("alg", "eps", "gamma", "replicate") if c in df.columns]
    df = df.sort_values(keys, kind="stable").reset_index(drop=True)
    for c in df.columns:  # array columns (per-round values) -> tuples for comparison
        if df[c].dtype == object and any(isinstance(a, np.ndarray) for a in df[c]):
            df[c] = df[c].map(lambda a: tuple(np.round(a, 9)) if isinstance(a, np.ndarray) else None)
    return df


@pytest.mark.parametrize("experiment", S.EXPERIMENTS)
def test_deterministic_and_chunk_invariant(experiment):
    pt = ONE_POINT[experiment]
    whole = _canon(S.simulate(experiment, P, pt, range(4), 11))
    again = _canon(S.simulate(experiment, P, pt, range(4), 11))
    split = _canon(pd.concat([S.simulate(experiment, P, pt, range(0, 1), 11),
                              S.simulate(experiment, P, pt, range(1, 4), 11)], ignore_index=True))
    pd.testing.assert_frame_equal(whole, again)
    pd.testing.assert_frame_equal(whole, split, check_exact=False, rtol=1e-10)
    other = _canon(S.simulate(experiment, P, pt, range(4), 12))
    assert not np.allclose(whole.regret, other.regret)  # the seed matters


def test_row_streams_tile_and_scale():
    base = lambda: ReplicateStreams(3, stable_key("t"), range(2))  # noqa: E731
    z = base().normal((5,))
    t = RowStreams(base(), 3).normal((5,))
    assert t.shape == (6, 5) and np.array_equal(t[:2], z) and np.array_equal(t[4:], z)
    rs = RowStreams(base(), 3, [0.0, 2.0, 3.0], ["laplace", "laplace", "gaussian"])
    b = base()
    zl, zg = b.laplace(1.0, (4,)), b.normal((4,))
    out = rs.laplace(1.0, (4,))
    np.testing.assert_allclose(out, np.concatenate([0 * zl, 2 * zl, 3 * zg]))
    with pytest.raises(ValueError, match="kinds"):
        RowStreams(base(), 2, [1.0, 1.0], ["laplace", "uniform"])


def test_batched_variants_equal_separate_runs():
    """A variant run as rows of a batched call equals the same variant alone (same streams)."""
    dom = Simplex(4)
    losses = stationary_distance(dom, 200)
    lam = 3.0
    key = ("unit", 200)
    both = run_variants(dom, losses, [("none", "none", 0.0), ("laplace", "laplace", lam)], range(3), 5, key)
    alone = run_variants(dom, losses, [("laplace", "laplace", lam)], range(3), 5, key)
    np.testing.assert_allclose(both.regret[3:], alone.regret, rtol=1e-12)
    plain = private_bandit(dom, losses, env21_streams(5, range(3), *key, "u"))
    np.testing.assert_allclose(both.regret[:3], plain.regret, rtol=1e-12)


def test_instrumentation_replay_is_checked():
    dom = Simplex(4)
    losses = stationary_distance(dom, 100)
    key = ("unit", 100)
    run = run_variants(dom, losses, [("none", "none", 0.0)], range(2), 5, key, record=True)
    m = instrument(dom, losses, run, range(2), 5, key, 1)
    assert np.all(np.isfinite(m["c2_max"])) and np.all(m["c5_max"] >= m["c5_mean"])
    assert len(m["c2_rounds"][0]) == run.params["T_round"] and len(m["c5_rounds"][0]) == run.params["T_round"] - 1
    with pytest.raises(RuntimeError, match="replayed"):
        instrument(dom, losses, run, range(2), 5, ("other", 100), 1)


def test_two_call_domain_and_offset_losses():
    dom = two_call_domain(Simplex(3))
    x = dom.lmo(np.array([[0.3, -1.0, 0.2]]))
    assert dom.oracle_calls == 2 and np.array_equal(x, [[0.0, 1.0, 0.0]]) and isinstance(dom, Simplex)
    base = stationary_distance(Simplex(3), 10)
    off = OffsetLosses(base, 2.0)
    y = np.full((2, 3), 1 / 3)
    np.testing.assert_allclose(off.value(1, y), base.value(1, y) + 2.0)
    np.testing.assert_allclose(off.best_fixed([4, 10]), base.best_fixed([4, 10]) + [8.0, 20.0])


def test_noise_to_smoothing_formula_scales():
    a = noise_to_smoothing("laplace", 4000, 4, 1.0, np.sqrt(2), lemma5_noise_scale("laplace", 4000, 4, 1.0, 1.0, 1e-5))
    b = noise_to_smoothing("laplace", 4000, 4, 1.0, np.sqrt(2), lemma5_noise_scale("laplace", 4000, 4, 1.0, 10.0, 1e-5))
    assert a == pytest.approx(10 * b)
    assert noise_mu("gaussian", 1, 2.0) == pytest.approx(2.0 * np.sqrt(2 / np.pi))
    assert noise_mu("laplace", 4, 1.0) == pytest.approx(np.sqrt(8))


def test_slope_difference_decides():
    from dpregret.papers.env21.rates import slope_difference

    rng = np.random.default_rng(0)
    x = np.array([2.0, 4, 8, 16])
    a = [x_**0.5 * (1 + 0.05 * rng.standard_normal(16)) for x_ in x]
    b = [x_**1.5 * (1 + 0.05 * rng.standard_normal(16)) for x_ in x]
    assert_verdict(slope_difference(x, a, b, 0.05, np.random.default_rng(1), 0.25), "PASS")
    assert_verdict(slope_difference(x, b, a, 0.05, np.random.default_rng(1), 0.25), "FAIL")


def test_claims_on_a_tiny_run(monkeypatch):
    """Every claim is decided, and the large-effect controls are caught even at this size.
    12 replicates: margins measured at seeds 2026-2028 (half-widths of the deciding side):
    controls >= 4.1 (Lemma C.2's, the smallest), claims >= 24; C.5's straw man caught by >= 2.0
    (with 6 replicates: 0.67 at seed 2028).  The non-learner (the learner frozen at the centre, same
    draws, same check) is caught on the simplex (seed 2026: 0.934 against 0.85) and, for the gap
    claims, on their learning gate (its regret is 2 x the gate's threshold by construction)."""
    from dpregret.verdict.core import check_bound

    full = []  # round_bound keeps only its most critical point: keep every point's interval

    def keep(*args, **kwargs):
        r = check_bound(*args, **kwargs)
        full.append(dataclasses.replace(r, detail=dict(r.detail)))
        return r

    def by_alg(alg):
        return next(r for r in full if any(f"alg={alg}," in str(q) for q in r.detail.get("points", [])))

    monkeypatch.setattr(C, "check_bound", keep)
    tables = S.simulate_all(P, range(12), 2026)
    tol = declared_tolerances("dpregret.papers.env21")  # every claim's, as the pipeline gives them (none is 0)
    out = C.evaluate(tables, P, tol, 0.05, lambda cid: np.random.default_rng(0))
    assert set(out) == set(C.CLAIMS)
    assert all(r.verdict in VERDICTS and c.verdict in VERDICTS for r, c in out.values())
    for cid in ("ENV-lemma3.1-rate-T", "ENV-lemma3.1-rate-T-switching", "ENV-oracle-calls", "ENV-lemma4.1-bound"):
        assert_verdict(out[cid][1], "FAIL", what=f"{cid} control")
    assert out["ENV-lemmaC.2-bound"][1].verdict == "FAIL"
    # decided per round (one Bonferroni point per round): clearance 0.995 half-widths at seed 2026, so k = 0.5
    assert_verdict(by_alg("offset_losses"), "FAIL", k=0.5, what="ENV-lemmaC.2-bound control")
    # Corollary C.5: points where the bound is >= D are vacuous (left out): here every point of the correct
    # lambda's bound, so the near miss (2 lambda, checked against it) is not decided; the gross secondary is
    # caught at the non-vacuous points (T = 3200, no noise)
    c5, c5_control = out["ENV-corC.5-bound"]
    assert c5_control.verdict == "INCONCLUSIVE" and "vacuous" in c5_control.detail["reason"]
    assert ("T=3200, alg=laplace" in c5.detail["vacuous_points"]
            and "T=3200, alg=none" not in c5.detail["vacuous_points"])
    assert c5.detail["secondary_control"]["verdict"] == "FAIL"
    assert_verdict(by_alg("printed_sign"), "FAIL", what="ENV-corC.5-bound secondary control")
    # ... and sits closer to it than the correct noise: at T = 3200 the round-averaged c5 / bound is higher,
    # paired over replicates, by >= 3 standard errors (measured 31)
    sim = tables["rates"][(tables["rates"].domain == "simplex") & (tables["rates"]["T"] == 3200)]
    lap, wrong = (sim[sim.alg == a].sort_values("replicate") for a in ("laplace", "laplace_sens2"))
    d = (np.array([np.mean(v) for v in wrong.c5_rounds]) - np.array([np.mean(v) for v in lap.c5_rounds])) \
        / float(lap.c5_bound.iloc[0])
    assert_z(d.mean(), d.std(ddof=1) / np.sqrt(d.size), 0.0, "above", k=3, what="c5 ratio, near miss - correct")
    for cid in ("ENV-lemma3.1-rate-T", "ENV-lemma3.1-rate-T-switching", "ENV-oracle-calls"):
        assert_verdict(out[cid][0], "PASS", what=cid)
    assert out["ENV-oracle-calls"][1].measured == 2.0
    # the non-learner controls: attached where the user door does not serve the claim, caught
    from dpregret.verdict.core import Result
    for cid in ("ENV-lemma3.1-rate-T", "ENV-lemma3.1-rate-T-noise", "ENV-lemma4.1-bound", "ENV-lemma5.2-rate-n",
                "ENV-lemma5.2-rate-eps", "ENV-gauss-vs-laplace-n"):
        nl = {k: v for k, v in out[cid][0].detail["nonlearner"].items() if k in Result.__dataclass_fields__}
        assert_verdict(Result(**nl), "FAIL", what=f"{cid} non-learner")
    assert all("nonlearner" not in out[c][0].detail for c in ("ENV-lemma5.2-rate-T", "ENV-thm1.1-rate-T"))  # the door's
    assert not C.CLAIMS["ENV-lemmaC.2-bound"].learner_claim and not C.CLAIMS["ENV-corC.5-bound"].learner_claim
    # the n grid spans < 2 decades here: rate claims in n are INCONCLUSIVE by rule, not decided
    assert (out["ENV-lemma5.2-rate-n"][0].verdict == "INCONCLUSIVE"
            and "decades" in out["ENV-lemma5.2-rate-n"][0].detail["reason"])


def test_round_bound_pooled_is_one_point_per_group_and_can_fail():
    """Pooling rounds: one Bonferroni point per group, the per-run mean over rounds against B;
    a group whose round-average exceeds B fails it."""
    import pandas as pd

    from dpregret.papers.env21.claims import round_bound

    rng = np.random.default_rng(0)
    rows = [{"g": g, "replicate": r, "v": list(rng.normal(m, 0.1, 5)), "B": 1.0}
            for g, m in (("a", 0.5), ("b", 0.6)) for r in range(8)]
    df = pd.DataFrame(rows)
    res = round_bound(df, "v", "B", ["g"], 0.05, pool_rounds=True)
    assert_verdict(res, "PASS")  # at its most critical point (the one round_bound keeps)
    assert res.detail["n_points"] == 2
    assert round_bound(df, "v", "B", ["g"], 0.05).detail["n_points"] == 10
    df["v"] = [list(np.asarray(v) + (1.0 if g == "b" else 0.0)) for g, v in zip(df.g, df.v)]
    assert_verdict(round_bound(df, "v", "B", ["g"], 0.05, pool_rounds=True), "FAIL")


def test_online_meter_equals_offline_replay_and_leaves_run_unchanged():
    """RoundMeter during the run (rates' path, O(1) memory in T) == instrument() on the recorded
    run (directions replayed from the stream), bit for bit on the numpy engine (the compiled one
    agrees to rounding: tests/papers/env21/test_env21_jit.py); the monitor changes nothing."""
    key, reps, variants = ("unit", 150), range(3), [("none", "none", 0.0), ("laplace", "laplace", 2.0)]
    dom = Simplex(4)
    losses = stationary_distance(dom, 150)
    meter = RoundMeter(dom)
    online = run_variants(dom, losses, variants, reps, 5, key, record=True, monitor=meter, engine="numpy")
    m_on = meter.result()
    m_off = instrument(dom, losses, online, reps, 5, key, len(variants))
    for k in ("c2_max", "c2_mean", "c5_max", "c5_mean"):
        assert np.array_equal(m_on[k], m_off[k])
    for k in ("c2_rounds", "c5_rounds"):
        assert all(np.array_equal(a, b) for a, b in zip(m_on[k], m_off[k]))
    dom2 = Simplex(4)
    plain = run_variants(dom2, stationary_distance(dom2, 150), variants, reps, 5, key, engine="numpy")
    assert np.array_equal(plain.regret, online.regret) and plain.projections == online.projections
    assert online.plays.shape == (online.params["T_round"], 6, dom.n)


def test_corollary_c5_worst_case_search_is_deterministic_and_covers_its_family():
    """Corollary C.5's worst-case search (papers.env21.search, run in the check job): fixed
    streams, so the same numbers twice; every declared member decided at a non-vacuous T (bound < D),
    the run's own instance among them; the largest ratio is the maximum of the members' and below 1
    (measured 0.1995, f_t = L D at T = 3000: the bound holds with a slack no factor-2 slip can cross)."""
    from dpregret.papers.env21 import search as PS

    w = PS.worst_case_search()
    PS.worst_case_search.cache_clear()
    assert PS.worst_case_search() == w
    assert len(w["ratio_by_instance"]) == 7 * len(PS.T_GRID) and not w["vacuous"]
    assert any(k.startswith("vertex (the run's instance") for k in w["ratio_by_instance"])
    assert abs(w["max_ratio"] - max(w["ratio_by_instance"].values())) < 1e-4  # the table is rounded to 4 digits
    assert 0.1 < w["max_ratio"] < 0.5 and w["at"]["bound"] < np.sqrt(2.0)
    assert "Frank-Wolfe's lower bound" in w["family"] and "Lemma C.2" in w["family"]


# ---- the door for your own learner (papers.env21.scenario.USER_CLAIMS): what the door's contract over every claim
# (tests/test_door.py) does not cover -- the spanning tree without user rows and the learner's
# projections counted, the noise-free run of Algorithm 1's learner through the generic path, the
# paper's decision through the user claims equal to the pipeline's, small learners' verdicts and the
# frozen centre reported beside them, the rows' names taken by the paper

import math  # noqa: E402

import dpregret  # noqa: E402
from dpregret.pipeline.api import preset_params  # noqa: E402
from dpregret.core.environments.polytopes import make_domain  # noqa: E402
from dpregret.papers.env21.learners import FrankWolfeOCO  # noqa: E402
from dpregret.papers.env21.rates import REFERENCE  # noqa: E402
from dpregret.papers.env21.run import private_bandit_around  # noqa: E402


class LazyProjection:
    """A small user learner: dual averaging, x = Proj_K(-eta * sum of the fed vectors),
    eta = D / (G T_round^(1/2)) (projections, no LMO)."""

    def __init__(self, R, domain, rounds, G):
        self.dom, self.eta = domain, domain.D / (G * math.sqrt(rounds))
        self.S = np.zeros((R, domain.n))

    def predict(self):
        return self.dom.project(-self.eta * self.S)

    def update(self, g):
        self.S = self.S + g


class Vertex:
    """Plays the vertex e_2 whatever it is fed: linear regret (the losses' centre is halfway
    between the domain's centre and e_1, at distance 0.92 from e_2)."""

    def __init__(self, R, domain, rounds, G):
        self.x = np.zeros((R, domain.n))
        self.x[:, 1] = 1.0

    def predict(self):
        return self.x

    def update(self, g):
        pass


@pytest.fixture(scope="module")
def smoke():
    run, p = preset_params("env21", "smoke", None, None, None)
    return run, p


def test_the_spanning_tree_has_no_user_rows_and_the_learners_projections_are_counted(smoke):
    """(The paper's rows unchanged beside a learner's, on the simplex: tests/test_door.py.)"""
    run, p = smoke
    both = S.simulate_rates(p, "simplex:316", range(2), run["seed"], learners={"mine": LazyProjection})
    mine = both.alg.str.startswith("mine")
    assert set(both[mine].alg) == {"mine", "mine@laplace_slow_zeta", "mine@gaussian", "mine@gaussian_slow_zeta"}
    assert (both[mine].projections > 0).all() and (both[mine].oracle_calls == 0).all()
    tree = S.simulate_rates(p, ("spanning_tree", 100), range(2), run["seed"], learners={"mine": LazyProjection})
    assert not tree.alg.str.startswith("mine").any()


def test_paper_learner_through_the_generic_path_gives_the_fast_paths_noise_free_numbers(smoke):
    """Algorithm 1's learner (FrankWolfeOCO) inside private_bandit_around without noise reproduces the
    fast path's (compiled) ``none`` rows to 1e-9 relative, with one LMO call per step (a full last
    round).  (With the paper's noise and the slow-zeta controls, through the user claims' door
    with L~_0 given out of band, ``scenario.paper_frank_wolfe``: tests/test_door.py.)"""
    from dpregret.papers.env21.learners import algorithm1_parameters, batch_schedule

    run, p = smoke
    reps, T = range(3), 1000
    paper = S.simulate_rates(p, ("simplex", T), reps, run["seed"])
    dom = make_domain("simplex", p["n_simplex"])
    L = float(p["L"])
    eta, b = algorithm1_parameters(T, dom.dim, L, dom.D)[1], batch_schedule(T)[0]
    u = RowStreams(env21_streams(run["seed"], reps, "rates", "simplex", T, "u"), 1)
    out = private_bandit_around(dom, S.rate_losses(dom, T, L=L), lambda R, domain, rounds, G: FrankWolfeOCO(
        domain, R, eta, b), u)
    want = paper[paper.alg == "none"].sort_values("replicate").regret.to_numpy()
    np.testing.assert_allclose(out["regret"], want, rtol=1e-9, atol=1e-9 * T)
    assert out["oracle_calls"] == batch_schedule(T)[1] * b


def test_paper_learner_gets_the_pipelines_verdicts(smoke):
    """The user claims' decide() for the paper's learner gives evaluate()'s numbers."""
    from dpregret.papers.env21 import claims as C
    from dpregret.core.rng import stable_key

    run, p = smoke
    reps = range(int(p["replicates"]))
    tables = {e: pd.concat([S.simulate(e, p, pt, reps, run["seed"]) for pt in pts], ignore_index=True)
              for e, pts in S.points(p).items()}

    def rng_for(cid):
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(run["seed"], spawn_key=stable_key("t", cid))))
    alpha = 1 - run["ci_level"]
    ev = C.evaluate(tables, p, run["tolerances"], alpha, rng_for)
    for uc in S.USER_CLAIMS:
        res, ctl = uc.decide(tables["rates"], p, run["tolerances"], alpha, rng_for, uc.paper_name)
        er, ec = ev[uc.claim][:2]
        for a, b in ((res, er), (ctl, ec)):
            assert (a.verdict, a.measured, a.ci_low, a.ci_high, a.tolerance) == \
                (b.verdict, b.measured, b.ci_low, b.ci_high, b.tolerance)
        assert res.detail["secondary_control"] == er.detail["secondary_control"]


def _clear(res, verdict, k=1.0):
    """The declared margin of a stochastic verdict: ``res`` has ``verdict`` and its interval clears
    the threshold (bound + tolerance) on that side by at least ``k`` half-widths."""
    thr, half = res.bound + res.tolerance, (res.ci_high - res.ci_low) / 2
    gap = res.ci_low - thr if verdict == "FAIL" else thr - res.ci_high
    assert res.verdict == verdict and gap >= k * half, \
        f"{verdict}: [{res.ci_low:.3f}, {res.ci_high:.3f}] vs {thr} {res}"


def _decided(out, claim, name, preset="smoke"):
    """The check's own results for both learners (rule applied, check, control), recomputed from its runs."""
    from dpregret.pipeline.api import decide_learners
    from dpregret.core.contract import user_claims

    uc = user_claims()[claim]
    run, p = preset_params(uc.scenario, preset, None, None, None)
    return {k: (rec, res, ctl) for k, (rec, ctl, _, res) in decide_learners(uc, out.runs, p, run, name).items()}


def _ratio_interval(runs, alg):
    """The 95% t-interval of alg's regret over the frozen centre's, replicate by replicate (the same
    draws), at the largest T."""
    from scipy import stats

    last = runs[runs["T"] == runs["T"].max()]
    x = (last[last.alg == alg].sort_values("replicate").regret.to_numpy()
         / last[last.alg == REFERENCE].sort_values("replicate").regret.to_numpy())
    h = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    return x.mean() - h, x.mean() + h


def test_a_small_user_learner_gets_a_verdict_with_its_control_caught():
    """Default preset (on the instance with the loss's minimum at a vertex the smoke grid, T from
    100, leaves the slow-zeta near miss uncaught: 0.912 [0.894, 0.927] against 0.9 for the paper's
    learner); each verdict with the declared margin (measured: lazy 0.758 [0.750, 0.766] and the
    paper's 0.752 [0.747, 0.757] against 0.9, their controls 0.915 [0.905, 0.925] and 0.913 [0.908,
    0.918]: lazy's control clears the threshold by 0.57 half-widths, so its margin is declared at 0.5)."""
    # Since 2026-11-29 (eps 20 / 700, where the privacy term dominates, and the learning regret) the verdicts
    # are not asserted: measured lazy 0.856 [0.797, 0.911] against 0.90 (undecided), the paper's 0.823 [0.793,
    # 0.852] (PASS, but INCONCLUSIVE by the verdict rule: its mis-tuned twin is not caught); the controls are
    out = dpregret.check(LazyProjection, "ENV-thm1.1-rate-T", name="lazy", preset="default")
    v = out.verdicts.set_index("learner")
    assert bool(v.loc["lazy", "control_caught"])
    assert "twin" in v.loc["paper (Algorithm 1, Frank-Wolfe)", "detail"]
    for learner, (rec, res, ctl) in _decided(out, "ENV-thm1.1-rate-T", "lazy", "default").items():
        _clear(ctl, "FAIL", k=0.5)
    assert {"lazy", "lazy@gaussian", "lazy@laplace_slow_zeta", "lazy@gaussian_slow_zeta"} <= set(out.runs.alg)
    comp = v.loc["lazy", "detail"]["components"]
    assert set(comp) == {"laplace", "gaussian"}


def test_a_learner_with_linear_regret_fails_and_the_reference_is_reported():
    """A learner stuck far from the optimum FAILs, as does the one stuck at the centre (the reference
    FrozenCentre: the loss's minimum is at a vertex, so its regret is linear); each learner's regret
    over the reference's is reported per T (detail.regret_over_frozen_centre)."""
    out = dpregret.check(Vertex, "ENV-lemma5.2-rate-T", name="vertex")
    v = out.verdicts.set_index("learner")
    assert v.loc["vertex", "verdict"] == "FAIL"
    _clear(_decided(out, "ENV-lemma5.2-rate-T", "vertex")["vertex"][1], "FAIL")  # 0.977 [0.974, 0.980] against 0.9
    ratio = v.loc["vertex", "detail"]["regret_over_frozen_centre"]
    paper = v.loc["paper (Algorithm 1, Frank-Wolfe)", "detail"]["regret_over_frozen_centre"]
    assert len(ratio) == len(paper) == 5  # reported per T (ratios of the mean regrets)
    # far worse than not moving from the centre, the paper's better, each clear of its threshold by the
    # interval's half-width (replicate by replicate at the largest T: 1.545 [1.545, 1.551] and 0.39 [0.36, 0.42])
    lo, hi = _ratio_interval(out.runs, "vertex")
    assert lo - 1.5 >= (hi - lo) / 2
    lo, hi = _ratio_interval(out.runs, "laplace")
    assert 1.0 - hi >= (hi - lo) / 2


def test_a_name_of_the_papers_rows_is_taken():
    """(The paper's learner's name, and a play outside the domain: tests/test_door.py.)"""
    with pytest.raises(ValueError, match="taken"):
        dpregret.check(LazyProjection, "ENV-thm1.1-rate-T", name="laplace")
