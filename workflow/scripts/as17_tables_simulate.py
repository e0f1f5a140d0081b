"""Simulate an Agarwal-Singh table scenario: every point of one as17_olo grid, or one point of
as17_mab / as17_blo."""
import re
import sys

from dpregret.scenarios import as17_bandits, as17_blo, as17_olo

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
p, w, seed = sm.params.p, sm.wildcards, sm.params.seed
lo, hi = map(int, w.chunk.split("-"))
reps = range(lo, hi)
if sm.rule in ("as17_olo_simulate", "as17_olo_simulate_N"):
    # every point of one (row, env, grid) grid: results/as17/olo/{row}/{env}/{grid}_N{N}_T{T}/chunk{lo-hi}.parquet
    ftrl = w.row != "ftpl"
    for path in sm.output:
        grid, N, T = re.fullmatch(r"(T|N)_N(\d+)_T(\d+)", path.split("/")[-2]).groups()
        df = as17_olo.simulate(w.row, w.env, int(N), int(T), [p["rate_eps"]] if grid == "N" else p["eps"], reps, seed,
                               phases=p["phases"], mu=p["mu"], algorithms=as17_olo.GRID_ALGORITHMS[grid] if ftrl else None)
        df["grid"] = grid
        df.to_parquet(path, index=False)
        print(path, len(df), "rows")
elif sm.rule == "as17_mab_simulate":
    T = int(w.T)
    r = p["rate_eps"]
    plan = {"T": {"exp2": [None], "dp_exp2": p["eps"], "explore_tree": [r], "dp_exp2_eps_squared": p["eps"],
                  "dp_exp2_half_step": p["eps"], "dp_exp2_biased": [r]},
            "N": {"exp2": [None], "dp_exp2": [r], "dp_exp2_full_sens": [r]},
            "eps": {"exp2": [None], "dp_exp2": p["eps_window"], "dp_exp2_eps_squared": p["eps_window"]}}[w.grid]
    # Lemma 4.3's noisy-loss regret is needed on the T grid only; elsewhere only the pulled arm's noise is drawn
    df = as17_bandits.simulate(w.get("env", "stochastic"), int(w.N), T, plan, reps, seed, gap=p["gap"], pulled_noise=w.grid != "T")
    df["grid"] = w.grid
else:
    T = int(w.T)
    r = p["rate_eps"]
    plan = ({"scrible": [None], "dp_scrible": [r], "dp_scrible_composed": [r]} if w.grid == "T" else
            {"scrible": [None], "dp_scrible": p["eps_window"], "dp_scrible_eps_squared": p["eps_window"]})
    df = as17_blo.simulate(w.row, w.env, p["N"], T, plan, reps, seed, phases=p["phases"], mu=p["mu"])
    df["grid"] = w.grid
if not sm.rule.startswith("as17_olo"):
    df.to_parquet(sm.output[0], index=False)
    print(len(df), "rows")
