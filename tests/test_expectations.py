"""CI gates on declared expectations: any verdict or control change is reported."""
import math

import pandas as pd
import pytest

from dpregret.report.expectations import differences, main


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
    pd.DataFrame([("A", "PASS", True, False, 0.9), ("B", "INCONCLUSIVE", False, True, 0.1)], columns=cols).to_csv(want, index=False)
    got = tmp_path / "got.csv"
    pd.DataFrame([("A", "PASS", True, True, 0.2), ("B", "INCONCLUSIVE", False, True, 0.1)], columns=cols).to_csv(got, index=False)
    d = differences(str(got), str(want))
    assert d == ["A: borderline, declared clear (redesign it, or declare it borderline)"]


def test_decision_distance_reads_the_margin_and_the_control():
    from dpregret.report.tables import BORDERLINE_WIDTHS, decision_distance

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
