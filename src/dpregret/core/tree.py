"""Tree aggregation (binary mechanism), both variants the papers use.

(a) :class:`TreeNoise` -- Zhang, Tran, Cutkosky (NeurIPS 2022), Algorithm 1, function
    NOISE(t): ``gamma_t = sum_{i in I_t} R_i`` where ``I_t`` holds the non-zero partial
    sums of the binary expansion of t (``I_7 = {4, 6, 7}``, ``I_8 = {8}``) and ``R_i`` is
    drawn once, at step i, with that step's own scale ``sigma_i``.
(b) :class:`TreeBasedAgg` -- Agarwal and Singh (ICML 2017), Algorithm 2 (used by Ene,
    Nguyen, Vladu too): Jain et al.'s PrivateSum over dyadic nodes, padded so that every
    released prefix sum, the initial ``L~_0`` included, is the true prefix sum plus
    exactly ``K = draws_per_release(T)`` i.i.d. draws (Lemma 3.3, "Distribution").

Depth convention (stated once, tested in tests/test_tree.py).  Node ``(j, m)`` is the
dyadic interval ``[(m-1) 2^j + 1, m 2^j]``; it exists once ``m 2^j <= T``.  The prefix
``[1, t]`` is the union of the nodes given by the set bits of t, so a release uses
``popcount(t) <= floor(log2(T+1))`` nodes.  A leaf lies in one node per level, and leaf 1
lies in ``[1, 2^j]`` for every ``2^j <= T``, each of which is released at ``t = 2^j``:
the number of released nodes covering a leaf is at most ``nodes_covering_leaf(T) =
floor(log2 T) + 1``, with equality at leaf 1.  That number -- not ``ceil(log2 T)`` -- is
the sensitivity multiplier of the node transcript; the two differ when T is a power of
two (see the errata list in the report).  Padding counts ``K = max(1, ceil(log2 T))``,
the paper's ``ceil(log T)`` with base 2 (at T = 1 the paper's count is 0 but the single
release needs one node, hence the ``max``).

Both classes work on state arrays of shape ``(R, d)`` (replicates x dimension) with
O(d log T) work per step, and keep the noise of the last output inspectable.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dpregret.core import validate as V

# draw(k) -> array (R, k, d) of k i.i.d. noise vectors per replicate
Draw = Callable[[int], np.ndarray]


def draws_per_release(T: int) -> int:
    """K = max(1, ceil(log2 T)): noise draws in every TreeBasedAgg release."""
    T = V.integer("T", T, minimum=1)
    return max(1, (T - 1).bit_length())  # (T-1).bit_length() == ceil(log2 T) for T >= 1


def nodes_covering_leaf(T: int) -> int:
    """floor(log2 T) + 1: the most released dyadic nodes that contain one leaf."""
    return V.integer("T", T, minimum=1).bit_length()


def prefix_nodes(t: int) -> list[tuple[int, int]]:
    """The dyadic nodes ``(level j, index m)`` whose disjoint union is ``[1, t]``."""
    t = V.integer("t", t, minimum=1)
    return [(j, (t >> j)) for j in range(t.bit_length()) if (t >> j) & 1]


def prefix_node_matrix(T: int) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The 0/1 map from node values to prefix sums: ``M[t-1, k] = 1`` iff node ``k`` is in
    the decomposition of ``[1, t]``; nodes listed in completion order (node of step t at
    position t-1), i.e. ``(lowbit level of t, t >> level)``."""
    T = V.integer("T", T, minimum=1)
    nodes = [((t & -t).bit_length() - 1, t >> ((t & -t).bit_length() - 1)) for t in range(1, T + 1)]
    pos = {n: i for i, n in enumerate(nodes)}
    M = np.zeros((T, T), dtype=np.int8)
    for t in range(1, T + 1):
        for n in prefix_nodes(t):
            M[t - 1, pos[n]] = 1
    return M, nodes


def binary_prefix_set(t: int) -> list[int]:
    """ZTC's I_t: non-zero partial sums of the binary expansion of t, ascending."""
    t = V.integer("t", t, minimum=1)
    return sorted((t >> j) << j for j in range(t.bit_length()) if (t >> j) & 1)


