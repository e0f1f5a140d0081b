# dpregret: regenerate, check and report the claims of four papers on DP online learning.
# Usage: snakemake --cores 2 [--config preset=smoke]   (README.md)
import os

from snakemake.utils import min_version, validate

from dpregret.core import cpu
from dpregret.pipeline.registry import folder_files

min_version("9.0")

# The same bits on every x86-64 CPU: every job (a process started from here) runs with NumPy's
# baseline kernels, glibc's non-FMA libm, numba's generic target and single-threaded Nehalem
# OpenBLAS (dpregret.core.cpu; DPREGRET_PIN_CPU=0 switches it off).
os.environ.update(cpu.pinned_env())


configfile: "config/config.yaml"


# common.smk first checks the config with dpregret.pipeline.config (messages name the key and
# the allowed values), then Snakemake's validate() applies the same schema: the one composed from
# the pipeline's part and each paper folder's (load_schema), which common.smk writes to a file.
include: "workflow/rules/common.smk"


validate(config, CONFIG_SCHEMA)


# a folder whose scenarios the generic rules do not run ships its own rules (its package's rules.smk:
# Agarwal-Singh's), then the generic rules run every other scenario (docs/add-a-paper.md)
for _rules in folder_files("rules.smk"):

    include: _rules


include: "workflow/rules/papers.smk"
include: "workflow/rules/user.smk"
include: "workflow/rules/audit.smk"
include: "workflow/rules/mutation.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        "results/claims.csv",
        "report/index.html",
        MUTATION,
        TARGETS,  # what the folders' own rules add (Agarwal-Singh's: the notebook exploring the experts runs)
