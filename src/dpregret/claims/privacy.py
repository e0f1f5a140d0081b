"""Privacy claims, audited empirically (issue: "try to break every privacy claim").

Each :class:`AuditSpec` fixes worst-case neighbouring inputs D and D', samples outputs
of *our implementation* of the mechanism (``dpregret.mechanisms``, ``dpregret.tree``),
scores them by the exact log-likelihood ratio under the *claimed* noise, and runs the
recipe of :mod:`dpregret.audit`.  Its controls are broken variants (half the noise, the
wrong sensitivity, the missing log T factor, no noise): each must give a lower bound
above the claim.

Mechanisms audited: the Laplace and Gaussian mechanisms; Van der Hoeven's local Laplace
randomiser (Lemma 4) and the l2 randomiser (Song et al.); Agarwal-Singh TreeBasedAgg
(Lemma 3.3) on its node transcript, with the exact check that its releases are the 0/1
node-to-prefix map applied to the nodes plus padding; Zhang-Tran-Cutkosky NOISE(t)
(Theorem 3's tree) on its releases, which determine its node transcript exactly.

Private algorithms end to end: Algorithm 4 around EXP2 (Lemma 4.2) on its transcript (the
arm and the forwarded value; later arms are post-processing); Ene-Nguyen-Vladu PRIVATEBANDIT
(Lemmas 5.1 and 5.4) on its released round sums.  Algorithm 4 around SCRiBLe
forwards ``<l + Z, y>`` with ``y`` dense, whose density (a sum of scaled Laplace draws) has no
closed form: it is covered by Lemma 4.2's vector mechanism, the Laplace audit.  The
Agarwal-Singh experts learner releases
``x_t = softmax(-eta L~_{t-1})``, a post-processing of TreeBasedAgg's releases, whose
exact likelihood is a convolution of Laplace draws shared across releases with no closed
form; it is covered by the TreeBasedAgg audit (post-processing cannot increase eps).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import mechanisms as M
from ..audit import eps_lower_bound, gdp_mu_lower_bound, renyi_lower_bound
from ..rng import ReplicateStreams, stable_key
from ..tree import TreeBasedAgg, TreeNoise, nodes_covering_leaf, prefix_node_matrix
from .core import Claim, Result, check_privacy

VDH, AS17, ZTC = "000_7eed9852d6745801.txt", "003_a21566fafc49b886.txt", "002_ea604baa8d00e606.txt"
ENV = "004_99eed4067d44be32.txt"
CONTROL_TEXT = "broken variants, each must be caught: "

# sample(variant, side, n, rng) -> outputs (n, k); side 0 = D, 1 = D'
Sampler = Callable[[str, int, int, np.random.Generator], np.ndarray]


@dataclass
class AuditSpec:
    claim: Claim
    eps: float  # claimed eps (for GDP claims: the claimed mu)
    delta: float
    sample: Sampler
    # score(y, variant): log p_D(y) / p_D'(y) under the claimed noise, for the inputs D, D'
    # that the variant uses (a control may change the inputs, never the scoring noise)
    score: Callable[[np.ndarray, str], np.ndarray]
    controls: dict[str, str]  # variant -> what is broken
    gaussian_mu: float | None = None  # claimed GDP mu (Gaussian claims)
    rdp: Callable[[float], float] | None = None  # claimed RDP eps(alpha)
    tight_floor: float | None = None  # eps_lb must reach this fraction of the claim (pure-DP Laplace)
    exact_check: Callable[[np.random.Generator], str | None] | None = None
    exact_ok: str = "releases = node map x nodes + padding (exact)"  # what a passing exact_check established
    gdp_only: bool = False  # the claim is mu-GDP only (no eps)


def _claim(cid, paper, theorem, statement, controls) -> Claim:
    return Claim(cid, paper, theorem, "privacy", statement, "empirical eps lower bound (or GDP mu)",
                 CONTROL_TEXT + "; ".join(f"{k}: {v}" for k, v in controls.items()))


# --- Laplace mechanism ------------------------------------------------------------------
def laplace_spec(eps: float = 1.0) -> AuditSpec:
    x0, x1 = np.zeros(2), np.full(2, 0.5)  # l1 distance 1, l2 distance 0.707
    scales = {"correct": 1.0 / eps, "half_noise": 0.5 / eps, "wrong_sensitivity": np.sqrt(0.5) / eps,
              "no_noise": 0.0}

    def sample(variant, side, n, rng):
        noise = M.laplace_noise(max(scales[variant], 1e-300), (n, 2), rng) if scales[variant] else np.zeros((n, 2))
        return (x1 if side else x0) + noise

    controls = {"half_noise": "scale Delta_1/(2 eps)", "wrong_sensitivity": "scale from the l2 norm (0.707/eps)",
                "no_noise": "output = input"}
    return AuditSpec(_claim("AUDIT-laplace-mechanism", AS17, "Laplace mechanism (Lap^N(lambda), section 2)",
                            f"x + Lap(Delta_1/eps)^d is eps-DP (eps = {eps:g}, Delta_1 = 1, d = 2)", controls),
                     eps, 0.0, sample,
                     lambda y, v: M.laplace_logpdf(y - x0, 1 / eps) - M.laplace_logpdf(y - x1, 1 / eps),
                     controls, tight_floor=0.9)


# --- Gaussian mechanism -----------------------------------------------------------------
def gaussian_spec(eps: float = 1.0, delta: float = 1e-5) -> AuditSpec:
    a = np.sqrt(0.5)
    x0, x1 = np.zeros(2), np.full(2, a)  # l2 distance 1, l_inf distance 0.707
    sigma = np.sqrt(2 * np.log(1.25 / delta)) / eps
    sig = {"correct": sigma, "half_noise": sigma / 2, "wrong_sensitivity": sigma * a, "no_noise": 0.0}

    def sample(variant, side, n, rng):
        s, x = sig[variant], (x1 if side else x0)
        return M.gaussian_mechanism(np.broadcast_to(x, (n, 2)), s, rng) if s else np.broadcast_to(x, (n, 2)).copy()

    controls = {"half_noise": "sigma / 2", "wrong_sensitivity": "sigma from the l_inf norm (0.707 Delta_2)",
                "no_noise": "output = input"}
    mu = 1 / sigma
    return AuditSpec(_claim("AUDIT-gaussian-mechanism", ZTC, "Gaussian mechanism (Remark 2, Lemma 18)",
                            f"x + N(0, sigma^2 I), sigma = sqrt(2 ln(1.25/delta)) Delta_2/eps, is (eps, delta)-DP "
                            f"(eps = {eps:g}, delta = {delta:g}), {mu:.4g}-GDP and (alpha, alpha mu^2/2)-RDP", controls),
                     eps, delta, sample,
                     lambda y, v: M.gaussian_logpdf(y - x0, sigma) - M.gaussian_logpdf(y - x1, sigma),
                     controls, gaussian_mu=mu, rdp=lambda al: al * mu**2 / 2)


# --- Van der Hoeven, Lemma 4: local Laplace randomiser -------------------------------------
def local_laplace_spec() -> AuditSpec:
    tau = np.array([0.6, 0.4, np.inf])
    g0, g1 = np.array([1.0, 1.0, 0.3]), np.array([-1.0, -1.0, 0.3])
    eps = 1.0  # sum of the finite tau_j; coordinate 3 is public (tau = inf) and equal in D, D'

    def sample(variant, side, n, rng):
        g = g1 if side else g0
        if variant == "leak_public":
            g = np.array([-1.0, -1.0, -0.3]) if side else g0
        bound = {"correct": 1.0, "half_noise": 0.5, "leak_public": 1.0}.get(variant, 1.0)
        if variant == "no_noise":
            return np.broadcast_to(g, (n, 3)).copy()
        noise = M.local_laplace_randomiser(np.zeros((n, 3)), tau, rng, bound=bound)
        return g + noise

    scale = M.local_laplace_scale(tau[:2], 1.0)

    def score(y, variant):
        s = M.laplace_logpdf(y[:, :2] - g0[:2], scale) - M.laplace_logpdf(y[:, :2] - g1[:2], scale)
        # the public coordinate carries no noise and is equal under the claim's D, D': any other
        # value is impossible under D (log-ratio -inf, capped at -1e6)
        return s - 1e6 * (y[:, 2] != g0[2])

    controls = {"half_noise": "scale bound/tau_j (a bound of 1/2 assumed)", "no_noise": "output = input",
                "leak_public": "neighbours differ on the tau = inf coordinate"}
    return AuditSpec(_claim("AUDIT-vdh-lemma4-local-laplace", VDH, "Lemma 4",
                            "g + Lap(2/tau_j) per coordinate is (sum_j tau_j)-LDP for |g_j| <= 1 "
                            "(tau = (0.6, 0.4, inf): eps = 1 over the protected coordinates)", controls),
                     eps, 0.0, sample, score, controls, tight_floor=0.9)


# --- Song et al.'s l2 randomiser (thesis section 3.2.1) ------------------------------------
def l2_spec(eps: float = 1.0) -> AuditSpec:
    g0, g1 = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
    eps_v = {"correct": eps, "half_noise": 2 * eps}

    def sample(variant, side, n, rng):
        g = g1 if side else g0
        if variant == "no_noise":
            return np.broadcast_to(g, (n, 2)).copy()
        if variant == "wrong_sensitivity":  # data of l2 norm sqrt(2) (bounded in l_inf only)
            g = np.array([-1.0, -1.0]) if side else np.array([1.0, 1.0])
        return g + M.l2_laplace_randomiser(np.zeros((n, 2)), eps_v.get(variant, eps), rng)

    def score(y, variant):
        a, b = (np.ones(2), -np.ones(2)) if variant == "wrong_sensitivity" else (g0, g1)
        return M.l2_laplace_logpdf(y - a, eps) - M.l2_laplace_logpdf(y - b, eps)

    controls = {"half_noise": "density exp(-eps ||z||)", "wrong_sensitivity": "inputs bounded in l_inf, not l2",
                "no_noise": "output = input"}
    return AuditSpec(_claim("AUDIT-l2-randomiser", VDH, "section 3.2.1 (Song et al. 2015, Thm 1)",
                            f"g + z, rho(z) ~ exp(-eps/2 ||z||_2), is eps-LDP for ||g||_2 <= 1 (eps = {eps:g}, d = 2)",
                            controls),
                     eps, 0.0, sample, score, controls)


# --- Agarwal-Singh TreeBasedAgg, node transcript ------------------------------------------
def tree_as17_spec(eps: float = 1.0, T: int = 4, N: int = 2) -> AuditSpec:
    m = nodes_covering_leaf(T)
    lam = N * m / eps
    lams = {"correct": lam, "half_noise": lam / 2, "paper_log_count": N * (T - 1).bit_length() / eps,
            "missing_log_T": N / eps, "wrong_sensitivity": m / eps, "no_noise": 0.0}
    cover = [t for t in range(1, T + 1) if t & (t - 1) == 0]  # steps whose node contains leaf 1

    def run(lam_v, side, n, rng):
        draw = (lambda k: rng.laplace(0.0, lam_v, (n, k, N))) if lam_v else (lambda k: np.zeros((n, k, N)))
        tree = TreeBasedAgg(T, N, draw, n)
        nodes, rel = [], []
        for t in range(1, T + 1):
            tree.step(np.ones(N) if (t == 1 and side == 0) else np.zeros(N))
            nodes.append(tree.last_node[1])
            rel.append(tree.released - tree.padding)
        return np.stack(nodes, axis=1), np.stack(rel, axis=1)  # (n, T, N) each

    def sample(variant, side, n, rng):
        nodes, _ = run(lams[variant], side, n, rng)
        return nodes[:, [t - 1 for t in cover], :].reshape(n, -1)

    def exact(rng) -> str | None:
        nodes, rel = run(lam, 0, 64, rng)
        Mx, _ = prefix_node_matrix(T)
        err = float(np.abs(np.einsum("tk,nkd->ntd", Mx, nodes) - rel).max())
        return None if err < 1e-9 else f"released prefix sums differ from the node map by {err:.3g}"

    def score(y, variant):
        return M.laplace_logpdf(y - 1.0, lam) - M.laplace_logpdf(y, lam)

    controls = {"half_noise": "lambda / 2", "paper_log_count": f"lambda with ceil(log2 T) = {(T - 1).bit_length()} "
                f"instead of the {m} nodes covering a leaf", "missing_log_T": "lambda = N/eps",
                "wrong_sensitivity": "lambda from the l_inf sensitivity (1, not N)", "no_noise": "no noise"}
    return AuditSpec(_claim("AUDIT-as17-lemma3.3-tree", AS17, "Lemma 3.3 (Algorithm 2), node transcript",
                            f"TreeBasedAgg with Lap^N(N (floor(log2 T)+1)/eps) per node is eps-DP "
                            f"(eps = {eps:g}, T = {T}, N = {N}, losses in [0,1]^N); releases = node map x nodes + padding",
                            controls),
                     eps, 0.0, sample, score, controls, tight_floor=0.9, exact_check=exact)


# --- Zhang-Tran-Cutkosky NOISE(t), releases (equivalent to the node transcript) ----------
def tree_ztc_spec(mu: float = 1.0, T: int = 8) -> AuditSpec:
    m = (2 * T - 1).bit_length()  # log2(2T) for T a power of two: nodes covering a leaf
    sigma = np.sqrt(m) / mu  # Delta = 1
    sig = {"correct": sigma, "half_noise": sigma / 2, "log2_T": np.sqrt(m - 1) / mu, "no_noise": 0.0}
    cover = [t for t in range(1, T + 1) if t & (t - 1) == 0]

    def sample(variant, side, n, rng):
        tree = TreeNoise(T, 1, lambda k: rng.standard_normal((n, k, 1)), n)
        prefix, rel = 0.0, []
        for t in range(1, T + 1):
            prefix = prefix + (1.0 if (t == 1 and side == 0) else 0.0)
            rel.append(prefix + tree.step(sig[variant])[:, 0])
        rel = np.stack(rel, axis=1)
        padded = np.concatenate([np.zeros((n, 1)), rel], axis=1)  # r_0 = 0
        nodes = np.stack([padded[:, t] - padded[:, t - (t & -t)] for t in cover], axis=1)
        return nodes

    def score(y, variant):
        return M.gaussian_logpdf(y - 1.0, sigma) - M.gaussian_logpdf(y, sigma)

    controls = {"half_noise": "sigma / 2", "log2_T": "sigma with log2(T) instead of log2(2T)", "no_noise": "no noise"}
    return AuditSpec(_claim("AUDIT-ztc-thm3-tree", ZTC, "Theorem 3 / eq. (6), NOISE(t)",
                            f"releases prefix + NOISE(t) with sigma^2 = log2(2T) Delta^2 / mu^2 are mu-GDP, i.e. "
                            f"(alpha, alpha mu^2/2)-RDP (mu = {mu:g}, T = {T}, Delta = 1)", controls),
                     mu, 0.0, sample, score, controls, gaussian_mu=mu, rdp=lambda al: al * mu**2 / 2, gdp_only=True)


class _SampleStreams:
    """The two draws learners make (``uniform``, ``laplace``) from one Generator, for audits
    whose 'replicates' are a million independent samples (ReplicateStreams would hold a
    generator per sample)."""

    def __init__(self, rng: np.random.Generator, n: int):
        self.rng, self.R = rng, n

    def uniform(self, shape=()):
        return self.rng.random((self.R, *shape))

    def laplace(self, scale, shape=()):
        return self.rng.laplace(0.0, 1.0, (self.R, *shape)) * np.asarray(scale)


# --- Agarwal-Singh Lemma 4.2: Algorithm 4 end to end on its transcript ------------------
def mab_feedback_spec(eps: float = 1.0, N: int = 3) -> AuditSpec:
    """Algorithm 4 around EXP2 (our PrivateFeedback + Exp2) for one round: the transcript is
    the arm played and the value forwarded to the inner learner; every later arm is a function
    of it and of data-independent randomness (post-processing), so auditing it audits the
    released arm sequence.  D: l_1 = (1, ..., 1), D': l_1 = 0 (losses in [0, 1]^N, B = 1)."""
    from ..learners.bandits import Exp2, PrivateFeedback, exp2_params_thm4_1

    lam = 1.0 / eps
    lams = {"correct": lam, "half_noise": lam / 2, "wrong_sensitivity": 0.5 / eps, "no_noise": 0.0}

    def sample(variant, side, n, rng):
        st = _SampleStreams(rng, n)  # n independent samples: one generator, not n streams
        _, eta, gam = exp2_params_thm4_1(N, 1000, eps)
        learner = PrivateFeedback(Exp2(N, eta, gam, st, n), lams[variant], st)
        arm = learner.predict()
        value = np.full(n, 0.0 if side else 1.0)
        learner.update(value)
        forwarded = value + learner.z[np.arange(n), arm]
        return np.stack([arm.astype(float), forwarded], axis=1)

    def score(y, variant):
        return M.laplace_logpdf(y[:, 1:] - 1.0, lam) - M.laplace_logpdf(y[:, 1:], lam)

    controls = {"half_noise": "lambda / 2", "wrong_sensitivity": "lambda calibrated for losses in [0, 1/2]",
                "no_noise": "no noise"}
    return AuditSpec(_claim("AUDIT-as17-lemma4.2-bandit", AS17, "Lemma 4.2 (Algorithm 4 + EXP2), transcript",
                            f"the arms and forwarded values of Algorithm 4 with Lap(1/eps) are eps-DP (eps = {eps:g}, N = {N})",
                            controls),
                     eps, 0.0, sample, score, controls, tight_floor=0.9)


