"""The audits of the learners' own noise paths (papers.as17.audit, papers.ztc22.audit) and the realised
noise-scale checks: the correct code passes, the half-noise control is caught by a wide margin, the
scale check accepts the formula's noise and rejects twice and half of it (test_audit.py runs the
generic checks of every spec, these included)."""
from __future__ import annotations

import numpy as np
import pytest

from dpregret.verdict.privacy import run_audit
from dpregret.verdict.privacy_audit import scale_check
from dpregret.pipeline.registry import audit_specs

NEW = ("AUDIT-as17-cor3.2-olo-tree", "AUDIT-as17-thm3.5-ftpl-tree", "AUDIT-ztc-dpsgd")
N, ALPHA, SEED = 20_000, 0.05, 20221
SPECS = audit_specs()


@pytest.fixture(scope="module")
def runs():
    return {cid: run_audit(SPECS[cid], N, ALPHA, SEED) for cid in (*NEW, "AUDIT-l2-randomiser")}


def _claim(spec):
    return spec.gaussian_mu if spec.gdp_only else spec.eps


@pytest.mark.parametrize("cid", NEW)
def test_correct_passes_and_half_noise_is_caught(runs, cid):
    spec = SPECS[cid]
    res, primary, _ = runs[cid]
    assert res.verdict == "PASS" and res.measured < _claim(spec)
    # the half-noise control doubles eps (mu): its lower bound clears the claim by more than half of it
    assert primary.verdict == "FAIL" and primary.measured > 1.5 * _claim(spec), (cid, primary.measured)


@pytest.mark.parametrize("cid", ("AUDIT-ztc-dpsgd", "AUDIT-l2-randomiser"))
def test_scale_check_accepts_the_formula_and_rejects_its_controls(runs, cid):
    sc = runs[cid][0].detail["stat_check"]
    assert sc["failure"] is None
    lo, hi = sc["ci"]
    assert lo < sc["formula"] < hi
    assert sc["controls_caught"], sc["controls"]
    for c in sc["controls"].values():  # each control's interval far from the formula (> 5 half-widths)
        lo, hi = c["ci"]
        assert min(abs(lo - sc["formula"]), abs(hi - sc["formula"])) > 5 * (hi - lo) / 2


def test_scale_check_both_ways():
    rng = np.random.default_rng(0)
    x = rng.exponential(2.0, 50_000)
    assert scale_check(x, 2.0 * 1.1, 1e-3, "mean")[0] is not None  # 10% too much noise
    assert scale_check(x, 2.0 / 1.1, 1e-3, "mean")[0] is not None  # 10% too little
    err, info = scale_check(x, 2.0, 1e-3, "mean")
    assert info["ci"][0] < 2.0 < info["ci"][1] and (err is None)
