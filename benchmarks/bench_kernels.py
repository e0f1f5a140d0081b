"""Throughput of the hot kernels, vectorised over replicates, against (a) a plain per-step Python
reference of the same algorithm (one replicate and one round at a time, scalar floats and lists,
the same numbers on the same seed) and (b) the random-number bound: the time numpy needs only to
draw the uniforms the kernel consumes (``Generator.random`` in the same block sizes as
:class:`dpregret.core.rng.ReplicateStreams`).

    python benchmarks/bench_kernels.py [--smoke] [--R 1 16 256]

Kernels: EXP2 bandit step (Agarwal-Singh Alg. 4 + 5), FTRL experts on TreeBasedAgg (Alg. 1 + 2),
TreeBasedAgg, TreeNoise (Zhang-Tran-Cutkosky NOISE(t)), Van der Hoeven Algorithm 1 and
Algorithm 3, the DP online-to-batch step (ZTC Alg. 1, ``o2b.run``), the PrivateBandit step
(Ene-Nguyen-Vladu Alg. 1, ``private_bandit``, numpy loop and compiled rounds), and the numba-compiled rounds of EXP2
(the same step as the first kernel) and of Algorithm 4 + SCRiBLe on the cube (numpy class and compiled).  Throughput =
rounds x replicates per second;
``x ref`` = kernel throughput / reference throughput; ``x rng`` = kernel time / random-number
time (1 = as fast as drawing the random numbers alone).  No timing assertions anywhere:
``tests/test_bench_references.py`` checks that every reference gives the kernel's numbers.

Each kernel function returns ``(out, streams)``: ``out`` an array (R, m) of per-replicate
results, ``streams`` the ReplicateStreams it drew from (for the random-number count).  Each
reference returns the same (R, m) array for the replicates it is given.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

import numpy as np

from dpregret.core.environments.bco import switching_distance
from dpregret.core.environments.polytopes import Simplex
from dpregret.core.environments.stochastic import Location
from dpregret.papers.as17.bandits import Exp2, PrivateFeedback, exp2_params_thm4_1
from dpregret.papers.as17.exp2_jit import exp2_block
from dpregret.papers.as17.ftrl import ExpWeights, eta_thm34
from dpregret.core.learners.oco import ProjectedOGD
from dpregret.papers.as17.prefix_sums import TreeSum, scaled_draws
from dpregret.papers.env21.learners import (
    algorithm1_parameters, batch_schedule, laplace_lambda_lemma5_1, private_bandit,
)
from dpregret.papers.as17.scrible import Scrible, theorem_4_5_eta
from dpregret.papers.as17.scrible_jit import scrible_block
from dpregret.papers.vdh19.learners import PrivatePotential, SparsePotential, log_prediction
from dpregret.papers.ztc22 import bounds as o2b_bounds
from dpregret.papers.ztc22 import o2b
from dpregret.core.rng import ReplicateStreams, replicate_generator, stable_key
from dpregret.core.tree import TreeBasedAgg, TreeNoise, nodes_covering_leaf

SEED = 1
TINY = np.finfo(float).tiny
_INV_CDF = statistics.NormalDist().inv_cdf


def _key(kernel: str, role: str) -> tuple[int, ...]:
    return stable_key("bench_kernels", kernel, role)


def _streams(kernel: str, role: str, R: int, seed: int = SEED) -> ReplicateStreams:
    return ReplicateStreams(seed, _key(kernel, role), range(R))


def _gen(kernel: str, role: str, r: int, seed: int = SEED):
    """The reference's draws: replicate r's own generator, one uniform at a time (0 -> tiny,
    as ReplicateStreams.uniform)."""
    g = replicate_generator(seed, _key(kernel, role), r)
    return lambda: g.random() or TINY


def _lap(u: float, scale: float) -> float:
    """Laplace(0, scale) by the inverse CDF of one uniform (ReplicateStreams.laplace)."""
    v = u - 0.5
    return -scale * math.copysign(1.0, v) * math.log1p(-2.0 * abs(v))


def _fixed_losses(T: int, N: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    return (rng.random((T, N)) < np.r_[0.2, np.full(N - 1, 0.5)]).astype(float)


# --- plain-Python tree aggregations (one replicate, lists of floats) --------------------------
class _RefTreeBasedAgg:
    """Agarwal-Singh Algorithm 2 (padded PrivateSum), one replicate; ``draw()`` -> one float."""

    def __init__(self, T: int, d: int, draw):
        self.d, self.draw, self.t = d, draw, 0
        self.K = max(1, (T - 1).bit_length())
        levels = T.bit_length()
        self.alpha = [[0.0] * d for _ in range(levels)]
        self.noisy = [[0.0] * d for _ in range(levels)]
        self.node_noise = [0.0] * d
        self.true = [0.0] * d
        z = [[draw() for _ in range(d)] for _ in range(self.K)]
        self.noise = [sum(z[k][i] for k in range(self.K)) for i in range(d)]

    def released(self) -> list[float]:
        return [a + b for a, b in zip(self.true, self.noise)]

    def step(self, loss) -> list[float]:
        self.t += 1
        t, d = self.t, self.d
        j0 = (t & -t).bit_length() - 1
        below = [sum(self.alpha[j][i] for j in range(j0)) for i in range(d)]
        self.alpha[j0] = [below[i] + loss[i] for i in range(d)]
        for j in range(j0):
            self.alpha[j] = [0.0] * d
        pad = self.K - bin(t).count("1")
        z = [[self.draw() for _ in range(d)] for _ in range(1 + pad)]
        nb = [sum(self.noisy[j][i] for j in range(j0)) for i in range(d)]
        self.node_noise = [self.node_noise[i] - nb[i] + z[0][i] for i in range(d)]
        for j in range(j0):
            self.noisy[j] = [0.0] * d
        self.noisy[j0] = z[0]
        self.true = [self.true[i] + loss[i] for i in range(d)]
        padding = [sum(z[k][i] for k in range(1, 1 + pad)) for i in range(d)]
        self.noise = [self.node_noise[i] + padding[i] for i in range(d)]
        return self.released()


class _RefTreeNoise:
    """ZTC NOISE(t), one replicate: ``step(sigma)`` -> gamma_t (list)."""

    def __init__(self, T: int, d: int, draw):
        self.d, self.draw, self.t = d, draw, 0
        self.R = [[0.0] * d for _ in range(T.bit_length())]

    def step(self, sigma: float) -> list[float]:
        self.t += 1
        t, d = self.t, self.d
        j0 = (t & -t).bit_length() - 1
        self.R[j0] = [sigma * self.draw() for _ in range(d)]
        for j in range(j0):
            self.R[j] = [0.0] * d
        members = [j for j in range(t.bit_length()) if (t >> j) & 1]
        return [sum(self.R[j][i] for j in members) for i in range(d)]


# --- 1. EXP2 bandit step (Agarwal-Singh Algorithms 4 + 5) ------------------------------------
EXP2_N, EPS = 8, 1.0


def kernel_exp2(T: int, R: int, seed: int = SEED):
    N = EXP2_N
    lam, eta, gam = exp2_params_thm4_1(N, T, EPS)
    L = _fixed_losses(T, N)
    sa, sz = _streams("exp2", "arm", R, seed), _streams("exp2", "noise", R, seed)
    learner = PrivateFeedback(Exp2(N, eta, gam, sa), lam, sz)
    total = np.zeros(R)
    for t in range(T):
        arm = learner.predict()
        total += learner.p @ L[t]
        learner.update(L[t][arm])
    return np.c_[total, learner.inner.logq], [sa, sz]


def reference_exp2(T: int, replicates, seed: int = SEED) -> np.ndarray:
    N = EXP2_N
    lam, eta, gam = exp2_params_thm4_1(N, T, EPS)
    L = _fixed_losses(T, N).tolist()
    out = []
    for r in replicates:
        ua, uz = _gen("exp2", "arm", r, seed), _gen("exp2", "noise", r, seed)
        logq, total = [-math.log(N)] * N, 0.0
        for t in range(T):
            w = [math.exp(v) for v in logq]
            s = sum(w)
            p = [(1 - gam) * wi / s + gam / N for wi in w]
            total += sum(pi * li for pi, li in zip(p, L[t]))
            u, c, arm, tot = ua(), 0.0, N - 1, sum(p)
            for i, pi in enumerate(p):
                c += pi
                if not c < u * tot:
                    arm = i
                    break
            z = [lam * _lap(uz(), 1.0) for _ in range(N)]
            logq[arm] -= eta * ((L[t][arm] + z[arm]) / p[arm])
            m = max(logq)
            logq = [v - m for v in logq]
        out.append([total, *logq])
    return np.array(out)


# --- 2. FTRL experts: exponential weights on TreeBasedAgg prefix sums -------------------------
FTRL_N = 8


def kernel_ftrl(T: int, R: int, seed: int = SEED):
    N = FTRL_N
    L = _fixed_losses(T, N)
    st = _streams("ftrl", "tree", R, seed)
    lam = nodes_covering_leaf(T) / EPS
    learner = ExpWeights(eta_thm34(N, T), TreeSum(T, R, N, scaled_draws(st, lam, N)))
    total = np.zeros(R)
    for t in range(T):
        p = learner.predict()
        total += p @ L[t]
        learner.update(L[t])
    return np.c_[total, learner.sums.estimate], [st]


def reference_ftrl(T: int, replicates, seed: int = SEED) -> np.ndarray:
    N = FTRL_N
    L = _fixed_losses(T, N).tolist()
    lam, eta = nodes_covering_leaf(T) / EPS, eta_thm34(N, T)
    out = []
    for r in replicates:
        u = _gen("ftrl", "tree", r, seed)
        tree = _RefTreeBasedAgg(T, N, lambda: lam * _lap(u(), 1.0))
        est, total = tree.released(), 0.0
        for t in range(T):
            z = [-eta * e for e in est]
            m = max(z)
            w = [math.exp(v - m) for v in z]
            s = sum(w)
            total += sum(wi / s * li for wi, li in zip(w, L[t]))
            est = tree.step(L[t])
        out.append([total, *est])
    return np.array(out)


# --- 3. TreeBasedAgg alone --------------------------------------------------------------------
TREE_D, TREE_SCALE = 8, 2.0


def kernel_treeagg(T: int, R: int, seed: int = SEED):
    d = TREE_D
    L = _fixed_losses(T, d)
    st = _streams("treeagg", "noise", R, seed)
    tree = TreeBasedAgg(T, d, lambda k: st.laplace(TREE_SCALE, (k, d)), R)
    acc = np.zeros((R, d))
    for t in range(T):
        acc += tree.step(L[t])
    return np.c_[acc, tree.released], [st]


def reference_treeagg(T: int, replicates, seed: int = SEED) -> np.ndarray:
    d = TREE_D
    L = _fixed_losses(T, d).tolist()
    out = []
    for r in replicates:
        u = _gen("treeagg", "noise", r, seed)
        tree = _RefTreeBasedAgg(T, d, lambda: _lap(u(), TREE_SCALE))
        acc = [0.0] * d
        for t in range(T):
            rel = tree.step(L[t])
            acc = [a + b for a, b in zip(acc, rel)]
        out.append([*acc, *tree.released()])
    return np.array(out)


# --- 4. TreeNoise (ZTC NOISE(t), Gaussian draws) -----------------------------------------------
def kernel_treenoise(T: int, R: int, seed: int = SEED):
    d = TREE_D
    st = _streams("treenoise", "noise", R, seed)
    tree = TreeNoise(T, d, lambda k: st.normal((k, d)), R)
    acc = np.zeros((R, d))
    for t in range(1, T + 1):
        gam = tree.step(1.0 / math.sqrt(t))
        acc += gam
    return np.c_[acc, gam], [st]


def reference_treenoise(T: int, replicates, seed: int = SEED) -> np.ndarray:
    d = TREE_D
    out = []
    for r in replicates:
        u = _gen("treenoise", "noise", r, seed)
        tree = _RefTreeNoise(T, d, lambda: _INV_CDF(u()))
        acc = [0.0] * d
        for t in range(1, T + 1):
            gam = tree.step(1.0 / math.sqrt(t))
            acc = [a + b for a, b in zip(acc, gam)]
        out.append([*acc, *gam])
    return np.array(out)


# --- 5. Van der Hoeven Algorithm 1 (conjugate prior) with local Laplace feedback ---------------
VDH_G, VDH_SCALE = 0.5, 1.0


def _vdh1_grads(T: int) -> np.ndarray:
    return np.where(_fixed_losses(T, 1)[:, 0] > 0, -0.5, 0.2)  # biased: |E g| <= G = 0.5


def kernel_vdh1(T: int, R: int, seed: int = SEED):
    gs = _vdh1_grads(T)
    st = _streams("vdh1", "noise", R, seed)
    pot = PrivatePotential(VDH_G, prior="conjugate", b=1.0, shape=(R,))
    loss = np.zeros(R)
    for t in range(T):
        w = pot.predict()
        loss += w * gs[t]
        pot.update(gs[t] + st.laplace(VDH_SCALE, ()))
    return np.c_[loss, pot.predict()], [st]


def _w_scalar(L: float, V: float, G: float) -> float:
    """Algorithm 1's w_t for one learner (scalar call of the closed form (3.3.2))."""
    s, lw = log_prediction(L, 1.0 + V, G, prior="conjugate", b=1.0)
    return float(s) * math.exp(float(lw)) if s != 0 else 0.0


