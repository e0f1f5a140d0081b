"""The report's top: a scoreboard per paper (by name, with counts) and a banner on presets that
cannot decide the claims."""
import json
from pathlib import Path

from dpregret.claims.core import Claim, Result, record
from dpregret.papers import PAPERS
from dpregret.report.html import render
from dpregret.report.tables import claims_table

ROOT = Path(__file__).resolve().parents[1]


def _report(tmp, preset):
    paths = []
    for key, (v, c) in (("AS17", ("PASS", "FAIL")), ("ZTC22", ("INCONCLUSIVE", "PASS")), ("VDH19", ("FAIL", "FAIL"))):
        rec = record(Claim(f"{key}-x", key, "Thm 1", "bound", "s", "m", "c"), Result(v, 0.5, 1.0, 0.4, 0.6, 0.0),
                     Result(c, 2.0, 1.0, 1.5, 2.5, 0.0), scenario="s", env=None, ci_level=0.95)
        paths.append(tmp / f"{key}.json")
        paths[-1].write_text(json.dumps(rec))
    claims_table([str(p) for p in paths]).to_csv(tmp / "claims.csv", index=False)
    return render(str(tmp / "claims.csv"), [str(p) for p in paths], [], {"preset": preset, "seed": 1, "ci_level": 0.95})


def test_scoreboard_names_every_paper_with_its_counts_and_links_to_its_section(tmp_path):
    html = _report(tmp_path, "default")
    board = html[html.index('class="scoreboard"'):html.index("</table>", html.index('class="scoreboard"'))]
    for p in PAPERS.values():
        assert p.cite in board and f'href="#paper-{p.key}"' in board and f'id="paper-{p.key}"' in html
        assert p.reference in html and p.bibtex.split(",")[0] in html
    assert "1 of 1" in board  # AS17: one claim, its control caught
    assert 'class="banner"' not in html


def test_the_smoke_preset_carries_a_banner(tmp_path):
    html = _report(tmp_path, "smoke")
    assert 'class="banner"' in html and "do not decide the claims" in html


def test_undecided_reason_prefers_the_claims_numbered_reason():
    """An undecided claim's own numbered account (e.g. a bound looser than any near miss) is
    what the report shows, ahead of the generic "control not caught"."""
    from dpregret.report.tables import undecided_reason

    rec = {"result": {"verdict": "INCONCLUSIVE", "detail": {"control_not_caught": "generic",
                                                             "numbered_reason": "1. loose; 2. near miss 0.01"}}}
    assert undecided_reason(rec) == "1. loose; 2. near miss 0.01"
    rec["result"]["detail"].pop("numbered_reason")
    assert undecided_reason(rec) == "generic"
    rec = {"result": {"verdict": "FAIL", "detail": {"failures": ["R = 67.8 > bound 65.2"]}}}
    assert undecided_reason(rec) == "counterexample: R = 67.8 > bound 65.2"


def test_every_claim_has_its_figure_and_the_rules_read_the_same_registry():
    """Each claim of the default run (config/expected_verdicts.csv) maps to a figure that a plotting
    rule draws (figure_map), the privacy audits to none; the rules take their outputs from it."""
    import csv

    from dpregret.report.figure_map import FIGURES, figure_for, figure_paths

    stems = {s for _, ss in FIGURES.values() for s in ss}
    ids = [r["claim_id"] for r in csv.DictReader(open(ROOT / "config" / "expected_verdicts.csv"))]
    assert len(ids) > 80
    for cid in ids:
        fig = figure_for(cid)
        assert (fig is None) == cid.startswith("AUDIT-"), cid
        assert fig is None or fig in stems, (cid, fig)
    for rule in ("as17", "as17_tables", "env21", "vdh19", "ztc22"):
        assert "figure_paths(" in (ROOT / "workflow" / "rules" / f"{rule}.smk").read_text(), rule
    assert figure_paths("ztc22")[-1] == "figures/ztc22/ztc22_linear_T.png"
