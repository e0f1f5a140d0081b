"""The report's pictures of the verdicts themselves: one overview figure (every claim a row, its
decision distance beside its controls' margins, coloured by verdict, grouped by paper) and one figure
per claim (what its check saw: the measured curve or ratios with the threshold drawn in, the primary
control, the non-learner and the mis-tuned twin on the same axes, and every interval against the
threshold), drawn from the claims' records alone (``results/claims/<id>.json``), so any paper folder's
claims get them with no code of their own.

The decision distance is ``(threshold - interval centre) / interval width`` of the claim's own check:
beyond +1/2 the whole interval is on the PASS side, beyond -1/2 on the FAIL side, between them it
straddles the threshold.  A control's margin is its FAIL-side limit past the threshold in widths
(positive: caught), as in the claims table.  Checks whose margin is not in widths (privacy audits,
exact checks) are marked at the axis' end."""
from __future__ import annotations

import contextlib
import math
from pathlib import Path

import numpy as np
import pandas as pd

from dpregret.core.plotting import pyplot
from dpregret.papers import ORDER, paper

COLOURS = {"PASS": "#3a9a3a", "LOOSE": "#4a7cc0", "INCONCLUSIVE": "#d9a400", "FAIL": "#c83a3a"}
CONTROLS = (("control", "primary control", "s"), ("nonlearner", "non-learner", "^"), ("twin", "mis-tuned twin", "D"))
OVERVIEW = "overview.svg"


def distance(margin: float) -> float:
    """The signed decision distance of a check whose FAIL-side margin is ``margin`` (module docstring)."""
    return -(float(margin) + 0.5)


def _finite(x) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


def _symlog(ax, axis: str = "x") -> None:
    (ax.set_xscale if axis == "x" else ax.set_yscale)("symlog", linthresh=1.0)


def overview_figure(table: pd.DataFrame, path: str | Path) -> None:
    """Every claim of ``table`` (the claims table, the papers' own rows) as a row, grouped by paper in
    the papers' order: left its decision distance, coloured by verdict; right its controls' margins."""
    plt = pyplot()
    rows = table[table.learner.fillna("paper") == "paper"] if "learner" in table else table
    order = {k: i for i, k in enumerate(ORDER)}
    rows = rows.assign(_p=rows.paper.map(lambda p: order.get(paper(p).key, len(order)))).sort_values(
        ["_p", "claim_id"], kind="stable")
    n = len(rows)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 1.2 + 0.17 * n), sharey=True,
                                 gridspec_kw={"width_ratios": [3, 2], "wspace": 0.04})
    y = np.arange(n)[::-1]
    edge = 60.0
    for yi, r in zip(y, rows.itertuples()):
        m = getattr(r, "margin", float("nan"))
        c = COLOURS.get(r.verdict, "#888")
        if _finite(m) and r.kind not in ("exact", "privacy"):
            d = float(np.clip(distance(m), -edge, edge))
            ax.plot([0, d], [yi, yi], color=c, lw=2.2, solid_capstyle="butt")
            ax.plot(d, yi, "o", color=c, ms=4)
        else:
            ax.plot(edge if r.verdict in ("PASS", "LOOSE") else -edge, yi, "x", color=c, ms=5)
        for col, _, mk in CONTROLS:
            mm = getattr(r, f"{col}_margin", float("nan"))
            caught = bool(getattr(r, f"{col}_caught", False))
            if _finite(mm):
                bx.plot(float(np.clip(mm, -edge, edge)), yi, mk, ms=4, mfc="k" if caught else "white", mec="k", mew=0.8)
    for a in (ax, bx):
        _symlog(a)
        a.set_xlim(-edge * 1.3, edge * 1.3)
        a.grid(axis="x", color="#ddd", lw=0.6)
    ax.axvspan(-0.5, 0.5, color="#f3e6b0", zorder=0)
    bx.axvline(0, color="#888", lw=0.8)
    ax.set_yticks(y, [str(i) for i in rows.claim_id], fontsize=6.5)
    ax.set_ylim(-1, n)
    # paper separators and labels
    keys = rows.paper.map(lambda p: paper(p).key).to_numpy()
    for i in range(1, n):
        if keys[i] != keys[i - 1]:
            for a in (ax, bx):
                a.axhline(y[i] + 0.5, color="#555", lw=0.8)
    for k in dict.fromkeys(keys):
        idx = np.flatnonzero(keys == k)
        bx.text(1.01, (y[idx].max() + y[idx].min()) / 2, paper(k).cite if hasattr(paper(k), "cite") else k,
                transform=bx.get_yaxis_transform(), rotation=-90, va="center", fontsize=8)
    ax.set_xlabel("decision distance, interval widths (> 1/2 PASS side, < -1/2 FAIL side)", fontsize=8)
    bx.set_xlabel("controls' margin, widths (> 0 caught)", fontsize=8)
    handles = [plt.Line2D([], [], color=c, lw=3, label=v) for v, c in COLOURS.items()]
    handles += [plt.Line2D([], [], ls="", marker=mk, mfc="k", mec="k", label=lab) for _, lab, mk in CONTROLS]
    ax.legend(handles=handles, loc="lower left", fontsize=7, ncol=7, bbox_to_anchor=(0, 1.0), frameon=False)
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)