# --- Zhang-Tran-Cutkosky Theorem 3: Algorithm 1 end to end on its released sequence ---------
def ztc_o2b_spec(rho: float = 1.0, T: int = 4, k: float = 1.0) -> AuditSpec:
    """Algorithm 1 (our :func:`dpregret.learners.o2b.run`) with projected OGD on 1-D least
    squares; D and D' differ in the first record (label +b_max vs -b_max, the largest
    gradient change at w_1 = 0).  The transcript is the released ``(g_t + gamma_t)_{t<=T}``;
    the score is its exact log-likelihood ratio by replaying the algorithm
    (:func:`dpregret.learners.o2b.transcript_logpdf`).  Claim: (alpha, alpha rho^2/2)-RDP for
    every alpha, i.e. at most rho-GDP for these adaptively composed Gaussians."""
    from ..environments.stochastic import LeastSquares
    from ..learners import o2b
    from ..learners.oco import ProjectedOGD

    prob = LeastSquares(1, 0.5, r=1.0, x0_norm=0.5, A=1.0)
    z = (np.array([1.0]), prob.b_max)
    data = {0: [z] * T, 1: [(np.array([1.0]), -prob.b_max)] + [z] * (T - 1)}
    sens = {"correct": "eq6", "H_only": "H_only", "no_noise": "eq6"}

    def learner(n):
        return ProjectedOGD(n, 1, prob.r, lambda t: o2b.thm4_gsq(t, T, k, rho, prob))

    def sample(variant, side, n, rng):
        r = rho if variant != "no_noise" else 1e300
        out = o2b.run(o2b.FixedData(prob, data[side]), learner(n), T, k=k, rho=r, src=None, noise_src=rng,
                      checkpoints=[T], sensitivity=sens[variant], record_released=True)
        return out.extra["released"].reshape(n, T)

    def score(y, variant):
        y3 = y.reshape(len(y), T, 1)
        lp = [o2b.transcript_logpdf(prob, data[side], learner(len(y)), y3, k=k, rho=rho,
                                    sensitivity=sens[variant]) for side in (0, 1)]
        with np.errstate(invalid="ignore"):
            return np.clip(np.nan_to_num(lp[0] - lp[1], nan=0.0), -1e6, 1e6)

    controls = {"H_only": "sensitivity without the Lipschitz term G (no noise at t = 1)",
                "no_noise": "no noise"}
    return AuditSpec(_claim("AUDIT-ztc-thm3-o2b", ZTC, "Theorem 3 (Algorithm 1 end to end)",
                            f"the released g_t + gamma_t of Algorithm 1 (projected OGD, 1-D least squares, "
                            f"k = {k:g}, T = {T}) are (alpha, alpha rho^2/2)-RDP, i.e. rho-GDP (rho = {rho:g})",
                            controls),
                     rho, 0.0, sample, score, controls, gaussian_mu=rho, rdp=lambda al: al * rho**2 / 2, gdp_only=True)


