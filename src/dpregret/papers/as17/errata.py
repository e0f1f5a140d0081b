"""Agarwal and Singh 2017's errata: the noise scale of Theorem 3.1 / Lemma 3.3 (section 3: the count of
tree nodes covering a leaf, and the sensitivity of a node under replace-one neighbours, Corollary 3.2
items 2-3), the first term of Theorem 3.4 (section 3), the parameters of Theorem 4.1 (section 4.1) and
Appendix D's proof of Theorem 4.5 (section 4.2).  The code they concern is this folder's
(:mod:`.olo`, :mod:`.ftrl`, :mod:`.bandits`, :mod:`.scrible`) and the shared ``dpregret.core.tree`` /
``dpregret.core.calibration`` (the node count).  Each entry names the test that shows the disagreement
(key ``test``); ``dpregret.pipeline.registry.errata()`` lists them in the report."""

ERRATA = [
    {"paper": "AS17", "where": "Theorem 3.1 / Lemma 3.3 (lambda = ||Y||_1 log T / eps)",
     "printed": "noise scale uses ceil(log T) = the number of draws per release",
     "correct": "the sensitivity multiplier is the number of released dyadic nodes covering a leaf, floor(log2 T) + 1, "
                "which exceeds ceil(log2 T) when T is a power of two (leaf 1 lies in [1, 2^j] for every 2^j <= T); "
                "dpregret uses lambda = ||Y||_1 (floor(log2 T) + 1) / eps",
     "test": "tests/test_tree.py::test_nodes_covering_a_leaf (brute-force count); the audit "
             "AUDIT-as17-lemma3.3-tree catches the paper's count (control paper_log_count, eps_lb > eps at T = 4)"},
    {"paper": "AS17", "where": "Theorem 3.4 (first term)",
     "printed": "sqrt(D_R sum_t max_x ||l_t||*^2)",
     "correct": "eqs. (3)-(4) give D_R/eta + eta S, whose minimum over eta is 2 sqrt(D_R S); dpregret checks the "
                "eta-explicit form for the eta it uses",
     "test": "tests/papers/as17/test_as17_experts.py::test_thm34_optimum_has_factor_two"},
    {"paper": "AS17", "where": "Theorem 3.1, Lemma 3.3, Corollary 3.2 items 2-3 (lambda = ||Y||_1 log T / eps)",
     "printed": "sensitivity ||Y||_1",
     "correct": "under replace-one neighbours (Definition 2.1) a node changes by l - l', whose l1 norm reaches the l1 "
                "diameter of Y, 2 ||Y||_1 for symmetric Y (sphere: 2 sqrt(N); cube: 2); dpregret uses the diameter "
                "(for experts with losses in [0, 1]^N the diameter is N, as printed)",
     "test": "tests/papers/as17/test_as17_olo_learners.py::test_laplace_scale_definition_vs_printed"},
    {"paper": "AS17", "where": "Theorem 4.1 (parameters) and its proof",
     "printed": "eta = sqrt(log N / (2NT(1 + 2 lambda^2 log NT))), gamma = eta N sqrt(1 + 2 lambda^2 log NT); "
                "'the condition eta N (1 + 4 lambda log NT) <= gamma holds by the choice of these parameters'",
     "correct": "gamma / (eta N) = sqrt(1 + 2 lambda^2 log NT) < 1 + 4 lambda log NT, so the condition fails; the "
                "proof's last chain also drops the 10 of eq. (7). dpregret runs the printed parameters and checks "
                "the bound with the 10 kept",
     "test": "tests/papers/as17/test_as17_tables.py::test_thm41_parameters_and_bound"},
    {"paper": "AS17", "where": "Appendix D (Theorem D.1 and the proof of Theorem 4.5)",
     "printed": "Theorem D.1 with 2 eta sum N <l, x>^2; failure term 1; 'it can now be verified that eta <= "
                "1/(4N(M+L))'",
     "correct": "the proof applies D.1 with N^2 (the estimate's local norm is N^2 v^2); the failure term is 2M (regret "
                "<= 2MT); eta <= 1/(4N(M+L)) holds only for T large (with lambda > 0, roughly T > 128 nu log T "
                "log^2 NT); dpregret evaluates the bound as printed",
     "test": "tests/papers/as17/test_as17_scrible.py::test_theorem_4_5_eta_balances_and_condition"},
]
