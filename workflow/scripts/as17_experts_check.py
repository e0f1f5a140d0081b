"""Decide every Agarwal-Singh experts claim (and its control); one JSON per claim x env."""
import json
import sys

import numpy as np
import pandas as pd

from dpregret.claims.as17_experts import CLAIMS, evaluate
from dpregret.rng import stable_key

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
p = sm.params.p
runs = pd.read_parquet(sm.input.runs)
d_noise = pd.read_parquet(sm.input.d_noise)
for env in p["envs"]:
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(sm.params.seed, spawn_key=stable_key("check", "as17_experts", env))))
    results = evaluate(runs, d_noise, env, p["rate_eps"], sm.params.tolerances, sm.params.alpha, rng)
    for cid, res in results.items():
        c = CLAIMS[cid]
        record = {"claim_id": f"{cid}--{env}", "base_id": cid, "env": env, "scenario": "as17_experts",
                  "paper": c.paper, "theorem": c.theorem, "kind": c.kind, "statement": c.statement,
                  "metric": c.metric, "control": c.control, "ci_level": 1 - sm.params.alpha,
                  "result": res["claim"].as_dict(), "control_result": res["control"].as_dict()}
        with open(f"results/claims/{cid}--{env}.json", "w") as fh:
            json.dump(record, fh, indent=1, sort_keys=True)
        print(cid, env, res["claim"].verdict, res["control"].verdict)
