"""The experiment: N experts with Bernoulli losses of means ``mu`` (expert 0 best), Hedge at
Theorem 2.2's eta, its near miss (eta without the 8: sqrt(ln N / T)), its mis-tuned twin (eta's exponent
in T one notch off: sqrt(8 ln N) / T^(2/3)) and the uniform forecaster on the same draws, at each horizon T.

Your own learner (``USER_CLAIMS``, ``dpregret.core.contract``): any learner of the experts setting,
``make(R, N, T)``, played round by round on the same losses beside the paper's rows (:func:`door_simulate`),
is decided against Theorem 2.2's bound by the claim's own check (``claims.decide``)."""
import numpy as np
import pandas as pd

from dpregret.core.contract import PaperOnDoor, UserClaim
from dpregret.core.protocols import SIGNATURES, build_learner, check_makes, check_play
from dpregret.core.rng import ReplicateStreams, stable_key

from .learners import eta_thm_2_2, hedge_losses, hedge_thm_2_2

ALGS = ("hedge", "hedge_no8", "hedge_T23", "uniform")


def experiments(p: dict) -> dict[str, list[str]]:
    """The one experiment and its points (a job per point and replicate chunk)."""
    return {"runs": [f"T{T}" for T in p["T"]]}


def _losses(p: dict, T: int, replicates: range, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The (R, T, N) Bernoulli losses of horizon T and the best expert's total loss per replicate."""
    u = ReplicateStreams(seed, stable_key("cbl06_hedge", "losses", T), replicates).uniform((T, int(p["N"])))
    losses = (u < np.asarray(p["mu"], dtype=float)).astype(float)
    return losses, losses.sum(axis=1).min(axis=1)


def simulate(p: dict, experiment: str, point: str, replicates: range, seed: int) -> pd.DataFrame:
    """One row per replicate and forecaster: its regret against the best expert in hindsight."""
    T, N = int(point.removeprefix("T")), int(p["N"])
    losses, best = _losses(p, T, replicates, seed)
    eta = eta_thm_2_2(N, T)
    rows = []
    for alg, e in zip(ALGS, (eta, eta / np.sqrt(8.0), eta * T ** (-1.0 / 6.0), 0.0)):
        regret = hedge_losses(losses, e).sum(axis=1) - best
        rows.append(pd.DataFrame({"alg": alg, "T": T, "N": N, "eta": e, "replicate": list(replicates),
                                  "regret": regret}))
    return pd.concat(rows, ignore_index=True)


def door_simulate(p: dict, T, replicates: range, seed: int, learners: dict) -> pd.DataFrame:
    """The door's table at horizon ``T``: the paper's rows (:func:`simulate`'s) and, for each learner
    ``{name: make}`` (``make(R, N, T)``), its regret on the same losses, played round by round."""
    T, N, R = int(T), int(p["N"]), len(replicates)
    paper = simulate(p, "runs", f"T{T}", replicates, seed)
    losses, best = _losses(p, T, replicates, seed)
    rows = [paper]
    for name, make in check_makes(learners, ALGS, SIGNATURES["experts"]).items():
        learner = build_learner(make, name, (R, N, T), SIGNATURES["experts"], "losses")
        suffered = np.zeros(R)
        for t in range(T):
            w = np.asarray(learner.predict(), dtype=float)
            check_play("experts", w, R, N)
            suffered += (w * losses[:, t]).sum(axis=1)
            learner.update(losses[:, t].copy())
        rows.append(pd.DataFrame({"alg": name, "T": T, "N": N, "eta": np.nan, "replicate": list(replicates),
                                  "regret": suffered - best}))
    return pd.concat(rows, ignore_index=True)


def _decide(runs, p, tol, alpha, rng_for, name):
    from .claims import decide

    return decide(runs, p, alpha, name)


# Theorem 2.2's bound as a benchmark for any experts learner: yours is decided by the claim's own check, with
# uniform weights as its non-learner and the paper's near miss (Hedge without the 8, the same draws) as the control
USER_CLAIMS = (UserClaim(
    "CBL06-thm2.2-bound", "cbl06_hedge", "experts", SIGNATURES["experts"],
    "your learner's weights played on the same Bernoulli losses, its regret against Theorem 2.2's bound "
    "sqrt((T / 2) ln N) at every T; control: Hedge with the 8 dropped (the paper's near miss, the same draws)",
    "hedge", "Hedge at Theorem 2.2's eta", ALGS, lambda p: [int(T) for T in p["T"]], door_simulate, _decide,
    paper_on_door=PaperOnDoor(lambda p, point, reps, seed: hedge_thm_2_2, (("", "hedge"),), ("regret",), 1e-12),
    nonlearner_left_out="the claim's own check runs uniform weights on the same losses as its non-learner (rows "
                        "uniform), at no extra cost"),)
