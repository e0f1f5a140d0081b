"""Fused rounds of Algorithm 4 around Algorithm 5 (Agarwal and Singh 2017, section 4.1:
EXP2 with uniform exploration on the multi-armed bandit behind the Laplace feedback
reduction), compiled with numba: the arithmetic of :class:`dpregret.papers.as17.bandits.Exp2`
inside :class:`~dpregret.papers.as17.bandits.PrivateFeedback`, each row's rounds in order (the rows
of a replicate take each round in turn, so their independent chains overlap in the CPU: the same numbers).

The numpy classes spend ~0.35 ms per round at N = 200 and 24 rows; the rate of Table 2 in N
needs a horizon of 1e6 at N up to 200 (README), so ``papers.as17.scenario_bandits`` runs blocks
of rounds through :func:`exp2_block`.  The draws come from the same
:class:`~dpregret.core.rng.ReplicateStreams` in the same order as the classes consume them; a
test checks that both paths agree to rounding.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def exp2_block(logq: np.ndarray, eta: np.ndarray, gamma: np.ndarray, lam: np.ndarray, bias: np.ndarray,
               L: np.ndarray, Z: np.ndarray, U: np.ndarray, suffered: np.ndarray, noisy: np.ndarray,
               zsum: np.ndarray, record=None) -> None:
    """Run ``L.shape[1]`` rounds in place on the log-weights ``logq`` (``(B, N)``, max 0 per
    row) and the accumulators ``suffered``, ``noisy`` (``(B,)``) and ``zsum`` (``(B, N)``).

    Row ``b`` uses replicate ``r = b % R``: ``L[r, s]`` the loss vector of round ``s``,
    ``Z[r, s]`` the unit Laplace vector, ``U[r, s]`` the uniform choosing the arm.  Per round:
    ``p = (1 - gamma) softmax(logq) + gamma / N``; ``suffered += <p, l>``; the arm is the
    first index whose cumulative ``p`` reaches ``U * sum(p)``; the noise is
    ``z = lam (Z + bias)`` (``noisy += <p, z>``, ``zsum += z``, for Lemma 4.3); the forwarded
    value ``l[arm] + z[arm]`` divided by ``p[arm]`` is subtracted, times ``eta``, from
    ``logq[arm]``, and ``logq`` is shifted to max 0.

    ``record`` (optional, ``(B, L.shape[1], 2)`` float array; privacy audits): round ``s`` of
    row ``b`` stores the arm played and the value forwarded to EXP2 (``l[arm] + z[arm]``, the
    number its update divides by ``p[arm]``) in ``record[b, s]``.  Recording only writes
    there; omitted (None), the compiled rounds are the same as without the argument.
    """
    B, N = logq.shape
    R, tb = L.shape[0], L.shape[1]
    p = np.empty(N)
    for r in range(R):  # the rows of replicate r take each round in turn (their round chains overlap)
        for s in range(tb):
            for b in range(r, B, R):
                g, et, lm = gamma[b], eta[b], lam[b]
                tot = 0.0
                for j in range(N):
                    p[j] = math.exp(logq[b, j])
                    tot += p[j]
                loss = 0.0
                csum = 0.0
                for j in range(N):
                    p[j] = (1.0 - g) * (p[j] / tot) + g / N
                    loss += p[j] * L[r, s, j]
                    csum += p[j]
                target = U[r, s] * csum
                arm = N - 1
                c = 0.0
                for j in range(N):
                    c += p[j]
                    if not c < target:
                        arm = j
                        break
                nz = 0.0
                for j in range(N):
                    z = lm * (Z[r, s, j] + bias[b, j])
                    nz += p[j] * z
                    zsum[b, j] += z
                suffered[b] += loss
                noisy[b] += nz
                value = L[r, s, arm] + lm * (Z[r, s, arm] + bias[b, arm])
                if record is not None:
                    record[b, s, 0] = arm
                    record[b, s, 1] = value
                logq[b, arm] -= et * (value / p[arm])
                top = logq[b, 0]
                for j in range(1, N):
                    if logq[b, j] > top:
                        top = logq[b, j]
                for j in range(N):
                    logq[b, j] -= top


@njit(cache=True)
def exp2_block_pulled(logq: np.ndarray, eta: np.ndarray, gamma: np.ndarray, lam: np.ndarray, L: np.ndarray,
                      perm: np.ndarray, z: np.ndarray, U: np.ndarray, suffered: np.ndarray) -> None:
    """The rounds of :func:`exp2_block` when Lemma 4.3's quantities are not wanted: only the
    pulled arm's noise is drawn (``z[r, s]``, one unit Laplace number per replicate-round
    instead of a vector over the N arms) and the weights ``w = exp(logq)`` are updated at the
    pulled arm only (one exp per round instead of N); ``logq`` is shifted to max 0 only when
    the total weight leaves [1e-100, 1e100], so any block size gives the same numbers.

    ``L`` (``(R, tb, N)``, float, or uint8 for 0/1 losses) is read through the replicate's arm
    labels: arm ``j`` has the loss ``L[r, s, perm[r, j]]`` (``perm``: ``(R, N)``).  Row ``b`` uses
    replicate ``r = b % R``; the ``B // R`` rows of a replicate play each round one after the
    other (their round chains, exp, divisions and draw, overlap in the CPU), each row's sums in
    the order of the plain rounds.  The arm is the number of cumulative ``p`` below the target
    (at most ``N - 1``): ``p >= 0``, so the cumulative sums only grow and the count is the first
    index whose cumulative ``p`` reaches the target, without a branch per arm.

    By Lemma 4.2's construction Algorithm 4 adds ``lam Z_t[arm_t]`` to the forwarded value,
    and ``Z_t`` is independent of ``arm_t`` (chosen from the past), so ``Z_t[arm_t]`` is a
    unit Laplace number independent of the past: the same law as ``z[r, s]``.  Fed ``Z`` with
    ``Z[r, s, j] = z[r, s]`` for every arm and no bias, :func:`exp2_block` gives the same
    ``suffered`` to rounding (test).
    """
    B, N = logq.shape
    R, tb = L.shape[0], L.shape[1]
    K = B // R
    w = np.empty((K, N))  # the replicate's rows' weights exp(logq)
    C = np.empty((K, N))  # their cumulative p
    a, c0, csum = np.empty(K), np.empty(K), np.empty(K)
    lr = np.empty(N)  # the round's losses in the replicate's arm labels
    for r in range(R):
        for k in range(K):
            b = k * R + r
            c0[k] = gamma[b] / N
            for j in range(N):
                w[k, j] = math.exp(logq[b, j])
        for s in range(tb):
            for j in range(N):
                lr[j] = L[r, s, perm[r, j]]
            u, zz = U[r, s], z[r, s]
            for k in range(K):
                b = k * R + r
                t = 0.0
                for j in range(N):
                    t += w[k, j]
                if not (1e-100 < t < 1e100):  # re-base (rare): shift logq to max 0, recompute w
                    t = _rebase(logq, w, k, b, N)
                a[k] = (1.0 - gamma[b]) / t
            for k in range(K):
                b = k * R + r
                ak, ck = a[k], c0[k]
                loss = 0.0
                cs = 0.0
                for j in range(N):
                    pj = ak * w[k, j] + ck
                    loss += pj * lr[j]
                    cs += pj
                    C[k, j] = cs
                suffered[b] += loss
                csum[k] = cs
            for k in range(K):
                b = k * R + r
                target = u * csum[k]
                n = 0
                for j in range(N):
                    n += C[k, j] < target
                arm = min(n, N - 1)
                value = lr[arm] + lam[b] * zz
                logq[b, arm] -= eta[b] * (value / (a[k] * w[k, arm] + c0[k]))
                w[k, arm] = math.exp(logq[b, arm])


@njit(cache=True)
def _rebase(logq: np.ndarray, w: np.ndarray, k: int, b: int, N: int) -> float:
    """Row ``b`` (row ``k`` of ``w``): ``logq`` shifted to max 0, ``w`` recomputed; returns its sum."""
    top = logq[b, 0]
    for j in range(1, N):
        if logq[b, j] > top:
            top = logq[b, j]
    for j in range(N):
        logq[b, j] -= top
        w[k, j] = math.exp(logq[b, j])
    t = 0.0
    for j in range(N):
        t += w[k, j]
    return t