def reference_vdh1(T: int, replicates, seed: int = SEED) -> np.ndarray:
    gs = _vdh1_grads(T).tolist()
    out = []
    for r in replicates:
        u = _gen("vdh1", "noise", r, seed)
        Lc, Vc, loss = 0.0, 0.0, 0.0
        for t in range(T):
            w = _w_scalar(Lc, Vc, VDH_G)
            loss += w * gs[t]
            g = gs[t] + _lap(u(), VDH_SCALE)
            Lc, Vc = Lc - g, Vc + g * g
        out.append([loss, _w_scalar(Lc, Vc, VDH_G)])
    return np.array(out)


# --- 6. Van der Hoeven Algorithm 3 (coordinate-wise, sparse local Laplace noise) ---------------
VDH3_D = 8
VDH3_SCALES = np.array([0.0, 0.5, 1.0, 2.0, 0.0, 0.5, 1.0, 2.0])  # 0: coordinate not privatised


def _vdh3_grads(T: int) -> np.ndarray:
    return np.where(_fixed_losses(T, VDH3_D) > 0, -0.8, 0.6)


def kernel_vdh3(T: int, R: int, seed: int = SEED):
    d, gs = VDH3_D, _vdh3_grads(T)
    st = _streams("vdh3", "noise", R, seed)
    pot = SparsePotential(1.0, d, batch=(R,))
    loss = np.zeros(R)
    for t in range(T):
        w = pot.predict()
        loss += w @ gs[t]
        pot.update(gs[t] + st.laplace(VDH3_SCALES, (d,)))
    return np.c_[loss, pot.predict()], [st]


