"""Figures of the Agarwal-Singh experts scenario."""
import sys

import pandas as pd

from dpregret.report.figures import as17_experts_figures

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
as17_experts_figures(pd.read_parquet(sm.input.runs), pd.read_parquet(sm.input.d_noise), sm.params.p,
                     sm.params.alpha, list(sm.output))
