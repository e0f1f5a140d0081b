# Zhang, Tran, Cutkosky (NeurIPS 2022): DP online-to-batch (Algorithm 1), Theorems 3, 4, 6, 8, 11.
from dpregret.papers.ztc22.claims import CLAIMS as ZTC_CLAIMS

ZTC = RUN.get("ztc22", {})
ZTC_FILES = {
    "rates": [f"results/ztc22/rates/T{T}/chunk{c}.parquet" for T in ZTC.get("T", []) for c in (chunk_ids("ztc22") if ZTC else [])],
    "linear_T": [f"results/ztc22/linear_T/T{T}/chunk{c}.parquet"
                 for T in sorted(set(ZTC.get("T_lin_stat", [])) | set(ZTC.get("T_lin_priv", [])))
                 for c in (chunk_ids("ztc22") if ZTC else [])],
    "optimistic": [f"results/ztc22/optimistic/s{s}/chunk{c}.parquet" for s in ZTC.get("s_grid", [])
                   for c in (chunk_ids("ztc22") if ZTC else [])],
    "strongly_convex": [f"results/ztc22/strongly_convex/T{T}/chunk{c}.parquet" for T in ZTC.get("T", [])
                        for c in (chunk_ids("ztc22") if ZTC else [])],
    "rho_d": [f"results/ztc22/rho_d/{pt}/chunk{c}.parquet"
              for pt in [f"rho{r}" for r in ZTC.get("rho_grid", [])] + [f"d{d}" for d in ZTC.get("d_grid", [])]
              for c in (chunk_ids("ztc22") if ZTC else [])],
    "minimax": [f"results/ztc22/minimax/{pt}/chunk{c}.parquet"
                for pt in [f"rho{r}" for r in ZTC.get("rho_grid_mm", [])] + [f"d{d}" for d in ZTC.get("d_grid_mm", [])]
                for c in (chunk_ids("ztc22") if ZTC else [])],
    "param_free": [f"results/ztc22/param_free/T{T}/chunk{c}.parquet" for T in ZTC.get("T_pf", [])
                   for c in (chunk_ids("ztc22") if ZTC else [])],
    "sensitivity": [f"results/ztc22/sensitivity/{pr}/chunk{c}.parquet" for pr in ("least_squares", "logistic", "linear")
                    for c in (chunk_ids("ztc22") if ZTC else [])],
}
ZTC_CLAIM_FILES = [f"results/claims/{cid}.json" for cid in ZTC_CLAIMS] if ZTC else []
ZTC_FIGURES = figure_paths("ztc22") if ZTC else []
OUTPUTS["ztc22"] = (ZTC_CLAIM_FILES, ZTC_FIGURES)


# Every point of one experiment runs in one job (one process: the per-job start-up of numpy, pandas,
# numba and dpregret, ~1.3-1.7 s CPU, is paid once per experiment instead of once per point; on 2 cores
# a split into more jobs than experiments buys no parallelism).  Each point is the same independent call
# (its streams keyed by experiment, point and replicates), written to its own file: the files and their
# numbers are the same as with one job per point.
ZTC_EXPERIMENTS = ("rates", "linear_T", "optimistic", "sensitivity", "strongly_convex", "rho_d", "minimax", "param_free")

for _exp in ZTC_EXPERIMENTS if ZTC else ():

    rule:
        name:
            f"ztc22_simulate_{_exp}"
        output:
            ZTC_FILES[_exp],
        log:
            f"logs/ztc22_simulate/{_exp}.log",
        benchmark:
            f"logs/bench/ztc22_simulate/{_exp}.tsv"
        priority: 10 if _exp == "minimax" else 0  # the longest job (~100 s): started first, it never runs last
        params:
            group="ztc22",
            p=ZTC,
            seed=SEED,
        conda:
            CONDA_ENV
        script:
            "../scripts/simulate.py"


rule ztc22_merge:
    input:
        lambda w: ZTC_FILES[w.experiment],
    output:
        "results/ztc22/{experiment}.parquet",
    log:
        "logs/ztc22_merge_{experiment}.log",
    benchmark:
        "logs/bench/ztc22_merge_{experiment}.tsv"
    wildcard_constraints:
        experiment="rates|linear_T|optimistic|sensitivity|strongly_convex|rho_d|minimax|param_free",
    conda:
        CONDA_ENV
    script:
        "../scripts/merge_tables.py"


rule ztc22_check:
    input:
        rates="results/ztc22/rates.parquet",
        optimistic="results/ztc22/optimistic.parquet",
        sensitivity="results/ztc22/sensitivity.parquet",
        strongly_convex="results/ztc22/strongly_convex.parquet",
        minimax="results/ztc22/minimax.parquet",
        param_free="results/ztc22/param_free.parquet",
        linear_T="results/ztc22/linear_T.parquet",
        nonlearners=nonlearner_files(["ztc22"]),  # their non-learner controls (user.smk)
    output:
        ZTC_CLAIM_FILES,
    log:
        "logs/ztc22_check.log",
    benchmark:
        "logs/bench/ztc22_check.tsv"
    params:
        group="ztc22",
        p=ZTC,
        seed=SEED,
        alpha=ALPHA,
        tolerances=RUN["tolerances"],
        history=RUN["history"],
    conda:
        CONDA_ENV
    script:
        "../scripts/check.py"


rule ztc22_plot:
    input:
        rates="results/ztc22/rates.parquet",
        optimistic="results/ztc22/optimistic.parquet",
        strongly_convex="results/ztc22/strongly_convex.parquet",
        rho_d="results/ztc22/rho_d.parquet",
        minimax="results/ztc22/minimax.parquet",
        param_free="results/ztc22/param_free.parquet",
        linear_T="results/ztc22/linear_T.parquet",
    output:
        [report(f, caption="../report/ztc22.rst", category="Zhang-Tran-Cutkosky") for f in ZTC_FIGURES],
    log:
        "logs/ztc22_plot.log",
    benchmark:
        "logs/bench/ztc22_plot.tsv"
    params:
        group="ztc22",
        p=ZTC,
        alpha=ALPHA,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot.py"


rule ztc22:
    # no output: `snakemake ztc22` rebuilds whatever of these is missing (a touched flag would hide it)
    input:
        ZTC_CLAIM_FILES,
        ZTC_FIGURES,
    localrule: True
