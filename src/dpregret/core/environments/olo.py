"""Agarwal and Singh (ICML 2017), section 2: oblivious loss sequences for OLO over the
sphere (Y = unit l2 ball) and over the cube (Y = unit l1 ball), and the best fixed
decision in hindsight.

``domain`` names the instantiation: ``"ball"`` (alias ``"sphere"``) or ``"cube"``.  Both
sequences are built around ``u``, the all-ones direction on the boundary of Y
(``1/sqrt(N)`` resp. ``1/N`` per coordinate).

- ``switching``: deterministic, ``l_t = s_b u`` on ``phases`` equal blocks with
  ``s_b = +1, -1, +1, ...`` alternating and the last block always +1, so
  ``L_T = m u`` or ``2 m u`` (m = T / phases) and the comparator sits on the boundary of X.
  The leader flips at every block; FTRL with R = ||x||^2 pays a ramp of about ``1/eta``
  rounds to reach the boundary, so its regret at the tuned eta is Theta(sqrt(T)).
- ``stochastic``: i.i.d. ``l_t = mu u + (1 - mu) xi_t`` with ``xi_t = g / ||g||_Y``,
  ``g ~ N(0, I_N)`` from each replicate's stream: symmetric, so ``E l_t = mu u``, and
  ``||l_t||_Y <= mu + (1 - mu) = 1`` by convexity (no clipping needed).
"""
from __future__ import annotations

import numpy as np

from dpregret.core import validate as V
from dpregret.core.rng import ReplicateStreams

DOMAINS = ("ball", "cube", "simplex")
_ALIASES = {"sphere": "ball"}


def domain_name(domain, allowed: tuple[str, ...] = DOMAINS) -> str:
    """The canonical decision-set name (``"sphere"`` is accepted for ``"ball"``)."""
    name = _ALIASES.get(domain, domain) if isinstance(domain, str) else domain
    if name not in allowed:
        raise ValueError(f"domain must be one of {allowed}, got {domain!r}")
    return name

DOMAINS = ("ball", "cube")
KINDS = ("switching", "stochastic")


def loss_norm(domain: str, loss: np.ndarray) -> np.ndarray:
    """The norm defining Y along the last axis: l2 (ball), l1 (cube)."""
    p = 2 if domain_name(domain, DOMAINS) == "ball" else 1
    return np.linalg.norm(np.asarray(loss, dtype=float), ord=p, axis=-1)


def direction(domain: str, N: int) -> np.ndarray:
    """``u = 1 / ||1||_Y``: the all-ones direction with ``||u||_Y = 1``."""
    N = V.integer("N", N)
    ones = np.ones(N)
    return ones / loss_norm(domain, ones)


def best_in_hindsight(domain: str, cum_loss: np.ndarray) -> np.ndarray:
    """``min_{x in X} <L_T, x>`` along the last axis: ball ``-||L||_2``, cube (X the unit
    l_inf ball) ``-||L||_1``, simplex ``min_i L_i``."""
    domain = domain_name(domain)
    L = np.asarray(cum_loss, dtype=float)
    if domain == "ball":
        return -np.linalg.norm(L, axis=-1)
    if domain == "cube":
        return -np.abs(L).sum(axis=-1)
    return L.min(axis=-1)


class SwitchingOLO:
    def __init__(self, domain: str, T: int, N: int, phases: int = 4):
        self.domain = domain_name(domain, DOMAINS)
        self.T = V.integer("T", T)
        self.N = V.integer("N", N)
        self.phases = V.integer("phases", phases)
        if self.phases > self.T:
            raise ValueError(f"phases must be <= T = {self.T}, got {phases!r}")
        self.u = direction(self.domain, self.N)

    def sign(self, t: int) -> float:
        if V.integer("t", t) > self.T:
            raise ValueError(f"t must lie in [1, T = {self.T}], got {t!r}")
        b = ((t - 1) * self.phases) // self.T
        return 1.0 if b % 2 == 0 or b == self.phases - 1 else -1.0

    def loss(self, t: int, R: int) -> np.ndarray:
        """Loss vector at round t (1-based), broadcast to (R, N)."""
        return np.broadcast_to(self.sign(t) * self.u, (V.integer("R", R), self.N))


class StochasticOLO:
    def __init__(self, domain: str, N: int, mu: float, streams: ReplicateStreams):
        self.domain = domain_name(domain, DOMAINS)
        self.N = V.integer("N", N)
        self.mu = V.probability("mu", mu, open_left=False, open_right=False)
        self.u = direction(self.domain, self.N)
        self.streams = streams

    def loss(self, t: int, R: int) -> np.ndarray:
        if R != self.streams.R:
            raise ValueError(f"R must equal the number of replicate streams ({self.streams.R}), got {R}")
        return self._make(self.streams.normal((self.N,)))

    def block(self, rounds: int) -> np.ndarray:
        """The losses of the next ``rounds`` rounds at once, ``(R, rounds, N)``: the same draws
        as ``rounds`` calls of :meth:`loss`."""
        return self._make(self.streams.normal((V.integer("rounds", rounds), self.N)))

    def _make(self, g: np.ndarray) -> np.ndarray:
        xi = g / np.maximum(loss_norm(self.domain, g), np.finfo(float).tiny)[..., None]
        return self.mu * self.u + (1.0 - self.mu) * xi
