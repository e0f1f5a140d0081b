"""Ene, Nguyen, Vladu (AAAI 2021), PRIVATEBANDIT's runs (Algorithm 1, section 3; Lemma C.2 and
Corollary C.5, Appendix C): the runs of ``papers.env21.scenario``: the replicate streams (:func:`env21_streams`), one
batched
:func:`~dpregret.papers.env21.learners.private_bandit` call over a point's variants (:func:`run_variants`),
Lemma C.2 and Corollary C.5 measured per round (:class:`RoundMeter` during the run,
:func:`instrument` on a recorded one), and a run's rows with their bounds (:func:`variant_frame`,
:func:`row_bounds`).  See ``papers.env21.scenario``'s docstring for the experiments, the batching of
variants and the stream keys."""
from __future__ import annotations

import copy
import math
import time

import numpy as np
import pandas as pd

from dpregret.core.calibration import noise_mu
from dpregret.core.environments.bco import DistanceLosses, stationary_distance
from dpregret.core.environments.polytopes import Polytope, make_domain
from dpregret.papers.env21.learners import algorithm1_parameters, batch_schedule, private_bandit
from dpregret.papers.env21.bounds import (
    bound_cor_c5, bound_lemma3_1, bound_lemma5_2, bound_lemma5_5, bound_lemma_c2,
)
from dpregret.core.rng import ReplicateStreams, RowStreams, stable_key
from dpregret.papers.env21.rates import paper_zeta, rate_T_algs


# ------------------------------------------------------------------------------ streams
def env21_streams(seed, reps, *key) -> ReplicateStreams:
    """The replicate streams of one ``env21`` run, keyed by ``stable_key("env21", *key)``."""
    return ReplicateStreams(seed, stable_key("env21", *key), reps)


# ------------------------------------------------------------------------------ running
def run_variants(domain, losses, variants, reps, seed, key, *, eta=None, zeta=None, printed=False,
                 record=False, monitor=None,
                 engine="auto", nonlearner=False, oracle=False):
    """One :func:`private_bandit` call over ``variants`` = [(alg, kind, scale), ...]; ``record``:
    keep the per-round records (for :func:`instrument`), ``monitor``, ``nonlearner``: see
    :func:`private_bandit` (the learner frozen at the centre on the same directions: :func:`frozen_frame`);
    ``oracle``: also the oracle frozen at the loss's first centre v_1 (the minimiser of
    :func:`rate_losses`; the comparator of ``vertex_switching``) queried on the same directions at
    Algorithm 1's zeta (whatever the variants' zeta): the smoothing cost every learner pays, column
    ``oracle_regret`` of :func:`variant_frame` / :func:`frozen_frame`."""
    V = len(variants)
    u = RowStreams(env21_streams(seed, reps, *key, "u"), V)
    scales = [s for _, _, s in variants]
    noisy = any(s > 0 for s in scales)
    kinds = ["gaussian" if k == "gaussian" else "laplace" for _, k, _ in variants]
    nz = RowStreams(env21_streams(seed, reps, *key, "noise"), V, scales, kinds) if noisy else None
    return private_bandit(domain, losses, u, noise="laplace" if noisy else "none", noise_scale=1.0 if noisy else None,
                          eta=eta, zeta=zeta, record_rounds=record, noise_rng=nz, printed_line14_sign=printed,
                          monitor=monitor, engine=engine, nonlearner=nonlearner,
                          oracle_point=losses.centres[0] if oracle else None,
                          oracle_zeta=paper_zeta(losses.T, domain.dim, domain.D) if oracle else None)


NONLEARNER = "frozen"  # the rows of the learner frozen at the domain's centre (the trivial learner of the setting)


def frozen_frame(run, reps, name: str = NONLEARNER) -> pd.DataFrame:
    """The rows (one per replicate) of the learner frozen at x~_0 = the domain's centre on the
    directions of ``run`` (made with ``nonlearner=True``; every variant of the call shares them,
    so the first variant's rows are the replicates): its regret, no oracle call, no noise."""
    R = len(reps)
    return pd.DataFrame({"alg": name, "noise": "none", "noise_scale": 0.0, "replicate": list(reps),
                         "regret": run.nonlearner_regret[:R], "best": run.best[-1], "oracle_calls": 0, "projections": 0,
                         "T_batch": run.params["T_batch"], "T_round": run.params["T_round"],
                         "zeta": run.params["zeta"], "eta": np.nan, "wall_time": np.nan,
                         "oracle_regret": np.nan if run.oracle_regret is None else run.oracle_regret[:R]})


