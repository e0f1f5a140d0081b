"""Every record says which code, versions and configuration produced it."""
import json

from dpregret import provenance as P
from dpregret.claims.core import Claim, Result, record
from dpregret.report.html import render
from dpregret.report.tables import claims_table


def test_provenance_names_the_commit_the_config_hash_and_the_versions():
    run = {"seed": 1, "as17_experts": {"eps": [1, 4]}}
    p = P.provenance(run)
    assert p["git_commit"] and len(p["git_commit"]) == 40 and isinstance(p["git_dirty"], bool)
    assert p["config_hash"] == P.config_hash({"as17_experts": {"eps": [1, 4]}, "seed": 1})  # key order is irrelevant
    assert p["config_hash"] != P.config_hash({**run, "seed": 2})
    assert set(P.PACKAGES) <= set(p["versions"]) and all(p["versions"][k] for k in ("numpy", "scipy", "pandas"))
    assert p["python"].startswith("3.") and p["platform"]
    assert P.git_state("/")["commit"] is None  # not a checkout: recorded as unknown, no error


def test_records_carry_the_workflows_provenance(monkeypatch, tmp_path):
    claim = Claim("X-1", "AS17", "Thm 1", "bound", "s", "m", "c")
    res, ctl = Result("PASS", 0.5, 1.0, 0.4, 0.6, 0.0), Result("FAIL", 2.0, 1.0, 1.5, 2.5, 0.0)
    workflow = {**P.provenance({"seed": 3}), "git_commit": "f" * 40}
    monkeypatch.setenv(P.ENV_VAR, json.dumps(workflow))
    rec = record(claim, res, ctl, scenario="s", env=None, ci_level=0.95)
    assert rec["provenance"] == workflow
    monkeypatch.delenv(P.ENV_VAR)
    assert record(claim, res, ctl, scenario="s", env=None, ci_level=0.95)["provenance"]["config_hash"] is None
    (tmp_path / "c.json").write_text(json.dumps(rec))
    claims_table([str(tmp_path / "c.json")]).to_csv(tmp_path / "claims.csv", index=False)
    html = render(str(tmp_path / "claims.csv"), [str(tmp_path / "c.json")], [], {"preset": "default", "provenance": workflow})
    footer = html[html.index('<footer id="provenance">'):]
    assert "f" * 40 in footer and workflow["config_hash"] in footer and "numpy" in footer
