"""Ene, Nguyen, Vladu (AAAI 2021): the runs behind the claims of ``papers.env21.claims`` (Algorithm 1 of
section 3 with the noise of section 5, NOISYOCO of section 4.1, Appendix C's per-round bounds).

Experiments (one tidy table each; one row per algorithm x point x replicate):

- ``rates``: regret vs T of PRIVATEBANDIT (Algorithm 1) on ``f_t(x) = L ||x - v_1||``
  (:func:`rate_losses`: v_1 a vertex of K, so f_t attains 0 in K at a vertex; the comparator
  pays 0, a learner at v_1 pays exactly ``L zeta`` per query, so the regret is at least
  ``T L zeta = T^(3/4) n^(1/2) L D``: Lemma 3.1's first term is attained; and the learner frozen
  at the centre pays ``L ||c - v_1||`` per step, linear: the instance tells a learner from one
  that does not learn) over the simplex (``n_simplex`` coordinates,
  dimension ``n_simplex - 1`` = the paper's n) and the spanning-tree polytope of K_k
  (``tree_nodes``; v_1 its first spanning tree), at every T of ``T`` (simplex) / ``T_tree`` (tree), and at the
  horizons of ``T_noise`` beyond ``T`` only ``ENV-lemma3.1-rate-T-noise``'s rows (:func:`noise_horizons`).  Algorithms:
  ``none`` (no noise), ``laplace`` (Lemma 5.1's lambda at ``eps_rate_laplace``), ``gaussian``
  (Lemma 5.4's sigma at ``eps_rate_gaussian``, ``delta``), ``fixed_noise`` (Laplace noise of
  scale ``noise_level`` whatever T: a fixed noise distribution, Lemma 3.1 at fixed mu),
  ``frozen`` (the non-learner: frozen at the centre x~_0 on the same directions and zeta,
  ``private_bandit(..., nonlearner=True)``),
  the near-miss controls ``*_slow_zeta`` (Algorithm 1 with zeta decaying as T^(-zeta_decay_control)
  -- ``none``, ``fixed_noise`` -- or T^(-zeta_decay_control_private) -- ``laplace``, ``gaussian``,
  ``none_switching`` -- instead of T^(-1/4), equal at the grid's smallest T: smoothing cost
  T L zeta ~ T^(9/10) or T^(19/20)), the secondary controls ``*_fixed_step`` (the same noise with a step frozen at
  Algorithm 1's eta for the smallest T of the grid: non-decreasing in T), ``printed_sign`` (line 14 as printed:
  ascent) and ``offset_losses`` (f_t + 2 L D: minimum no longer 0, the precondition of
  Lemma C.2; first two T only); on the simplex also ``none_switching``, its non-learner
  ``frozen_switching`` and its controls on :func:`vertex_switching` (the centre at v_1 two
  rounds of three and at the farthest vertex v_2 the third: it changes twice every three
  rounds, each round's play, computed from the earlier rounds, answers the earlier centres, and
  the comparator is the vertex v_1).  (The earlier instances: the centre halfway between the
  domain's centre and a vertex, where the learner frozen at the centre passed every T-rate --
  slope 0.896 on the simplex -- and two such centres alternating every round, where it passed the
  switching rate, 0.734; config ``history:``.)  ``none``, ``laplace``, ``gaussian``, ``fixed_noise``,
  ``printed_sign`` and ``offset_losses`` are instrumented (:class:`~dpregret.papers.env21.run.RoundMeter`, measured
  during the run from its queries, losses and directions u_t, O(1) memory in T): the table carries Lemma C.2's
  ``||g~_R||^2`` and Corollary C.5's ``||x^_R - x~_R||`` (max and mean over rounds) with both bounds.
- ``n``: the gap (regret minus the noise-free run's, same replicate) vs the dimension at
  ``T_n`` on :func:`rate_losses` (one job, every dimension): ``laplace`` / ``gaussian`` at ``eps_n_laplace`` /
  ``eps_n_gaussian``, the non-learner ``frozen`` and the controls
  ``laplace_l1`` (lambda x n^(1/2): the batch l1 norm bounded by n M instead of n^(1/2) M),
  ``gaussian_as_laplace`` (Gaussian noise calibrated through the l1 route of Lemma 5.1,
  sigma = lambda: Laplace's dimension dependence) and ``gaussian_as_laplace_l1``
  (sigma = lambda n^(1/2)).
- ``eps``: the gap vs eps at ``T_eps``, ``dim_eps`` on :func:`rate_losses`: ``laplace`` at every ``eps_laplace``,
  ``gaussian`` at every ``eps_gaussian``, the non-learner ``frozen``, and the controls ``*_eps_sq`` (scale x
  eps_min/eps, i.e. proportional to 1/eps^2, equal at the grid's smallest eps), and the mis-tuned twins
  ``*_step_over_sqrtT`` (the step eta (T_eps / T0)^(1/4), same directions and standard noise).
- ``cost``: LMO calls, projections and times at ``T_cost`` for ``n_cost`` coordinates on the
  simplex and the l1 ball: ``fw`` (Algorithm 1), ``projection`` (the projection baseline,
  :func:`projected_bandit`) and ``fw_two_calls`` (control: every oracle query made twice).
- ``noisyoco`` (``oco_replicate_factor`` x the replicates): NOISYOCO (Algorithm 2) on linear losses over the l1 ball of
radius
  ``rho_oco`` with a (kappa, gamma)-noisy oracle, ``kappa = kappa_over_G * max ||l_t||``,
  every gamma of ``gamma`` and both NOISYMAP errors (``sphere``, ``adversarial``); control
  ``printed_eta`` (Algorithm 2, line 1 as printed: eta = D_omega^(1/2) / (kappa T^(1/2))); the
  non-learner ``frozen`` (NOISYOCO frozen at its start point x_1 = Proj_K(0): no oracle call); the
  twin ``sphere_eta_over_T``; and the tight rows ``tight`` / ``tight_2gamma`` (:func:`tight_noisyoco`: unit-norm
  losses, kappa = ``kappa_over_G_tight`` G, the adversarial error at every ``gamma_tight``, and the near miss
  with the map's error 2 gamma against the bound at gamma).

Every PRIVATEBANDIT row carries ``oracle_calls`` (LMO invocations of its run: one
invocation answers all rows of the run).

Your own learner (this module's ``USER_CLAIMS``, :mod:`dpregret.core.contract`: Theorem 1.1, Lemmas
5.2 and 5.5 in T): an ``oco_polytope`` learner ``make(R, domain, T_round, G)`` takes Frank-Wolfe's
place inside PRIVATEBANDIT's privacy mechanism (``run.private_bandit_around``, the generic
per-round path; ``run.learner_rates``, its rows) on the simplex points of ``rates``, on the
paper's direction and noise streams; its rows (``name``, ``name@gaussian``, ``name@*_slow_zeta``)
follow the paper's, which are unchanged.  :func:`simulate_rates` takes the learners
(``learners=``); :func:`paper_frank_wolfe` is Algorithm 1's own learner on that door.

Batching of variants (common random numbers).  The variants of one point that share eta and
the line-14 sign run as rows of ONE :func:`private_bandit` call: the direction stream is the
chunk's streams tiled (every variant sees the same u_t) and the noise stream serves, per
variant, the same standard Laplace / normal draws times the variant's scale (the call uses
``noise="laplace", noise_scale=1``; a Gaussian variant's rows get normal draws).  The
stream keys are (experiment, domain, point) for u and (..., "noise") for the noise, never
the variant or the call, so every variant and every control of a point sees the same
directions and the same standard noise.  Losses are deterministic, so
results do not depend on how replicates are chunked.  Timing columns (``*_time``) are
measurements and are not reproducible (``wall_time`` is per call, all its rows).

Choosing eps.  What the noise does to the regret is set by
``r = eta E||Z|| / zeta`` (``papers.env21.learners.noise_to_smoothing``; Z = the tree noise of one release):
the response is quadratic for r < ~1 (the sphere-smoothed cone is flat to first order),
linear up to r ~ D / zeta, saturated above.  r does not depend on T except through logs
(eta / zeta = 1 / (T^(1/2) n L)), so the T-rates are checked at a fixed response regime.
Lemma 5.1's lambda at eps = 1 gives r ~ 50-120 (Laplace) and Lemma 5.4's sigma r ~ 2000-3700
(Gaussian, delta = 1e-5) on the simplex with n = 4 and T in [300, 3e4]: saturated; the
config's eps put r ~ 1 at the grid's centre (T-rates), ~0.5 at the centre of the n grid,
and sweep r from ~300 down to ~3 (eps grids).  The dimension grid spans 2 decades only
while zeta = D n^(1/2) / T^(1/4) stays below D (n < T^(1/2), where Lemma 3.1 is below the
trivial L D T): the default T_n = 2e5 runs n = 1 to 100 (zeta = 0.47 D at n = 100).
Those eps were chosen on the earlier instance (the centre inside K) and kept on :func:`rate_losses`,
where the same noise does less: the cumulative gradient pins the played point to v_1 (the
minimum sits in a vertex's normal cone), and the noise moves it only once eta ||Z|| outgrows
that margin.  At ``eps_rate_*`` the noise is ~5% of the regret at every T (pilot on seed 12345:
noise share 0.04-0.05); with eps 30 / 1000 (share ~0.2, the regret still below the frozen
centre's at every T) the slow-zeta near miss is no longer caught (0.902 [0.894, 0.911] against
0.90), and from eps 10 / 300 (share up to 0.5) the regret exceeds the frozen centre's at T = 300.
The rates of the gap in n and eps are decided only where the privacy term dominates and the
learner learns (``papers.env21.rates.gap_rate``, config ``regime``).

Layout: the streams, the batched call, the round meter and the rows with their bounds are in
:mod:`dpregret.papers.env21.run`; this module builds the experiments from them.
"""
from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from dpregret.core.calibration import lemma5_noise_scale
from dpregret.core.environments.bco import DistanceLosses, OffsetLosses, stationary_distance
from dpregret.core.environments.polytopes import L1Ball, make_domain, two_call_domain
from dpregret.papers.env21.noisy_oco import noisy_oco
from dpregret.papers.env21.learners import algorithm1_parameters, batch_schedule, private_bandit, projected_bandit
from dpregret.papers.env21.bounds import bound_lemma4_1, bound_lemma5_2, bound_lemma5_5
from dpregret.core.rng import RowStreams, stable_key
from dpregret.papers.env21.rates import PAPER_LEARNER, REFERENCE, USER_RATE_ROLES
from dpregret.papers.env21.learners import FrankWolfeOCO, FrozenCentre
from dpregret.papers.env21.run import (
    NONLEARNER, RoundMeter, env21_streams, frozen_frame, learner_rates, rate_losses, row_bounds,
    run_variants, variant_frame,
)

