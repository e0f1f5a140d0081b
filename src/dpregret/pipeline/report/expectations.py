"""Declared expectations: CI gates on the verdicts we expect, not on "all PASS".

``config/expected_verdicts.csv`` lists, for the default run, every claim's expected verdict,
whether its primary control is expected to be caught and whether the claim is *borderline*: an
interval that decides it within :data:`dpregret.pipeline.report.tables.BORDERLINE_WIDTHS` of its threshold,
so that another root seed could move its verdict (the report marks those).  A LOOSE verdict (a bound
that holds with more slack than any near miss could cross) is a verdict of its own, counted apart
from PASS and INCONCLUSIVE; a LOOSE row of the run without its worst-case search or its detectable
factor is a difference too.  CI compares the run's
``results/claims.csv`` with it and fails on any difference, printing each one, so that no
verdict changes silently and no claim drifts onto the knife-edge unnoticed.  An honest FAIL can be expected.  Changing
an expectation is its own commit, with the reason in the message:

    python -m dpregret.pipeline.report.expectations results/claims.csv config/expected_verdicts.csv          # check
    python -m dpregret.pipeline.report.expectations results/claims.csv config/expected_verdicts.csv --write  # regenerate
"""  # noqa: E501 (the two command lines above are copied as they are)
from __future__ import annotations

import argparse
import math
import sys

import pandas as pd

COLUMNS = ["claim_id", "verdict", "control_caught", "borderline"]
ORDER = ("PASS", "LOOSE", "INCONCLUSIVE", "FAIL")  # dpregret.verdict.core.VERDICTS


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
    out += loose_unrecorded(claims_csv)
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


def loose_unrecorded(claims_csv: str) -> list[str]:
    """LOOSE rows of a run's claims table that lack what LOOSE must carry: the worst-case search and a
    finite detectable factor (a table without those columns cannot show them: each of its LOOSE rows)."""
    t = pd.read_csv(claims_csv)
    if "worst_case_search" not in t or "detectable_factor" not in t:
        return [f"{r.claim_id}: LOOSE in a table without the columns worst_case_search and detectable_factor"
                for r in t[t.verdict == "LOOSE"].itertuples()]
    out = []
    for r in t[t.verdict == "LOOSE"].itertuples():
        if not isinstance(r.worst_case_search, str) or not r.worst_case_search.strip():
            out.append(f"{r.claim_id}: LOOSE without a worst-case search recorded")
        if not math.isfinite(float(r.detectable_factor)):
            out.append(f"{r.claim_id}: LOOSE without a detectable factor")
    return out


def verdict_counts(csv_path: str) -> dict[str, int]:
    """The table's verdicts counted, LOOSE apart, in the order PASS, LOOSE, INCONCLUSIVE, FAIL (then any other)."""
    n = pd.read_csv(csv_path).verdict.value_counts().to_dict()
    return {**{v: int(n.pop(v, 0)) for v in ORDER}, **{str(k): int(v) for k, v in sorted(n.items())}}


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
    fmt = lambda c: ", ".join(f"{k} {v}" for k, v in c.items())  # noqa: E731
    print(f"verdicts of the run: {fmt(verdict_counts(a.claims_csv))}; declared: {fmt(verdict_counts(a.expected_csv))}")
    print(f"{len(diffs)} difference(s) against {n} declared expectations")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
