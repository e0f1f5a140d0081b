"""What Van der Hoeven's folder contributes to the pipeline's registries (:mod:`dpregret.pipeline.registry`
collects every folder's): its built-in learners and its claims.  Its privacy claims are those of
shared mechanisms (Lemma 4's local Laplace randomiser, the l2 randomiser), audited in
``claims.privacy_mechanisms``: it declares no audit of its own.  Light at import: each function
imports the modules it needs when it runs."""
from __future__ import annotations

from dpregret.core.protocols import LearnerSpec


def learners() -> dict[str, LearnerSpec]:
    """name -> :class:`~dpregret.core.protocols.LearnerSpec`: Algorithm 2's black-box reduction
    (Sec. 3.3.1), the sparse potential learner (Sec. 3.3.2) and diagonal AdaGrad (the control)."""
    from dpregret.papers.vdh19 import learners as vdh

    specs = [
        LearnerSpec("black_box_reduction", "oco", "VDH19",
                    lambda reps, d, T, seed: vdh.BlackBoxReduction(1.0, d, batch=(len(reps),))),
        LearnerSpec("sparse_potential", "oco", "VDH19",
                    lambda reps, d, T, seed: vdh.SparsePotential(1.0, d, batch=(len(reps),))),
        LearnerSpec("diagonal_adagrad", "oco", "VDH19",
                    lambda reps, d, T, seed: vdh.DiagonalAdaGrad(10.0, d, batch=(len(reps),)), "control"),
    ]
    return {s.name: s for s in specs}


def claims() -> dict:
    """claim id -> :class:`~dpregret.verdict.core.Claim` (:mod:`.claims`)."""
    from dpregret.papers.vdh19.claims import CLAIMS

    return dict(CLAIMS)


def audits() -> dict:
    """No audit of its own code (its randomisers are shared mechanisms, audited in ``claims.privacy_mechanisms``)."""
    return {}
