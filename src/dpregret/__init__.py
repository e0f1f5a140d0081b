"""dpregret: empirical checks of differentially private online learning theorems."""

from dpregret.core import cpu as _cpu

_cpu.apply()  # before anything imports NumPy, numba or OpenBLAS: the same bits on every x86-64 CPU (dpregret.core.cpu)

__version__ = "0.1.0"
__all__ = ["api", "applicable", "check", "protocols"]


def __getattr__(name):
    """``dpregret.api`` and ``dpregret.protocols`` on first use (so ``import dpregret`` stays light)."""
    if name in ("api", "protocols"):
        import importlib

        return importlib.import_module({"api": ".pipeline.api", "protocols": ".core.protocols"}[name], __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def applicable():
    """The claims your learner can get, as a table (``dpregret.api.applicable``)."""
    from dpregret.pipeline.api import applicable as _applicable

    return _applicable()


def check(make, claim, *, name="user", preset="smoke", seed=None, replicates=None, config_path=None):
    """Decide ``claim`` for your learner (built by ``make``) beside the paper's, on the same draws.

    ``dpregret.api.check`` (imported on first call, so ``import dpregret`` stays light): returns
    ``.verdicts`` (one row per learner: verdict, measured, interval, the primary control and
    whether it was caught, ``detail``) and ``.runs`` (the tidy runs of the paper's learner, yours
    and the controls).  The claims, their settings and how ``make`` is called:
    ``dpregret.applicable()``."""
    from dpregret.pipeline.api import check as _check

    return _check(make, claim, name=name, preset=preset, seed=seed, replicates=replicates, config_path=config_path)
