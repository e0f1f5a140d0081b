"""Compiled rounds of the Agarwal-Singh experts scenario (ICML 2017, section 3:
Algorithm 1 with exponential weights on the exact sums, on TreeBasedAgg (Algorithm 2) and on
fresh-noise sums), for :func:`dpregret.papers.as17.scenario_experts.simulate`.

Speed only: the same numbers as the per-round classes (``papers.as17.ftrl.ExpWeights`` on
``papers.as17.prefix_sums.ExactSum`` / ``TreeSum`` / ``FreshNoise``), bit for bit.  The Laplace
draws are the streams' own, drawn in numpy in the order the classes draw them and scaled here as
``scaled_draws`` scales them; every array operation is done per element in numpy's order
(sums over tree levels and padding draws in increasing index, as ``ndarray.sum(axis=0 or 1)``
adds them; the softmax normaliser is numpy's pairwise sum).  The inner products with the losses
stay in numpy (``np.einsum``, batched over rounds: the same per-row kernel).
``tests/papers/as17/test_as17_experts.py`` checks equality with the per-round classes.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from dpregret.core.learners.pairwise_jit import pairwise_base


@njit(cache=True)
def _softmax_into(out, est, neg_eta, tmp):
    """``ExpWeights.predict``: z = -eta L~; w = exp(z - max z); w / sum w (rows of est)."""
    n = est.shape[1]
    for b in range(est.shape[0]):
        m = neg_eta * est[b, 0]
        for i in range(n):
            tmp[i] = neg_eta * est[b, i]
            if tmp[i] > m:
                m = tmp[i]
        for i in range(n):
            tmp[i] = np.exp(tmp[i] - m)
        s = pairwise_base(tmp, 0, n)
        for i in range(n):
            out[b, i] = tmp[i] / s


@njit(cache=True)
def experts_block(t0, K, L, neg_eta, sc_t, sc_f, zt, zf, est_n, alpha, noisy, node_noise, true_t, noise_t, true_f,
                  est_f, cum, sum_sq, Xn, Xt, Xf, neg_eta_tw, Xntw, Xttw):
    """Rounds t0 + 1 .. t0 + B (B = L.shape[1]); state arrays updated in place, the three
    learners' plays written to Xn (B, R, N), Xt and Xf (B, E R, N).  L: (R, B, N) losses;
    zt: (R, rows, N) the tree's standard Laplace draws of these rounds (1 + K - popcount(t)
    each, in order); zf: (R, B, N) the fresh-noise draws; sc_t, sc_f: (E,) scales.  The
    mis-tuned twin (step ``-neg_eta_tw``) reads the same exact sums and tree releases: its plays
    in Xntw (B, R, N) and Xttw (B, E R, N) (``neg_eta_tw == 0``: not run, arrays untouched)."""
    R, B, N = L.shape
    E = sc_t.shape[0]
    tmp = np.empty(N)
    rel = np.empty((E * R, N))
    pos = 0
    for s in range(B):
        t = t0 + s + 1
        # plays
        _softmax_into(Xn[s], est_n, neg_eta, tmp)
        for b in range(E * R):
            for i in range(N):
                rel[b, i] = true_t[b, i] + noise_t[b, i]  # TreeBasedAgg.released
        _softmax_into(Xt[s], rel, neg_eta, tmp)
        _softmax_into(Xf[s], est_f, neg_eta, tmp)
        if neg_eta_tw != 0.0:
            _softmax_into(Xntw[s], est_n, neg_eta_tw, tmp)
            _softmax_into(Xttw[s], rel, neg_eta_tw, tmp)
        # updates: ExactSum
        for r in range(R):
            for i in range(N):
                est_n[r, i] = est_n[r, i] + L[r, s, i]
        # TreeBasedAgg.step
        j0 = 0
        while ((t >> j0) & 1) == 0:
            j0 += 1
        pc = 0
        u = t
        while u > 0:
            pc += u & 1
            u >>= 1
        pad = K - pc
        for e in range(E):
            for r in range(R):
                b = e * R + r
                for i in range(N):
                    li = L[r, s, i]
                    if j0 == 0:
                        a = 0.0
                        sn = 0.0
                    else:
                        a = alpha[0, b, i]
                        sn = noisy[0, b, i]
                        for lv in range(1, j0):
                            a = a + alpha[lv, b, i]
                            sn = sn + noisy[lv, b, i]
                    alpha[j0, b, i] = a + li
                    for lv in range(j0):
                        alpha[lv, b, i] = 0.0
                        noisy[lv, b, i] = 0.0
                    z0 = sc_t[e] * zt[r, pos, i]
                    node_noise[b, i] = (node_noise[b, i] - sn) + z0
                    noisy[j0, b, i] = z0
                    true_t[b, i] = true_t[b, i] + li
                    if pad > 0:
                        p = sc_t[e] * zt[r, pos + 1, i]
                        for q in range(2, pad + 1):
                            p = p + sc_t[e] * zt[r, pos + q, i]
                    else:
                        p = 0.0
                    noise_t[b, i] = node_noise[b, i] + p
                    # FreshNoise.step
                    true_f[b, i] = true_f[b, i] + li
                    est_f[b, i] = true_f[b, i] + sc_f[e] * zf[r, s, i]
        pos += 1 + pad
        # the scenario's running sums
        for r in range(R):
            m = 0.0
            for i in range(N):
                li = L[r, s, i]
                cum[r, i] = cum[r, i] + li
                a = abs(li)
                if i == 0 or a > m:
                    m = a
            sum_sq[r] = sum_sq[r] + m * m


@njit(cache=True)
def accumulate(total, per_round):
    """total + per_round[0] + per_round[1] + ... in order (the scenario's running sum)."""
    for s in range(per_round.shape[0]):
        for b in range(total.shape[0]):
            total[b] = total[b] + per_round[s, b]
