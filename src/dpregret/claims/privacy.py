"""Privacy claims, audited empirically (issue: "try to break every privacy claim").

Each :class:`AuditSpec` fixes worst-case neighbouring inputs, samples outputs of *the code the
scenarios run* (``dpregret.mechanisms``, ``dpregret.tree``, the learners and their compiled
kernels, with the noise scale they compute themselves), scores them by the exact log-likelihood
ratio under the *claimed* noise (the paper's formula, written out here and not read from the code
under audit), and runs the recipe of :mod:`dpregret.audit`.

Cells.  A mechanism that releases a sequence is audited with the differing record at *every*
position t = 1..T of its small instance (and, for Lemma 4.2, on every implementation the
scenarios run): one cell per (implementation, position).  The neighbour D' (the base input) is
shared by the cells of one implementation; each D_t replaces record t.  Every cell gets its own
lower bound at level ``alpha / cells`` (Bonferroni: the per-cell bounds hold simultaneously with
probability >= 1 - alpha), and the claim is decided on the worst cell.

Statistical checks.  Where the transcript's noise is observable (known inputs), a spec also tests
that its noise draws are independent (pairwise correlations of the values and of their absolute
values, Bonferroni, at false-alarm level ``CHECK_SHARE * alpha``; the lower bounds then use the
rest of alpha): a reused draw leaves every single output correctly distributed, so the
likelihood ratio under the claimed independent-noise model cannot see it.

Controls.  Each spec names one *primary* control, the smallest plausible mistake (normally half
the noise), and secondary ones (grosser mistakes).  A control is caught (verdict FAIL) when its
lower bound exceeds the claim; otherwise it is INCONCLUSIVE (a lower bound cannot show that a
variant is private).  ``blind`` lists controls that the instance provably cannot catch, with the
computation that shows it (Lemma 5.4: half of its sigma is still (eps, delta)-DP on every
auditable instance).

Mechanisms audited: the Laplace and Gaussian mechanisms; Van der Hoeven's local Laplace
randomiser (Lemma 4) and the l2 randomiser (Song et al.); Agarwal-Singh TreeBasedAgg (Lemma 3.3)
as the experts scenario runs it, on its node transcript (LLR plus same-level node contrasts, the
independence check, and the exact check that its releases are the 0/1 node-to-prefix map applied
to the nodes plus padding); Zhang-Tran-Cutkosky NOISE(t) (Theorem 3's tree) on its releases,
which determine its node transcript exactly.

Private algorithms end to end: Algorithm 4 (Lemma 4.2) on what its inner learner receives, read
from the compiled EXP2 rounds (``exp2_block``, the scenario's path and row layout), from the numpy
classes (``PrivateFeedback`` around ``Exp2``, through a recording wrapper) and from the compiled
SCRiBLe rounds (``scrible_block``) on the cube with N = 1, where every forwarded value
``<l + Z, y>`` is a scaled Laplace draw (exact likelihood; for N >= 2 it is a sum of differently
scaled Laplace draws); Zhang-Tran-Cutkosky Algorithm 1 (``o2b.run``) on its released sequence;
Ene-Nguyen-Vladu PRIVATEBANDIT (Lemmas 5.1 and 5.4) on its released round sums.  Later plays are
functions of the audited values and data-independent randomness (post-processing).  The
Agarwal-Singh experts learner releases ``softmax(-eta L~_{t-1})``, a post-processing of
TreeBasedAgg's releases: covered by the TreeBasedAgg audit.  Not audited: the sphere and cube
learners of Table 1 (their TreeBasedAgg scale ``laplace_scale_cor3_2``) and PRIVATEBANDIT's
iterates (only its releases).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, special

from .. import mechanisms as M
from ..audit import eps_lower_bound, gdp_mu_lower_bound, renyi_lower_bound
from ..rng import ReplicateStreams, stable_key
from ..tree import TreeNoise, nodes_covering_leaf, prefix_node_matrix
from .core import Claim, Result, check_privacy

VDH, AS17, ZTC = "VDH19", "AS17", "ZTC22"
ENV = "ENV21"
CHUNK = 2**15  # rows per simulation call: memory and cache only (the rows are i.i.d. either way)
CHECK_SHARE = 0.1  # share of alpha spent on a spec's statistical check (the lower bounds get the rest)
CHECK_SAMPLES = 100_000  # transcripts per statistical check (at most the audit's n)

# draw(variant, n, rng) -> {cell: (scores of n outputs under D, scores of n outputs under D')};
# scores are (n,) or (n, k) (k statistics of each output; the selection half picks one);
# rng(*parts) is the variant's generator for that part of the draw
RngFor = Callable[..., np.random.Generator]
Cells = dict[str, tuple[np.ndarray, np.ndarray]]
Draw = Callable[[str, int, RngFor], Cells]


@dataclass
class AuditSpec:
    claim: Claim
    eps: float  # claimed eps (for GDP claims: the claimed mu)
    delta: float
    draw: Draw
    primary: str  # the primary control (the smallest plausible mistake)
    controls: dict[str, str]  # every control (primary included) -> what is broken
    gaussian_mu: float | None = None  # claimed GDP mu (Gaussian claims)
    rdp: Callable[[float], float] | None = None  # claimed RDP eps(alpha)
    tight_floor: float | None = None  # eps_lb must reach this fraction of the claim (pure-DP Laplace)
    exact_check: Callable[[np.random.Generator], str | None] | None = None
    exact_ok: str = "releases = node map x nodes + padding (exact)"  # what a passing exact_check established
    gdp_only: bool = False  # the claim is mu-GDP only (no eps)
    # stat_check(n, alpha, rng) -> (failure or None, details): a test of the correct mechanism at
    # false-alarm level alpha (CHECK_SHARE of the audit's alpha)
    stat_check: Callable[[int, float, np.random.Generator], tuple[str | None, dict]] | None = None
    blind: dict[str, str] = field(default_factory=dict)  # controls this instance cannot catch, and why

    @property
    def secondary(self) -> list[str]:
        return [k for k in self.controls if k != self.primary]


def _claim(cid, paper, theorem, statement, controls: dict[str, str], primary: str, near_miss: bool = True) -> Claim:
    if primary not in controls:
        raise ValueError(f"{cid}: primary control {primary!r} is not among {sorted(controls)}")
    return Claim(cid, paper, theorem, "privacy", statement,
                 "empirical eps lower bound (or GDP mu) at the worst cell (position / implementation)",
                 f"{primary}: {controls[primary]}", near_miss=near_miss,
                 secondary="; ".join(f"{k}: {v}" for k, v in controls.items() if k != primary))


def _chunks(n: int):
    for a in range(0, n, CHUNK):
        yield a, min(n, a + CHUNK)


def _one_release(sample, score) -> Draw:
    """A single-release mechanism: one cell, D and D' fixed by the spec."""
    def draw(variant, n, rng):
        return {"single release": (score(sample(variant, 0, n, rng("D")), variant),
                                   score(sample(variant, 1, n, rng("D'")), variant))}
    return draw