def reference_vdh3(T: int, replicates, seed: int = SEED) -> np.ndarray:
    d, gs, sc = VDH3_D, _vdh3_grads(T).tolist(), VDH3_SCALES.tolist()
    out = []
    for r in replicates:
        u = _gen("vdh3", "noise", r, seed)
        Lc, Vc, loss = [0.0] * d, [0.0] * d, 0.0
        for t in range(T):
            w = [_w_scalar(Lc[j], Vc[j], 1.0) for j in range(d)]
            loss += sum(wj * gj for wj, gj in zip(w, gs[t]))
            for j in range(d):
                g = gs[t][j] + _lap(u(), sc[j])
                Lc[j], Vc[j] = Lc[j] - g, Vc[j] + g * g
        out.append([loss, *[_w_scalar(Lc[j], Vc[j], 1.0) for j in range(d)]])
    return np.array(out)


# --- 7. DP online-to-batch step (ZTC Algorithm 1, o2b.run, tree conversion) --------------------
O2B_D, O2B_K, O2B_RHO = 3, 1.0, 1.0


def _o2b_problem():
    return Location(O2B_D, 0.3)


def kernel_o2b(T: int, R: int, seed: int = SEED):
    prob = _o2b_problem()
    sd, sn = _streams("o2b", "data", R, seed), _streams("o2b", "noise", R, seed)
    learner = ProjectedOGD(R, O2B_D, prob.r, lambda t: o2b_bounds.thm4_gsq(t, T, O2B_K, O2B_RHO, prob))
    run = o2b.run(prob, learner, T, k=O2B_K, rho=O2B_RHO, src=sd, noise_src=sn, checkpoints=[T])
    return np.c_[run.regret[:, -1], run.subopt[:, -1], run.subopt_w[:, -1]], [sd, sn]