def _series(res: dict) -> tuple[np.ndarray, np.ndarray] | None:
    d = res.get("detail", {})
    x, y = d.get("x"), d.get("y", d.get("mean"))
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y) and len(x) >= 2:
        x, y = np.asarray(x, float), np.asarray(y, float)
        ok = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
        if ok.sum() >= 2:
            return x[ok], y[ok]
    return None


def _ratios(res: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Per point mean/B and its interval (from the interval of mean(metric - B)), for a bound check."""
    d = res.get("detail", {})
    r, md, lo, hi = (d.get(k) for k in ("ratio", "mean_diff", "ci_low", "ci_high"))
    if not all(isinstance(v, list) for v in (r, md, lo, hi)) or not len(r) == len(md) == len(lo) == len(hi) or not r:
        return None
    r, md, lo, hi = (np.asarray(v, float) for v in (r, md, lo, hi))
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.where(np.abs(r - 1) > 1e-12, md / (r - 1), np.nan)
        return r, 1 + (lo - md) / b + (r - 1), 1 + (hi - md) / b + (r - 1)


# what x is, from a rate claim's id where its record does not say (``detail["x_name"]``, set by the checks that know)
X_FROM_ID = {"T": "T (horizon)", "N": "N (experts / arms)", "n": "n (dimension)", "d": "d (dimension)",
             "rho": "rho (zCDP)", "u": "||u*||", "eps": "eps"}


def x_label(rec: dict) -> str:
    """The x axis of a rate claim's figure: its record's ``x_name``, else what its id says (``...-rate-T``)."""
    import re

    name = rec["result"].get("detail", {}).get("x_name")
    if name:
        return str(name)
    m = re.search(r"-rate-([A-Za-z]+)", str(rec.get("base_id") or rec["claim_id"]))
    return X_FROM_ID.get(m.group(1), m.group(1)) if m else "x of the rate"


def _band(res: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """A rate check's per-point band (``y_low``, ``y_high``: the bootstrap's percentiles of the fitted y)."""
    d = res.get("detail", {})
    x, lo, hi = d.get("x"), d.get("y_low"), d.get("y_high")
    if not (isinstance(x, list) and isinstance(lo, list) and isinstance(hi, list) and len(x) == len(lo) == len(hi)):
        return None
    x, lo, hi = (np.asarray(v, float) for v in (x, lo, hi))
    ok = np.isfinite(x) & np.isfinite(lo) & np.isfinite(hi) & (x > 0) & (hi > 0)
    return (x[ok], np.clip(lo[ok], hi[ok] * 1e-3, None), hi[ok]) if ok.sum() >= 2 else None


def outside_regime(res: dict) -> tuple[np.ndarray, str] | None:
    """The x of the points outside the claim's regime and what decided it, from the regime's numbers of its
    record (``detail["regime_numbers"]``: a share per point against ``<share>_max`` or ``<share>_min``)."""
    d = res.get("detail", {})
    nums, x = d.get("regime_numbers"), d.get("x")
    if not isinstance(nums, dict) or not isinstance(x, list):
        return None
    for key, thr in nums.items():
        share = key.rsplit("_", 1)[0]
        if key.endswith(("_max", "_min")) and _finite(thr) and isinstance(nums.get(share), list) \
                and len(nums[share]) == len(x):
            v = np.asarray(nums[share], float)
            out = v > thr if key.endswith("_max") else v < thr
            side = "<=" if key.endswith("_max") else ">="
            return np.asarray(x, float)[out], f"outside the regime ({share} {side} {thr:g})"
    return None


def _shade(ax, xs: np.ndarray, all_x: np.ndarray, label: str) -> None:
    """Grey spans around the points ``xs`` of the log-spaced grid ``all_x`` (half a step either side)."""
    grid = np.sort(all_x[all_x > 0])
    if not xs.size or grid.size < 2:
        return
    step = np.exp(np.median(np.diff(np.log(grid))) / 2)
    for i, xv in enumerate(np.sort(xs)):
        ax.axvspan(xv / step, xv * step, color="#cccccc", alpha=0.5, lw=0, zorder=0, label=label if i == 0 else None)


def _others(rec: dict) -> list[tuple[str, dict, str]]:
    d = rec["result"].get("detail", {})
    out = [("primary control", rec.get("control_result") or {}, "s")]
    for key, label, mk in (("nonlearner", "non-learner", "^"), ("twin", "mis-tuned twin", "D")):
        if isinstance(d.get(key), dict):
            out.append((f"{label} ({str(d[key].get('name', ''))[:28]})", d[key], mk))
    return out


def _ladder(ax, rec: dict) -> None:
    """Each check's interval (the claim's, its controls') against its threshold."""
    res = rec["result"]
    rows = [("claim", res, "o")] + _others(rec)
    thr = res.get("bound", float("nan"))
    if rec.get("kind") == "rate" and _finite(res.get("tolerance")):
        thr = thr + res["tolerance"]
    diff = "mean_diff" in res.get("detail", {})  # a bound check: its interval is of mean(metric - B), threshold 0
    if diff:
        thr = 0.0
    for i, (label, r, mk) in enumerate(rows):
        yi = len(rows) - 1 - i
        lo, hi, m = r.get("ci_low"), r.get("ci_high"), r.get("measured")
        rd = r.get("detail", {})
        if diff:
            pts, md = rd.get("points"), rd.get("mean_diff")
            crit = rd.get("critical_point")
            m = md[pts.index(crit)] if isinstance(pts, list) and isinstance(md, list) and crit in pts else float("nan")
        c = COLOURS.get(r.get("verdict"), "#888")
        if _finite(lo) and _finite(hi):
            ax.plot([lo, hi], [yi, yi], color=c, lw=3, solid_capstyle="butt")
        if _finite(m):
            ax.plot(m, yi, mk, color="k", ms=4)
    if _finite(thr):
        ax.axvline(thr, color="k", ls="--", lw=1)
    if diff:  # differences to the bound span orders of magnitude between the claim and a non-learner
        ax.set_xscale("symlog", linthresh=max(1e-9, min((abs(r.get("ci_high", 0) - r.get("ci_low", 0))
                                                        for _, r, _ in rows if _finite(r.get("ci_low"))
                                                        and _finite(r.get("ci_high"))), default=1.0)))
    ax.set_yticks(range(len(rows)), [f"{lab.split(' (')[0]}: {r.get('verdict', '')}" for lab, r, _ in rows][::-1],
                  fontsize=7)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.tick_params(axis="x", labelsize=7)
    ax.set_xlabel(str(res.get("detail", {}).get("ci_of", "interval"))[:70] + " (dashed: threshold)", fontsize=7)


