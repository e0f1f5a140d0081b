"""Zhang, Tran, Cutkosky 2022, "Differentially Private Online-to-Batch for Smooth Losses" (NeurIPS
2022), in one folder:

- :mod:`.o2b`: Algorithm 1 (Sec. 2, DP online-to-batch with NOISE(t) and eq. (6)'s sigma_t), its
  refinements (Sec. 3 optimistic, Theorem 6; Sec. 4 strongly convex, Lemma 7; Sec. 5
  parameter-free, Theorem 11) and its control conversions;
- :mod:`.o2b_jit`: the compiled fast path of Algorithm 1 on the minimax family (Sec. 2, Remark 5)
  and on Theorem 11's regularised losses (Sec. 5) (speed only, bit-equal to :func:`.o2b.run`);
- :mod:`.bounds`: Theorem 4 (Sec. 2), Theorem 8 and Remark 9's OSD regret (Sec. 4), Theorem 11
  (Sec. 5), with their second parts;
- :mod:`.dpsgd`: the one-pass DP-SGD baseline at Algorithm 1's budget (Sec. 1's comparison);
- :mod:`.audit`: the privacy audits of its own code: Algorithm 1 end to end with its exact
  transcript density (Theorem 3, Sec. 2 and App. B.2) and the DP-SGD baseline;
- :mod:`.scenario`: the experiments of Sec. 2-5 (rates, minimax, linear_T, optimistic, strongly
  convex, rho_d, sensitivity, param_free) and the user door (``USER_CLAIMS``: a user's OCO learner
  inside Algorithm 1);
- :mod:`.statements`: every claim's statement (``CLAIMS``), which the two modules below decide;
- :mod:`.claims`: the claims of Theorems 3, 4 (Sec. 2), 6 (Sec. 3), 8 and Remark 9 (Sec. 4), 11
  (Sec. 5) decided on the scenario's tables (Remark 9's and Sec. 3's rates declared as specs, ``RATE_SPECS``);
- :mod:`.claims_linear`: Remark 5's rates in T, rho and d (Sec. 2), declared as specs (``REM5_SPECS``),
  decided on the worst case over the family of linear losses;
- :mod:`.figures`: its figures (Sec. 2-5), declared with the claims each shows (``FIGURES``, read by
  the workflow and the report);
- :mod:`.errata`: the paper's errata (Sec. 1.1: the RDP -> DP conversion, Definition 2);
- :mod:`.mutants`: the realistic bugs of Algorithm 1, eq. (6) and the DP-SGD baseline that its
  claims and audits must catch;
- :mod:`.instances`: the small instances the mutation suite decides its claims on;
- :mod:`.paper`: what the folder contributes to the pipeline's registries (``dpregret.pipeline.registry``):
  its built-in learners, claims and audits.

It imports the core (``rng``, ``tree``, ``protocols``, ``environments``, the shared OCO learners
``learners.oco`` and ``learners.pairwise_jit``) and the verdict layer (``verdict.core``,
``verdict.privacy_audit``, ``core.contract``), never another paper nor the pipeline (the
``[tool.importlinter]`` contracts of ``pyproject.toml``); its figures draw with the shared helpers of
``dpregret.core.plotting``.  The audit of Theorem 3's tree alone (``AUDIT-ztc-thm3-tree``, the core's
``tree.TreeNoise``) stays with the shared mechanisms' audits in ``verdict.privacy_trees``.
"""
