"""Simulate one point of the Ene-Nguyen-Vladu scenario (one replicate chunk)."""
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matmuls: threads only add overhead

from dpregret.scenarios import env21  # noqa: E402

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
w = sm.wildcards
lo, hi = map(int, w.chunk.split("-"))
point = int(w.point) if w.point.isdigit() else w.point  # "name:value", a name ("all", a domain) or an int
df = env21.simulate(w.experiment, sm.params.p, point, range(lo, hi), sm.params.seed)
df.to_parquet(sm.output[0], index=False)
print(len(df), "rows")
