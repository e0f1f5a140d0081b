"""The privacy audits of Agarwal and Singh's own code (see :mod:`dpregret.verdict.privacy`; declared by
:func:`.paper.audits`, collected by :func:`dpregret.pipeline.registry.audit_specs`), on the shared audit
machinery (:mod:`dpregret.verdict.privacy_audit`;
the node-transcript helpers of :mod:`dpregret.verdict.privacy_trees`):

- :func:`tree_as17_spec` (``AUDIT-as17-lemma3.3-tree``): TreeBasedAgg, Algorithm 2 (Lemma 3.3,
  section 3), as the experts scenario runs it, on its node transcript;
- :func:`olo_tree_spec` (``AUDIT-as17-cor3.2-olo-tree``): the sphere and cube FTRL's Laplace tree
  (Corollary 3.2 items 2-3, section 3) at the scenario's ``laplace_scale_cor3_2``;
- :func:`ftpl_tree_spec` (``AUDIT-as17-thm3.5-ftpl-tree``): FTPL's Gaussian tree (Algorithm 3,
  Theorem 3.5) at ``sigma_thm3_5``;
- :func:`mab_feedback_spec` (``AUDIT-as17-lemma4.2-bandit``): Algorithm 4 (Lemma 4.2, section 4) on
  what its inner learner receives (compiled EXP2 and SCRiBLe rounds, numpy classes; :class:`Received`).

Each builder imports the library code it audits when it runs (the registry builds the specs afresh
on every call; the mutation suite calls it under a mutant's patch)."""
from __future__ import annotations

import math

import numpy as np

from dpregret.verdict.privacy_audit import (AS17, CHECK_SAMPLES, AuditSpec, chunks, independence_check,
                                            privacy_claim, SampleStreams)
from dpregret.verdict.privacy_trees import node_scores, tree_layout
from dpregret.core.rng import ReplicateStreams
from dpregret.core.tree import prefix_node_matrix


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
    from dpregret.papers.as17.prefix_sums import TreeSum, scaled_draws
    from dpregret.core.calibration import tree_lambda

    lam = N * (int(math.log2(T)) + 1) / eps  # the claim's scale (Lemma 3.3 with the corrected node count)
    m = int(math.log2(T)) + 1
    lams = {"correct": None, "paper_log_count": N * math.ceil(math.log2(T)) / eps, "half_noise": lam / 2}
    cover, pairs = tree_layout(T)

    def run(variant, p, n, rng, releases=False):
        """Node transcripts (n, T, N) with the record at step p (p = 0: D')."""
        lam_v = tree_lambda(N, T, eps) if lams[variant] is None else lams[variant]
        nodes, rel = np.empty((n, T, N)), np.empty((n, T, N)) if releases else None
        for a, b in chunks(n):
            tree = TreeSum(T, b - a, N, scaled_draws(SampleStreams(rng, b - a), lam_v, N)).tree
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
        return {f"t={p}": (node_scores(run(variant, p, n, rng("D", p)), p, llr, cover, pairs),
                           node_scores(base, p, llr, cover, pairs)) for p in range(1, T + 1)}

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
        return independence_check(run("correct", 0, min(n, CHECK_SAMPLES), rng).reshape(-1, T * N), alpha)

    k = math.ceil(math.log2(T))
    controls = {"paper_log_count": f"lambda with the paper's ceil(log2 T) = {k} instead of the {m} nodes covering a "
                f"leaf (the erratum; the nearest miss, eps x {m / k:.3g})", "half_noise": "lambda / 2"}
    return AuditSpec(privacy_claim("AUDIT-as17-lemma3.3-tree", AS17, "Lemma 3.3 (Algorithm 2), node transcript",
                                   f"TreeBasedAgg with Lap^N(N (floor(log2 T)+1)/eps) per node (the experts scenario's "
                                   f"tree_lambda) is eps-DP (eps = {eps:g}, T = {T}, N = {N}, losses in [0,1]^N, the "
                                   f"record at every step); releases = node map x nodes + padding, and the block path "
                                   "of the Table 1 scenarios (tree.TreeReleases) releases the same; node noises "
                                   "independent",
                                   controls, "paper_log_count"),
                     eps, 0.0, draw, "paper_log_count", controls, tight_floor=0.85, exact_check=exact,
                     stat_check=independence)


