"""Simulate one point of the Van der Hoeven scenario (one replicate chunk)."""
import sys

from dpregret.scenarios import vdh19

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
w, p, seed = sm.wildcards, sm.params.p, sm.params.seed
lo, hi = map(int, w.chunk.split("-"))
reps = range(lo, hi)
if w.experiment in ("minority", "sparse"):
    df = getattr(vdh19, f"simulate_{w.experiment}")(p, int(w.point[1:]), reps, seed)
else:
    df = getattr(vdh19, f"simulate_{w.experiment}")(p, reps, seed)
df["scenario"] = "vdh19"
df.to_parquet(sm.output[0], index=False)
print(len(df), "rows")
