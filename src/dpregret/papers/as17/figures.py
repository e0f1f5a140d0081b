"""Agarwal-Singh figures (sections 3-4, Tables 1 and 2), the talk kind: log-log axes, confidence
bands (``dpregret.core.plotting``), bounds drawn; and which figure shows which claim (:data:`FIGURES`,
read by the workflow's plotting rules and the report)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from dpregret.verdict.core import paired_gap
from dpregret.core.plotting import Figure, band, mean_ci, plot_curves, plt
from dpregret.papers.as17.ftrl import bound_thm3_4

# plot group -> (its directory under figures/, its figures in the order its plot job writes them,
# each with the claims it shows): read by the workflow's plotting rule and the report
# (dpregret.pipeline.report.figure_map collects the four folders')
FIGURES = {
    "as17_experts": ("as17", (
        Figure("experts_regret_vs_T", ("AS17-thm3.4-bound", "AS17-cor3.2-regret-rate-T", "AS17-lemma3.3-draws")),
        Figure("experts_gap_vs_T", ("AS17-cor3.2-gap-rate-T",)),
        Figure("experts_gap_vs_eps", ("AS17-cor3.2-gap-eps",)),
    )),
    "as17_tables": ("as17", (
        Figure("olo_regret_vs_T", ("AS17-T1-sphere-regret-rate-T", "AS17-T1-sphere-gap-rate-T",
                                   "AS17-T1-cube-regret-rate-T",
                                   "AS17-T1-cube-gap-rate-T", "AS17-T1-ftpl-regret-rate-T",
                                   "AS17-T1-ftpl-gap-rate-T", "AS17-T1-ftpl-thm3.5-bound")),
        Figure("olo_gap_vs_N", ("AS17-T1-sphere-thm3.4-bound-N", "AS17-T1-cube-thm3.4-bound-N")),
        Figure("mab_regret_vs_T", ("AS17-T2-mab-rate-T", "AS17-thm4.1-bound", "AS17-thm4.1-privacy-term",
                                   "AS17-lemma4.3", "AS17-thm4.1-vs-T2-3")),
        Figure("mab_regret_vs_eps", ("AS17-T2-mab-rate-eps",)),
        Figure("mab_regret_vs_N", ("AS17-T2-mab-rate-N",)),
        Figure("blo_regret_vs_T", ("AS17-T2-blo-ball-rate-T", "AS17-T2-blo-cube-rate-T", "AS17-thm4.5-bound",
                                   "AS17-thm4.5-vs-T2-3-ball", "AS17-thm4.5-vs-T2-3-cube")),
        Figure("blo_regret_vs_eps", ("AS17-T2-blo-ball-rate-eps", "AS17-T2-blo-cube-rate-eps")),
    )),
}


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
            band(ax, Ts, [mean_ci(g[g["T"] == T].regret, alpha) for T in Ts], color=colors[e], label=f"tree, eps={e:g}")
        g = r[(r.algorithm == "nonprivate") & np.isclose(r.eps, rate_eps)]
        band(ax, Ts, [mean_ci(g[g["T"] == T].regret, alpha) for T in Ts], color="k", label="non-private")
        g = r[(r.algorithm == "fresh_noise") & np.isclose(r.eps, rate_eps)]
        band(ax, Ts, [mean_ci(g[g["T"] == T].regret, alpha) for T in Ts], color="tab:red", ls="--",
              label=f"control: fresh noise, eps={rate_eps:g}")
        g = r[(r.algorithm == "tree") & np.isclose(r.eps, rate_eps)]
        B = [bound_thm3_4(N, float(g[g["T"] == T].eta.iloc[0]), g[g["T"] == T].sum_sq_dual.mean(),
                          float(d_noise[(d_noise["T"] == T)
                                        & np.isclose(d_noise.eps, rate_eps)].d_noise.iloc[0])) for T in Ts]
        ax.plot(Ts, B, ls=":", color=colors[rate_eps], label=f"Thm 3.4 bound, eps={rate_eps:g}")
        ax.plot(Ts, 3 * np.sqrt(Ts), ls="-.", color="0.6", lw=0.8, label="slope 1/2")
        ax.set(xscale="log", yscale="log", xlabel="T", ylabel="regret", title=f"experts, N={N}, {env}")
    axes[0][-1].legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(outputs[0], dpi=130)
    plt.close(fig)

    # 2. gap vs T
    fig, axes = plt.subplots(1, len(envs), figsize=(5.5 * len(envs), 4.2), squeeze=False)
    tree_gap, fresh_gap = (paired_gap(runs, ["env", "T", "eps", "replicate"], by="algorithm", base="nonprivate", alg=a)
                           for a in ("tree", "fresh_noise"))
    for ax, env in zip(axes[0], envs):
        for e in p["eps"]:
            g = tree_gap[(tree_gap.env == env) & np.isclose(tree_gap.eps, e)]
            band(ax, Ts, [mean_ci(g[g["T"] == T].gap, alpha) for T in Ts], color=colors[e], label=f"tree, eps={e:g}")
        g = fresh_gap[(fresh_gap.env == env) & np.isclose(fresh_gap.eps, rate_eps)]
        band(ax, Ts, [mean_ci(g[g["T"] == T].gap, alpha) for T in Ts], color="tab:red", ls="--",
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
        for alg, gaps, kw in (("tree", tree_gap, {"color": "tab:blue"}),
                              ("control: fresh noise", fresh_gap, {"color": "tab:red", "ls": "--"})):
            g = gaps[(gaps.env == env) & (gaps["T"] == Tmax)]
            band(ax, eps, [mean_ci(g[np.isclose(g.eps, e)].gap, alpha) for e in eps], label=alg, **kw)
        ax.plot(eps, N * np.log(N) * np.log2(Tmax) ** 2 / eps, ls=":", color="tab:blue", label="N lnN log2(T)^2/eps")
        ax.set(xscale="log", yscale="log", xlabel="eps", ylabel="private - non-private regret",
               title=f"gap at T={Tmax}, {env}")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(outputs[2], dpi=130)
    plt.close(fig)


def _thm3_4_bound(row: str, g: pd.DataFrame, T: int, seed: int, samples: int = 4000) -> float:
    """Mean of Theorem 3.4's bound D_R/eta + eta sum ||l_t||^2/2 + D_{D'} over the replicates of
    one N-grid point (``dpregret.papers.as17.claims_tables.evaluate_olo_bound`` decides the claim with the
    configured Monte Carlo size; the figure uses ``samples``)."""
    from dpregret.papers.as17.olo import bound_thm3_4_quadratic, d_r_quadratic
    from dpregret.papers.as17.olo import d_noise_mc

    N, eta = int(g.N.iloc[0]), float(g.eta.iloc[0])
    D, _ = d_noise_mc(row, N, T, float(g.noise_scale.iloc[0]), samples, seed)
    return float(bound_thm3_4_quadratic(eta, d_r_quadratic("ball" if row == "sphere" else "cube", N),
                                        g.sum_sq_dual.to_numpy(), D).mean())


def as17_tables_figures(olo: pd.DataFrame, mab: pd.DataFrame, blo: pd.DataFrame, p: dict, alpha: float,
                        outputs: list[str], seed: int = 0) -> None:
    """olo_regret_vs_T, olo_gap_vs_N, mab_regret_vs_T, mab_regret_vs_eps, mab_regret_vs_N, blo_regret_vs_T,
    blo_regret_vs_eps."""
    po, pm, pb = p["olo"], p["mab"], p["blo"]
    _olo_regret_vs_T(olo, po, alpha, outputs[0])
    _olo_gap_vs_N(olo, po, alpha, outputs[1], seed)
    _mab_regret_vs_T(mab, pm, alpha, outputs[2])
    _mab_regret_vs_eps(mab, alpha, outputs[3])
    _mab_regret_vs_N(mab, pm, alpha, outputs[4])
    # bandit linear optimisation: the T grid (rate_eps) and the eps grid (T_eps)
    for out, grid in ((outputs[5], "T"), (outputs[6], "eps")):
        _blo_figure(blo, pb, alpha, out, grid)


def _eps_colors(eps) -> dict:
    cmap = plt.get_cmap("viridis")
    return {e: cmap(i / max(1, len(eps) - 1)) for i, e in enumerate(sorted(eps))}


def _save(fig, path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _olo_regret_vs_T(olo: pd.DataFrame, po: dict, alpha: float, output: str) -> None:
    """``olo_regret_vs_T``: full information, regret vs T per row and environment (the tree at every eps)."""
    rows, envs = po["rows"], po["envs"]
    fig, axes = plt.subplots(len(envs), len(rows), figsize=(4.6 * len(rows), 3.8 * len(envs)), squeeze=False)
    c = _eps_colors(po["eps"])
    for i, env in enumerate(envs):
        for j, row in enumerate(rows):
            ax = axes[i][j]
            d = olo[(olo.row == row) & (olo.env == env) & (olo.grid == "T")].assign(value=lambda z: z.regret)
            for e in po["eps"]:
                plot_curves(ax, d[(d.algorithm == "tree") & np.isclose(d.eps, e)], "T", alpha,
                            f"tree, eps={e:g}", color=c[e])
            plot_curves(ax, d[(d.algorithm == "nonprivate") & np.isclose(d.eps, po["rate_eps"])], "T", alpha,
                        "non-private", color="k")
            plot_curves(ax, d[(d.algorithm == "fresh_noise") & np.isclose(d.eps, po["rate_eps"])], "T", alpha,
                        f"control: fresh noise, eps={po['rate_eps']:g}", color="tab:red", ls="--")
            Ts = np.sort(d["T"].unique())
            ax.plot(Ts, np.sqrt(Ts) * 3, ls="-.", color="0.6", lw=0.8, label="slope 1/2")
            ax.set(xscale="log", yscale="log", xlabel="T", ylabel="regret", title=f"{row}, {env}, N={po['N']}")
    axes[0][-1].legend(fontsize=7)
    _save(fig, output)


def _olo_gap_vs_N(olo: pd.DataFrame, po: dict, alpha: float, output: str, seed: int) -> None:
    """``olo_gap_vs_N``: full information, regret vs N at rate_eps with Theorem 3.4's bound (FTPL's row left out)."""
    rows, envs = po["rows"], po["envs"]
    frows = [r for r in rows if r != "ftpl"]
    fig, axes = plt.subplots(len(envs), max(1, len(frows)),
                             figsize=(4.6 * max(1, len(frows)), 3.8 * len(envs)), squeeze=False)
    for i, env in enumerate(envs):
        for j, row in enumerate(frows):
            ax = axes[i][j]
            d = olo[(olo.row == row) & (olo.env == env) & (olo.grid == "N") & np.isclose(olo.eps, po["rate_eps"])]
            d = d.assign(value=d.regret)
            plot_curves(ax, d[d.algorithm == "tree"], "N", alpha, "tree (the paper's algorithm)", color="tab:blue")
            plot_curves(ax, d[d.algorithm == "wrong_sensitivity"], "N", alpha, "control: wrong sensitivity",
                        color="tab:red", ls="--")
            plot_curves(ax, d[d.algorithm == "nonprivate"], "N", alpha, "non-private", color="0.5", ls=":")
            Ns = np.sort(d.N.unique())
            if Ns.size:  # Theorem 3.4's explicit bound for the tree's eta and lambda (D_{D'} by Monte Carlo)
                B = [_thm3_4_bound(row, d[(d.algorithm == "tree") & (d.N == N)], int(po["T_N"]), seed) for N in Ns]
                ax.plot(Ns, B, color="k", lw=1.2, label="Theorem 3.4 bound (tree)")
            ax.set(xscale="log", yscale="log", xlabel="N", ylabel="regret",
                   title=f"{row}, {env}, T={po['T_N']}, eps={po['rate_eps']:g}")
    axes[0][-1].legend(fontsize=7)
    _save(fig, output)


def _mab_regret_vs_T(mab: pd.DataFrame, pm: dict, alpha: float, output: str) -> None:
    """``mab_regret_vs_T``: multi-armed bandits, regret vs T (DP-EXP2 at every eps, EXP2, the T^(2/3) baseline)."""
    m = mab.assign(value=mab.regret)
    mt = m[m.grid == "T"]
    c = _eps_colors(pm["eps"])
    fig, ax = plt.subplots(figsize=(6, 4.4))
    for e in pm["eps"]:
        plot_curves(ax, mt[(mt.algorithm == "dp_exp2") & np.isclose(mt.eps, e)], "T", alpha,
                    f"DP-EXP2, eps={e:g}", color=c[e])
    plot_curves(ax, mt[mt.algorithm == "exp2"], "T", alpha, "EXP2 (non-private)", color="k")
    plot_curves(ax, mt[(mt.algorithm == "explore_tree") & np.isclose(mt.eps, pm["rate_eps"])], "T", alpha,
                f"T^(2/3) baseline, eps={pm['rate_eps']:g}", color="tab:red", ls="--")
    Ts = np.sort(mt["T"].unique())
    ax.plot(Ts, 2 * np.sqrt(Ts), ls="-.", color="0.6", lw=0.8, label="slope 1/2")
    ax.plot(Ts, 0.5 * Ts ** (2 / 3), ls=":", color="0.4", lw=0.8, label="slope 2/3")
    ax.set(xscale="log", yscale="log", xlabel="T", ylabel="regret",
           title=f"multi-armed bandit, N={pm['N']}, gap={pm['gap']}")
    ax.legend(fontsize=6, ncol=2)
    _save(fig, output)


def _mab_regret_vs_eps(mab: pd.DataFrame, alpha: float, output: str) -> None:
    """``mab_regret_vs_eps``: multi-armed bandits at the T grid's largest T, regret vs eps."""
    m = mab.assign(value=mab.regret)
    mt = m[m.grid == "T"]
    fig, ax = plt.subplots(figsize=(6, 4.4))
    Tmax = mt["T"].max()
    d = mt[mt["T"] == Tmax]
    plot_curves(ax, d[d.algorithm == "dp_exp2"], "eps", alpha, "DP-EXP2", color="tab:blue")
    plot_curves(ax, d[d.algorithm == "dp_exp2_eps_squared"], "eps", alpha, "control: lambda = 1/eps^2",
                color="tab:red", ls="--")
    ax.axhline(d[d.algorithm == "exp2"].value.mean(), color="k", lw=0.8, label="non-private")
    ax.set(xscale="log", yscale="log", xlabel="eps", ylabel="regret", title=f"multi-armed bandit, T={Tmax}")
    ax.legend(fontsize=7)
    _save(fig, output)


