"""Ene, Nguyen, Vladu 2021's mutants: realistic bugs of PRIVATEBANDIT (Algorithm 1, section 3: line
14's sign, the released sums it must step on, its Frank-Wolfe step and smoothing radius) and of
NOISYOCO (Algorithm 2, section 4.1: its step and mirror sign), each a small edit of :mod:`.learners`,
:mod:`.jit` or :mod:`.noisy_oco`, with the claims that must catch it.  Plain data (a
``dpregret.pipeline.mutation.registry.Mutant``'s fields, an edit as ``(target, old, new)``): the mutation
registry, in the pipeline, builds them, each group at its place in the registry's order.  The
mutants of the paper's noise calibrations (Lemmas 5.1, 5.4: ``dpregret.core.calibration``) and of the
simplex's oracle (``env-lmo-argmax``, which also edits ``dpregret.core.environments.polytopes``) edit
shared modules and stay in the registry."""

# Algorithm 1's logic: line 14 as printed, and a learner that steps on the exact sums
# (the registry's section of learner and algorithm logic)
ALGORITHM1_LOGIC = [
    dict(
        name="env-line14-printed-sign", paper="ENV21", category="learner",
        doc="frank_wolfe_step minimises ||x||^2/2 - <eta s, x> (line 14 of Algorithm 1 as printed, an erratum) instead "
            "of ||x||^2/2 + <eta s, x>: the Frank-Wolfe target is Proj(+eta s), gradient ascent on the losses (numpy "
            "step and compiled rounds alike).",
        targets=("ENV-corC.5-bound",),
        edits=(("dpregret.papers.env21.learners:frank_wolfe_step", "grad = z + lin", "grad = z - lin"),
               ("dpregret.papers.env21.jit:fw_round", "grad[j] = z[b, j] + lin[b, j]",
                "grad[j] = z[b, j] - lin[b, j]")),
    ),
    dict(
        name="env-learner-reads-exact-sums", paper="ENV21", category="learner",
        doc="PRIVATEBANDIT steps on the exact prefix sum of the batch gradients: the tree's noisy release s~_R is "
            "computed, "
            "recorded and published, but the Frank-Wolfe target uses tree.true_sum. The releases are private, the "
            "iterates (and the points played) are not.",
        targets=("AUDIT-env-lemma5.1-releases",),
        edits=(("dpregret.papers.env21.learners:_run", "S = rel @ Q.T", "S = tree.true_sum @ Q.T"),),
        known_missed=(
            "AUDIT-env-lemma5.1-releases scores the released round sums s~_R, which stay correctly noised; the "
            "iterates x~_R and the points played, exact functions of the data under this bug, are not audited "
            "(verdict.privacy says so); regret claims cannot see it (less noise, lower regret)"
        ),
    ),
]

