"""What Ene, Nguyen and Vladu's folder declares and contributes to the registries: its paper and its
scenario (``PAPER``, ``SCENARIOS``: ``dpregret.papers`` builds its registries from them), and, for the
pipeline's registries (:mod:`dpregret.pipeline.registry` collects every folder's), its built-in learner,
its claims and its privacy audits.  Light at import (``dpregret.papers`` imports it in every process):
each function imports the modules it needs when it runs."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from dpregret.papers import Paper, Scenario

if TYPE_CHECKING:
    from dpregret.core.protocols import LearnerSpec

PAPER = Paper("ENV21", "Ene, Nguyen, Vladu 2021", "Projection-Free Bandit Optimization with Privacy Guarantees",
              "Alina Ene, Huy L. Nguyen and Adrian Vladu", 2021,
              "Proceedings of the 35th AAAI Conference on Artificial Intelligence", "ene2021projection",
              "004_99eed4067d44be32.txt")
# its scenario (run by the workflow's generic rules; its config parameters in this folder's config.schema.yaml)
SCENARIOS = (Scenario("env21", "ENV21", "env21_", folder=__package__, generic=True),)


def learners() -> dict[str, LearnerSpec]:
    """name -> :class:`~dpregret.core.protocols.LearnerSpec`: Algorithm 1's learner on the simplex
    (Frank-Wolfe, one linear-optimisation step a round)."""
    from dpregret.core.protocols import LearnerSpec

    def frank_wolfe(reps, n, T, seed):  # Algorithm 1's learner on the simplex, one LMO step a round
        from dpregret.core.environments.polytopes import make_domain
        from dpregret.papers.env21.learners import FrankWolfeOCO
        return FrankWolfeOCO(make_domain("simplex", n), len(reps), 1.0 / math.sqrt(T), 1)

    return {"frank_wolfe": LearnerSpec("frank_wolfe", "oco_polytope", "ENV21", frank_wolfe)}


def claims() -> dict:
    """claim id -> :class:`~dpregret.verdict.core.Claim` (:mod:`.claims`)."""
    from dpregret.papers.env21.claims import CLAIMS

    return dict(CLAIMS)


def audits() -> dict:
    """claim id -> :class:`~dpregret.verdict.privacy_audit.AuditSpec` of PRIVATEBANDIT's released
    round sums (:mod:`.audit`; Lemma 5.1's Laplace, Lemma 5.4's Gaussian), built now from the
    library as it is."""
    from dpregret.papers.env21.audit import env_releases_spec

    specs = (env_releases_spec("laplace"), env_releases_spec("gaussian"))
    return {s.claim.claim_id: s for s in specs}
