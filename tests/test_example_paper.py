"""A new paper in one folder: examples/example_paper (Cesa-Bianchi and Lugosi 2006, Theorem 2.2) is
registered by the config key ``papers`` and runs through the workflow's generic rules, the claims
table and the report, while no file outside its folder (this test and the how-to aside) names it."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from dpregret import papers
from dpregret.pipeline.config import ConfigError, effective
import yaml

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "examples" / "example_paper"


def _config(**over):
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    cfg.update(over)
    return cfg


def test_the_config_key_papers_registers_the_folder_and_its_parameters(registry_restored):
    run = effective(_config(preset="smoke", scenarios=["vdh19"], papers=["example_paper"]))
    assert run["papers"] == {"example_paper": {"cbl06_hedge": run["cbl06_hedge"]}}
    assert run["cbl06_hedge"]["T"] == [100, 400, 1600]
    assert papers.ORDER[-1] == "CBL06" and papers.SCENARIOS["cbl06_hedge"].generic
    from dpregret.pipeline.registry import all_claims

    assert "CBL06-thm2.2-bound" in all_claims() and "AS17-T2-mab-rate-T" in all_claims()


@pytest.mark.parametrize("pkg, says", [("no_such_paper", "cannot import no_such_paper.paper"),
                                       ("example_paper.learners", "cannot import example_paper.learners.paper")])
def test_a_package_that_is_not_a_paper_is_a_clear_config_error(registry_restored, pkg, says):
    with pytest.raises(ConfigError, match="config key 'papers'") as err:
        effective(_config(preset="smoke", scenarios=["vdh19"], papers=[pkg]))
    assert says in str(err.value)


def test_bad_parameters_of_the_paper_are_a_clear_config_error(registry_restored, monkeypatch):
    from example_paper import paper

    monkeypatch.setitem(paper.PRESETS, "smoke", {"cbl06_hedge": {**paper.PRESETS["smoke"]["cbl06_hedge"], "mu": [0.5]}})
    with pytest.raises(ConfigError,
                       match=r"config key 'papers': example_paper, scenario cbl06_hedge: mu must hold N = 2"):
        effective(_config(preset="smoke", scenarios=["vdh19"], papers=["example_paper"]))


@pytest.mark.parametrize("bad, says", [({"T": [100, 0]}, "key 'T[1]': 0 is less than the minimum of 1"),
                                       ({"mu": [0.25, 1.5]}, "key 'mu[1]': 1.5 is greater than the maximum of 1"),
                                       ({"eta": 0.1}, "key '(top level)': Additional properties are not allowed")])
def test_the_papers_schema_checks_its_parameters(registry_restored, monkeypatch, bad, says):
    """The folder's config.schema.yaml (its part of the config schema, as a built-in folder's) checks its PRESETS."""
    from example_paper import paper

    monkeypatch.setitem(paper.PRESETS, "smoke", {"cbl06_hedge": {**paper.PRESETS["smoke"]["cbl06_hedge"], **bad}})
    with pytest.raises(ConfigError) as err:
        effective(_config(preset="smoke", scenarios=["vdh19"], papers=["example_paper"]))
    assert str(err.value).startswith("config key 'papers': example_paper, scenario cbl06_hedge: "
                                     f"{says}"), str(err.value)


def test_a_registered_scenarios_parameters_are_overridden_from_the_config(registry_restored):
    """The scenario's top-level config key overrides its preset's parameters, as a built-in scenario's, checked
    against the folder's config.schema.yaml and named by its key when refused."""
    run = effective(_config(preset="smoke", scenarios=["vdh19"], papers=["example_paper"],
                            cbl06_hedge={"T": [100, 200, 400, 800], "replicates": 8}))
    assert run["cbl06_hedge"] == {"N": 2, "mu": [0.25, 0.75], "T": [100, 200, 400, 800], "replicates": 8}
    assert run["papers"]["example_paper"]["cbl06_hedge"] == run["cbl06_hedge"]
    for bad, says in (({"T": [100, 0]}, "config key 'cbl06_hedge.T[1]': 0 is less than the minimum of 1"),
                      ({"eta": 0.1}, "config key 'cbl06_hedge': Additional properties are not allowed")):
        with pytest.raises(ConfigError) as err:
            effective(_config(preset="smoke", scenarios=["vdh19"], papers=["example_paper"], cbl06_hedge=bad))
        assert str(err.value).startswith(says), str(err.value)


def test_a_registered_scenarios_override_reaches_the_workflows_plan(tmp_path):
    """Through Snakemake (a config file holding ``cbl06_hedge: {T: [100, 250]}``): the jobs planned are the
    overridden grid's."""
    (tmp_path / "mine.yaml").write_text("cbl06_hedge: {T: [100, 250]}\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "examples"), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "1", "-s", str(ROOT / "Snakefile"),
                          "-d", str(tmp_path), "--configfile", str(ROOT / "config" / "config.yaml"),
                          str(tmp_path / "mine.yaml"), "--config", "preset=smoke", "scenarios=[]",
                          "papers=[example_paper]", "mutation=False"], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "results/cbl06_hedge/runs/T250/" in out.stdout and "results/cbl06_hedge/runs/T400/" not in out.stdout


