"""The learner protocols of the four papers' settings, declared in code.

Every learner is vectorised over replicates: it holds ``R`` independent copies (leading axis R)
and plays one round at a time with ``predict()`` then ``update(feedback)``.  What the round's
arrays look like depends on the setting:

=============  ==============================  =============================  ====================
setting        ``predict()`` returns            ``update(feedback)`` receives  papers
=============  ==============================  =============================  ====================
``experts``    ``(R, N)`` weights on the        ``(R, N)`` losses in [0, 1]    AS17 section 3
               simplex
``olo``        ``(R, d)`` points of X           ``(R, d)`` linear losses       AS17 Table 1, VdH
``oco``        ``(R, d)`` points of W           ``(R, d)`` (sub)gradients      ZTC22 (learner of
                                                                               Algorithm 1), VdH
``oco_polytope`` ``(R, d)`` points of a polytope ``(R, d)`` gradient estimates  ENV21 (learner inside
               K given by its linear-opti-     (the increments of the         PRIVATEBANDIT's
               misation oracle                 released sums)                 mechanism)
``bandit``     ``(R,)`` arm indices in [0, N)   ``(R,)`` losses of those arms  AS17 section 4
``bco``        ``(R, d)`` points of K           ``(R,)`` loss values           AS17 Table 2 (BLO),
                                                                               ENV21
=============  ==============================  =============================  ====================

A user's learner is built by ``make`` as :data:`SIGNATURES` says for its setting (the claims a
user's learner can get: ``dpregret.core.contract``).

Randomised learners draw from a :class:`dpregret.core.rng.ReplicateStreams` whose streams are keyed
by replicate, so a learner built for replicates ``range(0, 4)`` plays the same rows as two built
for ``range(0, 2)`` and ``range(2, 4)`` (chunk invariance); that, determinism for a given seed
and the shapes above are the contract ``tests/test_protocols.py`` checks over the papers' learners
and their controls (:class:`LearnerSpec`, each folder's ``paper.learners()``, collected by
:func:`dpregret.pipeline.registry.learners`), and a user's learner meets it the same way.
"""
from __future__ import annotations

import importlib
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol, runtime_checkable

import numpy as np

SETTINGS = ("experts", "olo", "oco", "oco_polytope", "bandit", "bco")
# how a user's learner is built, per setting with claims for user learners (one signature a setting)
SIGNATURES = {
    "experts": "make(R, N, T)",  # R replicate rows, N experts, horizon T (the noise is added by the wrapper)
    "olo": "make(R, d, T, domain)",  # domain: "ball" (unit l2 ball) or "cube" ([-1, 1]^d); noise added by the wrapper
    "oco": "make(R, d, r)",  # R replicate rows, dimension d, the l2 ball of radius r
    "oco_polytope": "make(R, domain, T_round, G)",  # domain: lmo / project / contains (environments.polytopes)
    "bandit": "make(R, N, T, lam, streams)",  # lam: the Laplace scale of the feedback; streams: ReplicateStreams
    "bco": "make(R, domain, T, lam, streams)",  # domain: name ball/cube, n, contains, project; lam: scale of Z_t
}


@runtime_checkable
class Learner(Protocol):
    """Any learner of any setting: ``predict()`` the round's play, ``update(feedback)``."""

    def predict(self) -> np.ndarray: ...

    def update(self, feedback: np.ndarray) -> None: ...


def _a(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def check_play(setting: str, play: np.ndarray, R: int, dim: int) -> None:
    """Raise ``ValueError`` naming what is wrong if ``play`` is not a valid play of ``setting``
    for ``R`` replicates in dimension (or number of arms / experts) ``dim``."""
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")
    a = np.asarray(play)
    want = (R,) if setting == "bandit" else (R, dim)  # oco_polytope: points of K, checked by the caller
    if a.shape != want:
        raise ValueError(f"{_a(setting)} {setting} learner's predict() must return shape {want}, got {a.shape}")
    if setting == "bandit":
        if not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"a bandit learner plays arm indices in [0, {dim}) (integers), got {a.dtype} values "
                             f"{a[:4]}")
        if np.any((a < 0) | (a >= dim)):
            raise ValueError(f"a bandit learner plays arm indices in [0, {dim}), got {a[:4]}: outside that range")
        return
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{_a(setting)} {setting} learner played a non-finite point")
    if setting == "experts" and not (np.all(a >= -1e-12) and np.allclose(a.sum(axis=1), 1.0)):
        raise ValueError("an experts learner's weights must lie on the simplex")


