"""The report's independent accountant: dp-accounting's PLD beside ours, never above ours."""
import math

import pytest
import yaml

from dpregret.pipeline.config import effective
from dpregret.core.accounting import pld_delta, pld_epsilon
from dpregret.pipeline.report import accountant as A

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def test_ours_is_never_below_the_pld_accountant_on_every_stated_level():
    run = effective(yaml.safe_load((ROOT / "config/config.yaml").read_text()))
    rows = A.rows(run)
    papers = {r["paper"] for r in rows}
    assert {"Zhang, Tran, Cutkosky 2022", "Ene, Nguyen, Vladu 2021", "Agarwal and Singh 2017"} <= papers
    for r in rows:
        if "erratum" in r["where"]:
            continue
        assert r["eps_ours"] >= r["eps_pld"] * (1 - 1e-9), r
    # Zhang-Tran-Cutkosky: the RDP conversion is 1-100% above PLD at the stated rho
    ztc = [r for r in rows if r["paper"].startswith("Zhang") and "erratum" not in r["where"]]
    assert all(r["eps_ours"] <= 30 * r["eps_pld"] for r in ztc)


def test_pld_confirms_the_conversion_erratum():
    """Theorem 3's printed (2 rho sqrt(ln(1/delta)), delta) at rho = 10, delta = 0.5: the
    Gaussian mechanism of rho = 10 has delta ~0.9993 at that epsilon, not 0.5."""
    eps = 2 * 10 * math.sqrt(math.log(2))
    assert pld_delta(0.1, eps) == pytest.approx(0.9993, abs=2e-4)
    assert pld_epsilon(0.1, 0.5) > eps
