"""One point of a claim for a user's learner beside the paper's (dpregret.scenarios.contract)."""
import sys

from dpregret.api import load_learner
from dpregret.scenarios.contract import user_claims

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
w, run = sm.wildcards, sm.params.run
uc = user_claims()[w.claim]
p = run[uc.scenario]
point = {str(x): x for x in uc.points(p)}[w.point]
df = uc.simulate(p, point, range(int(p["replicates"])), run["seed"], {w.name: load_learner(run["learners"][w.name]["make"])})
df.to_parquet(sm.output[0], index=False)
print(len(df), "rows")
