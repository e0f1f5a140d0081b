"""Declared expectations: CI gates on the verdicts we expect, not on "all PASS".

``config/expected_verdicts.csv`` lists, for the default run, every claim's expected verdict
and whether its primary control is expected to be caught.  CI compares the run's
``results/claims.csv`` with it and fails on any difference, printing each one, so that no
verdict changes silently.  An honest FAIL can be expected.  Changing an expectation is its
own commit, with the reason in the message:

    python -m dpregret.report.expectations results/claims.csv config/expected_verdicts.csv          # check
    python -m dpregret.report.expectations results/claims.csv config/expected_verdicts.csv --write  # regenerate
"""
from __future__ import annotations

import argparse
import sys

import pandas as pd

COLUMNS = ["claim_id", "verdict", "control_caught"]


def _load(path: str) -> pd.DataFrame:
    t = pd.read_csv(path)
    missing = set(COLUMNS) - set(t.columns)
    if missing:
        raise ValueError(f"{path}: missing columns {sorted(missing)}")
    t = t[COLUMNS].copy()
    t["control_caught"] = t.control_caught.astype(str).str.lower().isin(["true", "1"])
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
    return out


def write(claims_csv: str, expected_csv: str) -> None:
    t = pd.read_csv(claims_csv)[COLUMNS].sort_values("claim_id")
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
    n = len(_load(a.expected_csv))
    print(f"{len(diffs)} difference(s) against {n} declared expectations")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
