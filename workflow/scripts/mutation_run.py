"""Mutation suite: decide every target claim unpatched once (rule mutation_unpatched), judge one
group of mutants against those verdicts (rule mutation_run: a list of records, one per mutant)
or merge the groups' records into results/mutation.json (rule mutation_merge: score = caught / total)."""
import json
import sys

from dpregret import cpu
from dpregret.mutation.registry import MUTANTS
from dpregret.mutation.runner import run_mutant, summary, unpatched_verdicts

cpu.require_pinned("the mutation job")  # the same bits on every x86-64 CPU (dpregret.cpu)
sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
if sm.rule == "mutation_merge":
    records = []
    for path in sm.input:
        with open(path) as fh:
            records += json.load(fh)
    order = list(MUTANTS)  # the registry's order, whatever the grouping
    records.sort(key=lambda r: order.index(r["name"]))
    out = summary(records)
    print(f"score {out['caught']}/{out['total']}, missed: {out['missed']}")
else:
    settings = {"base": sm.params.smoke, "tolerances": sm.params.tolerances, "seed": sm.params.seed,
                "alpha": sm.params.alpha}
    if sm.rule == "mutation_unpatched":
        out = unpatched_verdicts(settings)
        for cid, row in out.items():
            print(cid, row["verdict"])
    else:
        with open(sm.input.unpatched) as fh:
            cache = json.load(fh)
        out = []
        for name in sm.params.mutants:
            out.append(run_mutant(name, settings, cache))
            for cid, row in out[-1]["targets"].items():
                print(name, cid, row["unpatched"], "->", row["mutated"], "caught" if row["caught"] else "missed")
with open(sm.output[0], "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True, default=float)