def reference_o2b(T: int, replicates, seed: int = SEED) -> np.ndarray:
    prob = _o2b_problem()
    d, k, rho = O2B_D, O2B_K, O2B_RHO
    m, s, r_ball, G, H = prob.m.tolist(), prob.s, prob.r, prob.G, prob.H
    sq_d, log_fac = math.sqrt(d), math.sqrt(math.log2(2 * T))
    gsq = [o2b_bounds.thm4_gsq(t, T, k, rho, prob) for t in range(1, T + 1)]

    def subopt(x):
        return max(0.5 * sum((xi - mi) ** 2 for xi, mi in zip(x, m)) + s * s / 2 - prob.L_star, 0.0)

    out = []
    for r in replicates:
        ud, un = _gen("o2b", "data", r, seed), _gen("o2b", "noise", r, seed)
        tree = _RefTreeNoise(T, d, lambda: _INV_CDF(un()))
        w, x, g = [0.0] * d, [0.0] * d, [0.0] * d
        bsum, acc, maxdist, regret = 0.0, 0.0, 0.0, 0.0
        for t in range(1, T + 1):
            w_played = w
            b_t, b_prev = float(t) ** k, float(t - 1) ** k
            x_prev = x
            bsum_prev, bsum = bsum, bsum + b_t
            x = [(bsum_prev * xp + b_t * wi) / bsum for xp, wi in zip(x_prev, w)]
            z = [mi + s * (-1.0 if ud() < 0.5 else 1.0) / sq_d for mi in m]
            for i in range(d):
                delta = b_t * (x[i] - z[i]) - (b_prev * (x_prev[i] - z[i]) if t > 1 else 0.0)
                g[i] = g[i] + delta
            maxdist = max(maxdist, math.sqrt(sum((wi - xp) ** 2 for wi, xp in zip(w, x_prev))))
            Delta = 2.0 * (k + 1) * t ** (k - 1) * (G + H * maxdist)
            noise = tree.step(1.0 * Delta * log_fac / rho)
            ghat = [gi + ni for gi, ni in zip(g, noise)]
            regret += sum(gh * (wi - xs) for gh, wi, xs in zip(ghat, w, m))
            acc += gsq[t - 1]  # ProjectedOGD.update
            eta = 2 * r_ball / math.sqrt(acc)
            y = [wi - eta * gh for wi, gh in zip(w, ghat)]
            ny = math.sqrt(sum(v * v for v in y))
            w = [v * min(1.0, r_ball / max(ny, 1e-300)) for v in y]
        # subopt_w: the learner's iterate played in round T (before the last update)
        out.append([regret, subopt(x), subopt(w_played)])
    return np.array(out)


