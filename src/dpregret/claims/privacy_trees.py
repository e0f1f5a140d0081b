"""Audit specs of the two trees on their node transcripts: Agarwal-Singh TreeBasedAgg (Lemma
3.3) as the experts scenario runs it, and Zhang-Tran-Cutkosky NOISE(t) (Theorem 3's tree) on its
releases (see :mod:`dpregret.claims.privacy`)."""
from __future__ import annotations

import math

import numpy as np

from ..rng import ReplicateStreams
from ..tree import TreeNoise, prefix_node_matrix
from .privacy_audit import AS17, CHECK_SAMPLES, ZTC, AuditSpec, chunks, privacy_claim, independence_check, SampleStreams


# --- the two trees: node transcripts ---------------------------------------------------------
def tree_layout(T: int) -> tuple[dict[int, list[int]], dict[int, list[tuple[int, int]]]]:
    """Node k (0-based) is the dyadic interval completed at step k + 1, ``(k+1 - lowbit(k+1), k+1]``.
    Per leaf p: the nodes covering it, and the pairs (covering node, same-level node not covering it)."""
    span = [(t - (t & -t) + 1, t) for t in range(1, T + 1)]
    level = [(t & -t).bit_length() - 1 for t in range(1, T + 1)]
    cover = {p: [k for k, (a, b) in enumerate(span) if a <= p <= b] for p in range(1, T + 1)}
    pairs = {p: [(k, j) for k in cover[p] for j in range(T) if level[j] == level[k] and j not in cover[p]]
             for p in range(1, T + 1)}
    return cover, pairs


def node_scores(nodes: np.ndarray, p: int, llr, cover, pairs) -> np.ndarray:
    """Scores of node transcripts (n, T, d) for the record at leaf p: column 0 the LLR under
    the claimed independent-node model (``llr``: per-coordinate log-ratio, summed); then one
    contrast per same-level pair, node covering p minus node not covering it (summed over
    coordinates): under the claim its noise is a difference of two fresh draws, but if nodes of
    a level shared a draw it would be noise-free."""
    cols = [llr(nodes[:, cover[p], :]).reshape(len(nodes), -1).sum(axis=1)]
    cols += [(nodes[:, k, :] - nodes[:, j, :]).sum(axis=1) for k, j in pairs[p]]
    return np.stack(cols, axis=1)


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
    from ..papers.as17.prefix_sums import TreeSum, scaled_draws
    from ..calibration import tree_lambda

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
    cover, pairs = tree_layout(T)

    def run(s, p, n, rng):
        """Node transcripts (n, T, 1) derived from the releases prefix_t + NOISE(t), record at step p."""
        out = np.empty((n, T, 1))
        for a, b in chunks(n):
            r = b - a
            st = SampleStreams(rng, r)  # the scenarios' sampler (ReplicateStreams.normal)
            tree = TreeNoise(T, 1, lambda k, st=st: st.normal((k, 1)), r)
            rel = np.zeros((r, T + 1))  # r_0 = 0
            for t in range(1, T + 1):
                rel[:, t] = (1.0 if 1 <= p <= t else 0.0) + tree.step(s)[:, 0]
            out[a:b, :, 0] = np.stack([rel[:, t] - rel[:, t - (t & -t)] for t in range(1, T + 1)], axis=1)
        return out

    def llr(y):
        return (2 * y - 1.0) / (2 * sigma**2)  # log N(y - 1; sigma) - log N(y; sigma)

    def draw(variant, n, rng):
        base = run(sig[variant], 0, n, rng("D'"))
        return {f"t={p}": (node_scores(run(sig[variant], p, n, rng("D", p)), p, llr, cover, pairs),
                           node_scores(base, p, llr, cover, pairs)) for p in range(1, T + 1)}

    def independence(n, alpha, rng):  # under D' the derived nodes are the node draws R_t
        return independence_check(run(sigma, 0, min(n, CHECK_SAMPLES), rng)[:, :, 0], alpha)

    controls = {"log2_T": f"sigma with log2(T) instead of log2(2T) (the nearest miss: mu x {np.sqrt(m / (m - 1)):.3g})",
                "half_noise": "sigma / 2"}
    return AuditSpec(privacy_claim("AUDIT-ztc-thm3-tree", ZTC, "Theorem 3 / eq. (6), NOISE(t)",
                                   f"releases prefix + NOISE(t) with sigma^2 = log2(2T) Delta^2 / mu^2 are mu-GDP, i.e. "
                                   f"(alpha, alpha mu^2/2)-RDP (mu = {mu:g}, T = {T}, Delta = 1, the record at every step); "
                                   f"the nodes derived from the releases are independent draws", controls, "log2_T"),
                     mu, 0.0, draw, "log2_T", controls, gaussian_mu=mu, rdp=lambda al: al * mu**2 / 2, gdp_only=True,
                     stat_check=independence)
