# Agarwal and Singh (ICML 2017): FTRL with TreeBasedAgg on prediction with expert advice.
from dpregret.papers.as17 import claims_experts

AS17X = RUN.get("as17_experts", {})
AS17_EXPERTS_CLAIM_FILES = claims_experts.claim_files(AS17X)  # the records its check writes
AS17_EXPERTS_FIGURES = figure_paths("as17_experts")
if "as17_experts" in RUN["scenarios"]:
    OUTPUTS["as17_experts"] = (AS17_EXPERTS_CLAIM_FILES, AS17_EXPERTS_FIGURES)


# every T of one sequence in one process (one replicate chunk): each point is the same independent call as
# one job per point (the same files and numbers), the start-up (~1.5 s CPU) paid once per sequence
rule as17_experts_simulate:
    output:
        [f"results/as17/experts/{{env}}/T{T}/chunk{{chunk}}.parquet" for T in AS17X.get("T", [])],
    log:
        "logs/as17_experts_simulate/{env}_{chunk}.log",
    benchmark:
        "logs/bench/as17_experts_simulate/{env}_{chunk}.tsv"
    wildcard_constraints:
        env="switching|fixed|stochastic",
        chunk=r"\d+-\d+",
    params:
        group="as17_experts",
        p=AS17X,
        seed=SEED,
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


rule as17_experts_merge:
    input:
        expand(
            "results/as17/experts/{env}/T{T}/chunk{chunk}.parquet",
            env=AS17X.get("envs", []),
            T=AS17X.get("T", []),
            chunk=chunk_ids("as17_experts") if AS17X else [],
        ),
    output:
        "results/as17/experts/runs.parquet",
    log:
        "logs/as17_experts_merge.log",
    benchmark:
        "logs/bench/as17_experts_merge.tsv"
    conda:
        CONDA_ENV
    script:
        "../scripts/merge_tables.py"


rule as17_experts_d_noise:
    output:
        "results/as17/experts/d_noise.parquet",
    log:
        "logs/as17_experts_d_noise.log",
    benchmark:
        "logs/bench/as17_experts_d_noise.tsv"
    params:
        group="as17_experts",
        p=AS17X,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


rule as17_experts_check:
    input:
        runs="results/as17/experts/runs.parquet",
        d_noise="results/as17/experts/d_noise.parquet",
        nonlearners=nonlearner_files(["as17_experts"]),  # their non-learner controls (user.smk)
    output:
        AS17_EXPERTS_CLAIM_FILES,
    log:
        "logs/as17_experts_check.log",
    benchmark:
        "logs/bench/as17_experts_check.tsv"
    params:
        group="as17_experts",
        p=AS17X,
        seed=SEED,
        alpha=ALPHA,
        tolerances=RUN["tolerances"],
        history=RUN["history"],
        bootstrap=RUN["bootstrap"],
    conda:
        CONDA_ENV
    script:
        "../scripts/check.py"


rule as17_experts_plot:
    input:
        runs="results/as17/experts/runs.parquet",
        d_noise="results/as17/experts/d_noise.parquet",
    output:
        report(
            AS17_EXPERTS_FIGURES[0],
            caption="../report/as17_experts_regret_vs_T.rst",
            category="Agarwal-Singh",
        ),
        report(
            AS17_EXPERTS_FIGURES[1],
            caption="../report/as17_experts_gap_vs_T.rst",
            category="Agarwal-Singh",
        ),
        report(
            AS17_EXPERTS_FIGURES[2],
            caption="../report/as17_experts_gap_vs_eps.rst",
            category="Agarwal-Singh",
        ),
    log:
        "logs/as17_experts_plot.log",
    benchmark:
        "logs/bench/as17_experts_plot.tsv"
    params:
        group="as17_experts",
        p=AS17X,
        alpha=ALPHA,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot.py"


rule as17_experts:
    # no output: `snakemake as17_experts` rebuilds whatever of these is missing (a touched flag would hide it)
    input:
        AS17_EXPERTS_CLAIM_FILES,
        AS17_EXPERTS_FIGURES,
    localrule: True
