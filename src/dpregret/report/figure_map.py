"""The figures registry: which figures each plotting rule draws (read by the rules, in the
order the plot scripts write them) and which figure shows each claim (read by the report,
which puts every claim card beside its figure)."""
from __future__ import annotations

import importlib
import re

from ..papers import SCENARIOS

# plotting group -> (directory under figures/, figure stems in the order the plot script writes them)
FIGURES: dict[str, tuple[str, tuple[str, ...]]] = {
    "as17_experts": ("as17", ("experts_regret_vs_T", "experts_gap_vs_T", "experts_gap_vs_eps")),
    "as17_tables": ("as17", ("olo_regret_vs_T", "olo_gap_vs_N", "mab_regret_vs_T", "mab_regret_vs_eps",
                             "mab_regret_vs_N", "blo_regret_vs_T", "blo_regret_vs_eps")),
    "ztc22": ("ztc22", ("ztc22_subopt_vs_T", "ztc22_optimistic", "ztc22_strongly_convex", "ztc22_rho_d",
                        "ztc22_minimax", "ztc22_param_free", "ztc22_linear_T")),
    "env21": ("env21", ("env21_regret_vs_T", "env21_gap_vs_n", "env21_gap_vs_eps", "env21_cost", "env21_bounds")),
    "vdh19": ("vdh19", ("vdh19_regret_vs_T", "vdh19_regret_vs_eps", "vdh19_regret_vs_nprivate", "vdh19_sparse_vs_D",
                        "vdh19_regret_vs_u")),
}

# scenario -> the prefix of its figures' stems (dpregret.papers.SCENARIOS)
SCENARIO_PREFIX = {s.name: s.figure_prefix for s in SCENARIOS.values()}

# claim id (without its environment suffix) -> figure stem: the first pattern that matches
CLAIM_FIGURE: tuple[tuple[str, str], ...] = (
    (r"AS17-T1-.*-thm3\.4-bound-N", "olo_gap_vs_N"),
    (r"AS17-T1-", "olo_regret_vs_T"),
    (r"AS17-T2-blo-.*-rate-eps", "blo_regret_vs_eps"),
    (r"AS17-T2-blo-|AS17-thm4\.5", "blo_regret_vs_T"),
    (r"AS17-T2-mab-rate-N", "mab_regret_vs_N"),
    (r"AS17-T2-mab-rate-eps", "mab_regret_vs_eps"),
    (r"AS17-T2-mab-|AS17-thm4\.1|AS17-lemma4\.3", "mab_regret_vs_T"),
    (r"AS17-cor3\.2-gap-eps", "experts_gap_vs_eps"),
    (r"AS17-cor3\.2-gap-rate", "experts_gap_vs_T"),
    (r"AS17-cor3\.2-regret|AS17-thm3\.4|AS17-lemma3\.3", "experts_regret_vs_T"),
    (r"ZTC-rem5-rate-T-", "ztc22_linear_T"),
    (r"ZTC-rem5-rate-(rho|d)$", "ztc22_minimax"),
    (r"ZTC-rem9|ZTC-thm8", "ztc22_strongly_convex"),
    (r"ZTC-thm4|ZTC-thm6", "ztc22_optimistic"),
    (r"ZTC-thm11", "ztc22_param_free"),
    (r"ZTC-", "ztc22_subopt_vs_T"),
    (r"ENV-lemma5\.[25]-rate-eps", "env21_gap_vs_eps"),
    (r"ENV-lemma5\.[25]-rate-n", "env21_gap_vs_n"),
    (r"ENV-gauss-vs-laplace", "env21_cost"),
    (r"ENV-.*-bound", "env21_bounds"),
    (r"ENV-", "env21_regret_vs_T"),
    (r"VDH-eq3\.3\.5-rate-u", "vdh19_regret_vs_u"),
    (r"VDH-sec3\.4-sparse|VDH-thm11", "vdh19_sparse_vs_D"),
    (r"VDH-", "vdh19_regret_vs_T"),
)


def figure_paths(group: str) -> list[str]:
    """The files the plotting rule of ``group`` writes, in its script's order."""
    if group not in FIGURES and group in SCENARIOS and SCENARIOS[group].generic:  # a registered paper's (its figures module's FIGURES)
        return [f"figures/{group}/{s}.png" for s in _registered_figures(group)]
    if group not in FIGURES:
        raise ValueError(f"group must be one of {sorted(FIGURES)}, got {group!r}")
    d, stems = FIGURES[group]
    return [f"figures/{d}/{s}.png" for s in stems]


def figure_for(claim_id: str) -> str | None:
    """The stem of the figure that shows ``claim_id`` (``--env`` suffix ignored); None for the
    privacy audits, which have no figure."""
    base, _, env = claim_id.partition("--")
    if env.startswith("learner-"):  # a user's learner: its own figure (report.figures_user)
        return f"{base}--{env.removeprefix('learner-')}"
    for sc in (s for s in SCENARIOS.values() if s.generic and s.name not in FIGURES):  # a registered paper declares its figures' claims
        for stem, ids in _registered_figures(sc.name).items():
            if base in ids:
                return stem
    for pattern, stem in CLAIM_FIGURE:
        if re.match(pattern, base):
            return stem
    return None


def _registered_figures(scenario: str) -> dict[str, tuple[str, ...]]:
    """A registered paper's figures (``<package>.figures.FIGURES``: stem -> the claim ids it shows)."""
    return importlib.import_module(f"{SCENARIOS[scenario].folder}.figures").FIGURES
