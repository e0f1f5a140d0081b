"""Figures a researcher would put in a talk: log-log axes, confidence bands, bounds drawn."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from scipy import stats  # noqa: E402

from ..claims.core import paired_gap  # noqa: E402
from ..papers.as17.ftrl import bound_thm3_4  # noqa: E402


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
    tree_gap, fresh_gap = (paired_gap(runs, ["env", "T", "eps", "replicate"], by="algorithm", base="nonprivate", alg=a)
                           for a in ("tree", "fresh_noise"))
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


def plot_curves(ax, d: pd.DataFrame, x: str, alpha: float, label: str, **kw):
    """``value``'s mean and confidence band against ``x`` (one point per distinct x) on ``ax``; None if no rows."""
    xs = np.sort(d[x].unique())
    if xs.size == 0:
        return None
    return _band(ax, xs, [mean_ci(d[d[x] == v].value, alpha) for v in xs], label=label, **kw)


def _thm3_4_bound(row: str, g: pd.DataFrame, T: int, seed: int, samples: int = 4000) -> float:
    """Mean of Theorem 3.4's bound D_R/eta + eta sum ||l_t||^2/2 + D_{D'} over the replicates of
    one N-grid point (``dpregret.papers.as17.claims_tables.evaluate_olo_bound`` decides the claim with the
    configured Monte Carlo size; the figure uses ``samples``)."""
    from ..papers.as17.olo import bound_thm3_4_quadratic, d_r_quadratic
    from ..papers.as17.olo import d_noise_mc

    N, eta = int(g.N.iloc[0]), float(g.eta.iloc[0])
    D, _ = d_noise_mc(row, N, T, float(g.noise_scale.iloc[0]), samples, seed)
    return float(bound_thm3_4_quadratic(eta, d_r_quadratic("ball" if row == "sphere" else "cube", N),
                                        g.sum_sq_dual.to_numpy(), D).mean())


