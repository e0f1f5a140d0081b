"""Audit one mechanism: eps lower bound for the correct version and each broken control."""
import json
import sys

from dpregret.claims.core import record
from dpregret.claims.privacy import SPECS, run_audit

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
spec = SPECS[sm.wildcards.audit_id]
res, ctl = run_audit(spec, sm.params.samples, sm.params.alpha, sm.params.seed)
rec = record(spec.claim, res, ctl, scenario="audit", env=None, ci_level=1 - sm.params.alpha)
with open(sm.output[0], "w") as fh:
    json.dump(rec, fh, indent=1, sort_keys=True, default=float)
print(rec["claim_id"], res.verdict, "controls:", ctl.detail["caught"])