# --- Laplace mechanism ------------------------------------------------------------------
def laplace_spec(eps: float = 1.0) -> AuditSpec:
    x0, x1 = np.zeros(2), np.full(2, 0.5)  # l1 distance 1, l2 distance 0.707
    scales = {"correct": 1.0 / eps, "half_noise": 0.5 / eps, "wrong_sensitivity": np.sqrt(0.5) / eps,
              "no_noise": 0.0}

    def sample(variant, side, n, rng):
        noise = M.laplace_noise(scales[variant], (n, 2), rng) if scales[variant] else np.zeros((n, 2))
        return (x1 if side else x0) + noise

    controls = {"half_noise": "scale Delta_1/(2 eps)", "wrong_sensitivity": "scale from the l2 norm (0.707/eps)",
                "no_noise": "output = input"}
    return AuditSpec(_claim("AUDIT-laplace-mechanism", AS17, "Laplace mechanism (Lap^N(lambda), section 2)",
                            f"x + Lap(Delta_1/eps)^d is eps-DP (eps = {eps:g}, Delta_1 = 1, d = 2)", controls,
                            "half_noise"),
                     eps, 0.0, _one_release(sample, lambda y, v: M.laplace_logpdf(y - x0, 1 / eps)
                                            - M.laplace_logpdf(y - x1, 1 / eps)),
                     "half_noise", controls, tight_floor=0.9)


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
                            f"(eps = {eps:g}, delta = {delta:g}), {mu:.4g}-GDP and (alpha, alpha mu^2/2)-RDP", controls,
                            "half_noise"),
                     eps, delta, _one_release(sample, lambda y, v: M.gaussian_logpdf(y - x0, sigma)
                                              - M.gaussian_logpdf(y - x1, sigma)),
                     "half_noise", controls, gaussian_mu=mu, rdp=lambda al: al * mu**2 / 2)


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
                            "(tau = (0.6, 0.4, inf): eps = 1 over the protected coordinates)", controls, "half_noise"),
                     eps, 0.0, _one_release(sample, score), "half_noise", controls, tight_floor=0.9)


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
                            controls, "half_noise"),
                     eps, 0.0, _one_release(sample, score), "half_noise", controls)


# --- the two trees: node transcripts ---------------------------------------------------------
def _tree_layout(T: int) -> tuple[dict[int, list[int]], dict[int, list[tuple[int, int]]]]:
    """Node k (0-based) is the dyadic interval completed at step k + 1, ``(k+1 - lowbit(k+1), k+1]``.
    Per leaf p: the nodes covering it, and the pairs (covering node, same-level node not covering it)."""
    span = [(t - (t & -t) + 1, t) for t in range(1, T + 1)]
    level = [(t & -t).bit_length() - 1 for t in range(1, T + 1)]
    cover = {p: [k for k, (a, b) in enumerate(span) if a <= p <= b] for p in range(1, T + 1)}
    pairs = {p: [(k, j) for k in cover[p] for j in range(T) if level[j] == level[k] and j not in cover[p]]
             for p in range(1, T + 1)}
    return cover, pairs


def _node_scores(nodes: np.ndarray, p: int, llr, cover, pairs) -> np.ndarray:
    """Scores of node transcripts (n, T, d) for the record at leaf p: column 0 the LLR under
    the claimed independent-node model (``llr``: per-coordinate log-ratio, summed); then one
    contrast per same-level pair, node covering p minus node not covering it (summed over
    coordinates): under the claim its noise is a difference of two fresh draws, but if nodes of
    a level shared a draw it would be noise-free."""
    cols = [llr(nodes[:, cover[p], :]).reshape(len(nodes), -1).sum(axis=1)]
    cols += [(nodes[:, k, :] - nodes[:, j, :]).sum(axis=1) for k, j in pairs[p]]
    return np.stack(cols, axis=1)


def _independence_check(noise: np.ndarray, alpha: float) -> tuple[str | None, dict]:
    """Are the columns of ``noise`` (n, m) -- the noise draws of one transcript (nodes, rounds) --
    independent?  Pearson correlations of the values and of their absolute values, every
    pair: under independence sqrt(n) r is ~ N(0, 1); Bonferroni over the 2 m (m-1)/2 tests,
    so a correct mechanism is flagged with probability <= alpha (asymptotically)."""
    n, m = noise.shape

    def corr(x):  # a constant (noise-free) column correlates with nothing
        c = x - x.mean(axis=0)
        sd = c.std(axis=0)
        ok = sd > 1e-12 * (1.0 + np.abs(x).mean(axis=0))
        z = np.where(ok, c / np.where(ok, sd, 1.0), 0.0)
        return (z.T @ z) / n

    iu = np.triu_indices(m, 1)
    z = np.sqrt(n) * np.concatenate([corr(noise)[iu], corr(np.abs(noise))[iu]])
    thr = float(special.ndtri(1 - alpha / (2 * z.size)))
    k = int(np.argmax(np.abs(z)))
    info = {"tests": int(z.size), "max_abs_z": float(abs(z[k])), "threshold": thr, "false_alarm_level": alpha,
            "samples": int(n), "worst_pair": [int(iu[0][k % iu[0].size]), int(iu[1][k % iu[0].size])],
            "statistic": "values" if k < iu[0].size else "absolute values"}
    if abs(z[k]) > thr:
        return (f"the noise draws are not independent: |z| = {abs(z[k]):.3g} > {thr:.3g} for columns "
                f"{info['worst_pair']} ({info['statistic']})"), info
    return None, info


