"""environment.yml mirrors pyproject.toml's requirements (runtime + test extra)."""
import importlib
import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _norm(req: str) -> tuple[str, str]:
    m = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*(.*)", req)
    return m.group(1).lower().replace("_", "-"), m.group(2).replace(" ", "")


def test_environment_yml_matches_pyproject():
    py = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    opt = py["optional-dependencies"]
    wanted = {_norm(r) for r in py["dependencies"] + opt["test"] + opt["slurm"]}
    env = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    have = set()
    for d in env:
        if isinstance(d, dict):
            have |= {_norm(r) for r in d["pip"] if not r.startswith("-e")}
        elif not d.startswith(("python", "pip")):
            have.add(_norm(d))
    assert have == wanted
    assert any(isinstance(d, str) and d.replace(" ", "") == f"python{py['requires-python']}" for d in env)


def test_the_lock_pins_every_requirement_within_its_declared_range():
    """config/constraints.txt (the versions CI tested, used by the README's install command)
    pins every runtime and test requirement of pyproject.toml, inside its declared range."""
    from packaging.requirements import Requirement

    pins = {}
    for line in (ROOT / "config" / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[name.lower().replace("_", "-")] = version
    py = tomllib.loads((ROOT / "pyproject.toml").read_text())
    reqs = [Requirement(r) for r in py["project"]["dependencies"] + py["project"]["optional-dependencies"]["test"]]
    for r in reqs:
        key = r.name.lower().replace("_", "-")
        assert key in pins, f"{r.name} is not pinned in config/constraints.txt"
        assert r.specifier.contains(pins[key]), f"{r.name}=={pins[key]} lies outside {r.specifier}"
    assert Requirement(py["build-system"]["requires"][0]).specifier.contains("77.0")  # license = "MIT" needs >= 77


def test_citation_file_and_bibliography_name_the_four_papers():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software" and cff["title"]
    titles = {r["title"] for r in cff["references"]}
    from dpregret.papers import BUILTIN, PAPERS
    bib = (ROOT / "docs" / "papers.bib").read_text()
    builtin = {importlib.import_module(f"{pkg}.paper").PAPER.key for pkg in BUILTIN}
    assert titles == {PAPERS[k].title for k in builtin} and all(t in bib for t in titles)
    assert all(r["authors"] and r["year"] for r in cff["references"])


def test_paper_files_are_named_only_in_the_registry():
    """A paper's source file name (the hashed names of the papers directory) is named once, in its
    folder's declaration (``dpregret.papers.<p>.paper.PAPER``), which the registry reads: claims,
    errata and mutants name a paper by its key."""
    from dpregret.papers import BUILTIN, PAPERS, paper
    hashed = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
    declared = {ROOT / "src" / (pkg.replace(".", "/") + "/paper.py"): importlib.import_module(f"{pkg}.paper").PAPER.file
                for pkg in BUILTIN}
    named = {f: set(hashed.findall(f.read_text())) for d in ("src", "workflow", "tests") for f in (ROOT / d).rglob("*")
             if f.suffix in (".py", ".smk", ".yaml")}
    offenders = [str(f.relative_to(ROOT)) for f, names in named.items() if names and names != {declared.get(f)}]
    assert offenders == []
    assert sorted(declared.values()) == sorted(p.file for p in PAPERS.values() if p.file)
    bib = (ROOT / "docs" / "papers.bib").read_text()
    for p in PAPERS.values():
        assert paper(p.file) is p and paper(p.key) is p and str(p.year) in p.reference
        assert p.bibtex in bib  # docs/papers.bib holds the registry's entries


def test_the_config_schemas_parts_ship_as_package_data():
    """The config schema is composed from the pipeline's part and each paper folder's
    (dpregret.pipeline.config.load_schema): every part is package data, so an installed package finds it."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["dpregret"]
    parts = sorted(p.relative_to(ROOT / "src" / "dpregret")
                   for p in (ROOT / "src" / "dpregret").rglob("config.schema.yaml"))
    from dpregret.papers import BUILTIN
    folders = {Path(*pkg.split(".")[1:]) / "config.schema.yaml" for pkg in BUILTIN}
    assert folders | {Path("pipeline/config.schema.yaml")} <= set(parts)  # the pipeline's part and every folder's
    for part in parts:
        assert any(part.full_match(g) if hasattr(part, "full_match") else part.match(g) for g in globs), part
