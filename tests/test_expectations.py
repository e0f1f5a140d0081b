"""CI gates on declared expectations: any verdict or control change is reported."""
import math

import pandas as pd
import pytest

from dpregret.pipeline.report.expectations import differences, main


def _csv(tmp_path, name, rows):
    p = tmp_path / name
    pd.DataFrame(rows, columns=["claim_id", "verdict", "control_caught"]).to_csv(p, index=False)
    return str(p)


def test_differences_name_every_change(tmp_path):
    want = _csv(tmp_path, "want.csv", [("A", "PASS", True), ("B", "FAIL", True), ("C", "INCONCLUSIVE", False)])
    same = _csv(tmp_path, "same.csv", [("A", "PASS", True), ("B", "FAIL", True), ("C", "INCONCLUSIVE", False)])
    assert differences(same, want) == []
    got = _csv(tmp_path, "got.csv", [("A", "INCONCLUSIVE", False), ("B", "FAIL", True), ("D", "PASS", True)])
    d = differences(got, want)
    assert "A: verdict INCONCLUSIVE, expected PASS" in d
    assert "A: primary control not caught, expected caught" in d
    assert any(x.startswith("C: expected INCONCLUSIVE, but the claim is missing") for x in d)
    assert any(x.startswith("D: new claim") for x in d)
    assert main([got, want]) == 1 and main([same, want]) == 0


def test_write_then_check_round_trips(tmp_path):
    got = _csv(tmp_path, "got.csv", [("B", "FAIL", True), ("A", "PASS", True)])
    exp = str(tmp_path / "exp.csv")
    assert main([got, exp, "--write"]) == 0
    assert main([got, exp]) == 0


def test_a_claim_drifting_onto_the_knife_edge_is_a_difference(tmp_path):
    cols = ["claim_id", "verdict", "control_caught", "borderline", "decision_distance"]
    want = tmp_path / "want.csv"
    pd.DataFrame([("A", "PASS", True, False, 0.9), ("B", "INCONCLUSIVE", False, True, 0.1)],
                 columns=cols).to_csv(want, index=False)
    got = tmp_path / "got.csv"
    pd.DataFrame([("A", "PASS", True, True, 0.2), ("B", "INCONCLUSIVE", False, True, 0.1)],
                 columns=cols).to_csv(got, index=False)
    d = differences(str(got), str(want))
    assert d == ["A: borderline, declared clear (redesign it, or declare it borderline)"]


def test_decision_distance_reads_the_margin_and_the_control():
    from dpregret.pipeline.report.tables import BORDERLINE_WIDTHS, decision_distance

    def rec(verdict, margin, control_margin=5.0, kind="rate", **extra):
        return {"kind": kind, "result": {"verdict": verdict, "detail": {"margin": margin, **extra}},
                "control_margin": control_margin, "control_margin_unit": "interval widths"}

    assert decision_distance(rec("PASS", -3.0)) == 2.0           # top 2 widths below the threshold
    assert decision_distance(rec("PASS", -1.1)) == pytest.approx(0.1)  # top just under it: borderline
    assert decision_distance(rec("FAIL", 0.05)) == 0.05          # bottom just over it
    assert decision_distance(rec("INCONCLUSIVE", -0.5)) == 0.5   # straddles by half a width each side
    assert decision_distance(rec("PASS", -3.0, control_margin=0.1)) == 0.1  # the control barely caught
    assert math.isnan(decision_distance(rec("PASS", -0.2, kind="privacy")))
    assert 0 < BORDERLINE_WIDTHS < 1


def test_loose_is_a_verdict_of_its_own_and_must_carry_its_search(tmp_path, capsys):
    """A claim moving from INCONCLUSIVE to LOOSE is a difference; the counts keep LOOSE apart; a LOOSE
    row without its worst-case search or detectable factor is a difference of its own."""
    from dpregret.pipeline.report.expectations import loose_unrecorded, verdict_counts

    cols = ["claim_id", "verdict", "control_caught", "detectable_factor", "worst_case_search"]
    want = _csv(tmp_path, "want.csv", [("A", "PASS", True), ("L", "INCONCLUSIVE", False), ("M", "LOOSE", False)])
    got = tmp_path / "got.csv"
    pd.DataFrame([("A", "PASS", True, float("nan"), ""), ("L", "LOOSE", False, 0.3, "12 adversaries"),
                  ("M", "LOOSE", False, float("nan"), "")], columns=cols).to_csv(got, index=False)
    d = differences(str(got), want)
    assert "L: verdict LOOSE, expected INCONCLUSIVE" in d
    assert "M: LOOSE without a worst-case search recorded" in d and "M: LOOSE without a detectable factor" in d
    assert not any(x.startswith("L: LOOSE without") for x in d)
    assert loose_unrecorded(str(got)) == ["M: LOOSE without a worst-case search recorded",
                                          "M: LOOSE without a detectable factor"]
    assert verdict_counts(str(got)) == {"PASS": 1, "LOOSE": 2, "INCONCLUSIVE": 0, "FAIL": 0}
    assert main([str(got), want]) == 1
    assert "verdicts of the run: PASS 1, LOOSE 2, INCONCLUSIVE 0, FAIL 0; declared: PASS 1, LOOSE 1, " \
           "INCONCLUSIVE 1, FAIL 0" in capsys.readouterr().out
    # a table older than the columns cannot show a LOOSE row's search
    old = _csv(tmp_path, "old.csv", [("L", "LOOSE", False)])
    assert loose_unrecorded(old) == ["L: LOOSE in a table without the columns worst_case_search and detectable_factor"]


def test_decision_distance_of_a_loose_bound_reads_its_control():
    """LOOSE moves to PASS when its control is caught: its distance is the nearer of the check's
    interval and the control's margin, as a PASS's is."""
    from dpregret.pipeline.report.tables import decision_distance

    def rec(verdict, margin, control_margin):
        return {"kind": "bound", "result": {"verdict": verdict, "detail": {"margin": margin}},
                "control_margin": control_margin, "control_margin_unit": "interval widths"}

    assert decision_distance(rec("LOOSE", -9.0, -3.0)) == 3.0   # control 3 widths from being caught
    assert decision_distance(rec("LOOSE", -1.05, -3.0)) == pytest.approx(0.05)  # the check near its bound
    assert decision_distance(rec("INCONCLUSIVE", -0.5, -3.0)) == 0.5  # straddling: the control does not count
