"""Run the mutation suite: each mutant's target claims decided on a small instance, once on
the library as it is and once with the mutant patched in.

The instances are the smoke preset of ``config/config.yaml`` at small grids (chosen for cost: the
whole suite runs in about 150 s of CPU in the workflow's one job).  Each paper folder declares its
own in its module ``instances`` (its grids ``SMALL``, their base scenarios ``BASE``, the instance
deciding each of its claims ``instance_of`` and the deciders ``INSTANCES``; the declarations and
the ``Ctx`` / ``Outcome`` they use are :mod:`dpregret.verdict.instances`); this module collects
them from every paper folder's ``instances`` module (``dpregret.pipeline.registry.folder_modules``; a registered paper's
too) and adds the privacy audits' instance, ``audit``, which spans the papers.  An instance decides the claims
of one scenario; a claim decided on a grid of its own has an instance of its own, which only the
mutants targeting it pay for, and every claim is decided on the same instance whatever the other
claims decided with it.  Each claim is decided by the same scenario ``simulate`` functions and the
same claims ``evaluate`` / ``run_audit`` functions as the pipeline's rules (``workflow/rules/*.smk``),
and recorded through :func:`dpregret.verdict.core.record`, so the verdict is the pipeline's verdict
rule (a PASS whose control is not caught is INCONCLUSIVE).  Where the control would cost most of
the budget it is not run and the raw verdict of the check is reported
(``verdict_rule = "raw"``); only FAIL counts, which the rule never changes.

A mutant is *caught* by a target claim when the mutated verdict is FAIL and the unpatched
verdict is not (for an audit: the eps lower bound exceeds the claim); an exception raised by
the mutated library is reported as ``ERROR`` and counted as caught (the pipeline would stop).
A mutant is caught when one of its targets catches it.
"""
from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path

from dpregret.pipeline.mutation.registry import MUTANTS, Mutant
from dpregret.pipeline.registry import folder_modules
from dpregret.verdict.instances import Ctx, Outcome


def _collect() -> tuple[dict, dict, dict[str, Callable[[Ctx, Iterable[str]], dict[str, Outcome]]], list]:
    """Every paper folder's instances (module ``<folder>.instances``, optional) and the audit instance:
    (grids, base scenarios, deciders, the folders' ``instance_of`` functions)."""
    # the privacy audits' instance (the audits span the papers): 20 000 samples, and more for the audits the
    # paper folders name (their instances' AUDIT_SAMPLES: where a mutant's catch is close at 20 000)
    small = {"audit": {"samples": 20000, "samples_by_claim": {}}}
    bases, deciders, finders = {"audit": "audit"}, {"audit": _audit}, []
    for key, mod in folder_modules("instances").items():  # a paper without them: its claims are no mutant's targets
        taken = sorted(set(mod.INSTANCES) & set(deciders))
        if taken:
            raise ValueError(f"{mod.__name__} declares instances {taken}, names already taken")
        small.update(mod.SMALL)
        bases.update(mod.BASE)
        deciders.update(mod.INSTANCES)
        small["audit"]["samples_by_claim"].update(getattr(mod, "AUDIT_SAMPLES", {}))
        finders.append(mod.instance_of)
    return small, bases, deciders, finders


def default_config_path() -> Path:
    from dpregret.pipeline.config import SCHEMA_PATH

    return SCHEMA_PATH.parents[3] / "config" / "config.yaml"


def load_settings(path: str | Path | None = None) -> dict:
    """``{"base": smoke preset, "tolerances", "seed", "alpha"}`` from the pipeline's config."""
    import yaml

    with open(path or default_config_path()) as fh:
        cfg = yaml.safe_load(fh)
    return {"base": cfg["presets"]["smoke"], "tolerances": cfg.get("tolerances", {}), "seed": int(cfg["seed"]),
            "alpha": round(1 - float(cfg["ci_level"]), 12)}


def workflow_settings(path: str | Path | None = None) -> dict:
    """The settings the workflow's rule mutation_run passes (its ``params``): :func:`load_settings` with the
    run's effective tolerances (the config's over the folders' ``paper.TOLERANCES``) at the config's preset."""
    import yaml

    from dpregret.pipeline.config import effective

    with open(path or default_config_path()) as fh:
        cfg = yaml.safe_load(fh)
    return {**load_settings(path), "tolerances": effective(cfg)["tolerances"]}


