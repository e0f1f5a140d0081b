"""A killed run resumes: `snakemake --unlock` then the plain command rebuilds what the kill left
incomplete (profiles/default sets rerun-incomplete), and a deleted output is rebuilt."""
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
TARGET = "results/as17/experts/runs.parquet"


def _cmd(workdir: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "snakemake", *extra, "-s", str(ROOT / "Snakefile"), "-d", str(workdir),
            "--cores", "1", "--configfile", str(workdir / "tiny.yaml")]


@pytest.mark.slow  # snakemake runs killed and resumed in subprocesses: python -m pytest -m slow
def test_a_killed_run_resumes_and_a_deleted_output_is_rebuilt(tmp_path):
    shutil.copytree(ROOT / "config", tmp_path / "config")
    (tmp_path / "tiny.yaml").write_text(yaml.safe_dump({
        "preset": "smoke", "chunk_size": 2,
        "as17_experts": {"T": [50, 200, 800], "eps": [1, 4], "replicates": 6, "mc_samples": 500}}))
    run = subprocess.Popen(_cmd(tmp_path, TARGET), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           start_new_session=True)
    finished, deadline = 0, time.time() + 300
    for line in run.stdout:  # kill the whole run (SIGKILL: no clean-up) once one job has finished
        finished += "Finished job" in line
        if finished >= 1 or time.time() > deadline:
            break
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    assert finished >= 1 and not (tmp_path / TARGET).exists(), "the run finished before it could be killed"
    # the plain command refuses on the stale lock and says how to go on
    stale = subprocess.run(_cmd(tmp_path, TARGET), capture_output=True, text=True)
    assert stale.returncode != 0 and "--unlock" in stale.stdout + stale.stderr
    subprocess.run(_cmd(tmp_path, "--unlock"), check=True, capture_output=True, text=True)
    subprocess.run(_cmd(tmp_path, TARGET), check=True, capture_output=True, text=True)
    runs = pd.read_parquet(tmp_path / TARGET)
    assert sorted(runs["T"].unique()) == [50, 200, 800] and runs.replicate.nunique() == 6


@pytest.mark.slow  # snakemake's summary, touch and dry runs in subprocesses: python -m pytest -m slow
def test_a_deleted_claim_is_rebuilt_by_its_papers_target(tmp_path):
    """Every per-paper target (as17_experts, as17_tables, ztc22, env21, vdh19, audit) is a rule
    without outputs, so `snakemake <paper>` rebuilds whatever of its claims and figures is missing
    (a touched flag would hide them).  Checked on a dry run over touched outputs."""
    shutil.copytree(ROOT / "config", tmp_path / "config")
    (tmp_path / "tiny.yaml").write_text(yaml.safe_dump({"preset": "smoke"}))
    targets = ("as17_experts", "ztc22", "vdh19", "env21", "audit", "as17_tables")
    summary = subprocess.run(_cmd(tmp_path, *targets, "--summary"), check=True, capture_output=True, text=True)
    for line in summary.stdout.splitlines()[1:]:  # every output of the DAG, as an empty file...
        out = tmp_path / line.split("\t")[0]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.touch()
    # ... made up to date in DAG order
    subprocess.run(_cmd(tmp_path, *targets, "--touch"), check=True, capture_output=True, text=True)
    claims = sorted((tmp_path / "results/claims").glob("*.json"))
    assert len(claims) > 80
    for target, cid in (("ztc22", "ZTC-thm4-bound"), ("as17_experts", "AS17-lemma3.3-draws"),
                        ("vdh19", "VDH-thm11-bound"), ("audit", "AUDIT-laplace-mechanism")):
        (tmp_path / f"results/claims/{cid}.json").unlink()
        dry = subprocess.run(_cmd(tmp_path, target, "-n"), check=True, capture_output=True, text=True)
        assert "Nothing to be done" not in dry.stdout + dry.stderr and "_check" in dry.stdout + dry.stderr \
            or "audit_run" in dry.stdout + dry.stderr, (target, dry.stdout[-2000:])