class TreeBasedAgg:
    """Agarwal--Singh Algorithm 2 (TreeBasedAgg), streaming, vectorised over replicates.

    ``draw(k)`` returns ``(R, k, d)`` i.i.d. noise; each completed node gets one draw, each
    release ``K - popcount(t)`` fresh padding draws.  ``pad=False`` drops the padding (and
    the noise of ``L~_0``): Jain et al.'s PrivateSum, whose releases carry ``popcount(t)``
    draws -- not identically distributed, the negative control of Lemma 3.3.  After ``step(l_t)``: ``noise`` is
    ``Z_t = L~_t - sum_{s<=t} l_s``, ``last_draws`` the number of draws in ``Z_t``,
    ``last_node`` the node completed at step t with its noisy value (the node transcript)
    and ``padding`` the sum of this release's padding draws.
    """

    def __init__(self, T: int, d: int, draw: Draw, R: int, pad: bool = True):
        self.T = V.integer("T", T, minimum=1)
        self.d = V.integer("d", d, minimum=1)
        self.R = V.integer("R", R, minimum=1)
        self.K = draws_per_release(self.T)
        self.pad = bool(pad)
        self._draw = draw
        levels = self.T.bit_length()
        self._alpha = np.zeros((levels, self.R, self.d))  # true partial sums per level
        self._noisy = np.zeros((levels, self.R, self.d))  # noise on the stored nodes
        self._node_noise = np.zeros((self.R, self.d))  # sum of the stored nodes' noise
        self.t = 0
        self.true_sum = np.zeros((self.R, self.d))
        k0 = self.K if self.pad else 0
        self.noise = self._sum_draws(k0)  # L~_0 = sum of K draws
        self.last_draws = k0
        self.draw_count = k0

    def _sum_draws(self, k: int) -> np.ndarray:
        if k == 0:
            return np.zeros((self.R, self.d))
        z = self._draw(k)
        if z.shape != (self.R, k, self.d):
            raise ValueError(f"draw({k}) must return shape {(self.R, k, self.d)}, got {z.shape}")
        return z.sum(axis=1)

    @property
    def released(self) -> np.ndarray:
        """L~_t, the latest released prefix sum (L~_0 before the first step)."""
        return self.true_sum + self.noise

    def step(self, loss: np.ndarray) -> np.ndarray:
        if self.t >= self.T:
            raise ValueError(f"TreeBasedAgg was built for T={self.T} steps; step {self.t + 1} is one too many")
        loss = np.broadcast_to(np.asarray(loss, dtype=float), (self.R, self.d))
        self.t += 1
        t = self.t
        j0 = (t & -t).bit_length() - 1  # level of the node completed at step t
        self._alpha[j0] = self._alpha[:j0].sum(axis=0) + loss
        self._alpha[:j0] = 0.0
        pad = self.K - t.bit_count() if self.pad else 0
        z = self._draw(1 + pad)
        if z.shape != (self.R, 1 + pad, self.d):
            raise ValueError(f"draw must return shape {(self.R, 1 + pad, self.d)}, got {z.shape}")
        # nodes below j0 leave the decomposition of [1, t], node j0 enters (amortised O(1) levels)
        self._node_noise = self._node_noise - self._noisy[:j0].sum(axis=0) + z[:, 0]
        self._noisy[:j0] = 0.0
        self._noisy[j0] = z[:, 0]
        self.true_sum = self.true_sum + loss
        self.padding = z[:, 1:].sum(axis=1)
        self.noise = self._node_noise + self.padding
        # the node completed at step t, as released: (level, index) and its noisy value
        self.last_node = ((j0, t >> j0), self._alpha[j0] + self._noisy[j0])
        self.last_draws = t.bit_count() + pad
        self.draw_count += 1 + pad
        return self.released



