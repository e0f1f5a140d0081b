"""The learner contract (dpregret.core.protocols) over every registered learner (dpregret.pipeline.registry.learners):
the setting's shapes, determinism for a seed, and chunk invariance (replicates split across two learners
play the same rows as one learner holding them all)."""
import numpy as np
import pytest

from dpregret.core import protocols as P
from dpregret.pipeline.registry import learners

T, DIM, R = 16, 4, 4


def _feedback(setting, T, R_total, dim):
    """Feedback per (round, replicate), fixed in advance (replicate r's rows do not depend on R)."""
    rng = np.random.default_rng(7)
    shape = P.feedback_shape(setting, R_total, dim)
    return rng.uniform(0.0, 1.0, (T, *shape)) if setting in ("experts", "bandit", "bco") else \
        rng.uniform(-1.0, 1.0, (T, *shape))


def _play(spec, reps, fb):
    learner = spec.make(reps, DIM, T, 11)
    assert isinstance(learner, P.Learner)
    rows = np.asarray(list(reps))
    plays = []
    for t in range(T):
        x = np.array(learner.predict(), copy=True)
        P.check_play(spec.setting, x, len(rows), DIM)
        plays.append(x)
        learner.update(fb[t][rows])
    return np.stack(plays)


@pytest.mark.parametrize("name", sorted(learners()))
def test_learner_contract(name):
    spec = learners()[name]
    assert spec.setting in P.SETTINGS and spec.role in ("paper", "control")
    fb = _feedback(spec.setting, T, R, DIM)
    whole = _play(spec, range(R), fb)
    np.testing.assert_array_equal(whole, _play(spec, range(R), fb))  # deterministic for a seed
    halves = np.concatenate([_play(spec, range(0, 2), fb), _play(spec, range(2, R), fb)], axis=1)
    np.testing.assert_allclose(whole, halves, rtol=1e-12, atol=1e-12)  # chunk invariant


def test_every_setting_has_a_paper_learner_and_check_play_names_the_problem():
    assert {s.setting for s in learners().values() if s.role == "paper"} == set(P.SETTINGS)
    with pytest.raises(ValueError, match=r"shape \(4, 3\)"):
        P.check_play("olo", np.zeros((4, 2)), 4, 3)
    with pytest.raises(ValueError, match="simplex"):
        P.check_play("experts", np.full((2, 3), 0.5), 2, 3)
    with pytest.raises(ValueError, match="arm indices"):
        P.check_play("bandit", np.array([0, 5]), 2, 3)
    with pytest.raises(ValueError, match="setting"):
        P.feedback_shape("full", 2, 3)
