"""The experiment: N experts with Bernoulli losses of means ``mu`` (expert 0 best), Hedge at
Theorem 2.2's eta, its near miss (eta without the 8: sqrt(ln N / T)), its mis-tuned twin (eta's exponent
in T one notch off: sqrt(8 ln N) / T^(2/3)) and the uniform forecaster on the same draws, at each horizon T."""
import numpy as np
import pandas as pd

from dpregret.core.rng import ReplicateStreams, stable_key

from .learners import eta_thm_2_2, hedge_losses

ALGS = ("hedge", "hedge_no8", "hedge_T23", "uniform")


def experiments(p: dict) -> dict[str, list[str]]:
    """The one experiment and its points (a job per point and replicate chunk)."""
    return {"runs": [f"T{T}" for T in p["T"]]}


def simulate(p: dict, experiment: str, point: str, replicates: range, seed: int) -> pd.DataFrame:
    """One row per replicate and forecaster: its regret against the best expert in hindsight."""
    T, N = int(point.removeprefix("T")), int(p["N"])
    u = ReplicateStreams(seed, stable_key("cbl06_hedge", "losses", T), replicates).uniform((T, N))
    losses = (u < np.asarray(p["mu"], dtype=float)).astype(float)
    best = losses.sum(axis=1).min(axis=1)
    eta = eta_thm_2_2(N, T)
    rows = []
    for alg, e in zip(ALGS, (eta, eta / np.sqrt(8.0), eta * T ** (-1.0 / 6.0), 0.0)):
        regret = hedge_losses(losses, e).sum(axis=1) - best
        rows.append(pd.DataFrame({"alg": alg, "T": T, "N": N, "eta": e, "replicate": list(replicates),
                                  "regret": regret}))
    return pd.concat(rows, ignore_index=True)