def verdict(o: Outcome, alpha: float) -> tuple[str, str]:
    """(recorded verdict, rule used): :func:`record`'s verdict when the control ran, else raw."""
    if o.control is None:
        return o.result.verdict, "raw"
    from dpregret.verdict.core import record

    rec = record(o.claim, o.result, o.control, scenario="mutation", env=o.env, ci_level=1 - alpha)
    return rec["result"]["verdict"], "record"


# --- instances ----------------------------------------------------------------------------------
def audit_samples(ctx: Ctx, cid: str) -> int:
    """The audit's sample count for ``cid``: ``samples_by_claim`` where declared, else ``samples``."""
    p = ctx.params("audit")
    return int(p.get("samples_by_claim", {}).get(cid, p["samples"]))


def _audit(ctx: Ctx, cids) -> dict[str, Outcome]:
    from dpregret.verdict.privacy_audit import run_audit
    from dpregret.pipeline.registry import audit_specs

    specs = audit_specs()  # built afresh from the library as (maybe) patched
    out = {}
    for cid in cids:
        spec = specs[cid]
        # (result, primary control[, secondary controls])
        decided = run_audit(spec, audit_samples(ctx, cid), ctx.alpha, ctx.seed)
        out[cid] = Outcome(spec.claim, decided[0], decided[1])
    return out


# The instances of every paper and the audit's, collected once (the papers registered when the runner
# is imported: a job registers the config's from the environment when dpregret.papers is imported).
SMALL, BASE, INSTANCES, _FINDERS = _collect()


def instance_of(cid: str) -> str:
    """The instance deciding claim ``cid``: ``audit`` for an audit, else its paper folder's choice."""
    if cid.startswith("AUDIT-"):
        return "audit"
    for find in _FINDERS:
        inst = find(cid)
        if inst is not None:
            return inst
    raise KeyError(f"no small instance decides claim {cid!r}")


def decide(ctx: Ctx, cids: Iterable[str]) -> dict[str, dict]:
    """Verdicts of the claims ``cids`` on their small instances (one evaluation per instance)."""
    by_inst: dict[str, list[str]] = {}
    for cid in cids:
        by_inst.setdefault(instance_of(cid), []).append(cid)
    out = {}
    for inst, ids in by_inst.items():
        try:
            outcomes = INSTANCES[inst](ctx, ids)
        except Exception as err:  # noqa: BLE001 - a mutant that crashes the run is reported, not raised
            msg = f"{type(err).__name__}: {err}"
            for cid in ids:
                out[cid] = {"instance": inst, "verdict": "ERROR", "rule": "error", "measured": float("nan"),
                            "error": msg, "traceback": traceback.format_exc(limit=4)}
            continue
        for cid in ids:
            o = outcomes[cid]
            v, rule = verdict(o, ctx.alpha)
            out[cid] = {"instance": inst, "verdict": v, "rule": rule, "measured": float(o.result.measured),
                        "env": o.env or ""}
    return out


# --- the suite ----------------------------------------------------------------------------------
def _settings_ctx(settings: dict | None) -> Ctx:
    s = settings or load_settings()
    return Ctx(s["base"], s.get("tolerances", {}), int(s["seed"]), float(s["alpha"]), SMALL, BASE)


