"""Figures of one scenario: ``dpregret.report.figures_<scenario>.<scenario>_figures(tables, p,
alpha, outputs)`` on its merged tables."""
import importlib
import sys

import pandas as pd

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
scenario = sm.params.scenario
figures = getattr(importlib.import_module(f"dpregret.report.figures_{scenario}"), f"{scenario}_figures")
figures({k: pd.read_parquet(v) for k, v in sm.input.items()}, sm.params.p, sm.params.alpha, list(sm.output))
