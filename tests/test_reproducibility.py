"""Result tables are byte-identical with --cores 1 and --cores 2 and another chunk size."""
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
TABLES = ["results/as17/experts/runs.parquet", "results/as17/experts/d_noise.parquet",
          "results/ztc22/sensitivity.parquet"]


def _run(workdir: Path, cores: int, chunk_size: int) -> dict[str, str]:
    shutil.copytree(ROOT / "config", workdir / "config")
    cfg = workdir / "tiny.yaml"
    cfg.write_text(yaml.safe_dump({"preset": "smoke", "chunk_size": chunk_size,
                                   "as17_experts": {"T": [50, 200], "eps": [1, 4], "replicates": 6, "mc_samples": 500},
                                   "ztc22": {"replicates": 6, "T_sens": 40, "d_sens": 3, "d": 2}}))
    subprocess.run([sys.executable, "-m", "snakemake", *TABLES, "-s", str(ROOT / "Snakefile"), "-d", str(workdir),
                    "--cores", str(cores), "--configfile", str(cfg)],
                   check=True, capture_output=True, text=True)
    return {t: hashlib.sha256((workdir / t).read_bytes()).hexdigest() for t in TABLES}


@pytest.mark.slow  # three snakemake runs in subprocesses: python -m pytest -m slow
def test_cores_and_chunking_do_not_change_tables(tmp_path):
    a = _run(tmp_path / "a", cores=1, chunk_size=6)
    b = _run(tmp_path / "b", cores=2, chunk_size=4)
    c = _run(tmp_path / "c", cores=2, chunk_size=1)
    assert a == b == c
