"""Put your own learner beside a paper's: :func:`check`, the ``dpregret``
console command, and :func:`decide_user_claim` for the pipeline's config key ``learners``.

A claim that applies to any algorithm of its setting (declared by its scenario,
``dpregret.core.contract``) is run for your learner, the paper's learner and each one's
primary control, on the same draws (common random numbers), inside the paper's own private
wrapper, and decided by the same check and verdict rule as the pipeline.  A claim whose
statement needs the paper's own parameters (an explicit bound with its eta or lambda) is never
run for a user's learner.  The claims: :func:`applicable`; how ``make`` is called for each
setting: ``dpregret.core.protocols.SIGNATURES``; both in docs/workflow.md ("Your own learner").
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from dpregret.pipeline import config as C
from dpregret.verdict.core import apply_rule
from dpregret.core.protocols import load_learner  # noqa: F401 (public here too)
from dpregret.core.rng import stable_key

# the presets: the working directory's config/config.yaml (a checkout or a copy of it), else the
# repository's when the package runs from its source tree (an editable install)
CONFIGS = (Path("config") / "config.yaml", Path(__file__).resolve().parents[3] / "config" / "config.yaml")


def _config_path(config_path) -> Path:
    if config_path is not None:
        return Path(config_path)
    for c in CONFIGS:
        if c.is_file():
            return c
    raise ValueError("no config/config.yaml in the working directory or the source tree; pass config_path= "
                     "(a copy of the repository's config/config.yaml)")


def applicable() -> ClaimsTable:
    """The claims your learner can get, one row per claim (index ``claim``): its paper and theorem,
    the ``setting`` of the learner, how ``make`` is called, what runs your learner (and what its
    primary control is), and the paper's learner it is shown beside.  Printed, it reads as a table
    with every cell in full (:class:`ClaimsTable`, a DataFrame); the objects behind it are
    :func:`dpregret.core.contract.user_claims`."""
    from dpregret.papers import paper
    from dpregret.pipeline.registry import all_claims
    from dpregret.core.contract import user_claims

    known = all_claims()
    rows = []
    for cid, uc in sorted(user_claims().items()):
        c = known.get(cid)
        rows.append({"claim": cid, "paper": paper(c.paper).cite if c else "", "theorem": c.theorem if c else "",
                     "setting": uc.setting, "make": uc.signature, "wraps": uc.wraps,
                     "control": c.control if c else "", "beside": uc.paper_label})
    return ClaimsTable(pd.DataFrame(rows).set_index("claim"))


class ClaimsTable(pd.DataFrame):
    """A DataFrame (one row per claim) that prints every cell in full: long cells wrapped to
    :attr:`WIDTHS`, each claim's row starting on its own line, nothing cut to "..."."""

    WIDTHS = {"paper": 12, "theorem": 16, "setting": 12, "make": 22, "wraps": 36, "control": 28, "beside": 22}

    @property
    def _constructor(self):  # a slice or copy is a plain DataFrame (and prints as one)
        return pd.DataFrame

    def to_text(self, widths: dict | None = None) -> str:
        """The table as text: a header, a rule, then per claim its cells wrapped to ``widths`` (a
        column's characters; default :attr:`WIDTHS`, 24 for a column not named there)."""
        import textwrap

        widths = {**self.WIDTHS, **(widths or {})}
        index = [str(i) for i in self.index]
        cols = [(self.index.name or "", max([len(self.index.name or "")] + [len(i) for i in index]))]
        cols += [(str(c), widths.get(str(c), 24)) for c in self.columns]
        lines = ["  ".join(name.ljust(w) for name, w in cols).rstrip(), "  ".join("-" * w for _, w in cols)]
        for i, (key, row) in enumerate(zip(index, self.itertuples(index=False))):
            cells = [[key]] + [textwrap.wrap(str(v), w, break_on_hyphens=False) or [""]
                               for v, (_, w) in zip(row, cols[1:])]
            if i:
                lines.append("")
            for k in range(max(map(len, cells))):
                lines.append("  ".join((c[k] if k < len(c) else "").ljust(w)
                                       for c, (_, w) in zip(cells, cols)).rstrip())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()


