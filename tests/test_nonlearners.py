"""The non-learners (dpregret.pipeline.nonlearners) and the pipeline's non-learner controls.

- each setting's trivial learner is a learner of its protocol (shapes, determinism, chunk
  invariance) and does not learn: its plays ignore the feedback, and its regret on a simple
  instance (a fixed loss with a better action) is linear in T;
- (the door without the paper's rows, ``contract.door_rows``: tests/test_door.py)
- the pipeline's attach (``jobs.attach_nonlearners``): a PASS whose non-learner passes becomes
  INCONCLUSIVE, one whose non-learner is caught stays PASS, and the claim's records of other
  environments say why they have none;
- config key ``nonlearners``: on by default, the built-in learners and the left-out claims, the
  errors naming the key.
"""
import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from dpregret.pipeline import nonlearners as NL
from dpregret.core import protocols as P
from dpregret.core.rng import ReplicateStreams, stable_key

ROOT = Path(__file__).resolve().parents[1]


def _make(setting, reps, dim, T, seed=11):
    """The non-learner of ``setting`` for the replicates ``reps`` built by its setting's signature."""
    R = len(reps)
    streams = ReplicateStreams(seed, stable_key("test-nonlearner", setting), reps)
    if setting == "oco":
        return NL.FrozenOCO(R, dim, 1.0)
    if setting == "olo":
        return NL.FrozenOLO(R, dim, T, "ball")
    if setting == "oco_polytope":
        from dpregret.core.environments.polytopes import make_domain
        return NL.FrozenPolytope(R, make_domain("simplex", dim), T, 1.0)
    if setting == "bco":
        from dpregret.papers.as17.scenario_blo import Domain
        return NL.FrozenBCO(R, Domain("ball", dim), T, 1.0, streams)
    if setting == "experts":
        return NL.UniformExperts(R, dim, T)
    return NL.UniformArm(R, dim, T, 1.0, streams)


def _plays(setting, reps, T, feedback, dim=4):
    learner = _make(setting, reps, dim, T)
    assert isinstance(learner, P.Learner)
    rows = np.asarray(list(reps))
    out = []
    for t in range(T):
        x = np.array(learner.predict(), copy=True)
        P.check_play(setting, x, len(rows), dim)
        out.append(x)
        learner.update(feedback[t][rows])
    return np.stack(out)


@pytest.mark.parametrize("setting", P.SETTINGS)
def test_each_nonlearner_meets_its_protocol_and_ignores_its_feedback(setting):
    assert set(NL.MAKES) == set(P.SETTINGS)
    P.check_signature(NL.MAKES[setting], setting)  # built by its setting's make signature
    T, R, dim = 40, 4, 4
    rng = np.random.default_rng(3)
    fb = rng.uniform(-1, 1, (T, *P.feedback_shape(setting, R, dim)))
    whole = _plays(setting, range(R), T, fb)
    np.testing.assert_array_equal(whole, _plays(setting, range(R), T, fb))  # deterministic for a seed
    halves = np.concatenate([_plays(setting, range(0, 2), T, fb), _plays(setting, range(2, R), T, fb)], axis=1)
    np.testing.assert_array_equal(whole, halves)  # chunk invariant
    np.testing.assert_array_equal(whole, _plays(setting, range(R), T, -3.0 * fb))  # the feedback changes nothing
    if setting != "bandit":  # frozen: the same play every round
        np.testing.assert_array_equal(whole, np.broadcast_to(whole[:1], whole.shape))
    else:
        assert whole.min() == 0 and whole.max() == dim - 1  # random arms, all of them