def claim_figure(rec: dict, path: str | Path) -> None:
    """One claim's figure (module docstring) from its record."""
    plt = pyplot()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(8, 2.5), gridspec_kw={"width_ratios": [3, 2], "wspace": 0.55})
    res = rec["result"]
    drew = False
    if (s := _series(res)) is not None:
        x, y = s
        colour = COLOURS.get(res["verdict"], "#333")
        ax.loglog(x, y, "o-", color=colour, ms=3.5, lw=1.4, label="claim")
        if (band := _band(res)) is not None:
            ax.fill_between(band[0], band[1], band[2], color=colour, alpha=0.2, lw=0, label="confidence band")
        if (out := outside_regime(res)) is not None:
            _shade(ax, out[0], x, out[1])
        for label, r, mk in _others(rec):
            if (t := _series(r)) is not None:
                ax.loglog(t[0], t[1], mk + "--", ms=3, lw=0.9, alpha=0.8, label=label)
        if _finite(res.get("measured")):
            xm, ym = np.exp(np.log(x).mean()), np.exp(np.log(y).mean())
            ax.loglog(x, ym * (x / xm) ** res["measured"], ":", color="k", lw=1,
                      label=f"fitted slope {res['measured']:.3g}")
        ax.set_xlabel(x_label(rec), fontsize=7)
        ax.set_ylabel(str(rec.get("metric") or "mean").split(" vs ")[0][:40], fontsize=7)
        drew = True
    elif (t := _ratios(res)) is not None:
        r, lo, hi = t
        i = np.arange(r.size)
        ax.errorbar(i, r, yerr=[np.clip(r - lo, 0, None), np.clip(hi - r, 0, None)], fmt="o",
                    color=COLOURS.get(res["verdict"], "#333"), ms=3, lw=1, label="mean / bound")
        for label, cr, mk in _others(rec):
            if (u := _ratios(cr)) is not None and u[0].size == r.size:
                ax.plot(i, u[0], mk, ms=3, alpha=0.8, label=label + " (its own bound)")
        ax.axhline(1.0, color="k", ls="--", lw=1, label="the bound")
        pts = res.get("detail", {}).get("points")
        if isinstance(pts, list) and len(pts) == r.size and r.size <= 12:
            ax.set_xticks(i, [str(q)[:14] for q in pts], rotation=30, ha="right", fontsize=6)
            ax.set_xlabel("grid point", fontsize=7)
        else:
            ax.set_xlabel(f"grid point (of {r.size})", fontsize=7)
        ax.set_ylabel("mean / bound", fontsize=7)
        drew = True
    if drew:
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=6, loc="best")
        if "not_in_regime" in res.get("detail", {}):
            ax.set_facecolor("#f7f0d8")
            ax.text(0.02, 0.02, "not in the regime", transform=ax.transAxes, fontsize=7)
    else:
        ax.axis("off")
        ax.text(0, 0.5, f"{rec.get('kind', '')} check: {str(res.get('detail', {}).get('ci_of', ''))[:60]}",
                fontsize=8, va="center")
    _ladder(bx, rec)
    fig.suptitle(f"{rec['claim_id']}: {res['verdict']}", fontsize=9, x=0.01, ha="left")
    _save_small_png(fig, path)
    plt.close(fig)


