"""Decide the Zhang-Tran-Cutkosky claims; write each claim's JSON."""
import json
import sys

import numpy as np
import pandas as pd

from dpregret.claims.core import record
from dpregret.claims.ztc22 import CLAIMS, evaluate
from dpregret.rng import stable_key

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
alpha = sm.params.alpha


def rng_for(cid):
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(sm.params.seed, spawn_key=stable_key("check", cid))))


results = evaluate(pd.read_parquet(sm.input.rates), pd.read_parquet(sm.input.optimistic),
                   pd.read_parquet(sm.input.sensitivity), pd.read_parquet(sm.input.strongly_convex), sm.params.p, sm.params.tolerances, alpha, rng_for,
                   mm=pd.read_parquet(sm.input.minimax), pf=pd.read_parquet(sm.input.param_free),
                   lin=pd.read_parquet(sm.input.linear_T))
for path in sm.output:
    cid = path.split("/")[-1].removesuffix(".json")
    res, ctl, *sec = results[cid]
    rec = record(CLAIMS[cid], res, ctl, scenario="ztc22", env=None, ci_level=1 - alpha,
                 secondary=sec[0] if sec else None, history=sm.params.history.get(cid))
    with open(path, "w") as fh:
        json.dump(rec, fh, indent=1, sort_keys=True, default=float)
    print(cid, res.verdict, "control:", ctl.verdict)
