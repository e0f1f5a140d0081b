"""The mutation suite's result, keyed by the hash of what it reads (issue: rerun at will).

The suite depends only on the library's source (the mutants patch it, the claims decide them), its
settings (the smoke preset, the tolerances, the root seed, the level) and the numerical libraries'
versions: :func:`key` hashes exactly those.  ``data/mutation-cache.json`` holds one result with the key it
was computed on; the workflow serves it only when the key of the run equals it, and otherwise runs the
suite (:func:`result`), so a stale result is never served.  The report shows the key and whether the result
was computed in this run or served from that file.  ``python -m dpregret.pipeline.mutation --refresh-cache``
recomputes it for the checkout as it is (a maintainer's step after a change of the source)."""
from __future__ import annotations

import hashlib
import json
import platform
from importlib import metadata
from pathlib import Path

import dpregret

PACKAGE = Path(dpregret.__file__).resolve().parent
CACHE = PACKAGE.parents[1] / "data" / "mutation-cache.json"
SUFFIXES = (".py", ".yaml", ".smk", ".j2")
LIBRARIES = ("numpy", "scipy", "numba", "pandas", "llvmlite")


def source_files() -> list[Path]:
    """The files of the installed package the suite reads (its code, schemas, rules, templates)."""
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in SUFFIXES and "__pycache__" not in p.parts)


def key(settings: dict) -> str:
    """sha256 of the package's source files (path and bytes), the settings and the libraries' versions."""
    h = hashlib.sha256()
    for p in source_files():
        h.update(str(p.relative_to(PACKAGE)).encode() + b"\0" + p.read_bytes() + b"\0")
    h.update(json.dumps(settings, sort_keys=True, default=str).encode())
    versions = {lib: metadata.version(lib) for lib in LIBRARIES}
    h.update(json.dumps({**versions, "python": platform.python_version_tuple()[:2]}, sort_keys=True).encode())
    return h.hexdigest()


def cached(settings: dict, path: Path = CACHE) -> dict | None:
    """The cached result when it was computed on this key, else None."""
    if not path.exists():
        return None
    stored = json.loads(path.read_text())
    return stored["result"] if stored.get("key") == key(settings) else None


def result(settings: dict, compute, path: Path = CACHE) -> dict:
    """The suite's result for ``settings``: the cache's when its key is this run's, else ``compute()``'s;
    either way with ``key`` and ``source`` ("computed in this run" or "served from data/mutation-cache.json")."""
    k = key(settings)
    hit = cached(settings, path)
    if hit is not None:
        return {**hit, "key": k, "source": f"served from {path.name} (computed on this key)"}
    return {**compute(), "key": k, "source": "computed in this run"}


def refresh(settings: dict, compute, path: Path = CACHE) -> dict:
    """Recompute and store the result under this checkout's key."""
    res = compute()
    path.write_text(json.dumps({"key": key(settings), "result": res}, indent=1, sort_keys=True, default=float) + "\n")
    return res
