"""Your own bandit linear optimisation learner inside Agarwal and Singh's Algorithm 4 (ICML 2017,
section 4.2, Theorem 4.5, Table 2 row 1): the ``bco`` setting (``dpregret.core.protocols``:
``predict()`` -> ``(R, n)`` points of K, ``update((R,) loss values)``).

Algorithm 4 is a black-box reduction: it asks its base learner for a point ``y_t`` of K, plays
it, and forwards ``<l_t, y_t> + <Z_t, y_t>`` with ``Z_t`` a vector of i.i.d. Laplace(lambda)
coordinates (Lemma 4.2: lambda = ``2 ||Y||_1 / eps`` here, the paper's ``dp_scrible`` row,
``papers.as17.scenario_blo.params``).  So any non-private BLO learner is run privately by putting it in
SCRiBLe's place, and Theorem 4.5's rate in T (``AS17-T2-blo-<ball|cube>-rate-T``: regret /
sqrt(ln T) grows at most as T^(1/2)) is the claim such a learner can get.  Its control is the
paper's: the same learner with lambda calibrated by advanced composition over the T rounds
(``dp_scrible_composed``, lambda ~ sqrt(T)/eps), which should make its regret ~ T.

The wrapper, per round and replicate row (the paper rows' draws: the losses ``l_t``, the
standard Laplace vectors ``z_t`` under the keys of ``as17_blo.simulate``, so every user row is
paired with the paper's on the same draws):

    y_t = learner.predict()                 # (R, n), checked: shape, finite, inside K
    suffer <l_t, c_t>                       # c_t = learner.center if it exposes one, else y_t
    learner.update(<l_t + lam z_t, y_t>)    # (R,)

``center`` (optional, ``(R, n)``, read after ``predict``): the conditional mean of the point the
learner just drew, as SCRiBLe's centre ``x_t`` -- the paper's rows measure regret there; without
it the realised ``<l_t, y_t>`` is summed (an unbiased estimate of the same expected regret).

**A compiled learner** (a ``numba.experimental.jitclass`` instance, with the same ``predict`` and
``update`` and optional ``center``) has its rounds run by a compiled loop (:func:`compiled_rounds`)
instead of Python calls: the same protocol -- it sees only the scalar ``<l_t + lam z_t, y_t>`` of
its own play -- at the speed of the paper's kernel.  Its randomness comes from the wrapper:
a jitclass that declares ``draws`` (an int k > 0) and a ``uniforms`` field (``float64[:, :]``)
finds, before each ``predict``, that round's k uniforms on [0, 1) per replicate row in
``uniforms`` (``(R, k)``), drawn from its own ``streams`` (so they are keyed by replicate as any
draw of the pipeline, and the learner and its control get the same ones).

``make(R, domain, T, lam, streams)`` builds the learner: ``domain`` a :class:`Domain` (``name``
``"ball"`` or ``"cube"``, so that a learner can pick its barrier; ``n`` the dimension;
``contains``, ``project``), ``T`` the horizon, ``lam`` the Laplace scale of the feedback's noise
vector, ``streams`` a :class:`~dpregret.core.rng.ReplicateStreams` for its own randomness, keyed by
the scenario point and the learner's name (the same for the learner and its control).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from dpregret.core import _validate as V
from dpregret.core.environments.olo import best_in_hindsight
from dpregret.papers.as17.scrible import Scrible, theorem_4_5_eta
from dpregret.core.protocols import build_learner, check_makes, check_play
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.papers.as17 import scenario_blo as B

SCENARIO = B.SCENARIO
CONTROL = "composed"  # a user learner ``name``'s control rows: ``name@composed``
SIGNATURE = "make(R, domain, T, lam, streams)"
SIGNATURE_DOC = ("make(R, domain, T, lam, streams) -> a bco learner (dpregret.core.protocols: predict() -> (R, n) points "
                 "of K, update((R,) loss values)) for R replicate rows; domain: the decision set (domain.name 'ball' "
                 "or 'cube', domain.n its dimension, domain.contains(x), domain.project(x)); T the horizon; lam the "
                 "Laplace scale of the noise vector Z_t in the forwarded <l_t + Z_t, y_t>; streams: a "
                 "dpregret.core.rng.ReplicateStreams for its own randomness")
TOL = 1e-9  # how far outside K a play may lie (rounding)
try:  # np.einsum without its Python dispatch (optimize=False calls exactly this): the same numbers
    from numpy._core.multiarray import c_einsum as _einsum
except ImportError:  # pragma: no cover - another numpy layout
    _einsum = np.einsum


class Domain:
    """The decision set K of a point: the unit l2 ball (``"ball"``) or the cube ``[-1, 1]^n``
    (``"cube"``), with the interface of ``environments.polytopes`` domains that a bco learner may
    use (``name``, ``n``, ``contains``, ``project``)."""

    def __init__(self, name: str, n: int):
        if name not in ("ball", "cube"):
            raise ValueError(f"domain must be 'ball' or 'cube', got {name!r}")
        self.name, self.n = name, V.integer("n", n, minimum=1)

    def __repr__(self) -> str:
        return f"Domain({self.name!r}, {self.n})"

    def _rows(self, x) -> np.ndarray:
        a = np.asarray(x, dtype=float)
        if a.shape[-1:] != (self.n,):
            raise ValueError(f"points must have shape (R, {self.n}) or ({self.n},), got {a.shape}")
        return a

    def contains(self, x, tol: float = TOL):
        """Row-wise membership (a bool for one point)."""
        a = self._rows(x)
        size = np.linalg.norm(a, axis=-1) if self.name == "ball" else np.max(np.abs(a), axis=-1)
        return size <= 1.0 + tol

    def project(self, x) -> np.ndarray:
        """Euclidean projection onto K, row-wise."""
        a = self._rows(x)
        if self.name == "cube":
            return np.clip(a, -1.0, 1.0)
        return a / np.maximum(1.0, np.linalg.norm(a, axis=-1, keepdims=True))


def paper_learner(R: int, domain: Domain, T: int, lam: float, streams: ReplicateStreams) -> Scrible:
    """The paper's base learner in this signature: SCRiBLe on ``domain`` with Theorem 4.5's eta for
    the noise scale ``lam`` (``M = 1``; ``nu = 1`` and ``||X||_2 = 1`` on the ball, ``nu = 2n`` and
    ``sqrt(n)`` on the cube), drawing from ``streams``."""
    n = domain.n
    nu, X2 = (1.0, 1.0) if domain.name == "ball" else (2.0 * n, float(np.sqrt(n)))
    return Scrible(domain.name, n, theorem_4_5_eta(n, T, nu, 1.0, lam, X2), streams)


def point_key(domain: str, env: str, N: int, T: int, phases: int, mu: float) -> tuple:
    """The stable key prefix of a point: ``as17_blo.simulate``'s, so the same draws."""
    return (SCENARIO, domain, env, N, T, phases if env == "switching" else mu)


