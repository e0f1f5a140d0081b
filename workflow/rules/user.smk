# Your own learners (config key learners; README "Your own algorithm"): each runs beside the paper's
# learner on every claim of its setting among the run's scenarios (dpregret.core.contract),
# one point per job on the paper's draws, then is decided by the paper's check with its own primary
# control and drawn beside the paper's learner.  Claims are recorded as <claim>--learner-<name>.
# A simulate job makes the learner's rows only: user_check puts the paper's rows beside them from the
# pipeline's own tables (UserClaim.paper_tables), so they are not simulated twice; claims of one door
# (UserClaim.door) share the simulation.
# The built-in non-learners (config key nonlearners, dpregret.pipeline.nonlearners: learners nonlearner_<setting>)
# take the same door; their records (below) are inputs of the scenario's check rule, which attaches each
# to the paper's claim as its non-learner control (nonlearner_files, common.smk).
from dpregret.pipeline.report.learner_figure import user_figure_stem

USER_JOBS = [(name, cid) for name, spec in USER.items() for cid in spec["claims"]]
OWN_JOBS = [(name, cid) for name, cid in USER_JOBS if not name.startswith(NONLEARNER_PREFIX)]
USER_CLAIM_FILES = [f"results/claims/{cid}--learner-{name}.json" for name, cid in OWN_JOBS]
USER_FIGURES = [f"figures/user/{user_figure_stem(cid, name)}.png" for name, cid in OWN_JOBS]
OUTPUTS["user"] = (USER_CLAIM_FILES, USER_FIGURES)


rule user_simulate:
    output:
        "results/user/{name}/{door}/{point}.parquet",
    log:
        "logs/user_simulate/{name}/{door}_{point}.log",
    benchmark:
        "logs/bench/user_simulate/{name}/{door}_{point}.tsv"
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
        unpack(user_check_inputs),
    output:
        claim="results/claims/{claim}--learner-{name}.json",
        figure="figures/user/{claim}--{name}.png",
    log:
        "logs/user_check/{name}/{claim}.log",
    benchmark:
        "logs/bench/user_check/{name}/{claim}.tsv"
    wildcard_constraints:
        name=r"(?!nonlearner_)[A-Za-z][A-Za-z0-9_]*",
    params:
        group="user",
        run=RUN,
    conda:
        CONDA_ENV
    script:
        "../scripts/check.py"


# The built-in non-learners (config key nonlearners): one job per (non-learner, door) makes the learner's
# rows at every point and decides every claim of the door (dpregret.pipeline.jobs.nonlearner_door: user_simulate's
# and user_check's library calls, in one process instead of one per point and claim); no figure.
NONLEARNER_DOORS = {}
for _name, _cid in USER_JOBS:
    if _name.startswith(NONLEARNER_PREFIX):
        NONLEARNER_DOORS.setdefault((_name, USER_CLAIMS[_cid].door_id), []).append(_cid)

for (_name, _door), _cids in NONLEARNER_DOORS.items():

    rule:
        name:
            f"{_name}_{_door.replace('-', '_').replace('.', '_')}"
        input:
            paper=list(USER_CLAIMS[_cids[0]].paper_tables),
        output:
            [f"results/claims/{c}--learner-{_name}.json" for c in _cids],
        log:
            f"logs/nonlearner/{_name}/{_door}.log",
        benchmark:
            f"logs/bench/nonlearner/{_name}/{_door}.tsv"
        params:
            group="nonlearner",
            code=source_digest("dpregret.pipeline", *PAPER_FOLDERS),
            name=_name,
            door=_door,
            run=RUN,
        conda:
            CONDA_ENV
        script:
            "../scripts/check.py"
