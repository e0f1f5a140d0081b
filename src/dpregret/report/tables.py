"""The machine-readable claims table (``results/claims.csv``)."""
from __future__ import annotations

import json

import pandas as pd

COLUMNS = ["claim_id", "paper", "theorem", "kind", "statement", "verdict", "measured", "bound", "ci_low",
           "ci_high", "ci_of", "tolerance", "ci_level", "control", "control_verdict", "control_measured",
           "control_ci_low", "control_ci_high", "scenario", "env"]


def load_claims(paths: list[str]) -> list[dict]:
    out = []
    for p in sorted(paths):
        with open(p) as fh:
            out.append(json.load(fh))
    return out


def claims_table(paths: list[str]) -> pd.DataFrame:
    rows = []
    for c in load_claims(paths):
        r, k = c["result"], c["control_result"]
        rows.append({"claim_id": c["claim_id"], "paper": c["paper"], "theorem": c["theorem"], "kind": c["kind"],
                     "statement": c["statement"], "verdict": r["verdict"], "measured": r["measured"],
                     "bound": r["bound"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                     "ci_of": r["detail"].get("ci_of", ""),
                     "tolerance": r["tolerance"], "ci_level": c["ci_level"], "control": c["control"],
                     "control_verdict": k["verdict"], "control_measured": k["measured"],
                     "control_ci_low": k["ci_low"], "control_ci_high": k["ci_high"],
                     "scenario": c["scenario"], "env": c["env"]})
    return pd.DataFrame(rows, columns=COLUMNS)
