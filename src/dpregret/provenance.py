"""Which code, versions and configuration produced a result.

Every claim record (``results/claims/<id>.json``), the sidecar of ``results/claims.csv`` and the
report's footer carry :func:`provenance`: the dpregret version, the git commit of the checkout and
whether its tracked files differed from it, the hash of the effective configuration, the versions
of the numerical stack, Python and the platform.  numpy promises identical random streams only on
the same build, so "bit-identical" is a statement about these versions (config/constraints.txt
pins them).

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
PACKAGES = ("dpregret", "numpy", "scipy", "numba", "pandas", "snakemake")


def config_hash(run: dict) -> str:
    """SHA-256 (first 16 hex digits) of the effective configuration, keys sorted."""
    return hashlib.sha256(json.dumps(run, sort_keys=True, default=str).encode()).hexdigest()[:16]


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


def provenance(run: dict | None = None, repo: str | Path | None = None) -> dict:
    """The provenance of a result; ``run``: the effective configuration (its hash is recorded)."""
    git = git_state(repo)
    return {"dpregret": versions()["dpregret"], "git_commit": git["commit"], "git_dirty": git["dirty"],
            "config_hash": config_hash(run) if run is not None else None, "versions": versions(),
            "python": sys.version.split()[0], "platform": platform.platform()}


@lru_cache(maxsize=1)
def _computed() -> dict:
    return provenance()


def current() -> dict:
    """The workflow's provenance (from :data:`ENV_VAR`), else computed here without a config hash."""
    raw = os.environ.get(ENV_VAR)
    return json.loads(raw) if raw else _computed()
