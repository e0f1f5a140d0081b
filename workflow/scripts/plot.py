"""Every plot job of the workflow: dpregret.pipeline.jobs.plot(params.group, ...) draws the rule's outputs in order."""
import sys

from dpregret.pipeline import jobs

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
jobs.plot(sm.params.group, dict(sm.params.items()), dict(sm.input.items()), list(sm.output))
