"""Van der Hoeven figures."""
import sys

import pandas as pd

from dpregret.report.figures_vdh19 import vdh19_figures

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
vdh19_figures({k: pd.read_parquet(v) for k, v in sm.input.items()}, sm.params.p, sm.params.alpha, list(sm.output))