DPI, COLOURS_IN_PNG = 110, 96


def _save_small_png(fig, path) -> None:
    """A PNG at :data:`DPI` with a palette of :data:`COLOURS_IN_PNG` colours (a third of the bytes of full colour
    for these line drawings): the report embeds one per claim and stays well under its size budget."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, dpi=DPI, bbox_inches="tight")
    buf.seek(0)
    Image.open(buf).convert("RGB").quantize(colors=COLOURS_IN_PNG).save(path, optimize=True)


def file_name(claim_id: str) -> str:
    """The file of a claim's figure in the claim figures' directory."""
    return f"{claim_id}.png"


@contextlib.contextmanager
def shared_mathtext():
    """Within the block, every Agg renderer parses mathtext with one parser, so a tick label such as
    ``$\\mathdefault{10^{2}}$`` is parsed once per job instead of once per figure (matplotlib caches
    parses per parser, and makes a parser per renderer, i.e. per figure: the parsing was a fifth of this
    job's time).  A cached parse is the same object the parser would build again: the figures are the
    same pixels (``tests/test_claim_figures.py`` compares them with and without)."""
    from matplotlib.backends import backend_agg
    from matplotlib.mathtext import MathTextParser

    pyplot()
    parser = MathTextParser("path")  # what RendererAgg.__init__ makes for itself
    init = backend_agg.RendererAgg.__init__

    def shared_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.mathtext_parser = parser

    backend_agg.RendererAgg.__init__ = shared_init
    try:
        yield
    finally:
        backend_agg.RendererAgg.__init__ = init


def _draw_claims(detail_paths: list[str], keep: set, out: Path) -> list[Path]:
    """Every kept claim's figure of ``detail_paths`` into ``out``, in their order."""
    import json

    written = []
    with shared_mathtext():
        for p in detail_paths:
            rec = json.loads(Path(p).read_text())
            if rec["claim_id"] in keep:
                claim_figure(rec, out / file_name(rec["claim_id"]))
                written.append(out / file_name(rec["claim_id"]))
    return written


def write_claim_figures(claims_csv: str, detail_paths: list[str], out_dir: str | Path, workers: int = 1) -> list[Path]:
    """The overview (``<out_dir>/overview.svg``) and every claim's figure (``<out_dir>/<claim-id>.png``);
    ``workers`` > 1: the claims' figures drawn by that many processes (each figure is drawn by the same code
    whichever process draws it, so the files are the same; the job runs last in a run, beside nothing)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    table = pd.read_csv(claims_csv)
    keep = set(table.claim_id)
    paths = list(detail_paths)
    if workers <= 1 or len(paths) < 2 * workers:
        with shared_mathtext():
            overview_figure(table, out / OVERVIEW)
        return [out / OVERVIEW, *_draw_claims(paths, keep, out)]
    from concurrent.futures import ProcessPoolExecutor

    shards = [paths[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(_draw_claims, shard, keep, out) for shard in shards[1:]]
        with shared_mathtext():
            overview_figure(table, out / OVERVIEW)
        drawn = _draw_claims(shards[0], keep, out)
        for f in futures:
            drawn += f.result()
    order = {file_name(json_id): i for i, json_id in enumerate(Path(p).stem for p in paths)}
    return [out / OVERVIEW, *sorted(drawn, key=lambda q: order.get(q.name, len(order)))]
