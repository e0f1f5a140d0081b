"""Ene-Nguyen-Vladu figures: regret vs T (T^(3/4) drawn), privacy gap vs n and vs eps for
both noises, oracle calls and wall time against the projection baseline, and the measured
quantities of Lemmas C.2, C.5 and 4.1 against their bounds.  Mean with t-interval bands
(``dpregret.core.plotting.mean_ci``); on log axes a band reaching 0 is cut at a tenth of the mean.

Outputs (in order): ``env21_regret_vs_T.png``, ``env21_gap_vs_n.png``,
``env21_gap_vs_eps.png``, ``env21_cost.png``, ``env21_bounds.png``, as :data:`FIGURES` declares
them with the claims each shows (read by the workflow's plotting rule and the report).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from dpregret.verdict.core import paired_gap
from dpregret.core.plotting import Figure, mean_ci, plt

# plot group -> (its directory under figures/, its figures in the order its plot job writes them,
# each with the claims it shows): read by the workflow's plotting rule and the report
# (dpregret.pipeline.report.figure_map collects the four folders')
FIGURES = {
    "env21": ("env21", (
        Figure("env21_regret_vs_T", ("ENV-lemma3.1-rate-T", "ENV-lemma3.1-rate-T-tree", "ENV-lemma3.1-rate-T-switching",
                                     "ENV-lemma3.1-rate-T-noise", "ENV-lemma3.1-rate-T-interior",
                                     "ENV-lemma5.2-rate-T", "ENV-lemma5.5-rate-T",
                                     "ENV-thm1.1-rate-T")),
        Figure("env21_gap_vs_n", ("ENV-lemma5.2-rate-n", "ENV-lemma5.5-rate-n", "ENV-gauss-vs-laplace-n")),
        Figure("env21_gap_vs_eps", ("ENV-lemma5.2-rate-eps", "ENV-lemma5.5-rate-eps")),
        Figure("env21_cost", ("ENV-oracle-calls",)),
        Figure("env21_bounds", ("ENV-lemma4.1-bound", "ENV-lemmaC.2-bound", "ENV-corC.5-bound")),
    )),
}

STYLE = {
    "none": dict(color="k", label="no noise"),
    "laplace": dict(color="tab:blue", label="Laplace (Lemma 5.1)"),
    "gaussian": dict(color="tab:green", label="Gaussian (Lemma 5.4)"),
    "fixed_noise": dict(color="tab:purple", label="fixed noise level"),
    "printed_sign": dict(color="tab:red", ls="--", label="control: printed line-14 sign"),
    "none_switching": dict(color="tab:olive", label="no noise, switching centre"),
    "none_interior": dict(color="tab:cyan", label="no noise, minimiser inside K"),
    "printed_sign_switching": dict(color="tab:olive", ls="--", label="control: printed sign, switching centre"),
    "laplace_fixed_step": dict(color="tab:blue", ls="--", label="control: Laplace, fixed step"),
    "gaussian_fixed_step": dict(color="tab:green", ls="--", label="control: Gaussian, fixed step"),
    "fixed_noise_fixed_step": dict(color="tab:purple", ls="--", label="control: fixed noise, fixed step"),
    "laplace_l1": dict(color="tab:blue", ls="--", label="control: Laplace, lambda n^(1/2)"),
    "gaussian_as_laplace": dict(color="tab:orange", ls="--", label="control: Gaussian, sigma = lambda"),
    "gaussian_as_laplace_l1": dict(color="tab:orange", ls=":", label="control: Gaussian, sigma = lambda n^(1/2)"),
    "laplace_eps_sq": dict(color="tab:blue", ls="--", label="control: lambda ~ 1/eps^2"),
    "gaussian_eps_sq": dict(color="tab:green", ls="--", label="control: sigma ~ 1/eps^2"),
    "offset_losses": dict(color="tab:brown", ls="--", label="control: losses + 2 L D"),
    "none_slow_zeta": dict(color="k", ls=(0, (1, 1)), label="near-miss control: zeta ~ T^(-1/10)"),
    "fixed_noise_slow_zeta": dict(color="tab:purple", ls=(0, (1, 1)), label="near miss: fixed noise, zeta ~ T^(-1/10)"),
    "laplace_slow_zeta": dict(color="tab:blue", ls=(0, (1, 1)), label="near miss: Laplace, zeta ~ T^(-1/20)"),
    "gaussian_slow_zeta": dict(color="tab:green", ls=(0, (1, 1)), label="near miss: Gaussian, zeta ~ T^(-1/20)"),
    "none_switching_slow_zeta": dict(color="tab:olive", ls=(0, (1, 1)), label="near miss: switching, zeta ~ T^(-1/20)"),
    "frozen": dict(color="0.5", ls="-.", label="non-learner: frozen at the centre"),
    "frozen_switching": dict(color="tab:olive", ls="-.", label="non-learner: frozen at the centre, switching"),
}


def _curve(ax, d: pd.DataFrame, x: str, col: str, alpha: float, **kw):
    xs = np.sort(d[x].unique())
    if xs.size == 0:
        return
    st = [mean_ci(d[d[x] == v][col], alpha) for v in xs]
    m = np.array([s[0] for s in st])
    lo = np.array([s[1] for s in st])
    hi = np.array([s[2] for s in st])
    ok = m > 0
    if not ok.any():
        return
    line, = ax.plot(xs[ok], m[ok], marker="o", ms=3, **kw)
    ax.fill_between(xs[ok], np.maximum(lo[ok], m[ok] / 10), hi[ok], color=line.get_color(), alpha=0.2, lw=0)


def _ref(ax, xs, y0, a, label, ls=":"):
    xs = np.asarray(sorted(xs), dtype=float)
    ax.plot(xs, y0 * (xs / xs[0]) ** a, color="0.5", ls=ls, lw=0.9, label=label)


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _trivial_share(p: dict) -> float:
    """The regime's largest regret share of the frozen centre's (config regime.trivial_share_max)."""
    return float(p.get("regime", {}).get("trivial_share_max", 0.5))


def _regret_vs_T(rates: pd.DataFrame, p: dict, alpha: float, path: str) -> None:
    """1. Regret vs T on each rate domain, with slopes 3/4 and 1 drawn from the noise-free run."""
    doms = [d for d in ("simplex", "spanning_tree") if d in set(rates.domain)]
    fig, axes = plt.subplots(1, len(doms), figsize=(6 * len(doms), 4.6), squeeze=False)
    for ax, dom in zip(axes[0], doms):
        r = rates[rates.domain == dom]
        for alg in [a for a in STYLE if a in set(r.alg) and a != "offset_losses"]:
            _curve(ax, r[r.alg == alg], "T", "regret", alpha, **STYLE[alg])
        none = r[r.alg == "none"].groupby("T").regret.mean()
        _ref(ax, none.index, none.iloc[0], 0.75, "slope 3/4")
        _ref(ax, none.index, none.iloc[0], 1.0, "slope 1", ls="-.")
        n_, dim = int(r.n.iloc[0]), int(r.dim.iloc[0])
        name = (f"simplex, {n_} coordinates (n = {dim})" if dom == "simplex"
                else f"spanning trees of K_{p['tree_nodes']} (n = {dim})")
        ax.set(xscale="log", yscale="log", xlabel="T", ylabel="regret (mean, CI band)", title=name)
    axes[0][0].legend(fontsize=6.5, loc="upper left")
    fig.suptitle(f"PRIVATEBANDIT, f_t = L||x - v_1|| (v_1 a vertex); Laplace eps = {p['eps_rate_laplace']:g}, "
                 f"Gaussian eps = {p['eps_rate_gaussian']:g}, delta = {p['delta']:g}", fontsize=9)
    _save(fig, path)


def _gap_vs_n(nt: pd.DataFrame, p: dict, alpha: float, path: str) -> None:
    """2. The privacy gap vs n (both noises and their controls), the regime line and reference slopes."""
    g = paired_gap(nt, ["dim", "replicate"])  # gap = regret - the noise-free run's (alg "none")
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    for alg in ("laplace", "gaussian", "laplace_l1", "gaussian_as_laplace", "gaussian_as_laplace_l1"):
        _curve(ax, g[g.alg == alg], "dim", "gap", alpha, **STYLE[alg])
    share = _trivial_share(p)
    fz = nt[nt.alg == "frozen"].groupby("dim").regret.mean()
    if len(fz):  # a gap above this line leaves the regime where the learner learns
        ax.plot(fz.index, share * fz.to_numpy(), color="0.5", ls="-.", lw=0.9,
                label=f"{share:g} x the frozen centre's regret")
    dims = np.sort(g.dim.unique())
    lap = g[g.alg == "laplace"].groupby("dim").gap.mean()
    if len(lap) and lap.iloc[0] > 0:
        for a, ls in ((1.5, ":"), (1.0, "-."), (0.5, "--")):
            _ref(ax, dims, lap.iloc[0], a, f"slope {a:g}", ls=ls)
    ax.set(xscale="log", yscale="log", xlabel="n (dimension)", ylabel="private - non-private regret",
           title=f"T = {p['T_n']}, Laplace eps = {p['eps_n_laplace']:g}, Gaussian eps = {p['eps_n_gaussian']:g}")
    ax.legend(fontsize=6.5)
    _save(fig, path)


def _gap_vs_eps(et: pd.DataFrame, p: dict, alpha: float, path: str) -> None:
    """3. The privacy gap vs eps, one panel per noise, with 1/eps and the regime line."""
    share = _trivial_share(p)
    g = paired_gap(et, ["replicate"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    for ax, kind in zip(axes, ("laplace", "gaussian")):
        for alg in (kind, f"{kind}_eps_sq"):
            _curve(ax, g[g.alg == alg], "eps", "gap", alpha, **STYLE[alg])
        m = g[g.alg == kind].groupby("eps").gap.mean()
        if len(m):
            xs = np.array(m.index, dtype=float)
            ax.plot(xs, m.iloc[-1] * (xs[-1] / xs), color="0.5", ls=":", lw=0.9, label="1/eps")
            fz = et[et.alg == "frozen"].regret.mean()
            if fz == fz:  # a gap above this line leaves the regime where the learner learns
                ax.axhline(share * fz, color="0.5", ls="-.", lw=0.9, label=f"{share:g} x the frozen centre's regret")
        ax.set(xscale="log", yscale="log", xlabel="eps", ylabel="private - non-private regret",
               title=f"{kind}, T = {p['T_eps']}, n = {p['dim_eps']}")
        ax.legend(fontsize=7)
    _save(fig, path)


def _cost(cost: pd.DataFrame, p: dict, path: str) -> None:
    """4. Cost: oracle calls and wall time per step against the projection baseline."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    c = cost.assign(calls_per_step=cost.oracle_calls / cost["T"], proj_per_step=cost.projections / cost["T"],
                    us_per_step=1e6 * cost.wall_time / cost["T"])
    run = c.groupby(["domain", "n", "alg"]).first().reset_index()  # one value per run
    for dom, mk in (("simplex", "o"), ("l1ball", "s")):
        d = run[run.domain == dom]
        fw, pr, two = d[d.alg == "fw"], d[d.alg == "projection"], d[d.alg == "fw_two_calls"]
        axes[0].plot(fw.n, fw.calls_per_step, marker=mk, color="tab:blue", label=f"{dom}: LMO calls / step (Alg. 1)")
        axes[0].plot(pr.n, pr.proj_per_step, marker=mk, color="tab:orange",
                     label=f"{dom}: projections / step (baseline)")
        axes[0].plot(two.n, two.calls_per_step, marker=mk, color="tab:red", ls="--", label=f"{dom}: control, two calls")
        axes[1].plot(fw.n, fw.us_per_step, marker=mk, color="tab:blue", label=f"{dom}: Algorithm 1")
        axes[1].plot(pr.n, pr.us_per_step, marker=mk, color="tab:orange", label=f"{dom}: projection baseline")
    axes[0].set(xscale="log", yscale="log", xlabel="coordinates", ylabel="per bandit step",
                title=f"oracle calls vs projections, T = {p['T_cost']}")
    axes[1].set(xscale="log", yscale="log", xlabel="coordinates", ylabel="wall time per step (us, all replicates)",
                title="wall time (one measurement, machine-dependent)")
    axes[0].legend(fontsize=6.5)
    axes[1].legend(fontsize=6.5)
    _save(fig, path)


