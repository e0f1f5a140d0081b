# dpregret: regenerate, check and report the claims of four papers on DP online learning.
# Usage: snakemake --cores 2 [--config preset=smoke]   (README.md)
import os

from snakemake.utils import min_version, validate

from dpregret.core import cpu

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


include: "workflow/rules/as17.smk"
include: "workflow/rules/as17_tables.smk"
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
        # the notebook explores the experts runs: built when as17_experts runs
        ["results/notebooks/explore.ipynb"] if "as17_experts" in RUN["scenarios"] else [],
