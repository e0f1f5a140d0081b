"""Private names stay private: no test imports or reaches a ``_name`` of a dpregret module, and no
module of the package imports a ``_name`` from another of its modules (a name used from elsewhere
is public, with a docstring).  Read with ``ast``: ``from dpregret.x import _y``, ``x._y`` and
``setattr(x, "_y", ...)`` / ``getattr`` / ``monkeypatch.setattr`` on a dpregret module ``x``.

A private *module* of the package (e.g. ``dpregret.core._x``) is imported by its own package's
modules, which is what it is for; a test may not import it."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_module(dotted: str, src: Path = SRC) -> bool:
    p = src.joinpath(*dotted.split("."))
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def _absolute(node: ast.ImportFrom, current: str | None, is_package: bool) -> str:
    if node.level == 0 or current is None:
        return node.module or ""
    base = current.split(".") if is_package else current.split(".")[:-1]
    if node.level > 1:
        base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def violations(text: str, where: str, current: str | None = None, is_package: bool = False,
               src: Path = SRC) -> list[str]:
    """The private dpregret names that the source ``text`` imports or reaches.  ``current``: the
    module's own dotted name when it is a module of the package (its own names are its own, and it
    may import the package's private modules), None for a test."""
    out, modules = [], {}  # modules: local name -> the dpregret module it is bound to
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] != "dpregret":
                    continue
                if current is None and any(_private(p) for p in a.name.split(".")):
                    out.append(f"{where}:{node.lineno}: import {a.name}")
                modules[a.asname or "dpregret"] = a.name if a.asname else "dpregret"
        elif isinstance(node, ast.ImportFrom):
            mod = _absolute(node, current, is_package)
            if mod.split(".")[0] != "dpregret":
                continue
            if current is None and any(_private(p) for p in mod.split(".")):
                out.append(f"{where}:{node.lineno}: from {mod} import ...")
            for a in node.names:
                sub = f"{mod}.{a.name}"
                if _is_module(sub, src):
                    modules[a.asname or a.name] = sub
                    if current is None and _private(a.name):
                        out.append(f"{where}:{node.lineno}: from {mod} import {a.name}")
                elif _private(a.name) and mod != current:
                    out.append(f"{where}:{node.lineno}: from {mod} import {a.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name):
            mod = modules.get(node.value.id)
            if mod is not None and mod != current:
                out.append(f"{where}:{node.lineno}: {node.value.id}.{node.attr} ({mod})")
        elif (isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[0], ast.Name)
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and _private(node.args[1].value) and ast.unparse(node.func).split(".")[-1] in ("setattr", "getattr")):
            mod = modules.get(node.args[0].id)
            if mod is not None and mod != current:
                out.append(f"{where}:{node.lineno}: {ast.unparse(node.func)}({node.args[0].id}, "
                           f"{node.args[1].value!r}) ({mod})")
    return out


def _src_modules():
    for p in sorted((SRC / "dpregret").rglob("*.py")):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        yield p, ".".join(parts[:-1] if is_package else parts), is_package


def test_no_test_imports_a_private_name():
    found = [v for p in sorted((ROOT / "tests").rglob("*.py"))
             for v in violations(p.read_text(), str(p.relative_to(ROOT)))]
    assert found == [], "\n".join(found)


def test_no_module_imports_a_private_name_of_another():
    found = [v for p, mod, is_package in _src_modules()
             for v in violations(p.read_text(), str(p.relative_to(ROOT)), mod, is_package)]
    assert found == [], "\n".join(found)


def test_the_check_sees_each_kind_of_reach():
    test_src = (
        "from dpregret.verdict.privacy_audit import audit_rng, _hidden\n"
        "from dpregret.papers.ztc22 import o2b\n"
        "import dpregret.pipeline.api as api\n"
        "from dpregret.core import _validate\n"
        "def test(monkeypatch):\n"
        "    o2b._fast(1)\n"
        "    monkeypatch.setattr(api, '_decide', None)\n"
        "    o2b.run, api.check, obj._own\n")
    found = violations(test_src, "t.py")
    assert sorted(f.split(": ", 1)[1] for f in found) == sorted([
        "from dpregret.verdict.privacy_audit import _hidden", "from dpregret.core import _validate",
        "o2b._fast (dpregret.papers.ztc22.o2b)", "monkeypatch.setattr(api, '_decide') (dpregret.pipeline.api)"]), found
    module_src = ("from ..core import validate as V\n"
                  "from .privacy_audit import chunks, _claim\n"
                  "from dpregret.papers.ztc22 import o2b\n"
                  "from .core import _diverged\n"
                  "def _own(): return o2b._pf(), _own()\n")
    found = violations(module_src, "m.py", "dpregret.verdict.privacy", False)
    assert sorted(f.split(": ", 1)[1] for f in found) == sorted([
        "from dpregret.verdict.privacy_audit import _claim", "from dpregret.verdict.core import _diverged",
        "o2b._pf (dpregret.papers.ztc22.o2b)"]), found
