"""The registry of the papers and their scenarios (:data:`PAPERS`, :data:`SCENARIOS`, :data:`ORDER`).

Each paper sits in its own folder (``dpregret.papers.as17``, ``dpregret.papers.ztc22``,
``dpregret.papers.env21``, ``dpregret.papers.vdh19``), which keeps its learners, bounds, scenarios
(each with its door for your own learner), claims, figures, errata and mutants, and declares in its
light module ``paper`` its :class:`Paper` (``PAPER``: key, title, authors, the source file's name) and
its :class:`Scenario` entries (``SCENARIOS``).  This module names the four folders once
(:data:`BUILTIN`, in the papers' order) and builds the registries from their declarations.

Claims, errata and mutants name a paper by its key; the report shows its title, authors, year and
full reference from here (and ``docs/papers.bib`` holds the same references as BibTeX).

A further paper is a package of its own, anywhere on the Python path, registered by name
(:func:`register`; the config key ``papers``, which the workflow passes to every job in the
environment variable ``DPREGRET_PAPERS``).  Its module ``<package>.paper`` declares ``PAPER``
(a :class:`Paper`), ``SCENARIOS`` (its :class:`Scenario` entries, ``generic=True``) and
``PRESETS`` (its parameters per preset), as a built-in folder's declares the first two;
docs/add-a-paper.md says what its modules hold.

The folders' ``paper`` modules import :class:`Paper` and :class:`Scenario` from here (defined above
the loop that imports them) and import nothing heavy at the top: building the registry loads no numpy.
"""
from __future__ import annotations

import importlib
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    key: str
    cite: str  # how the report names it, e.g. "Agarwal and Singh 2017"
    title: str
    authors: str
    year: int
    venue: str
    bibkey: str
    file: str  # the plain-text copy in the papers directory (see its README)

    @property
    def short(self) -> str:
        return self.cite

    @property
    def reference(self) -> str:
        return f"{self.authors}. {self.title}. {self.venue}, {self.year}."

    @property
    def bibtex(self) -> str:
        """The BibTeX entry (docs/papers.bib holds the same, a test keeps them equal)."""
        authors = " and ".join(_bib_name(a) for a in self.authors.replace(" and ", ", ").split(", "))
        return (f"@inproceedings{{{self.bibkey},\n  author    = {{{authors}}},\n  title     = {{{self.title}}},\n"
                f"  booktitle = {{{self.booktitle}}},\n  year      = {{{self.year}}}\n}}")

    @property
    def booktitle(self) -> str:
        return self.venue.split(";")[0].replace(", PMLR 70", "")


def _bib_name(full: str) -> str:
    """"Dirk van der Hoeven" -> "van der Hoeven, Dirk"; "Huy L. Nguyen" -> "Nguyen, Huy L."."""
    parts = full.split()
    i = next((k for k, w in enumerate(parts) if w[0].islower()), len(parts) - 1)
    return f"{' '.join(parts[i:])}, {' '.join(parts[:i])}"


def paper(key_or_file: str) -> Paper:
    """The paper of a key ("AS17") or of its source file name (older records)."""
    if key_or_file in PAPERS:
        return PAPERS[key_or_file]
    for p in PAPERS.values():
        if p.file == key_or_file:
            return p
    raise KeyError(f"unknown paper {key_or_file!r}; known: {sorted(PAPERS)}")


@dataclass(frozen=True)
class Scenario:
    """A scenario of the pipeline: its name (config key, rule prefix), the paper whose claims it
    regenerates (None for the privacy audits, which span the papers), the stem prefix of its
    figures, its paper's folder (``dpregret.papers.<paper>``) and, for a paper with several
    scenarios (AS17), its simulation module in that folder."""

    name: str
    paper: str | None
    figure_prefix: str
    module: str | None = None  # its simulation module in the folder (default: ``scenario``)
    folder: str | None = None  # its paper's package
    # run by the workflow's generic rules (workflow/rules/papers.smk); else by its folder's rules.smk
    generic: bool = False

    @property
    def scenario_module(self) -> str | None:
        if self.paper is None:
            return None
        return f"{self.folder}.{self.module or 'scenario'}"


# The four papers' folders, in the papers' order (the report's, ``ORDER``): the only place they are named.
# Each folder's light module ``paper`` declares its ``PAPER`` and its ``SCENARIOS`` (the classes above), as a
# registered paper's does; it is imported by name, the way :func:`register` imports a registered paper's.
BUILTIN = ("dpregret.papers.as17", "dpregret.papers.ztc22", "dpregret.papers.env21", "dpregret.papers.vdh19")

