"""Errata found while implementing the papers: where a printed formula disagrees with its
own definition, the pipeline implements the definition; each entry names the test that
shows the disagreement independently."""

ERRATA = [
    {"paper": "003_a21566fafc49b886.txt", "where": "Theorem 3.1 / Lemma 3.3 (lambda = ||Y||_1 log T / eps)",
     "printed": "noise scale uses ceil(log T) = the number of draws per release",
     "correct": "the sensitivity multiplier is the number of released dyadic nodes covering a leaf, floor(log2 T) + 1, "
                "which exceeds ceil(log2 T) when T is a power of two (leaf 1 lies in [1, 2^j] for every 2^j <= T); "
                "dpregret uses lambda = ||Y||_1 (floor(log2 T) + 1) / eps",
     "evidence": "tests/test_tree.py::test_nodes_covering_a_leaf (brute-force count); the audit "
                 "AUDIT-as17-lemma3.3-tree catches the paper's count (control paper_log_count, eps_lb > eps at T = 4)"},
    {"paper": "003_a21566fafc49b886.txt", "where": "Theorem 3.4 (first term)",
     "printed": "sqrt(D_R sum_t max_x ||l_t||*^2)",
     "correct": "eqs. (3)-(4) give D_R/eta + eta S, whose minimum over eta is 2 sqrt(D_R S); dpregret checks the "
                "eta-explicit form for the eta it uses",
     "evidence": "tests/test_as17_experts.py::test_thm34_optimum_has_factor_two"},
    {"paper": "002_ea604baa8d00e606.txt", "where": "Preliminaries, RDP -> DP conversion",
     "printed": "(alpha, alpha rho^2/2)-RDP for all alpha => (2 rho sqrt(log 1/delta), delta)-DP for delta >= exp(-rho^2)",
     "correct": "the exact conversion gives rho^2/2 + rho sqrt(2 log 1/delta), below 2 rho sqrt(log 1/delta) only when "
                "log(1/delta) >= 0.7286 rho^2: the condition should read delta <= exp(-rho^2)",
     "evidence": "tests/test_accounting.py::test_zcdp_printed_range_erratum"},
    {"paper": "002_ea604baa8d00e606.txt", "where": "Definition 2 (Renyi divergence)",
     "printed": "D_alpha(P||Q) = 1/(alpha-1) log E_Q[P/Q]",
     "correct": "1/(alpha-1) log E_Q[(P/Q)^alpha] (as used in the proof of Lemma 18)",
     "evidence": "tests/test_accounting.py::test_gaussian_rdp_matches_renyi_divergence_by_quadrature"},
    {"paper": "000_7eed9852d6745801.txt", "where": "Proof of Lemma 4",
     "printed": "numerator and denominator both written with g_{t,j'}",
     "correct": "the numerator uses g_{t,j}; tau_j = 0 gives an improper density, so dpregret requires tau_j > 0 (or inf)",
     "evidence": "tests/test_mechanisms.py (local randomiser scale 2 bound_j / tau_j, KS test)"},
]
