"""Fused SCRiBLe rounds (Agarwal and Singh 2017, section 4.2: Algorithm 4 around SCRiBLe),
compiled with numba: the same arithmetic as :class:`dpregret.papers.as17.scrible.Scrible`
(``predict`` / ``update``) plus Algorithm 4's forwarded noise, each row's rounds in order (the rows of
a replicate take each round in turn, so their independent chains overlap in the CPU: the same numbers).

The numpy class spends ~90 us per round on ~25 small array operations at 16 rows; the
SCRiBLe T-rate needs horizons of 1e6 and more (its local slope reaches 1/2 only slowly,
README), so the scenario runs blocks of rounds through :func:`scrible_block`.  The random
numbers are drawn per block from the same :class:`~dpregret.core.rng.ReplicateStreams` in the
same order as the class consumes them, so both paths see identical draws; a test checks
that they agree to rounding.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def scrible_block(ball: bool, S: np.ndarray, eta: np.ndarray, lam: np.ndarray, L: np.ndarray, Z: np.ndarray,
                  U: np.ndarray, suffered: np.ndarray, record=None) -> None:
    """Run ``L.shape[1]`` rounds in place on ``S`` (``(B, N)``) and ``suffered`` (``(B,)``).

    Row ``b`` uses replicate ``r = b % R`` of the draws: ``L[r, s]`` the loss of round ``s``,
    ``Z[r, s]`` unit Laplace noise (scaled by ``lam[b]``), ``U[r, s]`` the uniform deciding
    ``(i, sign)``; ``eta[b]`` is the row's step.  Per round: the FTRL point ``x`` and the
    Hessian spectrum (:func:`dpregret.papers.as17.scrible.ftrl_step`), ``suffered += <l, x>``,
    play ``y = x + sign lambda_i^{-1/2} e_i``, forward ``v = <l + lam Z, y>`` and add
    ``N v sign lambda_i^{1/2} e_i`` to ``S``.

    ``record`` (optional, ``(B, L.shape[1], 1 + N)`` float array; privacy audits): round ``s``
    of row ``b`` stores the forwarded value ``v`` in ``record[b, s, 0]`` and the played point
    ``y`` in ``record[b, s, 1:]``.  Recording only writes there; omitted (None), the compiled
    rounds are the same as without the argument.
    """
    B, N = S.shape
    R, tb = L.shape[0], L.shape[1]
    g = np.empty(N)
    x = np.empty(N)
    e = np.empty(N)
    w = np.empty(N)
    for r in range(R):  # the rows of replicate r take each round in turn (their round chains overlap)
        for s in range(tb):
            for b in range(r, B, R):
                for j in range(N):
                    g[j] = eta[b] * S[b, j]
                k = min(int(U[r, s] * (2 * N)), 2 * N - 1)
                i = k // 2
                sign = 2.0 * (k % 2) - 1.0
                if ball:
                    a2 = 0.0
                    for j in range(N):
                        a2 += g[j] * g[j]
                    a = math.sqrt(a2)
                    q = 1.0 + math.sqrt(1.0 + a * a)
                    for j in range(N):
                        x[j] = -g[j] / q
                    lam_i = q + a * a if i == 0 else q
                    # Householder column i: w = e_1 + sign(u_1) u, u the unit direction of x (e_1 at S = 0)
                    for j in range(N):
                        w[j] = -g[j] / a if a > 0 else (1.0 if j == 0 else 0.0)
                    if w[0] < 0:
                        for j in range(N):
                            w[j] = -w[j]
                    w[0] += 1.0
                    ww = 0.0
                    for j in range(N):
                        ww += w[j] * w[j]
                    c = w[i] / ww
                    for j in range(N):
                        e[j] = -2.0 * w[j] * c
                    e[i] += 1.0
                else:
                    for j in range(N):
                        qj = 1.0 + math.sqrt(1.0 + g[j] * g[j])
                        x[j] = -g[j] / qj
                        if j == i:
                            lam_i = qj * (qj - 1.0)
                    for j in range(N):
                        e[j] = 0.0
                    e[i] = 1.0
                root = math.sqrt(lam_i)
                step = sign / root
                loss = 0.0
                v = 0.0
                for j in range(N):
                    loss += x[j] * L[r, s, j]
                    v += (L[r, s, j] + lam[b] * Z[r, s, j]) * (x[j] + step * e[j])
                suffered[b] += loss
                if record is not None:
                    record[b, s, 0] = v
                    for j in range(N):
                        record[b, s, 1 + j] = x[j] + step * e[j]
                coef = N * sign * root * v
                for j in range(N):
                    S[b, j] += coef * e[j]