PAPERS: dict[str, Paper] = {}
# a paper's claims are listed in this order in the report (a registered paper is appended)
ORDER: list[str] = []
# The scenarios, in the order of the config's ``scenarios`` list: the four folders' in the papers' order,
# then the privacy audits (which belong to no paper).  The config schema composed from the folders'
# parameters (``dpregret.pipeline.config.load_schema``) lists these (tests/test_config.py).
SCENARIOS: dict[str, Scenario] = {}


def _declarations(package: str):
    """A registered ``package``'s module ``paper``, holding ``PAPER``, ``SCENARIOS`` and ``PRESETS``."""
    try:
        mod = importlib.import_module(f"{package}.paper")
    except ImportError as err:
        raise ValueError(f"config key 'papers': cannot import {package}.paper ({err}); the package must be on "
                         "the Python path (PYTHONPATH) and hold a module paper.py (docs/add-a-paper.md)") from err
    missing = [k for k in ("PAPER", "SCENARIOS", "PRESETS") if not hasattr(mod, k)]
    if missing:
        raise ValueError(f"config key 'papers': {package}.paper lacks {missing} (docs/add-a-paper.md)")
    return mod


def _ships_rules(package: str) -> bool:
    """Whether ``package`` holds Snakemake rules of its own (``rules.smk``, included by the Snakefile)."""
    from importlib.util import find_spec
    from pathlib import Path

    return any(Path(d, "rules.smk").is_file() for d in (find_spec(package).submodule_search_locations or []))


class ParamError(ValueError):
    """A scenario parameter that a folder's ``validate(scenario, params)`` (in its ``paper.py``) refuses: the
    key under the scenario and why; the config's check reports it as ``config key '<scenario>.<key>'``."""

    def __init__(self, key: str, why: str):
        super().__init__(f"{key}: {why}")
        self.key, self.why = key, why


def _add(package: str, mod, registered: bool) -> None:
    """Add the paper and the scenarios ``mod`` (``package``'s module ``paper``) declares, checked first:
    a key or scenario name not yet taken, each scenario naming the paper and the folder (and, for a
    registered paper, ``generic=True``, the generic rules run it, unless its folder ships its own rules,
    ``rules.smk``)."""
    where = "config key 'papers': " if registered else ""
    p = mod.PAPER
    if p.key in PAPERS:
        raise ValueError(f"{where}{package} declares the paper key {p.key!r}, already taken")
    taken = [s.name for s in mod.SCENARIOS if s.name in SCENARIOS]
    if taken:
        raise ValueError(f"{where}{package} declares scenarios {taken}, names already taken")
    own_rules = registered and _ships_rules(package)
    for s in mod.SCENARIOS:
        if s.paper != p.key or s.folder != package or (registered and not s.generic and not own_rules):
            raise ValueError(f"{where}{package}'s scenario {s.name!r} must name paper {p.key!r}, "
                             f"folder {package!r}" + (" and generic=True (or the folder ship its own rules, rules.smk)"
                                                      if registered else ""))
    PAPERS[p.key] = p
    ORDER.append(p.key)
    SCENARIOS.update((s.name, s) for s in mod.SCENARIOS)


for _package in BUILTIN:
    _add(_package, importlib.import_module(f"{_package}.paper"), registered=False)
SCENARIOS["audit"] = Scenario("audit", None, "audit_")


def folders() -> dict[str, str]:
    """paper key -> its package (the folder of its scenarios), in :data:`ORDER`: the four folders and every
    registered paper's.  The registries above the papers (``dpregret.pipeline.registry``, the report's
    figure map) import each folder's ``paper`` and ``figures`` modules from here, so a paper is named once."""
    found = {s.paper: s.folder for s in SCENARIOS.values() if s.paper is not None}
    return {key: found[key] for key in ORDER if key in found}


ENV_VAR = "DPREGRET_PAPERS"  # the registered papers' packages, comma-separated (set by the workflow for its jobs)
REGISTERED: dict[str, object] = {}  # package name -> its ``paper`` module


def register(package: str):
    """Register the paper of ``package`` (an importable package whose module ``paper`` declares
    ``PAPER``, ``SCENARIOS`` and ``PRESETS``): its paper joins :data:`PAPERS` and :data:`ORDER`,
    its scenarios :data:`SCENARIOS`.  Registering a package twice is a no-op; a key or scenario
    name already taken by another paper is an error.  Returns the ``paper`` module."""
    if package in REGISTERED:
        return REGISTERED[package]
    mod = _declarations(package)
    _add(package, mod, registered=True)
    REGISTERED[package] = mod
    return mod


def registered_from_env() -> list[str]:
    """The packages named by :data:`ENV_VAR`, registered (a job's view of the run's papers)."""
    names = [x for x in os.environ.get(ENV_VAR, "").split(",") if x]
    for name in names:
        register(name)
    return names


registered_from_env()
