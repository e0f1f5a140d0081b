"""Zhang-Tran-Cutkosky figures (sections 2-5): log-log axes, confidence bands
(``dpregret.core.plotting``), bounds and reference slopes drawn; and which figure shows which claim
(:data:`FIGURES`, read by the workflow's plotting rule and the report)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from dpregret.verdict.core import paired_gap
from dpregret.core.plotting import Figure, band, mean_ci, plot_curves, plt

# plot group -> (its directory under figures/, its figures in the order its plot job writes them,
# each with the claims it shows): read by the workflow's plotting rule and the report
# (dpregret.pipeline.report.figure_map collects the four folders')
FIGURES = {
    "ztc22": ("ztc22", (
        Figure("ztc22_subopt_vs_T", ("ZTC-thm3-sensitivity", "ZTC-thm4-bound", "ZTC-vs-dpsgd")),
        Figure("ztc22_optimistic", ("ZTC-thm6-optimistic", "ZTC-thm6-adaptive-sigma")),
        Figure("ztc22_strongly_convex", ("ZTC-thm8-bound", "ZTC-rem9-rate-T-stat", "ZTC-rem9-rate-T-priv")),
        Figure("ztc22_rho_d"),  # shows no claim: Remark 5 in rho and d is decided on the worst case (minimax)
        Figure("ztc22_minimax", ("ZTC-rem5-rate-rho", "ZTC-rem5-rate-d")),
        Figure("ztc22_param_free", ("ZTC-thm11-bound", "ZTC-thm11-gbar", "ZTC-thm11-eq14", "ZTC-thm11-eq17",
                                    "ZTC-sec5-shift-rate")),
        Figure("ztc22_linear_T", ("ZTC-rem5-rate-T-stat", "ZTC-rem5-rate-T-priv", "ZTC-eq4-variance", "ZTC-eq7-noise")),
    )),
}


def ztc22_figures(rates: pd.DataFrame, opt: pd.DataFrame, sc: pd.DataFrame, rho_d: pd.DataFrame, p: dict,
                  alpha: float, outputs: list[str], minimax: pd.DataFrame | None = None) -> None:
    """Zhang-Tran-Cutkosky: suboptimality vs T at both rho (bound and reference slopes drawn);
    optimistic vs plain across sigma_G / G; the strongly convex conversion vs T (Theorem 8's
    bound drawn); the privacy cost vs rho and vs d (Remark 5's 1/rho and sqrt(d) drawn); the worst-case privacy
    cost over the linear family vs rho and d (with the controls).
    Outputs: ``ztc22_{subopt_vs_T,optimistic,strongly_convex,rho_d,minimax}.png``."""
    _subopt_vs_T(rates, p, alpha, outputs[0])
    _optimistic(opt, p, alpha, outputs[1])
    _strongly_convex(sc, p, alpha, outputs[2])
    _rho_d(rho_d, alpha, outputs[3])
    if minimax is None:
        return
    _minimax(minimax, alpha, outputs[4])


def _subopt_vs_T(rates: pd.DataFrame, p: dict, alpha: float, output: str) -> None:
    """``ztc22_subopt_vs_T``: suboptimality vs T at rho_stat and rho_priv, Theorem 4's bound and slopes drawn."""
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
    fig.savefig(output, dpi=110)
    plt.close(fig)


def _optimistic(opt: pd.DataFrame, p: dict, alpha: float, output: str) -> None:
    """``ztc22_optimistic``: optimistic vs plain across sigma_G / G; right, the adaptive-sigma runs (if any)."""
    adapt = opt[opt.alg.str.startswith("adapt_")]
    fig, axes = plt.subplots(1, 2 if len(adapt) else 1, figsize=(11 if len(adapt) else 5.5, 4.2), squeeze=False)
    ax = axes[0, 0]
    for alg, name in (("plain", "Remark 5 OGD"), ("optimistic", "optimistic (Theorem 6)"),
                      ("optimistic_zero_hint", "same, hint 0")):
        plot_curves(ax, opt[opt.alg == alg].assign(value=lambda x: x.subopt), "sigma_G_over_G", alpha, name)
    ax.set(xscale="log", yscale="log", xlabel="sigma_G / G", ylabel="L(x_T) - L(x*)",
           title=f"location problem, T = {p['T_opt']}, rho = {p['rho_opt']:g}")
    ax.legend(fontsize=7)
    if len(adapt):  # ZTC-thm6-adaptive-sigma: fixed G, rho_adapt
        ax = axes[0, 1]
        for alg, name in (("adapt_optimistic", "optimistic (Theorem 6)"), ("adapt_zero_hint", "hint 0 (twin)"),
                          ("adapt_nonprivate", "optimistic, no noise"), ("adapt_noise10", "sigma_t x 10 (control)"),
                          ("adapt_frozen", "frozen at x_0 (non-learner)")):
            plot_curves(ax, adapt[adapt.alg == alg].assign(value=lambda x: x.subopt), "sigma_G_over_G", alpha, name)
        xs = np.array(sorted(adapt.sigma_G_over_G.unique()), dtype=float)
        m = adapt[adapt.alg == "adapt_optimistic"].groupby("sigma_G_over_G").subopt.mean().to_numpy()
        ax.plot(xs, m[-1] * xs / xs[-1], "k:", lw=0.8, label="slope 1 (sigma_G)")
        ax.set(xscale="log", yscale="log", xlabel="sigma_G / G (G fixed)",
               title=f"ZTC-thm6-adaptive-sigma: T = {p['T_opt']}, rho = {p['rho_adapt']:g}")
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)


