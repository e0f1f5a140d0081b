"""The contract every paper folder passes, built-in or registered, in the spirit of scikit-learn's
``parametrize_with_checks``: :func:`paper_checks` lists named checks of one folder, :func:`check_paper`
runs them all, and a test suite parametrises over the registry::

    from dpregret.testing import paper_checks

    @pytest.mark.parametrize("check", paper_checks("my_paper"), ids=lambda c: c.__name__)
    def test_my_paper(check):
        check()

The checks (each raises ``AssertionError`` naming the folder and what is wrong):

- ``declarations``: ``paper.py`` declares ``PAPER`` and ``SCENARIOS`` that name the paper and the folder;
- ``claims``: the folder declares claims (``paper.claims()``), each with an id, theorem, statement, metric, a
  kind the verdict layer knows and a primary control in words;
- ``tolerances``: every rate claim has a declared tolerance (the config's ``tolerances`` or the folder's
  ``paper.TOLERANCES``): a missing one is an error naming the claim, never a silent 0;
- ``presets``: the smoke, default and paper presets give the folder's scenarios parameters that its schema
  and its ``validate(scenario, params)`` accept;
- ``figures``: every figure the folder declares (``figures.FIGURES``) shows only declared claims;
- ``chunking`` (a scenario whose jobs are the generic ``simulate(p, experiment, point, replicates, seed)``):
  the same rows however the replicates are chunked (a built-in folder's own ``simulate_job`` is checked end
  to end through Snakemake with other chunk sizes and core counts, ``tests/test_reproducibility.py``);
- ``door`` (a folder whose scenario modules declare ``USER_CLAIMS``, the door for a user's learner,
  ``dpregret.core.contract``): each entry names one of the folder's declared claims and scenarios and a setting
  with its signature, has points on the smoke preset, and the paper's learner on the door
  (``UserClaim.paper_on_door``) gives the paper's own rows at the first smoke point (``tests/test_door.py``
  checks the built-in doors further: chunking, errors, decisions);
- ``records`` (given a finished run's ``results`` directory): every declared claim of the folder has its
  record, with its primary control's result; every learner claim carries its non-learner control (or the
  door says why it is left out) and its mis-tuned twin or a declared blindness to tuning (a LOOSE bound is
  exempt: its label already says that no near miss, a twin included, is caught);
- ``drawn`` (given a finished run's ``results`` directory): every figure the folder declares was drawn, a
  non-empty PNG under the run's ``figures/`` (the sibling of ``results``).
"""
from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path

import pandas as pd
import yaml

KINDS = ("bound", "coverage", "rate", "comparison", "privacy", "exact")
PRESETS = ("smoke", "default", "paper")


def _paper_module(package: str):
    return importlib.import_module(f"{package}.paper")


def _root_config() -> dict:
    """The repository's config (a checkout) when there is one, else an empty config."""
    p = Path(__file__).resolve().parents[2] / "config" / "config.yaml"
    return yaml.safe_load(p.read_text()) if p.exists() else {}


def _claims(package: str) -> dict:
    mod = _paper_module(package)
    if hasattr(mod, "claims"):
        return dict(mod.claims())
    from dpregret.pipeline.registry import all_claims

    return {k: c for k, c in all_claims().items() if c.paper == mod.PAPER.key}


def check_declarations(package: str) -> None:
    from dpregret.papers import Paper, Scenario

    mod = _paper_module(package)
    assert isinstance(getattr(mod, "PAPER", None),
                      Paper), f"{package}.paper must declare PAPER (a dpregret.papers.Paper)"
    scs = getattr(mod, "SCENARIOS", None)
    assert scs and all(isinstance(s, Scenario)
                       for s in scs), f"{package}.paper must declare SCENARIOS (Scenario entries)"
    for s in scs:
        assert s.paper == mod.PAPER.key, f"{package}: scenario {s.name} names paper {s.paper!r}, not {mod.PAPER.key!r}"
        assert s.folder == package, f"{package}: scenario {s.name} names folder {s.folder!r}"


def check_claims(package: str) -> None:
    claims = _claims(package)
    assert claims, f"{package} declares no claims"
    for cid, c in claims.items():
        assert c.claim_id == cid, f"{package}: claim {cid!r} is declared under another id ({c.claim_id!r})"
        assert c.kind in KINDS, f"{package}: claim {cid} has kind {c.kind!r}; allowed: {KINDS}"
        for field in ("theorem", "statement", "metric", "control"):
            assert str(getattr(c, field)).strip(), f"{package}: claim {cid} has an empty {field}"


