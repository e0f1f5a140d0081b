"""Agarwal and Singh 2017's mutants: realistic bugs of this folder's learners and their calibrations --
Algorithm 1's exponential weights (:mod:`.ftrl`, section 3), its experts rounds (:mod:`.scenario_experts`),
the sphere / cube FTRL and FTPL (:mod:`.olo`: Corollary 3.2 items 2-3, Theorem 3.5), Algorithm 4 around
EXP2 (:mod:`.bandits`, :mod:`.exp2_jit`: section 4.1, Theorem 4.1) and around SCRiBLe (:mod:`.scrible`,
:mod:`.scrible_jit`: section 4.2, Theorem 4.5) -- each a small edit of this folder's code, with the
claims that must catch it.  Plain data (a ``dpregret.pipeline.mutation.registry.Mutant``'s fields, an edit as
``(target, old, new)``): the mutation registry, in the pipeline, builds them and places each at its
place in its list.  The mutants of the shared ``dpregret.core.tree``, ``dpregret.core.calibration`` and
``dpregret.core.mechanisms`` that concern the paper stay in the registry."""

MUTANTS = [
    dict(
        name="olo-lambda-l1-norm-not-diameter", paper="AS17", category="accounting",
        doc="laplace_scale_cor3_2 uses ||Y||_1 (as printed in Corollary 3.2) instead of the l1 diameter 2 ||Y||_1 "
            "that replace-one neighbours need (l' = -l): the add/remove sensitivity used for a replace-one "
            "definition. The sphere and cube learners of Table 1 are then 2 eps-DP (less noise only lowers their "
            "regret: the Table 1 rate claims cannot see it; AUDIT-as17-cor3.2-olo-tree audits their tree at the "
            "scenario's scale).",
        targets=("AUDIT-as17-cor3.2-olo-tree",),
        edits=(
            ("dpregret.papers.as17.olo:laplace_scale_cor3_2",
             "return 2.0 * _y_l1(domain, N) * nodes_covering_leaf(T) / eps",
             "return _y_l1(domain, N) * nodes_covering_leaf(T) / eps"),
        ),
    ),
    dict(
        name="exp2-kernel-noise-round-index", paper="AS17", category="kernel",
        doc="exp2_block reads the Laplace noise as Z[r, 0] instead of Z[r, s]: the round index is dropped "
            "(natural when the kernel was first written for one round per call), so one noise vector is reused "
            "for every round of a block. The numpy twin (PrivateFeedback) draws fresh noise each round. A fixed "
            "bias per arm misleads EXP2 and the noise no longer protects later rounds.",
        targets=("AS17-T2-mab-rate-T", "AUDIT-as17-lemma4.2-bandit"),
        edits=(
            ("dpregret.papers.as17.exp2_jit:exp2_block",
             ("z = lm * (Z[r, s, j] + bias[b, j])", "lm * (Z[r, s, arm] + bias[b, arm])"),
             ("z = lm * (Z[r, 0, j] + bias[b, j])", "lm * (Z[r, 0, arm] + bias[b, arm])")),
        ),
    ),
    dict(
        name="exp2-kernel-noise-not-forwarded", paper="AS17", category="kernel",
        doc="exp2_block computes the noise (and accumulates it for Lemma 4.3's noisy regret) but forwards the raw "
            "loss l[arm] to the EXP2 update: in a fused kernel the noise term is easily left out of the one "
            "expression that matters. The numpy twin forwards l[arm] + Z[arm]. Regret only improves, so no regret "
            "claim can see it.",
        targets=("AUDIT-as17-lemma4.2-bandit",),
        edits=(
            ("dpregret.papers.as17.exp2_jit:exp2_block",
             "value = L[r, s, arm] + lm * (Z[r, s, arm] + bias[b, arm])",
             "value = L[r, s, arm]"),
        ),
    ),
    dict(
        name="scrible-kernel-estimate-sign", paper="AS17", category="kernel",
        doc="scrible_block adds -N v eps_i lambda_i^(1/2) e_i to S instead of +: the sign of the one-point "
            "estimate is flipped (the perturbation direction taken from the reflected point), so SCRiBLe ascends "
            "the loss.",
        targets=("AS17-T2-blo-ball-rate-T", "AS17-thm4.5-bound"),
        edits=(
            ("dpregret.papers.as17.scrible_jit:scrible_block",
             "coef = N * sign * root * v",
             "coef = -N * sign * root * v"),
        ),
    ),
    dict(
        name="scrible-kernel-lambda-by-replicate", paper="AS17", category="kernel",
        doc="scrible_block scales the noise by lam[r] (the replicate index) instead of lam[b] (the batch row): "
            "rows are b = k R + r, and r is the index the kernel uses for every other per-replicate array. Every "
            "private row then forwards the noise of the first algorithm's rows: none at all when that is the "
            "non-private SCRiBLe, as in the scenario.",
        targets=("AUDIT-as17-lemma4.2-bandit",),
        edits=(
            ("dpregret.papers.as17.scrible_jit:scrible_block",
             "v += (L[r, s, j] + lam[b] * Z[r, s, j])",
             "v += (L[r, s, j] + lam[r] * Z[r, s, j])"),
        ),
    ),
    dict(
        name="feedback-raw-after-round-1", paper="AS17", category="learner",
        doc="PrivateFeedback (Algorithm 4) forwards l_t + Z_t only in the first round and the raw loss from round "
            "2 on; Z_t is still drawn and stored in .z, so every log and the Lemma 4.3 bookkeeping look right (a "
            "refactor that moved the noise addition into the first-round branch).",
        targets=("AUDIT-as17-lemma4.2-bandit",),
        edits=(
            ("dpregret.papers.as17.bandits:PrivateFeedback.update",
             "self.inner.update(value + self.z[rows, self.inner.arm])",
             "first = not self.__dict__.get('_fed', False)\n    self._fed = True\n    self.inner.update(value + "
             "self.z[rows, self.inner.arm] if first else value)"),
        ),
    ),
    dict(
        name="experts-eta-sqrt-T-dropped", paper="AS17", category="learner",
        doc="eta_thm34 returns sqrt(log N) / T instead of sqrt(log N / T): the square root closes one symbol "
            "early, a step size one power of T off. Exponential weights barely move, so the regret grows "
            "linearly.",
        targets=("AS17-cor3.2-regret-rate-T",),
        edits=(
            ("dpregret.papers.as17.ftrl:eta_thm34",
             "return float(np.sqrt(np.log(N) / S))",
             "return float(np.sqrt(np.log(N)) / S)"),
        ),
    ),
    dict(
        name="exp2-eta-T-power", paper="AS17", category="learner",
        doc="exp2_params_thm4_1 sets eta = sqrt(log N / (2 N c)) / T instead of sqrt(log N / (2 N T c)): T taken "
            "out of the square root, one power of T off. gamma = eta N sqrt(c) shrinks with it, so EXP2 neither "
            "learns nor explores: linear regret.",
        targets=("AS17-T2-mab-rate-T",),
        edits=(
            ("dpregret.papers.as17.bandits:exp2_params_thm4_1",
             "eta = np.sqrt(np.log(N) / (2 * N * T * c))",
             "eta = np.sqrt(np.log(N) / (2 * N * c)) / T"),
        ),
    ),
    dict(
        name="experts-weights-sign", paper="AS17", category="learner",
        doc="The experts scenario's compiled rounds weight the experts by exp(+eta L~) instead of exp(-eta L~): "
            "the step's sign taken from the gains convention (w ~ exp(eta G)) while the learner is fed losses. "
            "Exponential weights then follow the worst expert.",
        targets=("AS17-cor3.2-regret-rate-T",),
        edits=(
            ("dpregret.papers.as17.scenario_experts:_rounds_compiled",
             "neg_eta = float(-np.asarray(eta, dtype=float))",
             "neg_eta = float(np.asarray(eta, dtype=float))"),
        ),
    ),
    dict(
        name="olo-ftrl-sign", paper="AS17", category="learner",
        doc="_QuadraticFTRL.play projects +eta L~ / 2 instead of -eta L~ / 2: argmin_X eta <x, L~> + ||x||^2 "
            "completed to ||x - eta L~ / 2||^2 (a sign slip in completing the square). FTRL moves with the "
            "losses.",
        targets=("AS17-T1-sphere-regret-rate-T", "AS17-T1-cube-regret-rate-T"),
        edits=(
            ("dpregret.papers.as17.olo:_QuadraticFTRL.play",
             "return self._project(-0.5 * self.eta * estimate)",
             "return self._project(0.5 * self.eta * estimate)"),
        ),
    ),
    dict(
        name="olo-eta-missing-sqrt", paper="AS17", category="learner",
        doc="eta_ftrl returns D_R / S instead of sqrt(D_R / S): the minimiser of D_R / eta + eta S written "
            "without its square root. At S = T / 2 the step is ~1/T: FTRL barely leaves the centre, linear "
            "regret.",
        targets=("AS17-T1-sphere-regret-rate-T", "AS17-T1-cube-regret-rate-T"),
        edits=(
            ("dpregret.papers.as17.olo:eta_ftrl",
             "return math.sqrt(V.positive(\"D_R\", D_R) / V.positive(\"S\", S))",
             "return V.positive(\"D_R\", D_R) / V.positive(\"S\", S)"),
        ),
    ),
    dict(
        name="olo-cube-clip-unit-interval", paper="AS17", category="learner",
        doc="CubeFTRL projects onto [0, 1]^N instead of [-1, 1]^N (np.clip(y, 0, 1), the unit-interval habit of "
            "probability vectors): the learner never plays a negative coordinate.",
        targets=("AS17-T1-cube-regret-rate-T",),
        edits=(
            ("dpregret.papers.as17.olo:CubeFTRL._project",
             "return np.clip(y, -1.0, 1.0)",
             "return np.clip(y, 0.0, 1.0)"),
        ),
    ),
    dict(
        name="olo-ball-projection-squared-norm", paper="AS17", category="learner",
        doc="BallFTRL projects y / max(1, ||y||^2) instead of y / max(1, ||y||): the norm computed squared (to "
            "save the square root) and used as the norm. Outside the ball the iterate lands at radius 1/||y||: "
            "the larger the evidence, the closer to the centre.",
        targets=("AS17-T1-sphere-regret-rate-T",),
        edits=(
            ("dpregret.papers.as17.olo:BallFTRL._project",
             "np.linalg.norm(y, axis=-1, keepdims=True)",
             "np.sum(y * y, axis=-1, keepdims=True)"),
        ),
    ),
    dict(
        name="olo-lambda-all-releases", paper="AS17", category="accounting",
        doc="laplace_scale_cor3_2 = diam_1(Y) T / eps instead of diam_1(Y) (floor(log2 T) + 1) / eps: every loss "
            "counted in all T releases instead of the tree nodes that cover it. Too much noise on the sphere and "
            "the cube.",
        targets=("AS17-T1-sphere-gap-rate-T", "AS17-T1-cube-gap-rate-T"),
        edits=(
            ("dpregret.papers.as17.olo:laplace_scale_cor3_2",
             "return 2.0 * _y_l1(domain, N) * nodes_covering_leaf(T) / eps",
             "return 2.0 * _y_l1(domain, N) * T / eps"),
        ),
    ),
    dict(
        name="ftpl-oracle-sign", paper="AS17", category="learner",
        doc="linear_oracle on the ball returns +L / ||L|| instead of -L / ||L||: the maximiser of <x, L> (an "
            "oracle written for gains). FTPL plays the worst point for the perturbed cumulative loss.",
        targets=("AS17-T1-ftpl-regret-rate-T",),
        edits=(
            ("dpregret.papers.as17.olo:linear_oracle",
             "return -np.divide(L, n, out=np.zeros_like(L), where=n > 0)",
             "return np.divide(L, n, out=np.zeros_like(L), where=n > 0)"),
        ),
    ),
    dict(
        name="ftpl-sigma-as-variance", paper="AS17", category="accounting",
        doc="sigma_thm3_5 returns sigma^2 where the standard deviation is expected (N(0, sigma^2)'s parameter "
            "passed on as the scale). Too much perturbation, FTPL's step: sigma^2 ~ T / (sqrt(N) log T), so FTPL "
            "plays noise.",
        targets=("AS17-T1-ftpl-regret-rate-T",),
        edits=(
            ("dpregret.papers.as17.olo:sigma_thm3_5",
             "return max(Y2 * math.sqrt(T / (math.sqrt(N) * K)), math.sqrt(N) / eps * K * math.log(K / delta))",
             "return max(Y2 * math.sqrt(T / (math.sqrt(N) * K)), math.sqrt(N) / eps * K * math.log(K / delta)) ** "
             "2"),
        ),
    ),
    dict(
        name="ftpl-sigma-missing-sqrt-N", paper="AS17", category="accounting",
        doc="sigma_thm3_5's privacy term is K log(K / delta) / eps instead of sqrt(N) K log(K / delta) / eps: the "
            "l2 sensitivity sqrt(N) of a loss in the unit cube taken as 1. Too little noise (sqrt(8) times less "
            "at N = 8). (Less perturbation does not raise FTPL's regret, slope in T 0.39 mutated against 0.53, "
            "PASS both: the rate claim is measured blind and not a target; AUDIT-as17-thm3.5-ftpl-tree audits the "
            "tree at the scenario's sigma.)",
        targets=("AUDIT-as17-thm3.5-ftpl-tree",),
        edits=(
            ("dpregret.papers.as17.olo:sigma_thm3_5",
             "math.sqrt(N) / eps * K * math.log(K / delta)",
             "1.0 / eps * K * math.log(K / delta)"),
        ),
    ),
    dict(
        name="exp2-kernel-update-sign", paper="AS17", category="kernel",
        doc="exp2_block adds eta l~ to the pulled arm's log-weight instead of subtracting it (logq += instead of "
            "-=), the update written for rewards: EXP2 favours the arm with the highest loss.",
        targets=("AS17-T2-mab-rate-T",),
        edits=(
            ("dpregret.papers.as17.exp2_jit:exp2_block",
             "logq[b, arm] -= et * (value / p[arm])",
             "logq[b, arm] += et * (value / p[arm])"),
        ),
    ),
    dict(
        name="exp2-kernel-no-importance-weight", paper="AS17", category="kernel",
        doc="exp2_block charges the pulled arm its forwarded value without dividing by p(arm): the estimate P_t^+ "
            "e_i e_i^T l_t = (v / p_i) e_i loses its importance weight, so arms played often are charged more "
            "than arms played rarely (a biased estimate).",
        targets=("AS17-T2-mab-rate-T",),
        edits=(
            ("dpregret.papers.as17.exp2_jit:exp2_block",
             "logq[b, arm] -= et * (value / p[arm])",
             "logq[b, arm] -= et * value"),
        ),
    ),
    dict(
        name="exp2-lambda-composed", paper="AS17", category="accounting",
        doc="exp2_params_thm4_1 sets lambda = sqrt(T) / eps instead of 1 / eps: the feedback noise calibrated for "
            "the composition of the T rounds, as if every round released every loss (what Lemma 4.2 avoids). Too "
            "much noise: eta and gamma follow lambda and the regret becomes linear.",
        targets=("AS17-T2-mab-rate-T",),
        edits=(
            ("dpregret.papers.as17.bandits:exp2_params_thm4_1",
             "lam = 0.0 if eps is None else V.positive(\"sensitivity\", sensitivity) / V.positive(\"eps\", eps)",
             "lam = 0.0 if eps is None else V.positive(\"sensitivity\", sensitivity) * np.sqrt(T) / "
             "V.positive(\"eps\", eps)"),
        ),
    ),
    dict(
        name="exp2-lambda-half-range", paper="AS17", category="accounting",
        doc="exp2_params_thm4_1 sets lambda = 1 / (2 eps): the sensitivity of a loss in [0, 1] taken as its "
            "largest deviation from the midpoint 1/2 instead of the range 1. Too little noise: the feedback is "
            "only 2 eps-DP.",
        targets=("AUDIT-as17-lemma4.2-bandit",),
        edits=(
            ("dpregret.papers.as17.bandits:exp2_params_thm4_1",
             "lam = 0.0 if eps is None else V.positive(\"sensitivity\", sensitivity) / V.positive(\"eps\", eps)",
             "lam = 0.0 if eps is None else 0.5 * V.positive(\"sensitivity\", sensitivity) / V.positive(\"eps\", eps)"),
        ),
    ),
    dict(
        name="scrible-eta-missing-sqrt", paper="AS17", category="learner",
        doc="theorem_4_5_eta returns nu log T / (2 N^2 T (M^2 + lam^2 N X2^2)) without its square root: a step "
            "one power of T too small. SCRiBLe stays at the centre of the domain: linear regret.",
        targets=("AS17-T2-blo-ball-rate-T",),
        edits=(
            ("dpregret.papers.as17.scrible:theorem_4_5_eta",
             "return math.sqrt(nu * math.log(T) / (2 * N**2 * T * (M**2 + lam**2 * N * X2**2)))",
             "return nu * math.log(T) / (2 * N**2 * T * (M**2 + lam**2 * N * X2**2))"),
        ),
    ),
    dict(
        name="scrible-kernel-dikin-radius", paper="AS17", category="kernel",
        doc="scrible_block plays y = x + sign lambda_i^(1/2) e_i instead of x + sign lambda_i^(-1/2) e_i: the "
            "Dikin ellipsoid's semi-axis taken as the square root of the Hessian eigenvalue instead of its "
            "inverse. The played point leaves the ellipsoid (and the domain), and the one-point estimate is no "
            "longer unbiased.",
        targets=("AS17-T2-blo-ball-rate-T",),
        edits=(
            ("dpregret.papers.as17.scrible_jit:scrible_block",
             "step = sign / root",
             "step = sign * root"),
        ),
    ),
    dict(
        name="scrible-lambda-norm-not-diameter", paper="AS17", category="accounting",
        doc="as17_blo.params sets lambda = ||Y||_1 / eps (Lemma 4.2 as printed) instead of 2 ||Y||_1 / eps: the "
            "add/remove sensitivity used for replace-one neighbours. Too little noise: the forwarded values are 2 "
            "eps-DP.",
        targets=("AUDIT-as17-lemma4.2-bandit",),
        edits=(
            ("dpregret.papers.as17.scrible:blo_row_params",
             "lam = 0.0 if e is None else 2.0 * y1 / e",
             "lam = 0.0 if e is None else y1 / e"),
        ),
    ),
    dict(
        name="scrible-lambda-composed", paper="AS17", category="accounting",
        doc="as17_blo.params sets lambda = 2 ||Y||_1 sqrt(T) / eps: the feedback noise calibrated for the "
            "composition of the T rounds instead of Lemma 4.2's one release per loss. Too much noise: regret ~ T.",
        targets=("AS17-T2-blo-ball-rate-T",),
        edits=(
            ("dpregret.papers.as17.scrible:blo_row_params",
             "lam = 0.0 if e is None else 2.0 * y1 / e",
             "lam = 0.0 if e is None else 2.0 * y1 * math.sqrt(T) / e"),
        ),
    ),
]

