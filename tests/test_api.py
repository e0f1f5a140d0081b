"""The public API: the README's own-learner example runs as written and prints verdicts for the
user's learner with its control caught; the paper's learner gets the pipeline's numbers; bad
input names what is wrong."""
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _readme_example() -> str:
    text = (ROOT / "README.md").read_text()
    m = re.search(r"<!-- example: own-learner -->\n```python\n(.*?)```", text, re.S)
    assert m, "README has no own-learner example"
    return m.group(1)


def test_readme_example_runs_as_written(tmp_path):
    script = tmp_path / "example.py"
    script.write_text(_readme_example())
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr
    user = [ln for ln in out.stdout.splitlines() if ln.strip().startswith("user")]
    assert len(user) == 1 and "near miss caught" in user[0] and " PASS " in user[0], out.stdout


def test_user_rows_leave_the_papers_rows_unchanged():
    from dpregret.learners.oco import ProjectedOGD
    from dpregret.scenarios import ztc22 as S

    p = dict(k=1, d_lin=3, c_grid=[0.05, 0.5], T_lin_stat=[200], T_lin_priv=[200], rho_lin=0.3, rho_stat=100.0)
    base = S.simulate_linear_T(p, 200, range(3), 5)
    both = S.simulate_linear_T(p, 200, range(3), 5, learners={"mine": lambda R, d, r: ProjectedOGD(R, d, r, lambda t: 1.0)})
    paper = both[~both.alg.str.startswith("mine")].reset_index(drop=True)
    pd.testing.assert_frame_equal(base, paper)
    assert {"mine", "mine@nonprivate", "mine@naive", "mine@stat", "mine@fresh"} <= set(both.alg)


def test_bad_input_is_named():
    import dpregret

    with pytest.raises(ValueError, match="claim must be one of"):
        dpregret.check(lambda R, d, r: None, "ZTC-thm4-bound")
    with pytest.raises(ValueError, match="make must be callable"):
        dpregret.check(3)
    with pytest.raises(ValueError, match="taken"):
        dpregret.check(lambda R, d, r: None, name="o2b")
    from dpregret.api import main
    assert main(["check", "--learner", "no_module_here:X"]) == 2
    assert main(["check", "--learner", "missing-colon"]) == 2
