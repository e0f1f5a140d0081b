"""An independent accountant beside ours: Google's dp-accounting (privacy loss distributions).

For every privacy level a claim of the run states, the epsilon our accounting gives and the
epsilon the PLD accountant computes for the mechanism that runs (its pessimistic estimate, an
upper bound on the true epsilon; :func:`dpregret.core.accounting.pld_epsilon`).  Each paper folder
with such a level declares its rows in its module ``accountant`` (``rows(run)``: Zhang-Tran-Cutkosky's
Theorem 3, Agarwal-Singh's Theorem 3.5, Ene-Nguyen-Vladu's Lemma 5.4); this module collects them, paper
by paper in the papers' order.

Ours is never below PLD (tests/test_accountant.py): our conversions are conservative.
"""
from __future__ import annotations

from dpregret.pipeline.registry import folder_modules


def rows(run: dict) -> list[dict]:
    """The table of the report: one row per (claim, privacy level, delta)."""
    return [row for mod in folder_modules("accountant").values() for row in mod.rows(run)]