# --- Agarwal-Singh TreeBasedAgg, node transcript ------------------------------------------
def tree_as17_spec(eps: float = 1.0, T: int = 4, N: int = 2) -> AuditSpec:
    """TreeBasedAgg (Algorithm 2) as the experts scenario runs it (``TreeSum`` over
    ``scaled_draws``, every node's scale from the scenario's ``tree_lambda``) on losses in
    [0, 1]^N; D' = all zero, D_p = 1 at step p.  The transcript is the T completed nodes
    (``last_node``; every release is the node map of them plus padding, checked exactly), scored
    under the claim's lambda = N (floor(log2 T) + 1) / eps (written out here, not read from the
    code under audit).  Controls grosser than half_noise (lambda from the l_inf sensitivity m/eps
    -- equal to half_noise at N = 2 --, lambda = N/eps, no noise) would each cost a full sweep
    and show nothing more."""
    from ..learners.prefix_sums import TreeSum, scaled_draws
    from ..calibration import tree_lambda

    lam = N * (int(math.log2(T)) + 1) / eps  # the claim's scale (Lemma 3.3 with the corrected node count)
    m = int(math.log2(T)) + 1
    lams = {"correct": None, "paper_log_count": N * math.ceil(math.log2(T)) / eps, "half_noise": lam / 2}
    cover, pairs = _tree_layout(T)

    def run(variant, p, n, rng, releases=False):
        """Node transcripts (n, T, N) with the record at step p (p = 0: D')."""
        lam_v = tree_lambda(N, T, eps) if lams[variant] is None else lams[variant]
        nodes, rel = np.empty((n, T, N)), np.empty((n, T, N)) if releases else None
        for a, b in _chunks(n):
            tree = TreeSum(T, b - a, N, scaled_draws(_SampleStreams(rng, b - a), lam_v, N)).tree
            for t in range(1, T + 1):
                tree.step(np.ones(N) if t == p else np.zeros(N))
                nodes[a:b, t - 1] = tree.last_node[1]
                if releases:
                    rel[a:b, t - 1] = tree.released - tree.padding
        return (nodes, rel) if releases else nodes

    def llr(y):
        return (np.abs(y) - np.abs(y - 1.0)) / lam  # log Lap(y - 1; lam) - log Lap(y; lam)

    def draw(variant, n, rng):
        base = run(variant, 0, n, rng("D'"))
        return {f"t={p}": (_node_scores(run(variant, p, n, rng("D", p)), p, llr, cover, pairs),
                           _node_scores(base, p, llr, cover, pairs)) for p in range(1, T + 1)}

    def exact(rng) -> str | None:
        Mx, _ = prefix_node_matrix(T)
        for p in range(T + 1):
            nodes, rel = run("correct", p, 64, rng, releases=True)
            err = float(np.abs(np.einsum("tk,nkd->ntd", Mx, nodes) - rel).max())
            if err >= 1e-9:
                return f"released prefix sums differ from the node map by {err:.3g} (record at step {p})"
        # the block path the Table 1 scenarios run (TreeSum.block -> tree.TreeReleases) releases what
        # the streaming class releases on the same draws, the record at every step
        seed = int(rng.integers(2**31))
        for p in range(T + 1):
            losses = np.zeros((64, T, N))
            if p:
                losses[:, p - 1] = 1.0
            ref = TreeSum(T, 64, N, scaled_draws(ReplicateStreams(seed, (p,), range(64)), tree_lambda(N, T, eps), N))
            want = []
            for t in range(T):
                ref.step(losses[:, t])
                want.append(ref.estimate)
            fast = TreeSum(T, 64, N, scaled_draws(ReplicateStreams(seed, (p,), range(64)), tree_lambda(N, T, eps), N))
            before = fast.block(losses)
            got = np.concatenate([before[:, 1:], (fast._blocks.true + fast._blocks.noise)[:, None]], axis=1)
            err = float(np.abs(got - np.stack(want, axis=1)).max())
            if err >= 1e-9:
                return f"the block path's releases differ from the class's by {err:.3g} (record at step {p})"
        return None

    def independence(n, alpha, rng):  # under D' every node value is its noise
        return _independence_check(run("correct", 0, min(n, CHECK_SAMPLES), rng).reshape(-1, T * N), alpha)

    k = math.ceil(math.log2(T))
    controls = {"paper_log_count": f"lambda with the paper's ceil(log2 T) = {k} instead of the {m} nodes covering a "
                f"leaf (the erratum; the nearest miss, eps x {m / k:.3g})", "half_noise": "lambda / 2"}
    return AuditSpec(_claim("AUDIT-as17-lemma3.3-tree", AS17, "Lemma 3.3 (Algorithm 2), node transcript",
                            f"TreeBasedAgg with Lap^N(N (floor(log2 T)+1)/eps) per node (the experts scenario's "
                            f"tree_lambda) is eps-DP (eps = {eps:g}, T = {T}, N = {N}, losses in [0,1]^N, the record "
                            f"at every step); releases = node map x nodes + padding, and the block path of the Table 1 "
                            f"scenarios (tree.TreeReleases) releases the same; node noises independent",
                            controls, "paper_log_count"),
                     eps, 0.0, draw, "paper_log_count", controls, tight_floor=0.85, exact_check=exact,
                     stat_check=independence)


# --- Zhang-Tran-Cutkosky NOISE(t), releases (equivalent to the node transcript) ----------
def tree_ztc_spec(mu: float = 1.0, T: int = 4) -> AuditSpec:
    m = (2 * T - 1).bit_length()  # log2(2T) for T a power of two: nodes covering a leaf
    sigma = np.sqrt(m) / mu  # Delta = 1
    sig = {"correct": sigma, "log2_T": np.sqrt(m - 1) / mu, "half_noise": sigma / 2}
    cover, pairs = _tree_layout(T)

    def run(s, p, n, rng):
        """Node transcripts (n, T, 1) derived from the releases prefix_t + NOISE(t), record at step p."""
        out = np.empty((n, T, 1))
        for a, b in _chunks(n):
            r = b - a
            tree = TreeNoise(T, 1, lambda k, r=r: rng.standard_normal((r, k, 1)), r)
            rel = np.zeros((r, T + 1))  # r_0 = 0
            for t in range(1, T + 1):
                rel[:, t] = (1.0 if 1 <= p <= t else 0.0) + tree.step(s)[:, 0]
            out[a:b, :, 0] = np.stack([rel[:, t] - rel[:, t - (t & -t)] for t in range(1, T + 1)], axis=1)
        return out

    def llr(y):
        return (2 * y - 1.0) / (2 * sigma**2)  # log N(y - 1; sigma) - log N(y; sigma)

    def draw(variant, n, rng):
        base = run(sig[variant], 0, n, rng("D'"))
        return {f"t={p}": (_node_scores(run(sig[variant], p, n, rng("D", p)), p, llr, cover, pairs),
                           _node_scores(base, p, llr, cover, pairs)) for p in range(1, T + 1)}

    def independence(n, alpha, rng):  # under D' the derived nodes are the node draws R_t
        return _independence_check(run(sigma, 0, min(n, CHECK_SAMPLES), rng)[:, :, 0], alpha)

    controls = {"log2_T": f"sigma with log2(T) instead of log2(2T) (the nearest miss: mu x {np.sqrt(m / (m - 1)):.3g})",
                "half_noise": "sigma / 2"}
    return AuditSpec(_claim("AUDIT-ztc-thm3-tree", ZTC, "Theorem 3 / eq. (6), NOISE(t)",
                            f"releases prefix + NOISE(t) with sigma^2 = log2(2T) Delta^2 / mu^2 are mu-GDP, i.e. "
                            f"(alpha, alpha mu^2/2)-RDP (mu = {mu:g}, T = {T}, Delta = 1, the record at every step); "
                            f"the nodes derived from the releases are independent draws", controls, "log2_T"),
                     mu, 0.0, draw, "log2_T", controls, gaussian_mu=mu, rdp=lambda al: al * mu**2 / 2, gdp_only=True,
                     stat_check=independence)


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