# Every learner of this paper, and the mutants of its update and of its calibration (too much and too little
# noise): mutant names (this folder's or the registry's), or a string saying why there is none (a learner
# whose noise is another learner's names that learner under "noise"); the registry's COVERAGE collects them.
COVERAGE = {
    "AS17 FTRL on experts, tree aggregation": {
        "update": ("experts-weights-sign", "experts-eta-sqrt-T-dropped"),
        "too much noise": ("experts-lambda-all-releases",),
        "too little noise": ("experts-lambda-missing-log", "tree-leaf-cover-off-by-one", "tree-level-noise-reuse",
                             "tree-initial-release-unpadded", "tree-padding-step-off-by-one", "laplace-scale-as-std")},
    "AS17 FTRL on the sphere and the cube": {
        "update": ("olo-ftrl-sign", "olo-eta-missing-sqrt", "olo-cube-clip-unit-interval",
                   "olo-ball-projection-squared-norm"),
        "too much noise": ("olo-lambda-all-releases",),
        "too little noise": ("olo-lambda-l1-norm-not-diameter",)},
    "AS17 FTPL (Gaussian tree)": {
        "update": ("ftpl-oracle-sign", "ftpl-sigma-as-variance"),
        "too much noise": ("ftpl-sigma-as-variance",),
        "too little noise": ("ftpl-sigma-missing-sqrt-N",)},
    "AS17 Algorithm 4 + EXP2": {
        "update": ("exp2-kernel-update-sign", "exp2-eta-T-power", "exp2-kernel-no-importance-weight"),
        "too much noise": ("exp2-lambda-composed",),
        "too little noise": ("exp2-lambda-half-range", "feedback-raw-after-round-1", "exp2-kernel-noise-not-forwarded",
                             "exp2-kernel-noise-round-index")},
    "AS17 Algorithm 4 + SCRiBLe": {
        "update": ("scrible-kernel-estimate-sign", "scrible-eta-missing-sqrt", "scrible-kernel-dikin-radius"),
        "too much noise": ("scrible-lambda-composed",),
        "too little noise": ("scrible-lambda-norm-not-diameter", "scrible-kernel-lambda-by-replicate")},
}
