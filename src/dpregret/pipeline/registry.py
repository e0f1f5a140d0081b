"""The registries of every paper's code: the built-in learners (:func:`learners`), the claims
(:func:`all_claims`) and the privacy audits (:func:`audit_specs`).

Each paper folder declares what it contributes in its light module ``dpregret.papers.<p>.paper``
(``learners()``, ``claims()``, ``audits()``); this module collects them, in the pipeline layer
above the papers (the layers contract of ``pyproject.toml``): a paper folder and everything below
the papers (``protocols``, ``claims``) never import it, so no module below the papers depends on
every paper.  The audits of shared mechanisms (the Laplace and Gaussian mechanisms, the local
randomisers, Zhang-Tran-Cutkosky's NOISE(t) tree) come from :func:`dpregret.verdict.privacy.shared_audits`.
"""
from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING

from dpregret import papers
from dpregret.papers import ORDER
from dpregret.core.protocols import LearnerSpec

if TYPE_CHECKING:
    from dpregret.verdict.core import Claim
    from dpregret.verdict.privacy_audit import AuditSpec

def folder_modules(name: str) -> dict:
    """paper key -> its folder's module ``name`` (``paper``, ``figures``, ``mutants``, ``instances``), for every
    folder of :func:`dpregret.papers.folders` (the four and every registered paper's, in the papers' order) that
    has one; an error inside such a module is raised, not taken for its absence."""
    out = {}
    for key, package in papers.folders().items():
        try:
            out[key] = importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as err:
            if err.name != f"{package}.{name}":
                raise
    return out


def folder_files(name: str) -> list[str]:
    """The file ``name`` of every folder of :func:`dpregret.papers.folders` that ships one, in the papers' order:
    e.g. ``rules.smk``, the Snakemake rules of a folder whose scenarios are not run by the generic rules
    (the Snakefile includes them).  Found without importing the folder."""
    from importlib.util import find_spec
    from pathlib import Path

    found = (Path(d, name) for package in papers.folders().values()
             for d in (find_spec(package).submodule_search_locations or []))
    return [str(f) for f in found if f.is_file()]


def folders() -> dict:
    """paper key -> its folder's ``paper`` module: the four folders and every paper registered by the config
    key ``papers`` (``dpregret.papers.register``; their ``learners``, ``claims`` and ``audits`` are optional)."""
    return folder_modules("paper")


def _declared(mod, what: str) -> dict:
    return getattr(mod, what)() if hasattr(mod, what) else {}

# The audits in the order the pipeline runs and lists them (config ``audit.audits``): the shared
# mechanisms and the papers' own code as the audits were added.  An audit not named here follows them.
AUDIT_ORDER = ("AUDIT-laplace-mechanism", "AUDIT-gaussian-mechanism", "AUDIT-vdh-lemma4-local-laplace",
               "AUDIT-l2-randomiser", "AUDIT-as17-lemma3.3-tree", "AUDIT-ztc-thm3-tree", "AUDIT-as17-lemma4.2-bandit",
               "AUDIT-ztc-thm3-o2b", "AUDIT-env-lemma5.1-releases", "AUDIT-env-lemma5.4-releases",
               "AUDIT-as17-cor3.2-olo-tree", "AUDIT-as17-thm3.5-ftpl-tree", "AUDIT-ztc-dpsgd")


@functools.cache
def learners() -> dict[str, LearnerSpec]:
    """name -> :class:`~dpregret.core.protocols.LearnerSpec`: the papers' learners and controls, paper by
    paper in :data:`dpregret.papers.ORDER` (built on first use)."""
    out: dict[str, LearnerSpec] = {}
    found = folders()
    for key in ORDER:
        out.update(_declared(found[key], "learners"))
    return out


def all_claims() -> dict[str, Claim]:
    """claim id -> :class:`~dpregret.verdict.core.Claim`, over every paper's claims (the base ids,
    without an env suffix), paper by paper in the alphabetical order of their keys (AS17, ENV21,
    VDH19, ZTC22: the registry's order since its first paper)."""
    out: dict[str, Claim] = {}
    found = folders()
    for key in sorted(ORDER):
        out.update(_declared(found[key], "claims"))
    return out


def errata() -> list[dict]:
    """The errata found while implementing the papers, for the report: where a printed formula disagrees with
    its own definition, the pipeline implements the definition.  Each folder keeps its own beside the code
    they concern (its ``errata.ERRATA``, each entry naming the test that shows the disagreement, key ``test``,
    here ``evidence``), paper by paper in the alphabetical order of their keys."""
    found = folder_modules("errata")
    return [{**{k: v for k, v in e.items() if k != "test"}, "evidence": e["test"]}
            for key in sorted(found) for e in found[key].ERRATA]


def audit_specs() -> dict[str, AuditSpec]:
    """claim id -> :class:`~dpregret.verdict.privacy_audit.AuditSpec` of every privacy audit, in
    :data:`AUDIT_ORDER`.  Built afresh on every call from the library as it is then: the spec
    builders read everything they take from the library when they run, so the mutation suite calls
    this under a mutant's patch to audit the mutated code."""
    from dpregret.verdict.privacy import shared_audits

    specs = shared_audits()
    found = folders()
    for key in ORDER:
        specs.update(_declared(found[key], "audits"))
    ordered = {cid: specs.pop(cid) for cid in AUDIT_ORDER if cid in specs}
    return {**ordered, **specs}