class RoundMeter:
    """Lemma C.2 and Corollary C.5 measured online: a ``monitor`` of :func:`private_bandit`
    (``shrink=False``), O(V R n) memory per step plus the per-round results.

    Per round k: the played point as rebuilt from the round's first query,
    ``x~_k = y_t - zeta Q u_t``; ``g~_k = sum_{t in k} (d / zeta) f_t(y_t) u_t``, accumulated
    step by step in the order (and with the arithmetic) of one ``einsum`` over the round, and
    checked against the run's batch sum; ``||g~_k||^2``; and (domains with a projection)
    ``x^_k = Proj(-eta sum_{j<k} g~_j)`` (paper round k+1: the exact map of the exact gradient
    sum of the previous rounds) against ``x~_k``, k >= 1 (projections on a copy of the domain,
    so the run's counters are untouched).  :meth:`result` returns per row (V R rows)
    ``c2_rounds`` (||g~_k||^2 for every round k) and ``c5_rounds`` (||x^_k - x~_k|| for k >= 1;
    empty without a projection), as arrays, and their max and mean over rounds (``c2_max``,
    ``c2_mean``, ``c5_max``, ``c5_mean``; NaN without a projection)."""

    def __init__(self, domain: Polytope):
        self.domain = copy.copy(domain)  # own projection counters
        self.domain.reset_counters()
        self.Q = domain.Q

    def start(self, params: dict) -> None:
        if params["alpha"] != 0.0:
            raise ValueError("the C.2 / C.5 measurement needs shrink=False")
        self.d, self.zeta, self.eta, self.rounds = params["n"], params["zeta"], params["eta"], params["T_round"]
        self.VR = params["R"]
        self.sq = np.empty((self.rounds, self.VR))
        self.fm = np.empty((self.rounds, self.VR))  # per round, the largest loss value queried (Lemma C.2's premise)
        self.proj = self.domain.has_projection and self.rounds >= 2
        self.err = np.empty((self.rounds - 1, self.VR)) if self.proj else None
        self.S = None  # sum of the batches of the previous rounds
        self.done = 0

    def round_start(self, k: int, play) -> None:
        if k != self.done:
            raise ValueError(f"rounds must be fed in order: expected round {self.done}, got {k}")
        self.P = None  # this round's played point, rebuilt from its first query
        self.acc = np.zeros((self.VR, self.d))
        self.buf = []  # d == 1 only: einsum then reduces over the steps at once
        self.one = np.ones(self.VR)
        self.fmax = np.full(self.VR, -np.inf)

    def step(self, t: int, y, f, u) -> None:
        u = np.ascontiguousarray(u)
        self.fmax = np.maximum(self.fmax, f)
        if self.P is None:
            self.P = y - self.zeta * np.einsum("rtd,nd->trn", u[:, None, :], self.Q)[0]
        if self.d == 1:
            self.buf.append((np.array(f, dtype=float), u.copy()))
            return
        # einsum("rt,rtd->rd", F, U) over a round accumulates acc <- acc + F_t U_t in step order
        # (innermost loop over d); the two-step einsum [1, F_t] x [acc, U_t] does exactly that
        self.acc = np.einsum("rt,rtd->rd", np.stack([self.one, f], axis=1), np.stack([self.acc, u], axis=1))

    def round_end(self, k: int, g) -> None:
        if self.d == 1:
            F = np.stack([f for f, _ in self.buf], axis=1)
            self.acc = np.einsum("rt,rtd->rd", F, np.stack([u for _, u in self.buf], axis=1))
            self.buf = []
        G = (self.d / self.zeta) * self.acc
        if np.max(np.abs(G - g)) > 1e-8 * max(1.0, float(np.abs(g).max())):
            raise RuntimeError("replayed (or monitored) steps do not reproduce the run's batch sum g~_k")
        self.sq[k] = np.sum(G**2, axis=1)
        self.fm[k] = self.fmax
        if self.proj:
            if k >= 1:
                xhat = self.domain.project((-self.eta * self.S) @ self.Q.T)
                self.err[k - 1] = np.linalg.norm(xhat - self.P, axis=1)
            self.S = G.copy() if k == 0 else self.S + G
        self.done += 1

    def result(self) -> dict[str, np.ndarray]:
        if self.done != self.rounds:
            raise ValueError(f"measured {self.done} of {self.rounds} rounds")
        sq = self.sq
        out = {"c2_max": sq.max(axis=0), "c2_mean": sq.mean(axis=0), "c2_rounds": list(sq.T),
               "c2_fmax_rounds": list(self.fm.T)}
        if self.proj:
            err = self.err
            out["c5_max"], out["c5_mean"], out["c5_rounds"] = err.max(axis=0), err.mean(axis=0), list(err.T)
        else:
            out["c5_max"] = out["c5_mean"] = np.full(self.VR, np.nan)
            out["c5_rounds"] = [np.full(0, np.nan)] * self.VR
        return out


