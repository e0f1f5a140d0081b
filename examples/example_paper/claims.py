"""The claim of the example paper: Theorem 2.2's bound, checked as a bound at every T, with its
near-miss control (eta without the 8), the non-learner (uniform weights) and the mis-tuned twin (eta's
exponent in T one notch off) on the same draws."""
import numpy as np

from dpregret.verdict.core import check_bound, claim_factory, with_nonlearner, with_twin

from .bounds import bound_thm_2_2

claim = claim_factory("CBL06")
CLAIMS = {c.claim_id: c for c in (
    claim("CBL06-thm2.2-bound", "Theorem 2.2", "bound",
          "Hedge with eta = sqrt(8 ln N / T) has regret <= sqrt((T / 2) ln N) on losses in [0, 1]",
          "regret against the best expert in hindsight, per replicate, against the bound",
          "the same forecaster with eta = sqrt(ln N / T) (the 8 dropped) must exceed the bound"),
)}


def _bound_check(runs, p, alg, alpha):
    diffs, ratios, bounds = [], [], []
    for T in p["T"]:
        r = runs[(runs.alg == alg) & (runs["T"] == T)].sort_values("replicate")["regret"].to_numpy()
        b = bound_thm_2_2(p["N"], T)
        diffs.append(r - b)
        ratios.append(float(np.mean(r) / b))
        bounds.append(b)
    return check_bound(diffs, ratios, alpha, labels=[f"T{T}" for T in p["T"]], bounds=bounds)


def decide(runs, p, alpha, alg="hedge"):
    """(result, control result) of the learner ``alg``'s rows: the bound check with uniform weights as the
    non-learner (and, for the paper's Hedge, its mis-tuned twin), the control the paper's near miss."""
    result = with_nonlearner(_bound_check(runs, p, alg, alpha), "uniform", _bound_check(runs, p, "uniform", alpha))
    if alg == "hedge":
        result = with_twin(result, "eta ~ T^(-2/3)", _bound_check(runs, p, "hedge_T23", alpha),
                           "the learning rate's exponent in T one notch off (sqrt(8 ln N) / T^(2/3)): "
                           "learns too slowly")
    return result, _bound_check(runs, p, "hedge_no8", alpha)


def evaluate(tables, p, tol, alpha, rng_for):
    """claim id -> (result, control result), the contract of ``dpregret.verdict.core.evaluate_records``."""
    return {"CBL06-thm2.2-bound": decide(tables["runs"], p, alpha)}