def streams_of(root_seed: int, point: tuple, name: str, replicates: Sequence[int]) -> ReplicateStreams:
    """The streams a user learner ``name`` draws from at ``point`` (its learner and its control each get
    a fresh instance: the same draws), keyed by replicate (chunk invariance)."""
    return ReplicateStreams(root_seed, stable_key(*point, "learner", name), replicates)


def build_user_learner(make: Callable, name: str, R: int, domain: Domain, T: int, lam: float,
                       streams: ReplicateStreams, built: list):
    """``make(R, domain, T, lam, streams)``, checked (``protocols.build_learner``)."""
    return build_learner(make, name, (R, domain, T, lam, streams), SIGNATURE_DOC, "values", built)


class _Run:
    """One user learner at one eps (``role`` "private": Lemma 4.2's lambda; "composed": the control)."""

    def __init__(self, name: str, role: str, eps: float, lam: float, learner, streams: ReplicateStreams | None = None):
        self.name, self.role, self.eps, self.lam, self.learner = name, role, eps, lam, learner
        self.streams = streams  # the learner's own streams (a compiled learner's uniforms are drawn from them)
        self.expected = None  # whether the learner exposes ``center`` (decided on round 1)
        self.suffered = None

    @property
    def alg(self) -> str:
        return self.name if self.role == "private" else f"{self.name}@{CONTROL}"


