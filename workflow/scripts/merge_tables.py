"""Concatenate per-chunk tables into one tidy table, in a fixed row order."""
import sys

import pandas as pd

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
df = pd.concat([pd.read_parquet(f) for f in sm.input], ignore_index=True)
keys = [c for c in ("scenario", "row", "grid", "env", "algorithm", "N", "T", "eps", "replicate") if c in df.columns]
df.sort_values(keys, kind="stable").reset_index(drop=True).to_parquet(sm.output[0], index=False)
print(f"{len(df)} rows from {len(sm.input)} files")
