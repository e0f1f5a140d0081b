"""The same numbers on every x86-64 machine (dpregret.core.cpu).

A small simulate job of each paper (tests/cross_cpu_job.py: the smoke points of test_jobs, the
compiled kernels included) runs twice, each in a process started as the workflow starts its jobs
(``cpu.pinned_env``): once on this CPU, once on an emulated x86-64-v2 CPU without AVX, AVX2, FMA or
AVX-512 (``qemu-x86_64 -cpu Nehalem``: NumPy, glibc, numba and OpenBLAS all see the other CPU).
The tables must be bit-identical.  The control shows the comparison can fail: without the pins
(``DPREGRET_PIN_CPU=0``) a second libm (glibc's non-FMA variants, as on a CPU without FMA) changes
tables on this machine."""
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dpregret.core import cpu

JOB = Path(__file__).resolve().parent / "cross_cpu_job.py"
QEMU = shutil.which("qemu-x86_64")
BASELINE_CPU = "Nehalem"  # x86-64-v2, NumPy's wheel baseline

pytestmark = pytest.mark.skipif(not cpu.is_x86_64(), reason=f"the pins are for x86-64, not {platform.machine()}")


def clean_env(**extra) -> dict:
    """This process's environment without the pins (as a user's shell has it), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in cpu.PINS and k != "GLIBC_TUNABLES"}
    return {**env, **extra}


def run_job(workdir: Path, env: dict, prefix=()) -> dict:
    workdir.mkdir(parents=True)
    proc = subprocess.run([*prefix, sys.executable, str(JOB), str(workdir)], env=env, capture_output=True,
                          text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    return run_job(tmp_path_factory.mktemp("host") / "run", cpu.pinned_env(clean_env()))


def test_the_workflow_job_environment_is_pinned(host):
    state = host["state"]
    assert state["pinned"], state
    assert state["numpy"]["dispatched_on"] == [] and state["numba"]["cpu_name"] == "generic"
    assert state["libm"]["fma_variants_masked"] and state["blas"]["core"] == "Nehalem"
    assert len(host["tables"]) == 11


@pytest.mark.skipif(QEMU is None,
                    reason="qemu-x86_64 is not installed (Debian: apt-get install qemu-user; .ci/run installs it)")
@pytest.mark.slow  # the jobs under qemu's emulated CPU: python -m pytest -m slow
def test_tables_are_bit_identical_on_a_baseline_cpu(host, tmp_path):
    other = run_job(tmp_path / "run", cpu.pinned_env(clean_env()), prefix=(QEMU, "-cpu", BASELINE_CPU))
    assert other["state"]["cpu"]["host_level"] == "x86-64-v2", other["state"]["cpu"]  # a different machine indeed
    assert other["state"]["pinned"], other["state"]
    differ = sorted(k for k in host["tables"] if other["tables"][k] != host["tables"][k])
    assert other["tables"].keys() == host["tables"].keys() and not differ, differ


@pytest.mark.slow  # two unpinned runs of the jobs in subprocesses: python -m pytest -m slow
def test_without_the_pins_a_second_libm_changes_the_tables(tmp_path):
    """The control: the comparison above can fail.  Unpinned, the same jobs with glibc's non-FMA libm
    (what a CPU without FMA runs) give other tables than with this CPU's FMA libm."""
    if cpu.machine()["host_level"] not in ("x86-64-v3", "x86-64-v4"):
        pytest.skip("this CPU has no FMA: its libm already is the non-FMA one")
    a = run_job(tmp_path / "fma", clean_env(DPREGRET_PIN_CPU="0"))
    b = run_job(tmp_path / "nofma", clean_env(DPREGRET_PIN_CPU="0", GLIBC_TUNABLES=cpu.GLIBC_HWCAPS))
    assert not a["state"]["pinned"] and not b["state"]["pinned"]
    differ = [k for k in a["tables"] if a["tables"][k] != b["tables"][k]]
    assert differ, "unpinned tables equal under both libms: this control no longer shows the pins are needed"


def test_the_test_process_runs_pinned():
    """pyproject's ``-p dpregret.pipeline.pinned_pytest`` restarted pytest with the pins: in-process tests
    compute the workflow's bits."""
    state = cpu.state()
    assert state["pinned"], state
