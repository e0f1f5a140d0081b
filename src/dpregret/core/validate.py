"""Argument checks shared by every public function (public: a paper folder of your own uses them too).

Each check raises ``ValueError`` naming the argument and the allowed range, so a bad
call fails loudly at the boundary instead of producing NaNs deep inside a simulation.
A run's parameters are checked once, before any job, against the config schema and each folder's
``validate`` (``dpregret.pipeline.config``); these checks guard the library's public functions
and classes when they are called directly.
"""
from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np


def positive(name: str, value, *, allow_inf: bool = False) -> float:
    """A real number > 0 (finite unless ``allow_inf``)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"{name} must be a real number > 0, got {value!r}")
    v = float(value)
    if math.isnan(v) or v <= 0 or (math.isinf(v) and not allow_inf):
        rng = "(0, inf]" if allow_inf else "(0, inf)"
        raise ValueError(f"{name} must lie in {rng}, got {value!r}")
    return v


def nonnegative(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not float(value) >= 0 or math.isinf(float(value)):
        raise ValueError(f"{name} must be a finite real number >= 0, got {value!r}")
    return float(value)


def probability(name: str, value, *, open_left: bool = True, open_right: bool = True) -> float:
    """A number in (0, 1) (endpoints per flags)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"{name} must be a number in (0, 1), got {value!r}")
    v = float(value)
    lo_ok = v > 0 if open_left else v >= 0
    hi_ok = v < 1 if open_right else v <= 1
    if not (lo_ok and hi_ok):
        lb = "(" if open_left else "["
        rb = ")" if open_right else "]"
        raise ValueError(f"{name} must lie in {lb}0, 1{rb}, got {value!r}")
    return v


def integer(name: str, value, *, minimum: int = 1) -> int:
    """An integer >= ``minimum`` (numpy integers accepted, bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, Integral | np.integer):
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if int(value) < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def finite_array(name: str, value, *, ndim: int | tuple[int, ...] | None = None) -> np.ndarray:
    """A float array with no NaN/inf and the given number of dimensions."""
    a = np.asarray(value, dtype=float)
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else ndim
        if a.ndim not in allowed:
            raise ValueError(f"{name} must have ndim in {allowed}, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return a