def _check_point(u: _Run, what: str, a, R: int, domain: Domain, round_: int | None = None) -> np.ndarray:
    a = np.asarray(a)
    where = "" if round_ is None else f" in round {round_}"
    try:
        check_play("bco", a, R, domain.n)
    except ValueError as err:
        raise ValueError(f"learner {u.name!r} ({what}){where}: {err}") from None
    a = a.astype(float, copy=False)
    inside = domain.contains(a)
    if not np.all(inside):
        r = int(np.argmin(inside))
        raise ValueError(f"learner {u.name!r} ({what}){where}: row {r} is outside the {domain.name} "
                         f"(point {np.round(a[r], 6).tolist()})")
    return a


def _fast(a, shape: tuple) -> bool:
    """``a`` is a float64 array of ``shape``: a play the round can use as it is (its values are
    checked after the block, :func:`_check_block`)."""
    return type(a) is np.ndarray and a.dtype == np.float64 and a.shape == shape


def _check_block(u: _Run, domain: Domain, R: int, t0: int, played: np.ndarray, centres: np.ndarray | None,
                 upto: int) -> None:
    """The plays (and centres) of rounds ``t0 + 1 .. t0 + upto``, ``(tb, R, n)``: finite and inside
    K, else the error :func:`_check_point` raises for the first bad round (its play before its centre)."""
    def ok(a):
        a = a[:upto]
        size = np.linalg.norm(a, axis=-1) if domain.name == "ball" else np.max(np.abs(a), axis=-1)
        return np.all(np.isfinite(a), axis=(1, 2)) & np.all(size <= 1.0 + TOL, axis=1)
    good = ok(played) if centres is None else ok(played) & ok(centres)
    for s in np.flatnonzero(~good):
        _check_point(u, "predict()", played[s], R, domain, t0 + s + 1)
        if centres is not None:
            _check_point(u, "center", centres[s], R, domain, t0 + s + 1)


def run_user_rounds(u: _Run, domain: Domain, L: np.ndarray, Z: np.ndarray, t0: int = 0) -> None:
    """Algorithm 4 around ``u.learner`` over the loss block ``L`` (``(R, tb, n)``, rounds ``t0 + 1 ..
    t0 + tb``) with the standard Laplace vectors ``Z`` (``(R, tb, n)``, scaled by ``u.lam``): see the
    module docstring.  The round does only what the learner needs: its play's shape is checked at
    once, its values (finite, inside K; the centre's too) for the whole block after it (and before
    any exception the learner raises meanwhile is passed on); the fed vectors ``l_t + lam z_t`` are
    made for the block at once (the same elementwise arithmetic as round by round)."""
    R, tb, n = L.shape
    shape = (R, n)
    if u.suffered is None:
        u.suffered = np.zeros(R)
    learner, name = u.learner, u.name
    fed = np.ascontiguousarray((L + u.lam * Z).transpose(1, 0, 2))  # (tb, R, n): round s's l + lam z, contiguous
    if is_compiled(learner):
        return _run_compiled(u, domain, np.ascontiguousarray(L), fed, t0)
    played = np.empty((tb, R, n))
    centres = None if u.expected is False else np.empty((tb, R, n))
    dots = np.empty((tb, R))  # <l_t, c_t> per round, summed in order after the block
    einsum = _einsum
    ready = 0  # rounds whose play (and centre) are recorded
    try:
        for s in range(tb):
            y = learner.predict()
            if not _fast(y, shape):
                y = _check_point(u, "predict()", y, R, domain, t0 + s + 1)
            played[s] = y
            c = getattr(learner, "center", None)
            if u.expected is None:
                u.expected = c is not None
                if not u.expected:
                    centres = None
            if u.expected:
                if c is None:
                    raise ValueError(f"learner {name!r}: attribute center disappeared after round 1")
                if not _fast(c, shape):
                    c = _check_point(u, "center", c, R, domain, t0 + s + 1)
                centres[s] = c
            else:
                c = y
            ready = s + 1
            einsum("ri,ri->r", L[:, s], c, out=dots[s])
            learner.update(einsum("ri,ri->r", fed[s], y))
    except Exception:
        _check_block(u, domain, R, t0, played, centres, ready)  # a bad play before the failure is the error
        raise
    _check_block(u, domain, R, t0, played, centres, tb)
    u.suffered = np.cumsum(np.concatenate([u.suffered[:, None], dots.T], axis=1), axis=1)[:, -1]  # in round order