def check_signature(make: Callable, setting: str) -> None:
    """Raise ``ValueError`` naming the setting and :data:`SIGNATURES`' call if ``make`` cannot be
    called with that many positional arguments (a builtin without a signature passes)."""
    if setting not in SIGNATURES:
        raise ValueError(f"setting must be one of {tuple(SIGNATURES)}, got {setting!r}")
    call = SIGNATURES[setting]
    n = len(call[call.index("(") + 1:call.rindex(")")].split(","))
    try:
        inspect.signature(make).bind(*range(n))
    except TypeError as err:
        raise ValueError(f"{_a(setting)} {setting} learner's make is called as {call}; "
                         f"{getattr(make, '__name__', make)!r} cannot take those {n} arguments ({err}). The claims of "
                         "each setting: "
                         "dpregret.applicable()") from None
    except ValueError:  # no introspectable signature
        pass


def check_makes(learners, reserved, signature: str) -> dict:
    """``{name: make}`` of a scenario's user learners, validated before anything runs: each name
    an identifier that is not one of the paper's rows (``reserved``), each ``make`` callable."""
    learners = dict(learners or {})
    for name, make in learners.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"learner name {name!r} must be an identifier (letters, digits, underscore)")
        if name in reserved:
            raise ValueError(f"learner name {name!r} is taken by the paper's rows {tuple(reserved)}; choose another")
        if not callable(make):
            raise ValueError(f"learner {name!r}: make must be callable as {signature}, got {type(make).__name__}")
    return learners


def build_learner(make: Callable, name: str, args: tuple, signature: str, feedback: str, built: list | None = None):
    """``make(*args)``, with a clear error if ``make`` cannot be called so (``signature`` says
    how), returns no learner (``predict()`` and ``update(<feedback>)``), or returns an object it
    returned before (``built``: the learners already built for this point; each run needs its
    own state)."""
    try:
        inspect.signature(make).bind(*args)
    except TypeError as err:
        raise ValueError(f"learner {name!r}: make must be callable as {signature}; it cannot take those "
                         f"arguments ({err})") from None
    except ValueError:  # no introspectable signature (a builtin): the call below decides
        pass
    learner = make(*args)
    if not (callable(getattr(learner, "predict", None)) and callable(getattr(learner, "update", None))):
        raise ValueError(f"learner {name!r}: make returned {type(learner).__name__}, not a learner with predict() "
                         f"and update({feedback})")
    if built is not None:
        if any(learner is b for b in built):
            raise ValueError(f"learner {name!r}: make returned the same object twice; it must build a new learner "
                             "on every call (the private run, its twin and its control each need their own state)")
        built.append(learner)
    return learner


def feedback_shape(setting: str, R: int, dim: int) -> tuple[int, ...]:
    """The shape of ``update``'s argument in ``setting``."""
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")
    return (R,) if setting in ("bandit", "bco") else (R, dim)


@dataclass(frozen=True)
class LearnerSpec:
    """A registered learner (each paper folder's ``paper.learners()``, collected by
    :func:`dpregret.pipeline.registry.learners`): its setting, the paper it comes from (``dpregret.papers`` key) and
    ``make(replicates, dim, T, seed)``, which builds it for those replicates (a range) with
    its randomness drawn from streams keyed by ``seed`` and the learner's name."""

    name: str
    setting: str
    paper: str
    make: Callable[[range, int, int, int], Learner]
    role: str = "paper"  # "paper" (the paper's algorithm) or "control" (a near miss / baseline)


def load_learner(spec: str):
    """``module:Callable`` (a learner's ``make``, as config ``learners`` and ``dpregret check
    --learner`` name it) -> the callable; modules of the working directory are found, as with
    ``python -m``."""
    mod, _, attr = spec.partition(":")
    if not mod or not attr:
        raise ValueError(f"--learner must be module:Callable (dpregret.core.protocols.SIGNATURES), got {spec!r}")
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    return getattr(importlib.import_module(mod), attr)
