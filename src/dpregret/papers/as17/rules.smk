# Agarwal and Singh (ICML 2017): this folder's own rules, included by the Snakefile as every folder's
# rules.smk (the generic rules of workflow/rules/papers.smk write one file per point and merge per
# experiment; these four scenarios' jobs write a grid per process and their checks read across them).
# - as17_experts: FTRL with TreeBasedAgg on prediction with expert advice (section 3);
# - as17_tables: Tables 1 and 2, full-information rows 2-4 (as17_olo), bandit linear optimisation
#   (as17_blo) and multi-armed bandits (as17_mab).
# Which file holds which point: dpregret.papers.as17.files; which records a check writes: the claims
# modules (claim_files); the drawing and checking code: paper.GROUPS.
from functools import partial

from dpregret.papers.as17 import claims_experts, claims_tables, files as as17_files, paper as as17_paper

AS17X = RUN.get("as17_experts", {})
OLO = RUN.get("as17_olo", {})
MAB = RUN.get("as17_mab", {})
BLO = RUN.get("as17_blo", {})


AS17_EXPERTS_CLAIM_FILES = claims_experts.claim_files(AS17X)  # the records its check writes
AS17_EXPERTS_FIGURES = figure_paths("as17_experts")
if "as17_experts" in RUN["scenarios"]:
    OUTPUTS["as17_experts"] = (AS17_EXPERTS_CLAIM_FILES, AS17_EXPERTS_FIGURES)
    TARGETS.append("results/notebooks/explore.ipynb")  # the notebook explores the experts runs

OLO_FILES = as17_files.olo_files(OLO, partial(chunk_ids, "as17_olo"))
MAB_FILES = as17_files.mab_files(MAB, partial(chunk_ids, "as17_mab"))
BLO_FILES = as17_files.blo_files(BLO, partial(chunk_ids, "as17_blo"))
MAB_POINTS = as17_files.mab_points(MAB)
AS17_TABLE_CLAIM_FILES = claims_tables.claim_files(OLO, MAB, BLO)  # the records its check writes
AS17_TABLE_FIGURES = figure_paths("as17_tables")
if set(as17_paper.TOGETHER[0]) <= set(RUN["scenarios"]):  # all three or none (config.effective)
    OUTPUTS["as17_tables"] = (AS17_TABLE_CLAIM_FILES, AS17_TABLE_FIGURES)
    REPORT_TABLES.append("results/as17/tables.csv")


# ---- as17_experts ----

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
        code=source_digest("dpregret.papers.as17"),
        p=AS17X,
        seed=SEED,
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/simulate.py"


rule as17_experts_merge:
    input:
        as17_files.experts_files(AS17X, partial(chunk_ids, "as17_experts")),
    output:
        "results/as17/experts/runs.parquet",
    log:
        "logs/as17_experts_merge.log",
    benchmark:
        "logs/bench/as17_experts_merge.tsv"
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/merge_tables.py"


rule as17_experts_d_noise:
    output:
        "results/as17/experts/d_noise.parquet",
    log:
        "logs/as17_experts_d_noise.log",
    benchmark:
        "logs/bench/as17_experts_d_noise.tsv"
    params:
        group="as17_experts",
        code=source_digest("dpregret.papers.as17"),
        p=AS17X,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/simulate.py"


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
        code=source_digest("dpregret.papers.as17"),
        p=AS17X,
        seed=SEED,
        alpha=ALPHA,
        tolerances=RUN["tolerances"],
        history=RUN["history"],
        bootstrap=RUN["bootstrap"],
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/check.py"


rule as17_experts_plot:
    input:
        runs="results/as17/experts/runs.parquet",
        d_noise="results/as17/experts/d_noise.parquet",
    output:
        [report(f, caption=f"{CAPTIONS}/as17_{Path(f).stem}.rst", category="Agarwal-Singh") for f in AS17_EXPERTS_FIGURES],
    log:
        "logs/as17_experts_plot.log",
    benchmark:
        "logs/bench/as17_experts_plot.tsv"
    params:
        group="as17_experts",
        code=source_digest("dpregret.papers.as17"),
        p=AS17X,
        alpha=ALPHA,
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/plot.py"


