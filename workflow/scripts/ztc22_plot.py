"""Zhang-Tran-Cutkosky figures."""
import sys

import pandas as pd

from dpregret.report.figures import ztc22_figures, ztc22_linear_T_figure, ztc22_param_free_figure

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
ztc22_figures(pd.read_parquet(sm.input.rates), pd.read_parquet(sm.input.optimistic),
              pd.read_parquet(sm.input.strongly_convex), pd.read_parquet(sm.input.rho_d), sm.params.p, sm.params.alpha,
              list(sm.output), minimax=pd.read_parquet(sm.input.minimax))
ztc22_param_free_figure(pd.read_parquet(sm.input.param_free), sm.params.p, sm.params.alpha, sm.output[5])
ztc22_linear_T_figure(pd.read_parquet(sm.input.linear_T), sm.params.p, sm.params.alpha, sm.output[6])
