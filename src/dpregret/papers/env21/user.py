"""Ene, Nguyen, Vladu (AAAI 2021) with your own learner: the section "your own learner" of
``papers.env21.scenario``, found by ``scenarios.contract.user_claims`` (``USER_CLAIMS``).

Theorem 1.1 / Lemmas 5.2 and 5.5 (sections 3 and 5; Lemma 3.1's proof, Appendix C) hold for
PRIVATEBANDIT's privacy mechanism around a learner of the rounds: one-point estimates at
x~ + zeta u_t (u_t uniform on the sphere of the hull's direction space), batches of
T_batch = ceil(T^(1/2)) steps at one played point, the batch sums g~_R aggregated by the tree
with Lemma 5.1's lambda / Lemma 5.4's sigma, and the next point computed from the released
prefix sums only (post-processing: private whatever the learner).  The proof uses of the
learner only that it is a (noisy) OCO method with O(D kappa T_round^(1/2)) regret on the
linear losses <g~_R, x> (Lemma 4.1 for NOISYOCO, Lemma C.2 for kappa); Algorithm 1's learner
is Frank-Wolfe on ||x||^2 / 2 + <eta s~, x>, one LMO call per bandit step.  So a user's
``oco`` learner (dpregret.core.protocols) takes that place: :func:`private_bandit_around` runs
the mechanism (the paper's privacy noise, calibrated by dpregret.core.calibration, on the
paper's direction and noise streams) around it.  The learner sees only what Algorithm 1's
learner sees: the domain (LMO, projection), the number of rounds, Lemma C.2's bound on
||g~_R|| and, after each round, the increment s~_R - s~_(R-1) of the released sums.

An ``oco`` learner ``make(R, domain, T_round, G)`` runs on the simplex points of ``rates``
(``papers.env21.scenario.simulate_rates(..., learners=...)``, which calls :func:`user_rates`); its
rows (``name``, ``name@gaussian``, ``name@*_slow_zeta``, :func:`rate_T_algs`) follow the
paper's, which are unchanged.
"""
from __future__ import annotations

import copy
import math
import time

import numpy as np
import pandas as pd

from dpregret.core.environments.bco import DistanceLosses
from dpregret.core.environments.polytopes import Polytope, make_domain
from dpregret.papers.env21.learners import algorithm1_parameters, batch_schedule
from dpregret.papers.env21.bounds import bound_lemma_c2
from dpregret.core.rng import RowStreams
from dpregret.papers.env21.rates import PAPER_LEARNER, REFERENCE, USER_RATE_ROLES, rate_T_algs  # noqa: F401 (re-exported)
from dpregret.papers.env21.learners import FrankWolfeOCO, FrozenCentre  # noqa: F401 (re-exported)
from dpregret.papers.env21.run import row_bounds, env21_streams, rate_losses