rule as17_experts:
    # no output: `snakemake as17_experts` rebuilds whatever of these is missing (a touched flag would hide it)
    input:
        AS17_EXPERTS_CLAIM_FILES,
        AS17_EXPERTS_FIGURES,
    localrule: True


rule notebook:
    input:
        claims="results/claims.csv",
        runs="results/as17/experts/runs.parquet",
    output:
        "results/notebooks/explore.ipynb",
    log:
        "logs/notebook.log",
    benchmark:
        "logs/bench/notebook.tsv"
    params:
        notebook=f"{workflow.basedir}/workflow/notebooks/explore.ipynb",
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/run_notebook.py"


# ---- as17_olo, as17_mab, as17_blo: Tables 1 and 2 ----

# One job per (env, chunk): every row's T grid and the FTRL rows' N grid in one process (each job's
# start-up of numpy/pandas/numba, 1-1.5 s of CPU, was most of the ten per-(row, grid) jobs' time);
# each point is the same independent call as one job per point, so the files and their numbers do
# not change.
rule as17_olo_simulate:
    output:
        [f"results/as17/olo/{row}/{{env}}/{pt}/chunk{{chunk}}.parquet" for row, pt in as17_files.olo_env_points(OLO)],
    log:
        "logs/as17_olo_simulate/{env}_TN_{chunk}.log",
    benchmark:
        "logs/bench/as17_olo_simulate/{env}_TN_{chunk}.tsv"
    wildcard_constraints:
        env="switching|fixed|stochastic",
        chunk=r"\d+-\d+",
    params:
        group="as17_olo",
        code=source_digest("dpregret.papers.as17"),
        p=OLO,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/simulate.py"


# Algorithm 1's regret rates on the sequences of regret_mu (grid R): every FTRL row and T of one env in one process
rule as17_olo_simulate_R:
    output:
        [f"results/as17/olo/{row}/{{env}}/{pt}/chunk{{chunk}}.parquet" for row, pt in as17_files.olo_regret_points(OLO)],
    log:
        "logs/as17_olo_simulate/R_{env}_{chunk}.log",
    benchmark:
        "logs/bench/as17_olo_simulate/R_{env}_{chunk}.tsv"
    wildcard_constraints:
        env="switching|fixed|stochastic",
        chunk=r"\d+-\d+",
    params:
        group="as17_olo",
        code=source_digest("dpregret.papers.as17"),
        p=OLO,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/simulate.py"


# Theorem 4.1's bound grid in one process (as as17_blo_simulate_fixed)
rule as17_mab_simulate_bound:
    output:
        [f"results/as17/mab/signed/{pt}/chunk{{chunk}}.parquet" for pt in as17_files.mab_bound_points(MAB)],
    log:
        "logs/as17_mab_simulate/signed_bound_{chunk}.log",
    benchmark:
        "logs/bench/as17_mab_simulate/signed_bound_{chunk}.tsv"
    wildcard_constraints:
        chunk=r"\d+-\d+",
    params:
        group="as17_mab",
        code=source_digest("dpregret.papers.as17"),
        p=MAB,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/simulate.py"


# every point of one MAB grid (T, N or the eps window) of one sequence in one process (as the bound grid):
# each point is the same independent call as one job per point, so the files and their numbers do not
# change; the start-up (~1.5 s CPU) is paid once per grid instead of once per point
for _grid in MAB_POINTS:

    rule:
        name:
            f"as17_mab_simulate_{_grid}"
        output:
            [f"results/as17/mab/{{env}}/{_grid}_{pt}/chunk{{chunk}}.parquet" for pt in MAB_POINTS[_grid]],
        log:
            f"logs/as17_mab_simulate/{{env}}_{_grid}_{{chunk}}.log",
        benchmark:
            f"logs/bench/as17_mab_simulate/{{env}}_{_grid}_{{chunk}}.tsv"
        wildcard_constraints:
            env="stochastic|periodic",
            chunk=r"\d+-\d+",
        params:
            group="as17_mab",
            code=source_digest("dpregret.papers.as17"),
            p=MAB,
            seed=SEED,
        conda:
            CONDA_ENV
        script:
            f"{SCRIPTS}/simulate.py"


