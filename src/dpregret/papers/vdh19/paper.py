"""What Van der Hoeven's folder declares and contributes to the registries: its paper and its scenario
(``PAPER``, ``SCENARIOS``: ``dpregret.papers`` builds its registries from them), and, for the pipeline's
registries (:mod:`dpregret.pipeline.registry` collects every folder's), its built-in learners and its
claims.  Its privacy claims are those of shared mechanisms (Lemma 4's local Laplace randomiser, the l2
randomiser), audited in ``verdict.privacy_mechanisms``: it declares no audit of its own.  Light at import
(``dpregret.papers`` imports it in every process): each function imports the modules it needs when it runs."""
from __future__ import annotations

from typing import TYPE_CHECKING

from dpregret.papers import Paper, Scenario

if TYPE_CHECKING:
    from dpregret.core.protocols import LearnerSpec

PAPER = Paper("VDH19", "van der Hoeven 2019",
              "User-Specified Local Differential Privacy in Unconstrained Adaptive Online Learning",
              "Dirk van der Hoeven",
              2019, "Advances in Neural Information Processing Systems 32 (NeurIPS); with appendix proofs in his 2021 "
              "Leiden University thesis, The Many Faces of Online Learning, chapter 3", "vanderhoeven2019user",
              "000_7eed9852d6745801.txt")
# its scenario (run by the workflow's generic rules; its config parameters in this folder's config.schema.yaml)
SCENARIOS = (Scenario("vdh19", "VDH19", "vdh19_", folder=__package__, generic=True),)


def learners() -> dict[str, LearnerSpec]:
    """name -> :class:`~dpregret.core.protocols.LearnerSpec`: Algorithm 2's black-box reduction
    (Sec. 3.3.1), the sparse potential learner (Sec. 3.3.2) and diagonal AdaGrad (the control)."""
    from dpregret.core.protocols import LearnerSpec
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
    """No audit of its own code (its randomisers are shared mechanisms, audited in ``verdict.privacy_mechanisms``)."""
    return {}
