# Your own learners (config key learners; README "Your own algorithm"): each runs beside the paper's
# learner on every claim of its setting among the run's scenarios (dpregret.scenarios.contract),
# one point per job on the paper's draws, then is decided by the paper's check with its own primary
# control and drawn beside the paper's learner.  Claims are recorded as <claim>--learner-<name>.
from dpregret.report.figures_user import user_figure_stem
from dpregret.scenarios.contract import user_claims

USER = RUN["learners"]
USER_CLAIMS = user_claims() if USER else {}
USER_JOBS = [(name, cid) for name, spec in USER.items() for cid in spec["claims"]]
USER_CLAIM_FILES = [f"results/claims/{cid}--learner-{name}.json" for name, cid in USER_JOBS]
USER_FIGURES = [f"figures/user/{user_figure_stem(cid, name)}.png" for name, cid in USER_JOBS]
OUTPUTS["user"] = (USER_CLAIM_FILES, USER_FIGURES)


rule user_simulate:
    output:
        "results/user/{name}/{claim}/{point}.parquet",
    log:
        "logs/user_simulate/{name}/{claim}_{point}.log",
    benchmark:
        "logs/bench/user_simulate/{name}/{claim}_{point}.tsv"
    wildcard_constraints:
        name=r"[A-Za-z][A-Za-z0-9_]*",
    params:
        group="user",
        run=RUN,
    conda:
        CONDA_ENV
    script:
        "../scripts/simulate.py"


rule user_check:
    input:
        user_points,
    output:
        claim="results/claims/{claim}--learner-{name}.json",
        figure="figures/user/{claim}--{name}.png",
    log:
        "logs/user_check/{name}/{claim}.log",
    benchmark:
        "logs/bench/user_check/{name}/{claim}.tsv"
    wildcard_constraints:
        name=r"[A-Za-z][A-Za-z0-9_]*",
    params:
        group="user",
        run=RUN,
    conda:
        CONDA_ENV
    script:
        "../scripts/check.py"