def is_compiled(learner) -> bool:
    """A ``numba.experimental.jitclass`` instance (its rounds run compiled, module docstring)."""
    return hasattr(type(learner), "_numba_type_")


_LOOPS = {}


def compiled_rounds(centre: bool, draws: bool):
    """The compiled loop of Algorithm 4's rounds around a jitclass learner (one per whether it has
    a ``center`` and declares ``draws``), built on first use: per round, the round's uniforms into
    ``learner.uniforms`` (if it draws), ``y = learner.predict()``, the play (and centre) recorded,
    ``<l_t, c_t>`` suffered and ``learner.update(<l_t + lam z_t, y_t>)``.  Returns the first round
    whose play (or centre) is not ``(R, n)``, else -1."""
    if (centre, draws) in _LOOPS:
        return _LOOPS[centre, draws]
    import numba

    def loop(learner, L, fed, U, played, centres, dots):
        R, tb, n = L.shape
        for s in range(tb):
            if draws:
                learner.uniforms = U[s]
            y = learner.predict()
            if y.shape[0] != R or y.shape[1] != n:
                return s
            c = learner.center if centre else y
            if c.shape[0] != R or c.shape[1] != n:
                return s
            v = np.empty(R)
            for r in range(R):
                acc = 0.0
                fv = 0.0
                for i in range(n):
                    played[s, r, i] = y[r, i]
                    if centre:
                        centres[s, r, i] = c[r, i]
                    acc += L[r, s, i] * c[r, i]
                    fv += fed[s, r, i] * y[r, i]
                dots[s, r] = acc
                v[r] = fv
            learner.update(v)
        return -1

    _LOOPS[centre, draws] = numba.njit(loop)
    return _LOOPS[centre, draws]


def _run_compiled(u: _Run, domain: Domain, L: np.ndarray, fed: np.ndarray, t0: int) -> None:
    """:func:`run_user_rounds` for a compiled learner: the rounds of the block by :func:`compiled_rounds`."""
    from numba.core.errors import NumbaError

    learner, (R, tb, n) = u.learner, L.shape
    k = int(getattr(learner, "draws", 0))
    U = np.ascontiguousarray(u.streams.uniform((tb, k)).transpose(1, 0, 2)) if k > 0 else np.empty((tb, R, 0))
    centre = hasattr(learner, "center")
    played, dots = np.empty((tb, R, n)), np.empty((tb, R))
    centres = np.empty((tb, R, n)) if centre else np.empty((0, 0, 0))
    try:
        bad = compiled_rounds(centre, k > 0)(learner, L, fed, U, played, centres, dots)
    except NumbaError as err:
        raise ValueError(f"learner {u.name!r} (a numba jitclass) cannot run in the compiled rounds: predict() must "
                         f"return a float64 (R, n) array, update take a float64 (R,) array"
                         f"{', uniforms be a float64[:, :] field' if k > 0 else ''}: {str(err).splitlines()[0]}") from None
    if bad >= 0:
        raise ValueError(f"learner {u.name!r} (predict() or center) in round {t0 + bad + 1}: not of shape ({R}, {n})")
    _check_block(u, domain, R, t0, played, centres if centre else None, tb)
    u.suffered = np.cumsum(np.concatenate([u.suffered[:, None], dots.T], axis=1), axis=1)[:, -1]  # in round order


