# Mutation suite: realistic implementation bugs patched into the library at
# test time, one job per mutant, each judged by the claims that must catch it on small
# instances derived from the smoke preset (dpregret.mutation).  The mutants are the registry's.
# The unpatched verdicts of all target claims are decided once (mutation_unpatched), not per mutant.
from dpregret.mutation.registry import MUTANTS

# The mutants run in MUTATION_GROUPS jobs (every k-th mutant of the registry in job k): one process
# per mutant paid 1.5-2 s of start-up for 1-4 s of work.  Each mutant is judged as before.
MUTATION_GROUPS = 4
MUTANT_GROUPS = {str(k): list(MUTANTS)[k::MUTATION_GROUPS] for k in range(MUTATION_GROUPS)}
MUTATION_FILES = [f"results/mutation/group{k}.json" for k in MUTANT_GROUPS]


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
        "results/mutation/group{group}.json",
    log:
        "logs/mutation_run/group{group}.log",
    benchmark:
        "logs/bench/mutation_run/group{group}.tsv"
    wildcard_constraints:
        group=r"\d+",
    params:
        mutants=lambda w: MUTANT_GROUPS[w.group],
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
