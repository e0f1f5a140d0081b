"""The trivial learner of every setting: the non-learner control of a claim about a learner.

A claim that a learner's regret grows at some rate, or that its privacy gap or cost stays small,
says something about learning only if a learner that does *not* learn fails it on the same
instance (``dpregret.verdict.core``, "A learner that does not learn must not pass").  Each setting
of ``dpregret.core.protocols`` has one obvious learner that ignores everything it is fed: it plays
the start point every algorithm of the setting starts from, or the uniform distribution, for
ever.  Its regret on any instance with a better fixed action is linear in T, and its privacy
gap or cost is exactly 0 (it never looks at the noisy feedback, so noise cannot hurt it).

Each is a normal learner of its setting (``predict()`` / ``update(feedback)``, vectorised over
R replicate rows), built by the setting's ``make`` signature (:data:`dpregret.core.protocols.SIGNATURES`),
so it goes through exactly the door a user's learner takes (``dpregret.check``, the ``dpregret``
command, config key ``learners``): the paper's wrapper around it, on the paper's draws, decided by
the claim's own check.  The pipeline runs them by config key ``nonlearners`` (default true, as
learners named :func:`name` ``nonlearner_<setting>``) and attaches each record to the paper's claim
as its non-learner control (``dpregret.verdict.core.attach_nonlearner_record``; ``dpregret.pipeline.jobs``).

============== ==================== =========================================================
setting        learner              plays
============== ==================== =========================================================
``oco``        :class:`FrozenOCO`   0, the centre of the l2 ball of radius r (OGD's start)
``olo``        :class:`FrozenOLO`   0, the centre of the unit ball or of the cube (FTRL's
                                    start: the minimiser of its regulariser)
``oco_polytope`` :class:`FrozenPolytope` the polytope's centre (Algorithm 1's x~_0, where the
                                    wrapper's Frank-Wolfe learner starts)
``bco``        :class:`FrozenBCO`   0, the centre of the ball or cube (SCRiBLe's start: the
                                    barrier's minimiser), with ``center`` = 0
``experts``    :class:`UniformExperts` uniform weights 1/N (exponential weights' start)
``bandit``     :class:`UniformArm`  a uniformly random arm each round, drawn from the streams
                                    it is given (reproducible, chunk invariant), ``p`` = 1/N
============== ==================== =========================================================
"""
from __future__ import annotations

import numpy as np

PREFIX = "nonlearner_"


class FrozenOCO:
    """The non-learner of setting ``oco`` (``make(R, d, r)``): plays 0, the centre of the l2 ball
    of radius ``r`` where online gradient descent (Remark 5's OGD, Algorithm 2's direction learner)
    starts, whatever gradients it is fed.  A learner that never moves: its regret against any
    comparator better than 0 grows linearly in T."""

    def __init__(self, R: int, d: int, r: float):
        self.x = np.zeros((int(R), int(d)))

    def predict(self) -> np.ndarray:
        return self.x

    def update(self, g) -> None:
        pass


class FrozenOLO:
    """The non-learner of setting ``olo`` (``make(R, d, T, domain)``): plays 0, the centre of the
    unit ball (``domain="ball"``) or of the cube ``[-1, 1]^d`` (``"cube"``), which is where FTRL
    with a squared-norm regulariser starts (its regulariser's minimiser).  Its loss is 0 every
    round, so its regret is minus the best point's cumulative loss: linear in T on any sequence
    with a drift; its gap between the private and the exact feed is exactly 0."""

    def __init__(self, R: int, d: int, T: int, domain: str):
        if domain not in ("ball", "cube"):
            raise ValueError(f"domain must be 'ball' or 'cube', got {domain!r}")
        self.x = np.zeros((int(R), int(d)))

    def predict(self) -> np.ndarray:
        return self.x

    def update(self, losses) -> None:
        pass


class FrozenPolytope:
    """The non-learner of setting ``oco_polytope`` (``make(R, domain, T_round, G)``): plays the
    polytope's centre ``domain.centre``, Algorithm 1's x~_0, where the wrapper's Frank-Wolfe learner
    (``papers.env21.learners.FrankWolfeOCO``) starts, whatever increments of the released sums it is
    fed.  The same play as ``papers.env21.learners.FrozenCentre``, the user claims' reference."""

    def __init__(self, R: int, domain, T_round: int, G: float):
        self.x = np.broadcast_to(np.asarray(domain.centre, dtype=float), (int(R), domain.n)).copy()

    def predict(self) -> np.ndarray:
        return self.x

    def update(self, g) -> None:
        pass


