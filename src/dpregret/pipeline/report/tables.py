"""The machine-readable claims table (``results/claims.csv``)."""
from __future__ import annotations

import json
import math

import pandas as pd

from dpregret.verdict.core import loose_fields, twin_fields

COLUMNS = ["claim_id", "paper", "theorem", "kind", "statement", "verdict", "measured", "bound", "ci_low",
           "ci_high", "ci_of", "tolerance", "ci_level", "control", "control_verdict", "control_measured",
           "control_ci_low", "control_ci_high", "control_caught", "control_margin", "control_margin_unit", "evidence",
           "near_miss", "secondary", "secondary_caught", "reason", "history", "scenario", "env",
           "learner", "applies_to",
           "margin", "decision_distance", "borderline", "learner_claim", "nonlearner", "nonlearner_verdict",
           "nonlearner_caught", "nonlearner_margin", "learning_gate", "twin", "twin_verdict", "twin_caught",
           "twin_margin", "twin_blind", "detectable_factor", "worst_case_search"]

# A non-learner's own record (the claim decided for the trivial learner, through the door a user's learner
# takes) is the non-learner control of the paper's claim: it is shown there, not as a claim of its own.
NONLEARNER_PREFIX = "nonlearner_"

# A claim is borderline when an interval that decides it lies within this distance of its threshold, in units
# of the interval's width, so that another root seed could move its verdict.  Half a width since 2026-11-26
# (a quarter before): at the second seeds 31337 and 777 the one decided verdict that moved,
# ENV-lemmaC.2-bound, had stood 0.36 widths clear at the default seed (PASS -> INCONCLUSIVE at 777);
# every claim clear by more than 0.5 kept its verdict at all three seeds.
BORDERLINE_WIDTHS = 0.5


def decision_distance(c: dict) -> float:
    """How far the claim's verdict is from moving, in widths of its interval: the distance of the
    interval end nearest its threshold (the check's FAIL-side margin m: a FAIL is m widths past it,
    a PASS -1 - m short of it, an INCONCLUSIVE min(|m|, |1 + m|) from either); where the verdict
    turns on the primary control, also its margin: a PASS needs it caught, a LOOSE bound (and an
    INCONCLUSIVE "control not caught") becomes a PASS when it is; so do its non-learner's and mis-tuned twin's
    margins (a PASS needs both caught).  NaN where no interval decides (exact
    checks, privacy audits, whose margins are fractions of the claimed eps, checks outside the regime)."""
    d = c["result"]["detail"]
    m = d.get("margin", float("nan"))
    if c["kind"] in ("exact", "privacy") or "not_in_regime" in d or not isinstance(m, (int, float)) \
            or d.get("margin_unit"):
        return float("nan")
    m = float(m)
    if not math.isfinite(m):
        return float("nan")
    dist = min(abs(m), abs(1.0 + m))
    passed = c["result"]["verdict"] in ("PASS", "LOOSE") or "control_not_caught" in d
    cm = c.get("control_margin", float("nan"))
    if passed and c.get("control_margin_unit",
                        "interval widths") == "interval widths" and isinstance(cm, (int, float)) \
            and math.isfinite(cm):
        dist = min(dist, abs(float(cm)))
    for ctl in ("nonlearner", "twin"):  # a PASS turns on its non-learner and mis-tuned twin being caught too
        x = d.get(ctl)
        xm = x.get("margin") if isinstance(x, dict) else None
        if passed and isinstance(xm, (int, float)) and math.isfinite(xm) and not x.get("detail", {}).get("margin_unit"):
            dist = min(dist, abs(float(xm)))
    return dist


def learner_of(claim_id: str) -> str:
    """``paper`` for the paper's own algorithm, else the user learner's name (``<claim>--learner-<name>``)."""
    env = claim_id.partition("--")[2]
    return env.removeprefix("learner-") if env.startswith("learner-") else "paper"


def applicability(claim_id: str) -> str:
    """What a claim applies to: any learner of a setting when the scenario
    contract declares it for user learners (``dpregret.core.contract``), otherwise only the
    paper's algorithm with its parameters (an explicit bound that needs its eta or lambda, a
    structural property, an audit of its code)."""
    from dpregret.core.contract import user_claims

    uc = user_claims().get(claim_id.split("--")[0])
    return f"any {uc.setting} learner, {uc.signature}" if uc else "the paper's algorithm and parameters"