def simulate(domain: str, env: str, N: int, T: int, plan: Mapping[str, Sequence[float]], replicates: Sequence[int],
             root_seed: int, phases: int = 4, mu: float = 0.5,
             learners: Mapping[str, Callable] | None = None) -> pd.DataFrame:
    """The paper's rows (``as17_blo.simulate`` on the paper's keys of ``plan``, unchanged and first)
    and, for every ``{name: make}`` of ``learners`` at each eps of ``plan[name]`` (default: those
    of ``plan["dp_scrible"]``), the rows ``name`` (Algorithm 4 around it, lambda of Lemma 4.2 as
    ``dp_scrible``) and ``name@composed`` (the control: lambda by advanced composition, as
    ``dp_scrible_composed``), on the paper rows' losses and noise draws.  Columns as the paper's;
    ``nu``, ``eta`` and ``bound_thm4_5`` are NaN for a user's rows."""
    if domain not in ("ball", "cube"):
        raise ValueError(f"domain must be 'ball' or 'cube', got {domain!r}")
    if env not in B.ENVS:
        raise ValueError(f"env must be one of {B.ENVS}, got {env!r}")
    N, T = V.integer("N", N), V.integer("T", T)
    learners = check_makes(learners, B.ALGORITHMS, SIGNATURE)
    unknown = set(plan) - set(B.ALGORITHMS) - set(learners)
    if unknown:
        raise ValueError(f"plan keys must be among {B.ALGORITHMS} or the learners' names, got {sorted(unknown)}")
    replicates = list(replicates)
    paper_plan = {a: v for a, v in plan.items() if a in B.ALGORITHMS}
    paper = B.simulate(domain, env, N, T, paper_plan, replicates, root_seed, phases=phases, mu=mu) if paper_plan else None
    if not learners:
        if paper is None:
            raise ValueError("plan runs nothing: give a paper algorithm or a learner")
        return paper
    user = _user_rows(domain, env, N, T, plan, replicates, root_seed, phases, mu, learners)
    if paper is None:
        return user
    return pd.concat([paper, user[paper.columns]], ignore_index=True)


def _user_rows(domain, env, N, T, plan, replicates, root_seed, phases, mu, learners) -> pd.DataFrame:
    R = len(replicates)
    point = point_key(domain, env, N, T, phases, mu)
    K = Domain(domain, N)
    runs, built = [], []
    for name, make in learners.items():
        eps_list = plan.get(name, plan.get("dp_scrible"))
        if not eps_list:
            raise ValueError(f"learner {name!r} has no eps to run at: give plan[{name!r}] (or plan['dp_scrible'])")
        for e in eps_list:
            e = float(V.positive("eps", e))
            for role, alg in (("private", "dp_scrible"), (CONTROL, "dp_scrible_composed")):
                lam = B.params(domain, alg, N, T, e)["lambda"]
                own = streams_of(root_seed, point, name, replicates)
                runs.append(_Run(name, role, e, lam, build_user_learner(make, name, R, K, T, lam, own, built), own))

    def streams(role):
        return ReplicateStreams(root_seed, stable_key(*point, role), replicates)

    # the draws of as17_blo.simulate (same keys, same order per stream)
    source = B.loss_source(domain, env, N, T, phases, mu, streams)
    noise = streams("noise")
    cum = np.zeros((R, N))
    for t0 in range(0, T, B.BLOCK):
        tb = min(B.BLOCK, T - t0)
        L = B.loss_block(source, t0, tb, R)
        Z = noise.laplace(1.0, (tb, N))
        for u in runs:
            run_user_rounds(u, K, L, Z, t0)
        cum += L.sum(axis=1)
    best = best_in_hindsight(domain, cum)
    out = []
    for u in runs:
        out.append(pd.DataFrame({"scenario": SCENARIO, "row": domain, "env": env, "algorithm": u.alg, "N": N, "T": T,
                                 "eps": u.eps, "replicate": replicates, "regret": u.suffered - best,
                                 "trivial_regret": -best, "nu": np.nan, "lambda": u.lam, "eta": np.nan,
                                 "bound_thm4_5": np.nan}))
    return pd.concat(out, ignore_index=True)


USER_ENV = "stochastic"
PAPER_TABLE = "results/as17/blo/runs.parquet"  # the pipeline's table of the paper's rows (rule as17_tables_merge)


