"""Every claim changed after a result was seen (its ``history``) is re-decided on at least two root seeds
never used in its design, recorded in config/fresh_seeds.csv (``dpregret.pipeline.report.fresh_seeds``)."""
from __future__ import annotations

import pandas as pd
import yaml

from dpregret.pipeline.report import fresh_seeds as fs

CONFIG = yaml.safe_load((fs.ROOT / "config" / "config.yaml").read_text())
HISTORY = CONFIG["history"]
EXPECTED = pd.read_csv(fs.ROOT / "config" / "expected_verdicts.csv")


def test_every_record_of_a_changed_claim_has_two_fresh_seeds():
    fresh = fs.load()
    records = fs.changed(EXPECTED, HISTORY).claim_id
    assert len(records) > 0
    seen = fresh.groupby("claim_id").seed.nunique()
    missing = [c for c in records if seen.get(c, 0) < 2]
    assert missing == [], f"re-decide these on two fresh seeds: {fs.__doc__.splitlines()[-4]}"


def test_the_fresh_seeds_were_used_in_no_design():
    fresh = fs.load()
    assert int(CONFIG["seed"]) not in set(fresh.seed)
    for cid, g in fresh.groupby("claim_id"):
        used = fs.seeds_named(HISTORY, fs.base_id(cid)) | fs.seeds_named(HISTORY, cid)
        assert not (set(g.seed) & used), (cid, sorted(set(g.seed) & used))


def test_every_history_claim_is_a_claim_of_the_run():
    ids = set(EXPECTED.claim_id) | set(EXPECTED.claim_id.map(fs.base_id))
    assert sorted(set(HISTORY) - ids) == []


def test_report_rows_list_each_record_with_its_fresh_verdicts_and_flag_a_difference():
    claims = pd.DataFrame({"claim_id": ["A-x--fixed", "A-x--stochastic", "B-y", "B-y--learner-nonlearner_oco", "C-z"],
                           "verdict": ["PASS", "FAIL", "LOOSE", "PASS", "PASS"]})
    history = {"A-x": [{"change": "grid", "reason": "seen; seeds 4242 and 90210"}], "B-y": [{"change": "span"}]}
    fresh = pd.DataFrame({"claim_id": ["A-x--fixed", "A-x--fixed", "A-x--stochastic", "B-y"], "seed": [1, 2, 1, 2],
                          "verdict": ["PASS", "PASS", "INCONCLUSIVE", "LOOSE"], "commit": ["abc"] * 4})
    out = fs.report_rows(claims, history, fresh)
    assert out["seeds"] == [1, 2] and out["commits"] == ["abc"]
    assert [r["claim_id"] for r in out["rows"]] == ["A-x--fixed", "A-x--stochastic", "B-y"]
    assert out["rows"][1]["fresh"] == ["INCONCLUSIVE", "not run"] and out["disagree"] == ["A-x--stochastic", "B-y"]
    assert fs.seeds_named(history, "A-x") == {4242, 90210}
