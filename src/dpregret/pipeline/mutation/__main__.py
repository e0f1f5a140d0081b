"""``python -m dpregret.pipeline.mutation [--only NAME ...] [--json PATH] [--config PATH]``: run the
mutation suite on its small instances and print a caught/missed table."""
from __future__ import annotations

import argparse
import json
import sys

from dpregret.pipeline.mutation.registry import MUTANTS
from dpregret.pipeline.mutation.runner import load_settings, run_all, table, workflow_settings


def main(argv=None) -> int:
    from dpregret.core import cpu

    cpu.reexec_pinned()  # the same bits as the workflow's mutation job (dpregret.core.cpu)
    ap = argparse.ArgumentParser(prog="python -m dpregret.pipeline.mutation", description=__doc__)
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run these mutants only")
    ap.add_argument("--json", metavar="PATH", help="also write the result as JSON")
    ap.add_argument("--config", metavar="PATH", help="config.yaml (default: the repository's)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--refresh-cache", action="store_true",
                    help="recompute the whole suite and store it in data/mutation-cache.json under this checkout's key")
    args = ap.parse_args(argv)
    if args.list:
        for m in MUTANTS.values():
            print(f"{m.name:36s} {m.paper:6s} {m.category:11s} {', '.join(m.targets)}")
        return 0
    unknown = sorted(set(args.only or []) - set(MUTANTS))
    if unknown:
        ap.error(f"unknown mutants {unknown}; known: {sorted(MUTANTS)}")
    if args.refresh_cache:
        from dpregret.pipeline.mutation import cache

        settings = workflow_settings(args.config)
        res = cache.refresh(settings, lambda: run_all(settings=settings))
        print(f"stored {res['caught']}/{res['total']} under key {cache.key(settings)} in {cache.CACHE}")
        return 0
    res = run_all(args.only, load_settings(args.config),
                  progress=lambda r: print(f"  {r['name']}: {'caught' if r['caught'] else 'missed'} "
                                           f"({r['seconds']:.1f} s)", file=sys.stderr, flush=True))
    print(table(res))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(res, fh, indent=1, default=float)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
