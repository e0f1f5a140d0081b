"""Estimates of the cumulative loss ``L_t = sum_{s<=t} l_s`` that an FTRL learner reads.

Agarwal and Singh (ICML 2017), section 3: a private learner may touch the losses only
through such an estimate.  Each class has ``estimate`` (the current ``L~_t``, shape
``(B, d)``) and ``step(l_t)``; the noisy ones draw through ``draw(k) -> (B, k, d)``.

- :class:`ExactSum`: no privacy (the non-private baseline).
- :class:`TreeSum`: Algorithm 2, TreeBasedAgg (``dpregret.core.tree``).
- :class:`FreshNoise`: fresh noise on every release, no tree (negative control).
"""
from __future__ import annotations

import numpy as np

from dpregret.core import validate as V
from dpregret.core.rng import ReplicateStreams
from dpregret.core.tree import Draw, TreeBasedAgg, TreeReleases


def scaled_draws(streams: ReplicateStreams, scales, d: int, kind: str = "laplace") -> Draw:
    """``draw(k) -> (E*R, k, d)``: one standard draw per replicate (Laplace or Gaussian),
    shared by the E parameter rows and scaled by each row's scale (row e*R + r uses
    replicate r) -- common random numbers across eps."""
    from dpregret.papers.as17 import draws_jit  # (numba: imported where draws are made)

    scales = np.atleast_1d(np.asarray(scales, dtype=float))
    if kind not in ("laplace", "gaussian"):
        raise ValueError(f"kind must be 'laplace' or 'gaussian', got {kind!r}")

    def draw(k: int) -> np.ndarray:
        # draws_jit.laplace(streams, .): the numbers of streams.laplace(1.0, .), compiled
        z = draws_jit.laplace(streams, (k, d)) if kind == "laplace" else streams.normal((k, d))
        return (scales[:, None, None, None] * z[None]).reshape(scales.size * streams.R, k, d)

    return draw


class ExactSum:
    def __init__(self, B: int, d: int):
        self.estimate = np.zeros((V.integer("B", B), V.integer("d", d)))

    def step(self, loss: np.ndarray) -> None:
        self.estimate = self.estimate + loss

    def block(self, losses: np.ndarray) -> np.ndarray:
        """``block(losses)`` (``(B, tb, d)``): the estimate each step reads, ``(B, tb, d)``, then
        advance by ``tb`` steps; the same numbers as ``estimate`` / ``step`` one step at a time."""
        c = np.cumsum(np.concatenate([self.estimate[:, None], losses], axis=1), axis=1)
        self.estimate = c[:, -1]
        return c[:, :-1]


class TreeSum:
    """Prefix sums released by TreeBasedAgg; :meth:`block` runs blocks of steps through
    :class:`~dpregret.core.tree.TreeReleases` (same draws; the two paths are not mixed)."""

    def __init__(self, T: int, B: int, d: int, draw: Draw):
        self.tree = TreeBasedAgg(T, d, draw, B)
        self._blocks = None

    @property
    def estimate(self) -> np.ndarray:
        return self.tree.released

    def step(self, loss: np.ndarray) -> None:
        if self._blocks is not None:
            raise RuntimeError("TreeSum: step() after block()")
        self.tree.step(loss)

    def block(self, losses: np.ndarray) -> np.ndarray:
        if self._blocks is None:
            if self.tree.t:
                raise RuntimeError("TreeSum: block() after step()")
            self._blocks = TreeReleases(self.tree.T, self.tree.d, self.tree._draw, self.tree.R, initial=self.tree.noise)
        return self._blocks.block(losses)



class FreshNoise:
    """``L~_t = L_t + Z_t`` with fresh ``Z_t`` at every release, no tree.

    Each loss enters all later releases, so privacy needs composition over the T
    releases; with advanced composition the per-release scale grows like sqrt(T)/eps
    (:func:`dpregret.core.calibration.fresh_noise_lambda`): the multiplicative regret of the pre-tree approaches.
    """

    def __init__(self, B: int, d: int, draw: Draw):
        self.true = np.zeros((V.integer("B", B), V.integer("d", d)))
        self._draw = draw
        self.estimate = self.true + draw(1)[:, 0]

    def step(self, loss: np.ndarray) -> None:
        self.true = self.true + loss
        self.estimate = self.true + self._draw(1)[:, 0]

    def block(self, losses: np.ndarray) -> np.ndarray:
        """As :meth:`ExactSum.block`; one fresh draw per step, the same draws and numbers."""
        true = np.cumsum(np.concatenate([self.true[:, None], losses], axis=1), axis=1)[:, 1:]
        est = true + self._draw(losses.shape[1])
        before = np.concatenate([self.estimate[:, None], est[:, :-1]], axis=1)
        self.true, self.estimate = true[:, -1], est[:, -1]
        return before


