# Van der Hoeven (2019 / thesis ch. 3): user-specified local DP, privacy-caring minority and
# sparse local Laplace randomiser (section 3.4).
from dpregret.papers.vdh19.claims import CLAIMS as VDH_CLAIMS

VDH = RUN.get("vdh19", {})
VDH_EXPERIMENTS = ("minority", "minority_eps", "minority_n", "unorm", "sparse")
VDH_POINTS = {"minority": [f"T{T}" for T in VDH.get("T", [])], "sparse": [f"T{T}" for T in VDH.get("T_sparse", [])],
              "minority_eps": ["all"], "minority_n": ["all"], "unorm": ["all"]}
VDH_FILES = {e: [f"results/vdh19/{e}/{pt}/chunk{c}.parquet" for pt in pts for c in (chunk_ids("vdh19") if VDH else [])]
             for e, pts in VDH_POINTS.items()}
VDH_CLAIM_FILES = [f"results/claims/{cid}.json" for cid in VDH_CLAIMS] if VDH else []
VDH_FIGURES = figure_paths("vdh19") if VDH else []
OUTPUTS["vdh19"] = (VDH_CLAIM_FILES, VDH_FIGURES)


# every point (and replicate chunk) of one experiment in one job: each point is the same independent call as
# one job per point (the same files and numbers), the start-up (~1.5 s CPU) paid once per experiment
for _exp in VDH_EXPERIMENTS if VDH else ():

    rule:
        name:
            f"vdh19_simulate_{_exp}"
        output:
            VDH_FILES[_exp],
        log:
            f"logs/vdh19_simulate/{_exp}.log",
        benchmark:
            f"logs/bench/vdh19_simulate/{_exp}.tsv"
        params:
            group="vdh19",
            p=VDH,
            seed=SEED,
        conda:
            CONDA_ENV
        script:
            "../scripts/simulate.py"


rule vdh19_merge:
    input:
        lambda w: VDH_FILES[w.experiment],
    output:
        "results/vdh19/{experiment}.parquet",
    log:
        "logs/vdh19_merge_{experiment}.log",
    benchmark:
        "logs/bench/vdh19_merge_{experiment}.tsv"
    wildcard_constraints:
        experiment="minority|minority_eps|minority_n|unorm|sparse",
    conda:
        CONDA_ENV
    script:
        "../scripts/merge_tables.py"


rule vdh19_check:
    input:
        **{e: f"results/vdh19/{e}.parquet" for e in VDH_EXPERIMENTS},
        nonlearners=nonlearner_files(["vdh19"]),  # their non-learner controls (user.smk)
    output:
        VDH_CLAIM_FILES,
    log:
        "logs/vdh19_check.log",
    benchmark:
        "logs/bench/vdh19_check.tsv"
    params:
        group="vdh19",
        p=VDH,
        seed=SEED,
        alpha=ALPHA,
        tolerances=RUN["tolerances"],
        history=RUN["history"],
    conda:
        CONDA_ENV
    script:
        "../scripts/check.py"


rule vdh19_plot:
    input:
        **{e: f"results/vdh19/{e}.parquet" for e in VDH_EXPERIMENTS},
    output:
        [report(f, caption="../report/vdh19.rst", category="Van der Hoeven") for f in VDH_FIGURES],
    log:
        "logs/vdh19_plot.log",
    benchmark:
        "logs/bench/vdh19_plot.tsv"
    params:
        group="vdh19",
        p=VDH,
        alpha=ALPHA,
    conda:
        CONDA_ENV
    script:
        "../scripts/plot.py"


rule vdh19:
    # no output: `snakemake vdh19` rebuilds whatever of these is missing (a touched flag would hide it)
    input:
        VDH_CLAIM_FILES,
        VDH_FIGURES,
    localrule: True
