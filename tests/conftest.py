"""Shared fixtures.  This directory is on ``sys.path`` for every test (pytest puts a rootdir conftest's
directory there), so the helpers ``margins`` and the example paper's folder import by name
from the tests grouped by paper (``tests/papers/<paper>/``)."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def registry_restored(monkeypatch):
    """Registering a paper mutates dpregret.papers' registries: the test gets them back as they were, with
    ``tests/`` on the path (the example paper's package)."""
    from dpregret import papers

    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    saved = dict(papers.PAPERS), dict(papers.SCENARIOS), list(papers.ORDER), dict(papers.REGISTERED)
    yield
    for target, old in zip((papers.PAPERS, papers.SCENARIOS, papers.REGISTERED), (saved[0], saved[1], saved[3])):
        target.clear()
        target.update(old)
    papers.ORDER[:] = saved[2]
