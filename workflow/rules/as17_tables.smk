# Agarwal and Singh (ICML 2017), Tables 1 and 2: full-information rows 2-4 (as17_olo),
# bandit linear optimisation (as17_blo) and multi-armed bandits (as17_mab).
from dpregret.papers.as17 import claims_tables

OLO = RUN.get("as17_olo", {})
MAB = RUN.get("as17_mab", {})
BLO = RUN.get("as17_blo", {})


OLO_FILES = [
    f"results/as17/olo/{row}/{env}/{g}_N{N}_T{T}/chunk{c}.parquet"
    for row in OLO.get("rows", []) for env in OLO.get("envs", [])
    for g, N, T in (grid_points(OLO) if row != "ftpl" else [("T", OLO["N"], T) for T in OLO["T"]])
    for c in (chunk_ids("as17_olo") if OLO else [])
] + [
    f"results/as17/olo/{row}/{env}/R_N{OLO['N']}_T{T}/chunk{c}.parquet"
    for env in OLO.get("regret_mu", {}) if env in OLO.get("envs", [])
    for row in OLO.get("rows", []) if row != "ftpl" for T in OLO["T"]
    for c in chunk_ids("as17_olo")
]
# the T grid on every env of as17_mab.envs; the N grid and the eps window on the stochastic sequence;
# Theorem 4.1's bound grid on the signed sequence
# the N grid may declare its own replicate count (replicates_N, default replicates)
MAB_CHUNKS = {g: chunk_ids("as17_mab", g) for g in (["T", "N", "eps"] if MAB else [])}
MAB_FILES = [
    f"results/as17/mab/{env}/{g}_N{N}_T{T}/chunk{c}.parquet"
    for g, N, T in ((grid_points(MAB) + [("eps", MAB["N"], MAB["T_eps"])]) if MAB else [])
    for env in (MAB.get("envs", ["stochastic"]) if g == "T" else ["stochastic"]) for c in MAB_CHUNKS[g]
] + [
    f"results/as17/mab/signed/bound_N{MAB['bound_grid']['N']}_T{T}/chunk{c}.parquet"
    for T in (MAB.get("bound_grid", {}).get("T", []) if MAB else []) for c in chunk_ids("as17_mab")
]


# replicate chunks of each BLO grid (the switching / stochastic T grids, the eps window): each may declare
# its own replicate count (replicates_<key>, default replicates)
BLO_CHUNKS = {key: chunk_ids("as17_blo", key) for key in (["switching", "fixed", "stochastic", "eps"] if BLO else [])}
BLO_FILES = [
    f"results/as17/blo/{dom}/{env}/{g}_T{T}/chunk{c}.parquet"
    for dom in BLO.get("domains", []) for env in BLO.get("envs", [])
    for g, T, chunks in ([("T", T, BLO_CHUNKS[env]) for T in BLO.get(f"T_{env}", BLO["T"])]
                         + ([("eps", BLO["T_eps"], BLO_CHUNKS["eps"])] if env in BLO.get("eps_envs", BLO["envs"]) else [])
                         if BLO else [])
    for c in chunks
]
AS17_TABLE_CLAIM_FILES = claims_tables.claim_files(OLO, MAB, BLO)  # the records its check writes
AS17_TABLE_FIGURES = figure_paths("as17_tables")
if {"as17_olo", "as17_mab", "as17_blo"} <= set(RUN["scenarios"]):
    OUTPUTS["as17_tables"] = (AS17_TABLE_CLAIM_FILES, AS17_TABLE_FIGURES)


# One job per (row, env, grid, chunk): every T (or N) of the grid in one process (the per-job
# start-up of numpy/pandas/numba is 1.3-1.7 s); each point is the same independent call as before,
# so the files and their numbers do not change.
OLO_GRIDS = {"T": [f"T_N{OLO['N']}_T{T}" for T in OLO["T"]],
             "N": [f"N_N{N}_T{OLO['T_N']}" for N in OLO.get("N_grid", [])]} if OLO else {"T": [], "N": []}


rule as17_olo_simulate:
    output:
        [f"results/as17/olo/{{row}}/{{env}}/{pt}/chunk{{chunk}}.parquet" for pt in OLO_GRIDS["T"]],
    log:
        "logs/as17_olo_simulate/{row}_{env}_T_{chunk}.log",
    benchmark:
        "logs/bench/as17_olo_simulate/{row}_{env}_T_{chunk}.tsv"
    wildcard_constraints:
        row="sphere|cube|ftpl",
        env="switching|fixed|stochastic",
        chunk=r"\d+-\d+",
    params:
        group="as17_olo",
        p=OLO,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


# Algorithm 1's regret rates on the sequences of regret_mu (grid R): every FTRL row and T of one env in one process
rule as17_olo_simulate_R:
    output:
        [f"results/as17/olo/{row}/{{env}}/R_N{OLO['N']}_T{T}/chunk{{chunk}}.parquet"
         for row in OLO.get("rows", []) if row != "ftpl" for T in OLO.get("T", [])],
    log:
        "logs/as17_olo_simulate/R_{env}_{chunk}.log",
    benchmark:
        "logs/bench/as17_olo_simulate/R_{env}_{chunk}.tsv"
    wildcard_constraints:
        env="switching|fixed|stochastic",
        chunk=r"\d+-\d+",
    params:
        group="as17_olo",
        p=OLO,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


