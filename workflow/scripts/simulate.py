"""Every simulate job of the workflow: dpregret.jobs.simulate(params.group, ...)."""
import os
import sys

if snakemake.params.group == "env21":  # noqa: F821
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matmuls: threads only add overhead

from dpregret import jobs  # noqa: E402

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
jobs.simulate(sm.params.group, dict(sm.params.items()), dict(sm.wildcards.items()), list(sm.output))
