import os

# The claims table and the self-contained HTML report.


rule claims_table:
    input:
        claim_files(),
    output:
        report("results/claims.csv", caption="../report/claims.rst", category="Claims"),
        provenance="results/claims.provenance.json",
    log:
        "logs/claims_table.log",
    benchmark:
        "logs/bench/claims_table.tsv"
    params:
        run=RUN,
    conda:
        CONDA_ENV
    script:
        "../scripts/claims_table.py"


rule claim_figures:
    input:
        claims="results/claims.csv",
        details=claim_files(),
    output:
        directory("figures/claims"),
    threads: 2  # the run's last heavy job, beside nothing: its figures drawn by two processes
    log:
        "logs/claim_figures.log",
    benchmark:
        "logs/bench/claim_figures.tsv"
    conda:
        CONDA_ENV
    script:
        "../scripts/claim_figures.py"


rule report_html:
    input:
        claims="results/claims.csv",
        claim_figures="figures/claims",
        details=claim_files(),
        figures=figure_files(),
        tables=REPORT_TABLES,
        mutation=MUTATION,
        provenance="results/claims.provenance.json",
        fresh_seeds=os.path.join(workflow.basedir, "config", "fresh_seeds.csv"),
    output:
        report("report/index.html", caption="../report/index.rst", category="Report"),
    log:
        "logs/report_html.log",
    benchmark:
        "logs/bench/report_html.tsv"
    params:
        preset=RUN["preset"],
        seed=SEED,
        ci_level=RUN["ci_level"],
        run=RUN,
    conda:
        CONDA_ENV
    script:
        "../scripts/report_html.py"

