"""Every ``dpregret.*`` name written in the docs, the README and the docstrings and comments of the
package resolves: a module that moves, or a function that is renamed, cannot leave a stale reference."""
import importlib
import re
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"(?<![\w/.])dpregret(?:\.[A-Za-z_]\w*)+")
FILES = sorted([ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("src/dpregret/**/*.py"),
                *ROOT.glob("workflow/**/*.py"), *ROOT.glob("workflow/**/*.smk"), ROOT / "pyproject.toml"])


def resolves(name: str) -> bool:
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def _names():
    out = {}
    for f in FILES:
        for m in NAME.finditer(f.read_text()):
            name = m.group(0).rstrip(".")
            if name.endswith((".py", ".smk", ".yaml", ".json", ".md")):  # a file path, not a name
                continue
            out.setdefault(name, str(f.relative_to(ROOT)))
    return out


NAMES = _names()


def test_every_dpregret_name_in_docs_and_docstrings_resolves():
    bad = {n: where for n, where in NAMES.items() if not resolves(n)}
    assert not bad, f"names that do not resolve (name: first file): {bad}"


# a name written short, relative to the package (``verdict.core.check_rate``, ``papers.ztc22.claims``): resolves as
# ``dpregret.<name>``
SHORT = re.compile(r"(?<![\w/.])``?((?:core|verdict|papers|pipeline)(?:\.[A-Za-z_]\w*)+)")


def test_every_short_name_resolves_under_the_package():
    bad = {}
    for f in FILES:
        for m in SHORT.finditer(f.read_text()):
            name = m.group(1).rstrip(".")
            if not name.endswith((".py", ".smk", ".yaml", ".json", ".md")) and not resolves(f"dpregret.{name}"):
                bad.setdefault(name, str(f.relative_to(ROOT)))
    assert not bad, f"short names that do not resolve as dpregret.<name> (name: first file): {bad}"


# the layer packages' former names (claims -> verdict, scenarios -> core.contract): a ``claims.x`` or
# ``scenarios.x`` written as a module of the package names a module that no longer exists
RETIRED = re.compile(r"``(?:claims|scenarios)\.[A-Za-z_][\w.]*``")


def test_no_docstring_names_a_retired_layer_package():
    bad = {str(f.relative_to(ROOT)): RETIRED.findall(f.read_text()) for f in FILES if RETIRED.search(f.read_text())}
    assert not bad, f"names of retired packages (dpregret.claims, dpregret.scenarios): {bad}"
