"""report/index.html: the self-contained report (figures embedded)."""
import json
import sys

from dpregret.pipeline.report.accountant import rows as accountant_rows
from dpregret.pipeline.report.html import write_report

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
write_report(sm.input.claims, list(sm.input.details), list(sm.input.figures), sm.output[0],
             {"preset": sm.params.preset, "seed": sm.params.seed, "ci_level": sm.params.ci_level,
              "provenance": json.loads(open(sm.input.provenance).read()), "accountant": accountant_rows(sm.params.run),
              "history": sm.params.run.get("history", {}), "fresh_seeds": sm.input.fresh_seeds},
             tables=list(sm.input.tables), mutation=sm.input.mutation or None,
             claim_figures=sm.input.claim_figures)
