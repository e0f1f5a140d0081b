"""Zhang, Tran, Cutkosky 2022's mutants: realistic bugs of Algorithm 1 (Sec. 2: :func:`.o2b.run`'s
update, eq. (6)'s sensitivity ``sensitivity_eq6`` of Theorem 3; Sec. 4: the regularised losses of
Lemma 7) and of the one-pass DP-SGD baseline's noise (:mod:`.dpsgd`), each a small edit of this
folder's code, with the claims that must catch it.  Plain data (a
``dpregret.pipeline.mutation.registry.Mutant``'s fields, an edit as ``(target, old, new)``): the mutation
registry, in the pipeline, builds them and places each at its place in its list.  The mutants of the
paper's shared learners (``dpregret.core.learners.oco``: Remark 5's OGD, optimistic OGD, OSD, the
parameter-free learner, whose coin-sign mutant also edits :func:`.o2b_jit.linear_pf_block`), of
``dpregret.core.tree`` and of the mechanisms stay in the registry."""

MUTANTS = [
    dict(
        name="ztc-sensitivity-t-power-off", paper="ZTC22", category="accounting",
        doc="sensitivity_eq6 uses t^(k-2) instead of t^(k-1): the bound beta_{t-1} beta_t / beta_{1:t} <= "
            "(k+1) t^(k-1) transcribed one power of t too low. With k = 1 the noise of step t shrinks as "
            "1/t while the sensitivity of delta_t does not: eq. (6) no longer covers it after the first "
            "step.",
        targets=("ZTC-thm3-sensitivity", "AUDIT-ztc-thm3-o2b"),
        edits=(
            ("dpregret.papers.ztc22.o2b:sensitivity_eq6",
             "t ** (k - 1)",
             "t ** (k - 2)"),
        ),
    ),
    dict(
        name="ztc-sensitivity-missing-2", paper="ZTC22", category="accounting",
        doc="sensitivity_eq6 drops the leading factor 2 of Delta_t = 2 (k+1) t^(k-1) (G + H max ||w_i - "
            "x_{i-1}||): the 2 comes from the two samples z_t, z'_t of replace-one neighbours, the "
            "classic factor lost when one bounds a single gradient. sigma_t is halved.",
        targets=("ZTC-thm3-sensitivity", "AUDIT-ztc-thm3-o2b"),
        edits=(
            ("dpregret.papers.ztc22.o2b:sensitivity_eq6",
             "2.0 * (k + 1) * t",
             "(k + 1) * t"),
        ),
    ),
    dict(
        name="ztc-noise-first-round-only", paper="ZTC22", category="learner",
        doc="Algorithm 1 (o2b.run) adds gamma_t = NOISE(t) only at t = 1 and releases g_t unnoised "
            "afterwards (a guard 'if t == 1' left from initialising the tree). Every later release is an "
            "exact function of the data.",
        targets=("AUDIT-ztc-thm3-o2b",),
        edits=(
            ("dpregret.papers.ztc22.o2b:run",
             "noise = tree.step(noise_factor * Delta * math.sqrt(math.log2(2 * T)) / rho)",
             "noise = tree.step(noise_factor * Delta * math.sqrt(math.log2(2 * T)) / rho) if t == 1 else 0.0"),
        ),
    ),
    dict(
        name="ztc-o2b-fresh-second-sample", paper="ZTC22", category="learner",
        doc="Algorithm 1 (o2b.run) evaluates the second gradient of delta_t on the next sample, beta_t "
            "grad l(x_t, z_t) - beta_{t-1} grad l(x_{t-1}, z_{t+1}), instead of on the same z_t: g_t "
            "stays unbiased, but its sampling noise no longer telescopes (t^(k+1/2) instead of "
            "t^(k-1/2)).",
        targets=("ZTC-vs-dpsgd",),
        edits=(
            ("dpregret.papers.ztc22.o2b:run",
             "delta = b_t * gx - (b_prev * problem.grad(x_prev, z) if t > 1 else 0.0)",
             "delta = b_t * gx - (b_prev * problem.grad(x_prev, sample()) if t > 1 else 0.0)"),
        ),
    ),
    dict(
        name="ztc-o2b-increment-not-sum", paper="ZTC22", category="learner",
        doc="Algorithm 1 (o2b.run) hands the learner the increment delta_t instead of the running sum g_t "
            "= g_{t-1} + delta_t (the accumulation dropped): the learner no longer sees beta_t grad "
            "l(x_t, z_t).",
        targets=("ZTC-vs-dpsgd",),
        edits=(
            ("dpregret.papers.ztc22.o2b:run",
             "delta = b_t * gx - (b_prev * problem.grad(x_prev, z) if t > 1 else 0.0)\n            g = g + delta",
             "delta = b_t * gx - (b_prev * problem.grad(x_prev, z) if t > 1 else 0.0)\n            g = delta"),
        ),
    ),
    dict(
        name="ztc-sigma-t-power-up", paper="ZTC22", category="accounting",
        doc="sensitivity_eq6 uses t^k instead of t^(k-1): beta_{t-1} beta_t / beta_{1:t} bounded by (k+1) "
            "t^k, one power of t too high. Too much noise: sigma_t grows like beta_t, so the noise no "
            "longer vanishes in x_t.",
        targets=("ZTC-vs-dpsgd",),
        edits=(
            ("dpregret.papers.ztc22.o2b:sensitivity_eq6",
             "t ** (k - 1)",
             "t ** k"),
        ),
    ),
    dict(
        name="ztc-eq6-no-smoothness-term", paper="ZTC22", category="accounting",
        doc="sensitivity_eq6 drops the smoothness term H max ||w_i - x_{i-1}|| of Delta_t (Lipschitz "
            "only: ||grad l(x, z) - grad l(x, z')|| <= 2G bounded, the move of x_t between the two "
            "gradients of delta_t forgotten). Too little noise once the learner moves.",
        targets=("AUDIT-ztc-thm3-o2b",),
        edits=(
            ("dpregret.papers.ztc22.o2b:sensitivity_eq6",
             "(G + H * maxdist)",
             "(G + 0.0 * maxdist)"),
        ),
    ),
    dict(
        name="ztc-sc-regulariser-sign", paper="ZTC22", category="learner",
        doc="o2b.run feeds the strongly convex learner g~_t - beta_t mu / 2 (w - x_t) instead of + beta_t "
            "mu / 2 (w - x_t): the gradient of Lemma 7's regulariser beta_t mu / 4 ||w - x_t||^2 with its "
            "sign flipped (taken from ||x_t - w||^2 differentiated in x_t), so the regulariser pushes w "
            "away from x_t.",
        targets=("ZTC-rem9-rate-T-stat",),
        edits=(
            ("dpregret.papers.ztc22.o2b:run",
             "full = ghat + b_t * problem.mu / 2 * (w - x)",
             "full = ghat - b_t * problem.mu / 2 * (w - x)"),
        ),
    ),
    dict(
        name="dpsgd-noise-missing-2", paper="ZTC22", category="accounting",
        doc="run_dpsgd adds noise of scale G / rho instead of 2 G / rho: one clipped gradient's "
            "add/remove sensitivity G taken for the replace-one 2G. Too little noise: the baseline is "
            "compared at a weaker privacy than Algorithm 1. (ZTC-vs-dpsgd is measured blind to it: "
            "Algorithm 1 still wins by 0.021, 0.046 unpatched; not a target.)",
        targets=("AUDIT-ztc-dpsgd",),
        edits=(
            ("dpregret.papers.ztc22.dpsgd:run_dpsgd",
             "s = 2.0 * G / rho if math.isfinite(rho) else 0.0",
             "s = G / rho if math.isfinite(rho) else 0.0"),
        ),
    ),
    dict(
        name="dpsgd-noise-composed", paper="ZTC22", category="accounting",
        doc="run_dpsgd adds noise of scale 2 G sqrt(T) / rho: the baseline calibrated for the composition "
            "of T steps that each touch every record (full-batch DP-GD), although one-pass DP-SGD uses "
            "each record once. Too much noise: the baseline is handicapped (ZTC-vs-dpsgd cannot see it: a "
            "handicapped baseline only widens Algorithm 1's lead, 0.130 against 0.046; AUDIT-ztc-dpsgd's "
            "scale check sees the realised noise off its formula).",
        targets=("AUDIT-ztc-dpsgd",),
        edits=(
            ("dpregret.papers.ztc22.dpsgd:run_dpsgd",
             "s = 2.0 * G / rho if math.isfinite(rho) else 0.0",
             "s = 2.0 * G * math.sqrt(T) / rho if math.isfinite(rho) else 0.0"),
        ),
    ),
]

