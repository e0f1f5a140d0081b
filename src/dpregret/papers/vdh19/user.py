"""Van der Hoeven (thesis ch. 3; NeurIPS 2019) with your own learner: the wrapper that puts it
in Algorithm 2's black-box slot (the claims it applies to are ``papers.vdh19.scenario.USER_CLAIMS``).

A user's OCO learner ``make(R, d, r)`` goes in Algorithm 2's black-box slot, the direction
learner ``A_Z`` on the unit ball (``r = 1``; :class:`UserDirection`, :func:`user_reduction`),
with Algorithm 1 learning the norm as in ``alg2``; its rows run in
``papers.vdh19.scenario.simulate_minority(..., learners=...)`` beside ``alg2`` and the non-learner
``frozen`` (for the learning gate of the paired cost) on the same draws.
"""
from __future__ import annotations

import numpy as np

from dpregret.papers.vdh19 import learners as vdh


class UserDirection:
    """A user's OCO learner as Algorithm 2's direction learner ``A_Z`` (Sec. 3.3.1): built once
    by ``make(n, d, 1.0)`` for the ``n = prod(batch)`` rows of the reduction's batch (variant
    major, then replicate), it plays ``z_t`` in the unit ball and receives the privatised
    ``g~_t`` (line 5 of Algorithm 2).  ``predict()`` is asked once per round (cached until
    ``update``) and its play is checked: shape ``(n, d)``, finite, ``||z_t||_2 <= 1`` (the domain
    ``Z`` that Lemma 9 needs; a play outside it is an error, never projected for the learner)."""

    def __init__(self, make, d: int, batch: tuple[int, ...], name: str = "user", built: list | None = None):
        from dpregret.core.protocols import SIGNATURES, build_learner

        self.batch, self.d, self.name = tuple(batch), int(d), name
        self.n = int(np.prod(self.batch))
        self.learner = build_learner(make, name, (self.n, self.d, 1.0), SIGNATURES["oco"], "g", built)
        self._z = None

    def predict(self) -> np.ndarray:
        if self._z is None:
            from dpregret.core.protocols import check_play

            z = np.asarray(self.learner.predict(), dtype=float)
            try:
                check_play("oco", z, self.n, self.d)
            except ValueError as err:
                raise ValueError(f"learner {self.name!r}: {err}") from None
            if np.any(np.linalg.norm(z, axis=1) > 1.0 + 1e-9):
                raise ValueError(f"learner {self.name!r}: a direction learner of Algorithm 2 must lie in the unit ball "
                                 f"(make(R, d, r) is called with r = 1), got ||z|| up to "
                                 f"{np.linalg.norm(z, axis=1).max():.4g}")
            self._z = z.reshape(*self.batch, self.d)
        return self._z.copy()

    def update(self, g) -> None:
        self.learner.update(np.asarray(g, dtype=float).reshape(self.n, self.d))
        self._z = None


def user_reduction(make, d: int, batch: tuple[int, ...], b: float = 1.0, name: str = "user",
                   built: list | None = None) -> vdh.BlackBoxReduction:
    """Algorithm 2 exactly as the paper's ``alg2`` (Algorithm 1 with the conjugate prior, ``b``,
    ``G = 1``, for the norm) with the user's learner ``name`` as the direction learner (``built``:
    the learners already built for this point, so a make returning one object twice is an error)."""
    return vdh.BlackBoxReduction(1.0, d, batch=batch, b=b, direction=UserDirection(make, d, batch, name, built))
