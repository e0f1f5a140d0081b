"""Claims declared as data: a :class:`ClaimSpec` says what a rate claim reads and how it is decided,
and :func:`evaluate_spec` decides it, so that a paper's claims module is a list of specs plus the
few computations a spec cannot say (passed in as ``gate``: a paper's learning gate).

A spec names the rows of a tidy result table (``algorithm`` plus the fixed columns ``where``), the
variable the rate is in (``x``: ``T``, ``N`` or ``inv_eps``), the metric (``regret``, or ``gap`` =
private minus non-private regret paired by replicate), the claimed exponent, an optional stated
factor divided out before the fit (``transform``: ``log2(T)^2``), the primary control (another
algorithm on the same rows that the theory says must violate the rate) and, as data:

- ``twin`` (:class:`Twin`): the paper's learner with one realistic tuning mistake, its rows' name,
  the mistake in words and why the claim must see it (``dpregret.verdict.core.with_twin``);
- ``regime`` (:class:`Regime`): the window where the claimed term dominates, as a share of the
  mean regret with its threshold (a number, or the name of the scenario's parameter holding it:
  ``privacy_share_max``, ``noise_share_min``), and optionally the saturation share of a
  non-learner's regret (``dpregret.verdict.core.not_in_regime`` outside it);
- ``nonlearner``: the trivial learner's name and the column holding its regret on the same draws
  (``dpregret.verdict.core.with_nonlearner``), or its own rows (``nonlearner_rows``);
- for a paper with several tables and a secondary control: ``table`` and ``secondary``;
- the tolerance, looked up by claim id in the run's ``tolerances`` (:func:`claim_tolerance`): a
  declared claim without one is an error naming it, never a silent 0.

Agarwal and Singh's Tables 1 and 2 (``papers.as17.claims_tables``) are decided by :func:`evaluate_spec`.
A paper whose fits a spec cannot say declares its rate claims as specs all the same and decides them
with its own code, which reads them: Ene et al.'s (``papers.env21.claims``: the learning regret, a
bootstrap stream per role, the regime on the learning regret), Zhang et al.'s (``papers.ztc22.claims_linear``:
the worst case over a family of losses, its declared per-point filter as the ``Regime``, the grid as
``x_grid``; ``papers.ztc22.claims``: Remark 9's and Section 3's rates) and Van der Hoeven's
(``papers.vdh19.claims``: a cost paired against the run nobody privatises, a control that is the same
learner on another instance, ``control_where``).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from dpregret.verdict.core import (Claim, Result, check_rate, not_in_regime, with_learning_gate, with_nonlearner,
                                   with_twin)

# a stated factor divided out before a rate's fit (``ClaimSpec.transform``)
TRANSFORMS = {None: None, "log2sq": lambda x, m: m / np.log2(x) ** 2, "sqrtlog": lambda x, m: m / np.sqrt(np.log(x)),
              "log2_2x": lambda x, m: m / np.log2(2 * x), "log2sq_2x": lambda x, m: m / np.log2(2 * x) ** 2}


class MissingTolerance(KeyError):
    """A declared claim whose tolerance the run does not declare."""

    def __str__(self) -> str:
        return str(self.args[0])


def claim_tolerance(tolerances: Mapping, claim_id: str, declared_in: str) -> float:
    """The tolerance of ``claim_id`` in the run's ``tolerances`` (the config's, with the folder's
    ``paper.TOLERANCES`` under them); a missing one is a :class:`MissingTolerance` naming the claim
    and ``declared_in`` (the module declaring it: its paper folder)."""
    if claim_id not in tolerances:
        folder = declared_in.rsplit(".", 1)[0].replace(".", "/")
        raise MissingTolerance(f"claim {claim_id} (declared in {declared_in}, folder src/{folder}) has no tolerance: "
                               "declare it in config/config.yaml's tolerances (or the folder's paper.TOLERANCES) "
                               "before the run that decides it")
    return float(tolerances[claim_id])


@dataclass(frozen=True)
class Twin:
    """The mis-tuned twin of a claim: its rows (``algorithm``), its name and why it is the smallest
    realistic mistake the claim must see; ``baseline``: a gap claim's twin's own non-private rows
    (None: the spec's)."""
    algorithm: str
    name: str
    why: str
    baseline: str | None = None


@dataclass(frozen=True)
class Regime:
    """Where a claim's term dominates, shown by the run at every point of its ``x``: the share of the
    mean regret ``1 - mean(baseline) / mean(algorithm)`` (recorded as ``share``: ``privacy_share``,
    ``noise_share``) at most (``side="max"``) or at least (``"min"``) ``threshold``, and, with
    ``trivial`` (the column of a non-learner's regret on the same draws), the regret at most
    ``trivial_share_max`` of it (below saturation; recorded as ``trivial_label``).  A threshold is a
    number or ``"<section>.<key>"`` of the scenario's parameters; ``optional``: a run without that
    section decides no regime.  ``pooled``: the non-private and the non-learner's regret do not depend
    on ``x`` (the eps window) and are pooled over it.  ``why``: the sentence of "not in the regime"
    (:func:`apply_regime`; a paper deciding its regime by its own fit writes its own)."""
    share: str
    side: str
    threshold: float | str
    why: str = ""
    trivial: str | None = None
    trivial_share_max: float | str | None = None
    trivial_label: str = "share_of_nonlearner"
    baseline: str | None = None  # the non-private rows (None: the spec's baseline)
    pooled: bool = False
    optional: bool = False


@dataclass(frozen=True)
class ClaimSpec:
    """A rate claim as data (module docstring): what it reads, how it is fitted and its controls;
    :func:`evaluate_spec` decides it."""
    claim: Claim
    x: str  # "T" | "N" | "inv_eps"
    metric: str  # "regret" | "gap"
    exponent: float
    algorithm: str
    control: str  # the primary control's rows
    where: dict = field(default_factory=dict)  # fixed columns, e.g. {"row": "sphere"}
    transform: str | None = None
    baseline: str = "nonprivate"  # for gaps
    fixed_eps: bool = True  # select eps == the claim's eps (rates in T or N)
    fixed_T: str | None = None  # "max": select the largest T (rates in eps, N)
    decades: float = 2.0  # span the grid must cover (1: a window bounded by the regime, e.g. eps)
    twin: Twin | None = None
    regime: Regime | None = None
    nonlearner: tuple[str, str] | None = None  # (its name, the column of its regret on the same draws)
    eps_param: str = "rate_eps"  # the scenario's parameter giving the claim's eps (falls back to rate_eps)
    own_grid: str | None = None  # a grid of the claim's own (its rows relabelled as where["grid"]) where run
    table: str | None = None  # the table the claim reads, for a paper with several
    secondary: str | None = None  # the secondary control's rows (a straw man, reported beside the claim)
    nonlearner_rows: str | None = None  # the non-learner's own rows on the same draws (with nonlearner's name)
    x_grid: str | None = None  # the scenario's parameter holding the claim's grid of x (rows off it are not read)
    control_where: dict = field(default_factory=dict)  # a control on another instance: its fixed columns that differ

    @property
    def claim_id(self) -> str:
        return self.claim.claim_id

    def tolerance(self, tolerances: Mapping, declared_in: str) -> float:
        return claim_tolerance(tolerances, self.claim_id, declared_in)




def _where(df: pd.DataFrame, spec: ClaimSpec) -> pd.DataFrame:
    for k, v in spec.where.items():
        df = df[df[k] == v]
    return df


def select_rows(df: pd.DataFrame, spec: ClaimSpec, alg: str, rate_eps: float) -> pd.DataFrame:
    """The rows of ``alg`` that a spec reads: its ``where`` filters, ``eps == rate_eps`` if
    ``fixed_eps``, the largest T if ``fixed_T == "max"``."""
    d = _where(df[df.algorithm == alg], spec)
    if spec.fixed_eps:
        d = d[np.isclose(d.eps, rate_eps)]
    if spec.fixed_T == "max":
        d = d[d["T"] == d["T"].max()]
    return d


def _metric(df: pd.DataFrame, spec: ClaimSpec, alg: str, rate_eps: float) -> pd.DataFrame:
    d = select_rows(df, spec, alg, rate_eps)
    if spec.metric == "regret":
        return d.assign(value=d.regret)
    keys = [c for c in ("row", "grid", "env", "N", "T", "replicate") if c in df.columns]
    base = _where(df[df.algorithm == spec.baseline], spec)
    base = base.groupby(keys).regret.first()  # the non-private learner does not depend on eps
    b = base.reindex(pd.MultiIndex.from_frame(d[keys])).to_numpy()
    return d.assign(value=d.regret.to_numpy() - b)


def _col(spec: ClaimSpec) -> str:
    return "eps" if spec.x == "inv_eps" else spec.x


def evaluate_rate(df: pd.DataFrame, spec: ClaimSpec, rate_eps: float, tol: float, alpha: float,
                  rng: np.random.Generator) -> tuple[Result, Result]:
    """The rate check (:func:`~dpregret.verdict.core.check_rate`) of the spec's algorithm, then of its
    primary control, on the same rows, one bootstrap generator in that order."""
    out = []
    on_control = dataclasses.replace(spec, where={**spec.where, **spec.control_where})
    for sp, alg in ((spec, spec.algorithm), (on_control, spec.control)):
        d = _metric(df, sp, alg, rate_eps)
        col = _col(spec)
        xs = np.sort(d[col].unique())
        samples = [d[d[col] == x].value.to_numpy() for x in xs]
        x = 1.0 / xs if spec.x == "inv_eps" else xs.astype(float)
        order = np.argsort(x)
        out.append(check_rate(x[order], [samples[i] for i in order], spec.exponent, tol, alpha, rng,
                              transform=TRANSFORMS[spec.transform], decades=spec.decades, x_name=x_name(spec)))
    return out[0], out[1]


X_NAMES = {"inv_eps": "1 / eps"}


def x_name(spec: ClaimSpec) -> str:
    """What a spec's x is, as the figures label it (``inv_eps``: 1 / eps)."""
    return X_NAMES.get(spec.x, spec.x)


def own_grid_rows(df: pd.DataFrame, spec: ClaimSpec) -> pd.DataFrame:
    """The rows a spec with ``own_grid`` reads: the rows of its own grid for its row, relabelled as
    ``where["grid"]``, where the run has them; else every row but that grid's."""
    own = df[(df.grid == spec.own_grid) & (df.row == spec.where["row"])]
    return own.assign(grid=spec.where["grid"]) if len(own) else df[df.grid != spec.own_grid]


def regime_threshold(p: Mapping, name: float | str | None):
    """A regime threshold: a number, or ``"<section>.<key>"`` of the parameters ``p``."""
    if name is None or not isinstance(name, str):
        return name
    section, _, key = name.partition(".")
    return p[section][key]


def regime_applies(spec: ClaimSpec, p: Mapping) -> bool:
    """Whether the run decides the spec's regime (an optional regime's section may be absent)."""
    r = spec.regime
    if r is None:
        return False
    return not (r.optional and isinstance(r.threshold, str) and r.threshold.partition(".")[0] not in p)


def apply_regime(df: pd.DataFrame, spec: ClaimSpec, res: Result, rate_eps: float, p: Mapping) -> Result:
    """``res`` inside the spec's :class:`Regime` (its numbers in ``detail["regime_numbers"]``), or
    recorded "not in the regime" (:func:`~dpregret.verdict.core.not_in_regime`) with the numbers: the
    spec's rows' mean regret by x against its non-private rows' (:func:`share_regime`)."""
    r = spec.regime
    col = _col(spec)
    d = select_rows(df, spec, spec.algorithm, rate_eps)
    base = _where(df[df.algorithm == (r.baseline or spec.baseline)], spec)
    priv = d.groupby(col).regret.mean()
    nonpriv = float(base.regret.mean()) if r.pooled else base.groupby(col).regret.mean().reindex(priv.index)
    trivial = None
    if r.trivial is not None:  # pooled: the non-learner's regret on every row of the claim's instance
        trivial = float(_where(df, spec)[r.trivial].mean()) if r.pooled else d.groupby(col)[r.trivial].mean()
    return share_regime(res, r, col, priv, nonpriv, regime_threshold(p, r.threshold),
                        None if col == "eps" else rate_eps, trivial, regime_threshold(p, r.trivial_share_max))


def share_regime(res: Result, r: Regime, x: str, priv: pd.Series, nonpriv, threshold: float,
                 eps: float | None = None, trivial=None, trivial_max: float | None = None) -> Result:
    """The :class:`Regime` ``r`` decided on the mean regret by ``x`` of the learner (``priv``) and of its
    non-private twin (``nonpriv``: a series on the same index, or one number when pooled), the share
    ``1 - nonpriv / priv`` against ``threshold`` at every point and, with ``trivial`` (the non-learner's
    mean regret: a series, or a number when pooled), ``priv / trivial <= trivial_max``.  ``eps``: the
    claim's eps, recorded with the numbers (a rate in eps records its points instead)."""
    numbers = {x: priv.index.tolist(), "mean_regret": priv.tolist(),
               "nonprivate_regret": nonpriv if isinstance(nonpriv, float) else nonpriv.tolist()}
    share = 1.0 - nonpriv / priv
    numbers[r.share] = share.tolist()
    numbers[f"{r.share}_{r.side}"] = float(threshold)
    if eps is not None:
        numbers["eps"] = float(eps)
    inside = bool((share <= threshold).all()) if r.side == "max" else bool((share >= threshold).all())
    if trivial is not None:
        if isinstance(trivial, float):
            numbers[r.trivial] = trivial
        sat = priv / trivial
        numbers[r.trivial_label] = sat.tolist()
        numbers["trivial_share_max"] = trivial_max
        inside = inside and bool((sat <= trivial_max).all())
    if inside:
        res.detail["regime_numbers"] = numbers
        return res
    return not_in_regime(res, r.why, numbers)


def _samples_by(d: pd.DataFrame, x: str, col: str) -> tuple[np.ndarray, list[np.ndarray]]:
    xs = np.sort(d[x].unique())
    return xs, [d[d[x] == v].sort_values("replicate")[col].to_numpy() for v in xs]


def decide_twin(df: pd.DataFrame, spec: ClaimSpec, res: Result, rate_eps: float, tol: float, alpha: float,
                rng: np.random.Generator) -> Result:
    """``res`` with the spec's mis-tuned twin attached where the run has its rows: the same rate check
    (:func:`evaluate_rate`) on the twin's rows, which share the paper's learner's draws.  The window
    (regime, learning gate) is the instance's, shown by the paper's learner; the twin is decided by the
    rate check alone.  (It is decided as a pair with itself, as :func:`evaluate_rate` decides a claim
    with its control, so that it draws from the bootstrap stream as the records always have.)"""
    tw = spec.twin
    if tw is None or not (df.algorithm == tw.algorithm).any():
        return res
    base = tw.baseline or spec.baseline
    if spec.metric == "gap" and not (df.algorithm == base).any():
        return res
    as_twin = dataclasses.replace(spec, algorithm=tw.algorithm, control=tw.algorithm, baseline=base)
    twin, _ = evaluate_rate(df, as_twin, rate_eps, tol, alpha, rng)
    return with_twin(res, tw.name, twin, tw.why)


def decide_nonlearner(df: pd.DataFrame, spec: ClaimSpec, res: Result, rate_eps: float, tol: float, alpha: float,
                      rng: np.random.Generator, gate=None) -> Result:
    """``res`` with the spec's non-learner control on the same draws: its result on the claim's
    learning gate where there is one (``gate(df, spec, rate_eps, alpha, rng, learner=False)`` not
    None), else the same rate check on its regret (the column ``spec.nonlearner[1]``)."""
    if spec.nonlearner is None:
        return res
    name, col = spec.nonlearner
    nl = gate(df, spec, rate_eps, alpha, rng, learner=False) if gate is not None else None
    if nl is None:
        xs, samples = _samples_by(select_rows(df, spec, spec.algorithm, rate_eps), spec.x, col)
        nl = check_rate(xs.astype(float), samples, spec.exponent, tol, alpha, rng,
                        transform=TRANSFORMS[spec.transform], decades=spec.decades, x_name=x_name(spec))
    return with_nonlearner(res, name, nl)


def evaluate_spec(df: pd.DataFrame, spec: ClaimSpec, p: Mapping, tolerance: float | Mapping, alpha: float,
                  rng: np.random.Generator, *, declared_in: str = "", gate=None) -> tuple[Result, Result]:
    """One declared rate claim on its rows ``df``: (claim, control).  The claim's eps is the parameter
    ``spec.eps_param`` of ``p`` (else ``rate_eps``), its rows those of its own grid where run; then, one
    bootstrap generator ``rng`` drawn in this order: the rate check of the claim and of its primary
    control (:func:`evaluate_rate`), its regime (:func:`apply_regime`), the learning gate
    (``gate(df, spec, eps, alpha, rng, learner=True)``, the paper's computation; None: none), the
    mis-tuned twin (:func:`decide_twin`) and the non-learner (:func:`decide_nonlearner`).
    ``tolerance``: the claim's, or the run's ``tolerances`` to look it up in (:func:`claim_tolerance`)."""
    tol = tolerance if not isinstance(tolerance, Mapping) else spec.tolerance(tolerance, declared_in)
    eps = float(p.get(spec.eps_param, p["rate_eps"]))
    if spec.own_grid is not None and "grid" in df:
        df = own_grid_rows(df, spec)
    if spec.x_grid is not None:
        df = df[df[spec.x].isin(p[spec.x_grid])]
    res, ctl = evaluate_rate(df, spec, eps, tol, alpha, rng)
    if regime_applies(spec, p):
        res = apply_regime(df, spec, res, eps, p)
    g = gate(df, spec, eps, alpha, rng, learner=True) if gate is not None else None
    if g is not None:
        res = with_learning_gate(res, g)
    res = decide_twin(df, spec, res, eps, tol, alpha, rng)
    return decide_nonlearner(df, spec, res, eps, tol, alpha, rng, gate), ctl