# --- Ene-Nguyen-Vladu Lemmas 5.1 / 5.4: PRIVATEBANDIT's released round sums -----------------
class _FixedDirections(ReplicateStreams):
    """PRIVATEBANDIT's direction source with every ``u_t = (1, ..., 1) / dim^(1/2)``, the
    direction of largest l1 norm.  The proofs of Lemmas 5.1 and 5.4 bound the sensitivity of a
    batch sum for every direction sequence, so the releases must be private conditionally on
    any fixed one; fixing the worst is the strongest audit (the directions are data-independent)."""

    def __init__(self, R: int):  # noqa: D107 - no super().__init__: no streams to hold
        self._n = int(R)

    @property
    def R(self) -> int:
        return self._n

    def normal(self, shape=()):
        return np.ones((self._n, *shape))


class _FirstStepHinge:
    """Neighbouring loss sequences for the PRIVATEBANDIT audits.  D: ``f_1(x) = L max(0,
    <a, x - c> - zeta + D)`` with ``a`` the unit direction of the first query ``c + zeta a``
    (c = the domain's centre): convex, L-Lipschitz, 0 at c in K and ``L D`` at the first query,
    the largest value the premise ``0 <= f_t <= L D`` allows; ``f_t = 0`` for t >= 2.
    D' (``active=False``): every ``f_t = 0``.  With zero losses after step 1 every later batch
    sum is 0 on both sides, so the released prefix sums have known means."""

    def __init__(self, domain, T: int, L: float, zeta: float, a: np.ndarray, active: bool):
        self.domain, self.T, self.L, self.n = domain, T, L, domain.n
        self.zeta, self.a, self.active = zeta, a, active

    def value(self, t, y):
        if t == 1 and self.active:
            return self.L * np.maximum(0.0, (y - self.domain.centre) @ self.a - self.zeta + self.domain.D)
        return np.zeros(len(y))

    def best_fixed(self, taus):
        return np.zeros(np.size(taus))


