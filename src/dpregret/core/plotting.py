"""The plotting helpers every paper's figures share (``dpregret.papers.<paper>.figures``): a mean
with its t interval, a curve with its confidence band on log axes (a band reaching 0 is cut at a
tenth of the mean, stated in the captions), :data:`plt`, matplotlib's ``pyplot`` with the Agg
backend, and :class:`Figure`, how a folder declares a figure and the claims it shows.

matplotlib and scipy are imported at their first use, not with this module: the workflow and
the report read each folder's figure declarations (which figure shows which claim) beside the
drawing code, and draw nothing."""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Figure:
    """One figure of a paper's plot job: its file stem (``figures/<directory>/<stem>.png``) and the
    claims it shows, by id without the environment suffix (the report puts each of their cards
    beside it); a figure that shows no claim is descriptive (the report shows it in its
    scenario's section)."""

    stem: str
    shows: tuple[str, ...] = ()


@functools.cache
def pyplot():
    """``matplotlib.pyplot`` on the Agg backend (files only, no display), imported once."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    return matplotlib.pyplot


class _Pyplot:
    """Stands for ``matplotlib.pyplot``: every attribute is :func:`pyplot`'s, imported at the first."""

    def __getattr__(self, name: str):
        return getattr(pyplot(), name)


plt = _Pyplot()


def mean_ci(values: pd.Series, alpha: float) -> tuple[float, float, float]:
    """(mean, lower, upper) of ``values``: the two-sided ``1 - alpha`` t interval of the mean (a
    single value: its own interval)."""
    from dpregret.core.stats import t_interval

    return t_interval(values.to_numpy(dtype=float), alpha)


def band(ax, x, stats_rows, **kw):
    """The means of ``stats_rows`` (:func:`mean_ci` triples) against ``x`` with their band on
    ``ax``, the positive means only; the line drawn."""
    m = np.array([s[0] for s in stats_rows])
    lo = np.array([s[1] for s in stats_rows])
    hi = np.array([s[2] for s in stats_rows])
    ok = m > 0
    line, = ax.plot(np.asarray(x)[ok], m[ok], marker="o", ms=3, **kw)
    # on log axes a band reaching 0 is cut at a tenth of the mean (stated in the captions)
    ax.fill_between(np.asarray(x)[ok], np.maximum(lo[ok], m[ok] / 10), hi[ok], color=line.get_color(), alpha=0.2, lw=0)
    return line


def plot_curves(ax, d: pd.DataFrame, x: str, alpha: float, label: str, **kw):
    """``value``'s mean and confidence band against ``x`` (one point per distinct x) on ``ax``; None if no rows."""
    xs = np.sort(d[x].unique())
    if xs.size == 0:
        return None
    return band(ax, xs, [mean_ci(d[d[x] == v].value, alpha) for v in xs], label=label, **kw)
