# Ene, Nguyen, Vladu (AAAI 2021): private projection-free bandit convex optimisation.
from dpregret.papers.env21.claims import CLAIMS as ENV_CLAIMS
from dpregret.papers.env21.scenario import points as env21_points

ENV = RUN.get("env21", {})
ENV_POINTS = {e: [f"{pt[0]}:{pt[1]}" if isinstance(pt, tuple) else str(pt) for pt in pts]
              for e, pts in (env21_points(ENV).items() if ENV else [])}
ENV_FILES = {e: [f"results/env21/{e}/{pt}/chunk{c}.parquet" for pt in pts for c in chunk_ids("env21")]
             for e, pts in ENV_POINTS.items()}
ENV_CLAIM_FILES = [f"results/claims/{cid}.json" for cid in ENV_CLAIMS] if ENV else []
ENV_FIGURES = figure_paths("env21") if ENV else []
OUTPUTS["env21"] = (ENV_CLAIM_FILES, ENV_FIGURES)


rule env21_simulate:
    output:
        "results/env21/{experiment}/{point}/chunk{chunk}.parquet",
    log:
        "logs/env21_simulate/{experiment}_{point}_{chunk}.log",
    benchmark:
        "logs/bench/env21_simulate/{experiment}_{point}_{chunk}.tsv"
    wildcard_constraints:
        experiment="rates|n|eps|cost|noisyoco",
        point=r"[a-z_0-9]+(:\d+)?",
        chunk=r"\d+-\d+",
    params:
        group="env21",
        p=ENV,
        seed=SEED,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


rule env21_merge:
    input:
        lambda w: ENV_FILES[w.experiment],
    output:
        "results/env21/{experiment}.parquet",
    log:
        "logs/env21_merge_{experiment}.log",
    benchmark:
        "logs/bench/env21_merge_{experiment}.tsv"
    wildcard_constraints:
        experiment="rates|n|eps|cost|noisyoco",
    conda:
        CONDA_ENV
    script:
        "../scripts/merge_tables.py"


rule env21_check:
    input:
        **{e: f"results/env21/{e}.parquet" for e in ("rates", "n", "eps", "cost", "noisyoco")},
        nonlearners=nonlearner_files(["env21"]),  # their non-learner controls (user.smk)
    output:
        ENV_CLAIM_FILES,
    log:
        "logs/env21_check.log",
    benchmark:
        "logs/bench/env21_check.tsv"
    params:
        group="env21",
        p=ENV,
        seed=SEED,
        alpha=ALPHA,
        tolerances=RUN["tolerances"],
        history=RUN["history"],
    conda:
        CONDA_ENV
    script:
        "../scripts/check.py"


rule env21_plot:
    input:
        **{e: f"results/env21/{e}.parquet" for e in ("rates", "n", "eps", "cost", "noisyoco")},
    output:
        [report(f, caption="../report/env21.rst", category="Ene-Nguyen-Vladu") for f in ENV_FIGURES],
    log:
        "logs/env21_plot.log",
    benchmark:
        "logs/bench/env21_plot.tsv"
    params:
        group="env21",
        p=ENV,
        alpha=ALPHA,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot.py"


rule env21:
    # no output: `snakemake env21` rebuilds whatever of these is missing (a touched flag would hide it)
    input:
        ENV_CLAIM_FILES,
        ENV_FIGURES,
    localrule: True