rule as17_olo_simulate_N:
    output:
        [f"results/as17/olo/{{row}}/{{env}}/{pt}/chunk{{chunk}}.parquet" for pt in OLO_GRIDS["N"]],
    log:
        "logs/as17_olo_simulate/{row}_{env}_N_{chunk}.log",
    benchmark:
        "logs/bench/as17_olo_simulate/{row}_{env}_N_{chunk}.tsv"
    wildcard_constraints:
        row="sphere|cube",
        env="switching|fixed|stochastic",
        chunk=r"\d+-\d+",
    params:
        group="as17_olo",
        p=OLO,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


# Theorem 4.1's bound grid in one process (as as17_blo_simulate_fixed)
rule as17_mab_simulate_bound:
    output:
        [f"results/as17/mab/signed/bound_N{MAB['bound_grid']['N']}_T{T}/chunk{{chunk}}.parquet"
         for T in (MAB.get("bound_grid", {}).get("T", []) if MAB else [])],
    log:
        "logs/as17_mab_simulate/signed_bound_{chunk}.log",
    benchmark:
        "logs/bench/as17_mab_simulate/signed_bound_{chunk}.tsv"
    wildcard_constraints:
        chunk=r"\d+-\d+",
    params:
        group="as17_mab",
        p=MAB,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


# every point of one MAB grid (T, N or the eps window) of one sequence in one process (as the bound grid):
# each point is the same independent call as one job per point, so the files and their numbers do not
# change; the start-up (~1.5 s CPU) is paid once per grid instead of once per point
MAB_POINTS = {g: [f"N{N}_T{T}" for gg, N, T in grid_points(MAB) + [("eps", MAB["N"], MAB["T_eps"])] if gg == g]
              for g in ("T", "N", "eps")} if MAB else {}

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
            p=MAB,
            seed=SEED,
        conda:
            CONDA_ENV
        script:
            "../scripts/simulate.py"


# the fixed-leader T grid of a domain in one process (each point is the same independent call as one job
# per point: the same files, the start-up of ~2 s paid once instead of per point)
rule as17_blo_simulate_fixed:
    output:
        [f"results/as17/blo/{{row}}/fixed/T_T{T}/chunk{{chunk}}.parquet" for T in (BLO.get("T_fixed", BLO.get("T", [])) if BLO else [])],
    log:
        "logs/as17_blo_simulate/{row}_fixed_T_{chunk}.log",
    benchmark:
        "logs/bench/as17_blo_simulate/{row}_fixed_T_{chunk}.tsv"
    wildcard_constraints:
        row="ball|cube",
        chunk=r"\d+-\d+",
    params:
        group="as17_blo",
        p=BLO,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


# the T grid of a domain on a non-fixed sequence in one process (as the fixed-leader grid): every point the
# same independent call as one job per point (the same files and numbers), the start-up paid once
for _env in [e for e in BLO.get("envs", []) if e != "fixed"]:

    rule:
        name:
            f"as17_blo_simulate_{_env}"
        output:
            [f"results/as17/blo/{{row}}/{_env}/T_T{T}/chunk{{chunk}}.parquet" for T in BLO.get(f"T_{_env}", BLO["T"])],
        log:
            f"logs/as17_blo_simulate/{{row}}_{_env}_T_{{chunk}}.log",
        benchmark:
            f"logs/bench/as17_blo_simulate/{{row}}_{_env}_T_{{chunk}}.tsv"
        wildcard_constraints:
            row="ball|cube",
            chunk=r"\d+-\d+",
        params:
            group="as17_blo",
            p=BLO,
            seed=SEED,
        conda:
            CONDA_ENV
        script:
            "../scripts/simulate.py"


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
        p=BLO,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


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
        "../scripts/merge_tables.py"


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
        "../scripts/check.py"


rule as17_tables_plot:
    input:
        olo="results/as17/olo/runs.parquet",
        mab="results/as17/mab/runs.parquet",
        blo="results/as17/blo/runs.parquet",
    output:
        [report(f, caption="../report/as17_tables.rst", category="Agarwal-Singh") for f in AS17_TABLE_FIGURES],
    log:
        "logs/as17_tables_plot.log",
    benchmark:
        "logs/bench/as17_tables_plot.tsv"
    params:
        group="as17_tables",
        olo=OLO,
        mab=MAB,
        blo=BLO,
        alpha=ALPHA,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot.py"


rule as17_tables:
    # no output: `snakemake as17_tables` rebuilds whatever of these is missing (a touched flag would hide it)
    input:
        AS17_TABLE_CLAIM_FILES,
        AS17_TABLE_FIGURES,
        "results/as17/tables.csv",
    localrule: True