# --- Agarwal-Singh FTRL on the sphere and the cube: the Laplace tree at laplace_scale_cor3_2 --
OLO_ROWS = {"sphere": "ball", "cube": "cube"}


def olo_tree_spec(eps: float = 1.0, T: int = 2, N: int = 2) -> AuditSpec:
    """TreeBasedAgg as the Table 1 sphere and cube rows run it (``TreeSum`` over ``scaled_draws``,
    every node's scale the scenario's ``noise_scales(row, N, T, eps)["tree"]``), on losses in the
    row's Y: D_p has l_p = +v, D'_p has l_p = -v (replace-one neighbours at the l1 diameter of Y:
    v = (1, ..., 1)/sqrt(N) on the unit l2 ball, e_1 on the unit l1 ball), every other loss 0.  Scored
    on the node transcript under the claim's lambda = 2 ||Y||_1 (floor(log2 T) + 1) / eps
    (``laplace_scale_cor3_2``'s formula, written out).  Cells: (row, position)."""
    from dpregret.papers.as17.prefix_sums import TreeSum, scaled_draws
    from dpregret.papers.as17.olo import noise_scales

    m = int(math.log2(T)) + 1
    y1 = {"sphere": math.sqrt(N), "cube": 1.0}
    lam = {row: 2.0 * y1[row] * m / eps for row in OLO_ROWS}  # the claim's scale per row
    vec = {"sphere": np.full(N, 1.0 / math.sqrt(N)), "cube": np.eye(N)[0]}
    cover, pairs = tree_layout(T)

    def run(variant, row, p, sign, n, rng):
        lam_v = noise_scales(row, N, T, eps)["tree"] if variant == "correct" else lam[row] / 2
        nodes = np.empty((n, T, N))
        for a, b in chunks(n):
            tree = TreeSum(T, b - a, N, scaled_draws(SampleStreams(rng, b - a), lam_v, N)).tree
            for t in range(1, T + 1):
                tree.step(sign * vec[row] if t == p else np.zeros(N))
                nodes[a:b, t - 1] = tree.last_node[1]
        return nodes

    def draw(variant, n, rng):
        out = {}
        for row in OLO_ROWS:
            v, lm = vec[row], lam[row]

            def llr(y, v=v, lm=lm):  # log Lap(y - v; lam) - log Lap(y + v; lam), per coordinate
                return (np.abs(y + v) - np.abs(y - v)) / lm
            for p in range(1, T + 1):
                out[f"{row} t={p}"] = (node_scores(run(variant, row, p, 1.0, n, rng("D", row, p)),
                                                   p, llr, cover, pairs),
                                       node_scores(run(variant, row, p, -1.0, n, rng("D'", row, p)),
                                                   p, llr, cover, pairs))
        return out

    controls = {"half_noise": "lambda / 2: ||Y||_1 (Corollary 3.2 as printed, the add/remove sensitivity) for the "
                              "replace-one diameter 2 ||Y||_1 (eps x 2)"}
    return AuditSpec(privacy_claim("AUDIT-as17-cor3.2-olo-tree", AS17,
                                   "Corollary 3.2 items 2-3 (Lemma 3.3), sphere and cube",
                                   f"the Table 1 sphere and cube learners' TreeBasedAgg, Lap^N(2 ||Y||_1 (floor(log2 "
                                   f"T)+1)/eps) per node (the scenario's laplace_scale_cor3_2), is eps-DP on the node "
                                   f"transcript (eps = {eps:g}, T = {T}, N = {N}; replace-one neighbours l = v, l' = "
                                   f"-v at the l1 diameter of Y, the record at every step)", controls, "half_noise"),
                     eps, 0.0, draw, "half_noise", controls, tight_floor=None)


