"""Decide a claim for a user's learner and for the paper's, each with its primary control, on the
same draws; write the user's record and the figure with both."""
import json
import sys

import pandas as pd

from dpregret.api import decide_user_claim

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
w, run = sm.wildcards, sm.params.run
runs = pd.concat([pd.read_parquet(f) for f in sm.input], ignore_index=True)
rec = decide_user_claim(w.claim, w.name, run["learners"][w.name]["make"], runs, run, figure=sm.output.figure)
with open(sm.output.claim, "w") as fh:
    json.dump(rec, fh, indent=1, sort_keys=True, default=float)
print(rec["claim_id"], rec["result"]["verdict"], "control:", rec["control_result"]["verdict"])
