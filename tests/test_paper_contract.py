"""Every paper folder, the four built-in ones and every folder under examples/ (the example of
docs/add-a-paper.md, and any paper copied from it), passes one contract (``dpregret.testing``), parametrised
over the registry and the examples as scikit-learn's estimator checks are."""
from pathlib import Path

import pytest

from dpregret.papers import BUILTIN
from dpregret.testing import paper_checks

ROOT = Path(__file__).resolve().parents[1]


CASES = [(pkg, c.__name__) for pkg in BUILTIN for c in paper_checks(pkg)]
# the paper folders under examples/ (tests/conftest.py puts examples/ on the path)
EXAMPLES = sorted(d.name for d in (ROOT / "examples").iterdir() if (d / "paper.py").is_file())
EXAMPLE_CASES = [(pkg, c.__name__) for pkg in EXAMPLES for c in paper_checks(pkg)]


@pytest.mark.parametrize("package, check", CASES, ids=[f"{p.rsplit('.', 1)[-1]}-{c}" for p, c in CASES])
def test_builtin_paper_folders_pass_the_contract(package, check):
    {c.__name__: c for c in paper_checks(package)}[check]()


@pytest.mark.parametrize("package, check", EXAMPLE_CASES, ids=[f"{p}-{c}" for p, c in EXAMPLE_CASES])
def test_the_example_papers_pass_the_contract(registry_restored, package, check):
    {c.__name__: c for c in paper_checks(package)}[check]()


def test_the_examples_folder_holds_the_example_paper():
    assert "example_paper" in EXAMPLES


def test_a_rate_claim_without_a_tolerance_is_an_error_naming_it(registry_restored, monkeypatch):
    from dataclasses import replace

    from example_paper import claims as ex

    from dpregret.testing import check_tolerances

    monkeypatch.setitem(ex.CLAIMS, "CBL06-thm2.2-bound", replace(ex.CLAIMS["CBL06-thm2.2-bound"], kind="rate"))
    with pytest.raises(AssertionError, match="CBL06-thm2.2-bound"):
        check_tolerances("example_paper")


def test_a_door_whose_paper_learner_is_not_the_papers_fails_the_contract(registry_restored, monkeypatch):
    """The door's check compares the paper's learner on the door with the paper's rows: Hedge at half the
    eta on the door is not the paper's Hedge, and the contract says which entry and rows differ."""
    from dataclasses import replace

    from example_paper import learners, scenario

    from dpregret.testing import check_door

    half = replace(scenario.USER_CLAIMS[0].paper_on_door,
                   make=lambda p, pt, reps, seed: lambda R, N, T: learners.Hedge(R, N, learners.eta_thm_2_2(N, T) / 2))
    monkeypatch.setattr(scenario, "USER_CLAIMS", (replace(scenario.USER_CLAIMS[0], paper_on_door=half),))
    with pytest.raises(AssertionError, match="CBL06-thm2.2-bound: the paper's learner on the door against hedge"):
        check_door("example_paper")
    monkeypatch.setattr(scenario, "USER_CLAIMS", (replace(scenario.USER_CLAIMS[0], claim="CBL06-nope"),))
    with pytest.raises(AssertionError, match="CBL06-nope names no claim the folder declares"):
        check_door("example_paper")


def test_a_declared_figure_the_run_did_not_draw_fails_the_contract(registry_restored, tmp_path):
    """check_drawn reads the run's figures/ beside its results/: a missing, empty or non-PNG declared figure is
    named; the drawn one passes."""
    from dpregret.testing import check_drawn

    (tmp_path / "results").mkdir()
    png = tmp_path / "figures" / "cbl06_hedge" / "cbl06_regret_vs_T.png"
    with pytest.raises(AssertionError, match="did not draw.*figures/cbl06_hedge/cbl06_regret_vs_T.png"):
        check_drawn("example_paper", tmp_path / "results")
    png.parent.mkdir(parents=True)
    png.write_bytes(b"")
    with pytest.raises(AssertionError, match="drew empty"):
        check_drawn("example_paper", tmp_path / "results")
    png.write_bytes(b"<svg/>")
    with pytest.raises(AssertionError, match="not PNG files"):
        check_drawn("example_paper", tmp_path / "results")
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 8)
    check_drawn("example_paper", tmp_path / "results")