def declared_tolerances(package: str, config: dict | None = None) -> dict:
    """The tolerances a folder's claims get: the folder's ``paper.TOLERANCES``, then the config's on top."""
    mod = _paper_module(package)
    cfg = _root_config() if config is None else config
    return {**getattr(mod, "TOLERANCES", {}), **(cfg.get("tolerances") or {})}


def check_tolerances(package: str) -> None:
    tol = declared_tolerances(package)
    missing = sorted(cid for cid, c in _claims(package).items() if c.kind == "rate" and cid not in tol)
    assert not missing, (f"{package}: rate claims without a declared tolerance (declare them in the folder's "
                         f"paper.TOLERANCES or the config's tolerances): {missing}")


def _run_params(package: str, preset: str) -> dict:
    """The effective parameters of the folder's scenarios at ``preset``."""
    from dpregret.pipeline.config import effective

    mod = _paper_module(package)
    cfg = _root_config()
    if not cfg:
        raise AssertionError("the presets check needs the repository's config/config.yaml")
    names = [s.name for s in mod.SCENARIOS]
    from dpregret.papers import BUILTIN

    if package in BUILTIN:
        run = effective({**cfg, "preset": preset, "scenarios": names})
        return {n: run[n] for n in names}
    run = effective({**cfg, "preset": preset, "scenarios": ["audit"], "papers": [package]})
    return run["papers"][package]


def check_presets(package: str) -> None:
    mod = _paper_module(package)
    if hasattr(mod, "PRESETS"):
        missing = [p for p in PRESETS if p not in mod.PRESETS]
        assert not missing, f"{package}.paper.PRESETS lacks the presets {missing}"
    for preset in PRESETS:
        params = _run_params(package, preset)
        assert set(params) == {s.name for s in mod.SCENARIOS}, f"{package}: preset {preset} gives {sorted(params)}"


def check_figures(package: str) -> None:
    try:
        figs = importlib.import_module(f"{package}.figures")
    except ModuleNotFoundError:
        return
    claims = set(_claims(package))
    for name, (_, entries) in getattr(figs, "FIGURES", {}).items():
        for f in entries:
            unknown = [c for c in f.shows if c not in claims]
            assert not unknown, f"{package}: figure {f.stem} ({name}) shows undeclared claims {unknown}"


def check_chunking(package: str) -> None:
    mod = _paper_module(package)
    for s in mod.SCENARIOS:
        sim = importlib.import_module(s.scenario_module)
        if not s.generic or hasattr(sim, "simulate_job"):  # a folder's own job (tests/test_reproducibility.py runs it)
            continue
        p = _run_params(package, "smoke")[s.name]
        for experiment, points in sim.experiments(p).items():
            whole = sim.simulate(p, experiment, points[0], range(0, 4), 7)
            parts = pd.concat([sim.simulate(p, experiment, points[0], r, 7) for r in (range(0, 1), range(1, 4))])
            key = [c for c in ("replicate", "alg") if c in whole]
            a = whole.sort_values(key, kind="stable").reset_index(drop=True)
            b = parts.sort_values(key, kind="stable").reset_index(drop=True)
            pd.testing.assert_frame_equal(a, b, obj=f"{package}: {s.name}/{experiment}/{points[0]} chunked 1+3 vs 4")