@dataclass
class Check:
    """What :func:`check` returns: one verdict row per (learner, claim) and the tidy runs."""

    verdicts: pd.DataFrame
    runs: pd.DataFrame

    preset: str = ""
    machine: dict | None = None  # dpregret.core.cpu.state() of the process that computed it

    def __str__(self) -> str:
        cols = ["learner", "claim", "verdict", "measured", "ci_low", "ci_high", "control_verdict", "control_caught",
                "evidence"]
        with pd.option_context("display.width", 160, "display.max_columns", 20):
            out = self.verdicts[cols].to_string(index=False)
        from dpregret.pipeline.report.html import UNDECIDING_PRESETS

        if self.preset in UNDECIDING_PRESETS:
            out += f"\n(preset {self.preset}: {UNDECIDING_PRESETS[self.preset]})"
        if self.machine is not None and not self.machine.get("pinned"):
            out += ("\n(computed without the pinned arithmetic: the last bits may differ on another CPU; the "
                    "`dpregret check` command and the workflow pin it, see dpregret.core.cpu)")
        return out


def preset_params(scenario: str, preset: str, config_path: Path | str | None, seed: int | None,
                  replicates: int | None) -> tuple[dict, dict]:
    """``(run, params)`` of ``scenario`` under ``preset`` from the config, ``seed`` and ``replicates``
    overriding it when given."""
    with open(_config_path(config_path)) as fh:
        cfg = yaml.safe_load(fh)
    from dpregret.papers import REGISTERED, SCENARIOS

    folder = SCENARIOS[scenario].folder
    if folder in REGISTERED:  # a registered paper's scenario (DPREGRET_PAPERS): its PRESETS, its config key
        cfg = {**cfg, "preset": preset, "scenarios": [], "papers": [folder]}
    else:
        cfg = {**cfg, "preset": preset, "scenarios": C.together_with(scenario)}
    if seed is not None:
        cfg["seed"] = int(seed)
    run = C.effective(cfg)
    p = dict(run[scenario])
    if replicates is not None:
        p["replicates"] = int(replicates)
    return run, p


def check(make, claim: str, *, name: str = "user", preset: str = "smoke",
          seed: int | None = None, replicates: int | None = None, config_path=None) -> Check:
    """Decide ``claim`` for the learner built by ``make`` and for the paper's learner, each
    with its primary control, on the same draws (``preset``'s grids, tolerances and root seed
    from ``config/config.yaml``; ``replicates`` (>= 2) overrides the preset's).  The claims, their
    settings and how ``make`` is called: :func:`applicable` (``dpregret.core.protocols.SIGNATURES``).

    Returns a :class:`Check`: ``.verdicts``, one row per learner (yours as ``name``, the paper's
    by its label) with verdict, measured value and interval, the primary control's verdict and
    whether it was caught, and ``detail`` (the check's numbers, the reason for an undecided
    verdict); ``.runs``, the tidy table of every run on the same draws (the paper's rows, yours,
    your twin and your control).  The smoke preset's horizons decide nothing: there even the
    paper's learner may FAIL or be INCONCLUSIVE."""
    from dpregret.core.protocols import check_signature
    from dpregret.core.contract import check_name

    from dpregret.core.contract import user_claims

    claims = user_claims()
    if claim not in claims:
        raise ValueError(f"claim must be one of {sorted(claims)} (the claims that apply to any learner of "
                         f"their setting), got {claim!r}")
    uc = claims[claim]
    if not callable(make):
        raise ValueError(f"make must be callable as {uc.signature} -> learner, got {type(make).__name__}")
    check_signature(make, uc.setting)
    check_name(name, uc)
    if replicates is not None and int(replicates) < 2:
        raise ValueError(f"replicates must be >= 2 (an interval needs at least two), got {replicates}")
    run, p = preset_params(uc.scenario, preset, config_path, seed, replicates)
    reps = range(int(p["replicates"]))
    runs = pd.concat([uc.simulate(p, point, reps, run["seed"], {name: make}) for point in uc.points(p)],
                     ignore_index=True)
    decided = decide_learners(uc, runs, p, run, name)
    rows = []
    for learner, (rec, ctl, evidence, _) in decided.items():
        rows.append({"learner": uc.paper_label if learner == uc.paper_name else name, "claim": claim,
                     "verdict": rec.verdict, "measured": rec.measured, "ci_low": rec.ci_low, "ci_high": rec.ci_high,
                     "control": _claim_object(claim).control, "control_verdict": ctl.verdict,
                     "control_caught": ctl.verdict == "FAIL", "evidence": evidence, "detail": rec.detail})
    from dpregret.core import cpu

    return Check(pd.DataFrame(rows), runs, preset, cpu.state())


