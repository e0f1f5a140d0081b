"""The paper preset's end-to-end run, committed as ``results-paper/`` (its ``claims.csv`` and the
provenance of the run), and its declared verdicts ``config/expected_verdicts_paper.csv`` agree; the
run is the paper preset of this repository's config at a clean commit (docs/workflow.md, "The paper
preset, run end to end")."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from dpregret.pipeline.report.expectations import differences

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "results-paper"


def test_the_paper_runs_verdicts_are_the_declared_ones():
    assert differences(str(RUN / "claims.csv"), str(ROOT / "config" / "expected_verdicts_paper.csv")) == []


def test_the_paper_run_is_the_paper_preset_at_a_clean_commit():
    prov = json.loads((RUN / "claims.provenance.json").read_text())
    assert prov["config"]["preset"] == "paper"
    assert prov["git_dirty"] is False and len(prov["git_commit"]) == 40
    claims = pd.read_csv(RUN / "claims.csv")
    assert claims.claim_id.is_unique and len(claims) > 0


def test_the_paper_run_is_of_the_current_paper_preset():
    """The committed run's parameters are what ``--config preset=paper`` resolves to now (every scenario's, the
    seed, the tolerances): a change to the paper preset without a new paper run fails here (docs/workflow.md, "The
    paper preset, run end to end", says how long a run takes)."""
    import yaml

    from dpregret.pipeline.config import effective

    prov = json.loads((RUN / "claims.provenance.json").read_text())["config"]
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    now = effective({**cfg, "preset": "paper"})
    keys = [k for k in now if isinstance(now[k], dict) and k not in ("history", "learners", "nonlearners")]
    keys += ["seed", "bootstrap", "ci_level", "chunk_size"]
    stale = {k: "differs" for k in keys if k != "tolerances" and prov.get(k) != now.get(k)}
    # the tolerances of the claims the run decided (a claim added since, not in its claims.csv, is INCONCLUSIVE "not
    # run in this preset" there until the next paper run: its tolerance cannot have moved a number of this run)
    ran = set(pd.read_csv(RUN / "claims.csv").claim_id)
    tol_then = {c: v for c, v in (prov.get("tolerances") or {}).items() if c in ran}
    tol_now = {c: v for c, v in (now.get("tolerances") or {}).items() if c in ran}
    if tol_then != tol_now:
        stale["tolerances"] = sorted(c for c in set(tol_then) | set(tol_now) if tol_then.get(c) != tol_now.get(c))
    assert not stale, f"results-paper/ was run with other parameters than the paper preset's now: {stale}"