def instrument(domain, losses, run, reps, seed, key, V: int) -> dict[str, np.ndarray]:
    """:class:`RoundMeter` on a recorded run (``record=True``) instead of online: the directions
    u_t are replayed from the run's u stream (same key, d normals per step: the stream is
    sequential), the queries rebuilt as ``y_t = x~_k + zeta Q u_t`` from the recorded played
    points and the losses re-evaluated; the meter checks every replayed batch sum against the
    recorded one.  Memory O(V R n) per step (plus the records and results).  Returns
    :meth:`RoundMeter.result`, identical to the online measurement of the same run on the numpy
    engine (on the compiled one, whose queries differ by rounding, equal to rounding)."""
    if run.plays is None or run.round_grads is None:
        raise ValueError("instrument needs a run recorded with record=True (record_rounds)")
    p = run.params
    T, b, zeta = p["T"], p["T_batch"], p["zeta"]
    u = env21_streams(seed, reps, *key, "u")  # the run's u stream
    if run.plays.shape[:2] != (p["T_round"], V * u.R):
        raise ValueError(f"run records {run.plays.shape[:2]}, expected ({p['T_round']}, {V * u.R})")
    Q = domain.Q
    meter = RoundMeter(domain)
    meter.start(p)
    for k in range(p["T_round"]):
        play = run.plays[k]
        meter.round_start(k, play)
        for t in range(k * b + 1, min((k + 1) * b, T) + 1):
            w = np.concatenate([u.normal((p["n"],))] * V, axis=0)  # the run's draw, tiled over variants
            uc = w / np.linalg.norm(w, axis=1, keepdims=True)
            y = play + zeta * (uc @ Q.T)
            meter.step(t, y, losses.value(t, y), uc)
        meter.round_end(k, run.round_grads[k])
    return meter.result()


def variant_frame(run, variants, reps, extra: dict | None = None) -> pd.DataFrame:
    """The tidy rows (one per variant x replicate) of a :func:`run_variants` result, with ``extra`` columns."""
    V, R = len(variants), len(reps)
    df = pd.DataFrame({
        "alg": np.repeat([a for a, _, _ in variants], R),
        "noise": np.repeat([k for _, k, _ in variants], R),
        "noise_scale": np.repeat([s for _, _, s in variants], R),
        "replicate": np.tile(list(reps), V),
        "regret": run.regret[:, -1], "best": run.best[-1],
        "oracle_calls": run.oracle_calls, "projections": run.projections,
        "T_batch": run.params["T_batch"], "T_round": run.params["T_round"],
        "zeta": run.params["zeta"], "eta": run.params["eta"], "wall_time": run.wall_time,
        "oracle_regret": np.nan if run.oracle_regret is None else run.oracle_regret,
    })
    for k, v in (extra or {}).items():
        df[k] = v
    return df


def row_bounds(df: pd.DataFrame, T: int, d: int, L: float, D: float, eps_of: dict, delta: float) -> pd.DataFrame:
    """Per-row mu and the bound values (constants: Lemma 3.1, 5.2, 5.5 with C = 1; the
    explicit chain of Lemma 3.1; Lemma C.2's statement; Corollary C.5 with kappa^2 = C.2)."""
    b, _, _ = batch_schedule(T)
    mu = np.array([noise_mu(k, d, s) for k, s in zip(df.noise, df.noise_scale)])
    df["mu"] = mu
    df["eps"] = [eps_of.get(a, np.nan) for a in df.alg]
    df["delta"] = delta
    df["bound_lemma3_1"] = [bound_lemma3_1(T, d, L, D, m) for m in mu]
    df["bound_lemma3_1_explicit"] = [bound_lemma3_1(T, d, L, D, m, explicit=True) for m in mu]
    df["bound_lemma5_2"] = [bound_lemma5_2(T, d, L, D, e) if k == "laplace" and e == e else np.nan
                            for k, e in zip(df.noise, df.eps)]
    df["bound_lemma5_5"] = [bound_lemma5_5(T, d, L, D, e, delta) if k == "gaussian" and e == e else np.nan
                            for k, e in zip(df.noise, df.eps)]
    c2 = bound_lemma_c2(b, d, L, D, float(df.zeta.iloc[0]))
    df["c2_bound"] = c2
    df["c5_bound"] = [bound_cor_c5(T, b, e, m, math.sqrt(c2), D) for e, m in zip(df.eta, mu)]
    return df


