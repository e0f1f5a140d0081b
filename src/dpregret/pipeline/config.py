"""Configuration: JSON-schema validation and the effective parameters of a run.

The config schema is composed (:func:`load_schema`): the pipeline's part
(``src/dpregret/pipeline/config.schema.yaml``: the top level, the shared definitions, the privacy
audits' parameters) and each paper folder's (``dpregret/papers/<paper>/config.schema.yaml``: its
scenarios' parameters and the keys every preset gives them), for the scenarios of
``dpregret.papers.SCENARIOS``.  The workflow (``workflow/rules/common.smk``) calls :func:`effective`,
which validates the config, merges the chosen preset with the optional top-level overrides, validates
the result again, and checks the cross-key rules a schema cannot express; every failure raises
:class:`ConfigError` naming the key and what is allowed, before any job runs.  It then writes the
composed schema to a file (:func:`write_schema`) for Snakemake's ``validate()``, which takes a path.
"""
from __future__ import annotations

import copy
import importlib
import json
import os
from importlib import resources
from pathlib import Path

import jsonschema
import yaml

from dpregret.papers import REGISTERED, SCENARIOS as _SCENARIOS, ParamError, register

SCHEMA_PATH = Path(__file__).resolve().parent / "config.schema.yaml"  # package data: found in a wheel too
FRAGMENT = "config.schema.yaml"  # a paper folder's part of the schema (package data of the folder)


def _builtin() -> list:
    """The scenarios the config's keys name: the four folders' and the audits', in :data:`dpregret.papers.SCENARIOS`'
    order (a registered paper's parameters are its ``PRESETS``, not config keys)."""
    return [s for s in _SCENARIOS.values() if s.folder not in REGISTERED]


SCENARIOS = tuple(s.name for s in _builtin())  # the config's scenario names (the four papers' and the audits)


class ConfigError(ValueError):
    pass


def _yaml(text: str) -> dict:
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def fragment(package: str) -> dict | None:
    """A paper folder's part of the config schema (its ``config.schema.yaml``: ``definitions``,
    ``required_in_presets``), None if it has none."""
    path = resources.files(package).joinpath(FRAGMENT)
    return _yaml(path.read_text()) if path.is_file() else None


def load_schema() -> dict:
    """The config schema: the pipeline's part with, for each built-in scenario of a paper folder (in the order
    of ``dpregret.papers.SCENARIOS``), its folder's definitions, its config key (``{$ref}``), its entry of every
    preset (``allOf`` of its definition and the keys the folder requires in presets, a required key of the
    preset) and its name in the ``scenarios`` list.  A folder's definition whose name is taken, or a scenario
    its folder does not define, is an error naming the file."""
    schema = _yaml(SCHEMA_PATH.read_text())
    defs, props = schema["definitions"], schema["properties"]
    preset = defs["preset"]
    parts: dict[str, dict] = {}
    builtin = _builtin()
    for sc in builtin:
        if sc.folder is None:  # the audits: the pipeline's own part
            continue
        where = f"{sc.folder}/{FRAGMENT}"
        if sc.folder not in parts:
            part = parts[sc.folder] = fragment(sc.folder)
            if part is None:
                raise ValueError(f"{where}: missing (the parameters of scenario {sc.name!r})")
            taken = sorted(set(part["definitions"]) & set(defs))
            if taken:
                raise ValueError(f"{where}: definitions {taken} are already defined")
            defs.update(part["definitions"])
        part = parts[sc.folder]
        if sc.name not in part["definitions"] or sc.name not in part.get("required_in_presets", {}):
            raise ValueError(f"{where}: scenario {sc.name!r} needs a definition and its required_in_presets")
        ref = {"$ref": f"#/definitions/{sc.name}"}
        preset["properties"][sc.name] = {"allOf": [ref, {"required": part["required_in_presets"][sc.name]}]}
        preset["required"].append(sc.name)
        props[sc.name] = dict(ref)
    props["scenarios"]["items"]["enum"] = [sc.name for sc in builtin]
    return schema


def write_schema(schema: dict, path: Path | str) -> str:
    """``schema`` written to ``path`` as JSON (for Snakemake's ``validate()``, which reads a file), rewritten
    only when it changes (atomically: the workflow's jobs parse the Snakefile too).  Returns the path."""
    path = Path(path).resolve()
    text = json.dumps(schema, indent=1) + "\n"
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(text)
        os.replace(tmp, path)
    return str(path)


