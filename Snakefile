# dpregret: regenerate, check and report the claims of four papers on DP online learning.
# Usage: snakemake --cores 2 [--config preset=smoke]   (README.md)
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/as17.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        "results/claims.csv",
        "report/index.html",
        "results/notebooks/explore.ipynb",
