"""results/claims.csv: one row per claim, the table users and CI read."""
import sys

from dpregret.report.tables import claims_table

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
claims_table(list(sm.input)).to_csv(sm.output[0], index=False)
