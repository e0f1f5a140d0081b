"""The registry of the four papers: the only place their source files are named.

Each paper sits in its own folder (``dpregret.papers.as17``, ``dpregret.papers.ztc22``,
``dpregret.papers.env21``, ``dpregret.papers.vdh19``), which keeps its learners, bounds, scenarios
(each with its door for your own learner), claims, figures, errata and mutants.

Claims, errata and mutants name a paper by its key; the report shows its title, authors, year and
full reference from here (and ``docs/papers.bib`` holds the same references as BibTeX).

A further paper is a package of its own, anywhere on the Python path, registered by name
(:func:`register`; the config key ``papers``, which the workflow passes to every job in the
environment variable ``DPREGRET_PAPERS``).  Its module ``<package>.paper`` declares ``PAPER``
(a :class:`Paper`), ``SCENARIOS`` (its :class:`Scenario` entries, ``generic=True``) and
``PRESETS`` (its parameters per preset); docs/add-a-paper.md says what its modules hold.
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


PAPERS = {p.key: p for p in (
    Paper("AS17", "Agarwal and Singh 2017", "The Price of Differential Privacy for Online Learning", "Naman Agarwal and Karan Singh", 2017,
          "Proceedings of the 34th International Conference on Machine Learning (ICML), PMLR 70", "agarwal2017price",
          "003_a21566fafc49b886.txt"),
    Paper("ZTC22", "Zhang, Tran, Cutkosky 2022", "Differentially Private Online-to-Batch for Smooth Losses", "Qinzi Zhang, Hoang Tran and Ashok Cutkosky",
          2022, "Advances in Neural Information Processing Systems 35 (NeurIPS)", "zhang2022differentially",
          "002_ea604baa8d00e606.txt"),
    Paper("ENV21", "Ene, Nguyen, Vladu 2021", "Projection-Free Bandit Optimization with Privacy Guarantees", "Alina Ene, Huy L. Nguyen and Adrian Vladu",
          2021, "Proceedings of the 35th AAAI Conference on Artificial Intelligence", "ene2021projection",
          "004_99eed4067d44be32.txt"),
    Paper("VDH19", "van der Hoeven 2019", "User-Specified Local Differential Privacy in Unconstrained Adaptive Online Learning", "Dirk van der Hoeven",
          2019, "Advances in Neural Information Processing Systems 32 (NeurIPS); with appendix proofs in his 2021 "
          "Leiden University thesis, The Many Faces of Online Learning, chapter 3", "vanderhoeven2019user",
          "000_7eed9852d6745801.txt"),
)}
# a paper's claims are listed in this order in the report (a registered paper is appended)
ORDER = ["AS17", "ZTC22", "ENV21", "VDH19"]


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
    generic: bool = False  # run by the workflow's generic rules (workflow/rules/papers.smk; a registered paper's)

    @property
    def scenario_module(self) -> str | None:
        if self.paper is None:
            return None
        return f"{self.folder}.{self.module or 'scenario'}"


# The scenarios, in the order of the config's ``scenarios`` list.  The config schema's lists
# (``scenarios`` enum, the presets' required keys) must equal this (tests/test_config.py).
SCENARIOS = {s.name: s for s in (
    Scenario("as17_experts", "AS17", "experts_", "scenario_experts", folder="dpregret.papers.as17"),
    Scenario("as17_olo", "AS17", "olo_", "scenario_olo", folder="dpregret.papers.as17"),
    Scenario("as17_mab", "AS17", "mab_", "scenario_bandits", folder="dpregret.papers.as17"),
    Scenario("as17_blo", "AS17", "blo_", "scenario_blo", folder="dpregret.papers.as17"),
    Scenario("ztc22", "ZTC22", "ztc22_", folder="dpregret.papers.ztc22", generic=True),
    Scenario("env21", "ENV21", "env21_", folder="dpregret.papers.env21", generic=True),
    Scenario("vdh19", "VDH19", "vdh19_", folder="dpregret.papers.vdh19", generic=True),
    Scenario("audit", None, "audit_"),
)}


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
    try:
        mod = importlib.import_module(f"{package}.paper")
    except ImportError as err:
        raise ValueError(f"config key 'papers': cannot import {package}.paper ({err}); the package must be on "
                         "the Python path (PYTHONPATH) and hold a module paper.py (docs/add-a-paper.md)") from err
    missing = [k for k in ("PAPER", "SCENARIOS", "PRESETS") if not hasattr(mod, k)]
    if missing:
        raise ValueError(f"config key 'papers': {package}.paper lacks {missing} (docs/add-a-paper.md)")
    p = mod.PAPER
    if p.key in PAPERS:
        raise ValueError(f"config key 'papers': {package} declares the paper key {p.key!r}, already taken")
    taken = [s.name for s in mod.SCENARIOS if s.name in SCENARIOS]
    if taken:
        raise ValueError(f"config key 'papers': {package} declares scenarios {taken}, names already taken")
    PAPERS[p.key] = p
    ORDER.append(p.key)
    for s in mod.SCENARIOS:
        if s.paper != p.key or s.folder != package or not s.generic:
            raise ValueError(f"config key 'papers': {package}'s scenario {s.name!r} must name paper {p.key!r}, "
                             f"folder {package!r} and generic=True")
        SCENARIOS[s.name] = s
    REGISTERED[package] = mod
    return mod


def registered_from_env() -> list[str]:
    """The packages named by :data:`ENV_VAR`, registered (a job's view of the run's papers)."""
    names = [x for x in os.environ.get(ENV_VAR, "").split(",") if x]
    for name in names:
        register(name)
    return names


registered_from_env()