def _regret(setting, T, R=64, dim=4):
    """The non-learner's regret after T rounds on a fixed loss with a better action, per replicate."""
    learner = _make(setting, range(R), dim, T)
    if setting == "experts" or setting == "bandit":
        loss = np.linspace(0.2, 0.8, dim)  # expert / arm 0 (loss 0.2) is better than the mean (0.5) by 0.3
        best = T * loss.min()
    elif setting == "oco_polytope":
        loss = np.arange(dim, dtype=float)  # a linear loss on the simplex: the vertex e_0 has loss 0
        best = 0.0
    else:
        loss = np.full(dim, 0.5)  # a linear loss <g, x> on the unit ball: best -|g| per round
        best = -T * np.linalg.norm(loss)
    suffered = np.zeros(R)
    rows = np.arange(R)
    for _ in range(T):
        x = learner.predict()
        if setting == "bandit":
            suffered += loss[x]
            learner.update(loss[x])
        else:
            suffered += x @ loss
            learner.update(np.broadcast_to(loss, (R, dim)) if setting != "bco" else x @ loss)
    assert rows.size == R
    return suffered - best


@pytest.mark.parametrize("setting", P.SETTINGS)
def test_the_nonlearner_does_not_learn_its_regret_is_linear(setting):
    Ts = [100, 1000, 10000]
    means = [float(_regret(setting, T).mean()) for T in Ts]
    slope = np.polyfit(np.log(Ts), np.log(means), 1)[0]
    if setting == "bandit":  # random arms: the mean of 64 replicates, linear up to its sampling error
        per_round = [m / T for m, T in zip(means, Ts)]
        # expected 0.3 a round (the mean arm's loss 0.5 minus the best's 0.2); a round's loss has sd 0.224, so the
        # mean over 64 replicates of T rounds has standard error 0.224 / sqrt(64 T): 5 of them allowed
        for T, v in zip(Ts, per_round):
            assert abs(v - 0.3) < 5 * 0.224 / math.sqrt(64 * T), (T, v)
        assert abs(slope - 1.0) < 0.05, slope
    else:  # deterministic: exactly a constant per round
        per_round = np.array(means) / np.array(Ts)
        np.testing.assert_allclose(per_round, per_round[0], rtol=1e-9)
        assert per_round[0] > 0.05
        assert slope == pytest.approx(1.0, abs=1e-6)


def test_the_polytope_nonlearner_plays_the_wrappers_start_and_the_frozen_centre():
    from dpregret.core.environments.polytopes import make_domain
    from dpregret.papers.env21.learners import FrankWolfeOCO, FrozenCentre

    dom = make_domain("simplex", 5)
    nl = NL.FrozenPolytope(3, dom, 10, 1.0)
    np.testing.assert_array_equal(nl.predict(), FrozenCentre(3, dom, 10, 1.0).predict())
    np.testing.assert_array_equal(nl.predict(), FrankWolfeOCO(dom, 3, 0.1, 1).predict())  # where Algorithm 1 starts


# ---- the pipeline's attach


def _records(verdict_paper="PASS", nl_verdict="PASS"):
    from dpregret.verdict.core import Result, record
    from dpregret.pipeline.registry import all_claims

    claim = all_claims()["AS17-T2-mab-rate-T"]
    res = Result(verdict_paper, 0.5, 0.5, 0.45, 0.55, 0.1, {"margin": -2.0})
    ctl = Result("FAIL", 0.7, 0.5, 0.66, 0.74, 0.1, {"margin": 1.5})
    recs = [record(claim, res, ctl, scenario="as17_mab", env=env, ci_level=0.95) for env in ("stochastic", "periodic")]
    nl_res = Result(nl_verdict, 1.0 if nl_verdict == "FAIL" else 0.5, 0.5, 0.95 if nl_verdict == "FAIL" else 0.45,
                    1.05 if nl_verdict == "FAIL" else 0.55, 0.1, {"margin": 3.0 if nl_verdict == "FAIL" else -2.0})
    nl = record(claim, nl_res, ctl, scenario="as17_mab", env="learner-nonlearner_bandit", ci_level=0.95)
    return recs, nl


