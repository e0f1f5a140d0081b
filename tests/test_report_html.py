"""The report's top: a scoreboard per paper (by name, with counts) and a banner on presets that
cannot decide the claims."""
import json
from pathlib import Path

from dpregret.verdict.core import Claim, Result, record
from dpregret.papers import PAPERS
from dpregret.pipeline.report.html import render
from dpregret.pipeline.report.tables import claims_table

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


def test_the_claims_that_are_not_pass_come_first_and_the_full_table_is_folded(tmp_path):
    html = _report(tmp_path, "default")
    top = html[html.index('id="summary"'):html.index("<details>", html.index('id="summary"'))]
    assert "not PASS: 2 of 3" in top
    assert 'href="#ZTC22-x"' in top and 'href="#VDH19-x"' in top and 'href="#AS17-x"' not in top
    folded = html[html.index("All 3 claims in one table"):]
    assert all(f'href="#{k}-x"' in folded for k in ("AS17", "ZTC22", "VDH19"))


def test_the_smoke_preset_carries_a_banner(tmp_path):
    html = _report(tmp_path, "smoke")
    assert 'class="banner"' in html and "do not decide the claims" in html


def test_undecided_reason_prefers_the_claims_numbered_reason():
    """An undecided claim's own numbered account (e.g. a bound looser than any near miss) is
    what the report shows, ahead of the generic "control not caught"."""
    from dpregret.pipeline.report.tables import undecided_reason

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

    from dpregret.pipeline.report.figure_map import FIGURES, figure_for, figure_paths

    stems = {s for _, ss in FIGURES.values() for s in ss}
    ids = [r["claim_id"] for r in csv.DictReader(open(ROOT / "config" / "expected_verdicts.csv"))]
    assert len(ids) > 80
    for cid in ids:
        fig = figure_for(cid)
        assert (fig is None) == cid.startswith("AUDIT-"), cid
        assert fig is None or fig in stems, (cid, fig)
    rule_files = [ROOT / "workflow" / "rules" / "papers.smk",  # the generic rules (ztc22, env21, vdh19)
                  ROOT / "src" / "dpregret" / "papers" / "as17" / "rules.smk"]  # Agarwal-Singh's own
    for rules in rule_files:
        assert "figure_paths(" in rules.read_text(), rules
    assert figure_paths("ztc22")[-1] == "figures/ztc22/ztc22_linear_T.png"


def test_each_folder_declares_one_figure_per_claim_of_its_paper():
    """papers/<p>/figures.py FIGURES: every claim of the registry (all_claims, without its
    environment suffix) is shown by exactly one figure, of its own paper's folder; every declared id
    is a claim; every figure shows a claim but the three descriptive ones; a user's learner has its
    own figure (report.learner_figure); and the stems the rules write are the declared ones, in order."""
    from dpregret.papers.as17 import figures as as17
    from dpregret.papers.env21 import figures as env21
    from dpregret.papers.vdh19 import figures as vdh19
    from dpregret.papers.ztc22 import figures as ztc22
    from dpregret.pipeline.registry import all_claims
    from dpregret.pipeline.report.figure_map import FIGURES, figure_for

    claims = all_claims()
    paper_of = {cid.partition("--")[0]: c.paper for cid, c in claims.items()}
    shown, declared = {}, {}
    for key, m in (("AS17", as17), ("ZTC22", ztc22), ("ENV21", env21), ("VDH19", vdh19)):
        for group, (d, figs) in m.FIGURES.items():
            assert FIGURES[group] == (d, tuple(f.stem for f in figs)), group
            for f in figs:
                declared[f.stem] = f.shows
                for cid in f.shows:
                    shown.setdefault(cid, []).append(f.stem)
                    assert paper_of.get(cid) == key, (cid, key)
    assert sorted(declared) == sorted(s for _, ss in FIGURES.values() for s in ss)
    assert set(shown) == set(paper_of)
    assert all(len(stems) == 1 for stems in shown.values()), {c: s for c, s in shown.items() if len(s) > 1}
    for cid in claims:
        base = cid.partition("--")[0]
        assert figure_for(cid) == figure_for(f"{base}--fixed") == shown[base][0], cid
        assert figure_for(f"{base}--learner-mine") == f"{base}--mine"
    assert sorted(s for s, ids in declared.items() if not ids) == ["vdh19_regret_vs_eps", "vdh19_regret_vs_nprivate",
                                                                   "ztc22_rho_d"]