def undecided_reason(c: dict) -> str:
    """Why a claim is not a plain PASS, in one line (empty for a PASS on a caught near miss).  A LOOSE
    bound: its slack (worst ratio, detectable factor, the worst-case search); a bound PASS refused
    LOOSE: why ("control not caught; no worst-case search recorded"), then the claim's own account."""
    d = c["result"]["detail"]
    if c["result"]["verdict"] == "LOOSE" and "loose" in d:
        return str(d["loose"])
    if "loose_refused" in d and c["result"]["verdict"] == "INCONCLUSIVE":
        return str(d["loose_refused"]) + (f" -- {d['numbered_reason']}" if "numbered_reason" in d else "")
    if "numbered_reason" in d and c["result"]["verdict"] != "PASS":  # a claim's own account of why it stays undecided
        return str(d["numbered_reason"])
    if c["result"]["verdict"] == "FAIL" and d.get("failures"):  # a deterministic counterexample
        return "counterexample: " + str(d["failures"][0])
    if c["result"]["verdict"] == "INCONCLUSIVE":  # every reason the record gives, the regime's first, numbered
        gate = d.get("learning_gate")
        why = [str(d[k]) for k in ("not_in_regime",) if k in d]
        if isinstance(gate, dict) and gate.get("verdict") == "FAIL" and "learning_not_shown" not in d:
            # a learner stopped by its learning gate: that is the reason a user needs, before any other
            return (f"the learner does not learn (learning gate: "
                    f"{gate.get('detail', {}).get('gate', 'learning gate')}; measured "
                    f"{gate.get('measured', float('nan')):.4g} against {gate.get('bound', float('nan')):.4g})")
        why += [str(d[k]) for k in ("diverged", "fail_not_confirmed", "control_not_caught", "learning_not_shown",
                                    "nonlearner_passes", "twin_not_caught", "reason") if k in d]
        if not why:
            return "the interval straddles the threshold"
        return why[0] if len(why) == 1 else " ".join(f"{i}. {w};" for i, w in enumerate(why, 1)).rstrip(";")
    for key in ("diverged", "fail_not_confirmed", "control_not_caught", "learning_not_shown", "nonlearner_passes",
                "twin_not_caught", "reason", "not_in_regime"):
        if key in d:
            return str(d[key])
    return c.get("evidence", "") if c.get("evidence") == "catches only gross errors" else ""


def load_claims(paths: list[str]) -> list[dict]:
    out = []
    for p in sorted(paths):
        with open(p) as fh:
            out.append(json.load(fh))
    return out


def claims_table(paths: list[str]) -> pd.DataFrame:
    rows = []
    for c in load_claims(paths):
        if learner_of(c["claim_id"]).startswith(NONLEARNER_PREFIX):
            continue
        r, k = c["result"], c["control_result"]
        rows.append({"claim_id": c["claim_id"], "paper": c["paper"], "theorem": c["theorem"], "kind": c["kind"],
                     "statement": c["statement"], "verdict": r["verdict"], "measured": r["measured"],
                     "bound": r["bound"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                     "ci_of": r["detail"].get("ci_of", ""),
                     "tolerance": r["tolerance"], "ci_level": c["ci_level"], "control": c["control"],
                     "control_verdict": k["verdict"], "control_measured": k["measured"],
                     "control_ci_low": k["ci_low"], "control_ci_high": k["ci_high"],
                     "control_caught": c.get("control_caught", k["verdict"] == "FAIL"),
                     "control_margin": c.get("control_margin", float("nan")),
                     "control_margin_unit": c.get("control_margin_unit", ""), "evidence": c.get("evidence", ""),
                     "near_miss": c.get("near_miss", True), "secondary": c.get("secondary", ""),
                     "secondary_caught": "; ".join(f"{n}: {'caught' if v['caught'] else 'not caught'}"
                                                   for n, v in c.get("secondary_results", {}).items()),
                     "reason": undecided_reason(c),
                     "history": " | ".join(f"{h.get('date', '')}: {h.get('change', '')} ({h.get('reason', '')})"
                                           for h in c.get("history", [])),
                     "scenario": c["scenario"], "env": c["env"], "learner": learner_of(c["claim_id"]),
                     "applies_to": applicability(c["claim_id"]),
                     "margin": r["detail"].get("margin", float("nan")), "decision_distance": decision_distance(c),
                     "borderline": bool(decision_distance(c) < BORDERLINE_WIDTHS),
                     **{k: c.get(k, d) for k, d in (("learner_claim", c["kind"] in ("bound", "rate", "comparison")),
                                                    ("nonlearner", ""), ("nonlearner_verdict", ""),
                                                    ("nonlearner_caught", False), ("nonlearner_margin", float("nan")),
                                                    ("learning_gate", ""))},
                     **twin_fields(r), **loose_fields(r)})
    return pd.DataFrame(rows, columns=COLUMNS)