# the T grid of every domain on each sequence in one process: every point the same independent call as
# one job per point (the same files and numbers), the start-up (~1.5 s of CPU) paid once instead of per
# point and domain
for _env in BLO.get("envs", []):

    rule:
        name:
            f"as17_blo_simulate_{_env}"
        output:
            [f"results/as17/blo/{row}/{_env}/T_T{T}/chunk{{chunk}}.parquet"
             for row in BLO.get("domains", []) for T in as17_files.blo_T(BLO, _env)],
        log:
            f"logs/as17_blo_simulate/{_env}_T_{{chunk}}.log",
        benchmark:
            f"logs/bench/as17_blo_simulate/{_env}_T_{{chunk}}.tsv"
        wildcard_constraints:
            chunk=r"\d+-\d+",
        params:
            group="as17_blo",
            code=source_digest("dpregret.papers.as17"),
            p=BLO,
            seed=SEED,
        conda:
            CONDA_ENV
        script:
            f"{SCRIPTS}/simulate.py"


# the eps window: one job per point
rule as17_blo_simulate:
    output:
        "results/as17/blo/{row}/{env}/eps_T{T}/chunk{chunk}.parquet",
    log:
        "logs/as17_blo_simulate/{row}_{env}_eps_T{T}_{chunk}.log",
    benchmark:
        "logs/bench/as17_blo_simulate/{row}_{env}_eps_T{T}_{chunk}.tsv"
    wildcard_constraints:
        row="ball|cube",
        env="switching|stochastic",
        T=r"\d+",
        chunk=r"\d+-\d+",
    params:
        group="as17_blo",
        code=source_digest("dpregret.papers.as17"),
        p=BLO,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/simulate.py"


rule as17_tables_merge:
    input:
        lambda w: {"olo": OLO_FILES, "mab": MAB_FILES, "blo": BLO_FILES}[w.kind],
    output:
        "results/as17/{kind}/runs.parquet",
    log:
        "logs/as17_tables_merge_{kind}.log",
    benchmark:
        "logs/bench/as17_tables_merge_{kind}.tsv"
    wildcard_constraints:
        kind="olo|mab|blo",
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/merge_tables.py"


rule as17_tables_check:
    input:
        olo="results/as17/olo/runs.parquet",
        mab="results/as17/mab/runs.parquet",
        blo="results/as17/blo/runs.parquet",
        experts=AS17_EXPERTS_CLAIM_FILES,
        nonlearners=nonlearner_files(["as17_olo", "as17_mab", "as17_blo"]),  # their non-learner controls (user.smk)
    output:
        claims=AS17_TABLE_CLAIM_FILES,
        tables="results/as17/tables.csv",
    log:
        "logs/as17_tables_check.log",
    benchmark:
        "logs/bench/as17_tables_check.tsv"
    params:
        group="as17_tables",
        code=source_digest("dpregret.papers.as17"),
        olo=OLO,
        mab=MAB,
        blo=BLO,
        seed=SEED,
        alpha=ALPHA,
        tolerances=RUN["tolerances"],
        history=RUN["history"],
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/check.py"


rule as17_tables_plot:
    input:
        olo="results/as17/olo/runs.parquet",
        mab="results/as17/mab/runs.parquet",
        blo="results/as17/blo/runs.parquet",
    output:
        [report(f, caption=f"{CAPTIONS}/as17_tables.rst", category="Agarwal-Singh") for f in AS17_TABLE_FIGURES],
    log:
        "logs/as17_tables_plot.log",
    benchmark:
        "logs/bench/as17_tables_plot.tsv"
    params:
        group="as17_tables",
        code=source_digest("dpregret.papers.as17"),
        olo=OLO,
        mab=MAB,
        blo=BLO,
        alpha=ALPHA,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        f"{SCRIPTS}/plot.py"


rule as17_tables:
    # no output: `snakemake as17_tables` rebuilds whatever of these is missing (a touched flag would hide it)
    input:
        AS17_TABLE_CLAIM_FILES,
        AS17_TABLE_FIGURES,
        "results/as17/tables.csv",
    localrule: True