def rate_losses(domain, T: int, L: float = 1.0) -> DistanceLosses:
    """The instance of the ``rates``, ``n`` and ``eps`` experiments: ``f_t(x) = L ||x - v_1||``,
    v_1 the domain's first vertex.  The minimum 0 is at a vertex of K, so the comparator pays 0,
    a learner at v_1 pays exactly ``L zeta`` per query (Lemma 3.1's first term, ``T L zeta``, is
    attained) and the learner frozen at the centre pays ``L ||c - v_1||`` per step (linear)."""
    return stationary_distance(domain, T, L=L, centre=domain.vertices()[0])


# ------------------------------------------------------------------------------ any learner of the rounds
# Theorem 1.1 / Lemmas 5.2 and 5.5 (sections 3 and 5; Lemma 3.1's proof, Appendix C) hold for
# PRIVATEBANDIT's privacy mechanism around a learner of the rounds: one-point estimates at
# x~ + zeta u_t (u_t uniform on the sphere of the hull's direction space), batches of
# T_batch = ceil(T^(1/2)) steps at one played point, the batch sums g~_R aggregated by the tree
# with Lemma 5.1's lambda / Lemma 5.4's sigma, and the next point computed from the released
# prefix sums only (post-processing: private whatever the learner).  The proof uses of the
# learner only that it is a (noisy) OCO method with O(D kappa T_round^(1/2)) regret on the
# linear losses <g~_R, x> (Lemma 4.1 for NOISYOCO, Lemma C.2 for kappa).  So an ``oco_polytope``
# learner (dpregret.core.protocols) ``make(R, domain, T_round, G)`` takes Algorithm 1's
# Frank-Wolfe learner's place: :func:`private_bandit_around` runs the mechanism around it (the
# paper's noise, calibrated by dpregret.core.calibration, on the paper's direction and noise
# streams), seeing only what Algorithm 1's learner sees (the domain's LMO and projection, the
# number of rounds, Lemma C.2's bound on ||g~_R|| and, after each round, the increment
# s~_R - s~_(R-1) of the released sums); :func:`learner_rates` makes its rows at one T of the
# ``rates`` experiment on the simplex (``papers.env21.scenario.simulate_rates(..., learners=...)``).

def private_bandit_around(domain: Polytope, losses, make, u, *, zeta: float | None = None,
                          noise_rng=None, name: str = "user", built: list | None = None) -> dict:
    """Algorithm 1's privacy mechanism around the ``oco`` learner ``make(R, domain, T_round, G)``
    (the generic per-round path; conventions of :func:`private_bandit`, whose numpy loop this
    follows step for step): every round plays the learner's point x (checked to lie in K), queries
    ``x + zeta Q u_t`` for its T_batch steps (``u`` the direction streams), hands the batch sum
    ``g~ = sum (dim / zeta) f_t u_t`` to the tree (noise ``noise_rng``: standard draws times the
    row's scale, as in :func:`dpregret.papers.env21.run.run_variants`; None: no noise) and feeds the learner the
    increment of the released sums.  ``G = (Lemma C.2's bound)^(1/2)`` at this zeta (default Algorithm 1's).
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


def learner_rates(p: dict, T: int, reps, seed: int, name: str, make, lam: float, sig: float, zp: float,
               eps_of: dict) -> pd.DataFrame:
    """The rows of one ``oco_polytope`` learner (``name``, built by ``make``) at one T of ``rates`` on the simplex: the
    Laplace and Gaussian mechanisms (one learner of 2 R rows, as the paper's batched variants) at Algorithm 1's zeta
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
        # the oracle at v_1 on these directions at Algorithm 1's zeta: on f_t = L ||x - v_1|| it pays exactly
        # L zeta per query (||Q u_t|| = 1), T L zeta in all (run_variants(..., oracle=True) for the paper's rows)
        df["oracle_regret"] = T * L * paper_zeta(T, dom.dim, dom.D)
        # (the learner's G is sqrt(c2_bound): no column of its own, so the paper's rows keep their columns)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df["experiment"], df["domain"], df["n"], df["dim"], df["T"], df["L"], df["D"] = \
        "rates", "simplex", dom.n, dom.dim, T, L, dom.D
    return df