# --- Agarwal-Singh FTPL (Theorem 3.5): the Gaussian tree at sigma_thm3_5 ----------------------
def ftpl_tree_spec(eps: float = 4.0, T: int = 4, N: int = 4) -> AuditSpec:
    """FTPL's perturbation as the Table 1 row 4 runs it (``TreeSum`` over Gaussian ``scaled_draws``,
    sigma the scenario's ``noise_scales("ftpl", N, T, eps)["tree"]``, i.e. ``sigma_thm3_5`` at delta =
    1/T and ||Y||_2 = 1), on losses in the unit l2 ball: D_p has l_p = e_1, D'_p has l_p = -e_1 (l2
    distance 2), every other loss 0.  Claimed: the node transcript is mu-GDP with mu = 2
    sqrt(floor(log2 T) + 1) / sigma, sigma = Theorem 3.5's max{sqrt(T / (sqrt(N) K)), sqrt(N) K
    log(K T) / eps} (K = ceil(log2 T); written out): the exact privacy of the tree at the formula's
    sigma (a leaf lies in floor(log2 T) + 1 nodes), which implies the theorem's (eps, 1/T)-DP (mu =
    1.67 at the defaults: delta(eps = 4) = 0.02 < 1/4).  At these parameters the privacy term of the
    max is the larger, also at a sigma sqrt(N) times smaller."""
    from dpregret.papers.as17.prefix_sums import TreeSum, scaled_draws
    from dpregret.papers.as17.olo import noise_scales

    m = int(math.log2(T)) + 1
    K = max(1, math.ceil(math.log2(T)))
    sigma = max(math.sqrt(T / (math.sqrt(N) * K)), math.sqrt(N) / eps * K * math.log(K * T))
    mu = 2.0 * math.sqrt(m) / sigma
    cover, pairs = tree_layout(T)

    def run(variant, p, sign, n, rng):
        s = noise_scales("ftpl", N, T, eps)["tree"] if variant == "correct" else sigma / 2
        nodes = np.empty((n, T, N))
        for a, b in chunks(n):
            tree = TreeSum(T, b - a, N, scaled_draws(SampleStreams(rng, b - a), s, N, "gaussian")).tree
            for t in range(1, T + 1):
                tree.step(sign * np.eye(N)[0] if t == p else np.zeros(N))
                nodes[a:b, t - 1] = tree.last_node[1]
        return nodes

    def llr(y):  # log N(y - e1; sigma) - log N(y + e1; sigma), first coordinate (the others: 0)
        return 2.0 * y[..., :1] / sigma**2

    def draw(variant, n, rng):
        return {f"t={p}": (node_scores(run(variant, p, 1.0, n, rng("D", p)), p, llr, cover, pairs)[:, :1],
                           node_scores(run(variant, p, -1.0, n, rng("D'", p)), p, llr, cover, pairs)[:, :1])
                for p in range(1, T + 1)}

    controls = {"half_noise": f"sigma / 2 (mu x 2; sigma_thm3_5 without the sqrt(N) of its privacy term is sigma / "
                              f"{math.sqrt(N):g} here)"}
    return AuditSpec(privacy_claim("AUDIT-as17-thm3.5-ftpl-tree", AS17,
                                   "Theorem 3.5 (Algorithm 3), FTPL's Gaussian tree",
                                   f"FTPL's tree with N(0, sigma^2 I_N) per node, sigma = Theorem 3.5's (the "
                                   f"scenario's sigma_thm3_5 at delta = 1/T, ||Y||_2 = 1), is mu-GDP on the node "
                                   f"transcript with mu = 2 sqrt(floor(log2 T)+1)/sigma = {mu:.4g} (eps = {eps:g}, T = "
                                   f"{T}, N = {N}, l = e_1 vs -e_1, the record at every step); implies the theorem's "
                                   "(eps, 1/T)-DP",
                                   controls, "half_noise"),
                     mu, 0.0, draw, "half_noise", controls, gaussian_mu=mu,
                     rdp=lambda al: al * mu**2 / 2, gdp_only=True)


