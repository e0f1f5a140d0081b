# Mutation suite (issue 15, item 4): realistic implementation bugs patched into the library at
# test time, one job per mutant, each judged by the claims that must catch it on small
# instances derived from the smoke preset (dpregret.mutation).  The mutants are the registry's.
# The unpatched verdicts of all target claims are decided once (mutation_unpatched), not per mutant.
from dpregret.mutation.registry import MUTANTS

MUTATION_FILES = [f"results/mutation/{m}.json" for m in MUTANTS]


rule mutation_unpatched:
    output:
        "results/mutation_unpatched.json",
    log:
        "logs/mutation_unpatched.log",
    benchmark:
        "logs/bench/mutation_unpatched.tsv"
    params:
        smoke=config["presets"]["smoke"],
        tolerances=RUN["tolerances"],
        seed=SEED,
        alpha=ALPHA,
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/mutation_run.py"


rule mutation_run:
    input:
        unpatched="results/mutation_unpatched.json",
    output:
        "results/mutation/{mutant}.json",
    log:
        "logs/mutation_run/{mutant}.log",
    benchmark:
        "logs/bench/mutation_run/{mutant}.tsv"
    wildcard_constraints:
        mutant=r"[A-Za-z0-9.\-]+",
    params:
        smoke=config["presets"]["smoke"],
        tolerances=RUN["tolerances"],
        seed=SEED,
        alpha=ALPHA,
    resources:
        mem_mb=2000,
        runtime=5,
    conda:
        CONDA_ENV
    script:
        "../scripts/mutation_run.py"


rule mutation_merge:
    input:
        MUTATION_FILES,
    output:
        "results/mutation.json",
    log:
        "logs/mutation_merge.log",
    benchmark:
        "logs/bench/mutation_merge.tsv"
    localrule: True
    conda:
        CONDA_ENV
    script:
        "../scripts/mutation_run.py"
