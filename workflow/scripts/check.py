"""Every check job of the workflow: dpregret.pipeline.jobs.check(params.group, ...) writes each claim's record."""
import sys

from dpregret.pipeline import jobs

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
inputs = dict(sm.input.items()) or {"runs": list(sm.input)}
outputs = dict(sm.output.items()) or {"claims": list(sm.output)}
jobs.check(sm.params.group, dict(sm.params.items()), inputs, outputs, dict(sm.wildcards.items()))