# --- 8. PrivateBandit step (ENV Algorithm 1 on the simplex, Laplace tree) ----------------------
PB_N, PB_EPS = 4, 1.0


def _pb_domain_losses(T: int):
    dom = Simplex(PB_N)
    return dom, switching_distance(dom, T, phases=3)


def kernel_pbandit(T: int, R: int, seed: int = SEED):
    dom, losses = _pb_domain_losses(T)
    su, sz = _streams("pbandit", "query", R, seed), _streams("pbandit", "noise", R, seed)
    run = private_bandit(dom, losses, su, noise="laplace", eps=PB_EPS, noise_rng=sz, engine="numpy")
    return run.loss[:, -1:].copy(), [su, sz]


def kernel_pbandit_jit(T: int, R: int, seed: int = SEED):
    """The same run through the compiled rounds (``engine="jit"``, papers/env21/jit.py)."""
    dom, losses = _pb_domain_losses(T)
    su, sz = _streams("pbandit", "query", R, seed), _streams("pbandit", "noise", R, seed)
    run = private_bandit(dom, losses, su, noise="laplace", eps=PB_EPS, noise_rng=sz, engine="jit")
    return run.loss[:, -1:].copy(), [su, sz]


def reference_pbandit(T: int, replicates, seed: int = SEED) -> np.ndarray:
    dom, losses = _pb_domain_losses(T)
    d, n, Lf = dom.dim, dom.n, losses.L
    zeta, eta = algorithm1_parameters(T, d, Lf, dom.D)
    b, rounds, _ = batch_schedule(T)
    scale = laplace_lambda_lemma5_1(T, d, Lf, PB_EPS)
    Q, c = dom.Q.tolist(), dom.centre.tolist()
    centres, sched = losses.centres.tolist(), losses.schedule.tolist()

    def amb(v):  # ambient coordinates: Q v
        return [sum(Q[i][j] * v[j] for j in range(d)) for i in range(n)]

    out = []
    for r in replicates:
        uq, uz = _gen("pbandit", "query", r, seed), _gen("pbandit", "noise", r, seed)
        tree = _RefTreeBasedAgg(rounds, d, lambda: _lap(uz(), scale))
        S = amb(tree.released())
        x_t, z, cum, t = list(c), list(c), 0.0, 0
        for _ in range(rounds):
            play = x_t
            g = [0.0] * d
            for _ in range(min(b, T - t)):
                t += 1
                wv = [_INV_CDF(uq()) for _ in range(d)]
                nw = math.sqrt(sum(v * v for v in wv))
                uc = [v / nw for v in wv]
                qu = amb(uc)
                y = [p + zeta * q for p, q in zip(play, qu)]
                ctr = centres[sched[t - 1]]
                val = Lf * math.sqrt(sum((yi - ci) ** 2 for yi, ci in zip(y, ctr)))
                cum += val
                g = [gi + (d / zeta) * val * ui for gi, ui in zip(g, uc)]
                grad = [zi + eta * si for zi, si in zip(z, S)]  # one Frank-Wolfe iteration
                i_min = min(range(n), key=grad.__getitem__)
                dv = [zi - (1.0 if i == i_min else 0.0) for i, zi in enumerate(z)]
                den = sum(v * v for v in dv)
                gam = min(max(sum(a * v for a, v in zip(grad, dv)) / den, 0.0), 1.0) if den > 0 else 0.0
                z = [zi - gam * v for zi, v in zip(z, dv)]
            S = amb(tree.step(g))
            x_t = z
        out.append([cum])
    return np.array(out)


# --- harness -----------------------------------------------------------------------------------
# name -> (label, kernel, reference, T full, T smoke); T chosen so a full run stays ~2 minutes
# --- 9-11. Compiled rounds (numba): EXP2 (kernel 1's step) and Algorithm 4 + SCRiBLe (cube) ------
JIT_BLOCK = 1024  # rounds per compiled call (memory only)


