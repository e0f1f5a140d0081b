"""The scenario contract for your own learner.

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

The pipeline does not simulate the paper's rows twice: where a claim declares ``user_rows`` (the
rows of the given learners alone, the same numbers as ``simulate``'s) and ``paper_rows`` (the
paper's rows of ``simulate`` at a point, taken from the pipeline's own tables ``paper_tables``),
the rule ``user_simulate`` makes the learners' rows only and ``user_check`` puts the paper's rows
from those tables beside them (:func:`door_rows`; a test per claim: the same decisions as
``simulate``'s table).  Claims whose ``simulate`` is the same (``door``: Ene et al.'s three rate
claims, Van der Hoeven's two placements) share one simulation per learner and point.  ``env``:
the environment of the paper's record the door decides (``<claim>--<env>``; "" for a claim
recorded once), where the pipeline attaches a non-learner's record (``dpregret.pipeline.nonlearners``).

``paper_on_door`` (:class:`PaperOnDoor`): the paper's own algorithm as a learner of the claim's
setting, so that the door (the generic per-round path a user's learner takes) can be checked
against the paper's fast path: run through ``simulate`` as a user learner it gives the paper's
rows (a test per claim, ``tests/test_door.py``).  None where the door runs the paper's learner
itself (``ZTC-rem5-*``: ``simulate_linear_T`` builds Remark 5's OGD and a user's learner into the
same ``o2b.run``, so there is no second path to compare).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd


@dataclass(frozen=True)
class PaperOnDoor:
    """The paper's own algorithm on the door: ``make(p, point, reps, seed)`` returns a ``make`` of
    the claim's setting (``UserClaim.signature``) building the paper's learner with the paper's
    parameters, drawing from the paper rows' streams; run through ``simulate`` as a user learner
    ``name`` at ``point`` on ``reps`` and ``seed``, its rows ``name + suffix`` equal the paper's rows
    ``alg`` for each ``(suffix, alg)`` of ``rows``: the ``columns`` to ``rtol`` relative (0: to the
    last bit; the per-round path sums in another order than a compiled kernel)."""

    make: Callable[[dict, Any, range, int], Callable]
    rows: tuple[tuple[str, str], ...]  # (suffix of the learner's row name, the paper's row it reproduces)
    columns: tuple[str, ...]  # the columns that must agree (others are the learner's own, e.g. NaN eta)
    rtol: float = 0.0


@dataclass(frozen=True)
class UserClaim:
    claim: str  # the claim id in its paper's registry
    scenario: str  # dpregret.papers.SCENARIOS key
    setting: str  # dpregret.core.protocols setting of the user's learner
    signature: str  # how ``make`` is called, e.g. "make(R, d, r)"
    wraps: str  # what runs the user's learner, and what its control is (shown by ``dpregret check``)
    paper_name: str  # the ``alg`` of the paper's learner in ``simulate``'s rows
    paper_label: str  # how the paper's learner is shown
    reserved: tuple[str, ...]  # ``alg`` names of the paper's rows: no user learner may take them
    points: Callable[[dict], list]  # p -> the points the claim is decided on
    simulate: Callable[[dict, Any, range, int, dict], pd.DataFrame]
    decide: Callable[..., tuple]
    env: str = ""  # the env of the paper's record the door decides ("" : the claim is recorded once)
    door: str = ""  # claims with the same door share one simulation per learner and point ("": the claim id)
    user_rows: Callable[[dict, Any, range, int, dict], pd.DataFrame] | None = None  # simulate's rows but the paper's
    paper_tables: tuple[str, ...] = ()  # the pipeline's tables holding the paper's rows of ``simulate``
    paper_rows: Callable[[dict, dict, Any], pd.DataFrame] | None = None  # ({path: table}, p, point) -> those rows
    # the paper's learner as a user learner: the door's check against the fast path
    paper_on_door: PaperOnDoor | None = None
    # why the pipeline does not run the built-in non-learner through this door (config key ``nonlearners``), with
    # the numbers that decided it ("": it runs it); ``dpregret.check`` still runs it on request
    nonlearner_left_out: str = ""

    @property
    def door_id(self) -> str:
        """The name of this claim's simulation (shared by the claims of one ``door``)."""
        return self.door or self.claim

    @property
    def reuses_paper_rows(self) -> bool:
        """Whether the pipeline takes the paper's rows from its own tables (:func:`door_rows`)."""
        return self.user_rows is not None and self.paper_rows is not None and bool(self.paper_tables)


def user_claims() -> dict[str, UserClaim]:
    """claim id -> :class:`UserClaim`, over every scenario whose module (``Scenario.scenario_module``)
    declares ``USER_CLAIMS`` (its section "Your own learner", beside the ``simulate`` that takes the learners)."""
    import importlib

    from dpregret.papers import SCENARIOS

    out = {}
    for sc in SCENARIOS.values():
        if sc.scenario_module is not None:
            for uc in getattr(importlib.import_module(sc.scenario_module), "USER_CLAIMS", ()):
                out[uc.claim] = uc
    return out


def in_order(df: pd.DataFrame, col: str, order, *then: str) -> pd.DataFrame:
    """``df``'s rows in the order ``simulate`` makes them: by the position of ``df[col]`` in
    ``order``, then by the columns ``then`` (a stable sort; index reset).  The pipeline's merged
    tables are sorted otherwise, and a check's float sums may depend on the rows' order."""
    pos = {v: i for i, v in enumerate(order)}
    key = df[col].map(pos)
    if key.isna().any():
        raise ValueError(f"{col} values {sorted(set(df[col]) - set(pos))} are not in {list(order)}")
    return df.assign(_order=key).sort_values(["_order", *then], kind="stable").drop(columns="_order") \
        .reset_index(drop=True)


def door_rows(uc: UserClaim, p: dict, point, user: pd.DataFrame, tables: dict) -> pd.DataFrame:
    """``simulate``'s table at ``point`` made of the paper's rows from the pipeline's tables
    (``uc.paper_rows``) and the learners' rows ``user`` (``uc.user_rows``), in that order, with the
    paper's columns.  The paper's rows must cover exactly the user rows' replicates (a table made
    with other replicates is an error, not a silent mismatch)."""
    paper = uc.paper_rows(tables, p, point)
    reps = set(user["replicate"].unique())
    have = set(paper["replicate"].unique())
    if not reps <= have:
        raise ValueError(f"{uc.claim} at {point}: the pipeline's tables {uc.paper_tables} hold the paper's rows of "
                         f"replicates {sorted(have)[:8]}..., not all of {sorted(reps)[:8]}...")
    paper = paper[paper["replicate"].isin(reps)].reset_index(drop=True)
    return pd.concat([paper, user.reindex(columns=paper.columns)], ignore_index=True)


def check_name(name: str, uc: UserClaim) -> None:
    """A user learner's name must be an identifier not taken by the paper's rows."""
    if not name.isidentifier():
        raise ValueError(f"learner name {name!r} must be an identifier (letters, digits, underscore)")
    if name in uc.reserved or name == uc.paper_name:
        raise ValueError(f"learner name {name!r} is taken by the paper's rows; choose another")