def test_a_pass_whose_nonlearner_passes_becomes_inconclusive_through_the_pipelines_attach(tmp_path):
    from dpregret.pipeline.jobs import attach_nonlearners
    from dpregret.pipeline.report.tables import claims_table

    recs, nl = _records("PASS", "PASS")
    assert recs[0]["result"]["verdict"] == "PASS"
    out = attach_nonlearners(recs, [nl])
    stoch, periodic = out
    assert stoch["claim_id"] == "AS17-T2-mab-rate-T--stochastic"  # the door's environment
    assert stoch["result"]["verdict"] == "INCONCLUSIVE"
    assert stoch["nonlearner"] == "nonlearner_bandit" and stoch["nonlearner_verdict"] == "PASS"
    assert not stoch["nonlearner_caught"] and "nonlearner_passes" in stoch["result"]["detail"]
    assert periodic["result"]["verdict"] == "PASS" and periodic["nonlearner"] == ""
    assert "stochastic environment only" in periodic["nonlearner_note"]
    # claims.csv: the paper's rows carry it, the non-learner's own record is no row of its own
    import json
    paths = []
    for r in out + [nl]:
        path = tmp_path / f"{r['claim_id']}.json"
        path.write_text(json.dumps(r, default=float))
        paths.append(str(path))
    table = claims_table(paths)
    assert sorted(table.claim_id) == ["AS17-T2-mab-rate-T--periodic", "AS17-T2-mab-rate-T--stochastic"]
    row = table.set_index("claim_id").loc["AS17-T2-mab-rate-T--stochastic"]
    assert row.verdict == "INCONCLUSIVE" and row.nonlearner_verdict == "PASS" and "non-learner" in row.reason


def test_a_caught_nonlearner_keeps_the_pass_and_a_stray_record_is_an_error():
    from dpregret.pipeline.jobs import attach_nonlearners

    recs, nl = _records("PASS", "FAIL")
    out = attach_nonlearners(recs, [nl])
    assert out[0]["result"]["verdict"] == "PASS" and out[0]["nonlearner_caught"]
    with pytest.raises(ValueError, match="has no paper record"):
        attach_nonlearners(recs[1:], [nl])
    assert attach_nonlearners(recs, []) == recs


# ---- config key nonlearners


def test_config_key_nonlearners():
    from dpregret.pipeline.config import ConfigError, effective
    from dpregret.core.contract import user_claims

    cfg = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    assert cfg["nonlearners"] is True
    run = effective(cfg)
    nl = {k: v for k, v in run["learners"].items() if k.startswith(NL.PREFIX)}
    claims = user_claims()
    want = {NL.name(uc.setting) for c, uc in claims.items() if c not in NL.left_out()}
    assert set(nl) == want
    for name, spec in nl.items():
        assert spec["make"] == NL.make_spec(spec["setting"]) and not set(spec["claims"]) & set(NL.left_out())
        assert all(claims[c].setting == spec["setting"] for c in spec["claims"])
    covered = {c for spec in nl.values() for c in spec["claims"]}
    assert covered | set(NL.left_out()) == set(claims)
    assert not any(k.startswith(NL.PREFIX) for k in effective({**cfg, "nonlearners": False})["learners"])
    only_ztc = effective({**cfg, "scenarios": ["ztc22"]})["learners"]  # the run's scenarios' claims only
    # ZTC-rem5-rate-T-priv is left out (UserClaim.nonlearner_left_out): its scenario's own frozen rows are its control
    assert set(only_ztc) == {"nonlearner_oco"} and only_ztc["nonlearner_oco"]["claims"] == ["ZTC-rem5-rate-T-stat"]
    with pytest.raises(ConfigError, match=r"config key 'nonlearners'.*boolean"):
        effective({**cfg, "nonlearners": "yes"})
    with pytest.raises(ConfigError, match=r"config key 'learners.nonlearner_mine'.*built-in non-learners"):
        effective({**cfg, "learners": {"nonlearner_mine": {"make": "dpregret.pipeline.nonlearners:FrozenOCO",
                                                           "setting": "oco"}}})