def env_releases_spec(kind: str, eps: float = 1.0, delta: float = 1e-5, T: int = 4, dim: int = 2) -> AuditSpec:
    """PRIVATEBANDIT (our :func:`dpregret.learners.private_bandit.private_bandit`) on the simplex
    of dimension ``dim`` with ``T = 4`` steps (T_batch = T_round = 2, one draw per release), run
    on neighbours differing in f_1 (:class:`_FirstStepHinge`) with the directions fixed at the
    l1-worst ``u`` (:class:`_FixedDirections`).  The transcript is the released prefix sums
    ``s~_1, s~_2`` (every iterate is a function of them); both contain ``g~_1``, which differs by
    one batch term ``(n / zeta) L D u``, the replace-one sensitivity (``batch_sensitivity``; the
    exact check asserts the instance attains it).  ``kind``: ``laplace`` (Lemma 5.1's lambda,
    eps-DP) or ``gaussian`` (Lemma 5.4's sigma, (eps, delta)-DP)."""
    from ..environments.polytopes import Simplex
    from ..learners.private_bandit import (
        algorithm1_parameters, batch_schedule, batch_sensitivity, gaussian_sigma_lemma5_4, laplace_lambda_lemma5_1,
        private_bandit,
    )
    from ..tree import draws_per_release

    L = 1.0
    D = Simplex(dim + 1).D
    zeta = algorithm1_parameters(T, dim, L, D)[0]
    rounds = batch_schedule(T)[1]
    u = np.full(dim, 1.0 / np.sqrt(dim))  # the l1-worst unit direction, every step
    g1 = (dim / zeta) * L * D * u  # the batch sum of round 1 under D
    means = {0: np.tile(g1, rounds), 1: np.zeros(rounds * dim)}  # s~_R = g~_1 for every R under D, 0 under D'
    log_t = np.log2(T)
    if kind == "laplace":
        scale = laplace_lambda_lemma5_1(T, dim, L, eps)
        scales = {"correct": scale, "half_noise": scale / 2, "no_noise": 0.0}
        controls = {"half_noise": "lambda / 2", "no_noise": "no noise"}
        cid, name, param, dp = "AUDIT-env-lemma5.1-releases", "Lemma 5.1", "lambda", f"eps-DP (eps = {eps:g})"
    elif kind == "gaussian":
        scale = gaussian_sigma_lemma5_4(T, dim, L, eps, delta)
        scales = {"correct": scale, "no_log_factors": T**0.25 * np.sqrt(dim) * L * log_t / eps, "no_noise": 0.0}
        controls = {"no_log_factors": "sigma = T^(1/4) n^(1/2) L log2(T) / eps (Lemma 5.4 without its "
                                      "ln(T/delta)(...) factor: the O~ read as O)", "no_noise": "no noise"}
        cid, name, param, dp = ("AUDIT-env-lemma5.4-releases", "Lemma 5.4", "sigma",
                                f"(eps, delta)-DP (eps = {eps:g}, delta = {delta:g})")
    else:
        raise ValueError(f"kind must be 'laplace' or 'gaussian', got {kind!r}")

    def run(variant, side, n, rng, noise=True):
        dom = Simplex(dim + 1)
        losses = _FirstStepHinge(dom, T, L, zeta, dom.Q @ u, side == 0)
        s = scales[variant] if noise else 0.0
        return private_bandit(dom, losses, _FixedDirections(n), noise=kind if s else "none",
                              noise_scale=s if s else None, noise_rng=rng, record_rounds=True)

    def sample(variant, side, n, rng):
        return run(variant, side, n, rng).releases.transpose(1, 0, 2).reshape(n, -1)

    def logpdf(z):
        return M.laplace_logpdf(z, scale) if kind == "laplace" else M.gaussian_logpdf(z, scale)

    def score(y, variant):
        return logpdf(y - means[0]) - logpdf(y - means[1])

    def exact(rng) -> str | None:
        if draws_per_release(rounds) != 1:
            return f"expected one draw per release at T_round = {rounds}"
        for side in (0, 1):
            r = run("correct", side, 4, rng, noise=False)
            err = float(np.abs(r.releases.transpose(1, 0, 2).reshape(4, -1) - means[side]).max())
            if err > 1e-12:
                return f"noise-free releases differ from the prefix sums of g~ by {err:.3g} (side {side})"
        sens = batch_sensitivity(T, dim, L, D, ord=1 if kind == "laplace" else 2)
        got = float(np.abs(g1).sum() if kind == "laplace" else np.linalg.norm(g1))
        return None if abs(got - sens) < 1e-12 * sens else f"the instance's change {got:.6g} is not the sensitivity {sens:.6g}"

    lemma = f"{name} (Algorithm 1, {kind.capitalize()})"
    statement = (f"the released round sums s~_R of Algorithm 1 with {name}'s {param} are {dp}: T = {T} (T_batch = T_round = "
                 f"{rounds}), simplex with n = {dim}, L = 1; neighbours differ in f_1 (L D at the query vs 0), "
                 f"directions fixed at the l1-worst u")
    return AuditSpec(_claim(cid, ENV, lemma, statement, controls), eps, delta if kind == "gaussian" else 0.0,
                     sample, score, controls, exact_check=exact,
                     exact_ok="noise-free releases = prefix sums of g~, and the instance's change of g~_1 is the "
                              "batch sensitivity (exact)")


