"""figures/claims/: the overview of every verdict and one figure per claim, drawn from the records."""
import sys

from dpregret.pipeline.report.claim_figures import write_claim_figures

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
write_claim_figures(sm.input.claims, list(sm.input.details), sm.output[0], workers=sm.threads)