def _mab_regret_vs_N(mab: pd.DataFrame, pm: dict, alpha: float, output: str) -> None:
    """``mab_regret_vs_N``: multi-armed bandits, regret vs N."""
    m = mab.assign(value=mab.regret)
    fig, ax = plt.subplots(figsize=(6, 4.4))
    d = m[m.grid == "N"]
    plot_curves(ax, d[d.algorithm == "dp_exp2"], "N", alpha, "DP-EXP2", color="tab:blue")
    plot_curves(ax, d[d.algorithm == "exp2"], "N", alpha, "EXP2 (non-private)", color="k")
    plot_curves(ax, d[d.algorithm == "dp_exp2_full_sens"], "N", alpha, "control: lambda = N/eps",
                color="tab:red", ls="--")
    ax.set(xscale="log", yscale="log", xlabel="N", ylabel="regret",
           title=f"multi-armed bandit, T={pm['T_N']}, eps={pm['rate_eps']:g}")
    ax.legend(fontsize=7)
    _save(fig, output)


def _blo_figure(blo: pd.DataFrame, pb: dict, alpha: float, output: str, grid: str) -> None:
    """``blo_regret_vs_T`` (``grid="T"``) or ``blo_regret_vs_eps`` (``"eps"``): a panel per domain and environment."""
    doms, envs = pb["domains"], pb["envs"]
    b = blo.assign(value=blo.regret)
    fig, axes = plt.subplots(len(envs), len(doms), figsize=(5 * len(doms), 3.8 * len(envs)), squeeze=False)
    for i, env in enumerate(envs):
        for j, dom in enumerate(doms):
            ax = axes[i][j]
            d = b[(b.row == dom) & (b.env == env) & (b.grid == grid)]
            dp = d[d.algorithm == "dp_scrible"]
            if grid == "T":
                _blo_T_panel(ax, d, dp, pb, alpha, dom, env)
            else:
                _blo_eps_panel(ax, d, dp, pb, alpha, dom, env)
            ax.set(xscale="log", yscale="log", ylabel="regret")
            ax.legend(fontsize=6)
    _save(fig, output)


