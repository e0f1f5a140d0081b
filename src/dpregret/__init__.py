"""dpregret: empirical checks of differentially private online learning theorems."""

__version__ = "0.1.0"


def check(*args, **kwargs):
    """:func:`dpregret.api.check`: decide a claim for your learner beside the paper's."""
    from .api import check as _check

    return _check(*args, **kwargs)
