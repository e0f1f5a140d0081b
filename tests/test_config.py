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
    """dpregret.papers.SCENARIOS is the list; the schema's enum and required keys and the
    default config's scenarios repeat it exactly (the schema is static YAML for Snakemake)."""
    import yaml

    from dpregret.pipeline import config as C
    from dpregret.papers import SCENARIOS

    schema = C.load_schema()
    names = list(SCENARIOS)
    assert list(C.SCENARIOS) == names
    assert schema["properties"]["scenarios"]["items"]["enum"] == names
    assert set(schema["definitions"]["preset"]["required"]) == set(names)
    cfg = yaml.safe_load(open(C.SCHEMA_PATH.parents[3] / "config" / "config.yaml"))
    assert cfg["scenarios"] == names


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
