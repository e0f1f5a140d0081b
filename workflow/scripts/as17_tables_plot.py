"""Figures of Agarwal-Singh Tables 1 and 2 (full information rows 2-4, bandits)."""
import sys

import pandas as pd

from dpregret.report.figures import as17_tables_figures

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
mab = pd.read_parquet(sm.input.mab)
as17_tables_figures(pd.read_parquet(sm.input.olo), mab[mab.env == "stochastic"], pd.read_parquet(sm.input.blo),
                    {"olo": sm.params.olo, "mab": sm.params.mab, "blo": sm.params.blo}, sm.params.alpha, list(sm.output),
                    seed=sm.params.seed)