EXPERIMENTS = ("rates", "n", "eps", "cost", "noisyoco")
RATE_DOMAINS = ("simplex", "spanning_tree")
OFFSET = 2.0  # offset_losses: f_t + OFFSET * L * D


SWITCH_EVERY = 3  # vertex_switching: the second vertex's centre in the last round of every SWITCH_EVERY



def vertex_switching(domain, T: int, L: float = 1.0) -> DistanceLosses:
    """The varying losses of ``ENV-lemma3.1-rate-T-switching``: ``f_t = L ||x - c_t||`` with c_t = v_1
    in the first ``SWITCH_EVERY - 1`` rounds of every ``SWITCH_EVERY`` and c_t = v_2 (the vertex
    farthest from v_1, first such) in the last (rounds of Algorithm 1's T_batch steps).  The centre
    changes twice every three rounds and each round's play (computed from the earlier rounds)
    answers the earlier centres; the weighted geometric median of {v_1 (weight 2/3), v_2 (1/3)}
    is v_1, a vertex, so the comparator pays ``L ||v_1 - v_2||`` per step of the v_2 rounds only."""
    V_ = domain.vertices()
    v1 = V_[0]
    v2 = V_[int(np.argmax(np.linalg.norm(V_ - v1, axis=1)))]
    b = batch_schedule(T)[0]
    pieces = ((np.arange(T) // b) % SWITCH_EVERY == SWITCH_EVERY - 1).astype(np.int64)
    return DistanceLosses(domain, T, L, np.vstack([v1, v2]), pieces)


def interior_losses(domain, T: int, L: float = 1.0):
    """The instance of ``ENV-lemma3.1-rate-T-interior``: ``f_t = L ||x - c||`` with c halfway between the domain's
    centre (Algorithm 1's start x~_0) and its first vertex v_1, inside K.  The comparator c pays 0; the oracle frozen
    at c pays exactly ``L zeta`` per query (the learning regret's reference, as on :func:`~.run.rate_losses`); a
    learner that plays vertices pays at least ``L dist(c, vertices)`` per step, the frozen centre
    ``L ||centre - c||``: both linear."""
    V_ = domain.vertices()
    return stationary_distance(domain, T, L=L, centre=0.5 * (V_.mean(axis=0) + V_[0]))


def _pair(point) -> tuple[str, int]:
    """``(name, int)`` from a tuple or a ``"name:value"`` string (workflow wildcards)."""
    if isinstance(point, str):
        name, _, val = point.partition(":")
        return name, int(val)
    name, val = point
    return str(name), int(val)


def noise_horizons(p: dict) -> list[int]:
    """The horizons of ``T_noise`` (ENV-lemma3.1-rate-T-noise's grid) not in the simplex grid ``T``: there only
    the fixed-noise family runs (``simulate_rates(..., noise_only=True)``)."""
    grid = {int(T) for T in p["T"]}
    return sorted(int(T) for T in p.get("T_noise", p["T"]) if int(T) not in grid)


def simulate_rates(p: dict, point, reps, seed: int, learners: dict | None = None, paper: bool = True,
                   noise_only: bool = False) -> pd.DataFrame:
    """One (domain, T) point of the ``rates`` experiment (see the module docstring);
    ``point`` is ``("simplex", T)`` / ``("spanning_tree", T)`` or ``"simplex:T"``, or a domain
    name alone (every T of its grid), or ``"all"`` (both domains).

    ``learners``: ``{name: make}`` of ``oco`` learners run on the simplex inside Algorithm 1's
    privacy mechanism (``run.private_bandit_around``, rows by ``run.learner_rates``) on the
    paper's draws; their rows (``papers.env21.rates.rate_T_algs``) follow the paper's, which are unchanged.
    ``paper=False``: the learners' rows alone (the same numbers: they draw from their own streams).
    ``noise_only``: the simplex rows of ``ENV-lemma3.1-rate-T-noise`` alone (``none``, ``fixed_noise``, the frozen
    centre, the twin, the slow-zeta control and the fixed-step secondary), for its horizons beyond ``T``
    (:func:`noise_horizons`); T0 and the controls' anchors stay those of the simplex grid ``T``."""
    if point == "all":  # both domains in one job (the tree's job paid more start-up than work)
        return pd.concat([simulate_rates(p, d, reps, seed, learners, paper) for d in RATE_DOMAINS],
                         ignore_index=True)
    if point in RATE_DOMAINS:  # every T of the domain's grid in one job
        grid = p["T"] if point == "simplex" else p["T_tree"]
        frames = [simulate_rates(p, (point, int(T)), reps, seed, learners, paper) for T in grid]
        if point == "simplex" and paper:  # ENV-lemma3.1-rate-T-noise's horizons beyond the grid (noise_horizons)
            frames += [simulate_rates(p, (point, int(T)), reps, seed, noise_only=True) for T in noise_horizons(p)]
        return pd.concat(frames, ignore_index=True)
    dom_name, T = _pair(point)
    if dom_name not in RATE_DOMAINS:
        raise ValueError(f"rates domain must be one of {RATE_DOMAINS}, got {dom_name!r}")
    pt = _RatePoint(p, dom_name, T, reps, seed)
    if not paper:
        if dom_name != "simplex" or not learners:
            raise ValueError("paper=False needs learners on the simplex (their rows are the only rows)")
        return pd.concat([learner_rates(p, T, reps, seed, name, make, pt.lam, pt.sig, pt.zp,
                                        pt.eps_of) for name, make in learners.items()],
                         ignore_index=True)
    if noise_only:
        if dom_name != "simplex":
            raise ValueError("noise_only runs on the simplex")
        _noise_only_rows(pt)
        return pt.frame()
    _main_and_twin_rows(pt)
    _control_rows(pt)
    if dom_name == "simplex":
        _varying_instance_rows(pt)
    df = pt.frame()
    if learners and dom_name == "simplex":  # after the paper's rows, which they leave unchanged
        user = [learner_rates(p, T, reps, seed, name, make, pt.lam, pt.sig, pt.zp, pt.eps_of)
                for name, make in learners.items()]
        df = pd.concat([df, *user], ignore_index=True)
    return df


class _RatePoint:
    """What every run of one (domain, T) point of the ``rates`` experiment shares: the point, its noise scales
    (Lemmas 5.1 / 5.4 at the rate eps), the grid's smallest T0, the private controls' slow zeta ``zp``, and the
    frames its runs append (:meth:`go`, in the order they run)."""

    def __init__(self, p: dict, dom_name: str, T: int, reps, seed: int):
        self.p, self.dom_name, self.T, self.reps, self.seed = p, dom_name, T, reps, seed
        self.L, self.delta = float(p["L"]), float(p["delta"])
        self.grid = p["T"] if dom_name == "simplex" else p["T_tree"]
        self.n = p["n_simplex"] if dom_name == "simplex" else p["tree_nodes"]
        self.key = ("rates", dom_name, T)
        self.frames: list[pd.DataFrame] = []
        self.dom = make_domain(dom_name, self.n)
        d, L, delta = self.dom.dim, self.L, self.delta
        self.lam = lemma5_noise_scale("laplace", T, d, L, p["eps_rate_laplace"], delta)
        self.sig = lemma5_noise_scale("gaussian", T, d, L, p["eps_rate_gaussian"], delta)
        self.eps_of = {"laplace": p["eps_rate_laplace"], "gaussian": p["eps_rate_gaussian"],
                       "laplace_fixed_step": p["eps_rate_laplace"], "gaussian_fixed_step": p["eps_rate_gaussian"]}
        self.T0 = int(min(self.grid))
        self.zp = slow_zeta(T, self.T0, d, L, self.dom.D, float(p["zeta_decay_control_private"]))

    def go(self, variants, losses=None, *, eta=None, zeta=None, printed=False, record=False, eps_of=None,
           frozen=None, oracle=True):
        """Run ``variants`` on a fresh domain (``losses(dom)``, default ``rate_losses``) and append their rows (and
        the frozen centre's, named ``frozen``, when given)."""
        T, L = self.T, self.L
        dom = make_domain(self.dom_name, self.n)
        ls = rate_losses(dom, T, L=L) if losses is None else losses(dom)
        meter = RoundMeter(dom) if record else None  # Lemma C.2 / Cor. C.5, measured during the run
        run = run_variants(dom, ls, variants, self.reps, self.seed, self.key, eta=eta, zeta=zeta, printed=printed,
                           monitor=meter, nonlearner=frozen is not None, oracle=oracle)
        extra = meter.result() if record else {}
        df = variant_frame(run, variants, self.reps, extra)
        self.frames.append(row_bounds(df, T, dom.dim, L, dom.D, eps_of or {}, self.delta))
        if frozen is not None:  # the non-learner: frozen at the centre, the same directions
            self.frames.append(frozen_frame(run, self.reps, frozen))
        return dom

    def twin_step(self, up: bool = False) -> float:
        return twin_step(self.T, self.T0, self.dom.dim, self.L, self.dom.D, up=up)

    def slow_zeta(self) -> float:
        """The slow zeta of the claims with tolerance 0.10 (config zeta_decay_control)."""
        return slow_zeta(self.T, self.T0, self.dom.dim, self.L, self.dom.D, float(self.p["zeta_decay_control"]))

    def frame(self) -> pd.DataFrame:
        """The point's rows, with its columns."""
        df = pd.concat(self.frames, ignore_index=True)
        df["experiment"], df["domain"], df["n"], df["dim"], df["T"], df["L"], df["D"] = \
            "rates", self.dom_name, self.dom.n, self.dom.dim, self.T, self.L, self.dom.D
        return df


def _noise_only_rows(pt: _RatePoint) -> None:
    """ENV-lemma3.1-rate-T-noise's family alone (its horizons beyond the grid)."""
    mu = float(pt.p["noise_level"])
    pt.go([("none", "none", 0.0), ("fixed_noise", "laplace", mu)], frozen=NONLEARNER)
    pt.go([(f"fixed_noise{TWIN}", "laplace", mu)], eta=pt.twin_step())
    pt.go([("fixed_noise_slow_zeta", "laplace", mu)], zeta=pt.slow_zeta())
    pt.go([("fixed_noise_fixed_step", "laplace", mu)], eta=algorithm1_parameters(pt.T0, pt.dom.dim, pt.L,
                                                                                 pt.dom.D)[1])


def _main_and_twin_rows(pt: _RatePoint) -> None:
    """The paper's rows (none, Laplace, Gaussian, fixed noise on the simplex; Lemma C.2 / Cor. C.5 measured) and
    their mis-tuned twins."""
    p, lam, sig, eps_of = pt.p, pt.lam, pt.sig, pt.eps_of
    simplex = pt.dom_name == "simplex"
    main = [("none", "none", 0.0), ("laplace", "laplace", lam), ("gaussian", "gaussian", sig)]
    if simplex:
        main.append(("fixed_noise", "laplace", float(p["noise_level"])))
    pt.go(main, record=True, eps_of=eps_of, frozen=NONLEARNER)
    # the mis-tuned twins (same draws): Algorithm 1 with the step eta (T0 / T)^(1/4), i.e. eta ~ 1/T instead of
    # T^(-3/4) (equal at the grid's smallest T0): the step's exponent in T one notch off
    twins = [(f"{a}{TWIN}", k, s) for a, k, s in (main if simplex else main[:1])]
    pt.go(twins, eta=pt.twin_step(), eps_of={f"{a}{TWIN}": e for a, e in eps_of.items()})
    if simplex:  # the private claims' twin: the step eta (T / T0)^(1/4) ~ T^(-1/2), too large
        pt.go([(f"laplace{TWIN_UP}", "laplace", lam), (f"gaussian{TWIN_UP}", "gaussian", sig)],
              eta=pt.twin_step(up=True),
              eps_of={f"laplace{TWIN_UP}": p["eps_rate_laplace"], f"gaussian{TWIN_UP}": p["eps_rate_gaussian"]})


def _control_rows(pt: _RatePoint) -> None:
    """The controls of the vertex instance: slow zeta (near miss), fixed step, offset losses (Lemma C.2), the
    printed sign, twice the sensitivity (Cor. C.5)."""
    p, lam, sig, eps_of = pt.p, pt.lam, pt.sig, pt.eps_of
    simplex = pt.dom_name == "simplex"
    # near-miss controls of the T-rates: Algorithm 1 with the smoothing radius decaying as
    # T^(-decay) instead of T^(-1/4) (equal at the grid's smallest T): the smoothing cost T L zeta
    # alone is then ~ T^(1 - decay), between T^(3/4) and linear.  decay = zeta_decay_control for
    # the claims with tolerance 0.10, zeta_decay_control_private for those with 0.15 (and switching)
    zc = pt.slow_zeta()
    slow = [("none_slow_zeta", "none", 0.0)]
    if simplex:
        slow.append(("fixed_noise_slow_zeta", "laplace", float(p["noise_level"])))
        pt.go([("laplace_slow_zeta", "laplace", lam), ("gaussian_slow_zeta", "gaussian", sig)], zeta=pt.zp,
              eps_of=eps_of)
    pt.go(slow, zeta=zc, eps_of=eps_of)
    if simplex:  # controls: a step frozen at the smallest T's (not decreasing with T)
        eta0 = algorithm1_parameters(int(min(pt.grid)), pt.dom.dim, pt.L, pt.dom.D)[1]
        pt.go([("laplace_fixed_step", "laplace", lam), ("gaussian_fixed_step", "gaussian", sig),
               ("fixed_noise_fixed_step", "laplace", float(p["noise_level"]))], eta=eta0, eps_of=eps_of)
        if pt.T in sorted(pt.grid)[:2]:  # Lemma C.2's control: losses shifted by 2 L D
            T, L = pt.T, pt.L
            pt.go([("offset_losses", "none", 0.0)], losses=lambda dm: OffsetLosses(
                rate_losses(dm, T, L=L), OFFSET * L * dm.D), record=True, oracle=False)
    pt.go([("printed_sign", "none", 0.0)], printed=True, record=True)
    if simplex:  # Corollary C.5's near miss: Laplace noise for twice the sensitivity (2 lambda)
        pt.go([("laplace_sens2", "laplace", 2.0 * lam)], record=True, eps_of=eps_of)


def _varying_instance_rows(pt: _RatePoint) -> None:
    """The simplex's other instances: the switching centre (vertex_switching) and the interior minimiser
    (interior_losses), each with its frozen centre, twin and controls."""
    T, L = pt.T, pt.L
    eta_tw = pt.twin_step()
    # varying losses: the centre switches between two vertices (vertex_switching)
    switching = lambda dm: vertex_switching(dm, T, L=L)  # noqa: E731
    pt.go([("none_switching", "none", 0.0)], losses=switching, frozen=f"{NONLEARNER}_switching")
    pt.go([("none_switching_slow_zeta", "none", 0.0)], losses=switching, zeta=pt.zp)
    pt.go([(f"none_switching{TWIN}", "none", 0.0)], losses=switching, eta=eta_tw)
    pt.go([("printed_sign_switching", "none", 0.0)], losses=switching, printed=True)
    # a loss minimised inside K (interior_losses): where the Frank-Wolfe step's line search matters
    interior = lambda dm: interior_losses(dm, T, L=L)  # noqa: E731
    pt.go([("none_interior", "none", 0.0)], losses=interior, frozen=f"{NONLEARNER}_interior")
    pt.go([(f"none_interior{TWIN}", "none", 0.0)], losses=interior, eta=eta_tw)
    pt.go([("none_interior_slow_zeta", "none", 0.0)], losses=interior, zeta=pt.slow_zeta())


TWIN = "_step_over_T"  # suffix of the mis-tuned twins' rows (twin_step)
TWIN_UP = "_step_over_sqrtT"  # suffix of the private claims' twin (twin_step(..., up=True))


def twin_step(T: int, T0: int, d: int, L: float, D: float, up: bool = False) -> float:
    """The mis-tuned twin's step: Algorithm 1's eta at ``T`` times ``(T0 / T)^(1/4)``, i.e. proportional
    to 1/T instead of T^(-3/4) (equal at the grid's smallest ``T0``): the step's exponent in T one notch
    off (the step of a horizon-T method that forgets the batching, eta ~ D / (L T)).  ``up``: one notch
    the other way, ``(T / T0)^(1/4)``, i.e. eta ~ T^(-1/2), the full-information OGD step D / (G T^(1/2))."""
    return algorithm1_parameters(T, d, L, D)[1] * (T0 / T) ** (-0.25 if up else 0.25)


def slow_zeta(T: int, T0: int, d: int, L: float, D: float, decay: float) -> float:
    """The near-miss control's smoothing radius: Algorithm 1's zeta at ``T0`` times
    ``(T0 / T)^decay`` (Algorithm 1: decay 1/4)."""
    return algorithm1_parameters(T0, d, L, D)[0] * (T0 / T) ** decay


def simulate_n(p: dict, dim, reps, seed: int) -> pd.DataFrame:
    """One dimension of the ``n`` experiment (simplex with dim + 1 coordinates, T = T_n); ``"all"``:
    every dimension of ``dims`` in one job (the job's start-up cost more CPU than the small dims)."""
    if dim == "all":
        return pd.concat([simulate_n(p, int(d), reps, seed) for d in p["dims"]], ignore_index=True)
    dim, T = int(dim), int(p["T_n"])
    L, delta = float(p["L"]), float(p["delta"])
    dom = make_domain("simplex", dim + 1)
    lam = lemma5_noise_scale("laplace", T, dim, L, p["eps_n_laplace"], delta)
    sig = lemma5_noise_scale("gaussian", T, dim, L, p["eps_n_gaussian"], delta)
    r = math.sqrt(dim)
    variants = [("none", "none", 0.0), ("laplace", "laplace", lam), ("gaussian", "gaussian", sig),
                ("laplace_l1", "laplace", lam * r), ("gaussian_as_laplace", "gaussian", lam),
                ("gaussian_as_laplace_l1", "gaussian", lam * r)]
    losses = rate_losses(dom, T, L=L)
    run = run_variants(dom, losses, variants, reps, seed, ("n", dim, T), nonlearner=True)
    eps_of = {"laplace": p["eps_n_laplace"], "laplace_l1": p["eps_n_laplace"],
              "gaussian_as_laplace": p["eps_n_laplace"],
              "gaussian_as_laplace_l1": p["eps_n_laplace"], "gaussian": p["eps_n_gaussian"]}
    df = pd.concat([row_bounds(variant_frame(run, variants, reps), T, dim, L, dom.D, eps_of, delta),
                    frozen_frame(run, reps)],
                   ignore_index=True)
    df["experiment"], df["domain"], df["n"], df["dim"], df["T"], df["L"], df["D"] = \
        "n", "simplex", dom.n, dim, T, L, dom.D
    return df


def simulate_eps(p: dict, point: str, reps, seed: int) -> pd.DataFrame:
    """The ``eps`` experiment (one point, ``"all"``): every eps of both grids in one call."""
    if point != "all":
        raise ValueError(f"point must be 'all', got {point!r}")
    T, dim = int(p["T_eps"]), int(p["dim_eps"])
    L, delta = float(p["L"]), float(p["delta"])
    dom = make_domain("simplex", dim + 1)
    variants, eps_col = [("none", "none", 0.0)], [np.nan]
    for kind, grid in (("laplace", p["eps_laplace"]), ("gaussian", p["eps_gaussian"])):
        e0 = min(grid)
        for e in grid:
            s = lemma5_noise_scale(kind, T, dim, L, e, delta)
            variants += [(kind, kind, s), (f"{kind}_eps_sq", kind, s * e0 / e)]
            eps_col += [float(e), float(e)]
    losses = rate_losses(dom, T, L=L)
    run = run_variants(dom, losses, variants, reps, seed, ("eps", dim, T), nonlearner=True)
    df = row_bounds(variant_frame(run, variants, reps), T, dim, L, dom.D, {}, delta)
    df["eps"] = np.repeat(eps_col, len(reps))
    # the mis-tuned twins of the eps rates (same key: the same directions and standard noise): Algorithm 1 with the
    # step eta (T_eps / T0)^(1/4) ~ T^(-1/2) (twin_step(up=True), T0 the simplex grid's smallest T, as the rates')
    tw = [(f"{k}{TWIN_UP}", k, sc) for (a, k, sc) in variants if a in ("laplace", "gaussian")]
    tw_eps = [e for (a, _, _), e in zip(variants, eps_col) if a in ("laplace", "gaussian")]
    run_tw = run_variants(dom, losses, tw, reps, seed, ("eps", dim, T),
                          eta=twin_step(T, int(min(p["T"])), dim, L, dom.D, up=True))
    dtw = row_bounds(variant_frame(run_tw, tw, reps), T, dim, L, dom.D, {}, delta)
    dtw["eps"] = np.repeat(tw_eps, len(reps))
    df = pd.concat([df, dtw, frozen_frame(run, reps)], ignore_index=True)
    df["bound_lemma5_2"] = [bound_lemma5_2(T, dim, L, dom.D, e) if k == "laplace" and e == e else np.nan
                            for k, e in zip(df.noise, df.eps)]
    df["bound_lemma5_5"] = [bound_lemma5_5(T, dim, L, dom.D, e, delta) if k == "gaussian" and e == e else np.nan
                            for k, e in zip(df.noise, df.eps)]
    df["experiment"], df["domain"], df["n"], df["dim"], df["T"], df["L"], df["D"] = \
        "eps", "simplex", dom.n, dim, T, L, dom.D
    return df


def simulate_cost(p: dict, point, reps, seed: int) -> pd.DataFrame:
    """One (domain, n) point of the ``cost`` experiment (``("simplex", n)`` or ``"l1ball:n"``; ``"all"``: every one):
    Algorithm 1 (LMO), the projection baseline and the two-calls control, no noise, same
    directions."""
    if point == "all":  # every (domain, n) of the grid in one job (job start-up costs more than a point)
        return pd.concat([simulate_cost(p, (dm, int(n)), reps, seed) for dm in ("simplex", "l1ball")
                          for n in p["n_cost"]], ignore_index=True)
    dom_name, n = _pair(point)
    if dom_name not in ("simplex", "l1ball"):
        raise ValueError(f"cost domain must be 'simplex' or 'l1ball', got {dom_name!r}")
    T, L = int(p["T_cost"]), float(p["L"])
    frames = []
    for alg in ("fw", "projection", "fw_two_calls", "fw_compiled", "fw_two_calls_compiled"):
        dom = make_domain(dom_name, n)
        if alg.startswith("fw_two_calls"):
            dom = two_call_domain(dom)
        losses = stationary_distance(dom, T, L=L)
        u = env21_streams(seed, reps, "cost", dom_name, n, T, "u")
        t0 = time.perf_counter()
        fn = projected_bandit if alg == "projection" else private_bandit
        # the numpy loop (LMO time measured); *_compiled: the compiled rounds, whose kernel counts its LMO calls
        kw = {} if alg == "projection" else {"engine": "jit" if alg.endswith("_compiled") else "numpy"}
        run = fn(dom, losses, u, **kw)
        wall = time.perf_counter() - t0
        frames.append(pd.DataFrame({
            "alg": alg, "replicate": list(reps), "regret": run.regret[:, -1], "oracle_calls": run.oracle_calls,
            "projections": run.projections, "oracle_time": run.oracle_time, "projection_time": run.projection_time,
            "wall_time": wall, "T_batch": run.params["T_batch"], "T_round": run.params["T_round"],
            "dim": dom.dim, "D": dom.D}))
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["domain"], df["n"], df["T"], df["L"], df["noise"] = "cost", dom_name, n, T, L, "none"
    return df


def oco_losses(p: dict, T: int, seed: int) -> np.ndarray:
    """The oblivious linear losses of the NOISYOCO instance: ``l_t = -e_1 + U_t / 2`` with
    U_t uniform on [-1, 1]^n (best vertex +rho e_1); one sequence per (seed, T)."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        seed, spawn_key=stable_key("env21", "noisyoco", "losses", T))))
    n = int(p["n_oco"])
    ell = 0.5 * rng.uniform(-1.0, 1.0, (T, n))
    ell[:, 0] -= 1.0
    return ell


def simulate_noisyoco(p: dict, T: int, reps, seed: int) -> pd.DataFrame:
    """One T of the ``noisyoco`` experiment (Lemma 4.1 on a direct instance); ``"all"``: every T."""
    if T == "all":
        return pd.concat([simulate_noisyoco(p, int(t), reps, seed) for t in p["T_oco"]], ignore_index=True)
    T = int(T)
    dom = L1Ball(int(p["n_oco"]), rho=float(p["rho_oco"]))
    ell = oco_losses(p, T, seed)
    G = float(np.linalg.norm(ell, axis=1).max())
    kappa = float(p["kappa_over_G"]) * G
    frames = []
    # ``oco_replicate_factor`` f: replicate r of the chunk also runs replicates r + k R (k < f,
    # R = the scenario's replicates): f R replicates in all, whatever the chunking
    R_all, f = int(p["replicates"]), int(p.get("oco_replicate_factor", 1))
    reps = [r + k * R_all for k in range(f) for r in reps]
    # the non-learner: NOISYOCO frozen at its start point x_1 = grad omega*(0) = Proj_K(0) (no oracle
    # call, no draw), regret sum_t <l_t, x_1> - min_K <sum_t l_t, x> on the same losses
    x1 = dom.project(np.zeros((1, dom.n)))[0]
    total = ell.sum(axis=0)
    frozen = float(total @ x1 - total @ dom.lmo(total[None])[0])
    for gamma in p["gamma"]:
        gamma = float(gamma)
        bound = bound_lemma4_1(T, kappa, gamma, dom.D_omega)
        frames.append(pd.DataFrame({"alg": NONLEARNER, "replicate": list(reps), "regret": frozen, "gamma": gamma,
                                    "eta": np.nan, "grad_sd": np.nan, "bound": bound, "bound_at_eta": np.nan}))
        T0 = int(min(p["T_oco"]))
        eta_twin = 2.0 * dom.D_omega / (kappa * math.sqrt(T)) * math.sqrt(T0 / T)  # eta ~ 1/T (twin)
        for alg, kw in (("sphere", {}), ("adversarial", {"map_noise": "adversarial"}),
                        ("printed_eta", {"eta": math.sqrt(dom.D_omega) / (kappa * math.sqrt(T))}),
                        ("sphere_eta_over_T", {"eta": eta_twin})):
            run = noisy_oco(dom, ell, env21_streams(seed, reps, "noisyoco", T, gamma), kappa=kappa, gamma=gamma, **kw)
            frames.append(pd.DataFrame({
                "alg": alg, "replicate": list(reps), "regret": run.regret[:, -1], "gamma": gamma, "eta": run.eta,
                "grad_sd": run.grad_sd, "bound": bound,
                "bound_at_eta": bound_lemma4_1(T, kappa, gamma, dom.D_omega, eta=run.eta)}))
    df = pd.concat(frames, ignore_index=True)
    df["kappa"], df["G"], df["map_error"] = kappa, G, df["gamma"]
    tight = tight_noisyoco(p, dom, ell, T, reps, seed)
    df = pd.concat([df, tight], ignore_index=True) if len(tight) else df
    df["experiment"], df["domain"], df["n"], df["T"], df["D_omega"], df["rho"] = \
        "noisyoco", "l1ball", dom.n, T, dom.D_omega, dom.rho
    return df


def tight_noisyoco(p: dict, dom, ell: np.ndarray, T: int, reps, seed: int) -> pd.DataFrame:
    """Lemma 4.1 where its gamma allowance is not slack by construction (``gamma_tight``, ``kappa_over_G_tight``):
    the losses of :func:`oco_losses` scaled to unit norm (``||l_t|| = G = 1`` every step), kappa =
    ``kappa_over_G_tight`` x G (a little gradient noise: ``E||g~||^2 = kappa^2`` exactly) and the adversarial
    NOISYMAP error ``gamma l_t / ||l_t||``, which costs exactly ``T G gamma`` (the bound's ``T kappa gamma``
    up to kappa / G); with ``kappa = 2 G`` (the main rows) that term is 2x slack by construction.  Rows
    ``tight`` (error gamma) and the near miss ``tight_2gamma`` (the same run with the map's error 2 gamma, a
    factor-2 slip in the gamma plugged into the lemma) carry the bound at gamma; same gradient draws (stream
    key ("noisyoco", "tight", T, gamma)), so the two differ only by the error."""
    gammas = [float(g) for g in p.get("gamma_tight", [])]
    if not gammas:
        return pd.DataFrame()
    u = ell / np.linalg.norm(ell, axis=1, keepdims=True)
    G = float(np.linalg.norm(u, axis=1).max())
    kappa = float(p.get("kappa_over_G_tight", 1.1)) * G
    frames = []
    for gamma in gammas:
        bound = bound_lemma4_1(T, kappa, gamma, dom.D_omega)
        for alg, err in (("tight", gamma), ("tight_2gamma", 2.0 * gamma)):
            run = noisy_oco(dom, u, env21_streams(seed, reps, "noisyoco", "tight", T, gamma), kappa=kappa, gamma=err,
                            map_noise="adversarial")
            frames.append(pd.DataFrame({
                "alg": alg, "replicate": list(reps), "regret": run.regret[:, -1], "gamma": gamma, "map_error": err,
                "eta": run.eta, "grad_sd": run.grad_sd, "bound": bound, "bound_at_eta": bound,
                "kappa": kappa, "G": G}))
    return pd.concat(frames, ignore_index=True)


SIMULATE = {"rates": simulate_rates, "n": simulate_n, "eps": simulate_eps, "cost": simulate_cost,
            "noisyoco": simulate_noisyoco}


def points(p: dict) -> dict[str, list]:
    """Every point of every experiment (what the workflow fans out over)."""
    return {
        "rates": ["all"],  # one job: both domains, every T of their grids
        "n": ["all"],  # one job: every dimension (per-dimension jobs paid ~2.5 s of start-up each)
        "eps": ["all"],
        "cost": ["all"],  # one job each: the points take less time than a job's start-up
        "noisyoco": ["all"],
    }


JOBS = "point"  # the workflow runs one job per point and replicate chunk


def experiments(p: dict) -> dict[str, list[str]]:
    """Every experiment's points, as the workflow names them (its generic rules, workflow/rules/papers.smk)."""
    return {e: [f"{pt[0]}:{pt[1]}" if isinstance(pt, tuple) else str(pt) for pt in pts] for e, pts in points(p).items()}


def simulate(experiment: str, p: dict, point, reps, seed: int) -> pd.DataFrame:
    if experiment not in SIMULATE:
        raise ValueError(f"experiment must be one of {EXPERIMENTS}, got {experiment!r}")
    df = SIMULATE[experiment](p, point, reps, seed)
    df["scenario"] = "env21"
    return df


def simulate_all(p: dict, reps, seed: int) -> dict[str, pd.DataFrame]:
    """Every experiment at every point for one chunk of replicates (tests, notebooks)."""
    return {e: pd.concat([simulate(e, p, pt, reps, seed) for pt in pts], ignore_index=True)
            for e, pts in points(p).items()}


def simulate_job(params: dict, wildcards: dict, outputs: list[str]) -> None:
    """The workflow's simulate job (``dpregret.pipeline.jobs``): one point of one experiment, one replicate
    chunk (``point``: "name:value", a name such as "all" or a domain, or an int)."""
    lo, hi = map(int, wildcards["chunk"].split("-"))
    pt = wildcards["point"]
    df = simulate(wildcards["experiment"], params["p"], int(pt) if pt.isdigit() else pt, range(lo, hi), params["seed"])
    df.to_parquet(outputs[0], index=False)
    print(len(df), "rows")

RATES_TABLE = "results/env21/rates.parquet"  # the pipeline's table of the paper's rows (rule env21_merge)


def _paper_rows(tables, p, point):
    """The paper's rows of the user claims' simulation at ``point``: the pipeline's ``rates`` on the simplex."""
    t = tables[RATES_TABLE]
    return t[(t.domain == "simplex") & (t["T"] == int(point))].drop(columns="scenario").reset_index(drop=True)


def _user_claim(cid: str):
    from dpregret.core.contract import PaperOnDoor, UserClaim

    noise = {"ENV-lemma5.2-rate-T": "Laplace noise of Lemma 5.1", "ENV-lemma5.5-rate-T": "Gaussian noise of Lemma 5.4",
             "ENV-thm1.1-rate-T": "Laplace (Lemma 5.1) and Gaussian (Lemma 5.4) noise, the worse of the two"}[cid]

    def decide(runs, p, tol, alpha, rng_for, name):
        from dpregret.papers.env21.rates import rate_T_claims
        return rate_T_claims(runs, p, tol, alpha, rng_for, name=name, claims=(cid,))[cid]

    paper_rows = DOOR_RESERVED
    return UserClaim(
        cid, "env21", "oco_polytope", "make(R, domain, T_round, G)",
        "your learner as the learner of the rounds inside PRIVATEBANDIT's privacy mechanism (one-point estimates, "
        f"batches of T^(1/2) steps, tree aggregation with the {noise}) on the simplex, fed the increments of the "
        "released sums; control: the same mechanism with zeta decaying as T^(-zeta_decay_control_private) instead of "
        "T^(-1/4), with your learner; the loss's minimum is at a vertex of the simplex, so a learner that never "
        "moves from the centre has linear regret (detail.regret_over_frozen_centre: your regret over its, per T)",
        PAPER_LEARNER, "paper (Algorithm 1, Frank-Wolfe)", paper_rows,
        lambda p: [int(T) for T in p["T"]],
        lambda p, point, reps, seed, learners: simulate_rates(p, ("simplex", int(point)), reps, seed,
                                                              learners=_door_learners(learners)),
        decide, door="env21-rates-simplex",
        user_rows=lambda p, point, reps, seed, learners: simulate_rates(
            p, ("simplex", int(point)), reps, seed, learners=_door_learners(learners), paper=False),
        paper_tables=(RATES_TABLE,), paper_rows=_paper_rows,
        paper_on_door=PaperOnDoor(paper_frank_wolfe,
                                  tuple((f"@{r}" if r != "laplace" else "", r) for r in USER_RATE_ROLES),
                                  ("replicate", "noise", "noise_scale", "regret", "best", "T_batch", "T_round", "zeta"),
                                  1e-9))


# the paper's rows of the door's simulation: no learner of yours may take these names
DOOR_RESERVED = ("none", "laplace", "gaussian", "fixed_noise", "none_slow_zeta", "fixed_noise_slow_zeta",
                 "laplace_slow_zeta", "gaussian_slow_zeta", "laplace_fixed_step", "gaussian_fixed_step",
                 "fixed_noise_fixed_step", "offset_losses", "printed_sign", "laplace_sens2", "none_switching",
                 "none_switching_slow_zeta", "printed_sign_switching", NONLEARNER, f"{NONLEARNER}_switching",
                 REFERENCE, "none" + TWIN, "laplace" + TWIN, "gaussian" + TWIN, "fixed_noise" + TWIN,
                 "none_switching" + TWIN, "laplace" + TWIN_UP, "gaussian" + TWIN_UP, "none_interior",
                 f"{NONLEARNER}_interior", "none_interior" + TWIN, "none_interior_slow_zeta")


def _door_learners(learners: dict) -> dict:
    """The door's learners, their names and makes checked before anything runs, with the frozen centre
    beside them (the reference of ``detail.regret_over_frozen_centre``)."""
    from dpregret.core.protocols import SIGNATURES, check_makes

    return {**check_makes(learners, DOOR_RESERVED + (PAPER_LEARNER,), SIGNATURES["oco_polytope"]),
            REFERENCE: FrozenCentre}


def paper_frank_wolfe(p: dict, point, reps, seed: int):
    """Algorithm 1's learner (:class:`FrankWolfeOCO`, Algorithm 1's eta, ``T_batch`` LMO steps a round) in
    ``make(R, domain, T_round, G)``'s signature at the simplex point ``T = int(point)`` of ``rates``, for the door's
    runs of the Laplace and Gaussian rows together (``R = 2 len(reps)``, ``run.learner_rates``).  The door
    does not hand a learner L~_0, the tree's noise-only release before the first round, which the fast
    path's first Frank-Wolfe steps use: this learner gets it out of band (``s0``), drawn from fresh
    streams of the paper's noise keys, so that through the door it plays the fast path's rounds."""
    from dpregret.core.tree import TreeBasedAgg
    from dpregret.papers.env21.learners import noise_draw

    T = int(point)
    dom = make_domain("simplex", p["n_simplex"])
    d, L, delta = dom.dim, float(p["L"]), float(p["delta"])
    scales = [lemma5_noise_scale(k, T, d, L, p[f"eps_rate_{k}"], delta) for k in ("laplace", "gaussian")]
    nz = RowStreams(env21_streams(seed, reps, "rates", "simplex", T, "noise"), 2, scales, ["laplace", "gaussian"])
    s0 = TreeBasedAgg(batch_schedule(T)[1], d, noise_draw("laplace", 1.0, nz, nz.R, d), nz.R).released @ dom.Q.T
    eta, b = algorithm1_parameters(T, d, L, dom.D)[1], batch_schedule(T)[0]
    return lambda R, domain, T_round, G: FrankWolfeOCO(domain, R, eta, b, s0=s0)


# Theorem 1.1 and Lemmas 5.2 / 5.5 (rates in T) hold for any OCO learner of the rounds inside
# PRIVATEBANDIT's privacy mechanism (dpregret.core.contract)
USER_CLAIMS = tuple(_user_claim(c) for c in ("ENV-thm1.1-rate-T", "ENV-lemma5.2-rate-T", "ENV-lemma5.5-rate-T"))