def run_mutant(name: str, settings: dict | None = None, cache: dict | None = None) -> dict:
    """Decide the mutant's targets unpatched and with the mutant; a JSON-able dict.

    ``settings``: :func:`load_settings`'s dict (default: the repository's config);
    ``cache``: unpatched verdicts by claim id, shared between mutants of one process."""
    m: Mutant = MUTANTS[name]
    ctx = _settings_ctx(settings)
    t0 = time.perf_counter()
    cache = {} if cache is None else cache
    todo = [c for c in m.targets if c not in cache]
    if todo:
        cache.update(decide(ctx, todo))
    t1 = time.perf_counter()
    error = None
    try:
        with m.patch():
            mutated = decide(ctx, m.targets)
    except Exception as err:  # noqa: BLE001 - the mutant could not be applied (library changed)
        error = f"{type(err).__name__}: {err}"
        mutated = {c: {"instance": instance_of(c), "verdict": "NOT_APPLIED", "rule": "error",
                       "measured": float("nan")} for c in m.targets}
    t2 = time.perf_counter()
    targets = {}
    for cid in m.targets:
        u, x = cache[cid], mutated[cid]
        caught = error is None and u["verdict"] not in ("FAIL", "ERROR") and x["verdict"] in ("FAIL", "ERROR")
        targets[cid] = {"instance": u["instance"], "env": u.get("env", ""), "unpatched": u["verdict"],
                        "mutated": x["verdict"], "caught": caught,
                        "verdict_rule": x["rule"] if x["rule"] != "error" else u["rule"],
                        "measured_unpatched": u["measured"], "measured_mutated": x["measured"],
                        **({"error": x["error"]} if "error" in x else {})}
    caught_by = [c for c, t in targets.items() if t["caught"]]
    why = "" if caught_by else (m.known_missed or error or "; ".join(
        f"{c}: {t['unpatched']} unpatched, {t['mutated']} mutated" for c, t in targets.items()))
    return {"name": m.name, "paper": m.paper, "category": m.category, "doc": m.doc, "targets": targets,
            "diff": m.diff(), "known_missed": m.known_missed, "caught": bool(caught_by), "caught_by": caught_by,
            "why_missed": why, "error": error, "seconds": round(t2 - t0, 3), "seconds_unpatched": round(t1 - t0, 3),
            "seconds_mutated": round(t2 - t1, 3)}


def unpatched_verdicts(settings: dict | None = None, names: Iterable[str] | None = None) -> dict[str, dict]:
    """The unpatched verdicts of every target claim of the mutants ``names`` (default: all), each
    decided once: the ``cache`` :func:`run_mutant` takes (rule mutation_run computes it once
    for all mutants instead of once per mutant; the same verdicts, run_mutant's own
    ``decide`` of the same claims on the same instances)."""
    ctx = _settings_ctx(settings)
    cids = list(dict.fromkeys(c for n in (names or MUTANTS) for c in MUTANTS[n].targets))
    return decide(ctx, cids)


def summary(records: list[dict]) -> dict:
    """The merged result: score = caught / total, and one entry per mutant."""
    n = len(records)
    caught = sum(r["caught"] for r in records)

    def by(key):
        out: dict[str, dict] = {}
        for r in records:
            c = out.setdefault(r[key], {"caught": 0, "total": 0})
            c["caught"] += int(r["caught"])
            c["total"] += 1
        return out
    return {"score": caught / n if n else float("nan"), "caught": caught, "total": n,
            "missed": [r["name"] for r in records if not r["caught"]],
            "missed_known": [r["name"] for r in records if not r["caught"] and r["known_missed"]],
            "by_paper": by("paper"), "by_category": by("category"),
            "seconds": round(sum(r["seconds"] for r in records), 3), "mutants": records}


def run_all(names: Iterable[str] | None = None, settings: dict | None = None, progress=None) -> dict:
    """Every mutant (or ``names``), sharing unpatched verdicts, decided first in one evaluation per
    instance (:func:`unpatched_verdicts`, as the workflow's rule mutation_unpatched); :func:`summary`
    of the records."""
    settings = settings or load_settings()
    names = list(names or MUTANTS)
    cache: dict = unpatched_verdicts(settings, names)
    records = []
    for name in names:
        rec = run_mutant(name, settings, cache)
        records.append(rec)
        if progress:
            progress(rec)
    return summary(records)


def table(result: dict) -> str:
    """A plain-text caught/missed table of :func:`run_all`'s result."""
    lines = [f"{'mutant':36s} {'target':32s} {'unpatched':12s} {'mutated':12s} {'':6s} {'s':>6s}"]
    for r in result["mutants"]:
        for i, (cid, row) in enumerate(r["targets"].items()):
            mark = "caught" if row["caught"] else "missed"
            lines.append(f"{r['name'] if i == 0 else '':36s} {cid:32s} {row['unpatched']:12s} "
                         f"{row['mutated']:12s} {mark:6s} {r['seconds'] if i == 0 else '':>6}")
    lines.append(f"score: {result['caught']}/{result['total']} = {result['score']:.2f}   "
                 f"({result['seconds']:.1f} s)")
    return "\n".join(lines)
