"""Fused PRIVATEBANDIT rounds (Ene, Nguyen, Vladu 2021, section 3, Algorithm 1, lines 5-13), compiled with numba:
the arithmetic of the numpy loop in :func:`dpregret.papers.env21.learners._run` (``mode="fw"``)
for one round of ``T_batch`` steps, one row at a time.

What stays in numpy (per round, so the random numbers are the numpy path's): the directions
``w ~ N(0, I_dim)`` are drawn for the whole round at once from the same stream (a
:class:`~dpregret.core.rng.ReplicateStreams` serves its replicate's uniforms sequentially, so one
request of ``(T_batch, dim)`` gives exactly the draws of ``T_batch`` requests of ``(dim,)``),
normalised, and mapped to ambient coordinates ``Q u`` by one matrix product; the tree
aggregation (one release per round) and the played point are computed as before.

What is compiled: per row and step, the query ``y = play + zeta Q u``, the loss
``L ||y - c_piece||`` (distance losses), the cumulative loss and its checkpoints, the batch sum
``g += (dim / zeta) f u`` and one Frank-Wolfe iteration (one LMO call: simplex or l1 ball)
with exact line search on ``||x||^2 / 2 + <lin, x>``.  Row ``b`` uses replicate ``b % Rb`` of
the directions (the variants of one call share their directions; see ``papers.env21.scenario``).
The reductions may be reassociated (``fastmath``): the numbers agree with the numpy path to
rounding (tests: 1e-9), not bit for bit.  They are the same on every CPU: the workflow compiles
for numba's ``generic`` x86-64 target (:mod:`dpregret.core.cpu`), which has no FMA to contract into and
one vector width, so every host runs the same machine code (tests/test_cross_cpu.py).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

_FM = {"reassoc", "nsz", "arcp", "contract"}
SIMPLEX, L1BALL, TREE = 0, 1, 2  # TREE: spanning-tree polytope, Prim's algorithm (method="prim")


@njit(cache=True, fastmath=_FM)
def fw_round(kind: int, rho: float, play: np.ndarray, QU: np.ndarray, UC: np.ndarray, zeta: float, coef: float,
             L: float, centres: np.ndarray, piece: np.ndarray, lin: np.ndarray, z: np.ndarray, g: np.ndarray,
             cum: np.ndarray, step_cp: np.ndarray, out: np.ndarray, vals: np.ndarray, Y: np.ndarray,
             fw: bool, edge_index: np.ndarray, calls: np.ndarray, repeats: int) -> None:
    """One round in place.

    ``play`` (B, n) the point played this round; ``QU`` (Rb, nb, n) the ambient directions
    ``Q u``; ``UC`` (Rb, nb, dim) the unit directions; ``coef = dim / zeta``; ``centres``
    (K, n) and ``piece`` (nb,) the loss of each step; ``lin`` (B, n) the linear term of the
    Frank-Wolfe objective (``sign eta S``); ``z`` (B, n) the Frank-Wolfe iterate; ``g`` (B, dim)
    the batch sum; ``cum`` (B,) the cumulative loss; ``step_cp`` (nb,) the checkpoint index
    reached at each step (-1: none) and ``out`` (B, C) the checkpoint values; ``vals`` (nb, B)
    receives the losses.  ``Y`` (nb, B, n) receives the queries when it is not empty (monitor,
    record_queries).  ``fw=False`` skips the Frank-Wolfe iterations.  ``edge_index`` (V, V) (TREE
    only; -1 off the edges) maps a node pair to its coordinate: the LMO is Prim's algorithm from
    node 0 with the ties of ``SpanningTreePolytope._lmo_prim`` (first minimum, strict improvement).
    ``calls`` (B,) int64 counts the LMO invocations of each row (one per Frank-Wolfe iteration, times
    ``repeats``: the oracle is answered ``repeats`` times per iteration, the same vertex each time;
    ``repeats = 2`` is the two-call control of ``ENV-oracle-calls``).
    """
    B, n = z.shape
    Rb, nb = QU.shape[0], QU.shape[1]
    d = UC.shape[2]
    keep = Y.shape[0] > 0
    grad = np.empty(n)
    vert = np.zeros(n)
    Vn = edge_index.shape[0]
    key = np.empty(Vn)
    parent = np.zeros(Vn, dtype=np.int64)
    done = np.zeros(Vn, dtype=np.bool_)
    for b in range(B):
        r = b % Rb
        for s in range(nb):
            c = centres[piece[s]]
            acc = 0.0
            for j in range(n):
                yj = play[b, j] + zeta * QU[r, s, j]
                if keep:
                    Y[s, b, j] = yj
                t = yj - c[j]
                acc += t * t
            val = L * math.sqrt(acc)
            vals[s, b] = val
            cum[b] += val
            k = step_cp[s]
            if k >= 0:
                out[b, k] = cum[b]
            f = coef * val
            for j in range(d):
                g[b, j] += f * UC[r, s, j]
            if not fw:
                continue
            # one Frank-Wolfe iteration: v = LMO(grad), gamma = clip(<grad, z - v> / ||z - v||^2, 0, 1)
            for j in range(n):
                grad[j] = z[b, j] + lin[b, j]
            for _rep in range(repeats):  # the oracle answered `repeats` times (the same vertex), each counted
                calls[b] += 1
                for j in range(n):
                    vert[j] = 0.0
                if kind == SIMPLEX:
                    i, best = 0, np.inf
                    for j in range(n):
                        if grad[j] < best:
                            best, i = grad[j], j
                    vert[i] = 1.0
                elif kind == L1BALL:
                    i, best = 0, -1.0
                    for j in range(n):
                        a = abs(grad[j])
                        if a > best:
                            best, i = a, j
                    vert[i] = -rho if grad[i] > 0 else rho
                else:  # Prim from node 0 on the weights grad
                    for v in range(Vn):
                        done[v] = v == 0
                        parent[v] = 0
                        e = edge_index[0, v]
                        key[v] = grad[e] if (e >= 0 and v != 0) else np.inf
                    for _ in range(Vn - 1):
                        jn, best = 0, np.inf
                        for v in range(Vn):
                            if key[v] < best:
                                best, jn = key[v], v
                        vert[edge_index[parent[jn], jn]] = 1.0
                        done[jn] = True
                        for v in range(Vn):
                            e = edge_index[jn, v]
                            wv = grad[e] if e >= 0 else np.inf
                            if wv < key[v] and not done[v]:
                                key[v] = wv
                                parent[v] = jn
                        for v in range(Vn):
                            if done[v]:
                                key[v] = np.inf
            den = 0.0
            num = 0.0
            for j in range(n):
                dv = z[b, j] - vert[j]
                den += dv * dv
                num += grad[j] * dv
            gam = 0.0
            if den > 0:
                gam = min(max(num / den, 0.0), 1.0)
            for j in range(n):
                z[b, j] -= gam * (z[b, j] - vert[j])
