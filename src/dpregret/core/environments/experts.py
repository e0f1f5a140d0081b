"""Loss sequences for prediction with expert advice, losses in [0, 1]^N.

Agarwal and Singh (ICML 2017), section 2, with ``Y = [0, 1]^N`` (so the l1 sensitivity of
one loss vector is N, matching ``lambda = N log T / eps`` of Corollary 3.2, item 1).
Both are oblivious: the sequence does not depend on the learner's play, as the
one-shot-noise argument of Theorem 3.4 (eq. 1) requires.

- ``switching``: deterministic; ``phases`` equal blocks, in block b expert ``b mod 2`` has
  loss 0 and every other expert loss 1.  The leader changes at every block boundary and
  the two leading experts end level, so a learner pays for each switch: regret of
  exponential weights is Theta(1/eta) = Theta(sqrt(T)).
- ``stochastic``: i.i.d. Bernoulli losses, expert 0 with mean 1/2 - gap, the rest 1/2;
  drawn from each replicate's own stream (common to every algorithm compared).
"""
from __future__ import annotations

import numpy as np

from dpregret.core import validate as V
from dpregret.core.rng import ReplicateStreams

KINDS = ("switching", "stochastic")


class SwitchingExperts:
    def __init__(self, T: int, N: int, phases: int = 4):
        self.T = V.integer("T", T)
        self.N = V.integer("N", N, minimum=2)
        self.phases = V.integer("phases", phases)

    def loss(self, t: int, R: int) -> np.ndarray:
        """Loss vector at round t (1-based), broadcast to (R, N)."""
        b = ((t - 1) * self.phases) // self.T
        l = np.ones(self.N)
        l[b % 2] = 0.0
        return np.broadcast_to(l, (R, self.N))


class StochasticExperts:
    def __init__(self, N: int, gap: float, streams: ReplicateStreams):
        self.N = V.integer("N", N, minimum=2)
        gap = V.nonnegative("gap", gap)
        if gap > 0.5:
            raise ValueError(f"gap must lie in [0, 0.5], got {gap!r}")
        self.means = np.full(self.N, 0.5)
        self.means[0] = 0.5 - gap
        self.streams = streams

    def loss(self, t: int, R: int) -> np.ndarray:
        if R != self.streams.R:
            raise ValueError(f"R must equal the number of replicate streams ({self.streams.R}), got {R}")
        return (self.streams.uniform((self.N,)) < self.means).astype(float)

    def block(self, rounds: int) -> np.ndarray:
        """The losses of the next ``rounds`` rounds, ``(R, rounds, N)``: the same draws as
        ``rounds`` calls of :meth:`loss`."""
        return (self.streams.uniform((V.integer("rounds", rounds), self.N)) < self.means).astype(float)
