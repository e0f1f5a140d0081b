"""Figures a researcher would put in a talk: log-log axes, confidence bands, bounds drawn."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from scipy import stats  # noqa: E402

from ..scenarios.as17_experts import bound_thm3_4  # noqa: E402


def mean_ci(values: pd.Series, alpha: float) -> tuple[float, float, float]:
    v = values.to_numpy(dtype=float)
    m = v.mean()
    h = stats.t.ppf(1 - alpha / 2, v.size - 1) * v.std(ddof=1) / np.sqrt(v.size) if v.size > 1 else 0.0
    return m, m - h, m + h


def _band(ax, x, stats_rows, **kw):
    m = np.array([s[0] for s in stats_rows])
    lo = np.array([s[1] for s in stats_rows])
    hi = np.array([s[2] for s in stats_rows])
    ok = m > 0
    line, = ax.plot(np.asarray(x)[ok], m[ok], marker="o", ms=3, **kw)
    # on log axes a band reaching 0 is cut at a tenth of the mean (stated in the captions)
    ax.fill_between(np.asarray(x)[ok], np.maximum(lo[ok], m[ok] / 10), hi[ok], color=line.get_color(), alpha=0.2, lw=0)
    return line


def _gaps(runs: pd.DataFrame, alg: str) -> pd.DataFrame:
    keys = ["env", "T", "eps", "replicate"]
    base = runs[runs.algorithm == "nonprivate"].set_index(keys).regret
    a = runs[runs.algorithm == alg].set_index(keys)
    return a.assign(gap=a.regret - base.reindex(a.index).to_numpy()).reset_index()


def as17_experts_figures(runs: pd.DataFrame, d_noise: pd.DataFrame, p: dict, alpha: float, outputs: list[str]) -> None:
    envs, N, rate_eps = p["envs"], p["N"], p["rate_eps"]
    cmap = plt.get_cmap("viridis")
    colors = {e: cmap(i / max(1, len(p["eps"]) - 1)) for i, e in enumerate(p["eps"])}
    Ts = np.array(sorted(runs["T"].unique()))

    # 1. regret vs T
    fig, axes = plt.subplots(1, len(envs), figsize=(5.5 * len(envs), 4.2), squeeze=False)
    for ax, env in zip(axes[0], envs):
        r = runs[runs.env == env]
        for e in p["eps"]:
            g = r[(r.algorithm == "tree") & np.isclose(r.eps, e)]
            _band(ax, Ts, [mean_ci(g[g["T"] == T].regret, alpha) for T in Ts], color=colors[e], label=f"tree, eps={e:g}")
        g = r[(r.algorithm == "nonprivate") & np.isclose(r.eps, rate_eps)]
        _band(ax, Ts, [mean_ci(g[g["T"] == T].regret, alpha) for T in Ts], color="k", label="non-private")
        g = r[(r.algorithm == "fresh_noise") & np.isclose(r.eps, rate_eps)]
        _band(ax, Ts, [mean_ci(g[g["T"] == T].regret, alpha) for T in Ts], color="tab:red", ls="--",
              label=f"control: fresh noise, eps={rate_eps:g}")
        g = r[(r.algorithm == "tree") & np.isclose(r.eps, rate_eps)]
        B = [bound_thm3_4(N, float(g[g["T"] == T].eta.iloc[0]), g[g["T"] == T].sum_sq_dual.mean(),
                          float(d_noise[(d_noise["T"] == T) & np.isclose(d_noise.eps, rate_eps)].d_noise.iloc[0])) for T in Ts]
        ax.plot(Ts, B, ls=":", color=colors[rate_eps], label=f"Thm 3.4 bound, eps={rate_eps:g}")
        ax.plot(Ts, 3 * np.sqrt(Ts), ls="-.", color="0.6", lw=0.8, label="slope 1/2")
        ax.set(xscale="log", yscale="log", xlabel="T", ylabel="regret", title=f"experts, N={N}, {env}")
    axes[0][-1].legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(outputs[0], dpi=130)
    plt.close(fig)

    # 2. gap vs T
    fig, axes = plt.subplots(1, len(envs), figsize=(5.5 * len(envs), 4.2), squeeze=False)
    tree_gap, fresh_gap = _gaps(runs, "tree"), _gaps(runs, "fresh_noise")
    for ax, env in zip(axes[0], envs):
        for e in p["eps"]:
            g = tree_gap[(tree_gap.env == env) & np.isclose(tree_gap.eps, e)]
            _band(ax, Ts, [mean_ci(g[g["T"] == T].gap, alpha) for T in Ts], color=colors[e], label=f"tree, eps={e:g}")
        g = fresh_gap[(fresh_gap.env == env) & np.isclose(fresh_gap.eps, rate_eps)]
        _band(ax, Ts, [mean_ci(g[g["T"] == T].gap, alpha) for T in Ts], color="tab:red", ls="--",
              label=f"control: fresh noise, eps={rate_eps:g}")
        ax.plot(Ts, N * np.log(N) * np.log2(Ts) ** 2 / rate_eps, ls=":", color=colors[rate_eps],
                label=f"N lnN log2(T)^2/eps, eps={rate_eps:g}")
        ax.set(xscale="log", yscale="log", xlabel="T", ylabel="private - non-private regret", title=f"gap, {env}")
    axes[0][-1].legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(outputs[1], dpi=130)
    plt.close(fig)

    # 3. gap vs eps at the largest T
    Tmax = int(Ts.max())
    eps = np.array(sorted(p["eps"]))
    fig, axes = plt.subplots(1, len(envs), figsize=(5.5 * len(envs), 4.2), squeeze=False)
    for ax, env in zip(axes[0], envs):
        for alg, gaps, kw in (("tree", tree_gap, {"color": "tab:blue"}), ("control: fresh noise", fresh_gap, {"color": "tab:red", "ls": "--"})):
            g = gaps[(gaps.env == env) & (gaps["T"] == Tmax)]
            _band(ax, eps, [mean_ci(g[np.isclose(g.eps, e)].gap, alpha) for e in eps], label=alg, **kw)
        ax.plot(eps, N * np.log(N) * np.log2(Tmax) ** 2 / eps, ls=":", color="tab:blue", label="N lnN log2(T)^2/eps")
        ax.set(xscale="log", yscale="log", xlabel="eps", ylabel="private - non-private regret", title=f"gap at T={Tmax}, {env}")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(outputs[2], dpi=130)
    plt.close(fig)
