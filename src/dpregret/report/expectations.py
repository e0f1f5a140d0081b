"""Declared expectations: CI gates on the verdicts we expect, not on "all PASS".

``config/expected_verdicts.csv`` lists, for the default run, every claim's expected verdict,
whether its primary control is expected to be caught and whether the claim is *borderline*: an
interval that decides it within :data:`dpregret.report.tables.BORDERLINE_WIDTHS` of its threshold,
so that another root seed could move its verdict (the report marks those).  CI compares the run's
``results/claims.csv`` with it and fails on any difference, printing each one, so that no
verdict changes silently and no claim drifts onto the knife-edge unnoticed.  An honest FAIL can be expected.  Changing an expectation is its
own commit, with the reason in the message:

    python -m dpregret.report.expectations results/claims.csv config/expected_verdicts.csv          # check
    python -m dpregret.report.expectations results/claims.csv config/expected_verdicts.csv --write  # regenerate
"""
from __future__ import annotations

import argparse
import sys

import pandas as pd

COLUMNS = ["claim_id", "verdict", "control_caught", "borderline"]


def _flag(col: pd.Series) -> pd.Series:
    return col.astype(str).str.lower().isin(["true", "1"])


def _load(path: str) -> pd.DataFrame:
    t = pd.read_csv(path)
    missing = set(COLUMNS[:3]) - set(t.columns)
    if missing:
        raise ValueError(f"{path}: missing columns {sorted(missing)}")
    t = t[[c for c in COLUMNS if c in t.columns]].copy()
    t["control_caught"] = _flag(t.control_caught)
    if "borderline" in t:
        t["borderline"] = _flag(t.borderline)
    return t.set_index("claim_id")


def differences(claims_csv: str, expected_csv: str) -> list[str]:
    """Every difference between a run's claims table and the declared expectations."""
    got, want = _load(claims_csv), _load(expected_csv)
    out = []
    for cid in sorted(set(want.index) - set(got.index)):
        out.append(f"{cid}: expected {want.verdict[cid]}, but the claim is missing from the run")
    for cid in sorted(set(got.index) - set(want.index)):
        out.append(f"{cid}: new claim ({got.verdict[cid]}), no expectation declared")
    for cid in sorted(set(got.index) & set(want.index)):
        g, w = got.loc[cid], want.loc[cid]
        if g.verdict != w.verdict:
            out.append(f"{cid}: verdict {g.verdict}, expected {w.verdict}")
        if bool(g.control_caught) != bool(w.control_caught):
            out.append(f"{cid}: primary control {'caught' if g.control_caught else 'not caught'}, expected "
                       f"{'caught' if w.control_caught else 'not caught'}")
        if "borderline" in want and "borderline" in got and bool(g.borderline) != bool(w.borderline):
            out.append(f"{cid}: {'borderline' if g.borderline else 'clear of its threshold'}, declared "
                       f"{'borderline' if w.borderline else 'clear'} (redesign it, or declare it borderline)")
    return out


def borderline(claims_csv: str) -> list[str]:
    """The run's borderline claims, each with its distance (in widths of its interval)."""
    t = pd.read_csv(claims_csv)
    if "borderline" not in t:
        return []
    t = t[_flag(t.borderline)]
    return [f"{r.claim_id}: {r.verdict}, {r.decision_distance:.3f} widths from its threshold" for r in t.itertuples()]


def write(claims_csv: str, expected_csv: str) -> None:
    t = pd.read_csv(claims_csv)
    t = t[[c for c in COLUMNS if c in t.columns]].sort_values("claim_id")
    t.to_csv(expected_csv, index=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("claims_csv")
    ap.add_argument("expected_csv")
    ap.add_argument("--write", action="store_true", help="regenerate the expectations from this run")
    a = ap.parse_args(argv)
    if a.write:
        write(a.claims_csv, a.expected_csv)
        print(f"wrote {a.expected_csv}")
        return 0
    diffs = differences(a.claims_csv, a.expected_csv)
    for d in diffs:
        print("EXPECTATION DIFFERS:", d)
    for b in borderline(a.claims_csv):
        print("BORDERLINE:", b)
    n = len(_load(a.expected_csv))
    print(f"{len(diffs)} difference(s) against {n} declared expectations")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
