# The generic rules: every scenario marked `generic` in dpregret.papers.SCENARIOS (Zhang-Tran-Cutkosky,
# Ene-Nguyen-Vladu, Van der Hoeven, and any paper registered by the config key `papers`,
# docs/add-a-paper.md) runs from what its folder declares, nothing written here per paper:
#   <folder>.scenario: experiments(p) -> {experiment: [point names]}; JOBS ("point": a job per point and
#                      replicate chunk, default; "experiment": one job writes every point and chunk of an
#                      experiment, one process start-up); PRIORITY {experiment: priority}; PLOT_EXPERIMENTS
#                      (the tables its figures read, default all); simulate_job(params, wildcards, outputs)
#                      or simulate(p, experiment, point, replicates, seed) (dpregret.pipeline.jobs.simulate)
#   <folder>.claims:   CLAIMS, and check_job(params, tables) or evaluate(tables, p, tol, alpha, rng_for)
#   <folder>.figures:  the figures it draws (dpregret.pipeline.report.figure_map.figure_paths) and how
# Tables: results/<s>/<experiment>/<point>/chunk<lo-hi>.parquet, merged to results/<s>/<experiment>.parquet.
import importlib
import re
from pathlib import Path

from dpregret.papers import PAPERS, SCENARIOS as PAPER_SCENARIOS


def _files_of(files):
    """The merge rule's input function: the chunk files of the wildcard's experiment."""
    return lambda w: files[w.experiment]


def _generic_scenarios():
    """The generic scenarios this run runs: among `scenarios`, and those of the `papers` key."""
    registered = [sc for scs in RUN.get("papers", {}).values() for sc in scs]
    return [s.name for s in PAPER_SCENARIOS.values() if s.generic and (s.name in RUN["scenarios"] or s.name in registered)]


for _sc in _generic_scenarios():
    _mod = importlib.import_module(PAPER_SCENARIOS[_sc].scenario_module)
    _points = _mod.experiments(RUN[_sc])
    _files = {e: [f"results/{_sc}/{e}/{pt}/chunk{c}.parquet" for pt in pts for c in chunk_ids(_sc)]
              for e, pts in _points.items()}
    _claims = importlib.import_module(f"{PAPER_SCENARIOS[_sc].folder}.claims").CLAIMS
    _caption = f"../report/{_sc}.rst" if Path(workflow.basedir, "workflow", "report", f"{_sc}.rst").exists() else None
    _category = PAPERS[PAPER_SCENARIOS[_sc].paper].cite
    OUTPUTS[_sc] = ([f"results/claims/{cid}.json" for cid in _claims], figure_paths(_sc))

    if getattr(_mod, "JOBS", "point") == "experiment":
        for _exp in _points:

            rule:
                name:
                    f"{_sc}_simulate_{_exp}"
                output:
                    _files[_exp],
                log:
                    f"logs/{_sc}_simulate/{_exp}.log",
                benchmark:
                    f"logs/bench/{_sc}_simulate/{_exp}.tsv"
                priority: getattr(_mod, "PRIORITY", {}).get(_exp, 0)
                params:
                    group=_sc,
                    code=source_digest(PAPER_SCENARIOS[_sc].folder),
                    p=RUN[_sc],
                    seed=SEED,
                conda:
                    CONDA_ENV
                script:
                    "../scripts/simulate.py"

    else:

        rule:
            name:
                f"{_sc}_simulate"
            output:
                f"results/{_sc}/{{experiment}}/{{point}}/chunk{{chunk}}.parquet",
            log:
                f"logs/{_sc}_simulate/{{experiment}}_{{point}}_{{chunk}}.log",
            benchmark:
                f"logs/bench/{_sc}_simulate/{{experiment}}_{{point}}_{{chunk}}.tsv"
            wildcard_constraints:
                experiment="|".join(_points),
                point="|".join(sorted({re.escape(pt) for pts in _points.values() for pt in pts})),
                chunk=r"\d+-\d+",
            params:
                group=_sc,
                code=source_digest(PAPER_SCENARIOS[_sc].folder),
                p=RUN[_sc],
                seed=SEED,
            conda:
                CONDA_ENV
            script:
                "../scripts/simulate.py"

    rule:
        name:
            f"{_sc}_merge"
        input:
            _files_of(_files),
        output:
            f"results/{_sc}/{{experiment}}.parquet",
        log:
            f"logs/{_sc}_merge_{{experiment}}.log",
        benchmark:
            f"logs/bench/{_sc}_merge_{{experiment}}.tsv"
        wildcard_constraints:
            experiment="|".join(_points),
        conda:
            CONDA_ENV
        script:
            "../scripts/merge_tables.py"

    rule:
        name:
            f"{_sc}_check"
        input:
            **{e: f"results/{_sc}/{e}.parquet" for e in _points},
            nonlearners=nonlearner_files([_sc]),  # their non-learner controls (user.smk)
        output:
            OUTPUTS[_sc][0],
        log:
            f"logs/{_sc}_check.log",
        benchmark:
            f"logs/bench/{_sc}_check.tsv"
        params:
            group=_sc,
            code=source_digest(PAPER_SCENARIOS[_sc].folder),
            p=RUN[_sc],
            seed=SEED,
            alpha=ALPHA,
            tolerances=RUN["tolerances"],
            history=RUN["history"],
        conda:
            CONDA_ENV
        script:
            "../scripts/check.py"

    rule:
        name:
            f"{_sc}_plot"
        input:
            **{e: f"results/{_sc}/{e}.parquet" for e in getattr(_mod, "PLOT_EXPERIMENTS", _points)},
        output:
            [report(f, caption=_caption, category=_category) for f in OUTPUTS[_sc][1]],
        log:
            f"logs/{_sc}_plot.log",
        benchmark:
            f"logs/bench/{_sc}_plot.tsv"
        params:
            group=_sc,
            code=source_digest(PAPER_SCENARIOS[_sc].folder),
            p=RUN[_sc],
            alpha=ALPHA,
        conda:
            CONDA_ENV
        script:
            "../scripts/plot.py"

    rule:
        # no output: `snakemake <scenario>` rebuilds whatever of its claims and figures is missing
        name:
            _sc
        input:
            OUTPUTS[_sc][0],
            OUTPUTS[_sc][1],
        localrule: True
