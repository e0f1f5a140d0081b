"""The workflow's three jobs, one generic script each (``workflow/scripts/{simulate,check,plot}.py``).

Every rule names its job group (``params.group``) and passes its params; the group decides
which library code runs, by one convention:

- simulate: the scenario module's (``dpregret.papers.SCENARIOS``) ``simulate_job(params, wildcards,
  outputs)`` writes the rule's outputs, or, for a module without one (a registered paper's),
  :func:`generic_simulate` calls its ``simulate`` per output; the group ``user`` runs a user's
  learner beside the paper's (``dpregret.core.contract``);
- check: the claims module's ``check_job(params, tables)`` (:func:`groups`, from the folders'
  ``paper.GROUPS``, for Agarwal-Singh's groups; the folder's ``claims`` for a scenario of the generic rules; one with
  ``CLAIMS`` and
  ``evaluate`` alone goes through ``dpregret.verdict.core.evaluate_records``) returns the claims' records and
  any further tables (``{output name: DataFrame}``, written as CSV); ``user`` decides a claim for a
  user's learner (``dpregret.pipeline.api.decide_user_claim``) and draws it; ``nonlearner`` runs a built-in
  non-learner (``dpregret.pipeline.nonlearners``) through a door's every point and claim in one job
  (:func:`nonlearner_door`).  A check rule's input ``nonlearners`` (those records) is attached to
  the paper's records as their non-learner controls (:func:`attach_nonlearners`);
- plot: :func:`groups` maps Agarwal-Singh's groups to the drawing code in their folder, a scenario of
  the generic rules draws with its folder's ``figures.draw(tables, p, alpha, outputs)``; drawn to
  the rule's outputs in the order the folder
  declares them (its ``FIGURES``, collected by ``dpregret.pipeline.report.figure_map``).

Every job first requires the pinned arithmetic (:func:`dpregret.core.cpu.require_pinned`): the
workflow starts its jobs with it, so their numbers are the same on every x86-64 CPU.

Inputs are read by suffix: ``.parquet`` as a DataFrame, ``.json`` as a record (a list of them
for a list of files).
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path

import pandas as pd

from dpregret.core import cpu



def groups() -> dict[str, tuple[str, str]]:
    """job group -> (claims module, drawing function ``"module:function"``) of the groups that a folder
    runs by rules of its own (its ``paper.GROUPS``; Agarwal-Singh's); a scenario of the generic rules
    (``Scenario.generic``) checks with its folder's ``claims`` and draws with its ``figures.draw``."""
    from dpregret.pipeline.registry import folders

    return {g: job for mod in folders().values() for g, job in getattr(mod, "GROUPS", {}).items()}


def read_inputs(named: dict) -> dict:
    """``{name: path or [paths]}`` -> ``{name: DataFrame | record | [records]}``."""
    def one(path):
        if str(path).endswith(".json"):
            return json.loads(Path(path).read_text())
        return pd.read_parquet(path)
    return {k: [one(v) for v in vs] if isinstance(vs, list) else one(vs) for k, vs in named.items()}


def simulate(group: str, params: dict, wildcards: dict, outputs: list[str]) -> None:
    cpu.require_pinned(f"the simulate job {group}")
    if group == "user":
        return _user_simulate(params, wildcards, outputs)
    from dpregret.papers import SCENARIOS

    if group not in SCENARIOS or SCENARIOS[group].scenario_module is None:
        raise ValueError(f"simulate group must be one of {sorted(SCENARIOS)} or 'user', got {group!r}")
    mod = importlib.import_module(SCENARIOS[group].scenario_module)
    if not hasattr(mod, "simulate_job"):  # a registered paper's: its simulate() at each output's point and chunk
        return generic_simulate(group, mod, params, outputs)
    mod.simulate_job(params, wildcards, outputs)


def generic_simulate(scenario: str, mod, params: dict, outputs: list[str]) -> None:
    """A simulate job of the generic rules (workflow/rules/papers.smk) for a scenario module without
    its own ``simulate_job``: each output ``results/<scenario>/<experiment>/<point>/chunk<lo>-<hi>.parquet``
    is ``mod.simulate(p, experiment, point, replicates, seed)``."""
    import re

    for path in outputs:
        m = re.fullmatch(rf"results/{re.escape(scenario)}/(\w+)/([^/]+)/chunk(\d+)-(\d+)\.parquet", path)
        if m is None:
            raise ValueError(f"{path} is not results/{scenario}/<experiment>/<point>/chunk<lo>-<hi>.parquet")
        experiment, point, lo, hi = m.groups()
        df = mod.simulate(params["p"], experiment, point, range(int(lo), int(hi)), params["seed"])
        df.to_parquet(path, index=False)
        print(path, len(df), "rows")


def check(group: str, params: dict, inputs: dict, outputs: dict, wildcards: dict | None = None) -> list[dict]:
    """Decide and write: every record to ``results/claims/<claim_id>.json`` (which must be among
    the rule's outputs), every further table to its named output.  Returns the records."""
    cpu.require_pinned(f"the check job {group}")
    tables = read_inputs(inputs)
    if group == "nonlearner":
        records, extra = nonlearner_door(params, inputs, tables), {}
    elif group == "user":
        from dpregret.pipeline.api import decide_user_claim

        w = wildcards or {}
        run = params["run"]
        runs = user_runs(w["claim"], run, inputs, tables)
        records, extra = [decide_user_claim(w["claim"], w["name"], run["learners"][w["name"]]["make"], runs, run,
                                            figure=outputs.get("figure"))], {}
    elif group in groups():
        nonlearners = tables.pop("nonlearners", [])
        records, extra = importlib.import_module(groups()[group][0]).check_job(params, tables)
        records = attach_nonlearners(records, nonlearners)
    elif _generic(group):  # its folder's claims module: check_job(params, tables), else CLAIMS and evaluate()
        from dpregret.verdict.core import evaluate_records

        nonlearners = tables.pop("nonlearners", [])
        mod = importlib.import_module(f"{_generic(group).folder}.claims")
        records, extra = (mod.check_job(params, tables) if hasattr(mod, "check_job")
                          else (evaluate_records(mod, group, params, tables), {}))
        records = attach_nonlearners(records, nonlearners)
    else:
        raise ValueError(f"check group must be one of {sorted(groups())}, a generic scenario, 'user' or 'nonlearner', "
                         f"got {group!r}")
    declared = {str(p) for v in outputs.values() for p in (v if isinstance(v, list) else [v])}
    for rec in records:
        path = f"results/claims/{rec['claim_id']}.json"
        if path not in declared:
            raise ValueError(f"the check of {group} decided {rec['claim_id']}, which its rule does not declare")
        with open(path, "w") as fh:
            json.dump(rec, fh, indent=1, sort_keys=True, default=float)
        print(rec["claim_id"], rec["result"]["verdict"], "control:", rec["control_result"]["verdict"])
    for name, df in extra.items():
        df.to_csv(outputs[name], index=False)
    return records


def user_runs(claim: str, run: dict, inputs: dict, tables: dict) -> pd.DataFrame:
    """The table a user claim is decided on: the rule's per-point runs (``runs``, in the order of
    the claim's points), with the paper's rows from the pipeline's own tables (``paper``) where the
    claim takes them from there (``UserClaim.reuses_paper_rows``, ``contract.door_rows``)."""
    from dpregret.core.contract import door_rows, user_claims

    uc = user_claims()[claim]
    if not uc.reuses_paper_rows:
        return pd.concat(tables["runs"], ignore_index=True)
    p = run[uc.scenario]
    paths = inputs["paper"] if isinstance(inputs["paper"], list) else [inputs["paper"]]
    got = tables["paper"] if isinstance(tables["paper"], list) else [tables["paper"]]
    paper = {str(k): v for k, v in zip(paths, got)}
    points = uc.points(p)
    if len(points) != len(tables["runs"]):
        raise ValueError(f"{claim}: {len(tables['runs'])} tables of runs for {len(points)} points")
    return pd.concat([door_rows(uc, p, pt, u, paper) for pt, u in zip(points, tables["runs"])], ignore_index=True)


def attach_nonlearners(records: list[dict], nonlearners: list[dict]) -> list[dict]:
    """``records`` (a scenario check's) with each non-learner record of ``nonlearners``
    (``<claim>--learner-nonlearner_<setting>``) attached to the paper's record of its claim as its
    non-learner control (``dpregret.verdict.core.attach_nonlearner_record``).  The door of a claim decides one
    environment (``UserClaim.env``: e.g. AS17's user claims run on the stochastic sequence), so the
    record ``<claim>--<env>`` gets it; the claim's records of other environments carry
    ``nonlearner_note`` saying why they have none.  A record whose own check already ran a non-learner
    keeps it and gets the door's result beside it (``nonlearner_door``).  A non-learner record that
    matches no record is an error (a wiring mistake, not a silent loss)."""
    from dpregret.verdict.core import attach_nonlearner_record
    from dpregret.core.contract import user_claims

    claims = user_claims()
    by_id = {r["claim_id"]: i for i, r in enumerate(records)}
    out = list(records)
    for nl in nonlearners:
        base = nl["claim_id"].partition("--learner-")[0]
        uc = claims[base]
        target = f"{base}--{uc.env}" if uc.env else base
        if target not in by_id:
            raise ValueError(f"the non-learner record {nl['claim_id']} has no paper record {target} in this check")
        rec = out[by_id[target]]
        # the claim's own check ran a non-learner: it stands, the door's beside
        if "nonlearner" in rec["result"]["detail"]:
            out[by_id[target]] = {**rec, "nonlearner_door": {"claim_id": nl["claim_id"], **nl["result"]}}
        else:
            out[by_id[target]] = attach_nonlearner_record(rec, nl)
        for i, r in enumerate(out):
            if r.get("base_id") == base and r["claim_id"] != target:
                out[i] = {**r, "nonlearner_note": f"no non-learner control here: the claim's door (a user's learner's "
                                                   f"and the non-learner's) runs on the {uc.env} environment only "
                                                   f"({target})"}
    return out


def nonlearner_door(params: dict, inputs: dict, tables: dict) -> list[dict]:
    """One built-in non-learner (``params["name"]``, ``dpregret.pipeline.nonlearners``) through one door
    (``params["door"]``) in one job: its rows at every point of the door (``UserClaim.user_rows``,
    as ``user_simulate`` makes them), the paper's rows from the pipeline's tables (input ``paper``,
    as ``user_check`` takes them) and every claim of the door decided by ``api.decide_user_claim``,
    as ``user_check`` decides a user's learner.  (A job per point and claim would cost a process
    start, 2-3 s of CPU, for a learner that does nothing.)"""
    from dpregret.pipeline.api import decide_user_claim, load_learner
    from dpregret.core.contract import door_rows, user_claims

    run, name, door = params["run"], params["name"], params["door"]
    spec = run["learners"][name]
    ucs = [uc for cid, uc in user_claims().items() if uc.door_id == door and cid in spec["claims"]]
    if not ucs or not all(uc.reuses_paper_rows for uc in ucs):
        raise ValueError(f"door {door!r}: no claim of {name} that takes the paper's rows from the pipeline's tables")
    uc0 = ucs[0]
    p = run[uc0.scenario]
    make = {name: load_learner(spec["make"])}
    reps = range(int(p["replicates"]))
    user = {pt: uc0.user_rows(p, pt, reps, run["seed"], make) for pt in uc0.points(p)}
    paths = inputs["paper"] if isinstance(inputs["paper"], list) else [inputs["paper"]]
    got = tables["paper"] if isinstance(tables["paper"], list) else [tables["paper"]]
    paper = {str(k): v for k, v in zip(paths, got)}
    records = []
    for uc in ucs:
        runs = pd.concat([door_rows(uc, p, pt, user[pt], paper) for pt in uc.points(p)], ignore_index=True)
        records.append(decide_user_claim(uc.claim, name, spec["make"], runs, run))
    return records


def _user_simulate(params: dict, wildcards: dict, outputs: list[str]) -> None:
    """One point of a user claim's simulation for one learner: the learner's rows only where the
    claim takes the paper's rows from the pipeline's tables, else the whole table of ``simulate``.
    ``door`` names the simulation, shared by the claims of one door (``UserClaim.door``)."""
    from dpregret.pipeline.api import load_learner
    from dpregret.core.contract import user_claims

    run = params["run"]
    door = wildcards.get("door", wildcards.get("claim"))
    uc = next(u for u in user_claims().values() if u.door_id == door)
    p = run[uc.scenario]
    point = {str(x): x for x in uc.points(p)}[wildcards["point"]]
    name = wildcards["name"]
    make = {name: load_learner(run["learners"][name]["make"])}
    sim = uc.user_rows if uc.reuses_paper_rows else uc.simulate
    df = sim(p, point, range(int(p["replicates"])), run["seed"], make)
    df.to_parquet(outputs[0], index=False)
    print(len(df), "rows")


def _generic(group: str):
    """The scenario ``group`` of the generic rules (``Scenario.generic``), or None."""
    from dpregret.papers import SCENARIOS

    sc = SCENARIOS.get(group)
    return sc if sc is not None and sc.generic else None


def plot(group: str, params: dict, inputs: dict, outputs: list[str]) -> None:
    if _generic(group):  # its folder's figures module: draw(tables, p, alpha, outputs)
        mod = importlib.import_module(f"{_generic(group).folder}.figures")
        return mod.draw(read_inputs(inputs), params["p"], params["alpha"], outputs)
    if group not in groups():
        raise ValueError(f"plot group must be one of {sorted(groups())} or a generic scenario, got {group!r}")
    module, _, function = groups()[group][1].partition(":")
    getattr(importlib.import_module(module), function)(read_inputs(inputs), params, outputs)
