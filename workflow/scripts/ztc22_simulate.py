"""Simulate the Zhang-Tran-Cutkosky scenario: one point (one replicate chunk), or every point of
one bundled experiment (rules ztc22_simulate_<experiment>), each written to its own file."""
import re
import sys

from dpregret.scenarios import ztc22

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
p, seed = sm.params.p, sm.params.seed


def simulate(experiment, point, reps):
    if experiment == "rates":
        return ztc22.simulate_rates(p, int(point[1:]), reps, seed)
    if experiment == "linear_T":
        return ztc22.simulate_linear_T(p, int(point[1:]), reps, seed)
    if experiment == "strongly_convex":
        return ztc22.simulate_strongly_convex(p, int(point[1:]), reps, seed)
    if experiment == "minimax":
        return ztc22.simulate_minimax(p, point, reps, seed)
    if experiment == "rho_d":
        return ztc22.simulate_rho_d(p, point, reps, seed)
    if experiment == "param_free":
        return ztc22.simulate_param_free(p, int(point[1:]), reps, seed)
    if experiment == "optimistic":
        return ztc22.simulate_optimistic(p, float(point[1:]), reps, seed)
    return ztc22.simulate_sensitivity(p, point, reps, seed)


for path in sm.output:  # results/ztc22/{experiment}/{point}/chunk{lo}-{hi}.parquet
    experiment, point, lo, hi = re.fullmatch(r"results/ztc22/([A-Za-z_]+)/([^/]+)/chunk(\d+)-(\d+)\.parquet", path).groups()
    df = simulate(experiment, point, range(int(lo), int(hi)))
    df["scenario"] = "ztc22"
    df.to_parquet(path, index=False)
    print(path, len(df), "rows")
