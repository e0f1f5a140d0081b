# Effective parameters (preset merged with overrides), checked before any job runs.
import functools
import json

import os
from pathlib import Path

from dpregret.pipeline.config import (ConfigError, effective, load_schema, replicate_chunks, with_registered,
                                     write_schema)
from dpregret.papers import ENV_VAR as PAPERS_VAR
from dpregret.core.provenance import ENV_VAR as PROVENANCE_VAR, provenance, source_digest as _source_digest
from dpregret.pipeline.nonlearners import PREFIX as NONLEARNER_PREFIX
from dpregret.pipeline.report.figure_map import figure_paths
from dpregret.core.contract import user_claims

# The config schema, composed from the pipeline's part and each paper folder's (dpregret.pipeline.config.load_schema)
SCHEMA = load_schema()
try:
    RUN = effective(config, SCHEMA)
except ConfigError as err:
    raise WorkflowError(str(err))
# ... and written for Snakemake's validate() (the Snakefile), which reads a file: under the working directory's
# .snakemake/, rewritten only when it changes
# (with the config keys of the registered papers' scenarios: config.with_registered)
CONFIG_SCHEMA = write_schema(with_registered(SCHEMA, list(RUN.get("papers", {}))),
                             Path(".snakemake", "dpregret-schema", "config.schema.json"))

SEED = RUN["seed"]
# config key `mutation` (default true): run the mutation suite, whose score the report shows
MUTATION = "results/mutation.json" if config.get("mutation", True) else []
# the further papers of config key `papers` (dpregret.papers.register): every job registers them too
os.environ[PAPERS_VAR] = ",".join(RUN.get("papers", {}))
# what produced this run (dpregret.core.provenance): every job reads it from the environment
PROVENANCE = provenance(RUN, repo=workflow.basedir)
os.environ[PROVENANCE_VAR] = json.dumps(PROVENANCE)
ALPHA = round(1 - RUN["ci_level"], 12)
# `--use-conda`: every rule runs in environment.yml's environment.  Snakemake builds it from a copy of the
# file, where environment.yml's `-e .` would not find this repository; so the rules read a copy written here
# with the repository's absolute path (under the working directory's .snakemake/, rewritten only when it
# changes).  Without --use-conda nothing calls conda.  Not tested here: no conda channel is reachable.
def _conda_env_file():
    text = Path(workflow.basedir, "environment.yml").read_text().replace("- -e .", f"- -e {Path(workflow.basedir).resolve()}")
    out = Path(".snakemake", "dpregret-conda", "environment.yml").resolve()
    if not out.exists() or out.read_text() != text:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    return str(out)


CONDA_ENV = _conda_env_file()


# What each job runs: every simulate, check, plot, audit and non-learner rule has the param
# `code=source_digest(<its paper's folder>)` (dpregret.core.provenance.source_digest: that source and the layers
# below it), so a changed module reruns the jobs that run it (Snakemake's params trigger): a pulled fix is never
# served stale.  The audits and the non-learners read every folder's.
from dpregret.papers import SCENARIOS as _ALL_SCENARIOS

PAPER_FOLDERS = tuple(sorted({s.folder for s in _ALL_SCENARIOS.values() if s.folder}))  # registered papers' too
source_digest = functools.cache(_source_digest)


# OUTPUTS maps a group of rules to (its claim records, its figures); each included file registers
# its own when its scenarios run, so the report's inputs are listed once, where they are made.
# REPORT_TABLES: further tables the report shows (a folder's rules add theirs); TARGETS: further
# targets of `rule all` (a folder's rules add theirs, e.g. a notebook).
OUTPUTS = {}
REPORT_TABLES = []
TARGETS = []
# for a folder's own rules (a paper's rules.smk, included from its package): the workflow's scripts
# and report captions, by absolute path
SCRIPTS = str(Path(workflow.basedir, "workflow", "scripts"))
CAPTIONS = str(Path(workflow.basedir, "workflow", "report"))


def chunk_ids(scenario, grid=None):
    """The replicate chunks ("lo-hi") of a scenario's runs; ``grid``: of one grid, which may declare its
    own replicate count (key replicates_<grid>, default replicates)."""
    p = RUN[scenario]
    n = p.get(f"replicates_{grid}", p["replicates"]) if grid else p["replicates"]
    return [f"{c.start}-{c.stop}" for c in replicate_chunks(n, p.get("chunk_size", RUN["chunk_size"]))]


def claim_files():
    """Every claim record this run writes: what the included rule files registered in OUTPUTS."""
    return [f for claims, _ in OUTPUTS.values() for f in claims]


def figure_files():
    """Every figure this run draws (OUTPUTS), for the report."""
    return [f for _, figures in OUTPUTS.values() for f in figures]


def grid_points(p):
    """(grid, N, T) simulation points: the T grid at N, and the N grid at T_N."""
    return [("T", p["N"], T) for T in p["T"]] + [("N", N, p["T_N"]) for N in p.get("N_grid", [])]


# Learners run through the user claims' door (user.smk): the config key learners and the built-in
# non-learners (config key nonlearners, dpregret.pipeline.nonlearners)
USER = RUN["learners"]
USER_CLAIMS = user_claims() if USER else {}


def user_check_inputs(w):
    """A user learner's claim (rules user_check, nonlearner_check): its runs at the claim's points
    and, where the claim takes the paper's rows from the pipeline's tables, those tables."""
    uc = USER_CLAIMS[w.claim]
    runs = [f"results/user/{w.name}/{uc.door_id}/{pt}.parquet" for pt in uc.points(RUN[uc.scenario])]
    return {"runs": runs, **({"paper": list(uc.paper_tables)} if uc.reuses_paper_rows else {})}


def nonlearner_files(scenarios):
    """The non-learners' records of the user claims of ``scenarios`` (an input of their check rule,
    which attaches each to the paper's claim as its non-learner control; dpregret.pipeline.jobs)."""
    return [f"results/claims/{cid}--learner-{name}.json" for name, spec in USER.items()
            if name.startswith(NONLEARNER_PREFIX) for cid in spec["claims"] if USER_CLAIMS[cid].scenario in scenarios]
