# Empirical privacy audits: one job per audited mechanism (dpregret.pipeline.registry.audit_specs).
AUDIT = RUN.get("audit", {})
AUDIT_CLAIM_FILES = [f"results/claims/{a}.json" for a in AUDIT.get("audits", [])]
if "audit" in RUN["scenarios"]:
    OUTPUTS["audit"] = (AUDIT_CLAIM_FILES, [])


rule audit_run:
    output:
        "results/claims/{audit_id}.json",
    log:
        "logs/audit_run/{audit_id}.log",
    benchmark:
        "logs/bench/audit_run/{audit_id}.tsv"
    wildcard_constraints:
        audit_id="AUDIT-[A-Za-z0-9.\-]+",
    params:
        samples=lambda wc: AUDIT.get("samples_by_claim", {}).get(wc.audit_id, AUDIT.get("samples")),
        seed=SEED,
        alpha=ALPHA,
        code=source_digest(*PAPER_FOLDERS),
    resources:
        mem_mb=4000,
        runtime=10,
    conda:
        CONDA_ENV
    script:
        "../scripts/audit_run.py"


rule audit:
    # no output: `snakemake audit` rebuilds whatever of these is missing (a touched flag would hide it)
    input:
        AUDIT_CLAIM_FILES,
    localrule: True