def _blo_T_panel(ax, d: pd.DataFrame, dp: pd.DataFrame, pb: dict, alpha: float, dom: str, env: str) -> None:
    """DP-SCRiBLe vs T at rate_eps, SCRiBLe, the composed-lambda control, the T^(2/3) baseline, Theorem 4.5's bound."""
    slope = np.polyfit(np.log(dp["T"]), np.log(np.maximum(dp.value, 1e-12)),
                       1)[0] if len(dp) else np.nan
    plot_curves(ax, dp, "T", alpha,
                f"DP-SCRiBLe, eps={pb['rate_eps']:g} (slope {slope:.2f})", color="tab:blue")
    plot_curves(ax, d[d.algorithm == "scrible"], "T", alpha, "SCRiBLe", color="k")
    plot_curves(ax, d[d.algorithm == "dp_scrible_composed"], "T", alpha, "control: composed lambda",
                color="tab:red", ls="--")
    bl = d[(d.algorithm == "explore_tree") & np.isclose(d.eps, pb["rate_eps"])]
    if len(bl):  # AS17-thm4.5-vs-T2-3-<domain>: the O~(T^(2/3)) baseline on the same losses
        plot_curves(ax, bl, "T", alpha, "baseline: explore + private FTRL (T^(2/3))", color="tab:green",
                    ls="-.")
    bd = dp.groupby("T").bound_thm4_5.first()
    ax.plot(bd.index, bd.to_numpy(), "k:", lw=1, label="Theorem 4.5 bound")
    Ts = np.sort(dp["T"].unique()).astype(float)
    if Ts.size:
        ax.plot(Ts, dp.value.mean() * np.sqrt(Ts / Ts.mean()), ls="-.", color="0.6", lw=0.8,
                label="slope 1/2")
    ax.set(xlabel="T", title=f"{dom}, {env}, N={pb['N']}, eps={pb['rate_eps']:g}")