class Received:
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
# A path's simulator sim(L, lam, n, rng, gauss) makes n runs over the rounds of L (len(L) <= T) and returns what the
# inner learner received, (n, len(L), 2).  Every draw goes through the scenarios' sampler (SampleStreams:
# ReplicateStreams.laplace / .uniform, the draws the scenarios hand to the kernels); gauss: sqrt(2) N(0, 1) in place
# of Lap(1) (the same variance)
def _feedback_noise(st, shape, gauss):
    return np.sqrt(2.0) * st.normal(shape) if gauss else st.laplace(1.0, shape)


class _Exp2Rows:
    """EXP2 as the AS17 mab scenario runs it (``row_params`` of the rows ``exp2`` and ``dp_exp2``), through its
    compiled rounds (``exp2_block``, :meth:`kernel`) and its numpy classes (``PrivateFeedback`` around ``Exp2``,
    :meth:`numpy`); the library code is read when the spec is built."""

    def __init__(self, N: int, T: int, eps: float, block, exp2_cls, private_feedback_cls, row_params):
        self.N, self.block, self.exp2_cls, self.private_feedback_cls = N, block, exp2_cls, private_feedback_cls
        self.lam, self.eta, self.gam = row_params("dp_exp2", N, T, eps)
        _, self.eta0, self.gam0 = row_params("exp2", N, T, None)

    def kernel(self, L, lam_v, n, rng, gauss=False):
        N, eta, gam = self.N, self.eta, self.gam
        tb = len(L)
        rec = np.empty((n, tb, 2))
        for a, b in chunks(n):
            r = b - a  # rows: r non-private (exp2), then r audited (dp_exp2), as the scenario batches them
            st = SampleStreams(rng, r)
            Z, U = _feedback_noise(st, (tb, N), gauss), st.uniform((tb,))
            out = np.empty((2 * r, tb, 2))
            self.block(np.full((2 * r, N), -np.log(N)), np.repeat([self.eta0, eta], r), np.repeat([self.gam0, gam], r),
                       np.repeat([0.0, lam_v], r), np.zeros((2 * r, N)),
                       np.ascontiguousarray(np.broadcast_to(L, (r, tb, N))), Z, U, np.zeros(2 * r), np.zeros(2 * r),
                       np.zeros((2 * r, N)), out)
            rec[a:b] = out[r:]
        return rec

    def numpy(self, L, lam_v, n, rng, gauss=False):
        rec = np.empty((n, len(L), 2))
        for a, b in chunks(n):
            st = SampleStreams(rng, b - a)
            inner = Received(self.exp2_cls(self.N, self.eta, self.gam, st, b - a))
            learner = self.private_feedback_cls(inner, lam_v, st)
            for row in L:
                learner.update(row[learner.predict()])
            rec[a:b, :, 0], rec[a:b, :, 1] = np.stack(inner.arms, axis=1), np.stack(inner.values, axis=1)
        return rec

    @staticmethod
    def noise(rec, L, t):  # round t's forwarded value minus the loss of the arm played
        return rec[:, t - 1, 1] - L[t - 1][rec[:, t - 1, 0].astype(np.int64)]

    @staticmethod
    def shift(rec, p, LD, base):  # change of the played arm's loss in round p
        arm = rec[:, p - 1, 0].astype(np.int64)
        return LD[p - 1][arm] - base[p - 1][arm]