def private_bandit_around(domain: Polytope, losses, make, u, *, zeta: float | None = None,
                          noise_rng=None, name: str = "user", built: list | None = None) -> dict:
    """Algorithm 1's privacy mechanism around the ``oco`` learner ``make(R, domain, T_round, G)``
    (the generic per-round path; conventions of :func:`private_bandit`, whose numpy loop this
    follows step for step): every round plays the learner's point x (checked to lie in K), queries
    ``x + zeta Q u_t`` for its T_batch steps (``u`` the direction streams), hands the batch sum
    ``g~ = sum (dim / zeta) f_t u_t`` to the tree (noise ``noise_rng``: standard draws times the
    row's scale, as in :func:`dpregret.papers.env21.run.run_variants`; None: no noise) and feeds the learner the increment of the
    released sums.  ``G = (Lemma C.2's bound)^(1/2)`` at this zeta (default Algorithm 1's).
    Returns per row ``regret`` at T, ``best``, the learner's ``oracle_calls`` / ``projections``
    (on its own copy of the domain) and the run's parameters.  ``name``: the learner's, in every error
    about it; ``built``: the learners already built for this point (a make returning one object twice
    is an error)."""
    from dpregret.papers.env21.learners import noise_draw
    from dpregret.core.protocols import SIGNATURES, build_learner, check_play
    from dpregret.core.tree import TreeBasedAgg

    t0 = time.perf_counter()
    T, d, n, L, D = losses.T, domain.dim, domain.n, losses.L, domain.D
    b, rounds, _ = batch_schedule(T)
    zeta = algorithm1_parameters(T, d, L, D)[0] if zeta is None else float(zeta)
    R, Q = u.R, domain.Q
    G = math.sqrt(bound_lemma_c2(b, d, L, D, zeta))
    own = copy.copy(domain)  # the learner's oracle and projection calls, counted apart
    own.reset_counters()
    learner = build_learner(make, name, (R, own, rounds, G), SIGNATURES["oco_polytope"],
                            "the increment of the released sums", built)
    tree = TreeBasedAgg(rounds, d, noise_draw("none" if noise_rng is None else "laplace", 1.0, noise_rng, R, d), R)
    S = tree.released @ Q.T
    cum, t = np.zeros(R), 0
    QT = Q.T
    for _ in range(rounds):
        x = np.array(learner.predict(), dtype=float)
        try:
            check_play("oco_polytope", x, R, n)
        except ValueError as err:
            raise ValueError(f"learner {name!r}: {err}") from None
        if not np.all(domain.contains(x, 1e-6)):
            raise ValueError(f"learner {name!r} played a point outside the domain ({domain.name})")
        nb = min(b, T - t)
        if type(losses) is DistanceLosses:
            g, cum = _batch_steps(losses, x, u, zeta, QT, t, nb, cum)
            t += nb
        else:
            g = np.zeros((R, d))
            for _ in range(nb):
                t += 1
                w = u.normal((d,))
                uc = w / np.linalg.norm(w, axis=1, keepdims=True)
                val = losses.value(t, x + zeta * (uc @ QT))
                cum += val
                g += (d / zeta) * val[:, None] * uc
        S_new = tree.step(g) @ Q.T
        learner.update(S_new - S)
        S = S_new
    best = float(losses.best_fixed([T])[0])
    return {"regret": cum - best, "best": best, "oracle_calls": own.oracle_calls, "projections": own.projections,
            "T_batch": b, "T_round": rounds, "zeta": zeta, "G": G, "wall_time": time.perf_counter() - t0}