def _blo_eps_panel(ax, d: pd.DataFrame, dp: pd.DataFrame, pb: dict, alpha: float, dom: str, env: str) -> None:
    """DP-SCRiBLe vs eps at T_eps, the eps^2 control, the non-private level and slope -1 down to it."""
    plot_curves(ax, dp, "eps", alpha, "DP-SCRiBLe", color="tab:blue")
    plot_curves(ax, d[d.algorithm == "dp_scrible_eps_squared"], "eps", alpha,
                "control: lambda from eps^2",
                color="tab:red", ls="--")
    floor = d[d.algorithm == "scrible"].value.mean()
    ax.axhline(floor, color="k", lw=0.8, label="non-private")
    es = np.sort(dp.eps.unique())
    if es.size:  # 1/eps from the smallest eps's mean, drawn down to the non-private level
        ref = dp[dp.eps == es[0]].value.mean() * es[0] / es
        ax.plot(es[ref >= floor], ref[ref >= floor], ls="-.", color="0.6", lw=0.8, label="slope -1")
    ax.set(xlabel="eps", title=f"{dom}, {env}, N={pb['N']}, T={pb['T_eps']}")

def draw_experts(tables: dict[str, pd.DataFrame], params: dict, outputs: list[str]) -> None:
    """The plot job of the group ``as17_experts`` (``paper.GROUPS``): its figures to ``outputs``."""
    as17_experts_figures(tables["runs"], tables["d_noise"], params["p"], params["alpha"], outputs)


def draw_tables(tables: dict[str, pd.DataFrame], params: dict, outputs: list[str]) -> None:
    """The plot job of the group ``as17_tables`` (``paper.GROUPS``): Tables 1 and 2's figures to ``outputs``."""
    mab = tables["mab"]
    as17_tables_figures(tables["olo"], mab[mab.env == "stochastic"], tables["blo"],
                        {k: params[k] for k in ("olo", "mab", "blo")}, params["alpha"], outputs, seed=params["seed"])