class _ScribleRows:
    """SCRiBLe on the cube with N = 1 as the AS17 blo scenario runs it (``blo_row_params`` of the rows ``scrible``
    and ``dp_scrible``), through its compiled rounds (``scrible_block``)."""

    def __init__(self, T: int, eps: float, block, blo_params):
        self.block = block
        self.sp, self.sp0 = blo_params("cube", "dp_scrible", 1, T, eps), blo_params("cube", "scrible", 1, T, None)

    def kernel(self, L, lam_v, n, rng, gauss=False):
        tb = len(L)
        rec = np.empty((n, tb, 2))
        for a, b in chunks(n):
            r = b - a  # rows: r non-private (scrible), then r audited (dp_scrible)
            st = SampleStreams(rng, r)
            Z, U = _feedback_noise(st, (tb, 1), gauss), st.uniform((tb,))
            out = np.empty((2 * r, tb, 2))
            self.block(False, np.zeros((2 * r, 1)), np.repeat([self.sp0["eta"], self.sp["eta"]], r),
                       np.repeat([0.0, lam_v], r), np.ascontiguousarray(np.broadcast_to(L, (r, tb, 1))), Z, U,
                       np.zeros(2 * r), out)
            rec[a:b] = out[r:]
        return rec

    @staticmethod
    def noise(rec, L, t):  # v / y - l = lambda Z
        return rec[:, t - 1, 0] / rec[:, t - 1, 1] - L[t - 1, 0]

    @staticmethod
    def shift(rec, p, LD, base):
        return LD[p - 1, 0] - base[p - 1, 0]


def _neighbour(base, lh, p):
    """D_p: row p of ``base`` replaced by ``lo + hi - base row`` (``lh = (lo, hi)``); D' (p = 0): ``base``."""
    L = base.copy()
    if p:
        L[p - 1] = lh[0] + lh[1] - L[p - 1]
    return L


class _FeedbackAudit:
    """The paths of :func:`mab_feedback_spec` and what its draws and checks do with them: ``paths`` is
    ``{name: (sim, noise, shift, table, claim's lambda)}``, ``table`` ``{variant: (lambda the audited rows run
    with, base losses, (lo, hi): D_p row = lo + hi - base row)}``."""

    def __init__(self, T: int, paths: dict):
        self.T, self.paths = T, paths

    def score(self, path, p, LD, base, rec):
        """log p_D(transcript) - log p_D'(transcript) under the claim: round p's term only (later
        rounds have the same conditional law under both inputs); and round p's shift along the
        change, ``c z``, which does not saturate (:func:`.privacy_audit.mean_shift_projection`)."""
        _, noise, shift, _, lam_c = self.paths[path]
        z, c = noise(rec, base, p), shift(rec, p, LD, base)  # z = c + noise under D, noise under D'
        return np.stack([(np.abs(z) - np.abs(z - c)) / lam_c, c * z], axis=1)

    def draw(self, variant, n, rng):
        cells = {}
        for name, (sim, _, _, table, _) in self.paths.items():
            if variant not in table:  # gaussian_shape: the compiled EXP2 rounds only (one sweep, not three)
                continue
            lam_v, base, lh = table[variant]
            gauss = variant == "gaussian_shape"
            rec0 = sim(base, lam_v, n, rng(name, "D'"), gauss)
            for p in range(1, self.T + 1):
                # rounds after p have the same conditional law under D_p and D' (same losses), so the
                # transcript's likelihood ratio is round p's: D_p runs only rounds 1..p
                LD = _neighbour(base, lh, p)
                cells[f"{name} t={p}"] = (self.score(name, p, LD, base, sim(LD[:p], lam_v, n, rng(name, "D", p),
                                                                            gauss)),
                                          self.score(name, p, LD, base, rec0))
        return cells

    def independence(self, n, alpha, rng):
        fails, info = [], {}
        for name, (sim, noise, _, table, _) in self.paths.items():
            lam_v, base, _ = table["correct"]
            rec = sim(base, lam_v, min(n, CHECK_SAMPLES), rng)
            err, info[name] = independence_check(np.stack([noise(rec, base, t) for t in range(1, self.T + 1)],
                                                           axis=1), alpha / len(self.paths))
            if err:
                fails.append(f"{name}: {err}")
        return ("; ".join(fails) or None), info