SPECS = {s.claim.claim_id: s for s in (laplace_spec(), gaussian_spec(), local_laplace_spec(), l2_spec(),
                                        tree_as17_spec(), tree_ztc_spec(), mab_feedback_spec(), ztc_o2b_spec(),
                                        env_releases_spec("laplace"), env_releases_spec("gaussian"))}
RDP_ORDERS = (2.0, 8.0, 32.0)


def _rng(seed: int, *parts) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=stable_key("audit", *parts))))


def audit_variant(spec: AuditSpec, variant: str, n: int, alpha: float, seed: int) -> dict:
    """eps (and mu, RDP) lower bounds for one variant of one audit."""
    cid = spec.claim.claim_id
    s0 = spec.score(spec.sample(variant, 0, n, _rng(seed, cid, variant, "D")), variant)
    s1 = spec.score(spec.sample(variant, 1, n, _rng(seed, cid, variant, "D'")), variant)
    a = alpha / 2 if spec.gaussian_mu is not None else alpha
    res = eps_lower_bound(s0, s1, spec.delta, a, _rng(seed, cid, variant, "split"))
    out = {"variant": variant, "eps_lb": res.eps_lb, "audit": res.as_dict()}
    if spec.gaussian_mu is not None:
        out["mu_lb"], _ = gdp_mu_lower_bound(s0, s1, a, _rng(seed, cid, variant, "gdp"))
        out["rdp_lb"] = renyi_lower_bound(res, RDP_ORDERS)
    return out


