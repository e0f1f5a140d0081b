"""The generic user path against the paper's fast path: per setting, the paper's own learner passed
as a *user* learner (``dpregret.check``'s path: the scenario's wrapper calls ``predict()`` /
``update()`` round by round) against the paper's fast path (compiled kernel or block loop) on the
same claim, point, replicates and draws.

    python benchmarks/bench_user_path.py [--smoke] [--preset default] [--settings bco bandit ...]
                                         [--point first|last]

Each row: the claim and point (the preset's first grid point by default, ``--point last`` its last),
the seconds of the paper's fast path and of the user path (best of ``--repeat``), ``x fast`` = user
path / fast path, and ``same``: the user path's numbers against the fast path's (``exact`` bit for
bit, ``1e-k`` the largest relative difference where the fast path sums in another order, as the
tests of each setting state).  Only the runs the two paths share are timed: the fast path's rows of
the paper's learner and its control, the user path's rows of the same learner fed by the same
wrapper (no paper rows beside it).  The user path's time is what a user's learner of the same cost
per round would take; most of the ratio is the learner's own per-round numpy work (a class, not a
kernel), the rest the wrapper's (``docs/workflow.md``, "Your own learner").  No timing assertions:
the numbers depend on machine load.

Settings and what is compared (setting: paper's learner as a user's vs the fast path):
- ``bco``: SCRiBLe (``papers.as17.user_blo.paper_learner``, drawing from the paper rows' stream) in
  Algorithm 4 vs ``scrible_block`` (numba), rows ``dp_scrible`` and ``dp_scrible_composed``;
- ``bandit``: EXP2 (``papers.as17.bandits.Exp2``, the paper rows' stream) in Algorithm 4 vs
  ``exp2_block`` (numba), row ``dp_exp2``;
- ``experts``: exponential weights on the fed sums (``ExpWeights`` on ``ExactSum``) vs the
  scenario's block rounds (``experts_jit``), rows ``tree``, ``nonprivate``, ``fresh_noise``; the
  user path drawing its own noise (inside ``dpregret.check`` it plays on the paper's draws instead);
- ``olo``: FTRL on the ball (``BallFTRL`` on ``ExactSum``) vs ``as17_olo.simulate``'s block path,
  the same three rows;
- ``oco_polytope``: Algorithm 1's Frank-Wolfe learner (``papers.env21.user.FrankWolfeOCO``, given the
  tree's initial release) in ``private_bandit_around`` vs ``private_bandit`` (compiled rounds),
  variants Laplace and Gaussian;
- ``oco``: Remark 5's OGD behind a proxy (so ``o2b.run`` takes its generic per-step loop, as for any
  user learner) vs the compiled loop ``o2b_jit`` on the minimax family, Algorithm 1 (tree noise),
  at ``T_lin_priv``; van der Hoeven's Algorithm 2 runs its direction learner in the same Python loop
  on both paths (``tests/test_vdh19.py``), so it has no fast path to compare with.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

from dpregret.pipeline.api import preset_params
from dpregret.core.rng import ReplicateStreams, RowStreams, stable_key

SEED = None  # the preset's root seed


def _best(fn, repeat: int):
    best, out = math.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _same(fast: np.ndarray, user: np.ndarray) -> str:
    fast, user = np.asarray(fast, dtype=float), np.asarray(user, dtype=float)
    if np.array_equal(fast, user):
        return "exact"
    rel = float(np.max(np.abs(user - fast) / np.maximum(np.abs(fast), 1e-300)))
    return f"{rel:.0e}"


def _pick(grid, which: str):
    return int(grid[0] if which == "first" else grid[-1])


# --- one function per setting: (claim, point label, R, fast(), user(), compare(fast_out, user_out)) -----------------
def bco(preset: str, which: str, smoke: bool):
    from dpregret.papers.as17 import scenario_blo as B

    run, p = preset_params("as17_blo", preset, None, None, None)
    T = 2000 if smoke else _pick(p["T"], which)
    reps, seed, N, r, dom = range(int(p["replicates"])), run["seed"], int(p["N"]), p["rate_eps"], "ball"
    point = B.point_key(dom, "stochastic", N, T, p["phases"], p["mu"])

    def paper_as_user(R, K, T_, lam, streams):
        return B.paper_learner(R, K, T_, lam, ReplicateStreams(seed, stable_key(*point, "scrible"), reps))

    plan = {"dp_scrible": [r], "dp_scrible_composed": [r]}
    fast = lambda: B.simulate(dom, "stochastic", N, T, plan, reps, seed, phases=p["phases"], mu=p["mu"])  # noqa: E731
    user = lambda: B.simulate(dom, "stochastic", N, T, {"paper": [r]}, reps, seed, phases=p["phases"],  # noqa: E731
                              mu=p["mu"], learners={"paper": paper_as_user})
    return "AS17-T2-blo-ball-rate-T", T, len(reps), fast, user, lambda f, u: (f.regret, u.regret)


def bandit(preset: str, which: str, smoke: bool):
    from dpregret.papers.as17.bandits import Exp2
    from dpregret.papers.as17 import scenario_bandits as S

    run, p = preset_params("as17_mab", preset, None, None, None)
    T = 5000 if smoke else _pick(p["T"], which)
    reps, seed, N, r = range(int(p["replicates"])), run["seed"], int(p["N"]), p["rate_eps"]
    point = (S.SCENARIO, "stochastic", N, T, p["gap"])

    def paper_as_user(R, N_, T_, lam, streams):
        _, eta, gam = S.row_params("dp_exp2", N_, T_, 1.0 / lam)
        return Exp2(N_, eta, gam, ReplicateStreams(seed, stable_key(*point, "exp2"), reps))

    fast = lambda: S.simulate("stochastic", N, T, {"dp_exp2": [r]}, reps, seed, gap=p["gap"])  # noqa: E731
    user = lambda: S.simulate("stochastic", N, T, {"paper": [r]}, reps, seed, gap=p["gap"],  # noqa: E731
                              learners={"paper": paper_as_user})
    return "AS17-T2-mab-rate-T", T, len(reps), fast, user, lambda f, u: (f.regret, u.regret)


def experts(preset: str, which: str, smoke: bool):
    from dpregret.papers.as17.ftrl import ExpWeights, eta_thm34
    from dpregret.papers.as17.prefix_sums import ExactSum
    from dpregret.papers.as17 import scenario_experts as X

    run, p = preset_params("as17_experts", preset, None, None, None)
    T = 3000 if smoke else _pick(p["T"], which)
    reps, seed, N, r = range(int(p["replicates"])), run["seed"], int(p["N"]), p["rate_eps"]

    def paper(R, N_, T_):
        return ExpWeights(eta_thm34(N_, T_), ExactSum(R, N_))

    fast = lambda: X.simulate("stochastic", N, T, [r], reps, seed, gap=p["gap"], phases=p["phases"])  # noqa: E731
    user = lambda: X.user_learner_rows("stochastic", N, T, [float(r)], list(reps), seed,  # noqa: E731
                                       p["gap"], p["phases"], {"paper": paper})
    order = {"tree": "paper", "nonprivate": "paper@nonprivate", "fresh_noise": "paper@fresh_noise"}

    def compare(f, u):
        return (np.concatenate([f[f.algorithm == a].regret for a in order]),
                np.concatenate([u[u.algorithm == b].regret for b in order.values()]))
    return "AS17-cor3.2-gap-rate-T", T, len(reps), fast, user, compare


def olo(preset: str, which: str, smoke: bool):
    from dpregret.papers.as17.olo import BallFTRL, d_r_quadratic, eta_ftrl
    from dpregret.papers.as17.prefix_sums import ExactSum
    from dpregret.papers.as17 import scenario_olo as X

    run, p = preset_params("as17_olo", preset, None, None, None)
    T = 3000 if smoke else _pick(p["T"], which)
    reps, seed, N, r = range(int(p["replicates"])), run["seed"], int(p["N"]), p["rate_eps"]

    def paper(R, d, T_, domain):
        return BallFTRL(eta_ftrl(d_r_quadratic(domain, d), T_ / 2.0), ExactSum(R, d))

    fast = lambda: X.simulate("sphere", "stochastic", N, T, [r], reps, seed, phases=p["phases"],  # noqa: E731
                              mu=p["mu"], algorithms=X.GRID_ALGORITHMS["T"])
    user = lambda: X.user_learner_rows("sphere", "stochastic", N, T, [float(r)], list(reps), seed,  # noqa: E731
                                       p["phases"], p["mu"], {"paper": paper})
    order = {"tree": "paper", "nonprivate": "paper@nonprivate", "fresh_noise": "paper@fresh_noise"}

    def compare(f, u):
        return (np.concatenate([f[f.algorithm == a].regret for a in order]),
                np.concatenate([u[u.algorithm == b].regret for b in order.values()]))
    return "AS17-T1-sphere-gap-rate-T", T, len(reps), fast, user, compare


def oco_polytope(preset: str, which: str, smoke: bool):
    from dpregret.core.environments.bco import stationary_distance
    from dpregret.core.environments.polytopes import make_domain
    from dpregret.core.calibration import lemma5_noise_scale
    from dpregret.papers.env21.learners import FrankWolfeOCO, noise_draw, algorithm1_parameters, batch_schedule
    from dpregret.papers.env21.run import private_bandit_around, run_variants, env21_streams
    from dpregret.core.tree import TreeBasedAgg

    run, p = preset_params("env21", preset, None, None, None)
    T = 1000 if smoke else _pick(p["T"], which)
    reps, seed, L, delta = range(int(p["replicates"])), run["seed"], float(p["L"]), float(p["delta"])
    dom = make_domain("simplex", p["n_simplex"])
    d = dom.dim
    lam = lemma5_noise_scale("laplace", T, d, L, p["eps_rate_laplace"], delta)
    sig = lemma5_noise_scale("gaussian", T, d, L, p["eps_rate_gaussian"], delta)
    key = ("rates", "simplex", T)
    variants = [("laplace", "laplace", lam), ("gaussian", "gaussian", sig)]
    eta, b = algorithm1_parameters(T, d, L, dom.D)[1], batch_schedule(T)[0]

    def noise():
        return RowStreams(env21_streams(seed, reps, *key, "noise"), 2, [lam, sig], ["laplace", "gaussian"])

    def user():
        nz = noise()
        L0 = TreeBasedAgg(batch_schedule(T)[1], d, noise_draw("laplace", 1.0, noise(), 2 * len(reps), d),
                          2 * len(reps)).released  # the tree's release before round 1, from the same keys
        make = lambda R, domain, rounds, G: FrankWolfeOCO(domain, R, eta, b, s0=L0 @ dom.Q.T)  # noqa: E731
        u = RowStreams(env21_streams(seed, reps, *key, "u"), 2)
        return private_bandit_around(dom, stationary_distance(dom, T, L=L), make, u, noise_rng=nz)

    def fast():
        dm = make_domain("simplex", p["n_simplex"])
        return run_variants(dm, stationary_distance(dm, T, L=L), variants, reps, seed, key)
    return "ENV-thm1.1-rate-T", T, len(reps), fast, user, lambda f, u: (f.regret[:, -1], u["regret"])


def oco(preset: str, which: str, smoke: bool):
    from dpregret.core.environments.stochastic import LinearFamily, TiledStreams
    from dpregret.papers.ztc22 import bounds as o2b_bounds
    from dpregret.papers.ztc22 import o2b
    from dpregret.core.learners.oco import ProjectedOGD

    run, p = preset_params("ztc22", preset, None, None, None)
    T = 1000 if smoke else _pick(p["T_lin_priv"], which)
    reps, seed, k, d, cg = range(int(p["replicates"])), run["seed"], p["k"], p["d_lin"], list(p["c_grid"])
    rho = p["rho_lin"]
    prob = LinearFamily(d, cg, len(reps))

    class Proxy:  # the paper's OGD as a user's learner: o2b.run cannot tell it is Remark 5's
        def __init__(self, inner):
            self.inner = inner

        def predict(self):
            return self.inner.predict()

        def update(self, g):
            self.inner.update(g)

    def one(wrap):
        learner = ProjectedOGD(len(reps) * len(cg), d, prob.r, lambda t: o2b_bounds.thm4_gsq(t, T, k, rho, prob))
        return o2b.run(prob, Proxy(learner) if wrap else learner, T, k=k, rho=rho,
                       src=TiledStreams(seed, stable_key("ztc22", "linear_T", "data", d, T), reps, len(cg)),
                       noise_src=TiledStreams(seed, stable_key("ztc22", "linear_T", "noise", d, T), reps, len(cg)),
                       checkpoints=[T], conversion="tree").subopt[:, -1]
    return "ZTC-rem5-rate-T-priv", T, len(reps), lambda: one(False), lambda: one(True), lambda f, u: (f, u)


SETTINGS = {"bco": bco, "bandit": bandit, "experts": experts, "olo": olo, "oco_polytope": oco_polytope, "oco": oco}


def bench(setting: str, preset: str, which: str, smoke: bool, repeat: int) -> dict:
    claim, T, R, fast, user, compare = SETTINGS[setting](preset, which, smoke)
    fast()  # numba's compilation (or its cache) and imports outside the timing
    t_fast, f = _best(fast, repeat)
    t_user, u = _best(user, repeat)
    a, b = compare(f, u)
    return dict(setting=setting, claim=claim, T=T, R=R, fast=t_fast, user=t_user,
                ratio=t_user / t_fast, same=_same(a, b))


def format_table(rows: list[dict]) -> str:
    head = f"{'setting':<14}{'claim':<28}{'T':>9}{'R':>5}{'fast s':>9}{'user s':>9}{'x fast':>8}  same"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['setting']:<14}{r['claim']:<28}{r['T']:>9}{r['R']:>5}{r['fast']:>9.2f}{r['user']:>9.2f}"
                     f"{r['ratio']:>8.1f}  {r['same']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--smoke", action="store_true", help="tiny horizons (seconds; for CI)")
    ap.add_argument("--preset", default="default", help="the preset whose point, replicates and seed are used")
    ap.add_argument("--point", choices=("first", "last"), default="first", help="the claim grid's first or last point")
    ap.add_argument("--settings", nargs="+", choices=list(SETTINGS), default=list(SETTINGS))
    ap.add_argument("--repeat", type=int, default=None, help="timings per path, the best kept (default 2; smoke 1)")
    a = ap.parse_args(argv)
    repeat = a.repeat or (1 if a.smoke else 2)
    t0 = time.perf_counter()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}, cpus {os.cpu_count()}, load(1 min) {load:.2f}, "
          f"preset {a.preset}, point {a.point}{' (smoke horizons)' if a.smoke else ''}")
    rows = [bench(s, a.preset, a.point, a.smoke, repeat) for s in a.settings]
    print(format_table(rows))
    print("x fast = user path / paper's fast path (the paper's learner on both, same draws); same = the user path's "
          "numbers against the fast path's (exact, or the largest relative difference)")
    print(f"total {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
