"""Mutation suite (rule mutation_run): every target claim decided unpatched once, each mutant
judged against those verdicts in the registry's order; results/mutation.json (score = caught / total)."""
import json
import sys

from dpregret.core import cpu
from dpregret.pipeline.mutation import cache
from dpregret.pipeline.mutation.runner import run_all

cpu.require_pinned("the mutation job")  # the same bits on every x86-64 CPU (dpregret.core.cpu)
sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
settings = {"base": sm.params.smoke, "tolerances": sm.params.tolerances, "seed": sm.params.seed,
            "alpha": sm.params.alpha}


def progress(rec):
    for cid, row in rec["targets"].items():
        print(rec["name"], cid, row["unpatched"], "->", row["mutated"], "caught" if row["caught"] else "missed",
              flush=True)


out = cache.result(settings, lambda: run_all(settings=settings, progress=progress))
print(f"score {out['caught']}/{out['total']}, missed: {out['missed']}; key {out['key']}, {out['source']}")
with open(sm.output[0], "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True, default=float)
