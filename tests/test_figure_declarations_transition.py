"""Transitional: the folders' figure declarations (papers/<p>/figures.py FIGURES) give the same
plot groups, stems and claim -> figure map as the regex table of report.figure_map they replace,
for every claim id the pipeline produces."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# today's (c26773e) report/figure_map.py, frozen
OLD_FIGURES: dict[str, tuple[str, tuple[str, ...]]] = {
    "as17_experts": ("as17", ("experts_regret_vs_T", "experts_gap_vs_T", "experts_gap_vs_eps")),
    "as17_tables": ("as17", ("olo_regret_vs_T", "olo_gap_vs_N", "mab_regret_vs_T", "mab_regret_vs_eps",
                             "mab_regret_vs_N", "blo_regret_vs_T", "blo_regret_vs_eps")),
    "ztc22": ("ztc22", ("ztc22_subopt_vs_T", "ztc22_optimistic", "ztc22_strongly_convex", "ztc22_rho_d",
                        "ztc22_minimax", "ztc22_param_free", "ztc22_linear_T")),
    "env21": ("env21", ("env21_regret_vs_T", "env21_gap_vs_n", "env21_gap_vs_eps", "env21_cost", "env21_bounds")),
    "vdh19": ("vdh19", ("vdh19_regret_vs_T", "vdh19_regret_vs_eps", "vdh19_regret_vs_nprivate", "vdh19_sparse_vs_D",
                        "vdh19_regret_vs_u")),
}

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



def _old_figure_for(claim_id: str) -> str | None:
    """The stem of the figure that shows ``claim_id`` (``--env`` suffix ignored); None for the
    privacy audits, which have no figure."""
    base, _, env = claim_id.partition("--")
    if env.startswith("learner-"):  # a user's learner: its own figure (report.figures_user)
        return f"{base}--{env.removeprefix('learner-')}"
    for pattern, stem in CLAIM_FIGURE:
        if re.match(pattern, base):
            return stem
    return None


def _declared():
    from dpregret.papers.as17 import figures as a
    from dpregret.papers.env21 import figures as e
    from dpregret.papers.vdh19 import figures as v
    from dpregret.papers.ztc22 import figures as z

    groups = {g: decl for m in (a, z, e, v) for g, decl in m.FIGURES.items()}
    shows = {}
    for _, (_, figs) in groups.items():
        for f in figs:
            for cid in f.shows:
                assert cid not in shows, cid
                shows[cid] = f.stem
    return groups, shows


def _new_figure_for(claim_id, shows):
    base, _, env = claim_id.partition("--")
    if env.startswith("learner-"):
        return f"{base}--{env.removeprefix('learner-')}"
    return shows.get(base)


def _all_ids():
    from dpregret.claims import all_claims
    from dpregret.scenarios.contract import user_claims

    ids = {r["claim_id"] for r in csv.DictReader(open(ROOT / "config" / "expected_verdicts.csv"))}
    envs = {i.partition("--")[2] for i in ids} | {"learner-mine", "learner-nonlearner_oco_polytope", "fixed",
                                                   "stochastic", "periodic", "adversarial"}
    bases = {k.partition("--")[0] for k in all_claims()} | {i.partition("--")[0] for i in ids}
    bases |= set(user_claims())
    import dpregret.claims.privacy as P
    bases |= set(P.SPECS)
    for base in sorted(bases):
        ids.add(base)
        for env in envs:
            if env:
                ids.add(f"{base}--{env}")
    for d in ("/tmp/smoke_base/results/claims",):
        if Path(d).is_dir():
            for f in Path(d).glob("*.json"):
                ids.add(json.loads(f.read_text())["claim_id"])
    return ids


def test_declarations_reproduce_todays_figure_map():
    groups, shows = _declared()
    assert {g: (d, tuple(f.stem for f in figs)) for g, (d, figs) in groups.items()} == OLD_FIGURES
    assert list(groups) == list(OLD_FIGURES)
    ids = _all_ids()
    assert len(ids) > 500
    diff = {i: (_old_figure_for(i), _new_figure_for(i, shows)) for i in ids
            if _old_figure_for(i) != _new_figure_for(i, shows)}
    assert diff == {}
    from dpregret.report import figure_map as new
    assert new.FIGURES == OLD_FIGURES and list(new.FIGURES) == list(OLD_FIGURES)
    assert {i: new.figure_for(i) for i in ids} == {i: _old_figure_for(i) for i in ids}
    print(len(ids), "ids compared")
