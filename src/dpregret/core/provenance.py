"""Which code, versions and configuration produced a result.

Every claim record (``results/claims/<id>.json``), the sidecar of ``results/claims.csv`` and the
report's footer carry :func:`provenance`: the dpregret version, the git commit of the checkout and
whether its tracked files differed from it, the hash of the effective configuration, the versions
of the numerical stack, Python and the platform, and the machine: the CPU model, its x86-64 level
and the pinned arithmetic the jobs ran with (:mod:`dpregret.core.cpu`: NumPy's kernels, glibc's libm,
numba's target, OpenBLAS's kernels and threads).  numpy promises identical random streams only on
the same build, so "bit-identical" is a statement about these versions (config/constraints.txt
pins them) and, through the pins, about no particular CPU.

The workflow computes it once per run (``common.smk``) and hands it to every job through the
environment variable :data:`ENV_VAR`, so a record says what produced *it*; outside the workflow
:func:`current` computes it on the spot (no configuration hash then).
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
from functools import lru_cache
from importlib import metadata
from pathlib import Path

ENV_VAR = "DPREGRET_PROVENANCE"
PACKAGES = ("dpregret", "numpy", "scipy", "numba", "llvmlite", "pandas", "snakemake")


def config_hash(run: dict) -> str:
    """SHA-256 (first 16 hex digits) of the effective configuration, keys sorted."""
    return hashlib.sha256(json.dumps(run, sort_keys=True, default=str).encode()).hexdigest()[:16]


def source_digest(*packages: str) -> str:
    """SHA-256 (first 16 hex digits) of the source of ``packages`` and of the layers every job runs,
    ``dpregret.core`` and ``dpregret.verdict``: each module's path under its package and its bytes (``.py``,
    ``.yaml``, ``.smk``; ``__pycache__`` left out).  The workflow gives it to every simulate, check, plot, audit
    and non-learner rule as the param ``code`` (``common.smk``), so a changed module reruns the jobs that run it:
    Snakemake's ``code`` trigger sees only a rule's script, not the library it imports."""
    from importlib.util import find_spec

    h = hashlib.sha256()
    for pkg in sorted(set(packages) | {"dpregret.core", "dpregret.verdict"}):
        for root in map(Path, find_spec(pkg).submodule_search_locations or []):
            for f in sorted(root.rglob("*")):
                if f.suffix in (".py", ".yaml", ".smk") and "__pycache__" not in f.parts:
                    h.update(f"{pkg}/{f.relative_to(root).as_posix()}".encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def git_state(repo: str | Path | None = None) -> dict:
    """``{"commit": ..., "dirty": ...}`` of the checkout holding ``repo`` (default: this package's
    source); ``None`` values when it is not a git checkout (e.g. a wheel install)."""
    where = Path(repo) if repo else Path(__file__).resolve().parent
    try:
        commit = subprocess.run(["git", "-C", str(where), "rev-parse", "HEAD"], capture_output=True, text=True,
                                check=True, timeout=10).stdout.strip()
        status = subprocess.run(["git", "-C", str(where), "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, check=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": bool(status.strip())}


def versions() -> dict:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def job_machine() -> dict:
    """The machine and the pinned arithmetic a job sees (:func:`dpregret.core.cpu.state`), asked of a
    process started as the workflow starts its jobs (:func:`dpregret.core.cpu.pinned_env`)."""
    from dpregret.core import cpu

    code = "import json, dpregret.core.cpu as c; print(json.dumps(c.state()))"
    try:
        out = subprocess.run([sys.executable, "-c", code], env=cpu.pinned_env(), capture_output=True, text=True,
                             check=True, timeout=120).stdout
        return json.loads(out.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as err:
        return {"pinned": None, "error": f"{type(err).__name__}: {err}"}


def provenance(run: dict | None = None, repo: str | Path | None = None, machine: dict | None = None) -> dict:
    """The provenance of a result; ``run``: the effective configuration (its hash is recorded);
    ``machine``: the CPU and its pinned arithmetic (default: :func:`job_machine`)."""
    git = git_state(repo)
    return {"dpregret": versions()["dpregret"], "git_commit": git["commit"], "git_dirty": git["dirty"],
            "config_hash": config_hash(run) if run is not None else None, "versions": versions(),
            "python": sys.version.split()[0], "platform": platform.platform(),
            "machine": machine if machine is not None else job_machine()}


@lru_cache(maxsize=1)
def _computed() -> dict:
    from dpregret.core import cpu

    return provenance(machine=cpu.state())


def current() -> dict:
    """The workflow's provenance (from :data:`ENV_VAR`), else computed here without a config hash."""
    raw = os.environ.get(ENV_VAR)
    return json.loads(raw) if raw else _computed()
