"""Scaling with the horizon T: wall time and peak memory of each scenario's simulation (one grid
point, one replicate chunk) at 4-5 horizons spanning >= 1.5 decades, and the least-squares
log-log exponents.  Target (performance issue): time exponent <= 1.1 and peak memory flat in T
(exponent <= 0.1: stream checkpoints, keep running sums, never hold T x R arrays); anything
above is printed ``VIOLATES``.

    python benchmarks/bench_scaling.py [--smoke] [--preset default] [--T 200 6325] [--points 5]
                                       [--reps 16] [--repeat 2] [--mem-block 64] [--scenarios ...]

Each call (``SCENARIOS``) is the workflow script's call for one point, ``p`` a deep copy of the
preset's config block with its horizon key(s) set to T: ``as17_experts``, ``as17_olo`` (sphere),
``as17_bandits`` (block ``as17_mab``, the T-grid plan), ``as17_blo`` (ball): ``simulate(...,
"stochastic", ..., T, ...)``; ``ztc22``: ``simulate_rates(p, T)``; ``env21``: ``simulate("rates",
p, ("simplex", T))``, the grid ``p["T"]`` kept (it adds the offset_losses control at its two
smallest values only, so such a T is moved by one); ``vdh19``: ``simulate_minority(p, T)`` with
``printed_T_max = 0`` (the same learners at every T).  Extras, to localise a violation:
``env21_n`` (``simulate("n")`` at ``T_n = T``: PrivateBandit without query recording) and
``vdh19_sparse``.  Replicates ``range(reps)``, default ``chunk_size`` (one workflow job).

Time: best of ``--repeat`` calls after one warm-up call; calls under 0.5 s are repeated until
0.5 s are spent (<= 10 calls), the short small-T points being the noisiest on a shared machine.
Memory: the ``tracemalloc`` peak of one separate call, traced from just before it.  numpy
registers its buffers with tracemalloc, so this is exactly the Python + numpy heap the call
adds, without what ``ru_maxrss`` of a subprocess per point would add: the interpreter, the
imports and allocator slack (~100+ MiB, constant, in which an O(T R) array of a few MiB would
vanish from the exponent), and an import per point.  It is blind only to memory C libraries
allocate themselves (BLAS, HiGHS), none of it T-dependent here; tracing slows allocation, hence
the separate call.  :func:`measure` lists two artefacts it avoids.  ``MiB/1e4``: least-squares
slope of the peak per 10,000 steps.  A growing term still below the constant part at the
largest T does not move the exponent (check a longer range with ``--scenarios vdh19 --T 1000
31623``).  The memory exponent is fitted to the working memory, the peak minus the bytes of
the returned table (whose per-round columns grow as sqrt(T) by definition).  No timing
assertions.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import gc
import math
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import yaml

from dpregret.pipeline import config
from dpregret.core.environments.stochastic import TiledStreams
from dpregret.core.rng import ReplicateStreams
from dpregret.papers.env21 import scenario as env21
from dpregret.papers.vdh19 import scenario as vdh19
from dpregret.papers.ztc22 import scenario as ztc22
from dpregret.papers.as17 import (scenario_bandits as as17_bandits, scenario_blo as as17_blo,
                                  scenario_experts as as17_experts, scenario_olo as as17_olo)

CONFIG = Path(__file__).resolve().parents[1] / "config" / "config.yaml"
MAX_TIME_EXP, MAX_MEM_EXP = 1.1, 0.1
MiB = 2.0**20
MEM_BLOCK = 64  # ReplicateStreams buffer (uniforms per replicate) during the traced call
MIN_TIME, MAX_CALLS = 0.5, 10  # short calls: timed until MIN_TIME seconds are spent (<= MAX_CALLS)


# --- one call per scenario: (p, T, reps, seed) -> DataFrame ------------------------------------
def run_as17_experts(p, T, reps, seed):
    return as17_experts.simulate("stochastic", p["N"], T, p["eps"], reps, seed, gap=p["gap"], phases=p["phases"])


def run_as17_olo(p, T, reps, seed):
    return as17_olo.simulate("sphere", "stochastic", p["N"], T, p["eps"], reps, seed, phases=p["phases"], mu=p["mu"])


def run_as17_bandits(p, T, reps, seed):
    plan = {**as17_bandits.grid_plan(p, "T"), "dp_exp2_fixed_explore": p["eps"]}  # the T-grid plan, + a gross control
    return as17_bandits.simulate("stochastic", p["N"], T, plan, reps, seed, gap=p["gap"])


def run_as17_blo(p, T, reps, seed):
    plan = {"scrible": [None], "dp_scrible": p["eps"], "dp_scrible_composed": [p["rate_eps"]],
            "dp_scrible_eps_squared": p["eps"]}
    return as17_blo.simulate("ball", "stochastic", p["N"], T, plan, reps, seed, phases=p["phases"], mu=p["mu"])


def run_ztc22(p, T, reps, seed):
    return ztc22.simulate_rates(p, T, reps, seed)


def run_env21(p, T, reps, seed):
    if T in sorted(p["T"])[:2]:  # would add the offset_losses control (small-T grid points only)
        T += 1
    return env21.simulate("rates", p, ("simplex", T), reps, seed)


def run_env21_n(p, T, reps, seed):
    return env21.simulate("n", p, int(p["dim_eps"]), reps, seed)


def run_vdh19(p, T, reps, seed):
    return vdh19.simulate_minority(p, T, reps, seed)


def run_vdh19_sparse(p, T, reps, seed):
    return vdh19.simulate_sparse(p, T, reps, seed)


# name -> (config block, call, horizon keys set to T (a list key gets [T]), other fixed overrides)
SCENARIOS = {
    "as17_experts": ("as17_experts", run_as17_experts, ("T",), {}),
    "as17_olo": ("as17_olo", run_as17_olo, ("T",), {}),
    "as17_bandits": ("as17_mab", run_as17_bandits, ("T",), {}),
    "as17_blo": ("as17_blo", run_as17_blo, ("T",), {}),
    "ztc22": ("ztc22", run_ztc22, ("T",), {}),
    "env21": ("env21", run_env21, (), {}),  # T is the point; see the module docstring for p["T"]
    "vdh19": ("vdh19", run_vdh19, ("T",), {"printed_T_max": 0}),
}
EXTRAS = {
    "env21_n": ("env21", run_env21_n, ("T_n",), {}),
    "vdh19_sparse": ("vdh19", run_vdh19_sparse, ("T_sparse",), {}),
}
ALL = SCENARIOS | EXTRAS


def block_at(p: dict, T: int, keys, fixed: dict) -> dict:
    """A deep copy of the config block with the horizon key(s) set to T and ``fixed`` applied."""
    q = copy.deepcopy(p)
    for k in keys:
        q[k] = [T] if isinstance(q[k], list) else T
    q.update(copy.deepcopy(fixed))
    return q


# --- measurement -------------------------------------------------------------------------------
@contextlib.contextmanager
def stream_block(block: int):
    """Make ``block`` the default buffer size of every ReplicateStreams built inside (0: leave the
    library default).  Same numbers whatever the block (it only sets the refill size)."""
    classes = (ReplicateStreams, TiledStreams) if block else ()
    saved = [c.__init__.__defaults__ for c in classes]
    try:
        for c, d in zip(classes, saved):
            c.__init__.__defaults__ = (*d[:-1], int(block))
        yield
    finally:
        for c, d in zip(classes, saved):
            c.__init__.__defaults__ = d


def result_bytes(df) -> int:
    """Bytes of the returned table, the arrays held in object columns (per-round values, often
    views of one block) counted by their ``nbytes``."""
    n = int(df.memory_usage(index=True).sum())
    for c in df.columns[df.dtypes == object]:
        n += sum(x.nbytes if isinstance(x, np.ndarray) else sys.getsizeof(x) for x in df[c])
    return n


def measure(call, repeat: int, block: int = MEM_BLOCK, min_time: float = MIN_TIME) -> tuple[float, int, int]:
    """(best of ``repeat`` (or more, see MIN_TIME) wall times, tracemalloc peak bytes of one
    separate traced call, bytes of its result).  The memory exponent is fitted to the working
    memory, peak minus result: a table whose columns hold one value per round (env21's Lemma
    C.2 / C.5 measurements) grows as sqrt(T) by definition and is the output, not a cache.

    Two T-independent artefacts would read as a memory exponent of ~0.1 on the small peaks:
    (1) a ReplicateStreams buffers ``block`` uniforms per replicate (8192: 1 MiB at R = 16) and
    its first refill briefly holds two buffers, at a T set by its draws per step, i.e. a one-off
    step inside the T range; the traced call uses ``block`` = 64 (same numbers drawn: the block
    only sets the refill size; the timed calls keep 8192).  (2) A full ``gc.collect()`` empties
    CPython's free lists, which the call would refill with traced allocations (~0.1-0.2 MiB over
    the first few thousand steps); so none right before tracing (the timed calls leave them full).
    """
    best, spent, n = math.inf, 0.0, 0
    while n < repeat or (spent < min_time and n < MAX_CALLS):
        gc.collect()
        t0 = time.perf_counter()
        call()
        dt = time.perf_counter() - t0
        best, spent, n = min(best, dt), spent + dt, n + 1
    with stream_block(block):  # no gc.collect() here (artefact 2)
        tracemalloc.start()
        try:
            out = call()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    return best, peak, result_bytes(out)


def slope(x, y) -> float:
    """Least-squares slope of log(y) on log(x)."""
    return float(np.polyfit(np.log(np.asarray(x, float)), np.log(np.asarray(y, float)), 1)[0])


def bench(name: str, blocks: dict, Ts, reps, seed: int, repeat: int, block: int = MEM_BLOCK,
          min_time: float = MIN_TIME) -> dict:
    cfg_key, fn, keys, fixed = ALL[name]
    fn(block_at(blocks[cfg_key], Ts[0], keys, fixed), Ts[0], reps, seed)  # warm-up (one-time costs)
    rows = []
    for T in Ts:
        p = block_at(blocks[cfg_key], T, keys, fixed)
        sec, peak, res = measure(lambda: fn(p, T, reps, seed), repeat, block, min_time)
        rows.append((T, sec, peak, res))
    T_, s_, peak_, res_ = (np.array(c, float) for c in zip(*rows))
    m_ = np.maximum(peak_ - res_, 1.0)  # working memory
    return dict(name=name, rows=rows, t_exp=slope(T_, s_), m_exp=slope(T_, m_),
                mib_per_1e4=float(np.polyfit(T_, m_ / MiB, 1)[0] * 1e4))


def verdict(r: dict) -> str:
    bad = [what for what, bad in (("time", r["t_exp"] > MAX_TIME_EXP), ("memory", r["m_exp"] > MAX_MEM_EXP)) if bad]
    return "VIOLATES (" + ", ".join(bad) + ")" if bad else "ok"


def format_scenario(r: dict) -> str:
    lines = [f"{r['name']}", f"{'T':>8}{'seconds':>10}{'peak MiB':>11}{'result MiB':>12}"]
    lines += [f"{T:>8}{s:>10.3f}{m / MiB:>11.2f}{res / MiB:>12.2f}" for T, s, m, res in r["rows"]]
    lines.append(f"  exponents: time {r['t_exp']:.2f}, working memory (peak - result) {r['m_exp']:.2f} "
                 f"({r['mib_per_1e4']:+.2f} MiB per 1e4 steps)  -> {verdict(r)}")
    return "\n".join(lines)


def format_summary(results: list[dict]) -> str:
    head = f"{'scenario':<14}{'T range':>14}{'time exp':>10}{'mem exp':>9}{'MiB/1e4':>9}  verdict"
    lines = [head, "-" * len(head)]
    for r in results:
        rng = f"{r['rows'][0][0]}-{r['rows'][-1][0]}"
        lines.append(f"{r['name']:<14}{rng:>14}{r['t_exp']:>10.2f}{r['m_exp']:>9.2f}{r['mib_per_1e4']:>9.2f}"
                     f"  {verdict(r)}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--smoke", action="store_true", help="tiny sizes (seconds; for CI)")
    ap.add_argument("--preset", default="default", help="config preset whose blocks are used (default: default)")
    ap.add_argument("--T", type=int, nargs=2, metavar=("T_MIN", "T_MAX"), default=None,
                    help="smallest and largest horizon (default 200 6325; smoke 16 512)")
    ap.add_argument("--points", type=int, default=None, help="horizons, log-spaced (default 5; smoke 3)")
    ap.add_argument("--reps", type=int, default=None, help="replicates per call (default chunk_size; smoke 2)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="timed calls per point, best kept (default 2, more under 0.5 s; smoke 1)")
    ap.add_argument("--mem-block", type=int, default=MEM_BLOCK,
                    help=f"stream buffer during the traced call (default {MEM_BLOCK}; 0 = library default 8192)")
    ap.add_argument("--scenarios", nargs="+", choices=list(ALL), default=list(SCENARIOS))
    a = ap.parse_args(argv)
    cfg = yaml.safe_load(CONFIG.read_text())
    cfg["preset"] = a.preset
    blocks = config.effective(cfg)
    lo, hi = a.T or ((16, 512) if a.smoke else (200, 6325))
    npts = a.points or (3 if a.smoke else 5)
    Ts = sorted({int(round(t)) for t in np.geomspace(lo, hi, npts)})
    reps = range(a.reps or (2 if a.smoke else blocks["chunk_size"]))
    repeat = a.repeat or (1 if a.smoke else 2)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}, cpus {os.cpu_count()}, load(1 min) {load:.2f}")
    print(f"preset {a.preset}, replicates {len(reps)}, T {Ts} ({math.log10(Ts[-1] / Ts[0]):.2f} decades), "
          f"time = best of {repeat}, memory = tracemalloc peak (stream block {a.mem_block or 'default'})")
    t0 = time.perf_counter()
    results = []
    for name in a.scenarios:
        results.append(bench(name, blocks, Ts, reps, blocks["seed"], repeat, a.mem_block,
                             0.0 if a.smoke else MIN_TIME))
        print(format_scenario(results[-1]), flush=True)
    print()
    print(format_summary(results))
    print(f"limits: time exponent <= {MAX_TIME_EXP}, memory exponent <= {MAX_MEM_EXP} (flat)"
          + ("; smoke: a check that it runs, the exponents of tiny T mean nothing" if a.smoke else ""))
    print(f"total {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
