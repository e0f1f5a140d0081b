"""Layout of the regenerated Tables 1 and 2 (Agarwal and Singh): which claim gives which
measured exponent of which row.  ``tables_frame`` joins this layout with decided claims."""
from __future__ import annotations

import pandas as pd

# (table, row label, paper's bound, quantity, claimed exponent, base claim id)
LAYOUT = [
    (1, "Prediction with expert advice", "O(sqrt(T log N) + N log N log^2 T / eps)", "regret ~ T^a", 0.5,
     "AS17-cor3.2-regret-rate-T"),
    (1, "Prediction with expert advice", "O(sqrt(T log N) + N log N log^2 T / eps)", "gap / log^2 T ~ T^a", 0.0,
     "AS17-cor3.2-gap-rate-T"),
    (1, "OLO over the sphere", "O(sqrt(T) + N log^2 T / eps)", "regret ~ T^a", 0.5, "AS17-T1-sphere-regret-rate-T"),
    (1, "OLO over the sphere", "O(sqrt(T) + N log^2 T / eps)", "gap / log^2 T ~ T^a", 0.0, "AS17-T1-sphere-gap-rate-T"),
    (1, "OLO over the sphere", "O(sqrt(T) + N log^2 T / eps)", "regret / Thm 3.4 bound at N_grid (max)", 1.0,
     "AS17-T1-sphere-thm3.4-bound-N"),
    (1, "OLO over the cube", "O(sqrt(NT) + N log^2 T / eps)", "regret ~ T^a", 0.5, "AS17-T1-cube-regret-rate-T"),
    (1, "OLO over the cube", "O(sqrt(NT) + N log^2 T / eps)", "gap / log^2 T ~ T^a", 0.0, "AS17-T1-cube-gap-rate-T"),
    (1, "OLO over the cube", "O(sqrt(NT) + N log^2 T / eps)", "regret / Thm 3.4 bound at N_grid (max)", 1.0,
     "AS17-T1-cube-thm3.4-bound-N"),
    (1, "Online linear optimisation (FTPL)", "O(sqrt(T) + log^2 T / eps)", "regret ~ T^a", 0.5,
     "AS17-T1-ftpl-regret-rate-T"),
    (2, "Bandit linear optimisation (ball)", "O~(sqrt(T) / eps)", "regret ~ T^a", 0.5, "AS17-T2-blo-ball-rate-T"),
    (2, "Bandit linear optimisation (ball)", "O~(sqrt(T) / eps)", "regret ~ (1/eps)^a", 1.0,
     "AS17-T2-blo-ball-rate-eps"),
    (2, "Bandit linear optimisation (cube)", "O~(sqrt(T) / eps)", "regret ~ T^a", 0.5, "AS17-T2-blo-cube-rate-T"),
    (2, "Bandit linear optimisation (cube)", "O~(sqrt(T) / eps)", "regret ~ (1/eps)^a", 1.0,
     "AS17-T2-blo-cube-rate-eps"),
    (2, "Non-stochastic multi-armed bandits", "O~(sqrt(T N log N) / eps)", "regret ~ T^a", 0.5, "AS17-T2-mab-rate-T"),
    (2, "Non-stochastic multi-armed bandits", "O~(sqrt(T N log N) / eps)", "regret ~ (1/eps)^a", 1.0,
     "AS17-T2-mab-rate-eps"),
    (2, "Non-stochastic multi-armed bandits", "O~(sqrt(T N log N) / eps)", "regret ~ N^a", 0.5, "AS17-T2-mab-rate-N"),
]


def tables_frame(records: list[dict]) -> pd.DataFrame:
    """One row per (table row, quantity, environment) with the decided claim's numbers."""
    by_base = {}
    for r in records:
        by_base.setdefault(r["base_id"], []).append(r)
    rows = []
    for table, label, paper, quantity, a, base in LAYOUT:
        for r in sorted(by_base.get(base, []), key=lambda r: r["env"]):
            res, ctl = r["result"], r["control_result"]
            rows.append({"table": table, "row": label, "paper_bound": paper, "quantity": quantity, "claimed": a,
                         "env": r["env"], "claim_id": r["claim_id"], "measured": res["measured"],
                         "ci_low": res["ci_low"],
                         "ci_high": res["ci_high"], "tolerance": res["tolerance"], "verdict": res["verdict"],
                         "control_verdict": ctl["verdict"]})
    return pd.DataFrame(rows)
