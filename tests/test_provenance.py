"""Every record says which code, versions and configuration produced it."""
import json

from dpregret.core import provenance as P
from dpregret.verdict.core import Claim, Result, record
from dpregret.pipeline.report.html import render
from dpregret.pipeline.report.tables import claims_table


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
    html = render(str(tmp_path / "claims.csv"), [str(tmp_path / "c.json")], [],
                  {"preset": "default", "provenance": workflow})
    footer = html[html.index('<footer id="provenance">'):]
    assert "f" * 40 in footer and workflow["config_hash"] in footer and "numpy" in footer


def test_provenance_names_the_machine_and_the_pinned_arithmetic(tmp_path):
    """The machine a job sees (asked of a process started as the workflow starts its jobs): the CPU,
    its x86-64 level, NumPy's kernels, libm, numba's target and OpenBLAS's kernels; the footer shows them."""
    from dpregret.core import cpu

    m = P.provenance({"seed": 1})["machine"]
    assert m["cpu"]["model"] and m["cpu"]["host_level"]
    if cpu.is_x86_64():
        assert m["pinned"] is True
        assert m["numpy"]["dispatched_on"] == [] and m["numba"]["cpu_name"] == "generic"
        assert m["libm"]["fma_variants_masked"] and m["blas"]["core"] == "Nehalem" and m["blas"]["threads"] == "1"
    claim = Claim("X-1", "AS17", "Thm 1", "bound", "s", "m", "c")
    rec = record(claim, Result("PASS", 0.5, 1.0, 0.4, 0.6, 0.0), Result("FAIL", 2.0, 1.0, 1.5, 2.5, 0.0),
                 scenario="s", env=None, ci_level=0.95)
    (tmp_path / "c.json").write_text(json.dumps(rec))
    claims_table([str(tmp_path / "c.json")]).to_csv(tmp_path / "claims.csv", index=False)
    html = render(str(tmp_path / "claims.csv"), [str(tmp_path / "c.json")], [],
                  {"preset": "default", "provenance": {**P.provenance({"seed": 1}), "machine": m}})
    footer = html[html.index('<footer id="provenance">'):]
    assert m["cpu"]["model"] in footer and "numba target generic" in footer
    assert ("Arithmetic pinned" in footer) == bool(m["pinned"])


def test_the_source_digest_follows_the_modules_a_job_runs(tmp_path, monkeypatch):
    """``source_digest`` (the workflow's rerun trigger, param ``code``) changes with a module of the package and
    not with its bytecode; the layers every job runs (core, verdict) are in it whatever the package."""
    from dpregret.core.provenance import source_digest

    pkg = tmp_path / "digest_pkg"
    (pkg / "__pycache__").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "learners.py").write_text("ETA = 1.0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = source_digest("digest_pkg")
    (pkg / "__pycache__" / "learners.cpython-311.pyc").write_bytes(b"\0" * 8)
    assert source_digest("digest_pkg") == before
    (pkg / "learners.py").write_text("ETA = 2.0\n")
    assert source_digest("digest_pkg") != before
    assert source_digest("digest_pkg", "dpregret.core") == source_digest("digest_pkg")