# Every learner of this paper, and the mutants of its update and of its calibration (too much and too little
# noise): mutant names (this folder's or the registry's), or a string saying why there is none (a learner
# whose noise is another learner's names that learner under "noise"); the registry's COVERAGE collects them.
COVERAGE = {
    "ZTC22 Algorithm 1 (online-to-batch) with Remark 5's OGD": {
        "update": ("ztc-ogd-update-sign", "ztc-ogd-step-missing-sqrt", "ztc-o2b-fresh-second-sample",
                   "ztc-o2b-increment-not-sum"),
        "too much noise": ("ztc-sigma-t-power-up",),
        "too little noise": ("ztc-sensitivity-missing-2", "ztc-sensitivity-t-power-off", "ztc-eq6-no-smoothness-term",
                             "ztc-noise-first-round-only", "ztc-tree-noise-not-aggregated",
                             "gaussian-sigma-as-variance")},
    "ZTC22 optimistic OGD (Theorem 6)": {
        "update": ("ztc-optimistic-update-sign", "ztc-optimistic-hint-step-dropped"),
        "noise": "ZTC22 Algorithm 1 (online-to-batch) with Remark 5's OGD"},
    "ZTC22 strongly convex OSD (Remark 9)": {
        "update": ("ztc-osd-update-sign", "ztc-sc-regulariser-sign"),
        "noise": "ZTC22 Algorithm 1 (online-to-batch) with Remark 5's OGD"},
    "ZTC22 parameter-free learner (section 5)": {
        "update": ("ztc-pf-coin-sign",),
        "noise": "ZTC22 Algorithm 1 (online-to-batch) with Remark 5's OGD"},
    "ZTC22 DP-SGD baseline": {
        "update": "none registered: any bug of its update that handicaps the baseline is invisible to the one claim "
                  "that reads it (ZTC-vs-dpsgd: a handicapped baseline only widens Algorithm 1's lead); its noise is "
                  "audited both ways by AUDIT-ztc-dpsgd",
        "too much noise": ("dpsgd-noise-composed",),
        "too little noise": ("dpsgd-noise-missing-2",)},
}