def decide_learners(uc, runs: pd.DataFrame, p: dict, run: dict, name: str) -> dict:
    """learner -> (result after the verdict rule, control result, evidence, check's result), for the paper's
    learner and ``name``; the bootstrap streams are the pipeline's (keyed by the claim id)."""
    claim_obj = _claim_object(uc.claim)

    def rng_for(cid):
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(run["seed"],
                                                                          spawn_key=stable_key("check", cid))))
    out = {}
    for learner in (uc.paper_name, name):
        res, ctl = uc.decide(runs, p, run["tolerances"], 1 - run["ci_level"], rng_for, learner)
        rec, evidence = apply_rule(claim_obj, res, ctl)
        out[learner] = (rec, ctl, evidence, res)
    return out


def decide_user_claim(claim: str, name: str, make_spec: str, runs: pd.DataFrame, run: dict,
                      figure: str | None = None) -> dict:
    """The pipeline's record of ``claim`` for the user learner ``name`` (``results/claims/
    <claim>--learner-<name>.json``), decided on ``runs`` (the merged points of the claim's
    ``simulate``) by the paper's check with the learner's own control; ``figure``: where to draw
    the learner beside the paper's."""
    import dataclasses

    from dpregret.verdict.core import record
    from dpregret.core.contract import user_claims

    uc = user_claims()[claim]
    p = run[uc.scenario]
    decided = decide_learners(uc, runs, p, run, name)
    raw = {k: (v[3], v[1]) for k, v in decided.items()}
    base = _claim_object(claim)
    mine = dataclasses.replace(base, statement=f"[your learner {name} = {make_spec}, {uc.wraps}] {base.statement}")
    res, ctl = raw[name]
    rec = record(mine, res, ctl, scenario=uc.scenario, env=f"learner-{name}", ci_level=run["ci_level"],
                 history=run.get("history", {}).get(claim))
    paper_rec = decided[uc.paper_name]
    rec["paper_learner"] = {"label": uc.paper_label, "verdict": paper_rec[0].verdict, "measured": paper_rec[0].measured,
                            "ci": [paper_rec[0].ci_low, paper_rec[0].ci_high], "control_verdict": paper_rec[1].verdict}
    if figure:
        from dpregret.pipeline.report.learner_figure import user_figure
        user_figure({uc.paper_label: raw[uc.paper_name], f"{name} (yours)": raw[name]}, claim, base.metric, figure)
    return rec


def _claim_object(cid: str):
    """The registry's Claim of ``cid`` (its statement, control and near-miss flag)."""
    from dpregret.pipeline.registry import all_claims
    return all_claims()[cid]


def main(argv=None) -> int:
    """``dpregret check --learner module:Class --claim ID [--preset smoke] [--replicates R]``."""
    if argv is None:  # the command itself: restart with the pinned arithmetic (dpregret.core.cpu)
        from dpregret.core import cpu

        cpu.reexec_pinned()
    ap = argparse.ArgumentParser(prog="dpregret", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="decide a claim for your learner beside the paper's")
    c.add_argument("--learner", required=True, help="module:Callable, called as its setting's signature "
                   "(dpregret.core.protocols.SIGNATURES)")
    c.add_argument("--claim", required=True, help="one of: " + ", ".join(
        f"{cid} ({setting})" for cid, setting in applicable().setting.items()))
    c.add_argument("--preset", default="smoke")
    c.add_argument("--replicates", type=int)
    c.add_argument("--seed", type=int)
    c.add_argument("--name", default="user")
    c.add_argument("--config",
                   help="the config file with the presets (default: ./config/config.yaml, else the source tree's)")
    a = ap.parse_args(argv)
    try:
        out = check(load_learner(a.learner), a.claim, name=a.name, preset=a.preset, seed=a.seed,
                    replicates=a.replicates,
                    config_path=a.config)
    except (ValueError, ImportError, AttributeError) as e:
        print(f"dpregret: {e}", file=sys.stderr)
        return 2
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
