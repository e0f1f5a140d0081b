"""Bad configuration stops before any job, naming the key and what is allowed."""
import copy
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dpregret.pipeline.config import ConfigError, effective, replicate_chunks

ROOT = Path(__file__).resolve().parents[1]
CFG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


def test_default_config_is_valid():
    run = effective(copy.deepcopy(CFG))
    assert run["preset"] == "default"
    assert run["as17_experts"]["T"] == sorted(run["as17_experts"]["T"])


@pytest.mark.parametrize("override,key", [
    ({"as17_experts": {"eps": [-1]}}, "as17_experts.eps[0]"),
    ({"as17_experts": {"T": [0]}}, "as17_experts.T[0]"),
    ({"as17_experts": {"N": 1}}, "as17_experts.N"),
    ({"as17_experts": {"envs": ["adaptive"]}}, "as17_experts.envs[0]"),
    ({"as17_experts": {"rate_eps": 3.0}}, "as17_experts.rate_eps"),
    ({"preset": "huge"}, "preset"),
    ({"scenarios": ["nope"]}, "scenarios[0]"),
    ({"ci_level": 1.5}, "ci_level"),
    ({"seed": -3}, "seed"),
    ({"unknown_key": 1}, "(top level)"),
    ({"as17_blo": {"T_eps": 1}}, "as17_blo.T_eps"),
    ({"as17_blo": {"T_switching": [100, 0]}}, "as17_blo.T_switching[1]"),
    ({"as17_mab": {"T_N": 0}}, "as17_mab.T_N"),
    ({"scenarios": ["as17_olo"]}, "scenarios"),  # decided with as17_mab and as17_blo (as17.paper.TOGETHER)
    ({"scenarios": []}, "scenarios"),
])
def test_bad_values_name_the_key(override, key):
    cfg = {**copy.deepcopy(CFG), **override}
    with pytest.raises(ConfigError, match=re.escape(f"'{key}'") if key != "(top level)" else "unknown_key"):
        effective(cfg)


def test_bad_value_fails_before_any_job(tmp_path):
    """The real entry point: snakemake refuses at parse time, names the key, writes nothing."""
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "1", "--config", "preset=huge"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode != 0
    assert "preset" in out.stdout + out.stderr and "smoke" in out.stdout + out.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("as17_experts: {eps: [-1, 2]}\n")
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "1", "--configfile", str(bad)],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode != 0
    assert "as17_experts.eps[0]" in out.stdout + out.stderr
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "1", "--config", "scenarios=[]"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode != 0 and "config key 'scenarios': [] runs nothing" in out.stdout + out.stderr


def test_replicate_chunks_cover_all():
    chunks = replicate_chunks(37, 16)
    assert [list(c) for c in chunks] == [list(range(0, 16)), list(range(16, 32)), list(range(32, 37))]


def test_a_subset_of_scenarios_plans_only_its_jobs(tmp_path):
    """``scenarios: [env21]`` builds env21's claims and the report, nothing of the other papers
    (the experts notebook included)."""
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "1", "-s", str(ROOT / "Snakefile"),
                          "-d", str(tmp_path), "--configfile", str(ROOT / "config" / "config.yaml"),
                          "--config", "preset=smoke", "scenarios=[env21]"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    plan = out.stdout + out.stderr
    assert "env21_simulate" in plan and "report_html" in plan
    for other in ("as17_experts", "ztc22_simulate", "vdh19_simulate", "audit_run", "notebook"):
        assert other not in plan, other


def test_the_scenario_list_has_one_source():
    """dpregret.papers.SCENARIOS is the list (each folder's paper.py declares its own): the composed schema's
    enum, its presets' required keys and config keys, and the default config's scenarios repeat it exactly."""
    import yaml

    from dpregret.pipeline import config as C
    from dpregret.papers import SCENARIOS

    schema = C.load_schema()
    names = list(SCENARIOS)
    assert names == ["as17_experts", "as17_olo", "as17_mab", "as17_blo", "ztc22", "env21", "vdh19", "audit"]
    assert list(C.SCENARIOS) == names
    assert schema["properties"]["scenarios"]["items"]["enum"] == names
    preset = schema["definitions"]["preset"]
    assert sorted(preset["required"]) == sorted(preset["properties"]) == sorted(names)
    for sc in names:  # each scenario: its folder's definition, its config key, its presets' entry
        assert (schema["definitions"][sc]["type"] == "object"
                and schema["definitions"][sc]["additionalProperties"] is False)
        assert schema["properties"][sc] == {"$ref": f"#/definitions/{sc}"}
        ref, req = preset["properties"][sc]["allOf"]
        assert (ref == {"$ref": f"#/definitions/{sc}"} and set(req["required"])
                <= set(schema["definitions"][sc]["properties"]))
    cfg = yaml.safe_load(open(C.SCHEMA_PATH.parents[3] / "config" / "config.yaml"))
    assert cfg["scenarios"] == names
    for preset_name, params in cfg["presets"].items():  # every preset gives every scenario its parameters
        assert set(params) == set(names), preset_name


