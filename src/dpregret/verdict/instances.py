"""The small instances the mutation suite decides claims on: the machinery a paper folder's
``instances`` module needs to declare and decide its own (below the papers, since a paper never
imports the pipeline; the suite itself is :mod:`dpregret.pipeline.mutation.runner`).

An instance is a set of grids (its ``small`` overrides of the smoke preset's parameters of its
``base`` scenario) and a decider ``(ctx, claim ids) -> {claim id: Outcome}``.  A paper folder's
module ``instances`` declares, as plain names:

- ``SMALL``: instance name -> grid overrides (same keys as ``config/config.yaml``'s presets);
- ``BASE``: instance name -> the scenario of the smoke preset it starts from;
- ``INSTANCES``: instance name -> its decider (a name ``"<instance>/<x>"`` shares the parameters
  of ``<instance>`` and decides some claims on grids of their own);
- ``instance_of(claim id)``: the instance deciding a claim of the paper (None: not one of its claims);
- ``AUDIT_SAMPLES`` (optional): audit claim id -> its sample count where it needs more than the
  audit instance's ``samples``.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Ctx:
    """What a decider reads: the smoke preset (``base``: scenario -> parameters), the tolerances,
    the seed and alpha of the run; ``small`` and ``bases``: every instance's grid overrides and
    base scenario (the suite collects them from the paper folders)."""

    base: dict
    tolerances: dict
    seed: int
    alpha: float
    small: dict = field(default_factory=dict)
    bases: dict = field(default_factory=dict)

    def params(self, instance: str) -> dict:
        instance = instance.split("/")[0]  # "ztc22/<table>": the ztc22 instance's parameters
        p = copy.deepcopy(self.base.get(self.bases[instance], {}))
        p.update(copy.deepcopy(self.small[instance]))
        return p

    def rng(self, *parts) -> np.random.Generator:
        from dpregret.core.rng import stable_key

        ss = np.random.SeedSequence(self.seed, spawn_key=stable_key("check", *parts))
        return np.random.Generator(np.random.PCG64(ss))


@dataclass
class Outcome:
    """A claim decided on an instance: its check's result and its primary control's."""

    claim: object  # dpregret.verdict.core.Claim
    result: object  # Result
    control: object | None  # Result, or None when the control is not run (cost)
    env: str | None = None


def decide_scenario(claims, tables_of: Callable[[Ctx, dict, list], dict], ctx: Ctx, cids, inst: str
                    ) -> dict[str, Outcome]:
    """The claims ``cids`` of a paper whose ``claims`` module decides them from tables
    (``claims.evaluate(**tables, p, tol, alpha, rng_for)``, as the workflow's generic check rule),
    the tables ``tables_of(ctx, p, cids)`` simulated at instance ``inst``'s parameters ``p``."""
    p = ctx.params(inst)
    results = claims.evaluate(**tables_of(ctx, p, list(cids)), p=p, tol=ctx.tolerances, alpha=ctx.alpha,
                              rng_for=lambda cid: ctx.rng(cid))
    return {cid: Outcome(claims.CLAIMS[cid], results[cid][0], results[cid][1]) for cid in cids}