class _Received:
    """Recording wrapper around an inner bandit learner: keeps the arm it played and the value
    its ``update`` received (what Algorithm 4 forwarded), then passes the value on unchanged."""

    def __init__(self, inner):
        self.inner, self.arms, self.values = inner, [], []

    def __getattr__(self, name):  # B, N, p, arm, ...: the inner learner's
        return getattr(self.inner, name)

    def predict(self):
        return self.inner.predict()

    def update(self, value) -> None:
        self.arms.append(np.array(self.inner.arm, dtype=float))
        self.values.append(np.array(value, dtype=float))
        self.inner.update(value)


# --- Agarwal-Singh Lemma 4.2: Algorithm 4 end to end, on what the inner learner receives ------
def mab_feedback_spec(eps: float = 1.0, N: int = 2, T: int = 4) -> AuditSpec:
    """Algorithm 4's transcript is the sequence of (arm or point played, value forwarded to the
    inner learner); later plays are functions of it and of data-independent randomness.  It is
    read from what the inner learner receives, on three implementations (cells ``path t=p``):

    - ``exp2-kernel``: the compiled EXP2 rounds of the AS17 mab scenario (``exp2_block`` with
      ``record=``), in the scenario's row layout (the non-private ``exp2`` rows first, then the
      audited ``dp_exp2`` rows; lambda, eta, gamma from the scenario's ``row_params``);
    - ``exp2-numpy``: ``PrivateFeedback`` around ``Exp2`` (the classes the kernel reproduces), the
      values taken by a recording wrapper around the inner ``Exp2``;
    - ``scrible-kernel``: the compiled SCRiBLe rounds of the AS17 blo scenario (``scrible_block``
      with ``record=``) on the cube with N = 1, rows ``scrible`` then ``dp_scrible`` as the scenario
      lays them out (lambda, eta from its ``params``).  The forwarded ``<l + Z, y> = y (l + Z)`` is a
      scaled Laplace draw, scored with the recorded y (for N >= 2 it is a sum of differently
      scaled Laplace draws, with no simple density).

    Scores use the claim's lambda, written out: Lemma 4.2's B / eps with B = 1 for arms, and
    2 ||Y||_1 / eps = 2 / eps for the cube (the replace-one range of ``<l, y> / |y|``).  Losses:
    EXP2 base ``l_t(j) = (t + j) mod 2`` in [0, 1]^N, D_p flips every arm of l_p (|change| = 1);
    SCRiBLe base ``l_t = +-1`` alternating (the unit l1 ball of R^1), D_p negates l_p (|change| =
    2).  The statistical check: the forwarded noises (value minus the loss of the arm played, or
    ``v / y - l``) of the T rounds are independent (a kernel that reused a round's noise would
    forward noise-free differences)."""
    from ..learners.bandits import Exp2, PrivateFeedback
    from ..learners.exp2_jit import exp2_block
    from ..learners.scrible_jit import scrible_block
    from ..scenarios.as17_bandits import row_params
    from ..scenarios.as17_blo import params as blo_params

    claim_lam, claim_lam_s = 1.0 / eps, 2.0 / eps
    lam, eta, gam = row_params("dp_exp2", N, T, eps)
    _, eta0, gam0 = row_params("exp2", N, T, None)
    sp, sp0 = blo_params("cube", "dp_scrible", 1, T, eps), blo_params("cube", "scrible", 1, T, None)
    b01 = np.array([[(t + j) % 2 for j in range(N)] for t in range(T)], dtype=float)
    bpm = np.array([[1.0 if t % 2 == 0 else -1.0] for t in range(T)])
    # per path and variant: (lambda the audited rows run with, base losses, (lo, hi): D_p row = lo + hi - base row)
    exp2 = {"correct": (lam, b01, (0, 1)), "half_noise": (claim_lam / 2, b01, (0, 1)),
            "wrong_sensitivity": (claim_lam, 2 * b01 - 1, (-1, 1))}
    scr = {"correct": (sp["lambda"], bpm, (-1, 1)), "half_noise": (claim_lam_s / 2, bpm, (-1, 1)),
           "wrong_sensitivity": (1.0 / eps, bpm, (-1, 1))}

    def neighbour(base, lh, p):
        L = base.copy()
        if p:
            L[p - 1] = lh[0] + lh[1] - L[p - 1]
        return L

    # sim(L, lam, n, rng): n runs over the rounds of L (len(L) <= T); what the inner learner received
    def exp2_kernel(L, lam_v, n, rng):
        tb = len(L)
        rec = np.empty((n, tb, 2))
        for a, b in _chunks(n):
            r = b - a  # rows: r non-private (exp2), then r audited (dp_exp2), as the scenario batches them
            Z, U = rng.laplace(0.0, 1.0, (r, tb, N)), rng.random((r, tb))
            out = np.empty((2 * r, tb, 2))
            exp2_block(np.full((2 * r, N), -np.log(N)), np.repeat([eta0, eta], r), np.repeat([gam0, gam], r),
                       np.repeat([0.0, lam_v], r), np.zeros((2 * r, N)),
                       np.ascontiguousarray(np.broadcast_to(L, (r, tb, N))), Z, U, np.zeros(2 * r), np.zeros(2 * r),
                       np.zeros((2 * r, N)), out)
            rec[a:b] = out[r:]
        return rec

    def exp2_numpy(L, lam_v, n, rng):
        rec = np.empty((n, len(L), 2))
        for a, b in _chunks(n):
            st = _SampleStreams(rng, b - a)
            inner = _Received(Exp2(N, eta, gam, st, b - a))
            learner = PrivateFeedback(inner, lam_v, st)
            for row in L:
                learner.update(row[learner.predict()])
            rec[a:b, :, 0], rec[a:b, :, 1] = np.stack(inner.arms, axis=1), np.stack(inner.values, axis=1)
        return rec

    def scrible_kernel(L, lam_v, n, rng):
        tb = len(L)
        rec = np.empty((n, tb, 2))
        for a, b in _chunks(n):
            r = b - a  # rows: r non-private (scrible), then r audited (dp_scrible)
            Z, U = rng.laplace(0.0, 1.0, (r, tb, 1)), rng.random((r, tb))
            out = np.empty((2 * r, tb, 2))
            scrible_block(False, np.zeros((2 * r, 1)), np.repeat([sp0["eta"], sp["eta"]], r),
                          np.repeat([0.0, lam_v], r), np.ascontiguousarray(np.broadcast_to(L, (r, tb, 1))), Z, U, np.zeros(2 * r), out)
            rec[a:b] = out[r:]
        return rec

    def exp2_noise(rec, L, t):  # round t's forwarded value minus the loss of the arm played
        return rec[:, t - 1, 1] - L[t - 1][rec[:, t - 1, 0].astype(np.int64)]

    def scrible_noise(rec, L, t):  # v / y - l = lambda Z
        return rec[:, t - 1, 0] / rec[:, t - 1, 1] - L[t - 1, 0]

    def exp2_shift(rec, p, LD, base):  # change of the played arm's loss in round p
        arm = rec[:, p - 1, 0].astype(np.int64)
        return LD[p - 1][arm] - base[p - 1][arm]

    def scrible_shift(rec, p, LD, base):
        return LD[p - 1, 0] - base[p - 1, 0]

    paths = {"exp2-kernel": (exp2_kernel, exp2_noise, exp2_shift, exp2, claim_lam),
             "exp2-numpy": (exp2_numpy, exp2_noise, exp2_shift, exp2, claim_lam),
             "scrible-kernel": (scrible_kernel, scrible_noise, scrible_shift, scr, claim_lam_s)}

    def score(path, p, LD, base, rec):
        """log p_D(transcript) - log p_D'(transcript) under the claim: round p's term only (later
        rounds have the same conditional law under both inputs)."""
        _, noise, shift, _, lam_c = paths[path]
        z, c = noise(rec, base, p), shift(rec, p, LD, base)  # z = c + noise under D, noise under D'
        return (np.abs(z) - np.abs(z - c)) / lam_c

    def draw(variant, n, rng):
        cells = {}
        for name, (sim, _, _, table, _) in paths.items():
            lam_v, base, lh = table[variant]
            rec0 = sim(base, lam_v, n, rng(name, "D'"))
            for p in range(1, T + 1):
                # rounds after p have the same conditional law under D_p and D' (same losses), so the
                # transcript's likelihood ratio is round p's: D_p runs only rounds 1..p
                LD = neighbour(base, lh, p)
                cells[f"{name} t={p}"] = (score(name, p, LD, base, sim(LD[:p], lam_v, n, rng(name, "D", p))),
                                          score(name, p, LD, base, rec0))
        return cells

    def independence(n, alpha, rng):
        fails, info = [], {}
        for name, (sim, noise, _, table, _) in paths.items():
            lam_v, base, _ = table["correct"]
            rec = sim(base, lam_v, min(n, CHECK_SAMPLES), rng)
            err, info[name] = _independence_check(np.stack([noise(rec, base, t) for t in range(1, T + 1)], axis=1),
                                                  alpha / len(paths))
            if err:
                fails.append(f"{name}: {err}")
        return ("; ".join(fails) or None), info

    controls = {"half_noise": "lambda / 2", "wrong_sensitivity": "losses in [-1, 1] (the paper's ||l||_inf <= 1) "
                "with lambda = 1/eps, calibrated for [0, 1]; SCRiBLe: the printed lambda = ||Y||_1/eps without the "
                "factor 2 (true eps: 2 eps; a no-noise control, grosser still, would cost a full sweep)"}
    return AuditSpec(_claim("AUDIT-as17-lemma4.2-bandit", AS17, "Lemma 4.2 (Algorithm 4 + EXP2 / SCRiBLe), transcript",
                            f"the plays and forwarded values of Algorithm 4 are eps-DP (eps = {eps:g}, T = {T}, the "
                            f"record at every step): EXP2 with N = {N} arms and lambda = 1/eps (compiled rounds and "
                            f"numpy classes), SCRiBLe on the cube [-1, 1] with lambda = 2/eps (compiled rounds); "
                            f"the forwarded noises are independent across rounds", controls, "half_noise"),
                     eps, 0.0, draw, "half_noise", controls, tight_floor=0.9, stat_check=independence)


