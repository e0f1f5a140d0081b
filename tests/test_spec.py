"""Claims declared as data (dpregret.verdict.spec): a missing tolerance is an error naming the claim,
and evaluate_spec decides a declared rate claim with its control, regime, twin and non-learner."""
import numpy as np
import pandas as pd
import pytest

from dpregret.verdict.core import Claim
from dpregret.verdict.spec import ClaimSpec, MissingTolerance, Regime, Twin, claim_tolerance, evaluate_spec

CLAIM = Claim("X-rate-T", "p", "t", "rate", "s", "m", "c")


def test_a_missing_tolerance_is_an_error_naming_the_claim_and_its_folder():
    assert claim_tolerance({"X-rate-T": 0.1}, "X-rate-T", "dpregret.papers.x.claims") == 0.1
    with pytest.raises(MissingTolerance, match=r"X-rate-T.*dpregret\.papers\.x\.claims.*src/dpregret/papers/x"):
        claim_tolerance({}, "X-rate-T", "dpregret.papers.x.claims")
    spec = ClaimSpec(CLAIM, "T", "regret", 0.5, "good", "bad")
    with pytest.raises(KeyError, match="X-rate-T"):  # evaluate_spec given the run's tolerances looks it up too
        evaluate_spec(_frame(), spec, {"rate_eps": 1.0}, {"other": 0.1}, 0.05, np.random.default_rng(0))


def _frame():
    rng = np.random.default_rng(0)
    rows = []
    for T in [100, 300, 1000, 3000, 10000]:
        for r in range(16):
            z = rng.lognormal(0, 0.05)
            for alg, reg in (("good", np.sqrt(T) * z), ("bad", T * z), ("twin", T ** 0.8 * z),
                             ("nonprivate", 0.9 * np.sqrt(T) * z)):
                rows.append({"algorithm": alg, "T": T, "eps": 1.0, "replicate": r, "regret": reg, "trivial": 2.0 * T})
    return pd.DataFrame(rows)


def test_evaluate_spec_attaches_the_declared_controls():
    spec = ClaimSpec(CLAIM, "T", "regret", 0.5, "good", "bad", twin=Twin("twin", "a twin", "why"),
                     nonlearner=("frozen", "trivial"),
                     regime=Regime("privacy_share", "max", "regret_regime.privacy_share_max", why="too private"))
    res, ctl = evaluate_spec(_frame(), spec, {"rate_eps": 1.0, "regret_regime": {"privacy_share_max": 0.5}}, 0.1,
                             0.05, np.random.default_rng(1))
    assert res.verdict == "PASS" and ctl.verdict == "FAIL"
    assert res.detail["twin"]["name"] == "a twin" and res.detail["twin"]["caught"]
    assert res.detail["nonlearner"]["name"] == "frozen" and res.detail["nonlearner"]["caught"]
    assert res.detail["regime_numbers"]["privacy_share"] == pytest.approx([0.1] * 5)
    # a share above the declared maximum: not in the regime, with the numbers
    out, _ = evaluate_spec(_frame(), spec, {"rate_eps": 1.0, "regret_regime": {"privacy_share_max": 0.05}}, 0.1,
                           0.05, np.random.default_rng(1))
    assert out.verdict == "INCONCLUSIVE" and "too private" in out.detail["not_in_regime"]


def test_x_grid_and_control_where_select_the_declared_rows():
    """``x_grid``: rows off the parameter's grid of x are not read; ``control_where``: the control is the same
    learner's rows on another instance (here the 'bad' instance of the 'good' learner)."""
    df = _frame()
    off = df[df.algorithm == "good"].assign(T=df["T"] * 7, regret=1e9)  # rows off the declared grid: would break it
    other = df[df.algorithm == "bad"].assign(algorithm="good", inst="other")
    df = pd.concat([df.assign(inst="mine"), off.assign(inst="mine"), other], ignore_index=True)
    spec = ClaimSpec(CLAIM, "T", "regret", 0.5, "good", "good", where={"inst": "mine"},
                     control_where={"inst": "other"}, x_grid="T_grid")
    res, ctl = evaluate_spec(df, spec, {"rate_eps": 1.0, "T_grid": [100, 300, 1000, 3000, 10000]}, 0.1, 0.05,
                             np.random.default_rng(1))
    assert res.verdict == "PASS" and res.detail["x"] == [100, 300, 1000, 3000, 10000]
    assert ctl.verdict == "FAIL" and ctl.measured == pytest.approx(1.0, abs=0.05)