def check_door(package: str) -> None:
    from dpregret.core.protocols import SIGNATURES

    mod = _paper_module(package)
    names = {s.name for s in mod.SCENARIOS}
    ucs = [uc for s in mod.SCENARIOS if s.scenario_module
           for uc in getattr(importlib.import_module(s.scenario_module), "USER_CLAIMS", ())]
    if not ucs:
        return
    claims, params, seed = _claims(package), _run_params(package, "smoke"), int(_root_config().get("seed", 0))
    for uc in ucs:
        where = f"{package}: USER_CLAIMS entry {uc.claim}"
        assert uc.claim in claims, f"{where} names no claim the folder declares ({sorted(claims)})"
        assert uc.scenario in names, f"{where} names scenario {uc.scenario!r}, not one of {sorted(names)}"
        assert SIGNATURES.get(uc.setting) == uc.signature, \
            f"{where}: setting {uc.setting!r} is called as {SIGNATURES.get(uc.setting)}, not {uc.signature!r}"
        p = params[uc.scenario]
        points = uc.points(p)
        assert points, f"{where}: no points on the smoke preset"
        pod = uc.paper_on_door
        if pod is None:
            continue
        reps = range(2)
        df = uc.simulate(p, points[0], reps, seed, {"door": pod.make(p, points[0], reps, seed)})
        alg = df["alg"] if "alg" in df else df["algorithm"]
        for suffix, row in pod.rows:
            fast, door = (df[alg == n][list(pod.columns)].reset_index(drop=True) for n in (row, "door" + suffix))
            assert len(fast) == len(door) > 0, f"{where}: no rows {row!r} or door{suffix!r} at {points[0]}"
            pd.testing.assert_frame_equal(door, fast, check_exact=pod.rtol == 0, rtol=pod.rtol or 1e-5, atol=0.0,
                                          obj=f"{where}: the paper's learner on the door{suffix} against {row}")


def check_records(package: str, results: str | Path) -> None:
    """Every declared claim of the folder has its record in ``results/claims`` with its controls."""
    from dpregret.core.contract import user_claims

    claims = _claims(package)
    key = _paper_module(package).PAPER.key
    recs, undeclared = {}, set()
    for f in Path(results, "claims").glob("*.json"):
        r = json.loads(f.read_text())
        if r.get("paper") == key and r.get("base_id") not in claims and not r["claim_id"].startswith("AUDIT-"):
            undeclared.add(r.get("base_id"))
        if r.get("base_id") in claims and "--learner-" not in r["claim_id"]:
            recs.setdefault(r["base_id"], []).append(r)
    assert not undeclared, f"{package}: records of claims its claims() does not declare: {sorted(undeclared)}"
    missing = sorted(set(claims) - set(recs))
    assert not missing, f"{package}: declared claims with no record in {results}/claims: {missing}"
    left_out = {cid for cid, uc in user_claims().items() if getattr(uc, "nonlearner_left_out", "")}
    for cid, rs in recs.items():
        for r in rs:
            assert r.get("control_result"), f"{package}: {r['claim_id']} has no primary control result"
            if not r.get("learner_claim"):
                continue
            d = r["result"]["detail"]
            assert "nonlearner" in d or cid in left_out or d.get("nonlearner_left_out"), \
                f"{package}: learner claim {r['claim_id']} carries no non-learner control"
            assert "twin" in d or "twin_blind" in d or r["result"]["verdict"] == "LOOSE", \
                (f"{package}: learner claim {r['claim_id']} carries no mis-tuned twin and declares no blindness "
                 "to tuning")


def check_drawn(package: str, results: str | Path) -> None:
    """Every figure the folder declares (``figures.FIGURES``) was drawn by the run whose tables are ``results``."""
    try:
        figs = importlib.import_module(f"{package}.figures")
    except ModuleNotFoundError:
        return
    root = Path(results).resolve().parent / "figures"
    declared = [root / d / f"{f.stem}.png" for d, entries in getattr(figs, "FIGURES", {}).values() for f in entries]
    missing = [str(p.relative_to(root.parent)) for p in declared if not p.is_file() or p.stat().st_size == 0]
    assert not missing, f"{package}: declared figures the run did not draw (or drew empty): {missing}"
    bad = [str(p.relative_to(root.parent)) for p in declared if p.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n"]
    assert not bad, f"{package}: declared figures that are not PNG files: {bad}"


def paper_checks(package: str, results: str | Path | None = None) -> list:
    """The contract's checks of ``package`` (a paper folder), each a callable named after its check."""
    checks = [check_declarations, check_claims, check_tolerances, check_presets, check_figures, check_chunking,
              check_door]
    out = [functools.wraps(c)(functools.partial(c, package)) for c in checks]
    if results is not None:
        out += [functools.wraps(c)(functools.partial(c, package, results)) for c in (check_records, check_drawn)]
    return out


def check_paper(package: str, results: str | Path | None = None) -> None:
    """Run every check of the contract on ``package`` (module docstring)."""
    for check in paper_checks(package, results):
        check()
