"""The self-contained HTML report (``templates/report.html.j2``, Jinja2): a scoreboard per paper,
the claims that are not PASS (every claim in a folded table), each claim card beside the figure that shows it, the
privacy audits, the independent accountant, the mutation score, the errata, the references and the
provenance.  One file, figures embedded as base64 PNG, no external assets: it opens offline.
:func:`context` gathers the data; the template only lays it out (autoescaped).
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

import jinja2
import pandas as pd

from dpregret.verdict.core import FAIL_LEVEL, VERDICTS
from dpregret.papers import ORDER, PAPERS, paper
from dpregret.pipeline import registry
from dpregret.pipeline.report import fresh_seeds
from dpregret.pipeline.report.claim_figures import OVERVIEW, file_name
from dpregret.pipeline.report.figure_map import SCENARIO_PREFIX, figure_for
from dpregret.pipeline.report.tables import BORDERLINE_WIDTHS, load_claims

CSS = """body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:.85em}td,th{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}.banner{background:#fbeec2;border:2px solid #e0b000;padding:.6em 1em;margin:1em 0}.PASS{background:#d9f2d9}.FAIL{background:#f8d0d0}.INCONCLUSIVE{background:#fbeec2}.LOOSE{background:#d6e4f5}
img{max-width:100%;border:1px solid #eee}code{background:#f5f5f5;padding:0 .2em}.good{background:#d9f2d9}
.claim{margin:0 0 1.2em 0;padding:.4em 1em;border-left:4px solid #ccc}.PASS-edge{border-left-color:#4a4}.FAIL-edge{border-left-color:#c44}
.INCONCLUSIVE-edge{border-left-color:#e0b000}.LOOSE-edge{border-left-color:#4a7cc0}.grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1.5em;align-items:start}
.figs{position:sticky;top:0}#overview img{border:none}figure.own{margin:.3em 0}.ref{color:#555;font-style:italic}h4{margin:.3em 0}"""  # noqa: E501 (the stylesheet, one rule per line)


def _num(x) -> str:
    """Numbers to 4 significant digits ("n/a" for NaN); anything else as text."""
    try:
        x = float(x)
    except (TypeError, ValueError):
        return "" if x is None else str(x)
    return "n/a" if x != x else f"{x:.4g}"


VERDICT_RULE = ("A claim is <b>PASS</b> only when its check passes <i>and</i> its primary control, the smallest "
                "plausible mistake for that theorem (half the noise, a missing log factor, a wrong sensitivity, the "
                "previous method's rate), is caught: the control's own check FAILs. A PASS whose primary control is "
                "not caught is reported INCONCLUSIVE (\"control not caught\"). Where the primary control is a straw "
                "man (linear regret, no noise), a PASS is marked <i>catches only gross errors</i>. A non-finite metric "
                "(an algorithm that diverged) is a FAIL with the reason. A bound that holds at every non-vacuous point "
                "with so much slack that its near-miss control cannot be caught is <b>LOOSE</b>, recorded with its "
                "worst ratio, the smallest error of the bound these data would detect (the factor c at which the bound "
                "x c would be caught) and the family of instances searched for its worst case (without that search it "
                "stays INCONCLUSIVE, and it is refused when that search reaches the control's factor). A control "
                "caught only as a gross error (more than 3x the bound) is not a near miss. A learner claim also runs "
                "the non-learner of its setting and the paper's learner with one realistic tuning mistake (the "
                "<i>mis-tuned twin</i>) on the same draws through the same check: a PASS whose non-learner or twin "
                "passes too is INCONCLUSIVE (the instance does not discriminate; blind to tuning). The margin of a "
                "caught control is the distance of its interval's FAIL-side limit past the threshold, in units of the "
                "interval's width (relative to the claimed eps for privacy audits).")


TESTING_RULE = ("<b>A theorem is tested by what it says.</b> An upper bound with explicit constants is checked as a "
                "bound at every grid point, and its near-miss control must exceed that same bound. A rate (an O() or "
                "O~() statement) is tested only inside the regime where the paper's term dominates, shown by the run "
                "itself (the paired privacy cost rather than the total regret; the noise-dominated window between the "
                "non-private floor and saturation), with the paper's own log factors divided out where it states them: "
                "a slope over at least 4 points spanning at least one decade inside that regime (two decades for T "
                "where affordable). A window outside the regime is reported <i>not in the regime at feasible "
                "horizons</i>, with the numbers, never PASS. Grids and tolerances are declared in the config before "
                "the run that decides them; a FAIL is reported as FAIL, and a grid moved after a result is listed in "
                "the claim's history.")


# presets whose horizons are too short to decide the claims (a banner says so)
UNDECIDING_PRESETS = {"smoke": "The smoke preset runs every claim on horizons far too short to decide it: it checks "
                               "that the pipeline runs end to end. Its FAIL and INCONCLUSIVE verdicts say nothing "
                               "about the papers; read the default or paper preset's report for that."}


def verdict_counts(verdicts: pd.Series) -> list[tuple[str, int]]:
    """``(verdict, count)`` in the order of :data:`VERDICTS` (PASS, LOOSE, INCONCLUSIVE, FAIL), those
    present only, then any other value."""
    n = verdicts.value_counts().to_dict()
    return [(v, int(n.pop(v))) for v in VERDICTS if v in n] + sorted((str(k), int(v)) for k, v in n.items())


def _scoreboard(table: pd.DataFrame, mutation: dict | None) -> list[dict]:
    """Per paper: its counts of PASS / LOOSE / INCONCLUSIVE / FAIL, controls caught and mutants caught."""
    by_paper = (mutation or {}).get("by_paper", {})
    if "learner" in table:  # the papers' own claims; user learners' rows sit in the sections, not the counts
        table = table[table.learner.fillna("paper") == "paper"]
    keys = table.paper.map(lambda x: paper(x).key)
    out = []
    for key in ORDER:
        p, rows = PAPERS[key], table[keys == key]
        n = rows.verdict.value_counts()
        out.append({"key": key, "cite": p.cite, "title": p.title, "n": len(rows), "PASS": int(n.get("PASS", 0)),
                    "FAIL": int(n.get("FAIL", 0)), "INCONCLUSIVE": int(n.get("INCONCLUSIVE", 0)),
                    "LOOSE": int(n.get("LOOSE", 0)),
                    "caught": int(rows.control_caught.astype(bool).sum()), **_nonlearner_counts(rows),
                    "mut_caught": by_paper.get(key, {}).get("caught", 0),
                    "mut_total": by_paper.get(key, {}).get("total", 0)})
    return out


def _nonlearner_counts(rows: pd.DataFrame) -> dict:
    """How many learner claims ran a non-learner control, how many caught it, and how many it passes
    (the non-learner's own check PASS: a PASS there would say nothing about the algorithm)."""
    if "nonlearner" not in rows:
        return {"learner_claims": 0, "nl_run": 0, "nl_caught": 0, "nl_passes": 0, "tw_run": 0, "tw_caught": 0,
                "tw_blind": 0}
    lc = rows[rows.learner_claim.astype(bool)]
    ran = lc[lc.nonlearner.notna() & (lc.nonlearner.astype(str).str.len() > 0)]
    tw = lc[lc.twin.notna() & (lc.twin.astype(str).str.len() > 0)] if "twin" in lc else lc.iloc[:0]
    blind = lc[lc.twin_blind.notna() & (lc.twin_blind.astype(str).str.len() > 0)] if "twin_blind" in lc else lc.iloc[:0]
    return {"learner_claims": len(lc), "nl_run": len(ran), "nl_caught": int(ran.nonlearner_caught.astype(bool).sum()),
            "nl_passes": int((ran.nonlearner_verdict == "PASS").sum()), "tw_run": len(tw),
            "tw_caught": int(tw.twin_caught.astype(bool).sum()) if len(tw) else 0, "tw_blind": len(blind)}


def _paper_tables(paths: list[str]) -> list[dict]:
    """Agarwal-Singh Tables 1 and 2 regenerated: the paper's bound beside the measured exponents."""
    if not paths:
        return []
    t = pd.read_csv(paths[0])
    out = []
    for table, title in ((1, "Table 1: full information"), (2, "Table 2: bandit feedback")):
        sub = t[t.table == table]
        if sub.empty:
            continue
        rows = []
        for (row, quantity), g in sub.groupby(["row", "quantity"], sort=False):
            r0 = g.iloc[0]
            rows.append({"row": row, "quantity": quantity, "paper_bound": r0.paper_bound, "claimed": r0.claimed,
                         "tolerance": r0.tolerance,
                         "cells": [{"measured": r.measured, "ci_low": r.ci_low, "ci_high": r.ci_high, "env": r.env,
                                    "verdict": r.verdict, "caught": r.control_verdict == "FAIL"}
                                   for r in g.itertuples()]})
        out.append({"title": title, "rows": rows})
    return out


def _audits(details: dict) -> list[dict]:
    out = []
    for d in sorted((d for d in details.values() if d["kind"] == "privacy"), key=lambda d: d["claim_id"]):
        r, c = d["result"], d["control_result"]
        gdp = "mu" in r["detail"]["ci_of"]
        extra = None
        if r["detail"].get("claimed_mu") is not None and not gdp:
            extra = (r["detail"]["correct"].get("mu_lb"), r["detail"]["claimed_mu"])
        out.append({"claim_id": d["claim_id"], "cite": paper(d["paper"]).cite, "theorem": d["theorem"],
                    "sym": "mu" if gdp else "eps", "bound": r["bound"], "measured": r["measured"],
                    "ci_level": d["ci_level"],
                    "gdp_extra": extra, "tight": r["detail"].get("tight"), "verdict": r["verdict"],
                    "controls": [{"name": k, "lb": v["mu_lb"] if gdp else v["eps_lb"],
                                  "caught": bool(c["detail"]["caught"][k])}
                                 for k, v in c["detail"]["variants"].items()]})
    return out


def _figure(path: str | Path) -> dict:
    p = Path(path)
    mime = "image/svg+xml" if p.suffix == ".svg" else "image/png"
    return {"name": p.name, "data": base64.b64encode(p.read_bytes()).decode(), "mime": mime}


def _claim_figure(claim_figures: str | None, claim_id: str) -> dict | None:
    """The claim's own figure (``claim_figures.file_name``) when the run drew it."""
    if not claim_figures:
        return None
    p = Path(claim_figures) / file_name(claim_id)
    return _figure(p) if p.exists() else None


def _paper_sections(table: pd.DataFrame, details: dict, figure_paths: list[str],
                    claim_figures: str | None = None) -> list[dict]:
    """Each paper's claims by scenario; within a scenario, each figure with the cards of the
    claims it shows beside it (``figure_map.figure_for``), then the cards without a figure."""
    keys = table.paper.map(lambda x: paper(x).key)
    by_stem = {Path(f).stem: f for f in figure_paths}
    out = []
    for key in ORDER:
        rows = table[keys == key]
        scenarios = []
        for sc in rows.scenario.unique():
            stems = [s for s in by_stem if s.startswith(SCENARIO_PREFIX.get(sc, sc + "_"))]
            stems += [s for s in map(figure_for, rows[rows.scenario == sc].claim_id) if s in by_stem and s not in stems]
            groups: dict[str | None, list] = {s: [] for s in stems}
            for r in rows[rows.scenario == sc].itertuples():
                d = dict(details[r.claim_id])
                d["verdict"] = r.verdict
                d["reason"] = r.reason if isinstance(r.reason, str) else ""
                d["applies_to"] = getattr(r, "applies_to", "")
                d["learner"] = getattr(r, "learner", "paper")
                d["detail_json"] = json.dumps(d["result"]["detail"], indent=1, default=str)
                d["own_figure"] = _claim_figure(claim_figures, r.claim_id)
                stem = figure_for(r.claim_id)
                groups.setdefault(stem if stem in by_stem else None, []).append(d)
            scenarios.append({"name": sc, "groups": [{"figure": _figure(by_stem[s]) if s else None, "claims": c}
                                                     for s, c in groups.items() if s or c]})
        out.append({"key": key, "paper": PAPERS[key], "scenarios": scenarios})
    return out


def context(claims_csv: str, detail_paths: list[str], figure_paths: list[str], meta: dict,
            tables: list[str] | None = None, mutation: str | None = None, claim_figures: str | None = None) -> dict:
    """Everything the template shows, as plain data."""
    table = pd.read_csv(claims_csv)
    details = {c["claim_id"]: c for c in load_claims(detail_paths)}
    mut = json.loads(Path(mutation).read_text()) if mutation and Path(mutation).exists() else None
    summary = [{**{k: getattr(r, k) for k in ("claim_id", "theorem", "kind", "verdict", "measured", "bound", "ci_low",
                                            "ci_high", "tolerance", "control_margin")},
                "detectable_factor": getattr(r, "detectable_factor", float("nan")),
                "cite": paper(r.paper).cite, "ci_of": r.ci_of if isinstance(r.ci_of, str) else "",
                "control_caught": bool(r.control_caught), "reason": r.reason if isinstance(r.reason, str) else "",
                "borderline": bool(getattr(r, "borderline", False)),
                "decision_distance": getattr(r, "decision_distance", float("nan"))}
               for r in table.itertuples()]
    acc = [{**r, "ratio": r["eps_ours"] / r["eps_pld"] if r["eps_pld"] > 0 else float("inf"), "note": r.get("note", "")}
           for r in meta.get("accountant") or []]
    return {"css": CSS, "preset": meta.get("preset"), "seed": meta.get("seed"), "ci_level": meta.get("ci_level"),
            "banner": UNDECIDING_PRESETS.get(str(meta.get("preset"))), "n_claims": len(table),
            "counts": verdict_counts(table.verdict),
            "n_caught": int(table.control_caught.astype(bool).sum()), "mutation": mut,
            "nonlearners": _nonlearner_counts(table[table.learner.fillna("paper") == "paper"] if "learner" in table
                                              else table),
            "borderline": [r for r in summary if r["borderline"]], "borderline_widths": BORDERLINE_WIDTHS,
            "false_fail": {"level": FAIL_LEVEL, "claims": len(table), "bound": min(1.0, len(table) * FAIL_LEVEL)},
            "scoreboard": _scoreboard(table, mut), "verdict_rule": VERDICT_RULE, "testing_rule": TESTING_RULE,
            "summary": summary, "paper_tables": _paper_tables(tables or []),
            "papers": _paper_sections(table, details, figure_paths, claim_figures),
            "overview": (_figure(Path(claim_figures) / OVERVIEW)
                         if claim_figures and (Path(claim_figures) / OVERVIEW).exists() else None),
            "audits": _audits(details), "accountant": acc,
            "errata": [{**e, "cite": paper(e["paper"]).cite} for e in registry.errata()],
            "references": [PAPERS[k] for k in ORDER], "provenance": meta.get("provenance"),
            "fresh_seeds": _fresh_seeds(table, meta)}


def _fresh_seeds(table: pd.DataFrame, meta: dict) -> dict | None:
    """The claims changed after a result was seen, this run's verdicts beside their fresh seeds'
    (:mod:`dpregret.pipeline.report.fresh_seeds`): shown for a default run with the recorded file."""
    path = meta.get("fresh_seeds")
    if meta.get("preset") != "default" or not path or not Path(path).is_file():
        return None
    return fresh_seeds.report_rows(table, meta.get("history") or {}, fresh_seeds.load(Path(path)))


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("dpregret.pipeline.report", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["num"] = _num
    return env


def render(claims_csv: str, detail_paths: list[str], figure_paths: list[str], meta: dict,
           tables: list[str] | None = None, mutation: str | None = None, claim_figures: str | None = None) -> str:
    return _environment().get_template("report.html.j2").render(
        context(claims_csv, detail_paths, figure_paths, meta, tables, mutation, claim_figures))


def write_report(claims_csv: str, detail_paths: list[str], figure_paths: list[str], out_path: str, meta: dict,
                 tables: list[str] | None = None, mutation: str | None = None,
                 claim_figures: str | None = None) -> None:
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    Path(out_path).write_text(render(claims_csv, detail_paths, figure_paths, meta, tables, mutation, claim_figures))
