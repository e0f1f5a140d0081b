"""Rate claims declared as data (Agarwal and Singh, Tables 1 and 2), checked generically.

A :class:`RateSpec` names the rows of a tidy result table (``algorithm`` plus fixed
columns), the variable the rate is in (``T``, ``N`` or ``1/eps``), the metric (``regret``,
or ``gap`` = private minus non-private regret paired by replicate), the claimed exponent,
an optional stated factor divided out before the fit (``log2(T)^2``), and the negative
control: another algorithm on the same rows that the theory says must violate the rate.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from dpregret.verdict.core import Claim, Result, check_rate

TRANSFORMS = {None: None, "log2sq": lambda x, m: m / np.log2(x) ** 2, "sqrtlog": lambda x, m: m / np.sqrt(np.log(x))}


@dataclass(frozen=True)
class RateSpec:
    claim: Claim
    x: str  # "T" | "N" | "inv_eps"
    metric: str  # "regret" | "gap"
    exponent: float
    algorithm: str
    control: str  # control algorithm
    where: dict = field(default_factory=dict)  # fixed columns, e.g. {"row": "sphere"}
    transform: str | None = None
    baseline: str = "nonprivate"  # for gaps
    fixed_eps: bool = True  # select eps == rate_eps (rates in T or N)
    fixed_T: str | None = None  # "max": select the largest T (rates in eps, N)
    decades: float = 2.0  # span the grid must cover (1: a window bounded by the regime, e.g. eps)


def select_rows(df: pd.DataFrame, spec: RateSpec, alg: str, rate_eps: float) -> pd.DataFrame:
    """The rows of ``alg`` that a rate spec reads: its ``where`` filters, ``eps == rate_eps`` if
    ``fixed_eps``, the largest T if ``fixed_T == "max"``."""
    d = df[df.algorithm == alg]
    for k, v in spec.where.items():
        d = d[d[k] == v]
    if spec.fixed_eps:
        d = d[np.isclose(d.eps, rate_eps)]
    if spec.fixed_T == "max":
        d = d[d["T"] == d["T"].max()]
    return d


def _metric(df: pd.DataFrame, spec: RateSpec, alg: str, rate_eps: float) -> pd.DataFrame:
    d = select_rows(df, spec, alg, rate_eps)
    if spec.metric == "regret":
        return d.assign(value=d.regret)
    keys = [c for c in ("row", "grid", "env", "N", "T", "replicate") if c in df.columns]
    base = df[df.algorithm == spec.baseline]
    for k, v in spec.where.items():
        base = base[base[k] == v]
    base = base.groupby(keys).regret.first()  # the non-private learner does not depend on eps
    b = base.reindex(pd.MultiIndex.from_frame(d[keys])).to_numpy()
    return d.assign(value=d.regret.to_numpy() - b)


def evaluate_rate(df: pd.DataFrame, spec: RateSpec, rate_eps: float, tol: float, alpha: float,
                  rng: np.random.Generator) -> tuple[Result, Result]:
    out = []
    for alg in (spec.algorithm, spec.control):
        d = _metric(df, spec, alg, rate_eps)
        col = "eps" if spec.x == "inv_eps" else spec.x
        xs = np.sort(d[col].unique())
        samples = [d[d[col] == x].value.to_numpy() for x in xs]
        x = 1.0 / xs if spec.x == "inv_eps" else xs.astype(float)
        order = np.argsort(x)
        out.append(check_rate(x[order], [samples[i] for i in order], spec.exponent, tol, alpha, rng,
                              transform=TRANSFORMS[spec.transform], decades=spec.decades))
    return out[0], out[1]