def test_the_example_papers_door_decides_your_learner_beside_hedge(registry_restored):
    """The folder's ``USER_CLAIMS``: the claim is listed by ``dpregret.applicable()`` once the paper is registered,
    and ``dpregret.check`` decides a learner of the experts setting beside Hedge on the same losses: Hedge on
    the door gets the paper's decision, the setting's non-learner (weights frozen at uniform) FAILs the bound."""
    import dpregret
    from dpregret.pipeline.nonlearners import MAKES
    from example_paper.learners import hedge_thm_2_2

    assert "CBL06-thm2.2-bound" not in dpregret.applicable().index
    papers.register("example_paper")
    row = dpregret.applicable().loc["CBL06-thm2.2-bound"]
    assert row.setting == "experts" and row["make"] == "make(R, N, T)"
    mine = dpregret.check(hedge_thm_2_2, "CBL06-thm2.2-bound", name="mine", preset="default").verdicts
    assert mine.verdict.tolist() == ["PASS", "PASS"] and mine.control_caught.all()
    assert mine.measured.iloc[0] == pytest.approx(mine.measured.iloc[1], rel=1e-12)
    assert mine.ci_high.max() < -1.0  # far below the bound (interval in regret minus bound)
    frozen = dpregret.check(MAKES["experts"], "CBL06-thm2.2-bound", name="frozen", preset="default").verdicts
    assert frozen.set_index("learner").loc["frozen", "verdict"] == "FAIL"


def test_a_paper_key_already_taken_is_refused(registry_restored, monkeypatch):
    from example_paper import paper

    monkeypatch.setattr(paper, "PAPER", papers.PAPERS["AS17"])
    with pytest.raises(ConfigError, match="paper key 'AS17', already taken"):
        effective(_config(preset="smoke", scenarios=["vdh19"], papers=["example_paper"]))


def test_no_file_outside_the_folder_names_the_example_paper():
    """The folder is the whole of the paper: no central list, rule, schema or report table names it."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    allowed = {"tests/test_example_paper.py", "tests/test_paper_contract.py", "docs/add-a-paper.md", ".ci/run",
               "docs/workflow.md"}  # the how-to, the contract, CI, and the tests' list naming this test file
    naming = []
    for rel in listed:
        # examples/ holds paper folders, each its own (a copy of the example names what it copied until renamed)
        if rel.startswith("examples/") or rel in allowed or not (ROOT / rel).is_file():
            continue
        text = (ROOT / rel).read_bytes()
        if any(word in text for word in (b"example_paper", b"CBL06", b"cbl06")):
            naming.append(rel)
    assert naming == []
    mine = {Path(r).name for r in listed if r.startswith("examples/example_paper/")}
    assert {"paper.py", "claims.py", "scenario.py"} <= mine


@pytest.mark.slow  # a smoke run of the workflow and the report in a subprocess: python -m pytest -m slow
def test_the_example_paper_runs_through_the_workflow_and_the_report(tmp_path):
    """A smoke run with the example paper beside one of the four (the mutation suite off): its claim
    is decided with its near-miss and non-learner controls caught, its figure drawn, and the report
    shows both under the paper's name."""
    shutil.copytree(ROOT / "config", tmp_path / "config")
    (tmp_path / "mine.yaml").write_text("learners: {mine: {make: 'example_paper.learners:hedge_thm_2_2', "
                                        "setting: experts}}\n")  # Hedge again, through the folder's door
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "examples"), os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d",
                    str(tmp_path), "--cores", "2", "--configfile", str(tmp_path / "config" / "config.yaml"),
                    str(tmp_path / "mine.yaml"), "--config", "preset=smoke", "scenarios=[vdh19]",
                    "papers=[example_paper]", "mutation=False"],
                   check=True, capture_output=True, text=True, env=env)
    table = pd.read_csv(tmp_path / "results" / "claims.csv").set_index("claim_id")
    row = table.loc["CBL06-thm2.2-bound"]
    rec = json.loads((tmp_path / "results" / "claims" / "CBL06-thm2.2-bound.json").read_text())
    highs = rec["result"]["detail"]["ci_high"]
    assert max(highs) < -1.0  # far below the bound at every T (the interval nowhere near 0)
    assert row.verdict == "PASS" and row.control_verdict == "FAIL" and bool(row.control_caught)
    assert rec["nonlearner"] == "uniform" and rec["result"]["detail"]["nonlearner"]["caught"]
    assert rec["result"]["detail"]["twin"]["caught"] and bool(row.twin_caught)
    assert (tmp_path / "figures" / "cbl06_hedge" / "cbl06_regret_vs_T.png").stat().st_size > 10_000
    html = (tmp_path / "report" / "index.html").read_text()
    assert "Cesa-Bianchi and Lugosi 2006" in html and "CBL06-thm2.2-bound" in html and "cbl06_regret_vs_T.png" in html
    assert set(table.paper.unique()) == {"VDH19", "CBL06"}
    door = json.loads((tmp_path / "results" / "claims" / "CBL06-thm2.2-bound--learner-mine.json").read_text())
    assert door["result"]["measured"] == pytest.approx(rec["result"]["measured"], rel=1e-12)
    assert door["paper_learner"]["verdict"] == row.verdict and door["control_result"]["verdict"] == "FAIL"