def kernel_exp2_jit(T: int, R: int, seed: int = SEED):
    N = EXP2_N
    lam, eta, gam = exp2_params_thm4_1(N, T, EPS)
    L = _fixed_losses(T, N)
    sa, sz = _streams("exp2", "arm", R, seed), _streams("exp2", "noise", R, seed)
    logq, total, noisy, zsum = np.full((R, N), -math.log(N)), np.zeros(R), np.zeros(R), np.zeros((R, N))
    col = lambda v: np.full(R, v)  # noqa: E731
    for t0 in range(0, T, JIT_BLOCK):
        tb = min(JIT_BLOCK, T - t0)
        U, Z = np.ascontiguousarray(sa.uniform((tb,))), np.ascontiguousarray(sz.laplace(1.0, (tb, N)))
        Lb = np.ascontiguousarray(np.broadcast_to(L[t0:t0 + tb], (R, tb, N)))
        exp2_block(logq, col(eta), col(gam), col(lam), np.zeros((R, N)), Lb, Z, U, total, noisy, zsum)
    return np.c_[total, logq], [sa, sz]


SCR_N = 4


def _scrible_problem(T: int):
    """Cube [-1, 1]^4, losses in the unit l1 ball (kernel 1's Bernoulli losses / N), Algorithm 4's
    lambda = 2 / eps (l1 diameter of the l1 ball) and Theorem 4.5's eta (nu = 2N, M = 1, X2 = 2)."""
    lam = 2.0 / EPS
    return _fixed_losses(T, SCR_N) / SCR_N, lam, theorem_4_5_eta(SCR_N, max(T, 2), 2.0 * SCR_N, 1.0, lam, 2.0)


def kernel_scrible(T: int, R: int, seed: int = SEED):
    L, lam, eta = _scrible_problem(T)
    sd, sz = _streams("scrible", "draw", R, seed), _streams("scrible", "noise", R, seed)
    learner = Scrible("cube", SCR_N, eta, sd)
    total = np.zeros(R)
    for t in range(T):
        y = learner.predict()
        total += learner.center @ L[t]
        learner.update(np.einsum("bi,bi->b", L[t] + lam * sz.laplace(1.0, (SCR_N,)), y))
    return np.c_[total, learner.S], [sd, sz]


def kernel_scrible_jit(T: int, R: int, seed: int = SEED):
    L, lam, eta = _scrible_problem(T)
    sd, sz = _streams("scrible", "draw", R, seed), _streams("scrible", "noise", R, seed)
    S, total = np.zeros((R, SCR_N)), np.zeros(R)
    for t0 in range(0, T, JIT_BLOCK):
        tb = min(JIT_BLOCK, T - t0)
        Z, U = np.ascontiguousarray(sz.laplace(1.0, (tb, SCR_N))), np.ascontiguousarray(sd.uniform((tb,)))
        Lb = np.ascontiguousarray(np.broadcast_to(L[t0:t0 + tb], (R, tb, SCR_N)))
        scrible_block(False, S, np.full(R, eta), np.full(R, lam), Lb, Z, U, total)
    return np.c_[total, S], [sd, sz]


def reference_scrible(T: int, replicates, seed: int = SEED) -> np.ndarray:
    L, lam, eta = _scrible_problem(T)
    L, N = L.tolist(), SCR_N
    out = []
    for r in replicates:
        ud, uz = _gen("scrible", "draw", r, seed), _gen("scrible", "noise", r, seed)
        S, total = [0.0] * N, 0.0
        for t in range(T):
            g = [eta * v for v in S]
            q = [1.0 + math.sqrt(1.0 + gi * gi) for gi in g]
            x = [-gi / qi for gi, qi in zip(g, q)]
            total += sum(xi * li for xi, li in zip(x, L[t]))
            k = min(int(ud() * 2 * N), 2 * N - 1)
            i, sign = k // 2, 2.0 * (k % 2) - 1.0
            root = math.sqrt(q[i] * (q[i] - 1.0))
            y = list(x)
            y[i] += sign / root
            z = [lam * _lap(uz(), 1.0) for _ in range(N)]
            v = sum((li + zi) * yi for li, zi, yi in zip(L[t], z, y))
            S[i] += N * sign * root * v
        out.append([total, *S])
    return np.array(out)


# --- 12. FTRL experts on TreeBasedAgg, numba (papers.as17.experts_jit, the same rounds as kernel 2) -----
def kernel_ftrl_jit(T: int, R: int, seed: int = SEED):
    """Kernel 2's learner through experts_jit.experts_block (E = 1; the nonprivate and
    fresh-noise learners of the block run on their own zero-scale draws and are ignored)."""
    from dpregret.papers.as17.experts_jit import experts_block
    from dpregret.core.tree import draws_per_release

    N = FTRL_N
    L = _fixed_losses(T, N)
    st = _streams("ftrl", "tree", R, seed)
    lam = np.array([nodes_covering_leaf(T) / EPS])
    K = draws_per_release(T)
    noise = scaled_draws(st, lam, N)(K).sum(axis=1)
    lv = T.bit_length()
    alpha, noisy = np.zeros((lv, R, N)), np.zeros((lv, R, N))
    node, true_t, true_f, est_f, est_n = (np.zeros((R, N)) for _ in range(5))
    cum, sum_sq = np.zeros((R, N)), np.zeros(R)
    Ls = np.ascontiguousarray(np.broadcast_to(L[None], (R, T, N)))
    rows = sum(1 + K - t.bit_count() for t in range(1, T + 1))
    zt = st.laplace(1.0, (rows, N))
    Xn, Xt, Xf = np.empty((T, R, N)), np.empty((T, R, N)), np.empty((T, R, N))
    experts_block(0, K, Ls, -eta_thm34(N, T), lam, np.zeros(1), zt, np.zeros((R, T, N)), est_n, alpha, noisy, node,
                  true_t, noise, true_f, est_f, cum, sum_sq, Xn, Xt, Xf, 0.0, np.empty((0, R, N)), np.empty((0, R, N)))
    return np.c_[np.einsum("tbi,ti->b", Xt, L), true_t + noise], [st]