# Algorithm 1's update with one Frank-Wolfe step per query: the step and the smoothing radius
# (the registry's section of every paper's learner updates)
ALGORITHM1_UPDATE = [
    dict(
        name="env-fw-no-line-search", paper="ENV21", category="learner",
        doc="PRIVATEBANDIT's Frank-Wolfe iteration steps all the way to the oracle's vertex (gamma = 1) instead of the "
            "exact line search clip(<grad, z - v> / ||z - v||^2, 0, 1) (the textbook step 2/(k+2) at k = 0), in the "
            "numpy step and the compiled rounds alike: every round plays a vertex of K.",
        targets=("ENV-lemma3.1-rate-T-interior", "ENV-lemma3.1-rate-T", "ENV-corC.5-bound"),
        edits=(("dpregret.papers.env21.learners:frank_wolfe_step",
                "gam = np.clip(np.divide(num, den, out=np.zeros(len(z)), where=den > 0), 0.0, 1.0)",
                "gam = np.where(den > 0, 1.0, 0.0)"),
               ("dpregret.papers.env21.jit:fw_round", "gam = min(max(num / den, 0.0), 1.0)", "gam = 1.0")),
    ),
    dict(
        name="env-zeta-grows-with-T", paper="ENV21", category="learner",
        doc="algorithm1_parameters sets zeta = D n^(1/2) T^(1/4) instead of D n^(1/2) / T^(1/4): the smoothing radius "
            "multiplied by T^(1/4) where it is divided. The queries x + zeta u move ever further from the played "
            "point, and the smoothing cost T L zeta grows as T^(5/4).",
        targets=("ENV-lemma3.1-rate-T",),
        edits=(("dpregret.papers.env21.learners:algorithm1_parameters", "return D * math.sqrt(n) / T**0.25",
                "return D * math.sqrt(n) * T**0.25"),),
    ),
    dict(
        name="env-eta-T-exponent-one", paper="ENV21", category="learner",
        doc="algorithm1_parameters sets eta = D / (T n^(1/2) L) instead of D / (T^(3/4) n^(1/2) L): the step's "
            "exponent in T one notch off (the 1/T step of a method tuned per step, not per batch of T^(1/2) steps). "
            "The learning transient D / (eta L) grows as T: the learning regret (regret minus the oracle at v_1's T L "
            "zeta) grows almost linearly.",
        targets=("ENV-lemma3.1-rate-T",),
        edits=(("dpregret.papers.env21.learners:algorithm1_parameters", "D / (T**0.75 * math.sqrt(n) * L)",
                "D / (T * math.sqrt(n) * L)"),),
    ),
]

# NOISYOCO (Algorithm 2, Lemma 4.1): its step and the mirror step's sign
NOISYOCO = [
    dict(
        name="noisyoco-printed-eta", paper="ENV21", category="learner",
        doc="NOISYOCO's default step is Algorithm 2's line 1 as printed, eta = D_omega^(1/2) / (kappa T^(1/2)), "
            "instead of the 2 D_omega / (kappa T^(1/2)) of Appendix B step (4) (not homogeneous in D_omega).",
        targets=("ENV-lemma4.1-bound",),
        edits=(("dpregret.papers.env21.noisy_oco:noisy_oco",
                "eta = 2.0 * domain.D_omega / (kappa * math.sqrt(T)) if eta is None",
                "eta = math.sqrt(domain.D_omega) / (kappa * math.sqrt(T)) if eta is None"),),
    ),
    dict(
        name="noisyoco-mirror-sign", paper="ENV21", category="learner",
        doc="NOISYOCO plays Proj_K(+eta s) instead of grad omega*(-eta s) = Proj_K(-eta s): the mirror step's sign "
            "(the slip of Algorithm 1's line 14 as printed).",
        targets=("ENV-lemma4.1-bound",),
        edits=(("dpregret.papers.env21.noisy_oco:noisy_oco", "x = domain.project(-eta * s)",
                "x = domain.project(eta * s)"),),
    ),
]

MUTANTS = ALGORITHM1_LOGIC + ALGORITHM1_UPDATE + NOISYOCO

# Every learner of this paper, and the mutants of its update and of its calibration (too much and too little
# noise): mutant names (this folder's or the registry's), or a string saying why there is none (a learner
# whose noise is another learner's names that learner under "noise"); the registry's COVERAGE collects them.
COVERAGE = {
    "ENV21 PRIVATEBANDIT with Frank-Wolfe": {
        "update": ("env-line14-printed-sign", "env-zeta-grows-with-T", "env-fw-no-line-search",
                   "env-eta-T-exponent-one",
                   "env-lmo-argmax", "env-learner-reads-exact-sums"),
        "too much noise": ("env-lambda-batches-as-steps", "env-gaussian-sigma-T-power"),
        "too little noise": ("env-lambda-missing-log",)},
    "ENV21 NOISYOCO (Algorithm 2)": {
        "update": ("noisyoco-printed-eta", "noisyoco-mirror-sign"),
        "noise": "its (kappa, gamma)-noisy oracle is Lemma 4.1's assumption, not a calibration"},
}