def test_a_registered_papers_mutants_join_the_suite_after_the_list(tmp_path):
    """A folder's ``mutants.py`` (plain data, as the four folders') is found through ``dpregret.papers.folders``:
    the registry places the registered paper's mutant after its list, and the built-in order is unchanged."""
    shutil.copytree(FOLDER, tmp_path / "example_paper")
    (tmp_path / "example_paper" / "mutants.py").write_text(
        "MUTANTS = [dict(name='cbl-eta-without-8', paper='CBL06', category='learner', doc='eta without the 8.',\n"
        "                targets=('CBL06-thm2.2-bound',),\n"
        "                edits=(('example_paper.learners:eta_thm_2_2', 'np.sqrt(8.0 *', 'np.sqrt(1.0 *'),))]\n")
    code = ("from dpregret.pipeline.mutation.registry import MUTANTS; import json; "
            "print(json.dumps([(m.name, m.paper, m.targets) for m in MUTANTS.values()]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    run = lambda extra: json.loads(subprocess.run([sys.executable, "-c", code], env={**env, **extra},  # noqa: E731
                                                  check=True, capture_output=True, text=True).stdout)
    with_paper, without = run({papers.ENV_VAR: "example_paper"}), run({papers.ENV_VAR: ""})
    assert with_paper[-1] == ["cbl-eta-without-8", "CBL06", ["CBL06-thm2.2-bound"]]
    from dpregret.pipeline.mutation.registry import MUTANTS

    assert with_paper[:-1] == without and len(without) == len(MUTANTS)


def test_the_docs_generator_prints_a_registered_papers_claims_table():
    """``python -m dpregret.pipeline.docs --stdout`` gives the block a registered paper's table would have in
    docs/claims.md, written from its declarations, with nothing edited outside its folder."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "examples"), os.environ.get("PYTHONPATH", "")]),
           papers.ENV_VAR: "example_paper"}
    out = subprocess.run([sys.executable, "-m", "dpregret.pipeline.docs", "--stdout"], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert "<!-- claims:registered begin -->" in out and "<!-- packages: example_paper -->" in out
    assert "| `CBL06-thm2.2-bound` | Theorem 2.2 | bound |" in out
    assert "AS17-" not in out  # the built-in papers' tables stay in docs/claims.md


def copy_renamed(dst: Path, name: str = "my_paper", key: str = "MY24") -> Path:
    """The example folder copied as docs/add-a-paper.md says ("Start from the example"): its paper key,
    scenario, claim ids and figure stems renamed inside the folder only."""
    shutil.copytree(FOLDER, dst / name, ignore=shutil.ignore_patterns("__pycache__"))
    for f in (dst / name).iterdir():
        if f.suffix in (".py", ".yaml"):
            f.write_text(f.read_text().replace("CBL06", key).replace("cbl06", key.lower()))
    return dst / name


def _outside_registered(text: str) -> str:
    return re.sub(r"<!-- claims:registered begin -->.*?<!-- claims:registered end -->", "", text, flags=re.S)


def test_a_copied_folder_gets_its_table_in_docs_claims_md(tmp_path):
    """A folder copied from the example appears in docs/claims.md by the generator alone: its table in the
    registered block, kept by a later regeneration without DPREGRET_PAPERS, the rest of the file untouched."""
    copy_renamed(tmp_path)
    doc = tmp_path / "docs" / "claims.md"
    doc.parent.mkdir()
    shutil.copy(ROOT / "docs" / "claims.md", doc)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    gen = lambda *args, **extra: subprocess.run([sys.executable, "-m", "dpregret.pipeline.docs", *args, str(doc)],  # noqa: E731
                                                env={**env, **extra}, capture_output=True, text=True)
    assert gen(**{papers.ENV_VAR: "my_paper"}).returncode == 0
    text = doc.read_text()
    assert "<!-- packages: my_paper -->" in text and "| `MY24-thm2.2-bound` | Theorem 2.2 | bound |" in text
    assert _outside_registered(text) == _outside_registered((ROOT / "docs" / "claims.md").read_text())
    assert gen(**{papers.ENV_VAR: ""}).returncode == 0 and doc.read_text() == text  # kept without the variable
    assert gen("--check", **{papers.ENV_VAR: ""}).returncode == 0


def test_an_empty_scenarios_list_without_papers_is_a_clear_config_error():
    with pytest.raises(ConfigError, match=r"config key 'scenarios': \[\] runs nothing"):
        effective(_config(preset="smoke", scenarios=[]))
