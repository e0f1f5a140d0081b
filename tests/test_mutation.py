"""The mutation suite (dpregret.mutation): registry, patch/revert, target claim ids.

The end-to-end run (every mutant decided on its small instance, unpatched and mutated) is
marked ``slow`` and skipped by default (``addopts = -m "not slow"`` in pyproject.toml); run it
with ``python -m pytest -m slow tests/test_mutation.py`` (about a minute), or the whole
suite from the command line: ``python -m dpregret.mutation``.
"""
import importlib
import pkgutil

import pytest

import dpregret

from dpregret.mutation import MUTANTS, REQUIRED
from dpregret.mutation.patching import SourceEdit, resolve, snapshot
from dpregret.mutation.registry import CATEGORIES, PAPERS
from dpregret.mutation.runner import INSTANCES, instance_of, run_mutant

# every module of the library (the mutants patch it, or hold their targets by name), found, not listed
LIBRARY = [m.name for m in pkgutil.walk_packages(dpregret.__path__, "dpregret.") if not m.name.endswith("__main__")]


def pipeline_claim_ids() -> set[str]:
    """Every claim id the pipeline registers (dpregret.claims.*)."""
    from dpregret.claims import as17_experts, as17_tables, env21, privacy, vdh19, ztc22

    ids = set(as17_experts.CLAIMS) | {as17_experts.EXACT_CLAIM.claim_id}
    ids |= {s.claim.claim_id for s in as17_tables.OLO_SPECS + as17_tables.MAB_SPECS + as17_tables.BLO_SPECS}
    ids |= set(as17_tables.EXTRA) | set(ztc22.CLAIMS) | set(env21.CLAIMS) | set(vdh19.CLAIMS) | set(privacy.SPECS)
    return ids


def test_registry_size_and_spread():
    assert len(MUTANTS) >= 20
    assert {m.category for m in MUTANTS.values()} == set(CATEGORIES)
    assert {m.paper for m in MUTANTS.values()} == set(PAPERS)
    for cat in CATEGORIES:
        assert sum(m.category == cat for m in MUTANTS.values()) >= 2, cat
    for paper in PAPERS:
        assert sum(m.paper == paper for m in MUTANTS.values()) >= 3, paper
    for m in MUTANTS.values():
        assert m.doc and m.targets and m.edits, m.name
    assert set(REQUIRED) <= set(MUTANTS)
    assert not any(MUTANTS[n].known_missed for n in REQUIRED)  # issue 15: never excused


def test_targets_are_pipeline_claims_with_a_small_instance():
    ids = pipeline_claim_ids()
    for m in MUTANTS.values():
        for cid in m.targets:
            assert cid in ids, f"{m.name}: {cid} is not a claim of the pipeline"
            assert instance_of(cid) in INSTANCES


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_patch_applies_and_is_reverted(name):
    for mod in LIBRARY:
        importlib.import_module(mod)
    m = MUTANTS[name]
    before = snapshot()
    originals = [resolve(e.target)[3] for e in m.edits]
    with m.patch():
        during = [resolve(e.target)[3] for e in m.edits]
        assert all(d is not o for d, o in zip(during, originals)), "the mutant did not replace its target"
        assert snapshot() != before
    assert [resolve(e.target)[3] for e in m.edits] == originals
    assert all(a is b for a, b in zip([resolve(e.target)[3] for e in m.edits], originals))
    assert snapshot() == before, "a binding was left patched"


def test_function_imported_by_name_is_patched_where_looked_up():
    import dpregret.claims.privacy_env21 as P  # the PRIVATEBANDIT audit's blind note reads nodes_covering_leaf
    import dpregret.calibration as S
    import dpregret.tree as tree

    m = MUTANTS["tree-leaf-cover-off-by-one"]
    assert tree.nodes_covering_leaf(4) == 3
    with m.patch():
        assert tree.nodes_covering_leaf(4) == S.nodes_covering_leaf(4) == P.nodes_covering_leaf(4) == 2
        assert S.tree_lambda(2, 4, 1.0) == 4.0
    assert tree.nodes_covering_leaf(4) == S.nodes_covering_leaf(4) == P.nodes_covering_leaf(4) == 3
    assert S.tree_lambda(2, 4, 1.0) == 6.0


def test_fresh_privacy_rebuilds_the_specs_of_its_submodules_from_the_patched_library():
    """The specs live in claims.privacy_* and are built when claims.privacy runs: the runner's fresh copy
    of claims.privacy must build them from the library as the mutant patched it (here the PRIVATEBANDIT
    Lemma 5.4 audit's blind note, computed from nodes_covering_leaf when its spec is built), while the
    imported SPECS keep the unpatched values."""
    from dpregret.claims import privacy
    from dpregret.mutation.patching import fresh_module

    cid = "AUDIT-env-lemma5.4-releases"
    before = fresh_module("dpregret.claims.privacy").SPECS[cid].blind["half_noise"]
    assert before == privacy.SPECS[cid].blind["half_noise"]
    with MUTANTS["tree-leaf-cover-off-by-one"].patch():
        during = fresh_module("dpregret.claims.privacy").SPECS[cid].blind["half_noise"]
    assert during != before
    assert privacy.SPECS[cid].blind["half_noise"] == before
    assert fresh_module("dpregret.claims.privacy").SPECS[cid].blind["half_noise"] == before


def test_patch_reverted_when_the_block_raises():
    import dpregret.tree as tree

    before = snapshot()
    with pytest.raises(RuntimeError), MUTANTS["tree-leaf-cover-off-by-one"].patch():
        raise RuntimeError("boom")
    assert tree.nodes_covering_leaf(4) == 3 and snapshot() == before


def test_source_edit_must_match_once():
    from dpregret.mutation.patching import MutantError, patched

    with pytest.raises(MutantError, match="exactly once"), patched([SourceEdit("dpregret.tree:nodes_covering_leaf",
                                                                                "no such text", "x")]):
        pass


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_is_caught(name, mutation_cache):
    m = MUTANTS[name]
    rec = run_mutant(name, cache=mutation_cache)
    assert rec["error"] is None, rec["error"]
    for cid, row in rec["targets"].items():
        assert row["unpatched"] not in ("ERROR", "NOT_APPLIED"), (cid, row)
    if m.known_missed:  # a documented finding; once a strengthened claim catches it, drop the note
        assert not rec["caught"], f"{name} is now caught by {rec['caught_by']}: remove its known_missed note"
        pytest.skip(f"known missed: {m.known_missed}")
    assert rec["caught"], rec["targets"]


@pytest.fixture(scope="module")
def mutation_cache():
    return {}
