"""Van der Hoeven (thesis ch. 3; NeurIPS 2019) with your own learner: the section "your own
learner" of ``scenarios.vdh19``, found by ``scenarios.contract.user_claims`` (``USER_CLAIMS``).

A user's OCO learner ``make(R, d, r)`` goes in Algorithm 2's black-box slot, the direction
learner ``A_Z`` on the unit ball (``r = 1``; :class:`UserDirection`, :func:`user_reduction`),
with Algorithm 1 learning the norm as in ``alg2``; its rows run in
``scenarios.vdh19.simulate_minority(..., learners=...)`` beside ``alg2`` and the non-learner
``frozen`` (for the learning gate of the paired cost) on the same draws.
"""
from __future__ import annotations

import numpy as np

from ..learners import vdh
from .vdh19 import PAPER_ALGS, simulate_minority


class UserDirection:
    """A user's OCO learner as Algorithm 2's direction learner ``A_Z`` (Sec. 3.3.1): built once
    by ``make(n, d, 1.0)`` for the ``n = prod(batch)`` rows of the reduction's batch (variant
    major, then replicate), it plays ``z_t`` in the unit ball and receives the privatised
    ``g~_t`` (line 5 of Algorithm 2).  ``predict()`` is asked once per round (cached until
    ``update``) and its play is checked: shape ``(n, d)``, finite, ``||z_t||_2 <= 1`` (the domain
    ``Z`` that Lemma 9 needs; a play outside it is an error, never projected for the learner)."""

    def __init__(self, make, d: int, batch: tuple[int, ...]):
        self.batch, self.d = tuple(batch), int(d)
        self.n = int(np.prod(self.batch))
        self.learner = make(self.n, self.d, 1.0)
        self._z = None

    def predict(self) -> np.ndarray:
        if self._z is None:
            from ..protocols import check_play

            z = np.asarray(self.learner.predict(), dtype=float)
            check_play("oco", z, self.n, self.d)
            if np.any(np.linalg.norm(z, axis=1) > 1.0 + 1e-9):
                raise ValueError("a direction learner of Algorithm 2 must play in the unit ball (make(R, d, r) is "
                                 f"called with r = 1), got ||z|| up to {np.linalg.norm(z, axis=1).max():.4g}")
            self._z = z.reshape(*self.batch, self.d)
        return self._z.copy()

    def update(self, g) -> None:
        self.learner.update(np.asarray(g, dtype=float).reshape(self.n, self.d))
        self._z = None


def user_reduction(make, d: int, batch: tuple[int, ...], b: float = 1.0) -> vdh.BlackBoxReduction:
    """Algorithm 2 exactly as the paper's ``alg2`` (Algorithm 1 with the conjugate prior, ``b``,
    ``G = 1``, for the norm) with the user's learner as the direction learner."""
    return vdh.BlackBoxReduction(1.0, d, batch=batch, b=b, direction=UserDirection(make, d, batch))


MINORITY_TABLE = "results/vdh19/minority.parquet"  # the pipeline's table of the paper's rows (rule vdh19_merge)


def _paper_rows(tables, p, point):
    """The paper's rows of the user claims' simulation at ``point``: ``alg2`` and the frozen learner in the pipeline's minority runs."""
    t = tables[MINORITY_TABLE]
    return t[(t["T"] == int(point)) & (t.alg.isin(("alg2", "frozen")))].drop(columns="scenario").reset_index(drop=True)


def _user_claim(placement: str):
    from .contract import UserClaim

    cid = "VDH-sec3.4-minority-cost-rate-T" + ("" if placement == "random" else f"-{placement}")

    def decide(runs, p, tol, alpha, rng_for, name):
        from ..claims.vdh19 import minority_cost_claim
        return minority_cost_claim(runs, placement, tol, alpha, rng_for, cid, alg=name)

    return UserClaim(
        cid, "vdh19", "oco", "make(R, d, r)",
        "your learner as the direction learner A_Z of Algorithm 2 (on the unit ball, r = 1, fed the privatised "
        "subgradients; Algorithm 1 learns the norm), wdbc absolute-loss regression, ceil(ln T) providers with the "
        f"l2 randomiser at rate_eps ({placement} positions); cost = regret at u = w* minus the same run's without "
        "noise (paired); learning gate: your learner's own regret without noise on the same run has slope in T <= 0.75 "
        "and R_T(w*) at the largest T <= half that of the learner frozen at 0 (a direction learner that never moves "
        "has cost 0 and fails it); control: the same reduction with your learner when every provider privatises at "
        "rate_eps",
        "alg2", "paper (Algorithm 2, projected OGD direction)", PAPER_ALGS,
        lambda p: list(p["T"]),
        lambda p, point, reps, seed, learners: simulate_minority(p, int(point), reps, seed, learners=learners,
                                                                 paper_algs=("alg2", "frozen")),
        decide, door="vdh19-minority",
        user_rows=lambda p, point, reps, seed, learners: simulate_minority(p, int(point), reps, seed,
                                                                           learners=learners, paper_algs=()),
        paper_tables=(MINORITY_TABLE,), paper_rows=_paper_rows)


# Sec. 3.4's privacy cost of a minority holds for Algorithm 2 with any direction learner whose
# regret adapts to sum_t ||g~_t||^2 (Lemma 9, eq. (3.3.5)): the user's learner goes in that slot.
USER_CLAIMS = (_user_claim("random"), _user_claim("adversarial"))
