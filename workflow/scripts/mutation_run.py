"""Mutation suite: decide every target claim unpatched once (rule mutation_unpatched), judge one
mutant against those verdicts (rule mutation_run) or merge the mutants' records into
results/mutation.json (rule mutation_merge: score = caught / total)."""
import json
import sys

from dpregret.mutation.runner import run_mutant, summary, unpatched_verdicts

sm = snakemake  # noqa: F821
sys.stdout = sys.stderr = open(sm.log[0], "w")
if sm.rule == "mutation_merge":
    records = []
    for path in sm.input:
        with open(path) as fh:
            records.append(json.load(fh))
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
        out = run_mutant(sm.wildcards.mutant, settings, cache)
        for cid, row in out["targets"].items():
            print(cid, row["unpatched"], "->", row["mutated"], "caught" if row["caught"] else "missed")
with open(sm.output[0], "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True, default=float)