def _strongly_convex(sc: pd.DataFrame, p: dict, alpha: float, output: str) -> None:
    """``ztc22_strongly_convex``: the strongly convex conversion vs T, Theorem 8's bound and slopes drawn."""
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
    fig.savefig(output, dpi=110)
    plt.close(fig)


def _rho_d(rho_d: pd.DataFrame, alpha: float, output: str) -> None:
    """``ztc22_rho_d``: the privacy cost vs rho and vs d (Remark 5's 1/rho and sqrt(d) drawn)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, grid, x, ref in ((axes[0], "rho", "rho", -1.0), (axes[1], "d", "d", 0.5)):
        g = rho_d[rho_d.grid == grid]
        cost = paired_gap(g, ["rho", "d", "replicate"], by="alg", base="nonprivate", alg="o2b",
                          col="subopt", out="value")
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
    fig.savefig(output, dpi=110)
    plt.close(fig)


def _minimax(minimax: pd.DataFrame, alpha: float, output: str) -> None:
    """``ztc22_minimax``: the worst-case privacy cost over the linear family vs rho and d, with the controls."""
    from dpregret.papers.ztc22.claims_linear import worst_case_costs

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, ref, ctl in ((axes[0], "rho", 1.0, "rho_squared"), (axes[1], "d", 0.5, "sqrt_d")):
        g = minimax[minimax.grid == key]
        for alg, name in (("o2b", "Algorithm 1"), (ctl, f"control: {ctl}")):
            x, samples, _ = worst_case_costs(g, key, alg)
            band(ax, x, [mean_ci(pd.Series(s), alpha) for s in samples], label=name)
        x, samples, _ = worst_case_costs(g, key, "o2b")
        m0 = samples[-1].mean()
        ax.plot(x, m0 * (x / x[-1]) ** ref, "k--", lw=1, label=f"Remark 5: slope {ref:g}")
        ax.set(xscale="log", yscale="log", xlabel="1/rho" if key == "rho" else "d",
               ylabel="max over the family of the mean privacy cost")
        ax.legend(fontsize=7)
    fig.suptitle(f"Worst case over G-Lipschitz linear losses, T = {int(minimax['T'].iloc[0])}")
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)


def ztc22_linear_T_figure(lin: pd.DataFrame, p: dict, alpha: float, output: str) -> None:
    """Remark 5 in T, worst case over the G-Lipschitz linear family: left, the privacy cost
    (Algorithm 1 minus its twin) and the naive conversion's, divided by log2(2T), with slope -1
    drawn; right, Algorithm 1's suboptimality at rho_stat, the non-private twin's and the
    fresh-sample control's, with slope -1/2 drawn (every T of the grids; the claims drop points by their declared
    filter)."""
    from dpregret.papers.ztc22.claims_linear import worst_case

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    panels = ((axes[0], p["T_lin_priv"],
               (("o2b", "Algorithm 1 (privacy cost)"), ("naive", "naive conversion (control)")),
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
            band(ax, x, [tuple(v / s for v in ci) for ci, s in zip(cis, scale)], label=name)
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
    from dpregret.core.stats import clopper_pearson

    shifted = pf[pf.shift_dist.notna()] if "shift_dist" in pf else pf.iloc[:0]
    tv = pf[pf.alg == "o2b_pf"] if "alg" in pf else pf.iloc[:0]
    if "alg" in pf and (pf.alg == "o2b_pf_const").any():  # Remark 12's constant G^ decides; G^_t a variant
        unshifted = pf[(pf.alg == "o2b_pf_const") & (pf["T"] == pf["T"].min())].subopt
        pf = pf[pf.alg == "o2b_pf_const"]
    else:
        tv, unshifted = tv.iloc[:0], pf.subopt.iloc[:0]
    fig, axes = plt.subplots(1, 3 if len(shifted) else 2, figsize=(16.5 if len(shifted) else 11, 4.2))
    ax = axes[0]
    for C, g in tv.groupby("C"):
        m = g.groupby("T").subopt.mean()
        ax.plot(m.index, np.maximum(m, 1e-12), marker="v", ls="-.", label=f"L(x_T) - L*, time-varying G^_t, C = {C:g}")
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
            lo, hi = (float(x) for x in clopper_pearson(k, n, alpha / 2, alpha / 2))
            rows.append((T, k / n, lo, hi))
        T, m, lo, hi = map(np.array, zip(*rows))
        ax.errorbar(T, m, yerr=[m - lo, hi - m], marker="o", capsize=3, label=label)
    ax.axhline(p["delta_pf"], color="k", lw=0.8, ls="--", label="delta")
    ax.set(xscale="log", xlabel="T", ylabel="fraction of runs (all C)", ylim=(-0.02, 1.02),
           title="Theorem 11 with probability >= 1 - delta?")
    ax.legend(fontsize=7)
    if len(shifted):
        _shift_panel(axes[2], shifted, unshifted, alpha)
    fig.suptitle(f"Zhang-Tran-Cutkosky Theorem 11 (parameter-free), declared C = {p['C_pf']:g}")
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)


def _shift_panel(ax, shifted: pd.DataFrame, unshifted: pd.Series, alpha: float) -> None:
    """ZTC-sec5-shift-rate: mean suboptimality vs s = ||x* - x_0|| (95% band) for the shifted learner and its twin,
    the unshifted learner (the control) and the frozen start c s (the non-learner), a slope-1 reference."""
    for alg, label, ls in (("o2b_pf_shift", "shifted start (paper)", "-"),
                           ("o2b_pf_shift_play_only", "twin: regulariser at the origin", ":")):
        g = shifted[shifted.alg == alg].groupby("shift_dist").subopt
        s_ = np.array(sorted(g.groups))
        band(ax, s_, [mean_ci(g.get_group(v), alpha) for v in s_], ls=ls, label=label)
    st = shifted.groupby("shift_dist").shift_start_subopt.mean()
    ax.plot(st.index, st.values, "k--", lw=0.8, label="frozen at x_0 (c s)")
    ax.axhline(float(unshifted.mean()), color="tab:red", lw=1, ls="-.", label="unshifted start (control)")
    s0 = float(st.index.max())
    m0 = float(shifted[shifted.alg == "o2b_pf_shift"].groupby("shift_dist").subopt.mean().max())
    xs = np.array([float(st.index.min()), s0])
    ax.plot(xs, m0 * xs / s0, color="0.6", lw=0.8, label="slope 1 (the claim's rate)")
    ax.set(xscale="log", yscale="log", xlabel="s = ||x* - x_0||", ylabel="mean L(x_T) - L*",
           title=f"Section 5: shifted start, T = {int(shifted['T'].iloc[0]):g}")
    ax.legend(fontsize=6)


def draw(tables: dict[str, pd.DataFrame], p: dict, alpha: float, outputs: list[str]) -> None:
    """The plot job of the generic rules (dpregret.pipeline.jobs.plot): the seven figures of ``FIGURES``, in order."""
    ztc22_figures(tables["rates"], tables["optimistic"], tables["strongly_convex"], tables["rho_d"], p, alpha, outputs,
                  minimax=tables["minimax"])
    ztc22_param_free_figure(tables["param_free"], p, alpha, outputs[5])
    ztc22_linear_T_figure(tables["linear_T"], p, alpha, outputs[6])
