"""Ene, Nguyen, Vladu (AAAI 2021), section 3 (Algorithm 1, PRIVATEBANDIT), section 5 and
Appendices C-D: projection-free private bandit convex optimisation and a projection-based
private baseline.  NOISYOCO (Algorithm 2, section 4.1) is :mod:`dpregret.papers.env21.noisy_oco`;
the paper's bounds are :mod:`dpregret.papers.env21.bounds`.

PRIVATEBANDIT, vectorised over R replicates (state arrays (R, n)), as implemented:

- Schedule.  ``T_batch = ceil(sqrt T)`` steps per round, ``T_round = ceil(T / T_batch)`` rounds,
  the last round possibly shorter (``T - (T_round - 1) T_batch`` steps); for a perfect square
  ``T_round = T_batch = sqrt T`` exactly as printed.  ``zeta = D sqrt(n) / T^(1/4)`` and
  ``eta = D / (T^(3/4) n^(1/2) L)`` use the real T.
- Dimension.  The paper's n is the dimension of the domain; for the simplex and the
  spanning-tree polytope (not full-dimensional) it is ``domain.dim`` and ``u_t`` is uniform on
  the unit sphere of the affine hull's direction space (``u = Q w / ||w||``, w ~ N(0, I_dim)),
  which makes ``(dim / zeta) f(x + zeta u) u`` unbiased for the hull-gradient of the smoothed
  loss (Lemma 2.2 (3) in the hull's coordinates).  The tree aggregates the batch sums in those
  dim coordinates; ``n`` below always means ``dim``.
- Round R (lines 3-15): every step t plays ``x_t = x~_{R-1} + zeta u_t`` (queried point),
  adds ``F_t u_t = (n / zeta) f_t(x_t) u_t`` to ``g~_R`` and makes one Frank-Wolfe iteration
  (exactly one LMO call) on ``q_R(x) = ||x||^2 / 2 + <eta s~_{R-1}, x>``, warm-started at
  ``x~_{R-1}`` (``x~_0 = domain.centre``), with exact line search.  After the round
  ``s~_R = TreeBasedAgg(g~_R, R)`` and ``x~_R`` = the Frank-Wolfe iterate.  So the point played
  in round R + 1 answers ``s~_{R-1}`` (one round stale, as in Lemma C.3).
- Sign (erratum).  Line 14 prints ``min ||x||^2/2 - <eta s~_{R-1}, x>``, i.e. ``Proj_K(+eta s~)``:
  gradient ascent.  NOISYOCO (Algorithm 2, line 3) and Lemma C.3 use ``grad omega*(-eta s)``
  = ``argmin ||x||^2/2 + <eta s, x>``; that is what runs.  ``printed_line14_sign=True`` runs the
  printed sign (tests: linear regret).
- Shrinking trick (Appendix D, ``shrink=True``): with ``alpha = zeta / r`` (requires
  ``zeta < r``), play ``(1 - alpha) x~ + alpha c + zeta u``; since ``zeta u`` lies in
  ``alpha (K - c)``, every queried point is in K.  (Appendix D shrinks towards the origin
  assuming ``r B_2`` in K; shrinking towards the centre c is the same trick for a ball around c.)
- Noise: ``"none"`` (non-private: a Garber-Kretzu-like method), ``"laplace"`` with lambda of
  Lemma 5.1, ``"gaussian"`` with sigma of Lemma 5.4, or any ``noise_scale``.  Both formulas
  assume Algorithm 1's zeta; a smaller ``zeta`` multiplies the scale by ``zeta_paper / zeta``
  (the batch sensitivity ``n L D / zeta`` grows by that factor).  Privacy needs
  ``0 <= f_t <= L D`` at the queried points: use ``shrink=True`` (or losses bounded there).

:func:`projected_bandit` is the projection-based baseline (Flaxman et al. one-point estimates,
the same batching, parameters and tree, then lazy projected gradient descent
``x~ = Proj_K(-eta s~)``, i.e. dual averaging as in Smith-Thakurta's tree-based FTRL): one
projection per round, not stale.

Logarithms: ``log T`` counting tree levels (Theorem 2.3, Lemma 5.1, Lemma C.3) is base 2;
the concentration/delta logarithms of Lemmas 5.3-5.5 are natural.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from dpregret.core import validate as V
from dpregret.core.calibration import gaussian_sigma_lemma5_4, laplace_lambda_lemma5_1
from dpregret.core.environments.bco import DistanceLosses
from dpregret.core.environments.polytopes import L1Ball, Polytope, Simplex, SpanningTreePolytope, lmo_twice
from dpregret.core.rng import ReplicateStreams, draw_laplace, draw_normal
from dpregret.core.tree import TreeBasedAgg, draws_per_release
from dpregret.papers.env21.jit import L1BALL, SIMPLEX, TREE, fw_round

NOISES = ("none", "laplace", "gaussian")


# ----------------------------------------------------------------------------- parameters
def batch_schedule(T: int) -> tuple[int, int, int]:
    """``(T_batch, T_round, last)``: ``T_batch = ceil(sqrt T)``, ``T_round = ceil(T / T_batch)``,
    ``last`` = length of the final (possibly shorter) round."""
    T = V.integer("T", T)
    b = math.isqrt(T)
    b += b * b < T
    rounds = -(-T // b)
    return b, rounds, T - (rounds - 1) * b


def algorithm1_parameters(T: int, n: int, L: float, D: float) -> tuple[float, float]:
    """Algorithm 1, line 1: ``(zeta, eta) = (D n^(1/2) / T^(1/4), D / (T^(3/4) n^(1/2) L))``."""
    T, n = V.integer("T", T), V.integer("n", n)
    L, D = V.positive("L", L), V.positive("D", D)
    return D * math.sqrt(n) / T**0.25, D / (T**0.75 * math.sqrt(n) * L)


def batch_sensitivity(T: int, n: int, L: float, D: float, zeta: float | None = None, ord: int = 1) -> float:
    """Replace-one sensitivity of a batch sum ``g~_R``: one term ``(F_t - F'_t) u_t`` with
    ``F in [0, n L D / zeta]``: ``(n L D / zeta) * max ||u||_ord`` (``n^(1/2)`` for l1, 1 for l2)."""
    if zeta is None:
        zeta = algorithm1_parameters(T, n, L, D)[0]
    M = V.integer("n", n) * V.positive("L", L) * V.positive("D", D) / V.positive("zeta", zeta)
    if ord not in (1, 2):
        raise ValueError(f"ord must be 1 or 2, got {ord!r}")
    return M * (math.sqrt(n) if ord == 1 else 1.0)


def noise_to_smoothing(kind: str, T: int, d: int, L: float, D: float, scale: float) -> float:
    """``eta E||Z|| / zeta``: the displacement of the Frank-Wolfe target by the tree noise Z
    (K = ceil(log2 T_round) draws per release) relative to the smoothing radius; used to
    choose the eps of the experiments (response quadratic below ~1, saturated above ~D/zeta)."""
    _, rounds, _ = batch_schedule(T)
    zeta, eta = algorithm1_parameters(T, d, L, D)
    var = 2.0 if kind == "laplace" else 1.0
    return eta * math.sqrt(var * d * draws_per_release(rounds)) * scale / zeta


class FrankWolfeOCO:
    """Algorithm 1's learner (lines 11-15) as an ``oco`` learner of ``papers.env21.run.private_bandit_around``:
    ``predict()`` is x~_(R-1); ``update(Delta_R)`` makes the round's ``steps`` Frank-Wolfe
    iterations (one LMO call each) on ``||x||^2/2 + <eta s~_(R-1), x>`` from x~_(R-1), then adds
    ``Delta_R`` to its sum (so the point of round R+1 answers s~_(R-1): one round stale, as in
    the fast path).  ``s0`` is the tree's release before the first round (L~_0, noise only),
    which the fast path's first round uses and the generic path does not hand over (tests)."""

    def __init__(self, domain: Polytope, R: int, eta: float, steps: int, s0=None):
        self.domain, self.eta, self.steps = domain, float(eta), int(steps)
        self.x = np.broadcast_to(domain.centre, (R, domain.n)).copy()
        self.S = np.zeros((R, domain.n)) if s0 is None else np.array(s0, dtype=float)

    def predict(self) -> np.ndarray:
        return self.x

    def update(self, g) -> None:
        for _ in range(self.steps):
            self.x = frank_wolfe_step(self.domain, self.x, self.eta * self.S)
        self.S = self.S + g


class FrozenCentre:
    """The reference of the user claims (the trivial learner of the setting): plays the domain's
    centre (Algorithm 1's x~_0) whatever it is fed.  On the ``rates`` instance
    (``papers.env21.scenario.rate_losses``: the loss's minimum at a vertex) its regret is linear,
    ``T L ||c - v_1||`` plus a smoothing term that shrinks with T, so its slope over the grid's T
    is above 0.75 + tolerance and the rate check catches it (pilot on seed 12345: 0.963).  The
    paper's rows carry the same learner on the same draws (``private_bandit(..., nonlearner=True)``,
    rows ``frozen``); the user claims also report every learner's regret over this reference's,
    per T (``detail.regret_over_frozen_centre``)."""

    def __init__(self, R: int, domain: Polytope, rounds: int, G: float):
        self.x = np.broadcast_to(domain.centre, (R, domain.n)).copy()

    def predict(self) -> np.ndarray:
        return self.x

    def update(self, g) -> None:
        pass


# ------------------------------------------------------------------------------ running
@dataclass
class BanditRun:
    """Result of one vectorised run: regret and cumulative loss at the checkpoints (R, C)."""

    checkpoints: np.ndarray
    regret: np.ndarray
    loss: np.ndarray
    best: np.ndarray
    oracle_calls: int
    projections: int
    oracle_time: float
    projection_time: float
    wall_time: float
    params: dict = field(default_factory=dict)
    queries: np.ndarray | None = None  # (T, R, n) queried points if record_queries (O(T R n): tests only)
    plays: np.ndarray | None = None  # (T_round, R, n) point played in each round if record_rounds
    round_grads: np.ndarray | None = None  # (T_round, R, dim) batch sum g~ of each round if record_rounds
    releases: np.ndarray | None = None  # (T_round, R, dim) released prefix sum s~ after each round if record_rounds
    nonlearner_regret: np.ndarray | None = None  # (R,) regret at T of the learner frozen at x~_0 if nonlearner
    oracle_regret: np.ndarray | None = None  # (R,) regret at T of the oracle frozen at oracle_point if given


def replicate_count(rng, R) -> int:
    """The number of replicates ``rng`` draws for: ``rng.R`` for ReplicateStreams (``R`` must agree), else ``R`` or
    1."""
    if isinstance(rng, ReplicateStreams):
        if R is not None and V.integer("R", R) != rng.R:
            raise ValueError(f"R must equal streams.R = {rng.R}, got {R}")
        return rng.R
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a ReplicateStreams or numpy Generator, got {type(rng).__name__}")
    return 1 if R is None else V.integer("R", R)


def normal_draws(rng, R: int, shape: tuple[int, ...]) -> np.ndarray:
    """Standard normal draws of ``shape`` per replicate, (R, *shape), from streams or a Generator."""
    return draw_normal(rng, shape) if isinstance(rng, ReplicateStreams) else draw_normal(rng, (R, *shape))


def noise_draw(noise: str, scale: float, rng, R: int, d: int):
    """``k -> (R, k, d)`` noise of kind ``noise`` (none, laplace, else Gaussian) at ``scale`` from ``rng``."""
    if noise == "none":
        return lambda k: np.zeros((R, k, d))
    if noise == "laplace":
        if isinstance(rng, ReplicateStreams):
            return lambda k: draw_laplace(rng, scale, (k, d))
        return lambda k: draw_laplace(rng, scale, (R, k, d))
    return lambda k: scale * normal_draws(rng, R, (k, d))


def checkpoint_grid(checkpoints, T: int) -> np.ndarray:
    """The sorted rounds in [1, T] at which a run records regret (``[T]`` when None)."""
    if checkpoints is None:
        return np.array([T])
    c = np.unique(np.asarray(checkpoints))
    if c.size == 0 or not np.issubdtype(c.dtype, np.integer) or c[0] < 1 or c[-1] > T:
        raise ValueError(f"checkpoints must be integers in [1, T = {T}]")
    return c


def _noise_scale(noise, T, d, L, eps, delta, noise_scale) -> float:
    if noise not in NOISES:
        raise ValueError(f"noise must be one of {NOISES}, got {noise!r}")
    if noise == "none":
        return 0.0
    if noise_scale is not None:
        return V.positive("noise_scale", noise_scale)
    if eps is None:
        raise ValueError(f"eps must be given for noise={noise!r} (or pass noise_scale)")
    if noise == "laplace":
        return laplace_lambda_lemma5_1(T, d, L, eps)
    if delta is None:
        raise ValueError("delta must be given for noise='gaussian' (or pass noise_scale)")
    return gaussian_sigma_lemma5_4(T, d, L, eps, delta)


def frank_wolfe_step(domain: Polytope, z: np.ndarray, lin: np.ndarray) -> np.ndarray:
    """One conditional-gradient iteration (one LMO call) on ``q(x) = ||x||^2/2 + <lin, x>``
    from ``z`` (rows), with exact line search ``gamma = clip(<grad, z - v> / ||z - v||^2, 0, 1)``
    (the quadratic's minimiser on the segment; Lemma C.4's rate holds for it)."""
    grad = z + lin
    dv = z - domain.lmo(grad)
    den = np.einsum("ij,ij->i", dv, dv)
    num = np.einsum("ij,ij->i", grad, dv)
    gam = np.clip(np.divide(num, den, out=np.zeros(len(z)), where=den > 0), 0.0, 1.0)
    return z - gam[:, None] * dv


ENGINES = ("auto", "numpy", "jit")
_NO_Y = np.empty((0, 1, 1))


class _JitPlan:
    """What the compiled rounds need: the domain's kind, the loss centres and pieces, and the
    direction draws of a round (the numpy path's draws, requested for the whole round)."""

    def __init__(self, kind: int, rho: float, centres: np.ndarray, pieces: np.ndarray, directions,
                 edge_index: np.ndarray, repeats: int = 1):
        self.kind, self.rho, self.centres, self.pieces, self.directions = kind, rho, centres, pieces, directions
        self.edge_index, self.repeats = edge_index, int(repeats)


def _jit_plan(engine: str, domain: Polytope, losses, mode: str, rng, R: int) -> _JitPlan | None:
    """The compiled path when ``engine`` allows it and the run is eligible: Algorithm 1
    (``mode="fw"``) on a plain :class:`Simplex`, :class:`L1Ball` or :class:`SpanningTreePolytope`
    with ``method="prim"`` (not a subclass: a subclass may change the oracle) with
    :class:`DistanceLosses`; otherwise None (numpy path).
    ``engine="jit"`` raises if the run is not eligible."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    why = None
    # the two-call control's domain (core.environments.polytopes.two_call_domain: every LMO request answered
    # twice): the kernel answers the oracle twice per iteration and counts both
    repeats, dtype = (2, type(domain).__mro__[1]) if getattr(type(domain), "lmo",
                                                             None) is lmo_twice else (1, type(domain))
    if mode != "fw":
        why = "the projection baseline runs in numpy"
    elif dtype not in (Simplex, L1Ball, SpanningTreePolytope):
        why = f"no compiled LMO for {type(domain).__name__}"
    elif dtype is SpanningTreePolytope and domain.method != "prim":
        why = "the compiled spanning-tree LMO is Prim's (method='prim'), not scipy's"
    elif type(losses) is not DistanceLosses:
        why = f"no compiled loss for {type(losses).__name__}"
    if engine == "numpy" or (why is not None and engine == "auto"):
        return None
    if why is not None:
        raise ValueError(f"engine='jit' is not available here: {why}")
    base = getattr(rng, "_base", None)
    if isinstance(base, ReplicateStreams) and getattr(rng, "scales", None) is None:
        directions = lambda nb, d: base.normal((nb, d))  # noqa: E731 - tiled streams: rows share the draws
    elif isinstance(rng, ReplicateStreams):
        directions = lambda nb, d: rng.normal((nb, d))  # noqa: E731
    else:
        directions = lambda nb, d: np.stack([rng.standard_normal((R, d)) for _ in range(nb)], axis=1)  # noqa: E731
    kind = {Simplex: SIMPLEX, L1Ball: L1BALL, SpanningTreePolytope: TREE}[dtype]
    rho = float(getattr(domain, "rho", 1.0))
    edges = np.ascontiguousarray(domain._edge_index) if kind == TREE else np.full((1, 1), -1, dtype=np.int64)
    return _JitPlan(kind, rho, np.ascontiguousarray(losses.centres, dtype=float), losses.schedule, directions, edges,
                    repeats)


def _timed(fn, *args) -> float:
    """Call ``fn(*args)``; its wall time (monitor time is kept out of the run's wall_time)."""
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


@dataclass(frozen=True)
class _RunParams:
    """The resolved parameters of one run: Algorithm 1's line 1 unless ``zeta`` / ``eta`` are given, the batch
    schedule, the shrinking trick's ``alpha`` and the noise scale."""

    T: int
    d: int  # the paper's n: the domain's dimension
    n: int  # the ambient coordinates
    L: float
    D: float
    zeta: float
    eta: float
    b: int  # steps per round
    rounds: int
    alpha: float
    scale: float


def _run_params(domain: Polytope, losses, *, noise, eps, delta, noise_scale, shrink, zeta, eta, batch) -> _RunParams:
    """The parameters of a run of :func:`_run` (see the module docstring for every convention)."""
    T, d, n, L, D = losses.T, domain.dim, domain.n, losses.L, domain.D
    if d < 1:
        raise ValueError("domain must have dimension >= 1")
    z0, e0 = algorithm1_parameters(T, d, L, D)
    zeta = z0 if zeta is None else V.positive("zeta", zeta)
    eta = e0 if eta is None else V.positive("eta", eta)
    if batch is None:
        b, rounds, _ = batch_schedule(T)
    else:
        b = V.integer("batch", batch)
        rounds = -(-T // b)
    alpha = 0.0
    if shrink:
        if zeta >= domain.r:
            raise ValueError(f"zeta must be < r = {domain.r:.4g} for the shrinking trick, got {zeta:.4g} "
                             "(pass a smaller zeta or a larger T)")
        alpha = zeta / domain.r
    scale = _noise_scale(noise, T, d, L, eps, delta, noise_scale)
    if noise_scale is None and zeta < z0:  # the sensitivity n L D / zeta grows as zeta shrinks
        scale *= z0 / zeta
    return _RunParams(T, d, n, L, D, zeta, eta, b, rounds, alpha, scale)


def _run(domain: Polytope, losses, rng, *, mode: str, R, noise, eps, delta, noise_scale, shrink, zeta, eta,
         batch, checkpoints, record_queries, record_rounds, noise_rng, printed_line14_sign,
         monitor=None, engine="auto", nonlearner=False, oracle_point=None, oracle_zeta=None) -> BanditRun:
    """The run of :func:`private_bandit` (``mode="fw"``) and :func:`projected_bandit` (``mode="proj"``): the
    inputs checked, the parameters resolved (:func:`_run_params`), then the rounds (:class:`_Rounds`)."""
    t_wall = time.perf_counter()
    if not isinstance(domain, Polytope):
        raise ValueError(f"domain must be a Polytope, got {type(domain).__name__}")
    if getattr(losses, "domain", None) is not domain:
        raise ValueError("losses must be built on the same domain object")
    if mode == "proj" and not domain.has_projection:
        raise ValueError(f"domain: {domain.name} has no Euclidean projection")
    R = replicate_count(rng, R)
    nrng = rng if noise_rng is None else noise_rng
    if noise_rng is not None:
        replicate_count(noise_rng, R)
    pr = _run_params(domain, losses, noise=noise, eps=eps, delta=delta, noise_scale=noise_scale, shrink=shrink,
                     zeta=zeta, eta=eta, batch=batch)
    cps = checkpoint_grid(checkpoints, pr.T)
    if nonlearner and (mode != "fw" or cps.size != 1 or cps[0] != pr.T):
        raise ValueError("nonlearner needs Algorithm 1 (not the projection baseline) and the default checkpoint T")
    params = dict(T=pr.T, n=pr.d, T_batch=pr.b, T_round=pr.rounds, zeta=pr.zeta, eta=pr.eta, alpha=pr.alpha,
                  noise=noise, noise_scale=pr.scale, L=pr.L, D=pr.D, R=R, mode=mode)
    t_mon = 0.0  # time spent in the monitor, excluded from wall_time
    if monitor is not None:
        t_mon += _timed(monitor.start, dict(params))
    run = _Rounds(domain, losses, rng, nrng, R, pr, cps, mode=mode, noise=noise, record_queries=record_queries,
                  record_rounds=record_rounds, printed_line14_sign=printed_line14_sign, monitor=monitor,
                  engine=engine, nonlearner=nonlearner, oracle_point=oracle_point, oracle_zeta=oracle_zeta)
    run.t_mon = t_mon
    tree, Q = run.tree, run.Q
    for rnd in range(pr.rounds):
        g = run.round(rnd)  # the round's steps: its batch sum g~_R
        rel = tree.step(g)
        S = rel @ Q.T  # (mutants.py edits this line of _run: env-learner-reads-exact-sums)
        run.end_round(rnd, rel, S)
    return run.result(params, t_wall)


class _Rounds:
    """The state the rounds of one run of :func:`_run` share and update: the tree and its last release ``S``
    (ambient coordinates), the Frank-Wolfe iterate ``z`` and the point ``x_t`` (x~_(R-1)), the cumulative
    losses (``cum``, the checkpoints' ``out``; the non-learner's ``nl_cum`` and the frozen oracle's ``or_cum``),
    the step ``t`` and checkpoint ``k`` reached, the records, and the compiled plan (``jit``, or None)."""

    def __init__(self, domain: Polytope, losses, rng, nrng, R: int, pr: _RunParams, cps: np.ndarray, *, mode,
                 noise, record_queries, record_rounds, printed_line14_sign, monitor, engine, nonlearner,
                 oracle_point, oracle_zeta):
        self.domain, self.losses, self.rng, self.R, self.pr, self.cps = domain, losses, rng, R, pr, cps
        self.mode, self.monitor, self.record_queries, self.record_rounds = mode, monitor, record_queries, record_rounds
        self.nonlearner, self.t_mon = nonlearner, 0.0
        T, d, n, rounds = pr.T, pr.d, pr.n, pr.rounds
        self.Q, self.c = Q, c = domain.Q, domain.centre
        self.tree = TreeBasedAgg(rounds, d, noise_draw(noise, pr.scale, nrng, R, d), R)
        self.S = self.tree.released @ Q.T  # eta-free prefix sum in ambient coordinates, (R, n)
        self.calls0, self.time0 = domain.oracle_calls, domain.oracle_time
        self.proj0, self.ptime0 = domain.projections, domain.projection_time
        self.sgn = -1.0 if printed_line14_sign else 1.0
        self.x_t = np.broadcast_to(c, (R, n)).copy()  # x~_0
        self.z = self.x_t.copy()
        self.cum = np.zeros(R)
        self.out = np.zeros((R, cps.size))
        self.queries = np.zeros((T, R, n)) if record_queries else None
        self.plays = np.zeros((rounds, R, n)) if record_rounds else None
        self.grads = np.zeros((rounds, R, d)) if record_rounds else None
        self.releases = np.zeros((rounds, R, d)) if record_rounds else None
        self.t, self.k = 0, 0
        self.jit = _jit_plan(engine, domain, losses, mode, rng, R)
        self.nl_cum = np.zeros(R) if nonlearner else None  # the non-learner's cumulative loss (per row)
        if oracle_point is not None and (mode != "fw" or cps.size != 1 or cps[0] != T):
            raise ValueError("oracle_point needs Algorithm 1 (not the projection baseline) and the default "
                             "checkpoint T")
        self.o_pt = self.o_zeta = None
        if oracle_point is not None:  # the oracle frozen at oracle_point, queried on the run's directions at its zeta
            self.o_pt = np.asarray(oracle_point, dtype=float)
            self.o_zeta = pr.zeta if oracle_zeta is None else V.positive("oracle_zeta", oracle_zeta)
        self.or_cum = np.zeros(R) if oracle_point is not None else None

    def round(self, rnd: int) -> np.ndarray:
        """Round ``rnd``'s steps (compiled or numpy); its batch sum g~_R, for the tree (:func:`_run`)."""
        pr, monitor = self.pr, self.monitor
        if self.mode == "proj":
            self.x_t = self.domain.project(-pr.eta * self.S)
        play = (1.0 - pr.alpha) * self.x_t + pr.alpha * self.c
        if self.record_rounds:
            self.plays[rnd] = play
        if monitor is not None:
            self.t_mon += _timed(monitor.round_start, rnd, play)
        g = np.zeros((self.R, pr.d))
        if self.jit is not None:  # the round's steps, compiled (private_bandit_jit.fw_round)
            self._compiled_steps(play, g)
            nsteps = 0
        else:
            nsteps = min(pr.b, pr.T - self.t)
        self._numpy_steps(play, g, nsteps)
        if self.record_rounds:
            self.grads[rnd] = g
        if monitor is not None:
            self.t_mon += _timed(monitor.round_end, rnd, g)
        return g

    def end_round(self, rnd: int, rel: np.ndarray, S: np.ndarray) -> None:
        """After round ``rnd``: the tree's release ``rel`` (recorded), ``S`` its sum in ambient coordinates, and
        the next point (Algorithm 1: the Frank-Wolfe iterate)."""
        if self.record_rounds:
            self.releases[rnd] = rel
        self.S = S
        if self.mode == "fw":
            self.x_t = self.z

    def _compiled_steps(self, play: np.ndarray, g: np.ndarray) -> None:
        """The round's steps through the compiled rounds (``jit.fw_round``), adding its batch sum to ``g``."""
        pr, jit, cps, R, Q, monitor = self.pr, self.jit, self.cps, self.R, self.Q, self.monitor
        T, d, n, zeta, t, k = pr.T, pr.d, pr.n, pr.zeta, self.t, self.k
        nb = min(pr.b, T - t)
        W = jit.directions(nb, d)  # (Rb, nb, d): the draws of nb per-step requests
        UC = W / np.linalg.norm(W, axis=2, keepdims=True)
        QU = UC @ Q.T
        step_cp = np.full(nb, -1, dtype=np.int64)
        while t < cps[k] <= t + nb:
            step_cp[cps[k] - t - 1] = k
            if k + 1 == cps.size:
                break
            k += 1
        vals = np.empty((nb, R))
        Y = np.empty((nb, R, n)) if (monitor is not None or self.record_queries) else _NO_Y
        calls = np.zeros(R, dtype=np.int64)  # the LMO invocations of each row in this round, counted by the kernel
        fw_round(jit.kind, jit.rho, np.ascontiguousarray(play), QU, UC, zeta, d / zeta, pr.L, jit.centres,
                 jit.pieces[t:t + nb], np.ascontiguousarray(self.sgn * pr.eta * self.S), self.z, g, self.cum, step_cp,
                 self.out, vals, Y, True, jit.edge_index, calls, jit.repeats)
        self.domain.oracle_calls += int(calls.max())  # one invocation answers every row (as the numpy path counts)
        self.domain.oracle_rows += int(calls.sum())
        if self.record_queries:
            self.queries[t:t + nb] = Y
        if self.nonlearner:  # the same directions from x~_0 = c: per base row, then to every row
            self.nl_cum += _frozen_round(self.losses, self.c, zeta, UC, Q, jit.pieces[t:t + nb])[
                np.arange(R) % UC.shape[0]]
        if self.or_cum is not None:
            self.or_cum += _frozen_round(self.losses, self.o_pt, self.o_zeta, UC, Q, jit.pieces[t:t + nb])[
                np.arange(R) % UC.shape[0]]
        if monitor is not None:
            rows = np.arange(R) % UC.shape[0]
            for s_ in range(nb):
                self.t_mon += _timed(monitor.step, t + s_ + 1, Y[s_], vals[s_], UC[rows, s_])
        self.t, self.k = t + nb, k

    def _numpy_steps(self, play: np.ndarray, g: np.ndarray, nsteps: int) -> None:
        """``nsteps`` steps of the round through the numpy loop, adding to ``g`` (one Frank-Wolfe iteration each
        under Algorithm 1)."""
        pr, cps, R, Q, monitor, losses = self.pr, self.cps, self.R, self.Q, self.monitor, self.losses
        d, zeta, c, rng, domain, t, k, z = pr.d, pr.zeta, self.c, self.rng, self.domain, self.t, self.k, self.z
        cum, out, nl_cum, or_cum, o_pt, o_zeta = self.cum, self.out, self.nl_cum, self.or_cum, self.o_pt, self.o_zeta
        for _ in range(nsteps):
            t += 1
            w = normal_draws(rng, R, (d,))
            uc = w / np.linalg.norm(w, axis=1, keepdims=True)
            y = play + zeta * (uc @ Q.T)
            if self.record_queries:
                self.queries[t - 1] = y
            val = losses.value(t, y)
            if self.nonlearner:
                nl_cum += losses.value(t, c + zeta * (uc @ Q.T))
            if or_cum is not None:
                or_cum += losses.value(t, o_pt + o_zeta * (uc @ Q.T))
            if monitor is not None:
                self.t_mon += _timed(monitor.step, t, y, val, uc)
            cum += val
            if t == cps[k]:
                out[:, k] = cum
                k += 1 if k + 1 < cps.size else 0
            g += (d / zeta) * val[:, None] * uc
            if self.mode == "fw":  # one Frank-Wolfe iteration = one oracle call
                z = frank_wolfe_step(domain, z, self.sgn * pr.eta * self.S)
        self.t, self.k, self.z = t, k, z

    def result(self, params: dict, t_wall: float) -> BanditRun:
        """The run's record (``t_wall``: its start, ``perf_counter``)."""
        domain, out = self.domain, self.out
        best = self.losses.best_fixed(self.cps)
        return BanditRun(
            checkpoints=self.cps, regret=out - best, loss=out, best=best,
            oracle_calls=domain.oracle_calls - self.calls0, projections=domain.projections - self.proj0,
            oracle_time=domain.oracle_time - self.time0, projection_time=domain.projection_time - self.ptime0,
            wall_time=time.perf_counter() - t_wall - self.t_mon,
            params=params, queries=self.queries, plays=self.plays, round_grads=self.grads, releases=self.releases,
            nonlearner_regret=None if self.nl_cum is None else self.nl_cum - best[-1],
            oracle_regret=None if self.or_cum is None else self.or_cum - best[-1])


def _frozen_round(losses: DistanceLosses, c: np.ndarray, zeta: float, UC: np.ndarray, Q: np.ndarray,
                  pieces: np.ndarray) -> np.ndarray:
    """The summed losses ``L ||c + zeta Q u_t - c_k||`` of one round's steps (``UC`` (Rb, nb, dim) the
    round's unit directions, ``pieces`` (nb,) the loss of each step), shape (Rb,), as
    ``L (||a||^2 + 2 zeta <Q^T a, u_t> + zeta^2)^(1/2)`` with ``a = c - c_k`` (Q has orthonormal
    columns, so ||Q u_t|| = 1): O(dim) per step instead of O(n), equal to the direct evaluation to
    rounding."""
    vals = np.empty(UC.shape[:2])
    for k in np.unique(pieces):
        on = pieces == k
        a = c - losses.centres[int(k)]
        vals[:, on] = UC[:, on] @ (Q.T @ a)
        vals[:, on] = losses.L * np.sqrt(np.maximum(a @ a + 2.0 * zeta * vals[:, on] + zeta * zeta, 0.0))
    return vals.sum(axis=1)


def private_bandit(domain: Polytope, losses, rng, *, R: int | None = None, noise: str = "none",
                   eps: float | None = None, delta: float | None = None, noise_scale: float | None = None,
                   shrink: bool = False, zeta: float | None = None, eta: float | None = None,
                   checkpoints=None, record_queries: bool = False, record_rounds: bool = False, noise_rng=None,
                   printed_line14_sign: bool = False, monitor=None, engine: str = "auto",
                   nonlearner: bool = False, oracle_point=None, oracle_zeta: float | None = None) -> BanditRun:
    """PRIVATEBANDIT (Algorithm 1) on ``losses`` (T, L from the loss sequence, D = domain.D);
    one LMO call per step.  See the module docstring for every convention.

    Records (off by default): ``record_rounds`` keeps, per round, the played point (before
    ``+ zeta u_t``) in ``run.plays`` (T_round, R, n) and the batch sum ``g~`` handed to the tree
    in ``run.round_grads`` (T_round, R, dim) and the tree's release after it (the noisy prefix
    sum s~_R, what the algorithm publishes) in ``run.releases``: O(T^(1/2) R n) memory.  ``record_queries`` keeps
    every queried point, ``run.queries`` (T, R, n): O(T R n), for tests on small T only.

    ``monitor`` (optional) observes the run without storing it: ``monitor.start(params)``
    (the run's ``params`` dict) before the first round, then per round
    ``round_start(rnd, play)`` (the played point, before ``+ zeta u_t``), per step
    ``step(t, y, f, u)`` (query, loss values, unit direction in the dim coordinates) and
    ``round_end(rnd, g)`` (the batch sum handed to the tree).  The arrays are the run's own
    (read-only: do not modify them); the time spent in the monitor is excluded from
    ``wall_time``.  It does not change the run (no random numbers, no domain calls).

    ``engine``: ``"numpy"`` the loop above; ``"jit"`` the compiled rounds of
    :mod:`dpregret.papers.env21.jit` (plain Simplex / L1Ball / Prim spanning-tree
    polytope with distance losses;
    the same draws and the same numbers to rounding, tests: 1e-9; ``oracle_calls`` counted, but
    the LMO time inside the kernel is not measured: ``oracle_time`` stays 0); ``"auto"`` (default)
    the compiled rounds where they apply, else numpy.

    ``nonlearner``: also the regret at T of the trivial learner of this setting -- frozen at
    ``x~_0`` (the domain's centre), queried at ``x~_0 + zeta Q u_t`` on the run's own directions
    (the same draws, zeta and losses; it ignores the feedback, so the noise does not matter) --
    in ``run.nonlearner_regret`` (R,); default checkpoint only.  No LMO call, no random number:
    the run is unchanged.  Equal to rounding to the frozen learner run through
    ``papers.env21.run.private_bandit_around`` (``FrozenCentre``).

    ``oracle_point`` (an ambient point of K, default None): also the regret at T of the oracle frozen
    there, queried at ``oracle_point + oracle_zeta Q u_t`` on the run's own directions (``oracle_zeta``:
    default the run's zeta), in ``run.oracle_regret`` (R,); default checkpoint only, no LMO call, no
    random number.  At the loss's minimiser (``papers.env21.run.rate_losses``: v_1) this is the smoothing
    cost every learner pays whatever it learns (``T L zeta`` exactly on ``f_t = L ||x - v_1||``)."""
    return _run(domain, losses, rng, mode="fw", R=R, noise=noise, eps=eps, delta=delta, noise_scale=noise_scale,
                shrink=shrink, zeta=zeta, eta=eta, batch=None, checkpoints=checkpoints,
                record_queries=record_queries, record_rounds=record_rounds, noise_rng=noise_rng,
                printed_line14_sign=printed_line14_sign, monitor=monitor, engine=engine, nonlearner=nonlearner,
                oracle_point=oracle_point, oracle_zeta=oracle_zeta)


def projected_bandit(domain: Polytope, losses, rng, *, R: int | None = None, noise: str = "none",
                     eps: float | None = None, delta: float | None = None, noise_scale: float | None = None,
                     shrink: bool = False, zeta: float | None = None, eta: float | None = None,
                     batch: int | None = None, checkpoints=None, record_queries: bool = False,
                     record_rounds: bool = False, noise_rng=None, monitor=None) -> BanditRun:
    """Projection baseline: one-point estimates + tree aggregation + ``x~ = Proj_K(-eta s~)``
    (one projection per round of ``batch`` steps, default ``ceil(sqrt T)``); no LMO calls.
    Records and ``monitor`` as in :func:`private_bandit`."""
    return _run(domain, losses, rng, mode="proj", R=R, noise=noise, eps=eps, delta=delta, noise_scale=noise_scale,
                shrink=shrink, zeta=zeta, eta=eta, batch=batch, checkpoints=checkpoints,
                record_queries=record_queries, record_rounds=record_rounds, noise_rng=noise_rng,
                printed_line14_sign=False, monitor=monitor)