# --- Zhang-Tran-Cutkosky Theorem 3: Algorithm 1 end to end on its released sequence ---------
class _HuberPair:
    """1-D losses ``l(x, s) = s h(x)`` with ``h'(x) = clip(H (x - a), -G, G)``: G-Lipschitz and
    H-smooth for the record s = +1 (convex) and s = -1 (concave).  Theorem 3 assumes only these
    two properties of l (Assumptions 3-4; convexity enters the utility theorems, not privacy), and
    the pair realises the largest gradient-difference change the smoothness term of eq. (6) allows."""

    d, mu, sigma_G, sigma_H, L_star = 1, 0.0, 0.0, 0.0, 0.0

    def __init__(self, G: float, H: float, a: float, r: float):
        self.G, self.H, self.a, self.r, self.D = G, H, a, r, 2.0 * r
        self.x_star = np.zeros(1)

    def grad(self, x, z):
        return np.asarray(z[0]).reshape(-1, 1) * np.clip(self.H * (x - self.a), -self.G, self.G)

    def subopt(self, x):
        return np.zeros(len(x))

    def neighbours(self, z, x_t, x_prev):
        return [(-np.asarray(z[0]),)]


class _Schedule:
    """An online learner that plays the fixed points ``ws`` (ignoring its losses).  Algorithm 1
    must be private for every learner; a fixed schedule makes x_t, Delta_t and sigma_t
    deterministic, so the releases are Gaussian nodes with known means."""

    def __init__(self, ws, n: int):
        self.ws, self.n, self.t = list(ws), n, 0

    def predict(self):
        return np.full((self.n, 1), self.ws[min(self.t, len(self.ws) - 1)])

    def update(self, g) -> None:
        self.t += 1


