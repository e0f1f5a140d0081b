"""Audit one mechanism: lower bounds for the correct version (every cell: position / implementation),
its primary control and its secondary controls."""
import json
import sys

from dpregret.core import cpu
from dpregret.verdict.core import record
from dpregret.verdict.privacy import run_audit
from dpregret.pipeline.registry import audit_specs

cpu.require_pinned("the audit job")  # the same bits on every x86-64 CPU (dpregret.core.cpu)
sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
spec = audit_specs()[sm.wildcards.audit_id]
res, primary, secondary = run_audit(spec, sm.params.samples, sm.params.alpha, sm.params.seed)
rec = record(spec.claim, res, primary, secondary=secondary, scenario="audit", env=None, ci_level=1 - sm.params.alpha)
with open(sm.output[0], "w") as fh:
    json.dump(rec, fh, indent=1, sort_keys=True, default=float)
print(rec["claim_id"], rec["result"]["verdict"],
      f"(worst cell {res.detail['worst_cell']}, measured {res.measured:.4g});",
      f"primary {spec.primary}: {primary.verdict};",
      "secondary:", {k: v.verdict for k, v in secondary.items()}, "; evidence:", rec["evidence"])
