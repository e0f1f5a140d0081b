# Mutation suite: realistic implementation bugs patched into the library at
# test time, each judged by the claims that must catch it on small instances derived from the
# smoke preset (dpregret.pipeline.mutation).  The mutants are the registry's.
# One job: every target claim decided unpatched once, then each mutant in the registry's order
# (mutation.runner.run_all, as `python -m dpregret.pipeline.mutation`).  Five jobs (the unpatched verdicts,
# four groups of mutants) cost about 12 s more CPU in process start-ups; the job has no input, so
# its priority starts it first and it never runs last.


rule mutation_run:
    output:
        "results/mutation.json",
    log:
        "logs/mutation_run.log",
    benchmark:
        "logs/bench/mutation_run.tsv"
    priority: 10
    params:
        smoke=config["presets"]["smoke"],
        tolerances=RUN["tolerances"],
        seed=SEED,
        alpha=ALPHA,
    resources:
        mem_mb=2000,
        runtime=15,
    conda:
        CONDA_ENV
    script:
        "../scripts/mutation_run.py"
