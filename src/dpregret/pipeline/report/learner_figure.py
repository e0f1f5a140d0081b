"""Your learner beside the paper's: one figure per (claim, learner) of config
key ``learners``, drawn from what decided the claim (the points of each rate check: the metric's
mean per grid point, after the claim's declared transform), log-log, with the claim's exponent
drawn through the paper's first point and each fitted slope with its interval in the legend."""
from __future__ import annotations

import numpy as np

from dpregret.core.plotting import plt  # matplotlib's pyplot (Agg), imported at the first figure
from dpregret.verdict.core import Result


def user_figure_stem(claim_id: str, name: str) -> str:
    """The figure's file stem (``figures/user/<stem>.png``), also what the report maps the claim
    ``<claim_id>--learner-<name>`` to."""
    return f"{claim_id}--{name}"


def user_figure(curves: dict[str, tuple[Result, Result]], claim_id: str, metric: str, output: str) -> None:
    """``curves``: learner label -> (its claim result, its control result)."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ref = None
    for k, (label, pair) in enumerate(curves.items()):
        for res, role, ls in ((pair[0], label, "-"), (pair[1], f"{label}: control", "--")):
            x, y = _points(res.detail)
            ok = (x > 0) & (y > 0) if x.size and x.size == y.size else np.zeros(0, bool)
            if not ok.any():
                continue
            slope = f"slope {res.measured:.2f} [{res.ci_low:.2f}, {res.ci_high:.2f}]" if np.isfinite(res.ci_low) else \
                f"{res.verdict.lower()}"
            ax.loglog(x[ok], y[ok], ls, marker="o", color=f"C{k}", label=f"{role} ({slope})")
            if ref is None and ls == "-":
                ref = (x[ok], y[ok][0], res.bound)
    if ref is None:
        ax.text(0.5, 0.5, "no grid point decided (see the claim's record)", ha="center", transform=ax.transAxes)
    else:
        x, y0, a = ref
        ax.loglog(x, y0 * (x / x[0]) ** a, ":", color="k", label=f"claimed exponent {a:g}")
    ax.set_xlabel(metric.split(" vs ", 1)[1].split(",")[0] if " vs " in metric else "grid point")
    ax.set_ylabel(metric)
    ax.set_title(claim_id, fontsize=10)
    if ref is not None:
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)


def _points(detail: dict) -> tuple[np.ndarray, np.ndarray]:
    """The (x, metric) points a rate check saw: its transformed means ``y``, else its means, else
    the per-point means of a worst case (``mean_at_worst``) when too few points were left to fit."""
    x = np.asarray(detail.get("x", []), float)
    for key in ("y", "mean"):
        y = np.asarray(detail.get(key, []), float)
        if y.size and y.size == x.size:
            return x, y
    if isinstance(detail.get("mean_at_worst"), dict):
        items = sorted((float(k), float(v)) for k, v in detail["mean_at_worst"].items())
        return np.array([a for a, _ in items]), np.array([b for _, b in items])
    return np.zeros(0), np.zeros(0)