# --- 13. DP online-to-batch on the minimax family, numba (o2b_jit: o2b.run's fast path) -----------
MM_D, MM_C, MM_RHO = 3, 0.2, 0.5


def kernel_o2b_mm_jit(T: int, R: int, seed: int = SEED):
    from dpregret.core.environments.stochastic import LinearFamily

    prob = LinearFamily(MM_D, [MM_C], R)
    sd, sn = _streams("o2b_mm", "data", R, seed), _streams("o2b_mm", "noise", R, seed)
    learner = ProjectedOGD(R, MM_D, prob.r, lambda t: o2b_bounds.thm4_gsq(t, T, O2B_K, MM_RHO, prob))
    run = o2b.run(prob, learner, T, k=O2B_K, rho=MM_RHO, src=sd, noise_src=sn, checkpoints=[T])
    return np.c_[run.regret[:, -1], run.subopt[:, -1], run.subopt_w[:, -1]], [sd, sn]


def reference_o2b_mm(T: int, replicates, seed: int = SEED) -> np.ndarray:
    from dpregret.core.environments.stochastic import LinearFamily

    prob = LinearFamily(MM_D, [MM_C], 1)
    d, k, rho = MM_D, O2B_K, MM_RHO
    c = [MM_C / math.sqrt(d)] * d
    sr, r_ball, G, H = prob.G - MM_C, prob.r, prob.G, prob.H
    xs = [-r_ball * ci / MM_C for ci in c]
    sq_d, log_fac = math.sqrt(d), math.sqrt(math.log2(2 * T))
    gsq = [o2b_bounds.thm4_gsq(t, T, k, rho, prob) for t in range(1, T + 1)]

    def subopt(x):
        return max(sum(xi * ci for xi, ci in zip(x, c)) + r_ball * MM_C, 0.0)

    out = []
    for r in replicates:
        ud, un = _gen("o2b_mm", "data", r, seed), _gen("o2b_mm", "noise", r, seed)
        tree = _RefTreeNoise(T, d, lambda: _INV_CDF(un()))
        w, x, g = [0.0] * d, [0.0] * d, [0.0] * d
        bsum, acc, maxdist, regret = 0.0, 0.0, 0.0, 0.0
        for t in range(1, T + 1):
            w_played = w
            b_t, b_prev = float(t) ** k, float(t - 1) ** k
            x_prev = x
            bsum_prev, bsum = bsum, bsum + b_t
            x = [(bsum_prev * xp + b_t * wi) / bsum for xp, wi in zip(x_prev, w)]
            z = [ci + sr * (-1.0 if ud() < 0.5 else 1.0) / sq_d for ci in c]  # the gradient of <z, x>
            g = [gi + (b_t * zi - (b_prev * zi if t > 1 else 0.0)) for gi, zi in zip(g, z)]
            maxdist = max(maxdist, math.sqrt(sum((wi - xp) ** 2 for wi, xp in zip(w, x_prev))))
            Delta = 2.0 * (k + 1) * t ** (k - 1) * (G + H * maxdist)
            noise = tree.step(1.0 * Delta * log_fac / rho)
            ghat = [gi + ni for gi, ni in zip(g, noise)]
            regret += sum(gh * (wi - xi) for gh, wi, xi in zip(ghat, w, xs))
            acc += gsq[t - 1]
            eta = 2 * r_ball / math.sqrt(acc)
            y = [wi - eta * gh for wi, gh in zip(w, ghat)]
            ny = math.sqrt(sum(v * v for v in y))
            w = [v * min(1.0, r_ball / max(ny, 1e-300)) for v in y]
        out.append([regret, subopt(x), subopt(w_played)])
    return np.array(out)