@pytest.mark.parametrize("module, name", [("dpregret.papers.env21.claims", "RATE_T_SPECS"),
                                          ("dpregret.papers.env21.claims", "RATE_N_SPECS"),
                                          ("dpregret.papers.env21.claims", "RATE_EPS_SPECS"),
                                          ("dpregret.papers.ztc22.claims_linear", "REM5_SPECS"),
                                          ("dpregret.papers.ztc22.claims", "RATE_SPECS"),
                                          ("dpregret.papers.vdh19.claims", "RATE_SPECS"),
                                          ("dpregret.papers.as17.claims_experts", "RATE_SPECS")])
def test_the_papers_declared_rate_specs_are_their_claims(module, name):
    """Every declared spec is the folder's own rate claim, keyed by its id, with a tolerance in the run's config
    and its twin and controls named (the papers' code decides them by reading the spec)."""
    import importlib

    from dpregret.testing import declared_tolerances
    from dpregret.verdict.spec import TRANSFORMS

    mod = importlib.import_module(module)
    package = module.rsplit(".", 1)[0]
    try:  # the folder's claims module, else (AS17: one per setting) the spec's own module's CLAIMS
        claims = importlib.import_module(package + ".claims").CLAIMS
    except ModuleNotFoundError:
        claims = mod.CLAIMS
    tolerances = declared_tolerances(package)
    specs = getattr(mod, name)
    assert specs
    for cid, spec in specs.items():
        assert spec.claim_id == cid and claims[cid] is spec.claim and spec.claim.kind == "rate"
        assert cid in tolerances and spec.algorithm and spec.control
        assert spec.twin is None or (spec.twin.algorithm and spec.twin.why)
        assert spec.transform in TRANSFORMS


# the rate claims a spec cannot say (their decision is a composite of several fits), with why
COMPOSITES = {
    "ENV-thm1.1-rate-T": "Theorem 1.1 is the worse of Lemma 5.2's and Lemma 5.5's rate-T results (two specs' verdicts)",
    "ZTC-thm6-optimistic": "the proof's quantity Q_T fitted in T at rho_opt_rate, with the learner's assumption (8) "
                           "(regret <= 3 Q_T) checked on the same runs beside it",
}


def _declared_specs() -> set:
    """Every ClaimSpec the built-in folders' modules declare (module attributes: a spec, or a dict or list of them)."""
    import importlib
    import pkgutil

    from dpregret.papers import BUILTIN
    from dpregret.verdict.spec import ClaimSpec

    out = set()
    for folder in BUILTIN:
        pkg = importlib.import_module(folder)
        for info in pkgutil.iter_modules(pkg.__path__, folder + "."):
            for v in vars(importlib.import_module(info.name)).values():
                items = v.values() if isinstance(v, dict) else v if isinstance(v, (list, tuple)) else [v]
                out |= {s.claim_id for s in items if isinstance(s, ClaimSpec)}
    return out


def test_every_rate_claim_of_the_four_papers_is_a_declared_spec_but_the_composites():
    import importlib

    from dpregret.papers import BUILTIN
    from dpregret.pipeline.registry import all_claims

    keys = {importlib.import_module(f"{folder}.paper").PAPER.key for folder in BUILTIN}
    rates = {cid for cid, c in all_claims().items() if c.kind == "rate" and c.paper in keys}
    specs = _declared_specs()
    assert rates - specs == set(COMPOSITES), sorted(rates - specs)
    assert not specs - rates  # a spec is a rate claim's
