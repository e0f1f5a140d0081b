"""Simulate one (env, T, replicate chunk) of the Agarwal-Singh experts scenario."""
import sys

from dpregret.scenarios.as17_experts import simulate

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
p, w = sm.params.p, sm.wildcards
lo, hi = map(int, w.chunk.split("-"))
df = simulate(w.env, p["N"], int(w.T), p["eps"], range(lo, hi), sm.params.seed, gap=p["gap"], phases=p["phases"])
df.to_parquet(sm.output[0], index=False)
print(f"{len(df)} rows")