def ztc_o2b_spec(rho: float = 1.0, T: int = 8) -> AuditSpec:
    """Algorithm 1 (:func:`dpregret.learners.o2b.run`, NOISE(t) with sigma_t of eq. (6), k = 1) on
    the records of :class:`_HuberPair` with the learner :class:`_Schedule`: ``w_t = x_{t-1}``
    except one jump ``w_q = x_{q-1} + 1`` at ``q = T/2 + 1`` (the leaf in log2 T of the log2(2T)
    nodes), so ``max_i ||w_i - x_{i-1}||`` is 1 from step q on and 0 before; ``a`` and ``G = H /
    (q + 1)`` make the gradient difference of the two records go from -2G at x_{q-1} to +2G at
    x_q.  Then ``||delta_q - delta'_q|| / Delta_q = (2q - 1) / (2q + 4)`` and the record at q is
    ``sqrt(log2 T / log2 2T) (2q - 1)/(2q + 4)``-GDP relative to rho (0.557 at T = 8): eq. (6)
    cannot be attained more closely (its 2(k+1) t^(k-1) G term is twice what one record moves at
    k = 1, and only leaf 1 lies in log2(2T) nodes).  D' = every record -1; D_p = record p is +1.
    The score is the exact LLR of the node transcript (nodes = differences of releases, Gaussian
    with sigma_t of eq. (6)); the exact check equals it to the replayed likelihood
    :func:`~dpregret.learners.o2b.transcript_logpdf`."""
    from ..learners import o2b

    k = 1.0
    q = T // 2 + 1
    x_q = 2.0 / (q + 1)  # x after the jump (k = 1: x_q = ((q-1) x_{q-1} + 2 w_q) / (q + 1))
    ws = [0.0] * (q - 1) + [1.0] + [x_q] * (T - q)
    prob = _HuberPair(G=1.0 / (q + 1), H=1.0, a=x_q / 2, r=1.0)
    maxdist = np.array([0.0 if t < q else 1.0 for t in range(1, T + 1)])  # max_{i<=t} ||w_i - x_{i-1}||
    # the claim's sigma_t (eq. (6)), written out here rather than read from the code under audit
    sig = np.array([2 * (k + 1) * t ** (k - 1) * (prob.G + prob.H * maxdist[t - 1]) * math.sqrt(math.log2(2 * T)) / rho
                    for t in range(1, T + 1)])
    variant_args = {"correct": {}, "half_noise": {"noise_factor": 0.5}, "G_only": {"sensitivity": "G_only"}}

    def data(p):
        return [(np.array([1.0 if t == p else -1.0]),) for t in range(1, T + 1)]

    def releases(p, n, rng, **kw):
        out = np.empty((n, T))
        for a, b in _chunks(n):
            args = {"rho": rho, **kw}
            run = o2b.run(o2b.FixedData(prob, data(p)), _Schedule(ws, b - a), T, k=k, src=None, noise_src=rng,
                          checkpoints=[T], record_released=True, **args)
            out[a:b] = run.extra["released"][:, :, 0]
        return out

    def nodes(y):  # node k = release k minus release k - lowbit(k) (release 0 = 0)
        z = y.copy()
        for t in range(1, T + 1):
            if t & (t - 1):  # not a power of two
                z[:, t - 1] -= y[:, t - (t & -t) - 1]
        return z

    means = {p: nodes(releases(p, 1, np.random.default_rng(0), rho=math.inf))[0] for p in range(T + 1)}

    def llr_nodes(z, p):
        """Exact log p_{D_p} - log p_{D'} of node transcripts z under the claimed sigma_t: the
        nodes whose means agree (those not covering p) contribute exactly 0 and are skipped."""
        k = np.flatnonzero(means[p] != means[0])
        return np.sum(((z[:, k] - means[0][k]) ** 2 - (z[:, k] - means[p][k]) ** 2) / (2 * sig[k] ** 2), axis=1)

    def llr(y, p):  # of the releases y
        return llr_nodes(nodes(y), p)

    def draw(variant, n, rng):
        base = nodes(releases(0, n, rng("D'"), **variant_args[variant]))
        return {f"t={p}": (llr(releases(p, n, rng("D", p), **variant_args[variant]), p), llr_nodes(base, p))
                for p in range(1, T + 1)}

    def exact(rng) -> str | None:
        y = releases(0, 16, rng)
        for p in (1, q, T):
            rep = [o2b.transcript_logpdf(prob, data(s), _Schedule(ws, len(y)), y[:, :, None], k=k, rho=rho)
                   for s in (p, 0)]
            err = float(np.abs(llr(y, p) - (rep[0] - rep[1])).max())
            if err > 1e-8:
                return f"closed-form node LLR differs from the replayed likelihood by {err:.3g} (record at {p})"
        got = abs(means[q][q - 1] - means[0][q - 1]) / (sig[q - 1] * rho / math.sqrt(math.log2(2 * T)))
        want = (2 * q - 1) / (2 * q + 4)
        if abs(got - want) >= 1e-12:
            return f"the record at {q} moves delta_q by {got:.6g} Delta_q, not {want:.6g}"
        return None

    def independence(n, alpha, rng):  # node noises of the releases under D'
        return _independence_check(nodes(releases(0, min(n, CHECK_SAMPLES), rng)) - means[0], alpha)

    mu_q = math.sqrt(math.log2(T) / math.log2(2 * T)) * (2 * q - 1) / (2 * q + 4) * rho
    controls = {"half_noise": f"sigma_t / 2 (mu of the record at t = {q}: {2 * mu_q:.3g})",
                "G_only": "Delta_t without the smoothness term H max ||w_i - x_{i-1}|| (sigma_t 7x too small "
                          "from the jump on; Delta_t without G, or no noise, are grosser still)"}
    return AuditSpec(_claim("AUDIT-ztc-thm3-o2b", ZTC, "Theorem 3 (Algorithm 1 end to end)",
                            f"the released g_t + gamma_t of Algorithm 1 (k = 1, T = {T}, eq. (6) sigma_t; 1-D records "
                            f"G-Lipschitz and H-smooth, a fixed-schedule learner; the record at every step) are "
                            f"(alpha, alpha rho^2/2)-RDP, i.e. rho-GDP (rho = {rho:g}); the worst record (t = {q}) "
                            f"is exactly {mu_q:.3g}-GDP", controls, "half_noise"),
                     rho, 0.0, draw, "half_noise", controls, gaussian_mu=rho, rdp=lambda al: al * rho**2 / 2,
                     gdp_only=True, exact_check=exact, stat_check=independence,
                     exact_ok="closed-form node LLR = replayed transcript likelihood; the record at the jump moves "
                              "delta_q by (2q-1)/(2q+4) Delta_q (exact)")


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


class _OneStepLoss:
    """Neighbouring loss sequences for the PRIVATEBANDIT audits: ``f_p = L D`` (a constant:
    convex, L-Lipschitz, and at every query the largest value the premise ``0 <= f_t <= L D``
    allows) under D_p, every other ``f_t = 0`` (and all zero under D', ``p = 0``).  The batch sum
    of p's round then changes by ``(n / zeta) L D u``, the replace-one sensitivity, wherever the
    query is, and every batch sum has a known mean."""

    def __init__(self, domain, T: int, L: float, p: int):
        self.domain, self.T, self.L, self.n, self.p = domain, T, L, domain.n, p

    def value(self, t, y):
        return np.full(len(y), self.L * self.domain.D if t == self.p else 0.0)

    def best_fixed(self, taus):
        return np.zeros(np.size(taus))


