"""Zhang, Tran, Cutkosky 2022's errata, both in the preliminaries (Sec. 1.1): the printed RDP -> DP
conversion's range of delta and Definition 2 (the Renyi divergence); the code they concern is the
shared ``dpregret.core.accounting``.  Each entry names the test that shows the disagreement (key
``test``); ``dpregret.pipeline.registry.errata()`` lists them in the report."""

ERRATA = [
    {"paper": "ZTC22", "where": "Preliminaries, RDP -> DP conversion",
     "printed": "(alpha, alpha rho^2/2)-RDP for all alpha => (2 rho sqrt(log 1/delta), delta)-DP for delta >= "
                "exp(-rho^2)",
     "correct": "the exact conversion gives rho^2/2 + rho sqrt(2 log 1/delta), below 2 rho sqrt(log 1/delta) only when "
                "log(1/delta) >= 0.7286 rho^2: the condition should read delta <= exp(-rho^2)",
     "test": "tests/test_accounting.py::test_zcdp_printed_range_erratum"},
    {"paper": "ZTC22", "where": "Definition 2 (Renyi divergence)",
     "printed": "D_alpha(P||Q) = 1/(alpha-1) log E_Q[P/Q]",
     "correct": "1/(alpha-1) log E_Q[(P/Q)^alpha] (as used in the proof of Lemma 18)",
     "test": "tests/test_accounting.py::test_gaussian_rdp_matches_renyi_divergence_by_quadrature"},
]
