"""Van der Hoeven (thesis ch. 3) figures: log-log axes, confidence bands (t intervals over
replicates; on log axes a band reaching 0 is cut at a tenth of the mean), bounds drawn; and which
figure shows which claim (:data:`FIGURES`, read by the workflow's plotting rule and the report)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from dpregret.verdict.core import select
from dpregret.core.plotting import Figure, plot_curves, plt
from dpregret.papers.vdh19 import bounds as vdh_bounds

# plot group -> (its directory under figures/, its figures in the order its plot job writes them,
# each with the claims it shows): read by the workflow's plotting rule and the report
# (dpregret.pipeline.report.figure_map collects the four folders')
FIGURES = {
    "vdh19": ("vdh19", (
        Figure("vdh19_regret_vs_T", ("VDH-thm10-printed-bound", "VDH-thm10-proof-bound", "VDH-thm12-printed-bound",
                                     "VDH-eq3.3.5-bound", "VDH-sec3.4-minority-cost-rate-T",
                                     "VDH-sec3.4-minority-cost-rate-T-adversarial",
                                     "VDH-eq3.1.1-privacy-term-rate")),  # its 4th panel: excess vs (3.1.1)'s x
        Figure("vdh19_regret_vs_eps"),  # shows no claim (regret vs eps, d/eps drawn)
        Figure("vdh19_regret_vs_nprivate"),  # shows no claim (regret vs the number of private providers)
        Figure("vdh19_sparse_vs_D", ("VDH-thm11-bound", "VDH-thm11-proof-bound", "VDH-sec3.4-sparse-vs-adagrad")),
        Figure("vdh19_regret_vs_u", ("VDH-eq3.3.5-rate-u",)),
    )),
}

NAMES = {"alg2": "Algorithm 2 (black-box reduction)", "alg3": "Algorithm 3 (coordinate-wise)",
         "adagrad": "diagonal AdaGrad, guessed D", "ogd": "OGD tuned to worst-case noise",
         "frozen": "non-learner: frozen at 0", "alg2_improper": "Algorithm 2, improper prior",
         "alg2_reach": "control: fixed step eta_reach as norm learner"}
PLACEMENT_STYLE = {"none": ("k", "-"), "random": ("tab:blue", "-"), "adversarial": ("tab:purple", "-"),
                   "uniform": ("tab:red", "--")}


_at = select


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _val(d, col="regret"):
    return d.assign(value=d[col].to_numpy())


def _ref(ax, x, y0, a, label, ls=":"):
    x = np.asarray(x, dtype=float)
    ax.plot(x, y0 * (x / x[0]) ** a, color="0.5", ls=ls, lw=0.8, label=label)


def _paired_cost(df, placement, key):
    base = _at(df, placement="none").set_index([key, "replicate"]).regret
    a = _at(df, placement=placement).set_index([key, "replicate"])
    return a.assign(value=a.regret - base.reindex(a.index).to_numpy()).reset_index()


def vdh19_figures(tables: dict[str, pd.DataFrame], p: dict, alpha: float, outputs: list[str]) -> None:
    """Outputs: ``vdh19_{regret_vs_T, regret_vs_eps, regret_vs_nprivate, sparse_vs_D}.png`` and,
    if a fifth path is given, ``vdh19_regret_vs_u.png`` (synthetic instances, regret vs ||u*||)."""
    _regret_vs_T(tables, p, alpha, outputs[0])
    _regret_vs_eps(tables, alpha, outputs[1])
    _regret_vs_nprivate(tables, p, alpha, outputs[2])
    _sparse_vs_D(tables, p, alpha, outputs[3])
    if len(outputs) > 4:
        _regret_vs_u(tables, p, alpha, outputs[4])


def _regret_vs_T(tables: dict[str, pd.DataFrame], p: dict, alpha: float, output: str) -> None:
    """``vdh19_regret_vs_T``: the minority scenario at u = w* vs T: the algorithms with eq. (3.3.5)'s bound, the
    placements, Algorithm 2's privacy cost, and eq. (3.1.1)'s excess vs sigma."""
    b = p.get("b", 1.0)
    mino = _at(tables["minority"], u_frac=1.0)
    T = np.array(sorted(mino["T"].unique()), dtype=float)
    # 1. regret vs T (u = w*): algorithms (random placement) with the (3.3.5) bound; placements; privacy cost
    fig, axes = plt.subplots(1, 4, figsize=(21, 4.6))
    ax = axes[0]
    d = _at(mino, placement="random")
    for alg in ("alg2", "alg3", "adagrad", "ogd", "frozen"):
        plot_curves(ax, _val(_at(d, alg=alg)), "T", alpha, NAMES[alg], ls="--" if alg == "frozen" else "-")
    a2 = _at(d, alg="alg2")
    B = [float(vdh_bounds.bound_eq3_3_5(g.u_norm.iloc[0], g.sum_sq.to_numpy(), 1.0, b, axis=0))
         for _, g in a2.groupby("T")]
    ax.plot(T, B, "k--", lw=1, label="eq. (3.3.5) bound (explicit, Algorithm 2)")
    m = a2.groupby("T").regret.mean().to_numpy()
    _ref(ax, T, m[0], 0.5, "slope 1/2", ls="-.")
    ax.set(xscale="log", yscale="log", xlabel="T", ylabel="R_T(w*)  (mean, CI band)",
           title=f"ceil(ln T) private providers at random, eps = {p['rate_eps']:g}")
    ax.legend(fontsize=6)
    ax = axes[1]
    for pl, (c, ls) in PLACEMENT_STYLE.items():
        plot_curves(ax, _val(_at(mino, alg="alg2", placement=pl)), "T", alpha, f"Algorithm 2, {pl}", color=c, ls=ls)
        plot_curves(ax, _val(_at(mino, alg="alg3", placement=pl)), "T", alpha, f"Algorithm 3, {pl}", color=c, ls=":")
    ax.set(xscale="log", yscale="log", xlabel="T", ylabel="R_T(w*)",
           title="placements (uniform = every provider at eps)")
    ax.legend(fontsize=6)
    ax = axes[2]
    a2all = _at(mino, alg="alg2")
    for pl in ("random", "adversarial", "uniform"):
        c, ls = PLACEMENT_STYLE[pl]
        plot_curves(ax, _paired_cost(a2all, pl, "T"), "T", alpha, f"{pl}", color=c, ls=ls)
    cu = _paired_cost(a2all, "uniform", "T").groupby("T").value.mean().to_numpy()
    _ref(ax, T, max(cu[0], 1e-9), 0.5, "slope 1/2 (uniform: (d/eps) sqrt(T ln T))", ls="-.")
    cm = _paired_cost(a2all, "random", "T").groupby("T").value.mean().to_numpy()
    ax.plot(T, max(cm[-1], 1e-9) * np.log(T) / np.log(T[-1]), color="0.5", ls=":", lw=0.8,
            label="ln T (minority: (d/eps) ln T)")
    ax.set(xscale="log", yscale="log", xlabel="T", ylabel="R_T(w*) - R_T(w*) without noise (paired)",
           title="privacy cost of Algorithm 2 (Sec. 3.4)")
    ax.legend(fontsize=6)
    _excess_vs_sigma(axes[3], tables, p)  # VDH-eq3.1.1-privacy-term-rate (the n and eps grids pooled)
    fig.suptitle("Van der Hoeven Sec. 3.4, privacy-caring minority: absolute-loss regression on wdbc")
    _save(fig, output)


def _regret_vs_eps(tables: dict[str, pd.DataFrame], alpha: float, output: str) -> None:
    """``vdh19_regret_vs_eps``: Algorithms 2 and 3 (random and uniform placements) and the baselines vs eps."""
    # 2. regret vs eps at T_eps
    e = _at(tables["minority_eps"], u_frac=1.0)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), sharey=True)
    for ax, alg in zip(axes, ("alg2", "alg3")):
        for pl in ("random", "uniform"):
            c, ls = PLACEMENT_STYLE[pl]
            plot_curves(ax, _val(_at(e, alg=alg, placement=pl)), "eps", alpha, f"{NAMES[alg]}, {pl}", color=c, ls=ls)
        for base, c in (("adagrad", "tab:green"), ("ogd", "tab:orange")):
            plot_curves(ax, _val(_at(e, alg=base, placement="random")), "eps", alpha, f"{NAMES[base]}, random", color=c)
        ax.axhline(_at(e, alg=alg, placement="none").regret.mean(), color="k", lw=0.8, label="no noise")
        eps = np.array(sorted(_at(e, placement="uniform").eps.unique()), dtype=float)
        mu = _at(e, alg=alg, placement="uniform").groupby("eps").regret.mean().to_numpy()
        _ref(ax, eps, mu[0], -1.0, "slope -1 (d/eps)")
        ax.set(xscale="log", yscale="log", xlabel="eps", title=f"T = {int(e['T'].iloc[0])}")
        ax.legend(fontsize=6)
    axes[0].set_ylabel("R_T(w*)")
    _save(fig, output)


def _regret_vs_nprivate(tables: dict[str, pd.DataFrame], p: dict, alpha: float, output: str) -> None:
    """``vdh19_regret_vs_nprivate``: the algorithms vs the number of private providers (random positions)."""
    # 3. regret vs number of private providers at T_n
    nn = _at(tables["minority_n"], u_frac=1.0)
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    pos = nn[nn.n_private > 0]
    for alg, c in (("alg2", "tab:blue"), ("alg3", "tab:cyan"), ("adagrad", "tab:green"), ("ogd", "tab:orange")):
        plot_curves(ax, _val(_at(pos, alg=alg)), "n_private", alpha, NAMES[alg], color=c)
        ax.axhline(_at(nn, alg=alg, n_private=0).regret.mean(), color=c, lw=0.6, ls=":")
    Tn = int(nn["T"].iloc[0])
    ax.axvline(np.ceil(np.log(Tn)), color="0.6", lw=0.8, ls="--", label="ceil(ln T) (Sec. 3.4)")
    ns = np.array(sorted(pos.n_private.unique()), dtype=float)
    m = _at(pos, alg="alg2").groupby("n_private").regret.mean().to_numpy()
    _ref(ax, ns, m[-1] * (ns[0] / ns[-1]) ** 0.5, 0.5, "slope 1/2 (sqrt(n) (d/eps))")
    ax.set(xscale="log", yscale="log", xlabel="private providers n (random positions)", ylabel="R_T(w*)",
           title=f"T = {Tn}, eps = {p['rate_eps']:g} (dotted: n = 0)")
    ax.legend(fontsize=6)
    _save(fig, output)


def _sparse_vs_D(tables: dict[str, pd.DataFrame], p: dict, alpha: float, output: str) -> None:
    """``vdh19_sparse_vs_D``: the sparse scenario at the largest T: regret vs D / max|u*_j| (AdaGrad's guess against
    Algorithm 3), and vs the comparator's scale with Theorem 11's bound."""
    b = p.get("b", 1.0)
    # 4. sparse scenario: regret vs D / max|u_j|, and vs the comparator scale with Theorem 11
    sp = tables["sparse"]
    Tmax = int(sp["T"].max())
    last = _at(sp, T=Tmax)
    l1 = _at(last, u_frac=1.0)
    fig, axes = plt.subplots(1, 2, figsize=(11.5, 4.5))
    ax = axes[0]
    plot_curves(ax, _val(_at(l1, alg="adagrad")), "D_ratio", alpha,
                "diagonal AdaGrad with guessed D", color="tab:green")
    xr = np.array(sorted(_at(l1, alg="adagrad").D_ratio.unique()), dtype=float)
    for alg, c, lab in (("alg3", "tab:blue", "Algorithm 3 (no D)"),
                        ("adagrad_tuned", "tab:olive", "AdaGrad, D = max|u*_j|")):
        g = _at(l1, alg=alg).regret
        ax.axhline(g.mean(), color=c, label=lab)
    gap = _at(l1, alg="adagrad").set_index(["D_ratio", "replicate"]).regret
    a3 = _at(l1, alg="alg3").set_index("replicate").regret
    gg = (gap - a3.reindex(gap.index.get_level_values(1)).to_numpy()).rename("value").reset_index()
    plot_curves(ax, gg, "D_ratio", alpha, "gap AdaGrad - Algorithm 3", color="k", ls="--")
    ma = _at(l1, alg="adagrad").groupby("D_ratio").regret.mean().to_numpy()
    _ref(ax, xr, ma[0], 1.0, "slope 1")
    ax.set(xscale="log", yscale="log", xlabel="D / max_j |u*_j|", ylabel="R_T(u*)",
           title=f"sparse: s={int(sp.s.iloc[0])} of d={int(sp.d.iloc[0])}, tau={sp.tau.iloc[0]:g} on "
                 f"{int(sp.d_sens.iloc[0])} coords, T={Tmax}")
    ax.legend(fontsize=6)
    ax = axes[1]
    pos = last[last.u_frac > 0]
    for alg, c in (("alg3", "tab:blue"), ("adagrad_tuned", "tab:olive")):
        plot_curves(ax, _val(_at(pos, alg=alg)), "u_frac", alpha, NAMES.get(alg, "AdaGrad, D = max|u*_j|"), color=c)
    k, d, u_max = int(p["k"]), int(p["d_sparse"]), float(p["u_max"])
    cols = [f"sum_sq_c{j}" for j in range(k)]
    g3 = _at(pos, alg="alg3")
    fs = np.array(sorted(g3.u_frac.unique()), dtype=float)
    for constants, ls in (("printed", "--"), ("proof", ":")):
        B = [float(vdh_bounds.bound_thm11(f * u_max * (-1.0) ** np.arange(k),
                                          g3[g3.u_frac == f].sort_values("replicate")[cols].to_numpy(),
                                   1.0, b, axis=0, constants=constants)) + d - k for f in fs]
        ax.plot(fs, B, "k", ls=ls, lw=1, label=f"Theorem 11 bound ({constants} constants)")
    ax.set(xscale="log", yscale="log", xlabel="f  (comparator u = f u*)", ylabel="R_T(u)",
           title=f"Algorithm 3 vs Theorem 11, T = {Tmax}")
    from matplotlib.ticker import NullFormatter

    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.legend(fontsize=6)
    _save(fig, output)


def _regret_vs_u(tables: dict[str, pd.DataFrame], p: dict, alpha: float, output: str) -> None:
    """``vdh19_regret_vs_u``: synthetic instances, regret vs ||u*|| with eq. (3.3.5)'s bound."""
    b = p.get("b", 1.0)
    un = _at(tables["unorm"], u_frac=1.0)
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    for alg, c in (("alg2", "tab:blue"), ("alg2_improper", "tab:cyan"), ("alg2_reach", "tab:red")):
        plot_curves(ax, _val(_at(un, alg=alg)), "u_star_norm", alpha, NAMES[alg], color=c,
                    ls="--" if alg == "alg2_reach" else "-")
    a2 = _at(un, alg="alg2")
    us = np.array(sorted(a2.u_star_norm.unique()), dtype=float)
    B = [float(vdh_bounds.bound_eq3_3_5(u, a2[a2.u_star_norm == u].sum_sq.to_numpy(), 1.0, b, axis=0)) for u in us]
    ax.plot(us, B, "k--", lw=1, label="eq. (3.3.5) bound (explicit)")
    m = a2.groupby("u_star_norm").regret.mean().to_numpy()
    _ref(ax, us, m[0], 1.0, "slope 1")
    _ref(ax, us, m[0], 2.0, "slope 2", ls="-.")
    ax.set(xscale="log", yscale="log", xlabel="||u*||", ylabel="R_T(u*)",
           title=f"synthetic instances, T = {int(un['T'].iloc[0])}, eps = {p['rate_eps']:g}")
    ax.legend(fontsize=6)
    _save(fig, output)