class FrozenBCO:
    """The non-learner of setting ``bco`` (``make(R, domain, T, lam, streams)``): plays 0, the
    centre of the unit ball or of the cube, where SCRiBLe starts (the self-concordant barrier's
    minimiser), and exposes ``center`` = 0 (the conditional mean of its play: it does not
    randomise).  It draws nothing from ``streams``."""

    def __init__(self, R: int, domain, T: int, lam: float, streams):
        self.x = np.zeros((int(R), int(domain.n)))
        self.center = self.x

    def predict(self) -> np.ndarray:
        return self.x

    def update(self, values) -> None:
        pass


class UniformExperts:
    """The non-learner of setting ``experts`` (``make(R, N, T)``): the uniform weights 1/N every
    round, where exponential weights (Algorithm 1) starts.  Its regret is the mean expert's loss
    minus the best's, linear in T whenever one expert is better on average; its gap between the
    private and the exact feed is exactly 0."""

    def __init__(self, R: int, N: int, T: int):
        self.w = np.full((int(R), int(N)), 1.0 / int(N))

    def predict(self) -> np.ndarray:
        return self.w

    def update(self, losses) -> None:
        pass


class UniformArm:
    """The non-learner of setting ``bandit`` (``make(R, N, T, lam, streams)``): a uniformly random
    arm each round, drawn from ``streams`` (one uniform per replicate and round: reproducible and
    chunk invariant), and ``p`` = 1/N, its distribution, so the wrapper measures its expected
    regret ``<p, l_t>`` (EXP2's exploration distribution with the learning switched off).  Linear
    regret whenever one arm is better on average."""

    def __init__(self, R: int, N: int, T: int, lam: float, streams):
        self.N, self.streams = int(N), streams
        self.p = np.full((int(R), self.N), 1.0 / self.N)

    def predict(self) -> np.ndarray:
        u = self.streams.uniform(())
        return np.minimum((u * self.N).astype(np.int64), self.N - 1)

    def update(self, losses) -> None:
        pass


MAKES = {"oco": FrozenOCO, "olo": FrozenOLO, "oco_polytope": FrozenPolytope, "bco": FrozenBCO,
         "experts": UniformExperts, "bandit": UniformArm}


def name(setting: str) -> str:
    """The pipeline's learner name of ``setting``'s non-learner: ``nonlearner_<setting>``."""
    if setting not in MAKES:
        raise ValueError(f"setting must be one of {tuple(MAKES)}, got {setting!r}")
    return PREFIX + setting


def make_spec(setting: str) -> str:
    """``"dpregret.pipeline.nonlearners:<Class>"``, the ``make`` of config key ``learners`` for ``setting``."""
    return f"{__name__}:{MAKES[setting].__name__}" if setting in MAKES else name(setting)


def left_out() -> dict[str, str]:
    """claim id -> why the pipeline does not run its non-learner (config key ``nonlearners``), with the numbers
    that decided it: what each claim's door declares (``UserClaim.nonlearner_left_out``).
    ``dpregret.check(MAKES[setting], claim)`` still runs any of them."""
    from dpregret.core.contract import user_claims

    return {c: uc.nonlearner_left_out for c, uc in user_claims().items() if uc.nonlearner_left_out}


def pipeline_learners(scenarios) -> dict[str, dict]:
    """The pipeline's built-in non-learners (config key ``nonlearners``): for every setting with a
    claim of ``dpregret.core.contract`` among ``scenarios`` (not :func:`left_out`), the
    learner :func:`name` with ``{"make", "setting", "claims"}`` as config key ``learners`` has them."""
    from dpregret.core.contract import user_claims

    claims = user_claims()
    out = {}
    for setting in MAKES:
        mine = sorted(c for c, uc in claims.items() if uc.setting == setting and uc.scenario in scenarios
                      and not uc.nonlearner_left_out)
        if mine:
            out[name(setting)] = {"make": make_spec(setting), "setting": setting, "claims": mine}
    return out