def test_the_rules_and_the_report_read_the_declarations_without_drawing():
    """figure_map (read by the Snakefile and the report job) imports the folders' figure modules
    but neither matplotlib nor scipy.stats: the drawing code imports them at its first use
    (dpregret.core.plotting), so reading the declarations costs no import time."""
    import subprocess
    import sys

    code = ("import sys, dpregret.pipeline.report.figure_map, dpregret.pipeline.report.html; "
            "print(sorted(m for m in ('matplotlib', 'scipy.stats') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_a_user_learner_sits_beside_the_papers_in_its_section_with_its_figure(tmp_path):
    """Config key learners: the user's record (<claim>--learner-<name>) is a card in the paper's
    scenario section beside its own figure, says what the claim applies to and shows the paper's
    learner on the same draws; the scoreboard counts the paper's claims only."""
    import base64

    from dpregret.pipeline.report.learner_figure import user_figure
    from dpregret.pipeline.report.tables import applicability

    cid = "AS17-T2-mab-rate-T"
    paths = []
    for env, v in (("stochastic", "PASS"), ("learner-mine", "INCONCLUSIVE")):
        rec = record(Claim(cid, "AS17", "Theorem 4.1", "rate", "s", "regret vs T", "c"),
                     Result(v, 0.5, 0.5, 0.45, 0.7, 0.1, {"x": [1e2, 1e3, 1e4, 1e5], "y": [1.0, 3.0, 10.0, 31.0]}),
                     Result("FAIL", 0.7, 0.5, 0.66, 0.72, 0.1, {"x": [1e2, 1e3, 1e4, 1e5], "y": [1, 4, 20, 90]}),
                     scenario="as17_mab", env=env, ci_level=0.95)
        if env.startswith("learner"):
            rec["paper_learner"] = {"label": "paper (Algorithm 4 + EXP2)", "verdict": "PASS", "measured": 0.54,
                                    "ci": [0.53, 0.56], "control_verdict": "FAIL"}
        paths.append(tmp_path / f"{rec['claim_id']}.json")
        paths[-1].write_text(json.dumps(rec))
    fig = tmp_path / f"{cid}--mine.png"
    r = Result("PASS", 0.5, 0.5, 0.45, 0.55, 0.1, {"x": [1e2, 1e3, 1e4, 1e5], "y": [1.0, 3.0, 10.0, 31.0]})
    user_figure({"paper": (r, r), "mine (yours)": (r, r)}, cid, "regret", str(fig))
    claims_table([str(p) for p in paths]).to_csv(tmp_path / "claims.csv", index=False)
    html = render(str(tmp_path / "claims.csv"), [str(p) for p in paths], [str(fig)],
                  {"preset": "default", "seed": 1, "ci_level": 0.95})
    card = html[html.index(f'id="{cid}--learner-mine"'):]
    card = card[:card.index("</details>")]
    assert "Applies to: any bandit learner" in card and "paper (Algorithm 4 + EXP2)" in card
    section = html[html.index('id="paper-AS17"'):]
    img = section.index(base64.b64encode(fig.read_bytes()).decode()[:200])
    assert img < section.index(f'id="{cid}--learner-mine"')  # the figure, then its card beside it
    assert applicability("AS17-thm4.1-bound") == "the paper's algorithm and parameters"
    board = html[html.index('class="scoreboard"'):html.index("</table>", html.index('class="scoreboard"'))]
    assert "1 of 1" in board  # the paper's claim only


def test_loose_is_counted_coloured_and_explained_apart_from_pass_and_inconclusive(tmp_path):
    """Two AS17 bound claims whose near miss is not caught: one with its worst-case search (LOOSE),
    one without (INCONCLUSIVE, "no worst-case search recorded"); claims.csv carries the detectable
    factor and the search, the scoreboard, the summary counts and the colours count LOOSE apart,
    and the legend says what it is."""
    import numpy as np
    import pandas as pd

    from dpregret.verdict.core import check_bound

    x = np.arange(1.0, 5.0)
    held = lambda: check_bound([np.concatenate([-30 + x, -30 - x])], [0.7], 0.05, bounds=[100.0])  # noqa: E731
    near_miss = check_bound([np.concatenate([-20 + x, -20 - x])], [0.8], 0.05)
    paths = []
    for cid, search in (("AS17-loose", "12 adversaries x 4 horizons"), ("AS17-bare", None)):
        res = held()
        if search:
            res.detail["worst_case_search"] = search
        rec = record(Claim(cid, "AS17", "Thm 4.1", "bound", "s", "m", "bound halved"), res, near_miss,
                     scenario="s", env=None, ci_level=0.95)
        paths.append(tmp_path / f"{cid}.json")
        paths[-1].write_text(json.dumps(rec))
    t = claims_table([str(p) for p in paths])
    t.to_csv(tmp_path / "claims.csv", index=False)
    t = pd.read_csv(tmp_path / "claims.csv").set_index("claim_id")
    assert t.verdict.to_dict() == {"AS17-loose": "LOOSE", "AS17-bare": "INCONCLUSIVE"}
    assert (t.worst_case_search["AS17-loose"] == "12 adversaries x 4 horizons"
            and pd.isna(t.worst_case_search["AS17-bare"]))
    assert (0 < t.detectable_factor["AS17-loose"] < 0.7 and t.detectable_factor["AS17-bare"]
            == t.detectable_factor["AS17-loose"])
    assert t.reason["AS17-bare"].startswith("control not caught; no worst-case search recorded")
    assert t.reason["AS17-loose"].startswith("loose: the bound holds at every non-vacuous point, max ratio 0.7")
    html = render(str(tmp_path / "claims.csv"), [str(p) for p in paths], [], {"preset": "default", "seed": 1,
                                                                             "ci_level": 0.95})
    board = html[html.index('class="scoreboard"'):html.index("</table>", html.index('class="scoreboard"'))]
    assert "<th>PASS</th><th>LOOSE</th><th>INCONCLUSIVE</th><th>FAIL</th>" in board
    row = board[board.index('href="#paper-AS17"'):].split("</tr>")[0]
    assert ('<td class="PASS">0</td><td class="LOOSE">1</td><td class="INCONCLUSIVE">1</td><td '
            'class="FAIL">0</td>' in row)
    assert "2 claims: 1 LOOSE, 1 INCONCLUSIVE;" in html
    assert ".LOOSE{background:" in html and 'class="claim LOOSE-edge" id="AS17-loose"' in html
    assert '<td class="LOOSE">LOOSE<br><small>x ' in html  # the summary row, with its detectable factor
    assert "with so much slack that its near-miss control cannot be caught is <b>LOOSE</b>" in html
