"""The experts scenario's algorithm names that its simulation and its claims both read (Agarwal-Singh
section 3): the mis-tuned twin's rows, Algorithm 1 with eta ~ T^(-2/3) on the tree's releases and on the
exact sums (one module below both, so neither imports the other)."""

TWIN_NONPRIVATE, TWIN_TREE = "nonprivate_eta_T23", "tree_eta_T23"
