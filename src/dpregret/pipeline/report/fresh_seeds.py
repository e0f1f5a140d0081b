"""Claims changed after a result was seen, re-decided on fresh root seeds.

A claim whose grid, tolerance, filter or span changed after a result was seen carries that change in
its ``history`` (``config/config.yaml``).  Such a claim is re-decided on root seeds never used in its
design: whole default runs at those seeds (``snakemake --cores 2 --config seed=<seed> mutation=False``),
whose verdicts ``config/fresh_seeds.csv`` records, one row per (record, seed), with the commit they ran
on.  The report lists every such claim with its verdict in the run beside its fresh seeds' verdicts
(:func:`report_rows`); ``tests/test_fresh_seeds.py`` checks that every claim with a history has at
least two fresh seeds recorded, none of them the run's root seed nor a seed its history names (a
seed named there was used in its design or its confirmation).  Record them:

    python -m dpregret.pipeline.report.fresh_seeds --run 271828 <run-dir> --run 314159 <run-dir> --write

(each ``<run-dir>`` holds the run's ``results/claims.csv``; ``--write`` replaces the file, otherwise the
rows are printed).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[4]
FILE = ROOT / "config" / "fresh_seeds.csv"
COLUMNS = ["claim_id", "seed", "verdict", "measured", "ci_low", "ci_high", "control_caught", "twin_caught",
           "commit"]


def base_id(claim_id: str) -> str:
    """A record's claim id without its loss-sequence suffix (``<id>--<sequence>``)."""
    return claim_id.split("--", 1)[0]


def changed(claims: pd.DataFrame, history: Mapping) -> pd.DataFrame:
    """The rows of a claims table whose claim has a history, under its base id or its own record id
    (``<id>--<sequence>``); non-learner records left out."""
    ids = claims.claim_id
    keep = (ids.isin(set(history)) | ids.map(base_id).isin(set(history))) & ~ids.str.contains("--learner-")
    return claims[keep]


def seeds_named(history: Mapping, claim: str) -> set[int]:
    """The seeds a claim's history names (4 to 8 digits after the word seed or seeds, or in a list of them)."""
    text = " ".join(f"{h.get('change', '')} {h.get('reason', '')}" for h in history.get(claim, []))
    out: set[int] = set()
    for m in re.finditer(r"seeds?\b([^.;:]*)", text):
        out.update(int(s) for s in re.findall(r"\b\d{3,8}\b", m.group(1)))
    return out


def collect(runs: Mapping[int, Path], history: Mapping, commit: str) -> pd.DataFrame:
    """One row per (record with a history, seed) of the runs ``{seed: run directory}``."""
    rows = []
    for seed, run in runs.items():
        t = changed(pd.read_csv(Path(run) / "results" / "claims.csv"), history)
        rows.append(t.assign(seed=int(seed), commit=commit)[COLUMNS])
    return pd.concat(rows, ignore_index=True).sort_values(["claim_id", "seed"], ignore_index=True)


def load(path: Path = FILE) -> pd.DataFrame:
    return pd.read_csv(path) if Path(path).is_file() else pd.DataFrame(columns=COLUMNS)


def report_rows(claims: pd.DataFrame, history: Mapping, fresh: pd.DataFrame | None = None) -> dict:
    """For the report: every record with a history, its verdict in this run and at each fresh seed
    (``agree``: all the same), and the seeds and commit they ran on."""
    fresh = load() if fresh is None else fresh
    seeds = sorted(int(s) for s in fresh.seed.unique()) if len(fresh) else []
    by = {(r.claim_id, int(r.seed)): r.verdict for r in fresh.itertuples()}
    rows = []
    for r in changed(claims, history).sort_values("claim_id").itertuples():
        at = [by.get((r.claim_id, s), "not run") for s in seeds]
        rows.append({"claim_id": r.claim_id, "verdict": r.verdict, "fresh": at,
                     "agree": all(v == r.verdict for v in at),
                     "changes": len(history.get(r.claim_id, [])) + len(history.get(base_id(r.claim_id), []))})
    commits = sorted(set(fresh.commit.astype(str))) if len(fresh) else []
    return {"seeds": seeds, "rows": rows, "commits": commits,
            "disagree": [x["claim_id"] for x in rows if not x["agree"]]}


def _commit() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", nargs=2, action="append", metavar=("SEED", "DIR"), required=True,
                    help="a run at root seed SEED whose results/claims.csv is under DIR")
    ap.add_argument("--config", default=str(ROOT / "config" / "config.yaml"))
    ap.add_argument("--commit", default=None, help="the commit the runs ran on (default: this tree's HEAD)")
    ap.add_argument("--write", action="store_true", help=f"write {FILE.relative_to(ROOT)}")
    a = ap.parse_args(argv)
    cfg = yaml.safe_load(Path(a.config).read_text())
    history = cfg.get("history", {})
    runs = {int(s): Path(d) for s, d in a.run}
    if int(cfg["seed"]) in runs:
        ap.error(f"seed {cfg['seed']} is the run's own root seed, not a fresh one")
    t = collect(runs, history, a.commit or _commit())
    if a.write:
        t.to_csv(FILE, index=False)
        print(f"wrote {len(t)} rows to {FILE}")
    else:
        t.to_csv(sys.stdout, index=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
