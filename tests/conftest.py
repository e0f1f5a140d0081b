"""Shared fixtures.  This directory is on ``sys.path`` for every test (pytest puts a rootdir conftest's
directory there), so the helper ``margins`` imports by name from the tests grouped by paper
(``tests/papers/<paper>/``); ``examples/`` is put there too, so every paper folder under it (the example
paper of docs/add-a-paper.md, and any folder copied from it) imports by its name, as the workflow's jobs
import it with ``PYTHONPATH=examples``."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(EXAMPLES))
# the paper folders under examples/ (a package with a module paper.py), each passing the contract suite
EXAMPLE_PAPERS = sorted(d.name for d in EXAMPLES.iterdir() if (d / "paper.py").is_file())


@pytest.fixture
def registry_restored(monkeypatch):
    """Registering a paper mutates dpregret.papers' registries: the test gets them back as they were."""
    from dpregret import papers

    saved = dict(papers.PAPERS), dict(papers.SCENARIOS), list(papers.ORDER), dict(papers.REGISTERED)
    yield
    for target, old in zip((papers.PAPERS, papers.SCENARIOS, papers.REGISTERED), (saved[0], saved[1], saved[3])):
        target.clear()
        target.update(old)
    papers.ORDER[:] = saved[2]
