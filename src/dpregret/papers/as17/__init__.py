"""Agarwal and Singh 2017, "The Price of Differential Privacy for Online Learning" (ICML 2017),
in one folder.  Four scenarios (``as17_experts``, ``as17_olo``, ``as17_mab``, ``as17_blo``) and
two check groups (``as17_experts``, ``as17_tables``: Tables 1 and 2).

Learners (sections 2-4, Appendix D):

- :mod:`.prefix_sums`: the cumulative-loss estimates an FTRL learner reads (section 3): exact,
  Algorithm 2's TreeBasedAgg (on the core ``dpregret.core.tree``), fresh noise (the control);
- :mod:`.ftrl`: Algorithm 1 with the entropic regulariser, exponential weights (Corollary 3.2
  item 1, Theorem 3.4's step size and bound);
- :mod:`.experts_jit`: the experts rounds of Algorithm 1 on Algorithm 2's sums, compiled (section 3; speed only);
- :mod:`.olo`: Algorithm 1 with ``R = ||x||^2`` on the sphere and the cube (Corollary 3.2 items 2-3,
  Theorem 3.4, Lemma 3.3's Laplace scale), Algorithm 3 FTPL (Theorem 3.5, Appendix A);
- :mod:`.bandits`: Algorithm 4 (the private feedback reduction, Lemma 4.2), Algorithm 5 EXP2
  (section 4.1, Theorem 4.1), the explore-and-tree baseline (the O~(T^(2/3)) comparison);
- :mod:`.exp2_jit`: Algorithm 4 around EXP2, compiled (section 4.1; speed only);
- :mod:`.scrible`: SCRiBLe (section 4.2, Theorem 4.5, Appendix D) and Algorithm 4 around it;
- :mod:`.scrible_jit`: Algorithm 4 around SCRiBLe, compiled (section 4.2; speed only);
- :mod:`.release_feed`: any full-information learner fed the tree's releases, the fresh-noise sums'
  and the exact losses (section 3; the experts' and the OLO doors);
- :mod:`.base_learner_rounds`: Algorithm 4's rounds around any base learner, in Python or compiled
  for a numba jitclass (section 4.2; the BLO door).

Scenarios and their doors for your own learner (``Scenario.module`` in ``dpregret.papers``; each
scenario's ``simulate`` takes ``learners`` and its door's claims are its ``USER_CLAIMS``):

- :mod:`.scenario_experts`: prediction with expert advice (section 3, Table 1 row 1); door: your
  experts learner in the slot of Algorithm 1;
- :mod:`.scenario_olo`: Table 1 rows 2-4 (sphere, cube, FTPL; section 3); door: your OLO learner in
  the slot of Algorithm 1 on the sphere and the cube;
- :mod:`.scenario_bandits`: the multi-armed bandit (section 4.1, Table 2 row 2); door: your bandit
  learner as Algorithm 4's base learner;
- :mod:`.scenario_blo`: bandit linear optimisation with SCRiBLe (section 4.2, Table 2 row 1); door:
  your BLO learner in SCRiBLe's place inside Algorithm 4.

Claims:

- :mod:`.claims_experts`: Corollary 3.2 item 1, Theorem 3.4, Lemma 3.3 (section 3);
- :mod:`.claims_tables`: Tables 1 and 2 (rows 2-4; bandits), Theorems 4.1 and 4.5, Lemma 4.3 and the
  comparison with the O~(T^(2/3)) baseline (sections 3-4);
- :mod:`.claims_gates`: the non-learner controls and learning gates of those claims;
- :mod:`.claims_table_layout`: the layout of the regenerated Tables 1 and 2;
- :mod:`.audit`: the privacy audits of its own code (Lemma 3.3's TreeBasedAgg, Corollary 3.2 items 2-3's
  OLO trees, Theorem 3.5's FTPL tree, Lemma 4.2's Algorithm 4);
- :mod:`.figures`: its figures (the experts' and Tables 1-2's plot groups), declared with the claims
  each shows (``FIGURES``, read by the workflow and the report);
- :mod:`.paper`: what the folder contributes to the pipeline's registries (``dpregret.pipeline.registry``):
  its built-in learners, claims and audits;
- :mod:`.errata`: the paper's errata;
- :mod:`.mutants`: the realistic bugs of its learners that its claims must catch;
- :mod:`.instances`: the small instances the mutation suite decides its claims on.

It imports the core (``rng``, ``tree``, ``calibration``, ``protocols``, ``environments``,
``learners.pairwise_jit``) and the verdict layer (``verdict.core``, ``verdict.spec``,
``core.contract``, the audit machinery ``verdict.privacy_audit`` and ``verdict.privacy_trees``'
node-transcript helpers), never another paper nor the pipeline (the ``[tool.importlinter]``
contracts of ``pyproject.toml``); its figures draw with the shared helpers of ``dpregret.core.plotting``.
Its loss sequences in ``environments.experts``, ``environments.olo`` and
``environments.stochastic``; the noise calibrations it shares (``calibration.tree_lambda``,
``fresh_lambda``) in ``dpregret.core.calibration``; the tree itself (``dpregret.core.tree``) in the core.
"""
