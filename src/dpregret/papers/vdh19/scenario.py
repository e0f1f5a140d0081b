"""Van der Hoeven (thesis ch. 3; NeurIPS 2019): the runs behind the claims of ``papers.vdh19.claims``.

Section 3.4's two scenarios, as online absolute-loss regression ``l_t(w) = |<x_t, w> - y_t|``
(subgradient ``g_t = sign(<x_t, w_t> - y_t) x_t``, ``||g_t||_2 <= ||x_t||_2 <= 1``, a finite
optimum).  The regret is the linearised one the theorems bound (eq. (3.2.1)),
``R_T(u) = sum_t <g_t, w_t - u>`` with the TRUE subgradient at ``w_t`` (its expectation equals
that of ``sum_t <g~_t, w_t - u>`` since the noise is independent of ``w_t``), for every ``u``
of a grid at once: ``u = f u_ref`` with ``f`` in ``u_frac`` and ``u_ref`` the offline optimum.

Experiments (one tidy table each; one row per algorithm x point x replicate x comparator ``f``):

- ``minority`` (one job per T): wdbc (its first ``d`` principal components, standardised, rows
  scaled to unit l2 norm; labels +-1; optimum ``w*`` by linear programming over the 569 rows,
  which are sampled uniformly each round).  ``ceil(ln T)`` of the T providers privatise their
  subgradient with the l2 randomiser of Sec. 3.2.1 (``rho(z) ∝ exp(-eps/2 ||z||)``, eps =
  ``rate_eps``), the others send it as is.  Placements (``placement``): ``random`` (positions
  uniform among the T rounds), ``adversarial`` (the first ``ceil(ln T)`` rounds), and the
  references ``none`` (nobody privatises) and ``uniform`` (every provider at eps: the
  maximal-privacy counterfactual of Sec. 3.4).  Algorithms: ``alg2`` (Algorithm 2: Algorithm 1
  with the conjugate prior, ``b``, ``G = 1``, for the norm and projected OGD on the unit ball
  for the direction), ``alg3`` (Algorithm 3, ``G_j = 1``), ``adagrad`` (diagonal AdaGrad on ``[-D, D]^d``,
  ``D = D_guess max_j |w*_j|``), ``ogd`` (OGD on the ball of radius ``D_guess ||w*||`` tuned
  to the worst-case noise ``sigma_max^2 = 4 d (d+1)/eps^2``), the non-learner ``frozen``
  (Algorithm 2 with Algorithm 1 frozen at its start ``v = 0``, :class:`~dpregret.papers.vdh19.controls.Frozen`:
  it plays ``w_t = 0``, so its regret is that of every learner frozen at 0, the frozen direction
  learner included, while its direction learner still gives Algorithm 1's feedback ``<z_t, g~_t>``)
  and, for ``T <= printed_T_max``, ``alg2_printed`` (Algorithm 1 evaluating the printed (3.3.4)).
- ``minority_eps``: the same at ``T_eps`` for every eps of ``eps_grid`` (random, adversarial,
  uniform) plus ``none``; ``alg2, alg3, adagrad, ogd`` (the non-learner only in ``minority``: its
  regret does not depend on eps or on who privatises).
- ``minority_n``: the same at ``T_n``, random placement at ``rate_eps``, for every number of
  private providers in ``n_grid`` (0 = none, T = uniform); ``alg2, alg3, adagrad, ogd``.
  Both grids also run ``alg2_quiet`` (the twin of ``VDH-eq3.1.1-privacy-term-rate``: Algorithm 2 with its direction
  learner's step ``(G^2 t)^{-1/2}``, tuned as if no user cared) and ``ogd_quiet`` (its control: OGD on the ball of
  radius ``D_guess ||w*||`` tuned with ``sigma = 0``).
- ``unorm``: synthetic data, ``x_t`` uniform on the unit sphere of R^``d_u``, ``y_t = <x_t,
  u*>`` (optimum ``u*``, loss 0 there), one instance per ``||u*||`` in ``u_grid`` (fixed
  direction), at ``T_u``, random placement, ``rate_eps``: ``alg2``, ``alg2_improper``,
  ``frozen`` (as above: its regret ``||u*|| sum_t |<x_t, e>|`` is exactly linear in ``||u*||``) and
  ``alg2_reach``: Algorithm 2 with Algorithm 1 replaced by OGD with the fixed step ``eta_reach =
  max(u_grid)/(gamma T_u)``, ``gamma = E|<x, e>|`` (it just reaches the largest ``u*`` within
  T_u rounds and pays ``||u*||^2/(2 eta)``, quadratic in ``||u*||``).
- ``sparse`` (one job per T): ``x_t`` with ``s`` of ``d_sparse`` coordinates non-zero (random
  support, entries ``+-1/sqrt(s)``), ``y_t = <x_t, u*>`` with ``u*`` supported on the first
  ``k`` coordinates (entries ``+-u_max``); the local Laplace randomiser of Lemma 4 with
  ``tau_j = tau`` on the ``d_sens`` coordinates from ``sens_first`` (default 0; the presets put them
  off u*'s support: Sec. 3.4's sparse noise with a sparse comparator) and ``tau_j = inf`` elsewhere.
  ``alg3``; ``adagrad`` at ``D = r u_max`` for r in ``D_ratio_grid``; ``adagrad_tuned``
  (``D = u_max``) and the non-learner ``frozen`` (Algorithm 3 frozen at 0).  Per-coordinate
  ``sum_t g~_{t,j}^2`` of the support are kept (``sum_sq_c<j>``) for Theorem 11.

- ``search``: the searched sequences (:func:`simulate_search`): linear losses on R^2 with a deterministic
  mean feedback (the worst sequence of the deterministic 1-D search, and a sequence whose optimum turns
  after the first rounds) and the minority's privacy noise, replicated; decided as points of the bound
  claims beside the runs.

Rotation (config ``rotate``): in the minority experiments each replicate's data is rotated by its own
Haar rotation (:func:`rotations`), so the optimum's direction is drawn per replicate.  Mis-tuned twins
(``TWINS``): ``alg2_step`` (minority, search), ``alg2_gnoise`` (search; unorm with config ``unorm_twin``),
``alg3_gnoise`` (sparse, search), ``alg2_overbet`` and ``alg3_overbet`` (search), on the same draws as the paper's
learners.

Your own learner (this module's ``USER_CLAIMS``, :mod:`dpregret.core.contract`): an OCO learner
``make(R, d, r)`` goes in Algorithm 2's black-box slot, the direction learner ``A_Z`` on the unit
ball (``r = 1``; :class:`DirectionSlot`, :func:`reduction_with`), with Algorithm 1 learning
the norm as in ``alg2``: Lemma 9 splits the regret into Algorithm 1's and ``||u|| R^Z``, and the
privacy cost of Sec. 3.4 is claimed for the reduction with any ``A_Z`` whose regret adapts to
``sum_t ||g~_t||^2``.  Its rows (``alg`` = its name, every placement) run in
:func:`simulate_minority` beside ``alg2`` on the same draws and are decided by
``VDH-sec3.4-minority-cost-rate-T`` (and ``-adversarial``) with the uniform-privacy control.

Streams: the data key is (scenario, data, T, "data"), the noise key (..., "noise"), the
private positions (..., "positions"); never the algorithm, eps or placement.  Each round one
noise vector is drawn per replicate with the randomiser at eps = 1 (resp. at ``tau``) and
scaled by 1/eps (the l2 randomiser's noise is exactly proportional to 1/eps) for every
variant and algorithm, so all of them see the same data and noise draws (common random
numbers), and the ``minority_eps``/``minority_n`` runs share their draws with the ``minority``
run of the same T.  Replicates are given as a range; results do not depend on the chunking.

Layout: the instances are built in :mod:`dpregret.core.environments.absolute_loss`, the controls are
:mod:`dpregret.papers.vdh19.controls`, and the rounds run in :mod:`dpregret.papers.vdh19.run`.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dpregret.core import validate as V
from dpregret.core.environments.absolute_loss import fixed_direction, sphere_abs_mean, wdbc_problem
from dpregret.core.protocols import SIGNATURES, build_learner, check_makes, check_play
from dpregret.papers.vdh19 import learners as vdh
from dpregret.papers.vdh19.bounds import l2_noise_second_moment  # noqa: F401  (the scenario's name for it too)
from dpregret.papers.vdh19.controls import (FixedStepOGD, Frozen, LazySparsePotential, PrintedRule, QuietStepOGDBall,
                                            StepPowerOGDBall, noise_folded_G)
from dpregret.core.mechanisms import l2_laplace_randomiser, local_laplace_randomiser
from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.papers.vdh19.run import Grouped, Masks, tidy_rows, run_learners

EXPERIMENTS = ("minority", "minority_eps", "minority_n", "unorm", "sparse", "search")
PLACEMENTS = ("none", "random", "adversarial", "uniform")
# The paper's rows of every experiment: no learner of yours may take these names (:func:`reduction_with`).
PAPER_ALGS = ("alg2", "alg3", "adagrad", "ogd", "frozen", "alg2_printed", "alg2_improper", "alg2_reach",
              "adagrad_tuned", "alg2_step", "alg2_gnoise", "alg3_gnoise", "alg2_quiet", "ogd_quiet", "alg2_overbet",
              "alg3_overbet")
# The mis-tuned twins (one realistic tuning mistake each, on the paper's draws): Algorithm 2 with its
# direction learner's step one power off (controls.StepPowerOGDBall), Algorithm 2 / 3 with the privacy
# noise's second moment folded into G (controls.noise_folded_G: bets too small), Algorithm 2 with its direction
# learner's step tuned as if no user cared about privacy (controls.QuietStepOGDBall), Algorithm 2 / 3 with Lemma 7's
# 5 dropped from the prior's support, C = 1/G instead of 1/(5G) (G / 5 passed as G: bets up to five times too large).
TWINS = ("alg2_step", "alg2_gnoise", "alg3_gnoise", "alg2_quiet", "alg2_overbet", "alg3_overbet")


def _streams(seed, reps, *key):
    return ReplicateStreams(seed, stable_key("vdh19", *key), reps)


def n_private(T: int) -> int:
    """Sec. 3.4: ``ceil(ln T)`` providers care for their privacy."""
    return int(math.ceil(math.log(T)))


def frozen_reduction(d, batch, b=1.0):
    """The non-learner of the minority and unorm experiments: Algorithm 2 with Algorithm 1 frozen
    at ``v = 0`` (module docstring)."""
    lr = vdh.BlackBoxReduction(1.0, d, batch=batch, b=b)
    lr.magnitude = Frozen(batch)
    return lr


def _minority_learners(p, T, d, variants, w_star, algs):
    R_shape = (len(variants), p["_R"])
    b, G = p.get("b", 1.0), 1.0
    out = {}
    if "alg2" in algs:
        out["alg2"] = (vdh.BlackBoxReduction(G, d, batch=R_shape, b=b), "alg2")
    if "alg3" in algs:
        out["alg3"] = (vdh.SparsePotential(G, d, batch=R_shape, b=b), "coords")
    if "adagrad" in algs:
        out["adagrad"] = (vdh.DiagonalAdaGrad(p["D_guess"] * float(np.abs(w_star).max()), d, batch=R_shape), "vec")
    if "ogd" in algs:
        sig = [math.sqrt(l2_noise_second_moment(d, v["eps"])) if v["n"] > 0 else 0.0 for v in variants]
        D = p["D_guess"] * float(np.linalg.norm(w_star))
        out["ogd"] = (Grouped(sig, lambda s, n: vdh.NoiseTunedOGD(D, T, G, s, d, batch=(n, p["_R"]))), "vec")
    if "frozen" in algs:
        out["frozen"] = (frozen_reduction(d, R_shape, b), "alg2")
    if "alg2_step" in algs:
        out["alg2_step"] = (vdh.BlackBoxReduction(G, d, batch=R_shape, b=b,
                                                  direction=StepPowerOGDBall(d, batch=R_shape)),
                            "alg2")
    if "alg2_quiet" in algs:
        out["alg2_quiet"] = (vdh.BlackBoxReduction(G, d, batch=R_shape, b=b,
                                                   direction=QuietStepOGDBall(d, batch=R_shape, G=G)), "alg2")
    if "ogd_quiet" in algs:  # the near-miss control of VDH-eq3.1.1-privacy-term-rate: OGD tuned with sigma = 0
        D = p["D_guess"] * float(np.linalg.norm(w_star))
        out["ogd_quiet"] = (vdh.NoiseTunedOGD(D, T, G, 0.0, d, batch=R_shape), "vec")
    if "alg2_printed" in algs:
        lr = vdh.BlackBoxReduction(G, d, batch=R_shape, b=b)
        lr.magnitude = PrintedRule(G, b=b, shape=R_shape)
        out["alg2_printed"] = (lr, "alg2")
    return out


def _minority_run(p, experiment, T, variants, reps, seed, algs, users=None) -> pd.DataFrame:
    d = p["d"]
    A, y_all, w_star = wdbc_problem(d)
    reps = list(reps)
    R, n = len(reps), A.shape[0]
    Q = rotations(seed, reps, d, "minority", "wdbc", T) if p.get("rotate", False) else None
    p = dict(p, _R=R)
    data = _streams(seed, reps, "minority", "wdbc", d, T, "data")
    nsrc = _streams(seed, reps, "minority", "wdbc", d, T, "noise")
    masks = Masks(variants, T, R, _streams(seed, reps, "minority", "wdbc", d, T, "positions"))
    scale = np.array([1.0 / v["eps"] if v["n"] > 0 else 0.0 for v in variants])
    zeros = np.zeros((R, d))

    def draw():
        idx = np.minimum((data.uniform(()) * n).astype(np.int64), n - 1)
        return (A[idx] if Q is None else np.einsum("rij,rj->ri", Q, A[idx])), y_all[idx]

    if users:  # names and makes checked before anything runs (dpregret.core.protocols)
        users = check_makes(users, PAPER_ALGS, SIGNATURES["oco"])
    learners = _minority_learners(p, T, d, variants, w_star, algs)
    built: list = []
    for name, make in (users or {}).items():  # after the paper's: they do not move its draws or rows
        learners[name] = (reduction_with(make, d, (len(variants), R), p.get("b", 1.0), name=name, built=built), "alg2")
    acc = run_learners(T, R, d, draw, lambda: l2_laplace_randomiser(zeros, 1.0, nsrc), scale, masks, learners)
    if Q is not None:  # replicate r's optimum is Q_r w*: <sum g, Q_r w*> = <Q_r' sum g, w*>
        for a in acc.values():
            a["gsum"] = np.einsum("rij,vri->vrj", Q, a["gsum"])
    extra = {"alg2_printed": learners["alg2_printed"][0].magnitude.failed} if "alg2_printed" in learners else None
    vv = [{"placement": v["placement"], "eps": v["eps"] if v["n"] > 0 else math.inf,
           "n_private": v["n"]} for v in variants]
    df = tidy_rows(acc, vv, w_star[None, :], p["u_frac"], reps, {}, extra)
    df["experiment"], df["data"], df["T"], df["d"] = experiment, "wdbc", T, d
    return df


def rotations(seed, reps, d: int, *key) -> np.ndarray:
    """(R, d, d): per replicate a rotation drawn uniformly (Haar: QR of a standard normal matrix, signs
    fixed by R's diagonal) from its own keyed stream (``key`` + ``"rotation"``; no other stream moves).
    The minority runs play replicate r's data rotated, ``x -> Q_r x`` (``y`` unchanged, optimum
    ``Q_r w*``): the optimum's direction is drawn per replicate, so no fixed direction is optimal by
    luck (wdbc's optimum lies near its first principal axis).  Algorithm 2, the noise-tuned OGD and the
    learner frozen at 0 are rotation-equivariant (the l2 randomiser is isotropic): their regret has the
    same law as without rotation; Algorithm 3 and AdaGrad, coordinate-wise, see a rotated problem."""
    M = _streams(seed, reps, *key, "rotation").normal((d, d))
    Q, Rm = np.linalg.qr(M)
    return Q * np.sign(np.einsum("rii->ri", Rm))[:, None, :]


def placement_variant(placement, eps, n):
    """One variant of the minority experiment: who privatises (``placement``), at ``eps``, ``n`` of them."""
    return {"placement": placement, "eps": V.positive("eps", eps), "n": int(n)}


def simulate_minority(p: dict, T: int, reps, seed: int, learners: dict | None = None,
                      paper_algs: tuple[str, ...] | None = None) -> pd.DataFrame:
    """The privacy-caring minority at one T (wdbc), placements none/random/adversarial/uniform.

    ``learners``: ``{name: make}`` of direction learners (``dpregret.core.protocols`` setting
    ``oco``; ``make(R, d, r)`` builds one for ``R`` rows on the ball of radius ``r = 1``), each
    run as Algorithm 2's ``A_Z`` (:func:`reduction_with`) beside the paper's learners, on the
    same data, positions and noise draws; its rows are ``alg = name`` at every placement, like
    ``alg2``'s.  ``paper_algs`` limits the paper's learners run (default: all); neither changes
    the paper's rows that are run (``tests/test_door.py``)."""
    T = V.integer("T", T, minimum=2)
    eps, k = p["rate_eps"], n_private(T)
    variants = [placement_variant("none", eps, 0), placement_variant("random", eps, k),
                placement_variant("adversarial", eps, k),
                placement_variant("uniform", eps, T)]
    algs = ["alg2", "alg3", "adagrad", "ogd", "frozen", "alg2_step"]
    if T <= p.get("printed_T_max", 0):
        algs.append("alg2_printed")
    if paper_algs is not None:
        algs = [a for a in algs if a in paper_algs]
    return _minority_run(p, "minority", T, variants, reps, seed, algs, learners)


# VDH-eq3.1.1-privacy-term-rate's rows on the eps and n grids (same draws as alg2): its twin (Algorithm 2 with the
# direction learner's step tuned as if no user cared) and its near-miss control (OGD tuned with sigma = 0).
SIGMA_ALGS = ("alg2_quiet", "ogd_quiet")


def simulate_minority_eps(p: dict, reps, seed: int) -> pd.DataFrame:
    """Every eps of ``eps_grid`` at ``T_eps``: random and uniform placements, and none."""
    T = V.integer("T_eps", p["T_eps"], minimum=2)
    k = n_private(T)
    variants = [placement_variant("none", p["rate_eps"], 0)]
    for e in p["eps_grid"]:
        variants += [placement_variant("random", e, k), placement_variant("uniform", e, T)]
    return _minority_run(p, "minority_eps", T, variants, reps, seed, ["alg2", "alg3", "adagrad", "ogd", *SIGMA_ALGS])


def simulate_minority_n(p: dict, reps, seed: int) -> pd.DataFrame:
    """Every number of private providers in ``n_grid`` at ``T_n`` (random positions, ``rate_eps``)."""
    T = V.integer("T_n", p["T_n"], minimum=2)
    ns = sorted({min(int(n), T) for n in p["n_grid"]})
    variants = [placement_variant("none" if n == 0 else ("uniform" if n == T else "random"),
                                  p["rate_eps"], n) for n in ns]
    return _minority_run(p, "minority_n", T, variants, reps, seed, ["alg2", "alg3", "adagrad", "ogd", *SIGMA_ALGS])


def simulate_unorm(p: dict, reps, seed: int) -> pd.DataFrame:
    """Synthetic instances with ``||u*||`` in ``u_grid`` at ``T_u`` (random minority at ``rate_eps``)."""
    T, d = V.integer("T_u", p["T_u"], minimum=2), V.integer("d_u", p["d_u"])
    reps = list(reps)
    R, eps, k = len(reps), p["rate_eps"], n_private(T)
    U = np.array([V.positive("u_grid[i]", u) for u in p["u_grid"]])
    u_star = U[:, None] * fixed_direction(d)[None, :]  # (V, d)
    variants = [placement_variant("random", eps, k) for _ in U]
    eta = float(U.max() / (sphere_abs_mean(d) * T))
    data = _streams(seed, reps, "unorm", "sphere", d, T, "data")
    nsrc = _streams(seed, reps, "unorm", "sphere", d, T, "noise")
    masks = Masks(variants, T, R, _streams(seed, reps, "unorm", "sphere", d, T, "positions"))
    scale = np.full(len(U), 1.0 / eps)
    zeros = np.zeros((R, d))

    def draw_xy():
        x = data.normal((d,))
        x /= np.linalg.norm(x, axis=1, keepdims=True)
        return x, np.einsum("rd,vd->vr", x, u_star)

    shape = (len(U), R)
    learners = {"alg2": (vdh.BlackBoxReduction(1.0, d, batch=shape, b=p.get("b", 1.0)), "alg2"),
                "alg2_improper": (vdh.BlackBoxReduction(1.0, d, batch=shape, prior="improper"), "alg2"),
                "frozen": (frozen_reduction(d, shape, p.get("b", 1.0)), "alg2")}
    # the twin alg2_gnoise (claims.TWIN_GNOISE): off by default (claims.UNORM_TWIN_BLIND)
    if p.get("unorm_twin", False):
        learners["alg2_gnoise"] = (vdh.BlackBoxReduction(noise_folded_G(1.0,
                                                                        l2_noise_second_moment(d, eps)), d, batch=shape,
                                                         b=p.get("b", 1.0)), "alg2")
    fx = vdh.BlackBoxReduction(1.0, d, batch=shape, b=p.get("b", 1.0))
    fx.magnitude = FixedStepOGD(eta, shape)
    learners["alg2_reach"] = (fx, "alg2")
    acc = run_learners(T, R, d, draw_xy, lambda: l2_laplace_randomiser(zeros, 1.0, nsrc), scale, masks, learners)
    vv = [{"placement": "random", "eps": eps, "n_private": k} for _ in U]
    df = tidy_rows(acc, vv, u_star, p["u_frac"], reps, {})
    df["eta"] = np.where(df.alg == "alg2_reach", eta, np.nan)
    df["experiment"], df["data"], df["T"], df["d"] = "unorm", "synthetic", T, d
    return df


def simulate_sparse(p: dict, T: int, reps, seed: int) -> pd.DataFrame:
    """Sec. 3.4's second scenario at one T (see the module docstring)."""
    T = V.integer("T", T, minimum=2)
    d, s, k = V.integer("d_sparse", p["d_sparse"]), V.integer("s", p["s"]), V.integer("k", p["k"])
    d_sens, tau, u_max = V.integer("d_sens", p["d_sens"],
                                   minimum=0), V.positive("tau", p["tau"]), V.positive("u_max", p["u_max"])
    if s > d or k > d or d_sens > d:
        raise ValueError(f"s, k and d_sens must be <= d_sparse = {d}, got s={s}, k={k}, d_sens={d_sens}")
    reps = list(reps)
    R = len(reps)
    u_star = np.zeros(d)
    u_star[:k] = u_max * (-1.0) ** np.arange(k)
    first = V.integer("sens_first", p.get("sens_first", 0), minimum=0)
    if first + d_sens > d:
        raise ValueError(f"sens_first + d_sens must be <= d_sparse = {d}, got {first} + {d_sens}")
    j = np.arange(d)
    taus = np.where((j >= first) & (j < first + d_sens), tau, np.inf)
    data = _streams(seed, reps, "sparse", d, s, k, T, "data")
    nsrc = _streams(seed, reps, "sparse", d, s, k, T, "noise")
    zeros = np.zeros((R, d))
    inv = 1.0 / math.sqrt(s)

    def draw_xy():
        sup = np.argsort(data.uniform((d,)), axis=1, kind="stable")[:, :s]
        sgn = np.where(data.uniform((s,)) < 0.5, -1.0, 1.0)
        x = np.zeros((R, d))
        np.put_along_axis(x, sup, sgn * inv, axis=1)
        return x, x @ u_star

    ratios = [float(r) for r in p["D_ratio_grid"]]
    learners = {"alg3": (LazySparsePotential(1.0, d, batch=(1, R), b=p.get("b", 1.0)), "coords")}
    for r in ratios:
        learners[f"adagrad@{r!r}"] = (vdh.DiagonalAdaGrad(r * u_max, d, batch=(1, R)), "vec")
    learners["adagrad_tuned"] = (vdh.DiagonalAdaGrad(u_max, d, batch=(1, R)), "vec")
    learners["alg3_gnoise"] = (LazySparsePotential(
        noise_folded_G(1.0, float(vdh.laplace_noise_second_moment(np.array([tau]))[0])), d,
        batch=(1, R), b=p.get("b", 1.0)), "coords")
    learners["frozen"] = (Frozen((1, R, d)), "coords")
    everyone = np.ones((1, R), dtype=bool)
    acc = run_learners(T, R, d, draw_xy, lambda: local_laplace_randomiser(zeros, taus, nsrc), np.ones(1),
                       lambda t: everyone, learners)
    frames = []
    for name, a in acc.items():
        alg, _, r = name.partition("@")
        df = tidy_rows({alg: a}, [{}], u_star[None, :], p["u_frac"], reps, {})
        df["D_ratio"] = float(r) if r else (1.0 if alg == "adagrad_tuned" else np.nan)
        if "S_c" in a:
            for j in range(k):
                df[f"sum_sq_c{j}"] = np.tile(a["S_c"][0, :, j], len(p["u_frac"]))
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df["u_norm"] = df["u_frac"] * u_max  # max_j |u_j| (the l_inf norm AdaGrad's D is compared with)
    df["experiment"], df["data"], df["T"], df["d"], df["s"], df["k"], df["tau"], df["d_sens"] = (
        "sparse", "sparse_synthetic", T, d, s, k, tau, d_sens)
    return df


# --- the searched sequences (decided points of the bounds, with replicates) ----------------------------
# Linear losses <g_t, w> on R^2 with a deterministic mean g_t (||g_t|| <= G, so |E g~_t| <= G) and the
# privacy noise of the minority: ceil(ln T) providers (random positions, keyed stream) send g_t + G xi_t,
# xi_t the l2 randomiser at rate_eps (its sensitivity scaled by G).  The sequences:
# - "drift": G = 0.05, g_t = (-0.3 G + 0.7 G (-1)^t) e_1: the worst case of the deterministic 1-D search
#   (bounds.worst_case_search: ratio 0.64 for Theorem 10's proof constants, 0.57 for eq. (3.3.5), at
#   t ~ 1000 and |u| ~ 1e9-1e10): a drift masked by alternation;
# - "turn": G = 1, the same drift masked by alternation along e_1 for t <= turn_at, then along e_2: an
#   optimum that turns after the first
#   rounds, so a direction learner that freezes early pays ~ ||u|| per round (Algorithm 2's R^Z).
# - "shock": G = 1, a slow drift g_t = -0.1 G e_1 for t < T - SHOCK_ROUNDS, then g_t = +G e_1: the adversary of
#   over-betting. Under the drift Algorithm 1's posterior mean of v sits at its support's edge C while its
#   potential grows as exp(0.1 G C t); at the shock |v g| = C G, which is 1/5 with the paper's C = 1/(5G) (Lemma 7's
#   premise: a fifth of the wealth lost per shock round) and 1 with the 5 dropped (the whole wealth lost per round).
#   Nobody privatises on it (placement "none", sigma_t = 0, within every theorem's assumptions): one noisy round
#   under the drift moves the over-betting learner's log-wealth by C |xi| ~ 5, so its regret would be a heavy-tailed
#   mean no interval over 32 replicates decides, where the deterministic sequence decides it exactly.
# Comparators u = s e, e the optimum's direction over the whole horizon, s in search_u.
SEARCH_SEQUENCES = {"drift": 0.05, "turn": 1.0, "shock": 1.0}  # name -> G
SEARCH_D = 2
SHOCK_ROUNDS = 3
SEARCH_PLACEMENT = {"shock": "none"}  # name -> who privatises (default: the minority at random rounds)


def search_mean(name: str, T: int, turn_at: int) -> np.ndarray:
    """(T, 2): the deterministic mean feedback of searched sequence ``name`` (see above)."""
    G, t = SEARCH_SEQUENCES[name], np.arange(T)
    m = np.zeros((T, SEARCH_D))
    a = -0.3 * G + 0.7 * G * (-1.0) ** t  # a drift masked by alternation (a constant one overflows float64 by t ~ 4e3)
    if name == "drift":
        m[:, 0] = a
    elif name == "shock":
        m[:, 0] = np.where(t < T - SHOCK_ROUNDS, -0.1 * G, G)
    else:
        m[t < turn_at, 0] = a[t < turn_at]
        m[t >= turn_at, 1] = a[t >= turn_at]
    return m


def simulate_search(p: dict, reps, seed: int) -> pd.DataFrame:
    """The searched sequences (above) at the checkpoints ``T_search`` (one run to the largest): rows
    ``alg2``, ``frozen`` (Algorithm 2 with Algorithm 1 frozen at 0), the twins ``alg2_step`` and
    ``alg2_gnoise``, ``alg3`` and its twin ``alg3_gnoise``; per row the regret at ``u = s e``, Algorithm 2's
    magnitude regret at ``|u| = s`` and the sums of squares of the feedback (per coordinate too).  Linear
    losses: the feedback does not depend on the plays, so every learner sees the same g~ (common draws)."""
    Ts = sorted(int(t) for t in p["T_search"])
    T, d, eps = Ts[-1], SEARCH_D, p["rate_eps"]
    reps = list(reps)
    R, k = len(reps), n_private(T)
    names = list(SEARCH_SEQUENCES)
    Gs = np.array([SEARCH_SEQUENCES[n] for n in names])
    Vn = len(names)
    turn_at = int(p.get("turn_at", 100))
    means = np.stack([search_mean(n, T, turn_at) for n in names])  # (V, T, d)
    nsrc = _streams(seed, reps, "search", d, T, "noise")
    placements = [SEARCH_PLACEMENT.get(n, "random") for n in names]
    masks = Masks([placement_variant(pl, eps, k) for pl in placements], T, R,
                  _streams(seed, reps, "search", d, T, "positions"))
    zeros = np.zeros((R, d))
    b, shape = p.get("b", 1.0), (Vn, R)
    Gc = Gs[:, None]
    sig2 = l2_noise_second_moment(d, eps)
    learners = {"alg2": vdh.BlackBoxReduction(Gc, d, batch=shape, b=b), "frozen": frozen_reduction(d, shape, b),
                "alg2_step": vdh.BlackBoxReduction(Gc, d, batch=shape, b=b, direction=StepPowerOGDBall(d, batch=shape)),
                "alg2_gnoise": vdh.BlackBoxReduction(Gc * noise_folded_G(1.0, sig2), d, batch=shape, b=b),
                "alg2_overbet": vdh.BlackBoxReduction(Gc / 5.0, d, batch=shape, b=b),
                "alg3": vdh.SparsePotential(Gc[..., None], d, batch=shape, b=b),
                "alg3_gnoise": vdh.SparsePotential(Gc[..., None] * noise_folded_G(1.0, sig2), d, batch=shape, b=b),
                "alg3_overbet": vdh.SparsePotential(Gc[..., None] / 5.0, d, batch=shape, b=b)}
    acc = {n: {"lin": np.zeros(shape), "zg": np.zeros(shape), "S_mag": np.zeros(shape)} for n in learners}
    gsum, S, S_c = np.zeros((Vn, R, d)), np.zeros(shape), np.zeros((Vn, R, d))
    snaps = {}
    for t in range(T):
        g = np.broadcast_to(means[:, t, None, :], (Vn, R, d))
        xi = l2_laplace_randomiser(zeros, 1.0, nsrc) / eps
        gt = g + (masks(t) * Gs[:, None])[..., None] * xi[None]
        for n, lr in learners.items():
            a = acc[n]
            if n.startswith("alg3"):
                w = lr.predict()
            else:
                z = lr.direction.predict()
                w = lr.predict()
                zgt = np.einsum("vrd,vrd->vr", z, gt)
                a["zg"] += np.einsum("vrd,vrd->vr", z, g)
                a["S_mag"] += zgt * zgt
            a["lin"] += np.einsum("vrd,vrd->vr", g, w)
            lr.update(gt)
        gsum += g
        S += np.einsum("vrd,vrd->vr", gt, gt)
        S_c += gt * gt
        if t + 1 in Ts:
            snaps[t + 1] = ({n: {k_: v.copy() for k_, v in a.items()} for n, a in acc.items()}, gsum.copy(),
                            S.copy(), S_c.copy())
    e = -means.sum(axis=1)
    e /= np.linalg.norm(e, axis=1, keepdims=True)  # (V, d): the optimum's direction over the horizon
    frames = []
    for Tc, (ac, gs, Sv, Sc) in snaps.items():
        gdot = np.einsum("vrd,vd->vr", gs, e)
        for n, a in ac.items():
            for i, name in enumerate(names):
                for s in p["search_u"]:
                    s = float(s)
                    df = {"alg": n, "replicate": reps, "sequence": name, "placement": placements[i], "G": Gs[i],
                          "T": Tc, "u_frac": s, "u_norm": s,
                          "u_star_norm": np.nan, "regret": a["lin"][i] - s * gdot[i], "sum_sq": Sv[i],
                          "mag_regret": (a["lin"][i] - s * a["zg"][i]) if not n.startswith("alg3") else np.nan,
                          "mag_sum_sq": a["S_mag"][i] if not n.startswith("alg3") else np.nan}
                    df |= {f"sum_sq_c{j}": Sc[i, :, j] for j in range(d)}
                    df |= {f"u_c{j}": s * e[i, j] for j in range(d)}
                    frames.append(pd.DataFrame(df))
    df = pd.concat(frames, ignore_index=True)
    df["eps"] = eps
    df["n_private"] = np.where(df["placement"] == "none", 0, k)
    df["experiment"], df["data"], df["d"] = "search", "searched", d
    return df


JOBS = "experiment"  # the workflow runs every point and chunk of one experiment in one job (one start-up)


def experiments(p: dict) -> dict[str, list[str]]:
    """Every experiment's points, as the workflow names them (its generic rules, workflow/rules/papers.smk)."""
    return {"minority": [f"T{T}" for T in p["T"]], "minority_eps": ["all"], "minority_n": ["all"], "unorm": ["all"],
            "sparse": [f"T{T}" for T in p["T_sparse"]], "search": ["all"]}


def simulate_job(params: dict, wildcards: dict, outputs: list[str]) -> None:
    """The workflow's simulate job (``dpregret.pipeline.jobs``): points (``T<value>`` or ``all``) and replicate
    chunks of one experiment, each output ``results/vdh19/{experiment}/{point}/chunk{lo-hi}.parquet``
    its own independent call (one job per experiment: the same numbers, one start-up)."""
    import re

    p, seed = params["p"], params["seed"]
    for path in outputs:
        e, point, lo, hi = re.search(r"vdh19/(\w+)/(T\d+|all)/chunk(\d+)-(\d+)\.parquet$", path).groups()
        reps = range(int(lo), int(hi))
        fn = {"minority": simulate_minority, "sparse": simulate_sparse, "minority_eps": simulate_minority_eps,
              "minority_n": simulate_minority_n, "unorm": simulate_unorm, "search": simulate_search}[e]
        df = fn(p, int(point[1:]), reps, seed) if e in ("minority", "sparse") else fn(p, reps, seed)
        df["scenario"] = "vdh19"
        df.to_parquet(path, index=False)
        print(path, len(df), "rows")


# ------------------------------------------------------------------------------ your own learner
# Sec. 3.4's privacy cost of a minority holds for Algorithm 2 with any direction learner whose
# regret adapts to sum_t ||g~_t||^2 (Lemma 9, eq. (3.3.5)): your learner goes in that slot
# (:class:`DirectionSlot`, :func:`reduction_with`), run by :func:`simulate_minority` beside ``alg2``
# and the non-learner ``frozen`` on the same draws, decided by :data:`USER_CLAIMS`.

class DirectionSlot:
    """An OCO learner (yours) as Algorithm 2's direction learner ``A_Z`` (Sec. 3.3.1): built once
    by ``make(n, d, 1.0)`` for the ``n = prod(batch)`` rows of the reduction's batch (variant
    major, then replicate), it plays ``z_t`` in the unit ball and receives the privatised
    ``g~_t`` (line 5 of Algorithm 2).  ``predict()`` is asked once per round (cached until
    ``update``) and its play is checked: shape ``(n, d)``, finite, ``||z_t||_2 <= 1`` (the domain
    ``Z`` that Lemma 9 needs; a play outside it is an error, never projected for the learner)."""

    def __init__(self, make, d: int, batch: tuple[int, ...], name: str = "user", built: list | None = None):
        self.batch, self.d, self.name = tuple(batch), int(d), name
        self.n = int(np.prod(self.batch))
        self.learner = build_learner(make, name, (self.n, self.d, 1.0), SIGNATURES["oco"], "g", built)
        self._z = None

    def predict(self) -> np.ndarray:
        if self._z is None:
            z = np.asarray(self.learner.predict(), dtype=float)
            try:
                check_play("oco", z, self.n, self.d)
            except ValueError as err:
                raise ValueError(f"learner {self.name!r}: {err}") from None
            if np.any(np.linalg.norm(z, axis=1) > 1.0 + 1e-9):
                raise ValueError(f"learner {self.name!r}: a direction learner of Algorithm 2 must lie in the unit ball "
                                 f"(make(R, d, r) is called with r = 1), got ||z|| up to "
                                 f"{np.linalg.norm(z, axis=1).max():.4g}")
            self._z = z.reshape(*self.batch, self.d)
        return self._z.copy()

    def update(self, g) -> None:
        self.learner.update(np.asarray(g, dtype=float).reshape(self.n, self.d))
        self._z = None


def reduction_with(make, d: int, batch: tuple[int, ...], b: float = 1.0, name: str = "user",
                   built: list | None = None) -> vdh.BlackBoxReduction:
    """Algorithm 2 exactly as the paper's ``alg2`` (Algorithm 1 with the conjugate prior, ``b``,
    ``G = 1``, for the norm) with the learner ``name`` built by ``make`` as the direction learner (``built``:
    the learners already built for this point, so a make returning one object twice is an error)."""
    return vdh.BlackBoxReduction(1.0, d, batch=batch, b=b, direction=DirectionSlot(make, d, batch, name, built))


MINORITY_TABLE = "results/vdh19/minority.parquet"  # the pipeline's table of the paper's rows (rule vdh19_merge)


def _paper_rows(tables, p, point):
    """The paper's rows of the user claims' simulation at ``point``: ``alg2`` and the frozen learner in the pipeline's
    minority runs."""
    t = tables[MINORITY_TABLE]
    return t[(t["T"] == int(point)) & (t.alg.isin(("alg2", "frozen")))].drop(columns="scenario").reset_index(drop=True)


def _user_claim(placement: str):
    from dpregret.core.contract import PaperOnDoor, UserClaim

    cid = "VDH-sec3.4-minority-cost-rate-T" + ("" if placement == "random" else f"-{placement}")

    def decide(runs, p, tol, alpha, rng_for, name):
        from dpregret.papers.vdh19.claims import minority_cost_claim
        return minority_cost_claim(runs, placement, tol, alpha, rng_for, cid, alg=name)

    return UserClaim(
        cid, "vdh19", "oco", "make(R, d, r)",
        "your learner as the direction learner A_Z of Algorithm 2 (on the unit ball, r = 1, fed the privatised "
        "subgradients; Algorithm 1 learns the norm), wdbc absolute-loss regression, ceil(ln T) providers with the "
        f"l2 randomiser at rate_eps ({placement} positions); cost = regret at u = w* minus the same run's without "
        "noise (paired); learning gate: your learner's own regret without noise on the same run has slope in T <= 0.75 "
        "and R_T(w*) at the largest T <= half that of the learner frozen at 0 (a direction learner that never moves "
        "has cost 0 and fails it); control: the same reduction with your learner when every provider privatises at "
        "rate_eps",
        "alg2", "paper (Algorithm 2, projected OGD direction)", PAPER_ALGS,
        lambda p: list(p["T"]),
        lambda p, point, reps, seed, learners: simulate_minority(p, int(point), reps, seed, learners=learners,
                                                                 paper_algs=("alg2", "frozen")),
        decide, door="vdh19-minority",
        user_rows=lambda p, point, reps, seed, learners: simulate_minority(p, int(point), reps, seed,
                                                                           learners=learners, paper_algs=()),
        paper_tables=(MINORITY_TABLE,), paper_rows=_paper_rows,
        paper_on_door=PaperOnDoor(lambda p, point, reps, seed: paper_direction, (("", "alg2"),), MINORITY_COLUMNS),
        nonlearner_left_out=("oco: the scenario's own check already runs the learner frozen at 0 on the same draws as "
                             "this claim's non-learner control (rows alg = frozen, on the learning gate); the door's "
                             "copy was only reported beside it, at 22 s of job CPU on the default run of 2026-11-26 "
                             "for both placements (one job)") if placement == "random" else
                            "oco: as VDH-sec3.4-minority-cost-rate-T (the same job)")


MINORITY_COLUMNS = ("replicate", "u_frac", "u_norm", "u_star_norm", "regret", "sum_sq", "sum_sq_true", "mag_regret",
                    "mag_sum_sq", "mag_sum_sq_true", "placement", "eps", "n_private", "experiment", "data", "T", "d")
# (every column of the minority rows but ``alg``: the door reproduces alg2's rows to the last bit)


def paper_direction(R: int, d: int, r: float):
    """The paper's direction learner A_Z in ``make(R, d, r)``'s signature: projected OGD on the unit
    ball with eta_t = (sum ||g~||^2)^(-1/2), as ``alg2`` builds it."""
    return vdh.ProjectedOGDBall(d, batch=(R,))


USER_CLAIMS = (_user_claim("random"), _user_claim("adversarial"))
