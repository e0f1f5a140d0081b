"""environment.yml mirrors pyproject.toml's requirements (runtime + test extra)."""
import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _norm(req: str) -> tuple[str, str]:
    m = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*(.*)", req)
    return m.group(1).lower().replace("_", "-"), m.group(2).replace(" ", "")


def test_environment_yml_matches_pyproject():
    py = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    opt = py["optional-dependencies"]
    wanted = {_norm(r) for r in py["dependencies"] + opt["test"] + opt["slurm"]}
    env = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    have = set()
    for d in env:
        if isinstance(d, dict):
            have |= {_norm(r) for r in d["pip"] if not r.startswith("-e")}
        elif not d.startswith(("python", "pip")):
            have.add(_norm(d))
    assert have == wanted
    assert any(isinstance(d, str) and d.replace(" ", "") == f"python{py['requires-python']}" for d in env)
