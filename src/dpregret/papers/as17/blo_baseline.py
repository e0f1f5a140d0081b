"""The O~(T^(2/3)/eps) baseline of Table 2 row 1 (private bandit linear optimisation before Agarwal and Singh):
explore-and-feed into a private full-information learner, as the MAB row's baseline
(:class:`~dpregret.papers.as17.bandits.ExploreTree`).

The paper gives no algorithm for it (Table 2 cites the previous best O~(T^(2/3)/eps) without one), so this is the
standard reduction (Smith and Thakurta 2013's approach for bandits; Flaxman-Kalai-McMahan / Awerbuch-Kleinberg style
one-point estimation on a spanner) with the T^(2/3) tuning:

- with probability ``gamma = min(1, (N / T)^(1/3))`` a round explores: it plays ``s e_i`` (``i`` uniform in
  ``1..N``, ``s = +-1`` uniform: a point of the ball and of the cube), observes ``<l_t, s e_i>`` and forms the
  unbiased one-point estimate ``l^_t = N <l_t, s e_i> s e_i / gamma = N l_{t,i} e_i / gamma``; other rounds play the
  full-information learner's point ``x_t`` and feed ``l^_t = 0``;
- the full-information learner is FTRL with the Euclidean regulariser on X (the ball: ``x_t = Proj_ball(-eta
  L~_{t-1})``; the cube ``[-1, 1]^N``: ``x_t = clip(-eta L~_{t-1}, -1, 1)``) on the releases ``L~`` of the
  estimates' prefix sums by the standard tree-based aggregation (Dwork et al. 2010, Jain et al. 2012, as Smith and
  Thakurta use it: the release at t is the true prefix sum plus the Laplace noise of the dyadic nodes of ``[1, t]``,
  one fresh node per step, no padding draws), ``lambda = (2 N / gamma) (floor(log2 T) + 1) / eps``: the l1
  sensitivity of one estimate, ``||l^_t - l^'_t||_1 <= 2 N / gamma`` as ``|l_{t,i}| <= 1`` on both domains, times
  the nodes containing a leaf -- every release is eps-DP in the loss sequence, and so are the plays;
- ``eta = D sqrt(gamma / (N T))`` with ``D^2 = max ||x||_2^2`` (1 on the ball, N on the cube): FTRL's ``D^2 / (2 eta)
  + eta / 2 sum_t E||l^_t||^2`` with ``E||l^_t||_2^2 <= N / gamma``; the exploration costs ``<= 2 gamma T``, so
  ``gamma ~ T^(-1/3)`` balances them at ``T^(2/3)`` (the tree's noise adds ``O~(T^(1/3) N^(5/3) / eps)``-order terms).

Regret is measured, as for SCRiBLe's rows, at the played point's conditional mean ``(1 - gamma) x_t`` (an
exploring round's point has mean 0).  Whether a round explores, and where, depend on that round's uniforms alone, and
the learner is fed only explored losses, so the releases do not depend on its plays: a block of rounds takes its
draws at once (as :class:`~dpregret.papers.as17.bandits.ExploreTreeRounds`) and runs through the compiled
:func:`explore_tree_block` (a plain per-round reference is in the tests).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from dpregret.core import validate as V
from dpregret.core.rng import ReplicateStreams
from dpregret.core.tree import nodes_covering_leaf
from dpregret.papers.as17 import draws_jit

DOMAINS = ("ball", "cube")


def explore_params(domain: str, N: int, T: int, eps: float) -> dict:
    """The baseline's ``gamma``, ``eta`` and tree ``lambda`` (module docstring) at (domain, N, T, eps)."""
    if domain not in DOMAINS:
        raise ValueError(f"domain must be one of {DOMAINS}, got {domain!r}")
    N, T = V.integer("N", N), V.integer("T", T)
    eps = V.positive("eps", eps)
    gamma = float(min(1.0, (N / T) ** (1.0 / 3.0)))
    D2 = 1.0 if domain == "ball" else float(N)
    eta = math.sqrt(D2) * math.sqrt(gamma / (N * T))
    lam = (2.0 * N / gamma) * nodes_covering_leaf(T) / eps
    return {"gamma": gamma, "eta": eta, "lambda": lam}


def ftrl_point(domain: str, z: np.ndarray) -> np.ndarray:
    """FTRL with the Euclidean regulariser on X at ``z = -eta L~`` (last axis): the ball's projection, the cube's
    clip (the kernel's arithmetic, for reference)."""
    if domain == "ball":
        return z / np.maximum(1.0, np.linalg.norm(z, axis=-1, keepdims=True))
    return np.clip(z, -1.0, 1.0)


