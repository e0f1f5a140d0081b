"""Simulate one point of an Agarwal-Singh table scenario (as17_olo, as17_mab, as17_blo)."""
import sys

from dpregret.scenarios import as17_bandits, as17_blo, as17_olo

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
p, w, seed = sm.params.p, sm.wildcards, sm.params.seed
lo, hi = map(int, w.chunk.split("-"))
reps, T = range(lo, hi), int(w.T)
if sm.rule == "as17_olo_simulate":
    ftrl = w.row != "ftpl"
    df = as17_olo.simulate(w.row, w.env, int(w.N), T, [p["rate_eps"]] if w.grid == "N" else p["eps"], reps, seed,
                           phases=p["phases"], mu=p["mu"], algorithms=as17_olo.GRID_ALGORITHMS[w.grid] if ftrl else None)
    df["grid"] = w.grid
elif sm.rule == "as17_mab_simulate":
    r = p["rate_eps"]
    plan = {"T": {"exp2": [None], "dp_exp2": p["eps"], "explore_tree": [r], "dp_exp2_eps_squared": p["eps"],
                  "dp_exp2_fixed_explore": p["eps"], "dp_exp2_biased": [r]},
            "N": {"exp2": [None], "dp_exp2": [r], "dp_exp2_full_sens": [r]},
            "eps": {"exp2": [None], "dp_exp2": p["eps_window"], "dp_exp2_eps_squared": p["eps_window"]}}[w.grid]
    # Lemma 4.3's noisy-loss regret is needed on the T grid only; elsewhere only the pulled arm's noise is drawn
    df = as17_bandits.simulate(w.get("env", "stochastic"), int(w.N), T, plan, reps, seed, gap=p["gap"], pulled_noise=w.grid != "T")
    df["grid"] = w.grid
else:
    r = p["rate_eps"]
    plan = ({"scrible": [None], "dp_scrible": [r], "dp_scrible_composed": [r]} if w.grid == "T" else
            {"scrible": [None], "dp_scrible": p["eps_window"], "dp_scrible_eps_squared": p["eps_window"]})
    df = as17_blo.simulate(w.row, w.env, p["N"], T, plan, reps, seed, phases=p["phases"], mu=p["mu"])
    df["grid"] = w.grid
df.to_parquet(sm.output[0], index=False)
print(len(df), "rows")
