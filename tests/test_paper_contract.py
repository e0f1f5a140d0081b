"""Every paper folder, the four built-in ones and the example of docs/add-a-paper.md, passes one contract
(``dpregret.testing``), parametrised over the registry as scikit-learn's estimator checks are."""
from pathlib import Path

import pytest

from dpregret.papers import BUILTIN
from dpregret.testing import paper_checks

ROOT = Path(__file__).resolve().parents[1]


CASES = [(pkg, c.__name__) for pkg in BUILTIN for c in paper_checks(pkg)]


@pytest.mark.parametrize("package, check", CASES, ids=[f"{p.rsplit('.', 1)[-1]}-{c}" for p, c in CASES])
def test_builtin_paper_folders_pass_the_contract(package, check):
    {c.__name__: c for c in paper_checks(package)}[check]()


@pytest.mark.parametrize("check", [c.__name__ for c in paper_checks("example_paper")])
def test_the_example_paper_passes_the_contract(registry_restored, check):
    {c.__name__: c for c in paper_checks("example_paper")}[check]()


def test_a_rate_claim_without_a_tolerance_is_an_error_naming_it(registry_restored, monkeypatch):
    from dataclasses import replace

    from example_paper import claims as ex

    from dpregret.testing import check_tolerances

    monkeypatch.setitem(ex.CLAIMS, "CBL06-thm2.2-bound", replace(ex.CLAIMS["CBL06-thm2.2-bound"], kind="rate"))
    with pytest.raises(AssertionError, match="CBL06-thm2.2-bound"):
        check_tolerances("example_paper")
