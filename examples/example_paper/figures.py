"""The example paper's figure: mean regret against T (log-log) with 95% bands, the bound drawn in."""
import numpy as np

from dpregret.core.plotting import Figure

from .bounds import bound_thm_2_2

# plot group (the scenario) -> (its directory under figures/, its figures in the order draw writes them,
# each with the claims it shows)
FIGURES = {"cbl06_hedge": ("cbl06_hedge", (Figure("cbl06_regret_vs_T", ("CBL06-thm2.2-bound",)),))}


def draw(tables, p, alpha, outputs):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from scipy import stats

    runs = tables["runs"]
    fig, ax = plt.subplots(figsize=(5, 3.6))
    for alg, label in (("hedge", "Hedge, eta = sqrt(8 ln N / T)"), ("hedge_no8", "near miss: eta = sqrt(ln N / T)"),
                       ("uniform", "uniform weights (non-learner)")):
        g = runs[runs.alg == alg].groupby("T")["regret"]
        m, s, n = g.mean(), g.std(ddof=1), g.count()
        h = stats.t.ppf(1 - alpha / 2, n - 1) * s / np.sqrt(n)
        ax.plot(m.index, m, marker="o", label=label)
        ax.fill_between(m.index, m - h, m + h, alpha=0.25)
    T = np.array(sorted(p["T"]))
    ax.plot(T, [bound_thm_2_2(p["N"], t) for t in T], "k--", label="Theorem 2.2: sqrt((T/2) ln N)")
    ax.set(xscale="log", yscale="log", xlabel="T", ylabel="regret", title="Hedge (Cesa-Bianchi and Lugosi 2006)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(outputs[0], dpi=120)
    plt.close(fig)
