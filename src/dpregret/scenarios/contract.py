"""The scenario contract for your own learner (issue 18, items 2 and 4).

Each paper's theorem that holds for *any* learner of a setting (a rate of a reduction the paper
wraps around a base learner, a comparison with the paper's algorithm) is declared once as a
:class:`UserClaim`: the grid points it is decided on, how one point is simulated with a given
set of learners under common random numbers, and how a learner's runs are decided.  The same
object serves :func:`dpregret.check`, the ``dpregret`` command and the pipeline (config key
``learners``), so a user's learner is decided by the check and verdict rule that decide the
paper's, each with its primary control run on the same draws; a claim whose statement needs the
paper's own parameters (an explicit bound with its eta or lambda) has no ``UserClaim`` and is
never run for a user's learner.

``simulate(p, point, reps, seed, learners)`` returns a tidy table whose column ``alg`` names
the rows: the paper's own rows (unchanged by the presence of user learners, a test per
scenario) and, for every user learner ``name``, rows ``name`` and ``name@<role>`` (its control
and any twin the check pairs it with).  ``decide(runs, p, tol, alpha, rng_for, name)`` returns
``(result, control_result)`` for the learner ``name``; the paper's learner is ``paper_name``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd


@dataclass(frozen=True)
class UserClaim:
    claim: str  # the claim id in its paper's registry
    scenario: str  # dpregret.papers.SCENARIOS key
    setting: str  # dpregret.protocols setting of the user's learner
    signature: str  # how ``make`` is called, e.g. "make(R, d, r)"
    wraps: str  # what runs the user's learner, and what its control is (shown by ``dpregret check``)
    paper_name: str  # the ``alg`` of the paper's learner in ``simulate``'s rows
    paper_label: str  # how the paper's learner is shown
    reserved: tuple[str, ...]  # ``alg`` names of the paper's rows: no user learner may take them
    points: Callable[[dict], list]  # p -> the points the claim is decided on
    simulate: Callable[[dict, Any, range, int, dict], pd.DataFrame]
    decide: Callable[..., tuple]


def user_claims() -> dict[str, UserClaim]:
    """claim id -> :class:`UserClaim`, over every scenario that declares ``USER_CLAIMS`` in its
    module or in a sibling module ``<scenario module>_user`` (when one exists)."""
    import importlib
    import importlib.util

    from ..papers import SCENARIOS

    out = {}
    for sc in SCENARIOS.values():
        if sc.scenario_module is None:
            continue
        mods = [sc.scenario_module]
        if importlib.util.find_spec(sc.scenario_module + "_user") is not None:
            mods.append(sc.scenario_module + "_user")
        for mod in mods:
            for uc in getattr(importlib.import_module(mod), "USER_CLAIMS", ()):
                out[uc.claim] = uc
    return out


def check_name(name: str, uc: UserClaim) -> None:
    """A user learner's name must be an identifier not taken by the paper's rows."""
    if not name.isidentifier():
        raise ValueError(f"learner name {name!r} must be an identifier (letters, digits, underscore)")
    if name in uc.reserved or name == uc.paper_name:
        raise ValueError(f"learner name {name!r} is taken by the paper's rows; choose another")
