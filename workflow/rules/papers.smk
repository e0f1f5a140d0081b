# Further papers (config key `papers`; docs/add-a-paper.md): every scenario of a registered paper runs
# through these generic rules, from what its folder declares (dpregret.papers.register):
#   <package>.scenario: points(p) and simulate(p, point, replicates, seed)   -> one job per point and chunk
#   <package>.claims:   CLAIMS and evaluate(tables, p, tol, alpha, rng_for)  -> its claim records
#   <package>.figures:  FIGURES ({stem: claim ids}) and draw(tables, p, alpha, outputs)
import importlib

from dpregret.papers import SCENARIOS as PAPER_SCENARIOS


def generic_points(sc):
    """The point names of a registered scenario (its scenario module's points(p))."""
    mod = importlib.import_module(PAPER_SCENARIOS[sc].scenario_module)
    return [str(x) for x in mod.points(RUN[sc])]


def generic_files(sc):
    return [f"results/{sc}/{pt}/chunk{c}.parquet" for pt in generic_points(sc) for c in chunk_ids(sc)]


GENERIC = [sc for scs in RUN.get("papers", {}).values() for sc in scs]

for _sc in GENERIC:
    _claims = importlib.import_module(f"{PAPER_SCENARIOS[_sc].folder}.claims").CLAIMS
    OUTPUTS[_sc] = ([f"results/claims/{cid}.json" for cid in _claims], figure_paths(_sc))

    rule:
        name:
            f"{_sc}_simulate"
        output:
            f"results/{_sc}/{{point}}/chunk{{chunk}}.parquet",
        log:
            f"logs/{_sc}_simulate/{{point}}_{{chunk}}.log",
        benchmark:
            f"logs/bench/{_sc}_simulate/{{point}}_{{chunk}}.tsv"
        wildcard_constraints:
            point="|".join(generic_points(_sc)),
            chunk=r"\d+-\d+",
        params:
            group=_sc,
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
            generic_files(_sc),
        output:
            f"results/{_sc}/runs.parquet",
        log:
            f"logs/{_sc}_merge.log",
        benchmark:
            f"logs/bench/{_sc}_merge.tsv"
        conda:
            CONDA_ENV
        script:
            "../scripts/merge_tables.py"

    rule:
        name:
            f"{_sc}_check"
        input:
            runs=f"results/{_sc}/runs.parquet",
        output:
            OUTPUTS[_sc][0],
        log:
            f"logs/{_sc}_check.log",
        benchmark:
            f"logs/bench/{_sc}_check.tsv"
        params:
            group=_sc,
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
            runs=f"results/{_sc}/runs.parquet",
        output:
            OUTPUTS[_sc][1],
        log:
            f"logs/{_sc}_plot.log",
        benchmark:
            f"logs/bench/{_sc}_plot.tsv"
        params:
            group=_sc,
            p=RUN[_sc],
            alpha=ALPHA,
        conda:
            CONDA_ENV
        script:
            "../scripts/plot.py"
