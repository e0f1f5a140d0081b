"""Claim records and the generic checks (kinds ``bound`` and ``rate``).

- ``bound``: ``E[metric - B] <= 0`` at every grid point.  Per point one-sided limits of the
  mean of the per-replicate differences that stay sound for skewed metrics
  (:mod:`dpregret.verdict.intervals`: safe-side outliers clipped to the fence, a skewness
  penalty on the dangerous side; plus the Monte Carlo error of B when B holds an estimated
  expectation), Bonferroni over points.
  PASS if every upper limit is below 0; FAIL if some lower limit is above 0; else
  INCONCLUSIVE.  ``measured`` is the worst ratio mean(metric)/mean(B) (tightness), at
  ``detail["worst_ratio_point"]``; the interval reported is that of mean(metric - B) at the most
  critical point, ``detail["critical_point"]`` (the two can differ: a ratio is relative, the
  interval absolute).  ``detail["detectable_factor"]`` is the smallest error of the bound these
  data would detect: the largest ``c`` at which the bound ``c x B`` would be caught, i.e. some
  deciding point's lower limit of ``mean(metric - c B)`` (same level, Bonferroni over the same
  points) is above 0 (:func:`detectable_factor`; the point at ``detail["detectable_factor_point"]``).
- ``coverage`` (``check_coverage``): a high-probability bound, decided on the fraction of
  independent runs that meet it against its ``1 - delta``.
- ``rate``: least-squares slope of log(mean metric) on log(x) over >= 4 points spanning
  >= 2 decades, percentile bootstrap over replicates (resampled within each point).
  PASS if the CI's top <= a + tol; FAIL if its bottom > a + tol; else INCONCLUSIVE.

The tolerance is part of the claim (declared in the config before any run), never
fitted to the data.

**The verdict rule** (``record``): a claim is PASS only when its check passes *and* its
primary control -- the smallest plausible mistake for that theorem -- is caught (its own
check FAILs).  A PASS whose primary control is not caught (PASS or INCONCLUSIVE) is recorded
INCONCLUSIVE ("control not caught"), except a bound's, which may be LOOSE (below).  A PASS whose
primary control is a straw man (the claim declares ``near_miss=False``: no near miss can be
caught) is reported with the evidence "catches only gross errors", never as a plain PASS.

**LOOSE** (:func:`_loose`): a bound check that passes at every non-vacuous point while its primary
control is not caught is LOOSE -- the bound holds, with so much slack that no near miss could
cross it -- when its record carries the worst ratio (``measured``; a coverage check's, whose measured is its
violation rate, ``detail["worst_ratio"]``), the smallest error of the bound
the data would detect (``detail["detectable_factor"]``, from :func:`check_bound`) and the family of
instances searched for the worst case (``detail["worst_case_search"]``, a string the claim's
``evaluate`` puts there).  Without that search (or without the factor) it stays INCONCLUSIVE
(``detail["loose_refused"]``: "control not caught; no worst-case search recorded"): one instance's
slack is not the bound's.  INCONCLUSIVE is kept for data that cannot decide (an interval straddling
the threshold, a window not in the regime, a bound vacuous at every point).  LOOSE is subject to
the non-learner rule below, as a PASS is.

Every check stores the signed ``margin`` by which its FAIL side clears the threshold (in units of
its interval's width, or relative to the claim for privacy): a positive margin on a control is how
far it was caught.

**A false FAIL is controlled over the whole run**, not per check: a claim's own check that FAILs
at its level ``alpha`` is only *flagged*; the FAIL stands when it is confirmed at the one-sided
level :data:`FAIL_LEVEL` = ``RUN_FALSE_FAIL / FAIL_FAMILY`` (``detail["fail_confirmed"]``: the
same data's FAIL side at that level for bounds, rates, comparisons and coverage; a fresh,
independent sample for privacy audits; deterministic checks need none).  With at most
:data:`FAIL_FAMILY` claims in a run, the chance that any correct claim is reported FAIL is at most
``RUN_FALSE_FAIL`` (Bonferroni); a flagged, unconfirmed FAIL is INCONCLUSIVE with that reason.
Controls are not confirmed: a control is caught when its check FAILs at ``alpha``.

**A learner that does not learn must not pass** (the non-learner control): a regret, gap or
cost claim also decides the trivial learner of its setting (frozen at its start point, uniform
weights, a uniformly random arm) by the same check on the same draws
(:func:`with_nonlearner`, ``detail["nonlearner"]``).  A PASS whose non-learner passes too is
INCONCLUSIVE ("the instance does not discriminate").  A paired privacy-cost or gap claim, which a
learner that ignores its feedback meets with cost 0, also carries a *learning gate*
(``detail["learning_gate"]``): the learner's own regret must show learning on the same run
(PASS), and there the non-learner control is the non-learner's result on that gate.  A claim
whose ``learns`` is true and which carries no non-learner control is counted as such in the report.

**A mis-tuned twin must not pass either** (the twin control): a learner claim also decides, by
the same check on the same draws, the paper's learner with one realistic tuning mistake (the step's
exponent in T one notch off, a step that ignores the privacy term, a dropped log or dimension factor)
(:func:`with_twin`, ``detail["twin"]``).  A PASS whose twin passes too is INCONCLUSIVE ("blind to
tuning", with the twin's numbers); a claim that declares it can catch no realistic twin
(:func:`blind_to_tuning`, ``detail["twin_blind"]``, with the measured numbers) is INCONCLUSIVE with that
reason, never a plain PASS.  A LOOSE bound keeps its label (it already says no near miss is caught).

**A gross control is not a near miss**: a bound PASS whose primary control is caught only with a
worst ratio above :data:`GROSS_RATIO` (the control exceeds the bound more than 3x) is treated as a
PASS whose near miss is not caught (LOOSE with its search, else INCONCLUSIVE).  And LOOSE is refused
when the claim's own worst-case search reaches the factor of its control's bound
(``detail["control_factor"]``, e.g. 0.5 for the halved bound, against the search's ``max_ratio``):
the near miss *is* crossed on a sequence within the assumptions, so the claim must be decided on it.

**Bad results are results**: a non-finite metric (a learner that diverged) gives that check
FAIL with the reason in ``detail["diverged"]``; when it is a control that diverged, ``record``
counts it as not caught.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

import numpy as np
import scipy  # scipy.stats / scipy.optimize load on first use (simulate jobs need neither)
from scipy import special

from dpregret.core import validate as V
from dpregret.core.provenance import current as current_provenance
from dpregret.core.stats import clopper_pearson, t_interval, t_quantile
from dpregret.verdict.intervals import METHOD as INTERVAL_METHOD
from dpregret.verdict.intervals import confidence_limits

VERDICTS = ("PASS", "LOOSE", "INCONCLUSIVE", "FAIL")  # LOOSE: recorded by the verdict rule only, never by a check
RUN_FALSE_FAIL = 0.05  # the chance, over a whole run, that any correct claim is reported FAIL (at most)
FAIL_FAMILY = 100      # claims per run it is spread over (the default run decides 88)
FAIL_LEVEL = RUN_FALSE_FAIL / FAIL_FAMILY  # one-sided level at which a flagged FAIL must be confirmed
GROSS_RATIO = 3.0  # a bound's control caught only with a worst ratio above this is a gross error, not a near miss


@dataclass(frozen=True)
class Claim:
    claim_id: str
    paper: str  # the paper's key or cite (dpregret.papers.paper resolves it)
    theorem: str
    kind: str  # bound | rate | comparison | privacy | exact
    statement: str
    metric: str
    control: str  # the primary control (the smallest plausible mistake), in words
    near_miss: bool = True  # False: the primary control is a straw man (catches only gross errors)
    secondary: str = ""  # the secondary controls (straw men), in words
    learns: bool | None = None  # a claim about a learner's regret, gap or cost (None: bound, rate, comparison)

    @property
    def learner_claim(self) -> bool:
        """Whether a learner that does not learn must be caught by this claim (a non-learner control)."""
        return self.kind in ("bound", "rate", "comparison") if self.learns is None else bool(self.learns)


@dataclass
class Result:
    verdict: str
    measured: float
    bound: float
    ci_low: float
    ci_high: float
    tolerance: float
    detail: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


def claim_factory(paper: str):
    """``make(cid, theorem, kind, statement, metric, control, secondary="")`` -> :class:`Claim`
    of ``paper`` (a ``dpregret.papers`` key): the constructor every claims module uses."""
    def make(cid, theorem, kind, statement, metric, control, secondary=""):
        return Claim(cid, paper, theorem, kind, statement, metric, control, secondary=secondary)
    return make


def select(df, **equal):
    """The rows of ``df`` whose columns equal the given values (``select(df, alg="o2b", T=100)``)."""
    m = np.ones(len(df), dtype=bool)
    for k, v in equal.items():
        m &= df[k].to_numpy() == v
    return df[m]


def samples_by(df, x: str, col: str = "regret", close: bool = False):
    """``(xs, samples)``: the sorted distinct values of column ``x`` (as floats) and, for each,
    the column ``col`` of its rows sorted by replicate (the input of :func:`check_rate`).
    ``close``: a row belongs to ``v`` when ``np.isclose(row[x], v)`` instead of ``row[x] == v``."""
    xs = np.array(sorted(df[x].unique()), dtype=float)
    if close:
        col_x = df[x].to_numpy(dtype=float)
        return xs, [df[np.isclose(col_x, v)].sort_values("replicate")[col].to_numpy() for v in xs]
    return xs, [df[df[x] == v].sort_values("replicate")[col].to_numpy() for v in xs]


def paired_gap(df, keys: list[str], *, by: str = "alg", base: str = "none", alg: str | None = None,
               col: str = "regret", out: str = "gap", base_as: str | None = None):
    """The rows of algorithm ``alg`` (column ``by``; None: every row, the base's included) with
    ``out`` = their ``col`` minus that of the ``base`` run (the non-private one) with the same
    ``keys`` (which name the replicate: the pairing is per replicate), in ``df``'s row order,
    index reset.  ``base_as``: also keep the base's ``col`` under that name.  The base must have
    one row per ``keys``; a row without a base row gets NaN."""
    b = df[df[by] == base].set_index(keys)[col]
    rows = df if alg is None else df[df[by] == alg]
    bv = b.reindex(rows.set_index(keys).index).to_numpy()
    extra = {} if base_as is None else {base_as: bv}
    return rows.assign(**{out: rows[col].to_numpy() - bv}, **extra).reset_index(drop=True)


def gross_only(claims: dict[str, Claim], ids: set[str]) -> dict[str, Claim]:
    """``claims`` with ``near_miss=False`` for ``ids``: claims whose primary control is still a
    straw man (linear regret, no noise), so a PASS shows only that gross errors are caught."""
    unknown = ids - set(claims)
    if unknown:
        raise KeyError(f"gross_only: unknown claim ids {sorted(unknown)}")
    return {k: replace(c, near_miss=False) if k in ids else c for k, c in claims.items()}


def width_margin(lo: float, hi: float, threshold: float) -> float:
    """Signed distance of the lower limit past ``threshold`` in units of the interval's width
    (positive: the FAIL side clears the threshold, i.e. a control is caught by that much)."""
    w = hi - lo
    if not np.isfinite(w) or w <= 0:
        return float(np.sign(lo - threshold) * np.inf) if lo != threshold else 0.0
    return float((lo - threshold) / w)


def fail_if_diverged(name: str, samples, labels=None) -> Result | None:
    """FAIL with the reason when any replicate's metric is non-finite (the algorithm blew up)."""
    bad = [(labels[i] if labels is not None else i, int(np.sum(~np.isfinite(np.asarray(s, dtype=float)))),
            int(np.size(s))) for i, s in enumerate(samples)]
    bad = [b for b in bad if b[1]]
    if not bad:
        return None
    where = ", ".join(f"{k} of {n} replicates at point {lab}" for lab, k, n in bad[:5])
    return Result("FAIL", float("nan"), float("nan"), float("nan"), float("nan"), 0.0,
                  {"diverged": f"non-finite {name}: {where} (the algorithm diverged or overflowed)",
                   "margin": float("inf"), "ci_of": "none (non-finite metric)"})


def failed(err: Exception) -> Result:
    """A claim whose evaluation raised: FAIL with the error as its reason (so that the rule
    still writes every other claim's record)."""
    return Result("FAIL", float("nan"), float("nan"), float("nan"), float("nan"), 0.0,
                  {"diverged": f"evaluation failed: {type(err).__name__}: {err}", "margin": float("nan")})


def fail_confirmation(confirmed: bool, how: str) -> dict:
    """The ``detail`` entries of a flagged FAIL's run-wide confirmation (module docstring)."""
    return {"fail_confirmed": bool(confirmed), "fail_confirmation": f"{how}; run-wide level {FAIL_LEVEL:g} "
            f"(at most {RUN_FALSE_FAIL:.0%} chance of any false FAIL over {FAIL_FAMILY} claims)"}


def confirm_by_se(estimate: float, se: float, threshold: float, side: str, df: int | None = None) -> dict:
    """Confirm a FAIL whose estimate lies ``side`` (``"above"`` or ``"below"``) ``threshold``:
    the one-sided limit ``estimate -/+ q se`` at :data:`FAIL_LEVEL` (``q`` from Student's t with
    ``df`` degrees of freedom, else the normal; for a bootstrap, ``se`` is its standard deviation)
    must still lie beyond it."""
    q = t_quantile(FAIL_LEVEL, df)
    limit = estimate - q * se if side == "above" else estimate + q * se
    ok = limit > threshold if side == "above" else limit < threshold
    return fail_confirmation(bool(np.isfinite(limit) and ok),
                             f"{'lower' if side == 'above' else 'upper'} limit {estimate:.4g} "
                             f"{'-' if side == 'above' else '+'} {q:.3g} x {se:.3g} = {limit:.4g} "
                             f"({'>' if side == 'above' else '<'} {threshold:.4g} "
                             "confirms)")


def detectable_factor(d: np.ndarray, mean_bound: float, alpha: float, bound_se: float = 0.0) -> float:
    """The largest ``c`` at which the bound ``c x B`` would be caught on the per-replicate
    differences ``d = metric - B`` of one point: the root of ``lower limit of mean(d + (1 - c) B) = 0``
    at one-sided level ``alpha``, with ``mean_bound`` = mean(B) (> 0) standing for B and the Monte
    Carlo error of ``c B`` taken as ``|c| bound_se``.  The lower limit is shift-equivariant, so with
    ``bound_se = 0`` this is ``1 + lower limit / mean(B)``; exact when B is the same for every
    replicate (when it varies, ``d``'s spread already holds B's variation at c = 1, and the root
    neglects how it shrinks with c).  Below 1 when the point's lower limit is below 0; at or below 0
    no positive multiple of the bound could be caught.  NaN when ``mean_bound`` is not positive."""
    if not (np.isfinite(mean_bound) and mean_bound > 0):
        return float("nan")
    lo0, _, how = confidence_limits(d, alpha)
    if not bound_se:
        return float(1.0 + lo0 / mean_bound)
    # the limit's Monte Carlo term enters in quadrature with the data's t half-width h (intervals.py):
    # lower limit with extra_se e = lo0 + h - sqrt(h^2 + (z e)^2)
    h, z = how["lower"]["half_width_t"], float(special.ndtri(1 - alpha))

    def f(c):  # decreasing in c >= 0: the shift (1 - c) mean(B) falls and the Monte Carlo error c bse grows
        return lo0 + h - float(np.hypot(h, z * abs(c) * bound_se)) + (1.0 - c) * mean_bound
    if f(0.0) <= 0:  # not even the zero bound is caught: report the factor without the Monte Carlo term
        return float(1.0 + lo0 / mean_bound)
    hi = 1.0
    while f(hi) > 0:
        hi *= 2.0
    return float(scipy.optimize.brentq(f, 0.0, hi, xtol=1e-9, rtol=1e-9))


def _without_vacuous(diffs, ratios, alpha, bound_se, labels, vacuous, bounds) -> Result:
    """:func:`check_bound` on the points where the bound is not vacuous (INCONCLUSIVE when none is left)."""
    if len(vacuous) != len(diffs):
        raise ValueError(f"vacuous has {len(vacuous)} entries but diffs has {len(diffs)}")
    keep = [i for i, v in enumerate(vacuous) if not v]
    gone = [labels[i] for i, v in enumerate(vacuous) if v]
    if not keep:
        return Result("INCONCLUSIVE", float(max(ratios)), 1.0, float("nan"), float("nan"), 0.0,
                      {"reason": "the bound is vacuous (at or above the trivial maximum) at every grid point",
                       "vacuous_points": gone, "margin": float("nan"), "ci_of": "none (vacuous)",
                       "detectable_factor": float("nan")})
    if bounds is not None and len(bounds) != len(diffs):
        raise ValueError(f"bounds has {len(bounds)} entries but diffs has {len(diffs)}")
    sub = check_bound([diffs[i] for i in keep], [ratios[i] for i in keep], alpha,
                      [bound_se[i] for i in keep] if bound_se else None, [labels[i] for i in keep],
                      bounds=[bounds[i] for i in keep] if bounds is not None else None)
    sub.detail["vacuous_points"] = gone
    return sub


def check_bound(diffs: list[np.ndarray], ratios: list[float], alpha: float,
                bound_se: list[float] | None = None, labels: list | None = None,
                vacuous: list[bool] | None = None, bounds: list[float] | None = None) -> Result:
    """``diffs[i]``: per-replicate ``metric - B`` at point i; ``ratios[i]``: mean(metric)/mean(B).

    ``vacuous[i]``: the bound at point i is at or above the largest value the metric can take
    (the trivial maximum), so no run could violate it: such points decide nothing.  They are
    reported and left out of the verdict (and of the Bonferroni count); with none left the
    claim is INCONCLUSIVE ("bound vacuous at every point").

    ``bounds[i]``: mean(B) at point i, for the detectable factor (module docstring,
    :func:`detectable_factor`; the maximum over the deciding points).  Without it mean(B) is
    derived as ``mean(diffs[i]) / (ratios[i] - 1)``, exact when ``ratios`` is mean(metric)/mean(B)
    as stated (NaN at a point with ratio 1); ``detail["detectable_factor_from"]`` says which."""
    alpha = V.probability("alpha", alpha)
    if not diffs:
        raise ValueError("diffs must hold at least one grid point")
    labels = list(labels) if labels is not None else list(range(len(diffs)))
    if vacuous is not None and any(vacuous):
        return _without_vacuous(diffs, ratios, alpha, bound_se, labels, vacuous, bounds)
    m = len(diffs)
    if (bad := fail_if_diverged("metric - bound", diffs, labels)) is not None:
        return bad
    bound_se = bound_se or [0.0] * m
    a = alpha / m
    lows, highs, means = [], [], []
    for d, bse in zip(diffs, bound_se):
        d = V.finite_array("diffs", d, ndim=1)
        if d.size < 2:
            raise ValueError("each grid point needs at least 2 replicates")
        lo, hi, _ = confidence_limits(d, a, bse)
        means.append(d.mean())
        lows.append(lo)
        highs.append(hi)
    lows, highs = np.array(lows), np.array(highs)
    verdict = "PASS" if np.all(highs < 0) else ("FAIL" if np.any(lows > 0) else "INCONCLUSIVE")
    confirm = {}
    if verdict == "FAIL":  # the FAIL side again at the run-wide level, Bonferroni over the points
        run_lows = [confidence_limits(V.finite_array("diffs", d, ndim=1), FAIL_LEVEL / m, bse)[0]
                    for d, bse in zip(diffs, bound_se)]
        confirm = fail_confirmation(any(lo > 0 for lo in run_lows), f"lower limits at level {FAIL_LEVEL / m:.2g} "
                                    f"per point: max {max(run_lows):.4g} (> 0 confirms)")
    crit = int(np.argmax(highs))  # the point closest to (or furthest past) the bound
    margin = max(width_margin(lo, hi, 0.0) for lo, hi in zip(lows, highs))
    if bounds is not None:
        if len(bounds) != m:
            raise ValueError(f"bounds has {len(bounds)} entries but diffs has {m}")
        mean_b, source = [float(b) for b in bounds], "bounds (mean(B) per point, passed to check_bound)"
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            mean_b = [float(md / (r - 1.0)) if np.isfinite(r) and r != 1.0 else float("nan")
                      for md, r in zip(means, ratios)]
        source = "derived: mean(B) = mean(metric - B) / (ratio - 1) per point (check_bound got no bounds)"
    factors = np.array([(1.0 + lo / b if b > 0 else np.nan) if not bse and np.isfinite(b)  # the limit just computed
                        else detectable_factor(np.asarray(d, dtype=float), b, a, bse)
                        for d, b, bse, lo in zip(diffs, mean_b, bound_se, lows)])
    found = np.isfinite(factors)
    at = int(np.nanargmax(factors)) if found.any() else None
    return Result(verdict, float(max(ratios)), 1.0, float(lows[crit]), float(highs[crit]), 0.0,
                  {"ci_of": "mean(metric - bound) at the most critical grid point", "margin": margin,
                   "detectable_factor": float(factors[at]) if at is not None else float("nan"),
                   "detectable_factor_point": labels[at] if at is not None else None,
                   "detectable_factor_from": source,
                   "interval": INTERVAL_METHOD,
                   "critical_point": labels[crit],  # where the interval of metric - bound reaches highest
                   "worst_ratio_point": labels[int(np.argmax(ratios))],  # where `measured` (the worst ratio) is
                   "points": labels, "mean_diff": [float(x) for x in means],
                   "ci_low": lows.tolist(), "ci_high": highs.tolist(), "ratio": [float(r) for r in ratios],
                   "alpha_per_point": a, **confirm})


def not_in_regime(result: Result, why: str, numbers: dict) -> Result:
    """``result`` recorded as INCONCLUSIVE because the window it was measured on is outside the
    regime where the paper's term dominates: ``why`` says so in words, ``numbers`` holds the
    measured quantities that show it (e.g. the privacy cost's share of the regret).  A check
    outside its regime is never a PASS (README, "testing rule")."""
    return replace(result, verdict="INCONCLUSIVE",
                   detail={**result.detail, "not_in_regime": f"not in the regime at feasible horizons: {why}",
                           "regime_numbers": numbers, "verdict_in_window": result.verdict})


def fit_slope(x: np.ndarray, y: np.ndarray) -> float:
    """Least-squares slope of log(y) on log(x)."""
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def bootstrap_means(samples: list[np.ndarray], rng: np.random.Generator, n_boot: int,
                    idx: list[np.ndarray] | None = None) -> tuple[list[np.ndarray], np.ndarray]:
    """The percentile bootstrap of the slope checks, resampled within each point: ``(idx, means)``, each
    point's replicates drawn with replacement ``n_boot`` times (``idx[i]``, shape ``(n_boot, size)``;
    given: those draws, for samples paired replicate by replicate with another's) and the resampled
    means, shape ``(n_boot, points)``."""
    if idx is None:
        idx = [rng.integers(0, s.size, (n_boot, s.size)) for s in samples]
    return idx, np.stack([s[i].mean(axis=1) for s, i in zip(samples, idx)], axis=1)


def centered_slopes(log_y: np.ndarray, lx: np.ndarray) -> np.ndarray:
    """The least-squares slopes of the rows of ``log_y`` on ``lx`` (the bootstrap's log-log slopes)."""
    xc = lx - lx.mean()
    return (log_y @ xc) / (xc @ xc)


def check_rate(x, samples: list[np.ndarray], exponent: float, tol: float, alpha: float,
               rng: np.random.Generator, n_boot: int = 2000, transform=None, decades: float = 2.0,
               x_name: str | None = None) -> Result:
    """Rate claim ``mean metric = O(x^exponent)``; ``samples[i]`` are the replicates at ``x[i]``.

    The record's ``detail`` holds the points (``x``, ``mean``, ``y`` after ``transform``), each point's
    ``1 - alpha`` percentile band of ``y`` from the same bootstrap resamples as the slope's interval (``y_low``,
    ``y_high``: the figure's confidence band; no further draws) and ``x_name`` (what x is, when given).

    ``decades``: the span the grid must cover (2 by default; 1 is the testing rule's minimum,
    for windows that cannot be wider inside the regime, e.g. the noise-dominated eps window).

    ``transform(x, means)`` may divide out factors the claim states explicitly (e.g. the
    log^2 T of a polylog bound) before the fit.
    """
    x = V.finite_array("x", x, ndim=1)
    alpha = V.probability("alpha", alpha)
    tol = V.nonnegative("tol", tol)
    if x.size != len(samples):
        raise ValueError(f"x has {x.size} points but samples has {len(samples)}")
    if x.size < 4 or np.any(x <= 0) or np.log10(x.max() / x.min()) < decades - 1e-9:
        return Result("INCONCLUSIVE", float("nan"), exponent, float("nan"), float("nan"), tol,
                      {"reason": f"a rate needs >= 4 positive grid points spanning >= {decades:g} decades",
                       "x": x.tolist()})
    tf = transform or (lambda xx, mm: mm)
    if (bad := fail_if_diverged("metric", samples, x.tolist())) is not None:
        return bad
    samples = [V.finite_array("samples", s, ndim=1) for s in samples]
    means = np.array([s.mean() for s in samples])
    y = tf(x, means)
    detail = {"x": x.tolist(), "mean": means.tolist(), "y": np.asarray(y).tolist()}
    if x_name:
        detail["x_name"] = str(x_name)
    if np.any(y <= 0):
        return Result("INCONCLUSIVE", float("nan"), exponent, float("nan"), float("nan"), tol,
                      {**detail, "reason": "a mean is <= 0, so no log-log slope"})
    slope = fit_slope(x, y)
    _, bmeans = bootstrap_means(samples, rng, n_boot)  # (n_boot, points)
    by = np.stack([tf(x, bm) for bm in bmeans])
    ok = np.all(by > 0, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        boots = centered_slopes(np.log(np.where(ok[:, None], by, 1.0)), np.log(x))
    boots[~ok] = np.nan
    if np.mean(~ok) > alpha / 2:
        return Result("INCONCLUSIVE", slope, exponent, float("nan"), float("nan"), tol,
                      {**detail, "reason": f"{np.mean(~ok):.1%} of bootstrap means <= 0"})
    # undefined resamples are put at the unfavourable end (+inf), which can only widen the CI upward
    lo, hi = np.quantile(np.where(ok, boots, np.inf), [alpha / 2, 1 - alpha / 2])
    band = np.quantile(by[ok], [alpha / 2, 1 - alpha / 2], axis=0)
    detail["y_low"], detail["y_high"] = band[0].tolist(), band[1].tolist()
    verdict = "PASS" if hi <= exponent + tol else ("FAIL" if lo > exponent + tol else "INCONCLUSIVE")
    confirm = confirm_by_se(slope, np.nanstd(boots[ok], ddof=1), exponent + tol, "above") if verdict == "FAIL" else {}
    return Result(verdict, slope, exponent, float(lo), float(hi), tol,
                  {**detail, "ci_of": "log-log slope", "margin": width_margin(lo, hi, exponent + tol), **confirm})


def check_exact(failures: list[str], checked: int) -> Result:
    """Deterministic structural property: PASS iff no case failed (``checked`` cases run)."""
    V.integer("checked", checked)
    verdict = "FAIL" if failures else "PASS"
    return Result(verdict, float(len(failures)), 0.0, float(len(failures)), float(len(failures)), 0.0,
                  {"ci_of": "count of violating cases (deterministic)", "checked": checked, "failures": failures[:20],
                   "margin": float(len(failures)), "margin_unit": "violating cases"})


def check_comparison(diff: np.ndarray, alpha: float, margin: float = 0.0) -> Result:
    """``A beats B``: the paired differences ``metric_A - metric_B`` (common random numbers)
    have mean < -margin.  Two-sided t interval: PASS if its top < -margin, FAIL if its
    bottom > -margin, else INCONCLUSIVE."""
    if (bad := fail_if_diverged("paired difference", [diff])) is not None:
        return bad
    d = V.finite_array("diff", diff, ndim=1)
    alpha = V.probability("alpha", alpha)
    margin = V.nonnegative("margin", margin)
    if d.size < 2:
        raise ValueError("diff needs at least 2 paired replicates")
    se = d.std(ddof=1) / np.sqrt(d.size)
    _, lo, hi = t_interval(d, alpha)
    verdict = "PASS" if hi < -margin else ("FAIL" if lo > -margin else "INCONCLUSIVE")
    confirm = confirm_by_se(float(d.mean()), se, -margin, "above", df=d.size - 1) if verdict == "FAIL" else {}
    return Result(verdict, float(d.mean()), -margin, float(lo), float(hi), margin,
                  {"ci_of": "mean paired difference A - B", "n": int(d.size), "se": float(se),
                   "margin": width_margin(lo, hi, -margin), **confirm})


def check_coverage(inside, delta: float, alpha: float) -> Result:
    """High-probability bound ``P(metric <= B) >= 1 - delta`` over independent runs
    (``inside[i]``: run i met its bound).  One-sided Clopper-Pearson limits at level
    ``1 - alpha`` on the violation rate: PASS if the upper limit is <= delta, FAIL if the
    lower limit is > delta, else INCONCLUSIVE (too few runs to tell)."""
    inside = np.asarray(inside, dtype=bool).ravel()
    delta = V.probability("delta", delta)
    alpha = V.probability("alpha", alpha)
    if inside.size < 1:
        raise ValueError("inside must hold at least one run")
    n, v = int(inside.size), int(inside.size - inside.sum())
    lo, hi = (float(x) for x in clopper_pearson(v, n, alpha, alpha))
    verdict = "PASS" if hi <= delta else ("FAIL" if lo > delta else "INCONCLUSIVE")
    confirm = {}
    if verdict == "FAIL":
        run_lo = float(clopper_pearson(v, n, FAIL_LEVEL, FAIL_LEVEL)[0])
        confirm = fail_confirmation(run_lo > delta, f"Clopper-Pearson lower limit at level {FAIL_LEVEL:g}: "
                                                    f"{run_lo:.4g} (> {delta:g} confirms)")
    return Result(verdict, v / n, delta, lo, hi, 0.0,
                  {"ci_of": f"violation rate (one-sided Clopper-Pearson limits, level {1 - alpha:g} each)",
                   "runs": n, "violations": v, "margin": width_margin(lo, hi, delta), **confirm})


def coverage_detectable_factor(ratios, delta: float, alpha: float) -> tuple[float, int]:
    """The bound-slack of a coverage check (:func:`check_coverage`) on runs whose metric / bound
    are ``ratios``: the largest ``c`` at which the check against ``c x bound`` would FAIL at level
    ``alpha`` -- the k-th largest ratio, k the fewest violations of ``len(ratios)`` runs whose
    Clopper-Pearson lower limit is above ``delta`` (just below it, k runs violate ``c x bound``) --
    and k.  A coverage claim that is LOOSE carries it as ``detail["detectable_factor"]`` and its
    largest ratio as ``detail["worst_ratio"]`` (:func:`_loose`)."""
    r = np.sort(np.asarray(ratios, dtype=float).ravel())[::-1]
    n = r.size
    lows = clopper_pearson(np.arange(1, n + 1), n, alpha, alpha)[0]
    for k in range(1, n + 1):
        if float(lows[k - 1]) > delta:
            return float(r[k - 1]), k
    return float("nan"), 0


def check_privacy(eps_lb: float, eps_lb_conf: float, eps_claim: float) -> Result:
    """Privacy claim against an empirical lower bound ``eps_lb`` (one-sided, confidence
    ``eps_lb_conf``): FAIL if the lower bound exceeds the claim, else PASS.  (A lower bound
    can refute a claim, never prove it; the audit's tightness is reported separately.)"""
    eps_claim = V.positive("eps_claim", eps_claim)
    verdict = "FAIL" if eps_lb > eps_claim else "PASS"
    return Result(verdict, float(eps_lb), eps_claim, float(eps_lb), float("inf"), 0.0,
                  {"ci_of": f"one-sided {eps_lb_conf:.3g} lower bound on eps",
                   "margin": float((eps_lb - eps_claim) / eps_claim), "margin_unit": "fraction of the claimed eps"})


EVIDENCE = {"near_miss": "near miss caught", "gross": "catches only gross errors",
            "not_caught": "control not caught", "nonlearner": "a non-learner is not caught",
            "loose": "bound holds, near miss cannot be caught", "twin": "a mis-tuned twin is not caught", "none": ""}
NO_SEARCH = "control not caught; no worst-case search recorded"  # the reason a bound PASS is not LOOSE


def control_caught(r: Result) -> bool:
    """A control is caught when its own check FAILs on a finite metric."""
    return r.verdict == "FAIL" and "diverged" not in r.detail


def margin_of(r: Result) -> float:
    return float(r.detail.get("margin", float("nan")))


def caught_raw(verdict: str, detail: dict) -> bool:
    """A control's check FAILed at its own level (an unconfirmed FAIL recorded INCONCLUSIVE included)."""
    return "diverged" not in detail and (verdict == "FAIL" or "fail_not_confirmed" in detail)


def with_nonlearner(result: Result, name: str, nonlearner: Result) -> Result:
    """``result`` with its non-learner control attached (module docstring): ``nonlearner`` is the
    trivial learner ``name`` decided by the claim's check on the same draws -- or, for a claim with
    a learning gate, the non-learner's result on that gate."""
    nl = {"name": name, **nonlearner.as_dict(), "caught": caught_raw(nonlearner.verdict, nonlearner.detail),
          "margin": margin_of(nonlearner)}
    return replace(result, detail={**result.detail, "nonlearner": nl})


def with_learning_gate(result: Result, gate: Result) -> Result:
    """``result`` (a paired privacy-cost or gap claim's) with the learning gate of the same learner on
    the same run attached: ``gate`` PASS when the learner's own regret shows learning (e.g. its
    non-private regret slope <= 0.75 and R_T <= half the non-learner's).  The verdict rule keeps a
    PASS only when the gate passes."""
    return replace(result, detail={**result.detail, "learning_gate": {**gate.as_dict(), "margin": margin_of(gate)}})


def with_twin(result: Result, name: str, twin: Result, why: str) -> Result:
    """``result`` with its mis-tuned twin attached (module docstring): ``twin`` is the paper's learner
    with one realistic tuning mistake (``name``; ``why``: the mistake and why the theorem should see it)
    decided by the claim's own check on the same draws (for a gated claim: the claim's check, the gate
    included).  Caught when its check FAILs at its own level."""
    tw = {"name": name, "why": why, **twin.as_dict(), "caught": caught_raw(twin.verdict, twin.detail),
          "margin": margin_of(twin)}
    return replace(result, detail={**result.detail, "twin": tw})


def blind_to_tuning(result: Result, why: str) -> Result:
    """``result`` recorded as blind to tuning: no realistic mis-tuned twin of the paper's learner can be
    caught by this check (``why``: which twins were tried, with their measured numbers).  The verdict
    rule keeps no plain PASS for it (INCONCLUSIVE, "blind to tuning")."""
    return replace(result, detail={**result.detail, "twin_blind": f"blind to tuning: {why}"})


def _twin_rule(result: Result) -> Result:
    """A PASS stays so only if its mis-tuned twin (where run) is caught and the claim is not declared blind."""
    d = result.detail
    if result.verdict != "PASS":
        return result
    tw = d.get("twin")
    if tw is not None and not tw["caught"]:
        why = (f"blind to tuning: the mis-tuned twin ({tw['name']}: {tw['why']}) is not caught (its verdict "
               f"{tw['verdict']}, measured {tw['measured']:.4g}, CI [{tw['ci_low']:.4g}, {tw['ci_high']:.4g}]): "
               "the check cannot tell the paper's tuning from a realistic mistake")
        return replace(result, verdict="INCONCLUSIVE", detail={**d, "twin_not_caught": why})
    if tw is None and "twin_blind" in d:
        return replace(result, verdict="INCONCLUSIVE", detail={**d, "twin_not_caught": d["twin_blind"]})
    return result


def _gate_reason(gate: dict) -> str:
    g = gate.get("detail", {}).get("gate", "learning gate")
    return (f"the learner does not learn (learning gate {gate['verdict']}: {g}; measured {gate['measured']:.4g} "
            f"against {gate['bound']:.4g})")


def _nonlearner_rule(result: Result) -> Result:
    """A PASS (or LOOSE) stays so only if the learning gate (where declared) passes and the non-learner is caught."""
    d = result.detail
    gate, nl = d.get("learning_gate"), d.get("nonlearner")
    if gate is not None and gate["verdict"] != "PASS":
        why = f"{_gate_reason(gate)}, so a cost or gap near 0 says nothing"
        return replace(result, verdict="INCONCLUSIVE", detail={**d, "learning_not_shown": why})
    if nl is not None and not nl["caught"]:
        why = (f"the non-learner ({nl['name']}) is not caught (its verdict {nl['verdict']}, measured "
               f"{nl['measured']:.4g}): the instance does not discriminate a learner from one that does not learn")
        return replace(result, verdict="INCONCLUSIVE", detail={**d, "nonlearner_passes": why})
    return result


def is_bound_check(claim: Claim, result: Result) -> bool:
    """A claim decided as a bound (kind ``bound``, or a result carrying a detectable factor: of
    :func:`check_bound`, or a coverage check's from :func:`coverage_detectable_factor`)."""
    return claim.kind == "bound" or "detectable_factor" in result.detail


def _search_reaches_control(d: dict) -> str:
    """Why LOOSE is refused when the worst-case search reaches the control's factor ("" if it does not)."""
    search, f = d.get("worst_case_search"), d.get("control_factor")
    if not (isinstance(search, dict) and isinstance(f, (int, float)) and np.isfinite(f)):
        return ""
    r = search.get("max_ratio")
    if isinstance(r, (int, float)) and np.isfinite(r) and r >= f:
        return (f"not LOOSE: the worst-case search reaches ratio {r:.3g} (at {search.get('at')}), at or above the "
                f"control's factor {f:g}: the near miss is crossed on a sequence within the assumptions, so the "
                "claim must be decided on that sequence, not labelled loose")
    return ""


def gross_control(claim: Claim, result: Result, control_result: Result) -> str:
    """Why a caught control of a bound check is a gross error, not a near miss ("" if it is not): its
    worst ratio to the claim's bound is above :data:`GROSS_RATIO`."""
    if not is_bound_check(claim, result) or "ratio" not in control_result.detail:
        return ""
    r = control_result.detail.get("worst_ratio", control_result.measured)
    if isinstance(r, (int, float)) and np.isfinite(r) and r > GROSS_RATIO:
        return (f"its primary control is caught only as a gross error (its worst ratio {r:.3g} to the bound is "
                f"above {GROSS_RATIO:g}): no near miss is caught")
    return ""


def _loose(claim: Claim, result: Result, control_result: Result, why: str) -> tuple[Result, str] | None:
    """The verdict rule for a bound PASS whose control is not caught (``why`` says so): LOOSE when
    the record carries the detectable factor and the worst-case search, else INCONCLUSIVE with the
    reason; None for a claim that is not a bound check."""
    d = result.detail
    if not is_bound_check(claim, result) or "diverged" in control_result.detail:
        return None
    search, c = d.get("worst_case_search"), d.get("detectable_factor", float("nan"))
    if isinstance(search, dict) and search:  # a structured record (family, max ratio, where): its text
        search = "; ".join(f"{k}: {v}" for k, v in search.items())
    ratio = d.get("worst_ratio", result.measured)  # a coverage check's measured is its violation rate
    numbers = (f"the bound holds at every non-vacuous point, max ratio {ratio:.3g} "
               f"(at {d.get('worst_ratio_point')}); the bound x {c:.3g} would be caught (at "
               f"{d.get('detectable_factor_point')})")
    reach = _search_reaches_control(d)
    if reach:
        refused = reach
    elif not (isinstance(search, str) and search.strip()):
        refused = f"{NO_SEARCH} ({numbers})"
    elif not (isinstance(c, (int, float)) and np.isfinite(c)):
        refused = ("control not caught; the detectable factor is unknown (check_bound found no positive mean(B): "
                   "pass bounds=), so the bound's slack is not measured")
    else:
        refused = None
    if refused is not None:
        return replace(result, verdict="INCONCLUSIVE", detail={
            **d, "loose_refused": refused,
            "control_not_caught": f"the check passed, but {why}"}), EVIDENCE["not_caught"]
    loose = replace(result, verdict="LOOSE", detail={**d, "loose": (
        f"loose: {numbers}; {why} (control measured {control_result.measured:.3g}); "
        f"worst case searched over: {search}")})
    ruled = _nonlearner_rule(loose)
    if ruled.verdict != "LOOSE":
        return ruled, EVIDENCE["nonlearner"]
    return _loose_twin(loose), EVIDENCE["loose"]


def _loose_twin(loose: Result) -> Result:
    """A LOOSE whose mis-tuned twin is not caught stays LOOSE, recorded blind to tuning (``twin_blind``, with the
    twin's numbers): the bound's slack hides the twin as it hides the near miss."""
    d = loose.detail
    tw = d.get("twin")
    if tw is None or tw["caught"] or "twin_blind" in d:
        return loose
    return replace(loose, detail={**d, "twin_blind": (
        f"blind to tuning: the mis-tuned twin ({tw['name']}) is not caught inside the bound's slack (its verdict "
        f"{tw['verdict']}, measured {tw['measured']:.4g}, CI [{tw['ci_low']:.4g}, {tw['ci_high']:.4g}])")})


def apply_rule(claim: Claim, result: Result, control_result: Result) -> tuple[Result, str]:
    """The verdict rule (module docstring): returns the recorded result and its evidence."""
    if result.verdict == "FAIL" and result.detail.get("fail_confirmed") is False:
        return replace(result, verdict="INCONCLUSIVE", detail={
            **result.detail, "fail_not_confirmed": "flagged at the claim's level, but not confirmed at the run-wide "
            f"level {FAIL_LEVEL:g} ({result.detail.get('fail_confirmation', '')}): not reported as "
            "FAIL"}), EVIDENCE["none"]
    if result.verdict != "PASS":
        return result, EVIDENCE["none"]
    if not control_caught(control_result):
        why = ("its primary control diverged (non-finite), so it was not caught" if "diverged" in control_result.detail
               else f"its primary control was not caught (control verdict {control_result.verdict}): "
                    "on this grid the check cannot tell the claim from its near miss")
        if (ruled := _loose(claim, result, control_result, why)) is not None:
            return ruled
        return replace(result, verdict="INCONCLUSIVE",
                       detail={**result.detail,
                               "control_not_caught": f"the check passed, but {why}"}), EVIDENCE["not_caught"]
    if gross := gross_control(claim, result, control_result):
        if (ruled := _loose(claim, result, control_result, gross)) is not None:
            return ruled
    ruled = _nonlearner_rule(result)
    if ruled.verdict != "PASS":
        return ruled, EVIDENCE["nonlearner"]
    ruled = _twin_rule(result)
    if ruled.verdict != "PASS":
        return ruled, EVIDENCE["twin"]
    return result, EVIDENCE["near_miss" if claim.near_miss else "gross"]


def nonlearner_fields(result: dict, claim_learns: bool) -> dict:
    """The record's top-level account of the non-learner control (from ``result["detail"]``)."""
    nl = result["detail"].get("nonlearner")
    return {"learner_claim": bool(claim_learns), "nonlearner": nl["name"] if nl else "",
            "nonlearner_verdict": nl["verdict"] if nl else "", "nonlearner_caught": bool(nl and nl["caught"]),
            "nonlearner_margin": float(nl["margin"]) if nl else float("nan"),
            "learning_gate": result["detail"].get("learning_gate", {}).get("verdict", "")}


def twin_fields(result: dict) -> dict:
    """The record's top-level account of the mis-tuned twin (from ``result["detail"]``); ``twin_blind``: why the
    claim is blind to tuning (declared, a LOOSE's hidden twin, or a PASS turned INCONCLUSIVE by its twin)."""
    d = result["detail"]
    tw = d.get("twin")
    blind = d.get("twin_blind") or (d.get("twin_not_caught", "") if tw and not tw["caught"] else "")
    return {"twin": tw["name"] if tw else "", "twin_verdict": tw["verdict"] if tw else "",
            "twin_caught": bool(tw and tw["caught"]), "twin_margin": float(tw["margin"]) if tw else float("nan"),
            "twin_blind": str(blind)}


def loose_fields(result: dict) -> dict:
    """The record's top-level account of a bound's slack (from ``result["detail"]``): the detectable
    factor (NaN when the check is not a bound's) and the worst-case search ("" when none)."""
    d = result["detail"]
    c = d.get("detectable_factor", float("nan"))
    return {"detectable_factor": float(c) if isinstance(c, (int, float)) else float("nan"),
            "worst_case_search": str(d.get("worst_case_search") or "")}


def attach_nonlearner_record(rec: dict, nl_rec: dict) -> dict:
    """``rec`` (a decided claim's record) with the non-learner's record ``nl_rec`` -- the same claim
    decided for the trivial learner through the door a user's learner takes -- as its non-learner
    control, and the verdict rule applied again (a PASS whose non-learner passes is INCONCLUSIVE)."""
    nl = nl_rec["result"]
    name = nl_rec["claim_id"].partition("--learner-")[2]
    if "learning_gate" in nl["detail"]:  # a gated claim: the non-learner is caught on the gate
        nl = {k: v for k, v in nl["detail"]["learning_gate"].items() if k != "margin"}
    res = Result(**rec["result"])
    if "nonlearner" in res.detail:
        raise ValueError(f"{rec['claim_id']} already carries a non-learner control")
    res = with_nonlearner(res, name, Result(**nl))
    ruled = _nonlearner_rule(res) if res.verdict in ("PASS", "LOOSE") else res  # a FAIL is not touched
    evidence = EVIDENCE["nonlearner"] if ruled.verdict != rec["result"]["verdict"] else rec["evidence"]
    out = {**rec, "result": ruled.as_dict(), "evidence": evidence}
    return {**out, **nonlearner_fields(out["result"], rec.get("learner_claim", True))}


def record(claim: Claim, result: Result, control_result: Result, *, scenario: str, env: str | None,
           ci_level: float, secondary: dict[str, Result] | None = None, history: list | None = None) -> dict:
    """The JSON record of one decided claim (``results/claims/<claim-id>.json``), after the
    verdict rule (:func:`apply_rule`).  ``secondary``: the straw-man controls' results by name;
    ``history``: changes to the claim's grid or tolerance made after a result was seen."""
    result, evidence = apply_rule(claim, result, control_result)
    cid = f"{claim.claim_id}--{env}" if env else claim.claim_id
    sec = {k: {**v.as_dict(), "caught": control_caught(v), "margin": margin_of(v)}
           for k, v in (secondary or {}).items()}
    return {"claim_id": cid, "base_id": claim.claim_id, "env": env or "", "scenario": scenario, **{
        k: getattr(claim, k) for k in ("paper", "theorem", "kind", "statement", "metric", "control", "near_miss",
                                       "secondary")},
        "ci_level": ci_level, "result": result.as_dict(), "control_result": control_result.as_dict(),
        "evidence": evidence, "control_caught": control_caught(control_result),
        "control_margin": margin_of(control_result), "control_margin_unit": control_result.detail.get(
            "margin_unit", "interval widths"), "secondary_results": sec, "history": list(history or []),
        **nonlearner_fields(result.as_dict(), claim.learner_claim), **loose_fields(result.as_dict()),
        **twin_fields(result.as_dict()), "provenance": current_provenance()}


def check_rng(seed: int, *parts) -> np.random.Generator:
    """The bootstrap generator of a check, keyed by what it decides (never by call order)."""
    from dpregret.core.rng import stable_key
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=stable_key("check", *parts))))


def evaluate_records(claims_module, scenario: str, params: dict, tables: dict) -> list[dict]:
    """The records of a scenario whose claims module has ``CLAIMS`` and ``evaluate(tables, p,
    tol, alpha, rng_for)`` (Ene et al., van der Hoeven): one per claim, bootstrap keyed by claim."""
    alpha, seed = params["alpha"], params["seed"]
    results = claims_module.evaluate(tables, params["p"], params["tolerances"], alpha, lambda cid: check_rng(seed, cid))
    unknown = sorted(set(results) - set(claims_module.CLAIMS))
    if unknown:
        raise KeyError(f"{claims_module.__name__}.evaluate returned claim ids its CLAIMS does not declare: {unknown}; "
                       f"declared: {sorted(claims_module.CLAIMS)}")
    return [record(claims_module.CLAIMS[cid], res, ctl, scenario=scenario, env=None, ci_level=1 - alpha,
                   history=params["history"].get(cid)) for cid, (res, ctl) in results.items()]