def as17_tables_figures(olo: pd.DataFrame, mab: pd.DataFrame, blo: pd.DataFrame, p: dict, alpha: float,
                        outputs: list[str], seed: int = 0) -> None:
    """olo_regret_vs_T, olo_gap_vs_N, mab_regret_vs_T, mab_regret_vs_eps, mab_regret_vs_N, blo_regret_vs_T,
    blo_regret_vs_eps."""
    po, pm, pb = p["olo"], p["mab"], p["blo"]
    cmap = plt.get_cmap("viridis")

    def eps_colors(eps):
        return {e: cmap(i / max(1, len(eps) - 1)) for i, e in enumerate(sorted(eps))}

    def save(fig, path):
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)

    # 1. full information: regret vs T
    rows, envs = po["rows"], po["envs"]
    fig, axes = plt.subplots(len(envs), len(rows), figsize=(4.6 * len(rows), 3.8 * len(envs)), squeeze=False)
    c = eps_colors(po["eps"])
    for i, env in enumerate(envs):
        for j, row in enumerate(rows):
            ax = axes[i][j]
            d = olo[(olo.row == row) & (olo.env == env) & (olo.grid == "T")].assign(value=lambda z: z.regret)
            for e in po["eps"]:
                plot_curves(ax, d[(d.algorithm == "tree") & np.isclose(d.eps, e)], "T", alpha, f"tree, eps={e:g}", color=c[e])
            plot_curves(ax, d[(d.algorithm == "nonprivate") & np.isclose(d.eps, po["rate_eps"])], "T", alpha, "non-private", color="k")
            plot_curves(ax, d[(d.algorithm == "fresh_noise") & np.isclose(d.eps, po["rate_eps"])], "T", alpha,
                        f"control: fresh noise, eps={po['rate_eps']:g}", color="tab:red", ls="--")
            Ts = np.sort(d["T"].unique())
            ax.plot(Ts, np.sqrt(Ts) * 3, ls="-.", color="0.6", lw=0.8, label="slope 1/2")
            ax.set(xscale="log", yscale="log", xlabel="T", ylabel="regret", title=f"{row}, {env}, N={po['N']}")
    axes[0][-1].legend(fontsize=7)
    save(fig, outputs[0])

    # 2. full information: gap vs N
    frows = [r for r in rows if r != "ftpl"]
    fig, axes = plt.subplots(len(envs), max(1, len(frows)), figsize=(4.6 * max(1, len(frows)), 3.8 * len(envs)), squeeze=False)
    for i, env in enumerate(envs):
        for j, row in enumerate(frows):
            ax = axes[i][j]
            d = olo[(olo.row == row) & (olo.env == env) & (olo.grid == "N") & np.isclose(olo.eps, po["rate_eps"])]
            d = d.assign(value=d.regret)
            plot_curves(ax, d[d.algorithm == "tree"], "N", alpha, "tree (the paper's algorithm)", color="tab:blue")
            plot_curves(ax, d[d.algorithm == "wrong_sensitivity"], "N", alpha, "control: wrong sensitivity", color="tab:red", ls="--")
            plot_curves(ax, d[d.algorithm == "nonprivate"], "N", alpha, "non-private", color="0.5", ls=":")
            Ns = np.sort(d.N.unique())
            if Ns.size:  # Theorem 3.4's explicit bound for the tree's eta and lambda (D_{D'} by Monte Carlo)
                B = [_thm3_4_bound(row, d[(d.algorithm == "tree") & (d.N == N)], int(po["T_N"]), seed) for N in Ns]
                ax.plot(Ns, B, color="k", lw=1.2, label="Theorem 3.4 bound (tree)")
            ax.set(xscale="log", yscale="log", xlabel="N", ylabel="regret",
                   title=f"{row}, {env}, T={po['T_N']}, eps={po['rate_eps']:g}")
    axes[0][-1].legend(fontsize=7)
    save(fig, outputs[1])

    # 3-5. multi-armed bandits
    m = mab.assign(value=mab.regret)
    mt = m[m.grid == "T"]
    c = eps_colors(pm["eps"])
    fig, ax = plt.subplots(figsize=(6, 4.4))
    for e in pm["eps"]:
        plot_curves(ax, mt[(mt.algorithm == "dp_exp2") & np.isclose(mt.eps, e)], "T", alpha, f"DP-EXP2, eps={e:g}", color=c[e])
    plot_curves(ax, mt[mt.algorithm == "exp2"], "T", alpha, "EXP2 (non-private)", color="k")
    plot_curves(ax, mt[(mt.algorithm == "explore_tree") & np.isclose(mt.eps, pm["rate_eps"])], "T", alpha,
                f"T^(2/3) baseline, eps={pm['rate_eps']:g}", color="tab:red", ls="--")
    Ts = np.sort(mt["T"].unique())
    ax.plot(Ts, 2 * np.sqrt(Ts), ls="-.", color="0.6", lw=0.8, label="slope 1/2")
    ax.plot(Ts, 0.5 * Ts ** (2 / 3), ls=":", color="0.4", lw=0.8, label="slope 2/3")
    ax.set(xscale="log", yscale="log", xlabel="T", ylabel="regret", title=f"multi-armed bandit, N={pm['N']}, gap={pm['gap']}")
    ax.legend(fontsize=6, ncol=2)
    save(fig, outputs[2])

    fig, ax = plt.subplots(figsize=(6, 4.4))
    Tmax = mt["T"].max()
    d = mt[mt["T"] == Tmax]
    plot_curves(ax, d[d.algorithm == "dp_exp2"], "eps", alpha, "DP-EXP2", color="tab:blue")
    plot_curves(ax, d[d.algorithm == "dp_exp2_eps_squared"], "eps", alpha, "control: lambda = 1/eps^2", color="tab:red", ls="--")
    ax.axhline(d[d.algorithm == "exp2"].value.mean(), color="k", lw=0.8, label="non-private")
    ax.set(xscale="log", yscale="log", xlabel="eps", ylabel="regret", title=f"multi-armed bandit, T={Tmax}")
    ax.legend(fontsize=7)
    save(fig, outputs[3])

    fig, ax = plt.subplots(figsize=(6, 4.4))
    d = m[m.grid == "N"]
    plot_curves(ax, d[d.algorithm == "dp_exp2"], "N", alpha, "DP-EXP2", color="tab:blue")
    plot_curves(ax, d[d.algorithm == "exp2"], "N", alpha, "EXP2 (non-private)", color="k")
    plot_curves(ax, d[d.algorithm == "dp_exp2_full_sens"], "N", alpha, "control: lambda = N/eps", color="tab:red", ls="--")
    ax.set(xscale="log", yscale="log", xlabel="N", ylabel="regret", title=f"multi-armed bandit, T={pm['T_N']}, eps={pm['rate_eps']:g}")
    ax.legend(fontsize=7)
    save(fig, outputs[4])

    # 6-7. bandit linear optimisation: the T grid (rate_eps) and the eps grid (T_eps)
    doms, envs = pb["domains"], pb["envs"]
    b = blo.assign(value=blo.regret)
    for out, grid in ((outputs[5], "T"), (outputs[6], "eps")):
        fig, axes = plt.subplots(len(envs), len(doms), figsize=(5 * len(doms), 3.8 * len(envs)), squeeze=False)
        for i, env in enumerate(envs):
            for j, dom in enumerate(doms):
                ax = axes[i][j]
                d = b[(b.row == dom) & (b.env == env) & (b.grid == grid)]
                dp = d[d.algorithm == "dp_scrible"]
                if grid == "T":
                    slope = np.polyfit(np.log(dp["T"]), np.log(np.maximum(dp.value, 1e-12)), 1)[0] if len(dp) else np.nan
                    plot_curves(ax, dp, "T", alpha, f"DP-SCRiBLe, eps={pb['rate_eps']:g} (slope {slope:.2f})", color="tab:blue")
                    plot_curves(ax, d[d.algorithm == "scrible"], "T", alpha, "SCRiBLe", color="k")
                    plot_curves(ax, d[d.algorithm == "dp_scrible_composed"], "T", alpha, "control: composed lambda",
                                color="tab:red", ls="--")
                    bd = dp.groupby("T").bound_thm4_5.first()
                    ax.plot(bd.index, bd.to_numpy(), "k:", lw=1, label="Theorem 4.5 bound")
                    Ts = np.sort(dp["T"].unique()).astype(float)
                    if Ts.size:
                        ax.plot(Ts, dp.value.mean() * np.sqrt(Ts / Ts.mean()), ls="-.", color="0.6", lw=0.8,
                                label="slope 1/2")
                    ax.set(xlabel="T", title=f"{dom}, {env}, N={pb['N']}, eps={pb['rate_eps']:g}")
                else:
                    plot_curves(ax, dp, "eps", alpha, "DP-SCRiBLe", color="tab:blue")
                    plot_curves(ax, d[d.algorithm == "dp_scrible_eps_squared"], "eps", alpha, "control: lambda from eps^2",
                                color="tab:red", ls="--")
                    floor = d[d.algorithm == "scrible"].value.mean()
                    ax.axhline(floor, color="k", lw=0.8, label="non-private")
                    es = np.sort(dp.eps.unique())
                    if es.size:  # 1/eps from the smallest eps's mean, drawn down to the non-private level
                        ref = dp[dp.eps == es[0]].value.mean() * es[0] / es
                        ax.plot(es[ref >= floor], ref[ref >= floor], ls="-.", color="0.6", lw=0.8, label="slope -1")
                    ax.set(xlabel="eps", title=f"{dom}, {env}, N={pb['N']}, T={pb['T_eps']}")
                ax.set(xscale="log", yscale="log", ylabel="regret")
                ax.legend(fontsize=6)
        save(fig, out)