def _bounds(rates: pd.DataFrame, oco: pd.DataFrame, p: dict, path: str) -> None:
    """5. Measured / bound: Lemma C.2, Corollary C.5 (per round, max over rounds of the mean), Lemma 4.1."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
    for ax, col, bcol, title in ((axes[0], "c2_rounds", "c2_bound", "Lemma C.2: max_R E||g~_R||^2 / bound"),
                                 (axes[1], "c5_rounds", "c5_bound", "Corollary C.5: max_R E||x^_R - x~_R|| / bound")):
        shown = rates[rates[col].notna() & (rates.alg != ("offset_losses" if col == "c5_rounds" else ""))]
        for (dom, alg), d in shown.groupby(["domain", "alg"]):
            pts = []
            for T, gT in d.groupby("T"):
                vals = np.stack(gT[col].to_list())
                if vals.size:
                    pts.append((T, vals.mean(axis=0).max() / gT[bcol].iloc[0]))
            if pts:
                st = STYLE.get(alg, dict(label=alg))
                kw = {k: v for k, v in st.items() if k != "label"}
                ax.plot(*zip(*pts), marker="o" if dom == "simplex" else "s", ms=3,
                        label=f"{st.get('label', alg)} ({dom})", **kw)
        ax.axhline(1.0, color="k", lw=0.8)
        ax.set(xscale="log", yscale="log", xlabel="T", ylabel="measured / bound", title=title)
        ax.legend(fontsize=5.5)
    for alg, d in oco.groupby("alg"):
        for gamma, dg in d.groupby("gamma"):
            m = dg.groupby("T").apply(lambda z: z.regret.mean() / z.bound.mean(), include_groups=False)
            axes[2].plot(m.index, m.to_numpy(), marker="o", ms=3,
                         ls={"printed_eta": "--", "frozen": "-."}.get(alg, "-"),
                         label=f"{alg}, gamma = {gamma:g}")
    axes[2].axhline(1.0, color="k", lw=0.8)
    axes[2].set(xscale="log", yscale="log", xlabel="T", ylabel="E regret / (1.5 sqrt(T) kappa D_omega + T kappa gamma)",
                title=f"Lemma 4.1, NOISYOCO on the l1 ball (rho = {p['rho_oco']:g})")
    axes[2].legend(fontsize=6.5)
    _save(fig, path)


def env21_figures(tables: dict[str, pd.DataFrame], p: dict, alpha: float, outputs: list[str]) -> None:
    """The five figures of :data:`FIGURES`, in order, to ``outputs``."""
    rates, nt, et, cost, oco = (tables[k] for k in ("rates", "n", "eps", "cost", "noisyoco"))
    _regret_vs_T(rates, p, alpha, outputs[0])
    _gap_vs_n(nt, p, alpha, outputs[1])
    _gap_vs_eps(et, p, alpha, outputs[2])
    _cost(cost, p, outputs[3])
    _bounds(rates, oco, p, outputs[4])

draw = env21_figures  # the plot job of the generic rules (dpregret.pipeline.jobs.plot): draw(tables, p, alpha, outputs)