def test_each_folder_declares_its_scenarios_parameters():
    """A paper's scenarios' parameters live in its folder (config.schema.yaml, package data), the shared
    definitions and the audits' in the pipeline's part: the composed schema holds both."""
    from dpregret.pipeline import config as C
    from dpregret.papers import BUILTIN, SCENARIOS

    own = yaml.safe_load(C.SCHEMA_PATH.read_text())["definitions"]
    assert {"pos_list", "int_list", "envs", "audit", "preset"} == set(own)
    for package in BUILTIN:
        part = C.fragment(package)
        mine = [s.name for s in SCENARIOS.values() if s.folder == package]
        assert mine and set(mine) <= set(part["definitions"]) and set(part["required_in_presets"]) == set(mine), package
    assert C.fragment("dpregret.pipeline.report") is None


@pytest.mark.parametrize("part, says", [
    ({"definitions": {"int_list": {}}, "required_in_presets": {}}, "definitions ['int_list'] are already defined"),
    ({"definitions": {}, "required_in_presets": {}}, "scenario 'vdh19' needs a definition"),
    (None, "missing (the parameters of scenario 'vdh19')"),
])
def test_a_folders_part_that_does_not_fit_is_an_error_naming_the_file(monkeypatch, part, says):
    from dpregret.pipeline import config as C

    real = C.fragment
    monkeypatch.setattr(C, "fragment", lambda pkg: part if pkg == "dpregret.papers.vdh19" else real(pkg))
    with pytest.raises(ValueError, match=re.escape(f"dpregret.papers.vdh19/config.schema.yaml: {says}")):
        C.load_schema()


@pytest.mark.parametrize("override,key", [
    ({"ztc22": {"d": 31}}, "ztc22.d"),
    ({"env21": {"tree_nodes": 9}}, "env21.tree_nodes"),
    ({"vdh19": {"u_frac": [0.5, 2.0]}}, "vdh19.u_frac"),
    ({"as17_olo": {"regret_regime": {"privacy_share_max": 2}}}, "as17_olo.regret_regime.privacy_share_max"),
    ({"audit": {"samples": 10}}, "audit.samples"),
    ({"ztc22": {"no_such_key": 1}}, "ztc22"),
])
def test_bad_values_of_each_folders_parameters_name_the_key(override, key):
    cfg = {**copy.deepcopy(CFG), **override}
    with pytest.raises(ConfigError, match=re.escape(f"config key '{key}'")):
        effective(cfg)


def test_a_preset_lacking_a_required_key_names_it():
    cfg = copy.deepcopy(CFG)
    del cfg["presets"]["smoke"]["vdh19"]["tau"]
    with pytest.raises(ConfigError, match=re.escape("config key 'presets.smoke.vdh19': 'tau' is a required property")):
        effective(cfg)
    cfg = copy.deepcopy(CFG)
    del cfg["presets"]["paper"]["env21"]
    with pytest.raises(ConfigError, match=re.escape("config key 'presets.paper': 'env21' is a required property")):
        effective(cfg)


def test_snakemakes_validate_reads_the_composed_schema(tmp_path):
    """The file written for Snakemake's validate() (write_schema: rewritten only when it changes) is the
    composed schema: it accepts the default config and refuses a bad value of a folder's parameters."""
    from snakemake.exceptions import WorkflowError
    from snakemake.utils import validate

    from dpregret.pipeline import config as C

    schema = C.load_schema()
    path = C.write_schema(schema, tmp_path / "s" / "config.schema.json")
    mtime = Path(path).stat().st_mtime_ns
    assert C.write_schema(C.load_schema(), path) == path and Path(path).stat().st_mtime_ns == mtime
    validate(copy.deepcopy(CFG), path)
    with pytest.raises(WorkflowError, match=r"9 is greater than the maximum of 8(.|\n)*\['env21'\]\['tree_nodes'\]"):
        validate({**copy.deepcopy(CFG), "env21": {"tree_nodes": 9}}, path)


def test_config_yaml_has_no_duplicate_keys():
    """YAML keeps the last of two equal keys silently: a second ``history:`` entry of a claim once hid
    the first list.  Every mapping of config/config.yaml has distinct keys."""
    import yaml

    class Strict(yaml.SafeLoader):
        pass

    def mapping(loader, node, deep=False):
        keys = [loader.construct_object(k, deep=deep) for k, _ in node.value]
        dup = sorted({str(k) for k in keys if keys.count(k) > 1})
        assert not dup, f"duplicate keys in config/config.yaml (line {node.start_mark.line + 1}): {dup}"
        return yaml.SafeLoader.construct_mapping(loader, node, deep)

    Strict.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    path = Path(__file__).resolve().parents[1] / "config" / "config.yaml"
    with open(path) as fh:
        assert yaml.load(fh, Strict)
