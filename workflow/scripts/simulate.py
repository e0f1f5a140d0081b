"""Every simulate job of the workflow: dpregret.pipeline.jobs.simulate(params.group, ...)."""
import sys

from dpregret.pipeline import jobs  # BLAS runs single-threaded in every job (dpregret.core.cpu)

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
jobs.simulate(sm.params.group, dict(sm.params.items()), dict(sm.wildcards.items()), list(sm.output))