def _violates(spec: AuditSpec, v: dict) -> bool:
    if spec.gdp_only:
        return v["mu_lb"] > spec.gaussian_mu
    bad = v["eps_lb"] > spec.eps
    if spec.gaussian_mu is not None:
        bad = bad or v["mu_lb"] > spec.gaussian_mu or any(v["rdp_lb"][a] > spec.rdp(a) for a in RDP_ORDERS)
    return bad


def run_audit(spec: AuditSpec, n: int, alpha: float, seed: int) -> tuple[Result, Result]:
    """(claim result, aggregated control result): the control verdict is FAIL only if every
    broken variant is caught."""
    correct = audit_variant(spec, "correct", n, alpha, seed)
    measured = correct["mu_lb"] if spec.gdp_only else correct["eps_lb"]
    res = check_privacy(measured, 1 - alpha, spec.eps)
    if _violates(spec, correct):
        res.verdict = "FAIL"
    res.detail.update({"correct": correct, "tight_floor": spec.tight_floor, "claimed_mu": spec.gaussian_mu,
                       "claimed_rdp": {a: spec.rdp(a) for a in RDP_ORDERS} if spec.rdp else None})
    if spec.tight_floor is not None:
        res.detail["tight"] = bool(measured >= spec.tight_floor * spec.eps)
    if spec.exact_check is not None:
        err = spec.exact_check(_rng(seed, spec.claim.claim_id, "exact"))
        res.detail["exact_check"] = err or spec.exact_ok
        if err:
            res.verdict = "FAIL"
    ctl = {name: audit_variant(spec, name, n, alpha, seed) for name in spec.controls}
    caught = {name: _violates(spec, v) for name, v in ctl.items()}
    key = "mu_lb" if spec.gdp_only else "eps_lb"
    worst = min(ctl, key=lambda k: ctl[k][key])
    control = Result("FAIL" if all(caught.values()) else "PASS", float(ctl[worst][key]), spec.eps,
                     float(ctl[worst][key]), float("inf"), 0.0,
                     {"ci_of": f"one-sided lower bound on {'mu' if spec.gdp_only else 'eps'}, least-caught variant "
                               f"({worst})", "variants": ctl, "caught": caught})
    return res, control