def _key(path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def validate(cfg: dict, schema: dict, where: str = "config key") -> None:
    """Raise ConfigError for the first schema violation, naming the key path (after ``where``)."""
    v = jsonschema.Draft202012Validator(schema)
    errors = sorted(v.iter_errors(cfg), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        allowed = {k: e.schema[k] for k in ("enum", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
                                            "type") if isinstance(e.schema, dict) and k in e.schema}
        raise ConfigError(f"{where} '{_key(e.absolute_path)}': {e.message}"
                          + (f" (allowed: {allowed})" if allowed else ""))


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else copy.deepcopy(v)
    return out


def with_registered(schema: dict, packages) -> dict:
    """``schema`` with the config keys of the registered papers' scenarios (``papers``): each package registered
    (:func:`dpregret.papers.register`, a failure a :class:`ConfigError` naming the key ``papers``), its part's
    definitions added, and a top-level key per scenario overriding its preset's parameters, as a built-in
    scenario's (``my_scenario: {T: [100, 400]}``: checked against the folder's definition, or any mapping if
    the folder ships no ``config.schema.yaml``).  A copy; ``schema`` itself is unchanged."""
    out = copy.deepcopy(schema)
    for pkg in packages:
        try:
            mod = register(pkg)
        except ValueError as err:
            raise ConfigError(str(err)) from err
        part = fragment(pkg) or {"definitions": {}}
        taken = sorted(k for k in part["definitions"] if k in out["definitions"] and k not in schema["definitions"])
        if taken:
            raise ConfigError(f"config key 'papers': {pkg}/{FRAGMENT} defines {taken}, already defined by another "
                              "paper")
        out["definitions"].update({k: v for k, v in part["definitions"].items() if k not in schema["definitions"]})
        for s in mod.SCENARIOS:
            defined = s.name in part["definitions"]
            out["properties"][s.name] = {"$ref": f"#/definitions/{s.name}"} if defined else {"type": "object"}
    return out


def _packages(cfg: dict) -> list[str]:
    """The config's ``papers`` when it is a list of names (else the schema's check reports it)."""
    pk = cfg.get("papers") or []
    return list(pk) if isinstance(pk, list) and all(isinstance(x, str) for x in pk) else []


def effective(cfg: dict, schema: dict | None = None) -> dict:
    """The validated parameters of this run: ``{scenario: params, ...}`` plus the globals."""
    schema = with_registered(schema or load_schema(), _packages(cfg))
    validate(cfg, schema)
    preset = cfg["preset"]
    if preset not in cfg["presets"]:
        raise ConfigError(f"config key 'preset': {preset!r} is not defined under 'presets' (defined: "
                          f"{sorted(cfg['presets'])})")
    out = {k: cfg[k] for k in ("preset", "seed", "ci_level", "bootstrap", "chunk_size", "scenarios", "tolerances")}
    out["history"] = cfg.get("history", {})
    if not cfg["scenarios"] and not cfg.get("papers"):
        raise ConfigError("config key 'scenarios': [] runs nothing; name at least one of "
                          f"{sorted(_SCENARIOS)} or a registered paper under the key 'papers'")
    if cfg.get("papers"):  # further papers (dpregret.papers.register): their scenarios run by the generic rules
        own = [sc.name for sc in _SCENARIOS.values() if sc.folder in cfg["papers"]]
        out["papers"] = registered_papers(cfg["papers"], preset, schema, {n: cfg[n] for n in own if n in cfg})
        for params in out["papers"].values():
            out.update(params)
    _together(cfg["scenarios"])
    for sc in cfg["scenarios"]:
        params = _merge(cfg["presets"][preset][sc], cfg.get(sc, {}))
        validate({**cfg, "presets": {preset: {**cfg["presets"][preset], sc: params}}}, schema)
        out[sc] = params
    running = list(out["scenarios"]) + [n for params in out.get("papers", {}).values() for n in params]
    out["learners"] = user_learners(cfg.get("learners") or {}, running)
    out["nonlearners"] = bool(cfg.get("nonlearners", True))
    if out["nonlearners"]:  # the trivial learner of every setting through the same door (dpregret.pipeline.nonlearners)
        from dpregret.pipeline.nonlearners import pipeline_learners
        out["learners"].update(pipeline_learners(running))
    # a folder may declare its claims' tolerances itself (paper.TOLERANCES); the config's override them
    folder_tol: dict = {}
    for sc in running:
        folder = _SCENARIOS[sc].folder if sc in _SCENARIOS else None
        if folder:
            folder_tol.update(getattr(importlib.import_module(f"{folder}.paper"), "TOLERANCES", {}))
    out["tolerances"] = {**folder_tol, **(out["tolerances"] or {})}
    for sc in cfg["scenarios"]:  # the rules across keys a schema cannot say: the folder's validate(scenario, params)
        folder = _SCENARIOS[sc].folder
        mod = importlib.import_module(f"{folder}.paper") if folder else None
        if hasattr(mod, "validate"):
            try:
                mod.validate(sc, out[sc])
            except ParamError as err:
                raise ConfigError(f"config key '{sc}.{err.key}': {err.why}") from err
            except ValueError as err:
                raise ConfigError(f"config key '{sc}': {err}") from err
    return out


def together_with(name: str) -> list[str]:
    """The scenarios a run of ``name`` names: its set of its folder's ``paper.TOGETHER`` if it is in one, else it."""
    folder = _SCENARIOS[name].folder
    groups = getattr(importlib.import_module(f"{folder}.paper"), "TOGETHER", ()) if folder else ()
    return next((list(g) for g in groups if name in g), [name])


def _together(names: list[str]) -> None:
    """A folder's ``paper.TOGETHER`` (sets of its scenarios whose claims one check decides across their tables):
    the config's ``scenarios`` names all of a set or none of it, else nothing of the set would be decided."""
    folders = dict.fromkeys(_SCENARIOS[n].folder for n in names if _SCENARIOS[n].folder)
    for folder in folders:
        for group in getattr(importlib.import_module(f"{folder}.paper"), "TOGETHER", ()):
            given = [n for n in group if n in names]
            if given and len(given) < len(group):
                raise ConfigError(f"config key 'scenarios': {', '.join(group)} are decided together (one check across "
                                  f"their tables); name all of them or none (given: {given})")


def registered_papers(packages: list[str], preset: str, schema: dict | None = None,
                      overrides: dict | None = None) -> dict[str, dict]:
    """Config key ``papers``: each package registered (``dpregret.papers.register``) and its
    scenarios' parameters of ``preset`` (its ``PRESETS``, merged with the config's top-level key of the scenario
    in ``overrides`` as a built-in scenario's preset is, then checked against its folder's part of the
    schema if it ships one, as a built-in folder's: ``config.schema.yaml``, whose definitions may name
    the shared ones of ``schema``; then by its ``validate(params)`` if it has one).
    ``{package: {scenario: params}}``."""
    out = {}
    for pkg in packages:
        try:
            mod = register(pkg)
        except ValueError as err:
            raise ConfigError(str(err)) from err
        if preset not in mod.PRESETS:
            raise ConfigError(f"config key 'papers': {pkg}.paper.PRESETS defines presets {sorted(mod.PRESETS)}, "
                              f"not {preset!r}")
        part = fragment(pkg)
        if part is not None:
            defs = {**(schema or load_schema())["definitions"], **part["definitions"]}
        out[pkg] = {}
        for s in mod.SCENARIOS:
            params = copy.deepcopy(mod.PRESETS[preset].get(s.name))
            if not isinstance(params, dict) or "replicates" not in params:
                raise ConfigError(f"config key 'papers': {pkg}.paper.PRESETS[{preset!r}][{s.name!r}] must be a dict "
                                  "of the scenario's parameters with 'replicates'")
            params = _merge(params, (overrides or {}).get(s.name) or {})
            if part is not None and s.name in part["definitions"]:
                required = part.get("required_in_presets", {}).get(s.name, [])
                validate(params,
                         {"definitions": defs, "allOf": [{"$ref": f"#/definitions/{s.name}"}, {"required": required}]},
                         where=f"config key 'papers': {pkg}, scenario {s.name}: key")
            if hasattr(mod, "validate"):
                try:
                    mod.validate(s.name, params)
                except ValueError as err:
                    raise ConfigError(f"config key 'papers': {pkg}, scenario {s.name}: {err}") from err
            out[pkg][s.name] = params
    return out


def replicate_chunks(replicates: int, chunk_size: int) -> list[range]:
    """Replicates 0..R-1 split into consecutive chunks (a job each)."""
    return [range(i, min(i + chunk_size, replicates)) for i in range(0, replicates, chunk_size)]


def user_learners(learners: dict, scenarios: list[str]) -> dict[str, dict]:
    """Config key ``learners`` (``{name: {make: "module:Callable", setting: ...}}``): each user
    learner importable, and the claims it gets (``dpregret.core.contract``): those of its
    setting among the run's scenarios.  ``{name: {"make", "setting", "claims"}}``; a learner that
    cannot be loaded, or whose setting has no claim in this run, stops the run before any job."""
    from dpregret.core.protocols import load_learner
    from dpregret.core.protocols import check_signature
    from dpregret.core.contract import check_name, user_claims

    from dpregret.pipeline.nonlearners import PREFIX

    claims = user_claims()
    out = {}
    for name, spec in learners.items():
        key = f"config key 'learners.{name}'"
        if name.startswith(PREFIX):
            raise ConfigError(f"{key}: names starting with {PREFIX!r} are the built-in non-learners' (config key "
                              "'nonlearners'); allowed: any other identifier")
        try:
            make = load_learner(spec["make"])
        except (ImportError, AttributeError, ValueError) as e:
            raise ConfigError(f"{key}: cannot load {spec['make']!r} ({e}); allowed: an importable "
                              "module:Callable") from None
        try:
            check_signature(make, spec["setting"])
        except ValueError as e:
            raise ConfigError(f"{key}: {e}") from None
        mine = sorted(c for c, uc in claims.items() if uc.setting == spec["setting"] and uc.scenario in scenarios)
        if not mine:
            have = sorted({(uc.setting, uc.scenario) for uc in claims.values()})
            raise ConfigError(f"{key}: no claim of setting {spec['setting']!r} in this run's scenarios {scenarios}; "
                              f"allowed (setting, scenario): {have}")
        for c in mine:
            try:
                check_name(name, claims[c])
            except ValueError as e:
                raise ConfigError(f"{key}: {e}") from None
        out[name] = {"make": spec["make"], "setting": spec["setting"], "claims": mine}
    return out