KERNELS = {
    "exp2": ("EXP2 bandit step", kernel_exp2, reference_exp2, 8000, 40),
    "ftrl": ("FTRL experts (tree)", kernel_ftrl, reference_ftrl, 8000, 40),
    "treeagg": ("TreeBasedAgg", kernel_treeagg, reference_treeagg, 8000, 40),
    "treenoise": ("TreeNoise", kernel_treenoise, reference_treenoise, 8000, 40),
    "vdh1": ("VdH Algorithm 1", kernel_vdh1, reference_vdh1, 1000, 10),
    "vdh3": ("VdH Algorithm 3", kernel_vdh3, reference_vdh3, 400, 10),
    "o2b": ("DP online-to-batch", kernel_o2b, reference_o2b, 8000, 40),
    "pbandit": ("PrivateBandit step", kernel_pbandit, reference_pbandit, 8000, 40),
    "pbandit_jit": ("PrivateBandit, numba", kernel_pbandit_jit, reference_pbandit, 8000, 40),
    "exp2_jit": ("EXP2 step, numba", kernel_exp2_jit, reference_exp2, 8000, 40),
    "scrible": ("SCRiBLe step (cube)", kernel_scrible, reference_scrible, 8000, 40),
    "scrible_jit": ("SCRiBLe step, numba", kernel_scrible_jit, reference_scrible, 8000, 40),
    "ftrl_jit": ("FTRL experts, numba", kernel_ftrl_jit, reference_ftrl, 8000, 40),
    "o2b_mm_jit": ("o2b minimax, numba", kernel_o2b_mm_jit, reference_o2b_mm, 8000, 40),
}


def random_number_time(streams: list[ReplicateStreams], seed: int = SEED) -> float:
    """Seconds to build the same generators and draw what the kernel drew: per replicate and
    stream, ``ceil(consumed / block)`` calls of ``Generator.random(block)`` (ReplicateStreams
    refills whole blocks)."""
    plan = [(s.block, -(-s.consumed // s.block), s.R) for s in streams]
    t0 = time.perf_counter()
    for i, (block, nblocks, R) in enumerate(plan):
        for r in range(R):
            g = replicate_generator(seed, (i, 0xBE7C), r)
            for _ in range(nblocks):
                g.random(block)
    return time.perf_counter() - t0


def _best_time(fn, repeat: int):
    """Best of ``repeat`` wall times (the machine may be shared) and the last result."""
    best, res = math.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = fn()
        best = min(best, time.perf_counter() - t0)
    return best, res


def bench(name: str, Rs, smoke: bool = False, ref_reps: int = 1) -> list[dict]:
    label, kern, ref, T_full, T_smoke = KERNELS[name]
    T = T_smoke if smoke else T_full
    t_ref, ref_out = _best_time(lambda: ref(T, range(ref_reps)), 1 if smoke else 3)
    ref_tp = T * ref_reps / t_ref
    rows = []
    for R in Rs:
        t_k, (out, streams) = _best_time(lambda: kern(T, R), 1 if smoke else 2)
        t_rng = min(random_number_time(streams) for _ in range(3))
        k = min(R, ref_reps)
        same = bool(np.allclose(out[:k], ref_out[:k], rtol=1e-12, atol=1e-12))
        rows.append(dict(kernel=label, T=T, R=R, kern_tp=T * R / t_k, ref_tp=ref_tp, x_ref=(T * R / t_k) / ref_tp,
                         x_rng=t_k / t_rng, draws=sum(s.consumed for s in streams), same=same))
    return rows


def format_table(rows: list[dict]) -> str:
    head = (f"{'kernel':<22}{'T':>6}{'R':>5}{'kernel r*R/s':>14}{'ref r*R/s':>12}{'x ref':>8}"
            f"{'x rng':>8}{'draws/rep':>10}  same")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['kernel']:<22}{r['T']:>6}{r['R']:>5}{r['kern_tp']:>14,.0f}{r['ref_tp']:>12,.0f}"
                     f"{r['x_ref']:>8.1f}{r['x_rng']:>8.1f}{r['draws']:>10}  {r['same']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--smoke", action="store_true", help="tiny sizes (seconds; for CI)")
    ap.add_argument("--R", type=int, nargs="+", default=None, help="replicate counts (default 1 16 256)")
    ap.add_argument("--kernels", nargs="+", choices=list(KERNELS), default=list(KERNELS))
    a = ap.parse_args(argv)
    Rs = a.R or ([1, 4] if a.smoke else [1, 16, 256])
    t0 = time.perf_counter()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}, cpus {os.cpu_count()}, load(1 min) {load:.2f}")
    rows = []
    for name in a.kernels:
        rows += bench(name, Rs, smoke=a.smoke)
    print(format_table(rows))
    print("x ref = kernel / reference throughput (reference: plain per-step Python, one replicate);")
    print("x rng = kernel time / time to draw the same uniforms (Generator.random, same blocks); 'same' ="
          " reference numbers allclose(1e-12).")
    print(f"total {time.perf_counter() - t0:.1f} s")
    return 0 if all(r["same"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
