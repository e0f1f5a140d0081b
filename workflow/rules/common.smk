# Effective parameters (preset merged with overrides), checked before any job runs.
import json

import os
from pathlib import Path

from dpregret.config import ConfigError, effective, replicate_chunks
from dpregret.provenance import ENV_VAR as PROVENANCE_VAR, provenance
from dpregret.report.figure_map import figure_paths

try:
    RUN = effective(config)
except ConfigError as err:
    raise WorkflowError(str(err))

SEED = RUN["seed"]
# what produced this run (dpregret.provenance): every job reads it from the environment
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


# OUTPUTS maps a group of rules to (its claim records, its figures); each included file registers
# its own when its scenarios run, so the report's inputs are listed once, where they are made
OUTPUTS = {}


def chunk_ids(scenario):
    size = RUN[scenario].get("chunk_size", RUN["chunk_size"])
    return [f"{c.start}-{c.stop}" for c in replicate_chunks(RUN[scenario]["replicates"], size)]


def claim_files():
    """Every claim record this run writes: what the included rule files registered in OUTPUTS."""
    return [f for claims, _ in OUTPUTS.values() for f in claims]


def figure_files():
    """Every figure this run draws (OUTPUTS), for the report."""
    return [f for _, figures in OUTPUTS.values() for f in figures]


def grid_points(p):
    """(grid, N, T) simulation points: the T grid at N, and the N grid at T_N."""
    return [("T", p["N"], T) for T in p["T"]] + [("N", N, p["T_N"]) for N in p.get("N_grid", [])]


def user_points(w):
    """The points a user learner's claim is decided on (rule user_check; USER_CLAIMS in user.smk)."""
    uc = USER_CLAIMS[w.claim]
    return [f"results/user/{w.name}/{w.claim}/{pt}.parquet" for pt in uc.points(RUN[uc.scenario])]
