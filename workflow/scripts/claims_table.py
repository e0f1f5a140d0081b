"""results/claims.csv: one row per claim, the table users and CI read; its sidecar
results/claims.provenance.json: what produced it (dpregret.core.provenance) and the effective config."""
import json
import sys

from dpregret.core.provenance import current
from dpregret.pipeline.report.tables import claims_table

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
claims_table(list(sm.input)).to_csv(sm.output[0], index=False)
with open(sm.output.provenance, "w") as fh:
    json.dump({**current(), "config": sm.params.run}, fh, indent=1, sort_keys=True, default=str)
