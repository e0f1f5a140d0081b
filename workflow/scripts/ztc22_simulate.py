"""Simulate one point of the Zhang-Tran-Cutkosky scenario (one replicate chunk)."""
import sys

from dpregret.scenarios import ztc22

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
p, w, seed = sm.params.p, sm.wildcards, sm.params.seed
lo, hi = map(int, w.chunk.split("-"))
reps = range(lo, hi)
if w.experiment == "rates":
    df = ztc22.simulate_rates(p, int(w.point[1:]), reps, seed)
elif w.experiment == "strongly_convex":
    df = ztc22.simulate_strongly_convex(p, int(w.point[1:]), reps, seed)
elif w.experiment == "minimax":
    df = ztc22.simulate_minimax(p, w.point, reps, seed)
elif w.experiment == "rho_d":
    df = ztc22.simulate_rho_d(p, w.point, reps, seed)
elif w.experiment == "param_free":
    df = ztc22.simulate_param_free(p, int(w.point[1:]), reps, seed)
elif w.experiment == "optimistic":
    df = ztc22.simulate_optimistic(p, float(w.point[1:]), reps, seed)
else:
    df = ztc22.simulate_sensitivity(p, w.point, reps, seed)
df["scenario"] = "ztc22"
df.to_parquet(sm.output[0], index=False)
print(len(df), "rows")
