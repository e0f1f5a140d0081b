"""The package's architecture, enforced: the layers contract of ``pyproject.toml``
(``[tool.importlinter]``: a module imports only from its own package or a lower layer) and no
import cycle among the modules (function-level imports included), so that a new upward import
or cycle fails the tests instead of growing unnoticed."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def test_layers_contract_is_kept():
    # in a child process: import-linter's console keeps the streams it was given (pytest's captured ones)
    script = Path(sys.executable).with_name("lint-imports")
    cmd = [str(script)] if script.exists() else [sys.executable, "-c", "import sys; from importlinter.cli import "
                                                 "lint_imports_command; sys.exit(lint_imports_command())"]
    run = subprocess.run(cmd + ["--config", str(ROOT / "pyproject.toml"), "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    # layers; core and pipeline inside; as17, vdh19, env21 and ztc22 import no other paper; the papers registry
    assert "8 kept, 0 broken" in run.stdout


def test_the_papers_registry_loads_only_the_folders_declarations():
    """``import dpregret.papers`` (the Snakefile and every job) loads each folder's ``paper`` module by name
    (unseen by the contracts above): what it brings in is those declarations and their packages, nothing
    heavy (numpy, numba, pandas) and nothing of the verdict or pipeline layers."""
    code = ("import json, sys, dpregret.papers as P; print(json.dumps([sorted(m for m in sys.modules if "
            "m.startswith('dpregret')), [m for m in ('numpy', 'scipy', 'numba', 'pandas') if m in sys.modules], "
            "list(P.BUILTIN)]))")
    env = {k: v for k, v in os.environ.items() if k != "DPREGRET_PAPERS"}
    loaded, heavy, folders = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                       check=True, env=env).stdout)
    assert loaded == sorted({"dpregret", "dpregret.core", "dpregret.core.cpu", "dpregret.papers"}
                            | set(folders) | {f"{f}.paper" for f in folders})
    assert heavy == []


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    mods = sorted(graph.modules)
    succ = {m: sorted(graph.find_modules_directly_imported_by(m) & graph.modules) for m in mods}
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in mods:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                on.add(v)
            for j in range(i, len(succ[v])):
                w = succ[v][j]
                if w not in index:
                    work.append((v, j + 1))
                    work.append((w, 0))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
    return out


def test_no_import_cycles():
    graph = grimp.build_graph("dpregret")
    cycles = _cycles(graph)
    assert cycles == [], cycles


def test_cycle_finder_sees_a_cycle():
    class G:  # a two-module cycle and a third module outside it
        modules = {"a", "b", "c"}

        @staticmethod
        def find_modules_directly_imported_by(m):
            return {"a": {"b"}, "b": {"a", "c"}, "c": set()}[m]

    assert _cycles(G) == [["a", "b"]]
