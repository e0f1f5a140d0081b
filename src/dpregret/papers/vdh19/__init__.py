"""Van der Hoeven 2019, "User-Specified Local Differential Privacy in Unconstrained Adaptive Online
Learning" (NeurIPS 2019; the appendix proofs in his 2021 thesis, chapter 3), in one folder:

- :mod:`.learners`: Algorithms 1-3 (Sec. 3.3, 3.3.1, 3.3.2, 3.8) and the Sec. 3.4 baselines;
- :mod:`.bounds`: Theorems 10, 11, 12 and eq. (3.3.5), the baselines' bounds, their errata;
- :mod:`.controls`: the near-miss controls and the non-learner run beside them (Sec. 3.4);
- :mod:`.run`: the round engine of the Sec. 3.4 experiments;
- :mod:`.scenario`: the Sec. 3.4 experiments (wdbc minority privacy, ``||u||``, sparse);
- :mod:`.claims`: the claims decided on the scenario's tables;
- :mod:`.figures`: its figures (Sec. 3.4), declared with the claims each shows (``FIGURES``, read
  by the workflow and the report);
- :mod:`.errata`: the paper's errata (Lemma 4, eq. (3.3.4), Theorems 10-12);
- :mod:`.mutants`: the realistic bugs of its learners that its claims must catch;
- :mod:`.instances`: the small instances the mutation suite decides its claims on;
- :mod:`.user`: a user's learner in Algorithm 2's black-box slot (Sec. 3.3.1);
- :mod:`.paper`: what the folder contributes to the pipeline's registries (``dpregret.pipeline.registry``):
  its built-in learners and claims.

It imports the core (``rng``, ``mechanisms``, ``protocols``, ``environments``) and the verdict
layer (``verdict.core``, ``core.contract``), never another paper nor the pipeline (the
``[tool.importlinter]`` contracts of ``pyproject.toml``); its figures draw with the shared helpers
of ``dpregret.core.plotting``.
"""
