"""CI gates on declared expectations: any verdict or control change is reported."""
import pandas as pd

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