def _user_claim(dom: str):
    """Theorem 4.5's rate in T on ``dom`` (``AS17-T2-blo-<dom>-rate-T``) for any BLO learner as
    Algorithm 4's base learner.  Points: the preset's T grid ``p["T"]`` at ``rate_eps`` on the
    stochastic sequence, with the paper's rows of that claim (``dp_scrible`` and its control
    ``dp_scrible_composed``, the pipeline's T-grid rows)."""
    from dpregret.core.contract import PaperOnDoor, UserClaim, in_order

    def simulate_point(p, point, reps, seed, learners):
        r = p["rate_eps"]
        plan = {"dp_scrible": [r], "dp_scrible_composed": [r], **{name: [r] for name in learners}}
        df = simulate(dom, USER_ENV, int(p["N"]), int(point), plan, reps, seed, phases=p["phases"], mu=p["mu"],
                      learners=learners)
        df["grid"] = "T"
        return df

    def decide(runs, p, tol, alpha, rng_for, name):
        from dpregret.papers.as17.claims_tables import blo_rate_T_claim
        return blo_rate_T_claim(runs, dom, p["rate_eps"], tol, alpha, rng_for, name, env=USER_ENV)

    def user_rows(p, point, reps, seed, learners):  # simulate_point's rows but the paper's (the same draws)
        df = simulate(dom, USER_ENV, int(p["N"]), int(point), {name: [p["rate_eps"]] for name in learners}, reps, seed,
                      phases=p["phases"], mu=p["mu"], learners=learners)
        df["grid"] = "T"
        return df

    def paper_rows(tables, p, point):  # simulate_point's paper rows: the pipeline's T grid, at rate_eps
        t = tables[PAPER_TABLE]
        keep = ((t.row == dom) & (t.env == USER_ENV) & (t.grid == "T") & (t.N == int(p["N"])) & (t["T"] == int(point))
                & (t.eps == float(p["rate_eps"])) & t.algorithm.isin(("dp_scrible", "dp_scrible_composed")))
        return in_order(t[keep], "algorithm", ("dp_scrible", "dp_scrible_composed"), "replicate")

    return UserClaim(
        f"AS17-T2-blo-{dom}-rate-T", SCENARIO, "bco", SIGNATURE,
        f"your learner on the {dom} as the base learner of Algorithm 4 (fed <l_t, y_t> + <Z_t, y_t>, Z_t Laplace of "
        "scale lambda = 2 ||Y||_1 / eps, the paper's draws), on the stochastic sequence at rate_eps; regret at your "
        "learner's center if it exposes one, else realised; control: your learner with lambda by advanced "
        "composition over the T rounds (~ sqrt(T)/eps), on the same draws",
        "dp_scrible", f"paper (Algorithm 4 + SCRiBLe, {dom})", B.ALGORITHMS,
        lambda p: [int(t) for t in p["T"]], simulate_point, decide, env=USER_ENV, user_rows=user_rows,
        paper_tables=(PAPER_TABLE,), paper_rows=paper_rows,
        paper_on_door=PaperOnDoor(
            lambda p, point, reps, seed: paper_scrible(seed, point_key(dom, USER_ENV, int(p["N"]), int(point), p["phases"],
                                                                       p["mu"]), reps),
            (("", "dp_scrible"), ("@composed", "dp_scrible_composed")), ("eps", "replicate", "lambda", "regret"), 1e-12))


def paper_scrible(root_seed: int, point: tuple, replicates: Sequence[int]) -> Callable:
    """:func:`paper_learner` drawing from the paper rows' stream at ``point`` (:func:`point_key`), not
    from ``streams``: through the door it plays the compiled kernel's rounds."""
    def make(R, domain, T, lam, streams):
        return paper_learner(R, domain, T, lam, ReplicateStreams(root_seed, stable_key(*point, "scrible"), replicates))
    return make


# Theorem 4.5's rate in T holds for any BLO learner inside Algorithm 4 (dpregret.core.contract)
USER_CLAIMS = (_user_claim("ball"), _user_claim("cube"))
