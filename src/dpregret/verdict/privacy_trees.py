"""Node transcripts of the trees: the layout of a dyadic tree's nodes and the scores of a node
transcript (:func:`tree_layout`, :func:`node_scores`, also used by Agarwal-Singh's tree audits in
:mod:`dpregret.papers.as17.audit`), and the audit spec of Zhang-Tran-Cutkosky NOISE(t) (Theorem 3's
tree) on its releases (see :mod:`dpregret.verdict.privacy`)."""
from __future__ import annotations

import numpy as np

from dpregret.core.tree import TreeNoise
from dpregret.verdict.privacy_audit import (CHECK_SAMPLES, ZTC, AuditSpec, chunks, privacy_claim,
                                            independence_check, SampleStreams)


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
                                   f"releases prefix + NOISE(t) with sigma^2 = log2(2T) Delta^2 / mu^2 are mu-GDP, "
                                   f"i.e. (alpha, alpha mu^2/2)-RDP (mu = {mu:g}, T = {T}, Delta = 1, the record at "
                                   f"every step); the nodes derived from the releases are independent draws",
                                   controls, "log2_T"),
                     mu, 0.0, draw, "log2_T", controls, gaussian_mu=mu, rdp=lambda al: al * mu**2 / 2, gdp_only=True,
                     stat_check=independence)
