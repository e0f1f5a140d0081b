"""The example paper's declarations (``dpregret.papers.register`` reads them): the paper, its one
scenario (run by the generic rules) and its parameters per preset."""
from dpregret.papers import Paper, Scenario

PAPER = Paper("CBL06", "Cesa-Bianchi and Lugosi 2006", "Prediction, Learning, and Games",
              "Nicolo Cesa-Bianchi and Gabor Lugosi", 2006, "Cambridge University Press", "cesa2006prediction", "")
SCENARIOS = (Scenario("cbl06_hedge", "CBL06", "cbl06_", folder=__package__, generic=True),)
PRESETS = {
    "smoke": {"cbl06_hedge": {"N": 2, "mu": [0.25, 0.75], "T": [100, 400, 1600], "replicates": 16}},
    "default": {"cbl06_hedge": {"N": 2, "mu": [0.25, 0.75], "T": [100, 400, 1600, 6400], "replicates": 32}},
}
PRESETS["paper"] = PRESETS["default"]


def claims() -> dict:
    """claim id -> Claim, for the registry (``dpregret.pipeline.registry.all_claims``, ``dpregret.check``'s lookup)."""
    from .claims import CLAIMS

    return dict(CLAIMS)


def validate(scenario: str, p: dict) -> None:
    """The rule across keys the folder's config.schema.yaml cannot say (a ValueError naming the key)."""
    if len(p["mu"]) != p["N"]:
        raise ValueError(f"mu must hold N = {p['N']} means, got {p['mu']}")
