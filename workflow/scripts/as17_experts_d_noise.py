"""Monte Carlo D_{D'} (Theorem 3.4) for every (T, eps) of the run."""
import sys

import pandas as pd

from dpregret.scenarios.as17_experts import d_noise_mc

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
p = sm.params.p
rows = []
for T in p["T"]:
    for eps in p["eps"]:
        m, se = d_noise_mc(p["N"], T, eps, p["mc_samples"], sm.params.seed)
        rows.append({"N": p["N"], "T": T, "eps": float(eps), "d_noise": m, "d_noise_se": se})
pd.DataFrame(rows).to_parquet(sm.output[0], index=False)