def _feedback_paths(eps: float, N: int, T: int) -> dict:
    """``{path: (sim, noise, shift, table, claim's lambda)}`` of :func:`mab_feedback_spec` (:class:`_FeedbackAudit`),
    the library code read now."""
    from dpregret.papers.as17.bandits import Exp2, PrivateFeedback
    from dpregret.papers.as17.exp2_jit import exp2_block
    from dpregret.papers.as17.scrible_jit import scrible_block
    from dpregret.papers.as17.bandits import row_params
    from dpregret.papers.as17.scrible import blo_row_params as blo_params

    claim_lam, claim_lam_s = 1.0 / eps, 2.0 / eps
    ex = _Exp2Rows(N, T, eps, exp2_block, Exp2, PrivateFeedback, row_params)
    sc = _ScribleRows(T, eps, scrible_block, blo_params)
    b01 = np.array([[(t + j) % 2 for j in range(N)] for t in range(T)], dtype=float)
    bpm = np.array([[1.0 if t % 2 == 0 else -1.0] for t in range(T)])
    # per path and variant: (lambda the audited rows run with, base losses, (lo, hi): D_p row = lo + hi - base row)
    exp2 = {"correct": (ex.lam, b01, (0, 1)), "half_noise": (claim_lam / 2, b01, (0, 1)),
            "wrong_sensitivity": (claim_lam, 2 * b01 - 1, (-1, 1))}
    exp2_kernel_table = {**exp2, "gaussian_shape": (claim_lam, b01, (0, 1))}
    scr = {"correct": (sc.sp["lambda"], bpm, (-1, 1)), "half_noise": (claim_lam_s / 2, bpm, (-1, 1)),
           "wrong_sensitivity": (1.0 / eps, bpm, (-1, 1))}
    return {"exp2-kernel": (ex.kernel, ex.noise, ex.shift, exp2_kernel_table, claim_lam),
            "exp2-numpy": (ex.numpy, ex.noise, ex.shift, exp2, claim_lam),
            "scrible-kernel": (sc.kernel, sc.noise, sc.shift, scr, claim_lam_s)}


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
    audit = _FeedbackAudit(T, _feedback_paths(eps, N, T))
    controls = {"half_noise": "lambda / 2", "wrong_sensitivity": "losses in [-1, 1] (the paper's ||l||_inf <= 1) "
                "with lambda = 1/eps, calibrated for [0, 1]; SCRiBLe: the printed lambda = ||Y||_1/eps without the "
                "factor 2 (true eps: 2 eps; a no-noise control, grosser still, would cost a full sweep)",
                "gaussian_shape": "Gaussian noise of the claimed variance 2 lambda^2 in place of Lap(lambda) (another "
                "shape, same variance), on the compiled EXP2 rounds"}
    return AuditSpec(privacy_claim("AUDIT-as17-lemma4.2-bandit", AS17,
                                   "Lemma 4.2 (Algorithm 4 + EXP2 / SCRiBLe), transcript",
                                   f"the plays and forwarded values of Algorithm 4 are eps-DP (eps = {eps:g}, T = {T}, "
                                   f"the record at every step): EXP2 with N = {N} arms and lambda = 1/eps (compiled "
                                   f"rounds and numpy classes), SCRiBLe on the cube [-1, 1] with lambda = 2/eps "
                                   f"(compiled rounds); the forwarded noises are independent across rounds",
                                   controls, "half_noise"),
                     eps, 0.0, audit.draw, "half_noise", controls, tight_floor=0.9, stat_check=audit.independence)
