import numpy as np
from dpregret.audit import eps_lower_bound
from dpregret.claims.privacy import SPECS
from dpregret.claims.privacy_audit import _rng
spec = SPECS["AUDIT-laplace-mechanism"]
for n in (200000, 1000000):
    cells = spec.draw("gaussian_shape", n, lambda *p: _rng(1, "x", *p))
    s0, s1 = cells["single release"]
    for col in (None, 0, 1):
        a, b = (s0, s1) if col is None else (s0[:, col], s1[:, col])
        r = eps_lower_bound(a, b, 0.0, 0.05, np.random.default_rng(3))
        print(n, col, round(r.eps_lb, 3), r.column, r.threshold, r.p1_lo, r.p0_hi, r.orientation)
