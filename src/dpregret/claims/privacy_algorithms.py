"""Audit spec of Zhang-Tran-Cutkosky Algorithm 1 (Theorem 3) end to end on its released sequence
(see :mod:`dpregret.claims.privacy`).  Agarwal-Singh Algorithm 4 (Lemma 4.2) sits in its paper's
folder (:mod:`dpregret.papers.as17.audit`)."""
from __future__ import annotations

import math

import numpy as np

from .privacy_audit import CHECK_SAMPLES, ZTC, AuditSpec, chunks, privacy_claim, independence_check, SampleStreams


# --- Zhang-Tran-Cutkosky Theorem 3: Algorithm 1 end to end on its released sequence ---------
class HuberPair:
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


class Schedule:
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
    """Algorithm 1 (:func:`dpregret.papers.ztc22.o2b.run`, NOISE(t) with sigma_t of eq. (6), k = 1) on
    the records of :class:`HuberPair` with the learner :class:`Schedule`: ``w_t = x_{t-1}``
    except one jump ``w_q = x_{q-1} + 1`` at ``q = T/2 + 1`` (the leaf in log2 T of the log2(2T)
    nodes), so ``max_i ||w_i - x_{i-1}||`` is 1 from step q on and 0 before; ``a`` and ``G = H /
    (q + 1)`` make the gradient difference of the two records go from -2G at x_{q-1} to +2G at
    x_q.  Then ``||delta_q - delta'_q|| / Delta_q = (2q - 1) / (2q + 4)`` and the record at q is
    ``sqrt(log2 T / log2 2T) (2q - 1)/(2q + 4)``-GDP relative to rho (0.557 at T = 8): eq. (6)
    cannot be attained more closely (its 2(k+1) t^(k-1) G term is twice what one record moves at
    k = 1, and only leaf 1 lies in log2(2T) nodes).  D' = every record -1; D_p = record p is +1.
    The score is the exact LLR of the node transcript (nodes = differences of releases, Gaussian
    with sigma_t of eq. (6)); the exact check equals it to the replayed likelihood
    :func:`~dpregret.papers.ztc22.audit.transcript_logpdf`."""
    from ..papers.ztc22 import audit as o2b_audit
    from ..papers.ztc22 import o2b

    k = 1.0
    q = T // 2 + 1
    x_q = 2.0 / (q + 1)  # x after the jump (k = 1: x_q = ((q-1) x_{q-1} + 2 w_q) / (q + 1))
    ws = [0.0] * (q - 1) + [1.0] + [x_q] * (T - q)
    prob = HuberPair(G=1.0 / (q + 1), H=1.0, a=x_q / 2, r=1.0)
    maxdist = np.array([0.0 if t < q else 1.0 for t in range(1, T + 1)])  # max_{i<=t} ||w_i - x_{i-1}||
    # the claim's sigma_t (eq. (6)), written out here rather than read from the code under audit
    sig = np.array([2 * (k + 1) * t ** (k - 1) * (prob.G + prob.H * maxdist[t - 1]) * math.sqrt(math.log2(2 * T)) / rho
                    for t in range(1, T + 1)])
    variant_args = {"correct": {}, "half_noise": {"noise_factor": 0.5}, "G_only": {"sensitivity": "G_only"}}

    def data(p):
        return [(np.array([1.0 if t == p else -1.0]),) for t in range(1, T + 1)]

    def releases(p, n, rng, **kw):
        out = np.empty((n, T))
        for a, b in chunks(n):
            args = {"rho": rho, **kw}
            run = o2b.run(o2b_audit.FixedData(prob, data(p)), Schedule(ws, b - a), T, k=k, src=None,
                          noise_src=SampleStreams(rng, b - a),
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
            rep = [o2b_audit.transcript_logpdf(prob, data(s), Schedule(ws, len(y)), y[:, :, None], k=k, rho=rho)
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
        return independence_check(nodes(releases(0, min(n, CHECK_SAMPLES), rng)) - means[0], alpha)

    mu_q = math.sqrt(math.log2(T) / math.log2(2 * T)) * (2 * q - 1) / (2 * q + 4) * rho
    controls = {"half_noise": f"sigma_t / 2 (mu of the record at t = {q}: {2 * mu_q:.3g})",
                "G_only": "Delta_t without the smoothness term H max ||w_i - x_{i-1}|| (sigma_t 7x too small "
                          "from the jump on; Delta_t without G, or no noise, are grosser still)"}
    return AuditSpec(privacy_claim("AUDIT-ztc-thm3-o2b", ZTC, "Theorem 3 (Algorithm 1 end to end)",
                                   f"the released g_t + gamma_t of Algorithm 1 (k = 1, T = {T}, eq. (6) sigma_t; 1-D records "
                                   f"G-Lipschitz and H-smooth, a fixed-schedule learner; the record at every step) are "
                                   f"(alpha, alpha rho^2/2)-RDP, i.e. rho-GDP (rho = {rho:g}); the worst record (t = {q}) "
                                   f"is exactly {mu_q:.3g}-GDP", controls, "half_noise"),
                     rho, 0.0, draw, "half_noise", controls, gaussian_mu=rho, rdp=lambda al: al * rho**2 / 2,
                     gdp_only=True, exact_check=exact, stat_check=independence,
                     exact_ok="closed-form node LLR = replayed transcript likelihood; the record at the jump moves "
                                     "delta_q by (2q-1)/(2q+4) Delta_q (exact)")
