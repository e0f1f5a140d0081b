"""The workflow's three jobs, one generic script each (``workflow/scripts/{simulate,check,plot}.py``).

Every rule names its job group (``params.group``) and passes its params; the group decides
which library code runs, by one convention:

- simulate: ``dpregret.scenarios.<module>.simulate_job(params, wildcards, outputs)`` writes the
  rule's outputs (the module from the scenario registry, ``dpregret.papers.SCENARIOS``); the
  group ``user`` runs a user's learner beside the paper's (``dpregret.scenarios.contract``);
- check: ``dpregret.claims.<module>.check_job(params, tables)`` returns the claims' records and
  any further tables (``{output name: DataFrame}``, written as CSV); ``user`` decides a claim for a
  user's learner (``dpregret.api.decide_user_claim``) and draws it;
- plot: :data:`PLOTS` maps the group to its figures, drawn to the rule's outputs in order
  (``dpregret.report.figure_map``).

Every job first requires the pinned arithmetic (:func:`dpregret.cpu.require_pinned`): the
workflow starts its jobs with it, so their numbers are the same on every x86-64 CPU.

Inputs are read by suffix: ``.parquet`` as a DataFrame, ``.json`` as a record (a list of them
for a list of files).
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path

import pandas as pd

from . import cpu

# check group -> claims module (groups absent here check nothing)
CHECKS = {"as17_experts": "as17_experts", "as17_tables": "as17_tables", "ztc22": "ztc22", "env21": "env21",
          "vdh19": "vdh19"}


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
    from .papers import SCENARIOS

    if group not in SCENARIOS or SCENARIOS[group].scenario_module is None:
        raise ValueError(f"simulate group must be one of {sorted(SCENARIOS)} or 'user', got {group!r}")
    importlib.import_module(SCENARIOS[group].scenario_module).simulate_job(params, wildcards, outputs)


def check(group: str, params: dict, inputs: dict, outputs: dict, wildcards: dict | None = None) -> list[dict]:
    """Decide and write: every record to ``results/claims/<claim_id>.json`` (which must be among
    the rule's outputs), every further table to its named output.  Returns the records."""
    cpu.require_pinned(f"the check job {group}")
    tables = read_inputs(inputs)
    if group == "user":
        from .api import decide_user_claim

        runs = pd.concat(tables["runs"], ignore_index=True)
        w = wildcards or {}
        run = params["run"]
        records, extra = [decide_user_claim(w["claim"], w["name"], run["learners"][w["name"]]["make"], runs, run,
                                            figure=outputs["figure"])], {}
    elif group in CHECKS:
        records, extra = importlib.import_module(f"dpregret.claims.{CHECKS[group]}").check_job(params, tables)
    else:
        raise ValueError(f"check group must be one of {sorted(CHECKS)} or 'user', got {group!r}")
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


def _user_simulate(params: dict, wildcards: dict, outputs: list[str]) -> None:
    from .api import load_learner
    from .scenarios.contract import user_claims

    run = params["run"]
    uc = user_claims()[wildcards["claim"]]
    p = run[uc.scenario]
    point = {str(x): x for x in uc.points(p)}[wildcards["point"]]
    name = wildcards["name"]
    df = uc.simulate(p, point, range(int(p["replicates"])), run["seed"], {name: load_learner(run["learners"][name]["make"])})
    df.to_parquet(outputs[0], index=False)
    print(len(df), "rows")


def _plot_as17_experts(t, params, outputs):
    from .report.figures import as17_experts_figures
    as17_experts_figures(t["runs"], t["d_noise"], params["p"], params["alpha"], outputs)


def _plot_as17_tables(t, params, outputs):
    from .report.figures import as17_tables_figures
    mab = t["mab"]
    as17_tables_figures(t["olo"], mab[mab.env == "stochastic"], t["blo"],
                        {k: params[k] for k in ("olo", "mab", "blo")}, params["alpha"], outputs, seed=params["seed"])


def _plot_ztc22(t, params, outputs):
    from .report.figures import ztc22_figures, ztc22_linear_T_figure, ztc22_param_free_figure
    p, alpha = params["p"], params["alpha"]
    ztc22_figures(t["rates"], t["optimistic"], t["strongly_convex"], t["rho_d"], p, alpha, outputs,
                  minimax=t["minimax"])
    ztc22_param_free_figure(t["param_free"], p, alpha, outputs[5])
    ztc22_linear_T_figure(t["linear_T"], p, alpha, outputs[6])


def _plot_scenario(scenario):
    def plot(t, params, outputs):
        figures = importlib.import_module(f"dpregret.report.figures_{scenario}")
        getattr(figures, f"{scenario}_figures")(t, params["p"], params["alpha"], outputs)
    return plot


# plot group -> the function that draws its figures (in the order of figure_map.FIGURES[group])
PLOTS = {"as17_experts": _plot_as17_experts, "as17_tables": _plot_as17_tables, "ztc22": _plot_ztc22,
         "env21": _plot_scenario("env21"), "vdh19": _plot_scenario("vdh19")}


def plot(group: str, params: dict, inputs: dict, outputs: list[str]) -> None:
    if group not in PLOTS:
        raise ValueError(f"plot group must be one of {sorted(PLOTS)}, got {group!r}")
    PLOTS[group](read_inputs(inputs), params, outputs)