class TreeReleases:
    """The releases of :class:`TreeBasedAgg`, a block of steps at a time (the fast path of
    scenarios whose learner's input does not depend on its plays: full information against an
    oblivious sequence).  The same draws in the same order as the class (``draw(K)`` for
    ``L~_0``, then ``1 + K - popcount(t)`` per step); the release of step t is the true prefix
    sum plus the draws of the nodes completed at the steps of ``binary_prefix_set(t)`` plus
    its padding draws: the class's numbers up to rounding (the sums are taken in another
    order; tests/test_tree.py)."""

    def __init__(self, T: int, d: int, draw: Draw, B: int, initial=None):
        self.T, self.d, self.B = V.integer("T", T, minimum=1), V.integer("d", d), V.integer("B", B)
        self.K = draws_per_release(self.T)
        self._draw = draw
        self.t = 0
        self.true = np.zeros((self.B, self.d))
        self._node = np.zeros((self.T.bit_length(), self.B, self.d))  # draws of the nodes of [1, t]
        # L~_0's noise: K draws (or the sum already drawn by a TreeBasedAgg built on the same draw)
        self.noise = draw(self.K).sum(axis=1) if initial is None else np.array(initial, dtype=float)

    def block(self, losses: np.ndarray) -> np.ndarray:
        """Feed ``losses`` (``(B, tb, d)``, steps ``t + 1 .. t + tb``); return the release each of
        these steps is played on, ``L~_{t-1}`` (``(B, tb, d)``), and advance to ``t + tb``."""
        B, tb, d = losses.shape
        if self.t + tb > self.T:
            raise ValueError(f"TreeReleases was built for T={self.T} steps; {self.t + tb} is too many")
        t0, ts = self.t, np.arange(self.t + 1, self.t + tb + 1)
        true = np.cumsum(np.concatenate([self.true[:, None], losses], axis=1), axis=1)  # true[:, s]: after s steps
        counts = 1 + self.K - np.array([int(t).bit_count() for t in ts])
        first = np.cumsum(counts) - counts
        Z = self._draw(int(counts.sum()))
        if Z.shape != (B, int(counts.sum()), d):
            raise ValueError(f"draw must return shape {(B, int(counts.sum()), d)}, got {Z.shape}")
        node = Z[:, first]  # the node completed at each step
        noise = np.add.reduceat(Z, first, axis=1) - node  # each step's padding draws
        for j in range(self.T.bit_length()):
            on = ((ts >> j) & 1).astype(bool)
            at = (ts >> j) << j  # the step that completed the level-j node of [1, t]
            inside = on & (at > t0)
            noise[:, inside] += node[:, at[inside] - t0 - 1]
            noise[:, on & ~inside] += self._node[j][:, None]
        before = true[:, :-1] + np.concatenate([self.noise[:, None], noise[:, :-1]], axis=1)
        end = int(ts[-1])
        for j in range(self.T.bit_length()):
            at = (end >> j) << j
            if (end >> j) & 1 and at > t0:
                self._node[j] = node[:, at - t0 - 1]
        self.true, self.noise, self.t = true[:, -1], noise[:, -1], end
        return before


class TreeNoise:
    """Zhang--Tran--Cutkosky NOISE(t), streaming, vectorised over replicates.

    ``step(sigma_t)`` draws ``R_t = sigma_t * draw(1)`` and returns
    ``gamma_t = sum_{i in I_t} R_i``; ``members`` is ``I_t`` and ``nodes`` the stored
    ``R_i`` (level -> array), so the noise is inspectable.

    ``gamma_t`` is the sum of the stored nodes of the set bits of t in increasing level, the
    numbers ``self._R[levels].sum(axis=0)`` gives: numpy adds the rows of an axis-0 reduction
    one after the other unless a row is a single number (``R * d == 1``), where it sums
    pairwise; that case keeps numpy's reduction, the others add in a loop (cheaper per step,
    the same bits; tests/test_tree.py).
    """

    def __init__(self, T: int, d: int, draw: Draw, R: int):
        self.T = V.integer("T", T, minimum=1)
        self.d = V.integer("d", d, minimum=1)
        self.R = V.integer("R", R, minimum=1)
        self._draw = draw
        self._R = np.zeros((self.T.bit_length(), self.R, self.d))
        self._rows = self.R * self.d > 1  # rows of several numbers: numpy's axis-0 sum adds them in order
        self.t = 0
        self.draw_count = 0

    @property
    def members(self) -> list[int]:
        """``I_t`` of the latest step (empty before the first)."""
        return binary_prefix_set(self.t) if self.t else []

    def _gamma(self, t: int) -> np.ndarray:
        """sum_{i in I_t} R_i: the stored nodes of the set bits of t, in increasing level."""
        if not self._rows:
            return self._R[[j for j in range(t.bit_length()) if (t >> j) & 1]].sum(axis=0)
        j = (t & -t).bit_length() - 1
        out = self._R[j].copy()
        t >>= j + 1
        while t:
            j += 1
            if t & 1:
                out += self._R[j]
            t >>= 1
        return out

    def step(self, sigma_t) -> np.ndarray:
        if self.t >= self.T:
            raise ValueError(f"TreeNoise was built for T={self.T} steps; step {self.t + 1} is one too many")
        sigma_t = np.asarray(sigma_t, dtype=float)
        # the smallest is >= 0 unless one is negative or NaN (NaN propagates), the largest < inf unless one is inf
        if not (sigma_t.min() >= 0.0 and sigma_t.max() < np.inf):
            raise ValueError(f"sigma_t must be finite and >= 0, got {sigma_t!r}")
        self.t += 1
        t = self.t
        j0 = (t & -t).bit_length() - 1
        z = self._draw(1)
        if z.shape != (self.R, 1, self.d):
            raise ValueError(f"draw must return shape {(self.R, 1, self.d)}, got {z.shape}")
        sig = sigma_t.reshape(-1, 1) if sigma_t.ndim else sigma_t
        self._R[j0] = sig * z[:, 0]
        if j0:
            self._R[:j0] = 0.0
        self.draw_count += 1
        return self._gamma(t)
