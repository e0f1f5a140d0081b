"""Run one small simulate job of each paper (the smoke preset's first points, as in test_jobs)
in a scratch directory and print a JSON map output -> SHA-256 of the table's values (timing
columns left out).  Run as a script by tests/test_cross_cpu.py, once per CPU feature level."""
import contextlib
import hashlib
import json
import sys
from pathlib import Path

import dpregret  # noqa: F401  (first: the pins)


def table_digest(path) -> str:
    import pandas as pd

    df = pd.read_parquet(path)
    df = df.drop(columns=[c for c in df if c.endswith("_time")])
    h = hashlib.sha256(repr(list(df.columns)).encode())
    h.update(pd.util.hash_pandas_object(df, index=False).to_numpy().tobytes())
    for c in df:
        if df[c].dtype.kind == "f":
            h.update(df[c].to_numpy().tobytes())
    return h.hexdigest()


def main(workdir: str, groups: list[str]) -> None:
    import os

    from test_jobs import CASES, _params

    from dpregret.core import cpu
    from dpregret.pipeline import jobs

    os.chdir(workdir)
    out = {"state": cpu.state(), "tables": {}}
    for group, wildcards, outputs in CASES:
        if groups and group not in groups:
            continue
        for o in outputs:
            Path(o).parent.mkdir(parents=True, exist_ok=True)
        with contextlib.redirect_stdout(sys.stderr):
            jobs.simulate(group, _params(group), wildcards, outputs)
        for o in outputs:
            out["tables"][o] = table_digest(o)
    print(json.dumps(out))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main(sys.argv[1], sys.argv[2:])