def _excess_vs_sigma(ax, tables, p) -> None:
    """VDH-eq3.1.1-privacy-term-rate: the mean excess regret (private - nobody privatising, paired) of Algorithm 2,
    its twin and its control against x = sqrt(G^2 T + sum sigma^2) - sqrt(G^2 T), the n and eps grids pooled; the
    points inside the claim's regime filled, the others open."""
    from dpregret.papers.vdh19 import claims as C

    if any(k not in tables or not len(tables[k]) for k in ("minority_n", "minority_eps")):
        return
    pts = C.sigma_points(tables, p, "alg2")
    Ts = sorted({q["T"] for q in pts})
    frozen = {T: C.frozen_mean(tables, T) for T in Ts}
    inside = {C.sigma_label(q) for q in pts
              if q["share"] >= C.SIGMA_SHARE and q["regret"] <= C.SIGMA_SATURATION * frozen[q["T"]]}
    for alg, c, name in (("alg2", "tab:blue", NAMES["alg2"]), ("alg2_quiet", "tab:purple", "twin: direction step "
                                                                "(G^2 t)^(-1/2)"),
                         ("ogd_quiet", "tab:orange", "control: OGD tuned with sigma = 0")):
        qs = [q for q in C.sigma_points(tables, p, alg) if q["excess"].mean() > 0]
        if not qs:
            continue
        x = np.array([q["x"] for q in qs])
        y = np.array([q["excess"].mean() for q in qs])
        ins = np.array([C.sigma_label(q) in inside for q in qs])
        ax.plot(x[ins], y[ins], "o", color=c, label=f"{name} (in the regime)")
        ax.plot(x[~ins], y[~ins], "o", mfc="none", color=c, label=f"{name} (outside)")
    xs = np.array([q["x"] for q in pts if C.sigma_label(q) in inside])
    if len(xs):
        ax.axvspan(xs.min(), xs.max(), color="0.9", zorder=0, label="regime window")
        y0 = np.mean([q["excess"].mean() / q["x"] for q in pts if C.sigma_label(q) in inside])
        _ref(ax, np.array([xs.min(), xs.max()]), y0 * xs.min(), 1.0, "slope 1")
    ax.set(xscale="log", yscale="log", xlabel="x = sqrt(G^2 T + sum_t sigma_t^2) - sqrt(G^2 T)  (eq. 3.1.1)",
           ylabel="excess R_T(w*) (private - none, paired)",
           title="eq. (3.1.1): n, eps grids pooled (filled: in the regime)")
    ax.legend(fontsize=6)


draw = vdh19_figures  # the plot job of the generic rules (dpregret.pipeline.jobs.plot): draw(tables, p, alpha, outputs)
