"""Ene-Nguyen-Vladu figures."""
import sys

import pandas as pd

from dpregret.report.figures_env21 import env21_figures

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
env21_figures({k: pd.read_parquet(v) for k, v in sm.input.items()}, sm.params.p, sm.params.alpha, list(sm.output))
