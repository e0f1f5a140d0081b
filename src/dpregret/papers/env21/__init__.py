"""Ene, Nguyen, Vladu 2021, "Projection-Free Bandit Optimization with Privacy Guarantees" (AAAI 2021),
in one folder:

- :mod:`.learners`: PRIVATEBANDIT (Algorithm 1, section 3; Appendix D's shrinking), its noise
  (section 5), the projection-based baseline, and Algorithm 1's learner as an ``oco`` learner;
- :mod:`.jit`: Algorithm 1's rounds compiled with numba (lines 5-13, one Frank-Wolfe step per query);
- :mod:`.noisy_oco`: NOISYOCO (Algorithm 2, section 4.1);
- :mod:`.bounds`: Lemmas 3.1, 4.1, 5.2, 5.5, C.2 and Corollary C.5 as functions (sections 3-5, Appendices B-C);
- :mod:`.search`: the worst-case search for Corollary C.5 (Appendix C);
- :mod:`.run`: the runs of the experiments (streams, batched PRIVATEBANDIT calls, Appendix C's per-round meters);
- :mod:`.scenario`: the experiments (rates in T, n and eps; the cost of privacy; NOISYOCO);
- :mod:`.rates`: how the rate claims are fitted (Theorem 1.1, Lemmas 3.1, 5.2, 5.5);
- :mod:`.claims`: the claims decided on the scenario's tables;
- :mod:`.figures`: its figures, declared with the claims each shows (``FIGURES``, read by the
  workflow and the report);
- :mod:`.errata`: the paper's errata (Algorithm 1 line 14, Lemma 5.1's proof, Algorithm 2 line 1, Lemma 3.1's proof);
- :mod:`.mutants`: the realistic bugs of its learners that its claims must catch;
- :mod:`.instances`: the small instances the mutation suite decides its claims on;
- :mod:`.audit`: the privacy audits of PRIVATEBANDIT's released round sums (Lemmas 5.1, 5.4, section 5);
- :mod:`.user`: a user's learner inside PRIVATEBANDIT's privacy mechanism (Theorem 1.1, Lemmas 5.2, 5.5);
- :mod:`.paper`: what the folder contributes to the pipeline's registries (``dpregret.pipeline.registry``):
  its built-in learner, claims and audits.

It imports the core (``rng``, ``tree``, ``calibration``, ``mechanisms``, ``protocols``,
``environments``) and the verdict layer (``verdict.core``, ``verdict.privacy_audit``,
``core.contract``), never another paper nor the pipeline (the ``[tool.importlinter]``
contracts of ``pyproject.toml``); its figures draw with the shared helpers of ``dpregret.core.plotting``.
The paper's noise calibrations (Lemmas 5.1, 5.4:
``calibration.laplace_lambda_lemma5_1``, ``gaussian_sigma_lemma5_4``) stay in the shared
``dpregret.core.calibration``, and its domains and losses (``environments.polytopes``,
``environments.bco``) in ``dpregret.core.environments``.
"""
