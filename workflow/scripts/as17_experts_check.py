"""Decide every Agarwal-Singh experts claim and its control; one JSON per claim (x env)."""
import json
import sys

import numpy as np
import pandas as pd

from dpregret.claims.as17_experts import CLAIMS, EXACT_CLAIM, check_draws, evaluate
from dpregret.claims.core import record
from dpregret.rng import stable_key

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
p, alpha = sm.params.p, sm.params.alpha


def write(rec):
    with open(f"results/claims/{rec['claim_id']}.json", "w") as fh:
        json.dump(rec, fh, indent=1, sort_keys=True)
    print(rec["claim_id"], rec["result"]["verdict"], "control:", rec["control_result"]["verdict"])


runs = pd.read_parquet(sm.input.runs)
d_noise = pd.read_parquet(sm.input.d_noise)
for env in p["envs"]:
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(sm.params.seed, spawn_key=stable_key("check", "as17_experts", env))))
    for cid, res in evaluate(runs, d_noise, env, p["rate_eps"], sm.params.tolerances, alpha, rng).items():
        write(record(CLAIMS[cid], res["claim"], res["control"], scenario="as17_experts", env=env, ci_level=1 - alpha,
                     secondary=res.get("secondary"), history=sm.params.history.get(cid)))
write(record(EXACT_CLAIM, check_draws(p["T"]), check_draws(p["T"][:1], pad=False), scenario="as17_experts", env=None,
             ci_level=1 - alpha))
