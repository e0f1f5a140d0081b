"""Peer comparison: our non-private EXP2 on the simplex vertices (= Exp3 with uniform exploration,
:class:`dpregret.papers.as17.bandits.Exp2`, vectorised over replicates) against SMPyBandits' ``Exp3``
(one Python object per replicate, one round at a time) on the same instance, horizon and replicate
count: mean pseudo-regret at T with 95% t-intervals, a Welch interval for the difference (equal
within CI = it contains 0), and throughput (rounds x replicates per second) with the ratio ours/peer.

    python benchmarks/bench_peer.py [--smoke] [--N 10] [--T 10000] [--R 32] [--require-peer]

Instance: N Bernoulli arms, mean loss ``0.5 - gap`` for arm 0 and 0.5 for the others; one loss
matrix (T, N) is drawn once from ``--seed`` and shared by every replicate of both learners, so the
replicates differ only in the learners' own randomness.  Pseudo-regret at T =
``sum_t (mu[i_t] - min mu)`` = ``pulls . gaps`` -- the same estimator for both learners.

Parameter mapping (SMPyBandits 0.9.7, ``Policies/Exp3.py``; read from the installed source):
- play distribution: peer ``trusts = (1 - gamma) w + gamma / K`` with ``w`` its normalised
  weights; ours ``p = (1 - gamma) q + gamma / N``: the same, with K = N and the same gamma;
- learning rate: the peer has none of its own, it updates ``w[a] *= exp((gamma / K) r / trusts[a])``
  (``unbiased=True``), i.e. eta = gamma / K.  Our non-private Theorem 4.1 parameters
  (``exp2_params_thm4_1(N, T, None)``: eta = sqrt(log N / (2 N T)), gamma = eta N) satisfy exactly
  that relation, so ``Exp3(N, gamma=gamma)`` runs our eta and gamma;
- feedback: the peer maximises rewards in [0, 1] (``lower=0, amplitude=1``), ours minimises losses
  in [0, 1]; the peer gets ``r = 1 - loss``.  Its estimate ``eta (1 - l) / p_a`` on the played arm
  equals ours (``-eta l / p_a``) plus ``eta / p_a``, whose mean is the constant vector eta (which
  normalisation cancels): same expected update, different variance -- the two algorithms are the
  gain- and the loss-based forms of Exp3, not the same random numbers, hence the statistical test;
- the peer first plays each arm once in a random order (t < K) and draws from numpy's global
  RandomState (seeded with ``--seed`` before each run); ours draws from ReplicateStreams.

The peer is imported lazily; without it the script says so and exits 0 (exit 1 with
``--require-peer``).  SMPyBandits 0.9.7 (2019) installs on Python 3.11 but its ``Policies`` package
imports ``scipy.special.btdtri``, removed in SciPy 1.14: install it with dpregret (numba included) in a
separate environment, from the repository root: ``python3 -m venv /tmp/peer && /tmp/peer/bin/pip install
SMPyBandits "scipy<1.14" -e .``, then ``/tmp/peer/bin/python benchmarks/bench_peer.py``.  No timing assertions.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import sys

import numpy as np
from scipy import stats

from dpregret.papers.as17.bandits import Exp2, exp2_params_thm4_1
from dpregret.core.rng import ReplicateStreams, stable_key

from bench_kernels import _best_time  # noqa: E402  (this directory is on sys.path when run as a script)

SEED = 1
PEER_INSTALL = 'python3 -m venv /tmp/peer && /tmp/peer/bin/pip install SMPyBandits "scipy<1.14" -e .'


def load_peer():
    """(Exp3 class, version) or (None, reason).  The import prints warnings (numba, tqdm, pykov):
    they are swallowed."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            import SMPyBandits
            from SMPyBandits.Policies.Exp3 import Exp3
    except Exception as exc:  # ImportError, or the btdtri ImportError on SciPy >= 1.14
        return None, f"{type(exc).__name__}: {exc}"
    return Exp3, SMPyBandits.__version__


def instance(N: int, T: int, gap: float, seed: int = SEED):
    """Mean losses (N,), the shared Bernoulli loss matrix (T, N) and the gaps (N,)."""
    mu = np.r_[0.5 - gap, np.full(N - 1, 0.5)]
    L = (np.random.default_rng(seed).random((T, N)) < mu).astype(float)
    return mu, L, mu - mu.min()