def ztc22_figures(rates: pd.DataFrame, opt: pd.DataFrame, sc: pd.DataFrame, rho_d: pd.DataFrame, p: dict,
                  alpha: float, outputs: list[str], minimax: pd.DataFrame | None = None) -> None:
    """Zhang-Tran-Cutkosky: suboptimality vs T at both rho (bound and reference slopes drawn);
    optimistic vs plain across sigma_G / G; the strongly convex conversion vs T (Theorem 8's
    bound drawn); the privacy cost vs rho and vs d (Remark 5's 1/rho and sqrt(d) drawn).
    the worst-case privacy cost over the linear family vs rho and d (with the controls).
    Outputs: ``ztc22_{subopt_vs_T,optimistic,strongly_convex,rho_d,minimax}.png``."""
    names = {"o2b": "Algorithm 1 (OGD)", "naive": "naive conversion", "dpsgd": "DP-SGD (one pass)",
             "nonprivate": "non-private"}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, rho in zip(axes, (p["rho_stat"], p["rho_priv"])):
        d = rates[(rates.rho == rho) | (rates.alg == "nonprivate")]
        for alg, name in names.items():
            plot_curves(ax, d[d.alg == alg].assign(value=lambda x: x.subopt), "T", alpha, name)
        b = rates[(rates.alg == "o2b") & (rates.rho == rho)].groupby("T").bound_explicit.mean()
        ax.plot(b.index, b.to_numpy(), "k--", lw=1, label="Theorem 4 bound (explicit)")
        T = np.array(sorted(d["T"].unique()), dtype=float)
        o = d[d.alg == "o2b"].groupby("T").subopt.mean().to_numpy()
        for a, ls in ((-0.5, ":"), (-1.0, "-.")):
            ax.plot(T, o[0] * (T / T[0]) ** a, "k", ls=ls, lw=0.8, label=f"slope {a:g}")
        ax.set(xscale="log", yscale="log", xlabel="T", title=f"rho = {rho:g}")
    axes[0].set_ylabel("L(x_T) - L(x*)  (mean, CI band)")
    axes[1].legend(fontsize=7)
    fig.suptitle("Zhang-Tran-Cutkosky Algorithm 1, logistic regression on wdbc")
    fig.tight_layout()
    fig.savefig(outputs[0], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    for alg, name in (("plain", "Remark 5 OGD"), ("optimistic", "optimistic (Theorem 6)"),
                      ("optimistic_zero_hint", "same, hint 0")):
        plot_curves(ax, opt[opt.alg == alg].assign(value=lambda x: x.subopt), "sigma_G_over_G", alpha, name)
    ax.set(xscale="log", yscale="log", xlabel="sigma_G / G", ylabel="L(x_T) - L(x*)",
           title=f"location problem, T = {int(opt['T'].iloc[0])}, rho = {opt['rho'].iloc[0]:g}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(outputs[1], dpi=110)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, rho in zip(axes, (p["rho_stat"], p["rho_priv"])):
        d = sc[(sc.rho == rho) & (sc.problem == "ridge_logistic")]
        for alg, name in (("o2b_sc", "Algorithm 1 + Lemma 7 + OSD"), ("fresh_sc", "fresh sample at x_{t-1} (control)")):
            plot_curves(ax, d[d.alg == alg].assign(value=lambda x: x.subopt), "T", alpha, name)
        b = d[d.alg == "o2b_sc"].groupby("T").bound_explicit.mean()
        ax.plot(b.index, b.to_numpy(), "k--", lw=1, label="Theorem 8 bound (explicit)")
        T = np.array(sorted(d["T"].unique()), dtype=float)
        o = d[d.alg == "o2b_sc"].groupby("T").subopt.mean().to_numpy()
        for a, ls in ((-1.0, ":"), (-2.0, "-.")):
            ax.plot(T, o[0] * (T / T[0]) ** a, "k", ls=ls, lw=0.8, label=f"slope {a:g}")
        ax.set(xscale="log", yscale="log", xlabel="T", title=f"rho = {rho:g}, mu = {sc['mu'].iloc[0]:g}")
    axes[0].set_ylabel("L(x_T) - L(x*)")
    axes[1].legend(fontsize=7)
    fig.suptitle("Zhang-Tran-Cutkosky section 4: strongly convex conversion, ridge logistic regression")
    fig.tight_layout()
    fig.savefig(outputs[2], dpi=110)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, grid, x, ref in ((axes[0], "rho", "rho", -1.0), (axes[1], "d", "d", 0.5)):
        g = rho_d[rho_d.grid == grid]
        cost = paired_gap(g, ["rho", "d", "replicate"], by="alg", base="nonprivate", alg="o2b", col="subopt", out="value")
        plot_curves(ax, cost, x, alpha, "privacy cost: Algorithm 1 - non-private")
        plot_curves(ax, g[g.alg == "nonprivate"].assign(value=lambda v: v.subopt), x, alpha, "non-private")
        xs = np.array(sorted(cost[x].unique()), dtype=float)
        m = cost.groupby(x).value.mean().to_numpy()
        ax.plot(xs, m[0] * (xs / xs[0]) ** ref, "k--", lw=1, label=f"Remark 5: {x}^{ref:g}")
        ok = m > 0
        if ok.sum() >= 2:
            slope = np.polyfit(np.log(xs[ok]), np.log(m[ok]), 1)[0]
            ax.set_title(f"T = {int(g['T'].iloc[0])}; fitted slope {slope:.2f} (descriptive)")
        ax.set(xscale="log", yscale="log", xlabel=x, ylabel="L(x_T) - L(x*)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(outputs[3], dpi=110)
    plt.close(fig)

    if minimax is None:
        return
    from ..papers.ztc22.claims_linear import worst_case_costs

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, ref, ctl in ((axes[0], "rho", 1.0, "rho_squared"), (axes[1], "d", 0.5, "sqrt_d")):
        g = minimax[minimax.grid == key]
        for alg, name in (("o2b", "Algorithm 1"), (ctl, f"control: {ctl}")):
            x, samples, _ = worst_case_costs(g, key, alg)
            _band(ax, x, [mean_ci(pd.Series(s), alpha) for s in samples], label=name)
        x, samples, _ = worst_case_costs(g, key, "o2b")
        m0 = samples[-1].mean()
        ax.plot(x, m0 * (x / x[-1]) ** ref, "k--", lw=1, label=f"Remark 5: slope {ref:g}")
        ax.set(xscale="log", yscale="log", xlabel="1/rho" if key == "rho" else "d",
               ylabel="max over the family of the mean privacy cost")
        ax.legend(fontsize=7)
    fig.suptitle(f"Worst case over G-Lipschitz linear losses, T = {int(minimax['T'].iloc[0])}")
    fig.tight_layout()
    fig.savefig(outputs[4], dpi=110)
    plt.close(fig)


def ztc22_linear_T_figure(lin: pd.DataFrame, p: dict, alpha: float, output: str) -> None:
    """Remark 5 in T, worst case over the G-Lipschitz linear family: left, the privacy cost
    (Algorithm 1 minus its twin) and the naive conversion's, divided by log2(2T), with slope -1
    drawn; right, Algorithm 1's suboptimality at rho_stat, the non-private twin's and the
    fresh-sample control's, with slope -1/2 drawn (every T of the grids; the claims drop points by their declared filter)."""
    from ..papers.ztc22.claims_linear import worst_case

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    panels = ((axes[0], p["T_lin_priv"], (("o2b", "Algorithm 1 (privacy cost)"), ("naive", "naive conversion (control)")),
               "nonprivate", -1.0, "privacy cost / log2(2T)", f"rho = {p['rho_lin']:g}"),
              (axes[1], p["T_lin_stat"], (("o2b_stat", "Algorithm 1"), ("nonprivate", "non-private twin"),
                                          ("fresh_stat", "fresh sample at x_{t-1} (control)")),
               None, -0.5, "L(x_T) - L(x*)", f"rho = {p['rho_stat']:g}"))
    for ax, Ts, algs, base, ref, ylab, title in panels:
        g = lin[lin["T"].isin(Ts)]
        for alg, name in algs:
            w = worst_case(g, "T", alg, base)
            x = np.array([o["x"] for o in w])
            scale = np.log2(2 * x) if base else np.ones_like(x)
            cis = [mean_ci(pd.Series(o["samples"]), alpha) for o in w]
            _band(ax, x, [tuple(v / s for v in ci) for ci, s in zip(cis, scale)], label=name)
            if alg in ("o2b", "o2b_stat"):
                m = np.array([ci[0] for ci in cis]) / scale
                ax.plot(x, m[0] * (x / x[0]) ** ref, "k--", lw=1, label=f"Remark 5: slope {ref:g}")
        ax.set(xscale="log", yscale="log", xlabel="T", ylabel=f"max over the family: {ylab}", title=title)
        ax.legend(fontsize=7)
    fig.suptitle(f"Remark 5 in T: worst case over G-Lipschitz linear losses (d = {p['d_lin']})")
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)


def ztc22_param_free_figure(pf: pd.DataFrame, p: dict, alpha: float, output: str) -> None:
    """Zhang-Tran-Cutkosky section 5 (Theorem 11) at the declared C (and any other C of the grid):
    the suboptimality of x_T and of the learner's own iterate w_T, and the bound, vs T, with
    L(x_0) - L* drawn (the bound is vacuous at or above it); and the fraction of runs violating
    each part of Theorem 11 per T with Clopper-Pearson intervals, delta drawn."""
    from scipy import stats

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ax = axes[0]
    for C, g in pf.groupby("C"):
        m = g.groupby("T")[["subopt", "subopt_w", "bound", "bound_C_half"]].mean()
        ax.plot(m.index, m.bound, "--", marker="o", lw=1, label=f"Theorem 11 bound, C = {C:g}")
        ax.plot(m.index, m.bound_C_half, ":", marker="o", lw=1, label=f"bound with C / 2 (control), C = {C:g}")
        ax.plot(m.index, np.maximum(m.subopt, 1e-12), marker="s", label=f"L(x_T) - L* (floored at 1e-12), C = {C:g}")
        ax.plot(m.index, np.maximum(m.subopt_w, 1e-12), marker="^", label=f"L(w_T) - L* (learner), C = {C:g}")
    ax.axhline(float(pf.start_subopt.iloc[0]), color="k", lw=0.8, ls=":", label="L(x_0) - L* (vacuous above)")
    ax.set(xscale="log", yscale="log", xlabel="T", ylabel="mean over runs",
           title=f"||x*|| = {pf.x_star_norm.iloc[0]:g} (boundary), rho = {pf.rho.iloc[0]:g}, k = 3")
    ax.legend(fontsize=6)
    ax = axes[1]
    for label, bad in (("bound violated", pf.subopt > pf.bound), ("||gbar_t|| bound exceeded", pf.gbar_ratio > 1)):
        rows = []
        for T, v in bad.groupby(pf["T"]):
            n, k = len(v), int(v.sum())
            lo = stats.beta.ppf(alpha / 2, k, n - k + 1) if k else 0.0
            hi = stats.beta.ppf(1 - alpha / 2, k + 1, n - k) if k < n else 1.0
            rows.append((T, k / n, lo, hi))
        T, m, lo, hi = map(np.array, zip(*rows))
        ax.errorbar(T, m, yerr=[m - lo, hi - m], marker="o", capsize=3, label=label)
    ax.axhline(p["delta_pf"], color="k", lw=0.8, ls="--", label="delta")
    ax.set(xscale="log", xlabel="T", ylabel="fraction of runs (all C)", ylim=(-0.02, 1.02),
           title="Theorem 11 with probability >= 1 - delta?")
    ax.legend(fontsize=7)
    fig.suptitle(f"Zhang-Tran-Cutkosky Theorem 11 (parameter-free), declared C = {p['C_pf']:g}")
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)
