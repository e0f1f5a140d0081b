"""Put your own learner beside a paper's (issue 18, items 4-5): :func:`check` and the ``dpregret``
console command.

A claim that applies to any algorithm of its setting is run for your learner, the paper's
learner and each one's primary control, on the same draws (common random numbers), and
decided by the same check and verdict rule as the pipeline.  A claim whose statement needs the
paper's own parameters (an explicit bound with its eta or lambda) is never run for a user's
learner.  Claims available today (:data:`APPLICABLE`):

- ``ZTC-rem5-rate-T-priv`` and ``ZTC-rem5-rate-T-stat`` (Zhang, Tran, Cutkosky, Remark 5): your
  ``oco`` learner (``dpregret.protocols``) as the online learner of Algorithm 1, on the worst
  case over the family of G-Lipschitz stochastic linear losses; controls: the naive conversion
  and the fresh-sample slip, each with your learner.  ``make(R, d, r)`` builds your learner for
  R rows on the l2 ball of radius r.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from . import config as C
from .claims.core import apply_rule
from .rng import stable_key

APPLICABLE = {"ZTC-rem5-rate-T-priv": "ztc22", "ZTC-rem5-rate-T-stat": "ztc22"}
CONFIG = Path(__file__).resolve().parents[2] / "config" / "config.yaml"


@dataclass
class Check:
    """What :func:`check` returns: one verdict row per (learner, claim) and the tidy runs."""

    verdicts: pd.DataFrame
    runs: pd.DataFrame

    def __str__(self) -> str:
        cols = ["learner", "claim", "verdict", "measured", "ci_low", "ci_high", "control_verdict", "control_caught",
                "evidence"]
        with pd.option_context("display.width", 160, "display.max_columns", 20):
            return self.verdicts[cols].to_string(index=False)


def _params(preset: str, config_path: Path | str | None, seed: int | None, replicates: int | None) -> tuple[dict, dict]:
    with open(config_path or CONFIG) as fh:
        cfg = yaml.safe_load(fh)
    cfg = {**cfg, "preset": preset, "scenarios": ["ztc22"]}
    if seed is not None:
        cfg["seed"] = int(seed)
    run = C.effective(cfg)
    p = dict(run["ztc22"])
    if replicates is not None:
        p["replicates"] = int(replicates)
    return run, p


def check(make, claim: str = "ZTC-rem5-rate-T-stat", *, name: str = "user", preset: str = "smoke",
          seed: int | None = None, replicates: int | None = None, config_path=None) -> Check:
    """Decide ``claim`` for the learner built by ``make`` and for the paper's learner, each
    with its primary control, on the same draws (``preset``'s grids, tolerances and root seed
    from ``config/config.yaml``; ``replicates`` overrides the preset's)."""
    from .claims import ztc22 as CZ
    from .scenarios import ztc22 as SZ

    if claim not in APPLICABLE:
        raise ValueError(f"claim must be one of {sorted(APPLICABLE)} (the claims that apply to any learner of "
                         f"their setting), got {claim!r}")
    if not callable(make):
        raise ValueError(f"make must be callable as make(R, d, r) -> learner, got {type(make).__name__}")
    if name in ("o2b", "nonprivate", "naive") or "@" in name:
        raise ValueError(f"name {name!r} is taken by the paper's rows; choose another")
    run, p = _params(preset, config_path, seed, replicates)
    reps = range(int(p["replicates"]))
    rate = "priv" if claim == "ZTC-rem5-rate-T-priv" else "stat"
    lin = pd.concat([SZ.simulate_linear_T(p, T, reps, run["seed"], learners={name: make}, rates=(rate,))
                     for T in p[f"T_lin_{rate}"]], ignore_index=True)
    claim_obj = CZ.CLAIMS[claim]

    def rng_for(cid):
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(run["seed"], spawn_key=stable_key("check", cid))))
    rows = []
    for learner in ("o2b", name):
        res, ctl = CZ.linear_T_claims(lin, p, run["tolerances"], 1 - run["ci_level"], rng_for, name=learner,
                                      rates=(rate,))[claim]
        rec, evidence = apply_rule(claim_obj, res, ctl)
        rows.append({"learner": "paper (Remark 5 OGD)" if learner == "o2b" else name, "claim": claim,
                     "verdict": rec.verdict, "measured": rec.measured, "ci_low": rec.ci_low, "ci_high": rec.ci_high,
                     "control": claim_obj.control, "control_verdict": ctl.verdict,
                     "control_caught": ctl.verdict == "FAIL", "evidence": evidence, "detail": rec.detail})
    return Check(pd.DataFrame(rows), lin)


def _load(spec: str):
    mod, _, attr = spec.partition(":")
    if not mod or not attr:
        raise ValueError(f"--learner must be module:Callable (make(R, d, r) -> learner), got {spec!r}")
    if "" not in sys.path and str(Path.cwd()) not in sys.path:  # modules of the working directory, as python -m
        sys.path.insert(0, str(Path.cwd()))
    return getattr(importlib.import_module(mod), attr)


def main(argv=None) -> int:
    """``dpregret check --learner module:Class [--claim ID] [--preset smoke] [--replicates R]``."""
    ap = argparse.ArgumentParser(prog="dpregret", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="decide a claim for your learner beside the paper's")
    c.add_argument("--learner", required=True, help="module:Callable, called as make(R, d, r)")
    c.add_argument("--claim", default="ZTC-rem5-rate-T-stat", choices=sorted(APPLICABLE))
    c.add_argument("--preset", default="smoke")
    c.add_argument("--replicates", type=int)
    c.add_argument("--seed", type=int)
    c.add_argument("--name", default="user")
    a = ap.parse_args(argv)
    try:
        out = check(_load(a.learner), a.claim, name=a.name, preset=a.preset, seed=a.seed, replicates=a.replicates)
    except (ValueError, ImportError, AttributeError) as e:
        print(f"dpregret: {e}", file=sys.stderr)
        return 2
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
