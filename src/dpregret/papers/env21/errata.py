"""Ene, Nguyen, Vladu 2021's errata: Algorithm 1's line 14 (section 3), the proof of Lemma 5.1
(section 5), Algorithm 2's line 1 (section 4.1, against Appendix B's step (4)) and the proof of
Lemma 3.1 (Appendix C).  Each entry names the test that shows the disagreement (key ``test``);
``dpregret.pipeline.registry.errata()`` lists them in the report."""

ERRATA = [
    {"paper": "ENV21", "where": "Algorithm 1, line 14 (the Frank-Wolfe objective)",
     "printed": "min 1/2 ||x||^2 - <eta s~, x> (moves towards the gradient estimate: ascent)",
     "correct": "+<eta s~, x>, as in Algorithm 2 line 3 and Lemma C.3; dpregret implements the descent sign",
     "test": "tests/papers/env21/test_env21_private_bandit.py::test_nonprivate_regret_sublinear_and_printed_sign_linear"},  # noqa: E501 (a pytest node id: one string, kept whole)
    {"paper": "ENV21", "where": "Lemma 5.1, proof (l1 norm of a batch sum)",
     "printed": "T_batch n^(1/2) M = T^(1/2) n L",
     "correct": "T_batch n^(1/2) M = T^(3/4) n L; the printed lambda still suffices because replacing one loss changes "
                "one term of one batch (sensitivity T^(1/4) n L)",
     "test": "tests/papers/env21/test_env21_private_bandit.py::test_erratum_lemma5_1_batch_l1_norm"},
    {"paper": "ENV21", "where": "Algorithm 2, line 1 (eta of NoisyOCO)",
     "printed": "eta = D_omega^(1/2) / (kappa T^(1/2)), not homogeneous in D_omega",
     "correct": "the proof's step (4) uses eta = 2 D_omega / (kappa sqrt(T)), giving 1.5 sqrt(T) kappa D_omega + T "
                "kappa gamma",
     "test": "tests/papers/env21/test_env21_private_bandit.py::test_erratum_algorithm2_eta_not_homogeneous"},
    {"paper": "ENV21", "where": "Lemma 3.1, proof (D_omega^2 = max 1/2 ||x||^2 <= D^2)",
     "printed": "D_omega^2 <= D^2",
     "correct": "fails on the spanning-tree polytope of the 6-cycle (2.5 > 2); the step only needs omega*(0) + "
                "omega(x*)",
     "test": "tests/papers/env21/test_env21_private_bandit.py::test_erratum_d_omega_exceeds_d"},
]
