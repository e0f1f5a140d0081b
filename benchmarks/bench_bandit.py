"""Throughput of the vectorised DP-EXP2 bandit step (Agarwal-Singh Algorithm 4 + 5) against a
plain per-step, per-replicate Python loop that gives the same numbers on the same seed.

    python benchmarks/bench_bandit.py [--T 5000] [--R 64] [--N 8]

Prints rounds x replicates per second for both and their ratio (no timing assertions).
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from dpregret.learners.bandits import Exp2, PrivateFeedback, exp2_params_thm4_1
from dpregret.rng import ReplicateStreams, replicate_generator, stable_key


def losses(T, N):
    rng = np.random.default_rng(0)
    return (rng.random((T, N)) < np.r_[0.2, np.full(N - 1, 0.5)]).astype(float)


def vectorised(T, R, N, eps, seed=1):
    lam, eta, gam = exp2_params_thm4_1(N, T, eps)
    L = losses(T, N)
    learner = PrivateFeedback(Exp2(N, eta, gam, ReplicateStreams(seed, stable_key("arm"), range(R))), lam,
                              ReplicateStreams(seed, stable_key("noise"), range(R)))
    total = np.zeros(R)
    for t in range(T):
        arm = learner.predict()
        total += learner.p @ L[t]
        learner.update(L[t][arm])
    return total


def reference(T, R, N, eps, seed=1):
    """The same algorithm, one replicate and one round at a time, in plain Python."""
    lam, eta, gam = exp2_params_thm4_1(N, T, eps)
    L = losses(T, N)
    out = []
    for r in range(R):
        ga, gz = replicate_generator(seed, stable_key("arm"), r), replicate_generator(seed, stable_key("noise"), r)
        logq, total = [-math.log(N)] * N, 0.0
        for t in range(T):
            w = [math.exp(v) for v in logq]
            s = sum(w)
            p = [(1 - gam) * wi / s + gam / N for wi in w]
            total += sum(pi * li for pi, li in zip(p, L[t]))
            u, c, arm = ga.random(), 0.0, N - 1
            for i, pi in enumerate(p):
                c += pi
                if c >= u * sum(p):
                    arm = i
                    break
            z = []
            for _ in range(N):
                v = gz.random() - 0.5
                z.append(-lam * math.copysign(1.0, v) * math.log1p(-2 * abs(v)))
            logq[arm] -= eta * (L[t][arm] + z[arm]) / p[arm]
            m = max(logq)
            logq = [v - m for v in logq]
        out.append(total)
    return np.array(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--T", type=int, default=5000)
    ap.add_argument("--R", type=int, default=64)
    ap.add_argument("--N", type=int, default=8)
    a = ap.parse_args()
    t0 = time.perf_counter()
    v = vectorised(a.T, a.R, a.N, 1.0)
    tv = time.perf_counter() - t0
    Rref = max(1, a.R // 16)
    t0 = time.perf_counter()
    ref = reference(a.T, Rref, a.N, 1.0)
    tr = time.perf_counter() - t0
    same = np.allclose(v[:Rref], ref, rtol=1e-9, atol=1e-9)
    print(f"vectorised: {a.T * a.R / tv:,.0f} rounds x replicates / s  (T={a.T}, R={a.R}, N={a.N})")
    print(f"reference:  {a.T * Rref / tr:,.0f} rounds x replicates / s  (plain per-step loop, R={Rref})")
    print(f"ratio: {(a.T * a.R / tv) / (a.T * Rref / tr):.1f}x; same numbers on the same seed: {same}")


if __name__ == "__main__":
    main()