@njit(cache=True)
def explore_tree_block(ball: bool, t0: int, gamma: float, eta: float, lam: np.ndarray, L: np.ndarray,
                       U: np.ndarray, Z: np.ndarray, true: np.ndarray, node: np.ndarray, noise: np.ndarray,
                       suffered: np.ndarray) -> None:
    """Rounds ``t0 + 1 .. t0 + L.shape[1]`` in place.  Row ``b`` uses replicate ``r = b % R``: ``L[r, s]`` the loss,
    ``U[r, s]`` (explore?, coordinate), ``Z[r, s]`` the unit Laplace draw of the node completed at step ``t0 + s + 1``
    (scaled by ``lam[b]``).  ``true[b]``: the estimates' prefix sum; ``node[b, j]``: the noise of the level-j node
    of ``[1, t]``; ``noise[b]``: their sum over the set bits of t (the release's noise)."""
    B, N = true.shape
    R, tb = L.shape[0], L.shape[1]
    x = np.empty(N)
    for b in range(B):
        r = b % R
        for s in range(tb):
            t = t0 + s + 1
            nrm = 0.0
            for i in range(N):
                x[i] = -eta * (true[b, i] + noise[b, i])
                nrm += x[i] * x[i]
            if ball:
                scale = 1.0 / max(1.0, math.sqrt(nrm))
                for i in range(N):
                    x[i] *= scale
            else:
                for i in range(N):
                    x[i] = min(1.0, max(-1.0, x[i]))
            acc = 0.0
            for i in range(N):
                acc += x[i] * L[r, s, i]
            suffered[b] += (1.0 - gamma) * acc
            if U[r, s, 0] < gamma:
                i = min(int(U[r, s, 1] * N), N - 1)
                true[b, i] += L[r, s, i] * N / gamma
            j = 0  # the node completed at step t: level = trailing zeros of t; the lower levels merge into it
            while (t >> j) & 1 == 0:
                for i in range(N):
                    noise[b, i] -= node[b, j, i]
                    node[b, j, i] = 0.0
                j += 1
            for i in range(N):
                v = lam[b] * Z[r, s, i]
                node[b, j, i] = v
                noise[b, i] += v


class ExploreTreeBLO:
    """The baseline (module docstring), a block of rounds at a time, for ``E`` eps rows sharing the ``R`` replicates'
    draws (row ``e R + r`` uses replicate ``r``).  ``streams``: the exploration's uniforms (``(tb, 2)`` per replicate:
    explore?, which coordinate; the sign of ``s e_i`` cancels in the estimate and in the conditional mean, so it is
    not drawn); ``tree_streams``: the nodes' unit Laplace draws (``(tb, N)`` per replicate, one node per step)."""

    def __init__(self, domain: str, N: int, T: int, eps, streams: ReplicateStreams, tree_streams: ReplicateStreams):
        eps = np.array([V.positive("eps", e) for e in np.atleast_1d(eps)], dtype=float)
        P = [explore_params(domain, N, T, e) for e in eps]
        self.domain, self.N, self.T = domain, int(N), int(T)
        self.R, self.E = streams.R, eps.size
        self.gamma, self.eta = P[0]["gamma"], P[0]["eta"]  # neither depends on eps
        self.lam = np.array([q["lambda"] for q in P])
        B = self.E * self.R
        self.true, self.noise = np.zeros((B, self.N)), np.zeros((B, self.N))
        self.node = np.zeros((B, self.T.bit_length() + 1, self.N))
        self.streams, self.tree_streams = streams, tree_streams
        self.suffered = np.zeros(B)
        self.t = 0

    def run(self, L: np.ndarray) -> None:
        """The next ``L.shape[1]`` rounds with losses ``L`` (``(R, tb, N)``)."""
        R, tb, N = L.shape
        if self.t + tb > self.T:
            raise ValueError(f"built for T={self.T} rounds; {self.t + tb} is too many")
        U = np.ascontiguousarray(self.streams.uniform((tb, 2)))
        Z = draws_jit.laplace(self.tree_streams, (tb, N))  # tree_streams.laplace(1.0, (tb, N)), compiled
        explore_tree_block(self.domain == "ball", self.t, self.gamma, self.eta, np.repeat(self.lam, R),
                           np.ascontiguousarray(L), U, Z, self.true, self.node, self.noise, self.suffered)
        self.t += tb
