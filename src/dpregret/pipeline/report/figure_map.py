"""The figures registry, collected from the paper folders: each folder declares its figures beside
the code that draws them (``dpregret.papers.<paper>.figures.FIGURES``: per plot group, its
directory and its figures in the order the plot job writes them, each with the claims it
shows).  From those declarations alone: which files each plotting rule writes (read by the
rules) and which figure shows each claim (read by the report, which puts every claim card
beside its figure)."""
from __future__ import annotations

from dpregret.papers import REGISTERED, SCENARIOS
from dpregret.pipeline.registry import folder_modules


def declared() -> dict:
    """plot group -> (directory, figures): every folder's ``figures.FIGURES`` (:func:`dpregret.papers.folders`,
    in the papers' order), the four folders' and those of every paper registered by the config key ``papers``
    (``dpregret.papers.register``; its ``figures.FIGURES``, in the same form)."""
    return {group: decl for mod in folder_modules("figures").values() for group, decl in mod.FIGURES.items()}


# the declarations of the papers known when this module is imported
DECLARED = declared()

# plot group -> (directory under figures/, figure stems in the order the plot job writes them)
FIGURES: dict[str, tuple[str, tuple[str, ...]]] = {
    group: (d, tuple(f.stem for f in figs)) for group, (d, figs) in DECLARED.items()}


def _shown_in(decl: dict | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    for _, figs in (DECLARED if decl is None else decl).values():
        for f in figs:
            for cid in f.shows:
                if cid in out:
                    raise ValueError(f"{cid} is declared in two figures: {out[cid]} and {f.stem}")
                out[cid] = f.stem
    return out


# claim id (without its environment suffix) -> the stem of the figure that shows it
SHOWN_IN: dict[str, str] = _shown_in()

# scenario -> the prefix of its figures' stems (dpregret.papers.SCENARIOS)
SCENARIO_PREFIX = {s.name: s.figure_prefix for s in SCENARIOS.values()}


def figure_paths(group: str) -> list[str]:
    """The files the plotting rule of ``group`` writes, in its script's order."""
    decl = declared()
    if group not in decl:
        raise ValueError(f"group must be one of {sorted(decl)}, got {group!r}")
    d, figs = decl[group]
    return [f"figures/{d}/{f.stem}.png" for f in figs]


def figure_for(claim_id: str) -> str | None:
    """The stem of the figure that shows ``claim_id`` (``--env`` suffix ignored); None for the
    privacy audits, which have no figure."""
    base, _, env = claim_id.partition("--")
    if env.startswith("learner-"):  # a user's learner: its own figure (report.learner_figure)
        return f"{base}--{env.removeprefix('learner-')}"
    if base in SHOWN_IN:
        return SHOWN_IN[base]
    return _shown_in(declared()).get(base) if REGISTERED else None
