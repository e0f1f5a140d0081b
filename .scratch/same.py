import numpy as np, pickle, sys
from dpregret.audit import eps_lower_bound
rng = np.random.default_rng(0); out = []
for k in (1, 3):
    for n in (50, 1000, 100000):
        a = np.round(rng.laplace(0.3, 1, (n, k)), 3); b = rng.laplace(0, 1, (n, k))
        for delta in (0.0, 1e-3):
            out.append(eps_lower_bound(a, b, delta, 0.05, np.random.default_rng(n + k)).as_dict())
pickle.dump(out, open(sys.argv[1], "wb"))