def _gdp_delta(eps: float, mu: float) -> float:
    """delta(eps) of mu-GDP (Dong, Roth, Su): Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    return math.exp(special.log_ndtr(-eps / mu + mu / 2)) - math.exp(eps + special.log_ndtr(-eps / mu - mu / 2))


def _gdp_mu_max(eps: float, delta: float) -> float:
    """The largest mu whose Gaussian mechanism is (eps, delta)-DP."""
    return float(optimize.brentq(lambda m: _gdp_delta(eps, m) - delta, 1e-9, 200.0))


def _lemma5_1_lambda(T: int, n: int, L: float, eps: float) -> float:
    """Lemma 5.1 as printed: ``T^(1/2) n L log T / eps`` (log = tree depth, base 2)."""
    return math.sqrt(T) * n * L * math.log2(T) / eps


def _lemma5_4_sigma(T: int, n: int, L: float, eps: float, delta: float) -> float:
    """Lemma 5.4 as printed: ``T^(1/4) n^(1/2) L log T log(T/delta) / eps * (log((n+T)/delta) +
    sqrt((1 + T^(1/2)/n) log((n+T)/delta)))`` (tree depth base 2, the delta logarithms natural)."""
    ell = math.log((n + T) / delta)
    return (T**0.25 * math.sqrt(n) * L * math.log2(T) * math.log(T / delta) / eps
            * (ell + math.sqrt((1 + math.sqrt(T) / n) * ell)))


def env_releases_spec(kind: str, eps: float | None = None, delta: float = 0.1, T: int = 3, dim: int = 2) -> AuditSpec:
    """PRIVATEBANDIT (:func:`dpregret.learners.private_bandit.private_bandit`, which computes its
    own noise scale from eps (and delta) as the env21 scenario calls it) on the simplex of
    dimension ``dim`` with T = 3 steps (T_batch = 2, T_round = 2, one draw per release, so the two
    releases are the tree's two nodes), directions fixed at the l1-worst ``u``
    (:class:`_FixedDirections`), the record at every step (:class:`_OneStepLoss`).  The transcript
    is the released prefix sums ``s~_1, s~_2`` (every iterate is a function of them); a record of
    round 1 is in both, of round 2 in one.  Scores use the lemma's scale written out
    (:func:`_lemma5_1_lambda`, :func:`_lemma5_4_sigma`).  ``kind``: ``laplace`` (Lemma 5.1, eps-DP;
    eps defaults to 1, and at T = 3 the worst record is 0.96 eps-DP) or ``gaussian`` (Lemma 5.4,
    (eps, delta)-DP; eps defaults to 4 and delta to 0.1, where the printed sigma is least
    conservative -- still 13x, see ``blind``)."""
    from ..environments.polytopes import Simplex
    from ..learners.private_bandit import algorithm1_parameters, batch_schedule, batch_sensitivity, private_bandit
    from ..tree import draws_per_release

    L = 1.0
    D = Simplex(dim + 1).D
    zeta = algorithm1_parameters(T, dim, L, D)[0]
    b, rounds, _ = batch_schedule(T)
    u = np.full(dim, 1.0 / np.sqrt(dim))  # the l1-worst unit direction, every step
    g1 = (dim / zeta) * L * D * u  # the batch sum of the record's round under D_p

    def mean(p):  # s~_R = sum of the batch sums of rounds <= R
        return np.concatenate([g1 if p and R >= (p - 1) // b + 1 else np.zeros(dim) for R in range(1, rounds + 1)])

    blind: dict[str, str] = {}
    if kind == "laplace":
        eps = 1.0 if eps is None else eps
        scale = _lemma5_1_lambda(T, dim, L, eps)
        scales = {"correct": None, "half_noise": scale / 2, "no_noise": 0.0}
        controls = {"half_noise": "lambda / 2", "no_noise": "no noise"}
        primary, near = "half_noise", True
        cid, name, param, dp = "AUDIT-env-lemma5.1-releases", "Lemma 5.1", "lambda", f"eps-DP (eps = {eps:g})"
    elif kind == "gaussian":
        eps = 4.0 if eps is None else eps
        scale = _lemma5_4_sigma(T, dim, L, eps, delta)
        scales = {"correct": None, "no_log_factors": T**0.25 * np.sqrt(dim) * L * np.log2(T) / eps,
                  "half_noise": scale / 2}
        controls = {"no_log_factors": "sigma = T^(1/4) n^(1/2) L log2(T) / eps (Lemma 5.4 without its "
                                      "ln(T/delta)(...) factor: the O~ read as O; no noise would be grosser still)",
                    "half_noise": "sigma / 2"}
        primary, near = "no_log_factors", False
        mu_a = math.sqrt(nodes_covering_leaf(rounds)) * batch_sensitivity(T, dim, L, D, ord=2) / scale
        mu_max = _gdp_mu_max(eps, delta)
        blind["half_noise"] = (f"the releases are exactly {mu_a:.4g}-GDP at the worst record (a record of round 1, "
                               f"in both nodes); with sigma/2, {2 * mu_a:.4g}-GDP, and every mu <= {mu_max:.4g} is "
                               f"({eps:g}, {delta:g})-DP: sigma/2 is still private, so no audit can catch it.  The "
                               f"printed sigma is {mu_max / mu_a:.3g}x what this instance needs; over T <= 39, "
                               f"n <= 3, eps <= 12, delta <= 0.5 no instance needs less than 2.28x (T = 2, eps = 12, "
                               f"delta = 0.5), and at eps <= 4, delta <= 0.1 none less than 13x")
        cid, name, param, dp = ("AUDIT-env-lemma5.4-releases", "Lemma 5.4", "sigma",
                                f"(eps, delta)-DP (eps = {eps:g}, delta = {delta:g})")
    else:
        raise ValueError(f"kind must be 'laplace' or 'gaussian', got {kind!r}")

    def run(variant, p, n, rng, noise=True):
        out = np.empty((n, rounds * dim))
        for a, c in _chunks(n):
            dom = Simplex(dim + 1)
            s = scales[variant]
            if not noise or s == 0.0:
                kw = {"noise": "none"}
            elif s is None:  # the library's own scale, as the scenario asks for it
                kw = {"noise": kind, "eps": eps, "delta": delta if kind == "gaussian" else None}
            else:
                kw = {"noise": kind, "noise_scale": s}
            r = private_bandit(dom, _OneStepLoss(dom, T, L, p), _FixedDirections(c - a), noise_rng=rng,
                               record_rounds=True, **kw)
            out[a:c] = r.releases.transpose(1, 0, 2).reshape(c - a, -1)
        return out

    def logpdf(z):
        return M.laplace_logpdf(z, scale) if kind == "laplace" else M.gaussian_logpdf(z, scale)

    def score(y, p):
        return logpdf(y - mean(p)) - logpdf(y - mean(0))

    def draw(variant, n, rng):
        base = run(variant, 0, n, rng("D'"))
        return {f"t={p}": (score(run(variant, p, n, rng("D", p)), p), score(base, p)) for p in range(1, T + 1)}

    def exact(rng) -> str | None:
        if draws_per_release(rounds) != 1:
            return f"expected one draw per release at T_round = {rounds}"
        for p in range(T + 1):
            err = float(np.abs(run("correct", p, 4, rng, noise=False) - mean(p)).max())
            if err > 1e-12:
                return f"noise-free releases differ from the prefix sums of g~ by {err:.3g} (record at step {p})"
        sens = batch_sensitivity(T, dim, L, D, ord=1 if kind == "laplace" else 2)
        got = float(np.abs(g1).sum() if kind == "laplace" else np.linalg.norm(g1))
        if abs(got - sens) >= 1e-12 * sens:
            return f"the instance's change {got:.6g} is not the sensitivity {sens:.6g}"
        return None

    def independence(n, alpha, rng):  # under D' the releases are the node noises
        return _independence_check(run("correct", 0, min(n, CHECK_SAMPLES), rng), alpha)

    lemma = f"{name} (Algorithm 1, {kind.capitalize()})"
    statement = (f"the released round sums s~_R of Algorithm 1 with {name}'s {param} are {dp}: T = {T} (T_batch = {b}, "
                 f"T_round = {rounds}), simplex with n = {dim}, L = 1; neighbours differ in one f_t (L D vs 0, the "
                 f"record at every step), directions fixed at the l1-worst u; release noises independent")
    return AuditSpec(_claim(cid, ENV, lemma, statement, controls, primary, near_miss=near), eps,
                     delta if kind == "gaussian" else 0.0, draw, primary, controls, exact_check=exact,
                     exact_ok="noise-free releases = prefix sums of g~, and the instance's change of a batch sum is "
                              "the batch sensitivity (exact)", blind=blind, stat_check=independence)


SPECS = {s.claim.claim_id: s for s in (laplace_spec(), gaussian_spec(), local_laplace_spec(), l2_spec(),
                                        tree_as17_spec(), tree_ztc_spec(), mab_feedback_spec(), ztc_o2b_spec(),
                                        env_releases_spec("laplace"), env_releases_spec("gaussian"))}
RDP_ORDERS = (2.0, 8.0, 32.0)


def _rng(seed: int, *parts) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=stable_key("audit", *parts))))


def audit_variant(spec: AuditSpec, variant: str, n: int, alpha: float, seed: int) -> dict:
    """eps (and mu, RDP) lower bounds of one variant in every cell (Bonferroni: ``alpha / cells``
    each), and the worst cell's."""
    cid = spec.claim.claim_id
    cells = spec.draw(variant, n, lambda *parts: _rng(seed, cid, variant, *parts))
    a = alpha / len(cells)
    a_eps = a / 2 if spec.gaussian_mu is not None else a
    per = {}
    for cell, (s0, s1) in cells.items():
        res = eps_lower_bound(s0, s1, spec.delta, a_eps, _rng(seed, cid, variant, cell, "split"))
        c = {"eps_lb": res.eps_lb, "audit": res.as_dict()}
        if spec.gaussian_mu is not None:
            c["mu_lb"], _ = gdp_mu_lower_bound(s0, s1, a / 2, _rng(seed, cid, variant, cell, "gdp"))
            c["rdp_lb"] = renyi_lower_bound(res, RDP_ORDERS)
        per[cell] = c
    key = "mu_lb" if spec.gdp_only else "eps_lb"
    worst = max(per, key=lambda c: per[c][key])
    out = {"variant": variant, "eps_lb": per[worst]["eps_lb"], "worst_cell": worst, "audit": per[worst]["audit"],
           "alpha_per_cell": a, "cells": {c: {k: v for k, v in d.items() if k != "audit"} for c, d in per.items()}}
    if spec.gaussian_mu is not None:
        out["mu_lb"] = per[worst]["mu_lb"]
        out["rdp_lb"] = {o: max(d["rdp_lb"][o] for d in per.values()) for o in RDP_ORDERS}
    return out


def _violates(spec: AuditSpec, v: dict) -> bool:
    if spec.gdp_only:
        return v["mu_lb"] > spec.gaussian_mu
    bad = v["eps_lb"] > spec.eps
    if spec.gaussian_mu is not None:
        bad = bad or v["mu_lb"] > spec.gaussian_mu or any(v["rdp_lb"][a] > spec.rdp(a) for a in RDP_ORDERS)
    return bad


def _control_result(spec: AuditSpec, name: str, v: dict) -> Result:
    """A control's result: FAIL when its variant is caught (a lower bound above the claim),
    INCONCLUSIVE otherwise (a lower bound below the claim cannot show the variant private)."""
    key, claim = ("mu_lb", spec.gaussian_mu) if spec.gdp_only else ("eps_lb", spec.eps)
    caught = _violates(spec, v)
    margin = (v[key] - claim) / claim
    if spec.gaussian_mu is not None and not spec.gdp_only:  # caught on eps or on mu
        margin = max(margin, (v["mu_lb"] - spec.gaussian_mu) / spec.gaussian_mu)
    detail = {"ci_of": f"one-sided lower bound on {'mu' if spec.gdp_only else 'eps'} at the worst cell "
                       f"({v['worst_cell']}), Bonferroni over {len(v['cells'])} cells",
              "margin": float(margin), "margin_unit": "fraction of the claim (eps, or mu where larger)",
              "variant": v, "what": spec.controls[name]}
    if name in spec.blind:
        detail["blind"] = spec.blind[name]
    return Result("FAIL" if caught else "INCONCLUSIVE", float(v[key]), claim, float(v[key]), float("inf"), 0.0, detail)


def run_audit(spec: AuditSpec, n: int, alpha: float, seed: int) -> tuple[Result, Result, dict[str, Result]]:
    """(claim result, primary control result, {secondary control: result}).

    The claim FAILs when the worst cell's lower bound exceeds the claim, the exact check finds a
    discrepancy, or the statistical check rejects (at ``CHECK_SHARE * alpha``; the lower bounds
    then use the rest of alpha)."""
    cid = spec.claim.claim_id
    a_lb = alpha * (1 - CHECK_SHARE) if spec.stat_check is not None else alpha
    correct = audit_variant(spec, "correct", n, a_lb, seed)
    measured = correct["mu_lb"] if spec.gdp_only else correct["eps_lb"]
    res = check_privacy(measured, 1 - alpha, spec.gaussian_mu if spec.gdp_only else spec.eps)
    if _violates(spec, correct):
        res.verdict = "FAIL"
    res.detail.update({"correct": correct, "tight_floor": spec.tight_floor, "claimed_mu": spec.gaussian_mu,
                       "claimed_rdp": {a: spec.rdp(a) for a in RDP_ORDERS} if spec.rdp else None,
                       "cells": len(correct["cells"]), "worst_cell": correct["worst_cell"],
                       "multiplicity": f"Bonferroni: each of the {len(correct['cells'])} cells at level "
                                       f"{correct['alpha_per_cell']:.3g}; decided on the worst cell"})
    if spec.tight_floor is not None:
        res.detail["tight"] = bool(measured >= spec.tight_floor * spec.eps)
    if spec.exact_check is not None:
        err = spec.exact_check(_rng(seed, cid, "exact"))
        res.detail["exact_check"] = err or spec.exact_ok
        if err:
            res.verdict = "FAIL"
    if spec.stat_check is not None:
        err, info = spec.stat_check(n, alpha * CHECK_SHARE, _rng(seed, cid, "stat_check"))
        res.detail["stat_check"] = {"failure": err, **info}
        if err:
            res.verdict = "FAIL"
    variants = {name: audit_variant(spec, name, n, alpha, seed) for name in spec.controls}
    ctl = {name: _control_result(spec, name, v) for name, v in variants.items()}
    # every control at a glance on the primary's record (the report's audit table reads these)
    ctl[spec.primary].detail.update({"variants": variants, "caught": {k: c.verdict == "FAIL" for k, c in ctl.items()},
                                     "primary": spec.primary})
    return res, ctl[spec.primary], {k: ctl[k] for k in spec.secondary}