def _batch_steps(losses: DistanceLosses, x: np.ndarray, u, zeta: float, QT: np.ndarray, t: int, nb: int,
                 cum: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``nb`` steps ``t + 1 .. t + nb`` of one round at the played point ``x`` (``(R, n)``), as the
    step loop of :func:`private_bandit_around` makes them, in one pass: the steps' directions drawn
    at once (the stream serves them in the same order), each step's ``uc @ Q^T`` by the same product
    on the same (contiguous) operands, the rest elementwise, ``cum`` and ``g`` summed over the steps
    in order.  Returns ``(g, cum)``: the batch sum and the running sum of the values."""
    R, d = x.shape[0], QT.shape[0]
    W = u.normal((nb, d))  # (R, nb, d): step j's draws are W[:, j]
    UC = np.ascontiguousarray((W / np.linalg.norm(W, axis=-1, keepdims=True)).transpose(1, 0, 2))  # (nb, R, d)
    M = np.empty((nb, R, QT.shape[1]))
    for j in range(nb):
        M[j] = UC[j] @ QT
    pts = x + zeta * M  # (nb, R, n): the steps' query points
    pieces = np.array([losses.piece(t + j + 1) for j in range(nb)])
    vals = np.empty((nb, R))
    for k in np.unique(pieces):
        on = pieces == k
        vals[on] = losses._value(int(k), pts[on])
    cum = np.cumsum(np.concatenate([cum[None], vals]), axis=0)[-1]  # cum += val, step by step
    steps = ((d / zeta) * vals[:, :, None]) * UC
    g = np.cumsum(np.concatenate([np.zeros((1, R, d)), steps]), axis=0)[-1]  # g += ..., step by step
    return g, cum


def user_rates(p: dict, T: int, reps, seed: int, name: str, make, lam: float, sig: float, zp: float,
               eps_of: dict) -> pd.DataFrame:
    """The rows of one user learner at one T of ``rates`` on the simplex: the Laplace and Gaussian
    mechanisms (one learner of 2 R rows, as the paper's batched variants) at Algorithm 1's zeta
    and at the slow-zeta control's ``zp``, on the streams of the paper's rows (same keys)."""
    L, delta = float(p["L"]), float(p["delta"])
    key = ("rates", "simplex", T)
    a = rate_T_algs(name)
    frames, built = [], []
    for zeta, roles in ((None, ("laplace", "gaussian")), (zp, ("laplace_slow_zeta", "gaussian_slow_zeta"))):
        variants = [(a[roles[0]], "laplace", lam), (a[roles[1]], "gaussian", sig)]
        dom = make_domain("simplex", p["n_simplex"])
        u = RowStreams(env21_streams(seed, reps, *key, "u"), 2)
        nz = RowStreams(env21_streams(seed, reps, *key, "noise"), 2, [lam, sig], ["laplace", "gaussian"])
        run = private_bandit_around(dom, rate_losses(dom, T, L=L), make, u, zeta=zeta, noise_rng=nz, name=name,
                                    built=built)
        df = pd.DataFrame({
            "alg": np.repeat([v[0] for v in variants], len(reps)),
            "noise": np.repeat(["laplace", "gaussian"], len(reps)),
            "noise_scale": np.repeat([lam, sig], len(reps)), "replicate": np.tile(list(reps), 2),
            "regret": run["regret"], "best": run["best"], "oracle_calls": run["oracle_calls"],
            "projections": run["projections"], "T_batch": run["T_batch"], "T_round": run["T_round"],
            "zeta": run["zeta"], "eta": algorithm1_parameters(T, dom.dim, L, dom.D)[1], "wall_time": run["wall_time"]})
        df = row_bounds(df, T, dom.dim, L, dom.D, {**eps_of, a["laplace"]: eps_of["laplace"],
                                                   a["laplace_slow_zeta"]: eps_of["laplace"],
                                                   a["gaussian"]: eps_of["gaussian"],
                                                   a["gaussian_slow_zeta"]: eps_of["gaussian"]}, delta)
        df["eta"], df["c5_bound"] = np.nan, np.nan  # the step is the learner's: Corollary C.5 does not apply
        # (the learner's G is sqrt(c2_bound): no column of its own, so the paper's rows keep their columns)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["domain"], df["n"], df["dim"], df["T"], df["L"], df["D"] = \
        "rates", "simplex", dom.n, dom.dim, T, L, dom.D
    return df


def paper_frank_wolfe(p: dict, T: int, reps, seed: int):
    """Algorithm 1's learner (:class:`FrankWolfeOCO`, Algorithm 1's eta, ``T_batch`` LMO steps a round) in
    ``make(R, domain, T_round, G)``'s signature at the simplex point ``T`` of ``rates``, for the door's
    runs of the Laplace and Gaussian rows together (``R = 2 len(reps)``, :func:`user_rates`).  The door
    does not hand a learner L~_0, the tree's noise-only release before the first round, which the fast
    path's first Frank-Wolfe steps use: this learner gets it out of band (``s0``), drawn from fresh
    streams of the paper's noise keys, so that through the door it plays the fast path's rounds."""
    from dpregret.core.calibration import lemma5_noise_scale
    from dpregret.core.tree import TreeBasedAgg
    from dpregret.papers.env21.learners import noise_draw

    dom = make_domain("simplex", p["n_simplex"])
    d, L, delta = dom.dim, float(p["L"]), float(p["delta"])
    scales = [lemma5_noise_scale(k, T, d, L, p[f"eps_rate_{k}"], delta) for k in ("laplace", "gaussian")]
    nz = RowStreams(env21_streams(seed, reps, "rates", "simplex", T, "noise"), 2, scales, ["laplace", "gaussian"])
    s0 = TreeBasedAgg(batch_schedule(T)[1], d, noise_draw("laplace", 1.0, nz, nz.R, d), nz.R).released @ dom.Q.T
    eta, b = algorithm1_parameters(T, d, L, dom.D)[1], batch_schedule(T)[0]
    return lambda R, domain, T_round, G: FrankWolfeOCO(domain, R, eta, b, s0=s0)
