"""Decide the claims of one scenario whose ``evaluate`` takes its merged tables as a dict
(``dpregret.claims.<scenario>``); write each claim's JSON."""
import importlib
import json
import sys

import numpy as np
import pandas as pd

from dpregret.claims.core import record
from dpregret.rng import stable_key

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
scenario, alpha = sm.params.scenario, sm.params.alpha
claims = importlib.import_module(f"dpregret.claims.{scenario}")


def rng_for(cid):
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(sm.params.seed, spawn_key=stable_key("check", cid))))


tables = {k: pd.read_parquet(v) for k, v in sm.input.items()}
results = claims.evaluate(tables, sm.params.p, sm.params.tolerances, alpha, rng_for)
for path in sm.output:
    cid = path.split("/")[-1].removesuffix(".json")
    res, ctl = results[cid]
    rec = record(claims.CLAIMS[cid], res, ctl, scenario=scenario, env=None, ci_level=1 - alpha,
                 history=sm.params.history.get(cid))
    with open(path, "w") as fh:
        json.dump(rec, fh, indent=1, sort_keys=True, default=float)
    print(cid, res.verdict, "control:", ctl.verdict)