def run_ours(L: np.ndarray, gaps: np.ndarray, eta: float, gamma: float, R: int, seed: int = SEED) -> np.ndarray:
    """Pseudo-regret at T of R replicates of Exp2 (one batched learner)."""
    T, N = L.shape
    learner = Exp2(N, eta, gamma, ReplicateStreams(seed, stable_key("bench_peer", "exp2"), range(R)))
    reg = np.zeros(R)
    for t in range(T):
        arm = learner.predict()
        reg += gaps[arm]
        learner.update(L[t, arm])
    return reg


def run_peer(Exp3, L: np.ndarray, gaps: np.ndarray, gamma: float, R: int, seed: int = SEED) -> np.ndarray:
    """Pseudo-regret at T of R independent SMPyBandits Exp3 objects, rewards 1 - loss."""
    T, N = L.shape
    rewards = 1.0 - L
    np.random.seed(seed)  # the peer draws from numpy's global RandomState
    reg = np.empty(R)
    for r in range(R):
        pol = Exp3(N, gamma=gamma)
        pol.startGame()
        for t in range(T):
            arm = pol.choice()
            pol.getReward(arm, rewards[t, arm])
        reg[r] = pol.pulls @ gaps
    return reg


def t_interval(x: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """(mean, half-width) of the Student t interval."""
    n = len(x)
    return float(x.mean()), float(stats.t.ppf(0.5 + level / 2, n - 1) * x.std(ddof=1) / math.sqrt(n))


def welch_interval(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """(mean a - mean b, half-width) with Welch-Satterthwaite degrees of freedom."""
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return float(a.mean() - b.mean()), float(stats.t.ppf(0.5 + level / 2, df) * math.sqrt(va + vb))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--smoke", action="store_true", help="tiny sizes (seconds; for CI)")
    ap.add_argument("--N", type=int, default=None, help="arms (default 10; smoke 4)")
    ap.add_argument("--T", type=int, default=None, help="horizon (default 10000; smoke 200)")
    ap.add_argument("--R", type=int, default=None, help="replicates (default 32; smoke 4)")
    ap.add_argument("--gap", type=float, default=0.1, help="mean-loss gap of the best arm (default 0.1)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--repeat", type=int, default=None, help="timed runs, best kept (default 2; smoke 1)")
    ap.add_argument("--require-peer", action="store_true", help="exit 1 if SMPyBandits is not importable")
    a = ap.parse_args(argv)
    N = a.N or (4 if a.smoke else 10)
    T = a.T or (200 if a.smoke else 10_000)
    R = a.R or (4 if a.smoke else 32)
    repeat = a.repeat or (1 if a.smoke else 2)
    if R < 2:
        ap.error("--R must be >= 2 (t-intervals)")

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}, cpus {os.cpu_count()}, load(1 min) {load:.2f}")
    _, eta, gamma = exp2_params_thm4_1(N, T, None)
    mu, L, gaps = instance(N, T, a.gap, a.seed)
    print(f"instance: N={N} Bernoulli arms, mean losses {mu[0]:g} (arm 0) / {mu[1]:g}, T={T}, R={R}, seed {a.seed};"
          f" eta={eta:.4g}, gamma={gamma:.4g} (peer: Exp3(N, gamma), eta = gamma/N)")

    t_ours, reg_ours = _best_time(lambda: run_ours(L, gaps, eta, gamma, R, a.seed), repeat)
    rows = [("ours: Exp2 (batched over R)", reg_ours, T * R / t_ours)]
    Exp3, info = load_peer()
    if Exp3 is None:
        print(f"peer SMPyBandits not importable ({info}); install with: {PEER_INSTALL}")
    else:
        t_peer, reg_peer = _best_time(lambda: run_peer(Exp3, L, gaps, gamma, R, a.seed), repeat)
        rows.append((f"peer: SMPyBandits {info} Exp3", reg_peer, T * R / t_peer))

    head = f"{'learner':<34}{'regret@T':>10}{'95% CI':>22}{'r*R/s':>12}"
    print(head + "\n" + "-" * len(head))
    for label, reg, tp in rows:
        m, h = t_interval(reg)
        print(f"{label:<34}{m:>10.2f}{f'[{m - h:.2f}, {m + h:.2f}]':>22}{tp:>12,.0f}")
    if Exp3 is None:
        return 1 if a.require_peer else 0
    d, h = welch_interval(reg_ours, reg_peer)
    print(f"difference ours - peer: {d:.2f}, 95% CI [{d - h:.2f}, {d + h:.2f}] -> equal within CI: {abs(d) <= h}")
    print(f"throughput ratio ours / peer: {rows[0][2] / rows[1][2]:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
