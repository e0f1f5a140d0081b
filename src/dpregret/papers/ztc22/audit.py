"""Zhang, Tran, Cutkosky (NeurIPS 2022), "Differentially Private Online-to-Batch for Smooth Losses":
the privacy audits of the paper's own code, on the shared audit machinery
(:mod:`dpregret.verdict.privacy_audit`), declared by :func:`.paper.audits` and collected by
:func:`dpregret.pipeline.registry.audit_specs`:

- :func:`ztc_o2b_spec` (``AUDIT-ztc-thm3-o2b``): Algorithm 1 (Theorem 3, Sec. 2; proof in App. B.2)
  end to end on its released sequence, with its white-box support: :class:`FixedData` serves a
  fixed (worst-case neighbour) data set in order, and :func:`transcript_logpdf` is the exact
  density of a released sequence under :func:`dpregret.papers.ztc22.o2b.run`;
- :func:`dpsgd_spec` (``AUDIT-ztc-dpsgd``): the one-pass DP-SGD baseline
  (:func:`dpregret.papers.ztc22.dpsgd.run_dpsgd`, its own ``s = 2G / rho``; Sec. 1's comparison)
  on its iterates.  It draws through the code the scenarios run (``run_dpsgd``'s ``draw_normal``
  from the scenarios' sampler) and scores the outputs under the *claimed* noise, the paper's
  formula written out here; too much noise is no privacy violation, so it also checks the realised
  noise scale against its formula both ways (:func:`~dpregret.verdict.privacy_audit.scale_check`,
  with its controls at twice and at half the formula's noise, which it must reject).

Theorem 3's tree alone (``AUDIT-ztc-thm3-tree``, the core's ``tree.TreeNoise``) is audited with the
shared mechanisms (:mod:`dpregret.verdict.privacy_trees`).  Each builder imports the library code it
audits when it runs (the registry builds the specs afresh on every call; the mutation suite calls
it under a mutant's patch).
"""
from __future__ import annotations

import math

import numpy as np

from dpregret.verdict.privacy_audit import (CHECK_SAMPLES, ZTC, AuditSpec, SampleStreams, chunks, independence_check,
                                       privacy_claim, scale_check, with_controls)
from dpregret.papers.ztc22.o2b import sensitivity_variant


class FixedData:
    """A fixed data set ``Z = (z_1, ..., z_T)`` served in order (for privacy audits, where the
    data are the worst-case neighbours and only the noise is random).  Wraps a problem."""

    def __init__(self, problem, zs: list[tuple]):
        self.problem, self.zs, self.i = problem, zs, 0
        for name in ("d", "r", "D", "G", "H", "sigma_G", "sigma_H", "mu", "x_star", "L_star"):
            setattr(self, name, getattr(problem, name))

    def sample(self, src, R):
        z = self.zs[self.i]
        self.i += 1
        return tuple(np.broadcast_to(np.asarray(c, dtype=float), (R, *np.shape(c))) for c in z)

    def grad(self, x, z):
        return self.problem.grad(x, z)

    def subopt(self, x):
        return self.problem.subopt(x)

    def neighbours(self, z, x_t, x_prev):
        return self.problem.neighbours(z, x_t, x_prev)


def transcript_logpdf(problem, zs: list[tuple], learner, released: np.ndarray, *, k: float, rho: float,
                      sensitivity: str = "eq6") -> np.ndarray:
    """log p_Z(y) of released sequences ``y = (g_t + gamma_t)_{t<=T}`` (shape (n, T, d)) under
    Algorithm 1 on the data set ``zs`` with a deterministic learner: replaying the algorithm on
    y fixes w_t, x_t, g_t and sigma_t, hence gamma_t = y_t - g_t and, through I_t, the node
    draw R_t = gamma_t - sum_{i in I_t, i < t} R_i ~ N(0, sigma_t^2 I).  Exact (white box)."""
    from dpregret.core.tree import binary_prefix_set

    n, T, d = released.shape
    G, H = problem.G, problem.H
    x = np.zeros((n, d))
    g = np.zeros((n, d))
    bsum = 0.0
    maxdist = np.zeros(n)
    nodes: dict[int, np.ndarray] = {}
    logp = np.zeros(n)
    for t in range(1, T + 1):
        w = learner.predict()
        b_t, b_prev = float(t) ** k, float(t - 1) ** k
        x_prev = x
        bsum_prev, bsum = bsum, bsum + b_t
        x = (bsum_prev * x_prev + b_t * w) / bsum
        z = tuple(np.broadcast_to(np.asarray(c, dtype=float), (n, *np.shape(c))) for c in zs[t - 1])
        g = g + b_t * problem.grad(x, z) - (b_prev * problem.grad(x_prev, z) if t > 1 else 0.0)
        maxdist = np.maximum(maxdist, np.linalg.norm(w - x_prev, axis=-1))
        sigma = sensitivity_variant(sensitivity, t, k, G, H, maxdist) * math.sqrt(math.log2(2 * T)) / rho
        r_t = released[:, t - 1] - g - sum(nodes[i] for i in binary_prefix_set(t) if i < t)
        nodes[t] = r_t
        with np.errstate(divide="ignore", invalid="ignore"):
            sq = np.sum(r_t**2, axis=-1)
            lp = np.where(sigma > 0, -0.5 * sq / np.maximum(sigma, 1e-300) ** 2 - d * np.log(np.maximum(sigma, 1e-300)),
                          np.where(sq <= 1e-18, 0.0, -np.inf))
        logp += lp
        learner.update(released[:, t - 1])
    return logp


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


class _O2BAudit:
    """The instance of :func:`ztc_o2b_spec` and what its draws, scores and checks share: the schedule ``ws`` with
    its jump at ``q``, the records' problem ``prob``, the claim's sigma_t of eq. (6) (``sig``), the node means of
    every neighbour (``means``)."""

    variant_args = {"correct": {}, "half_noise": {"noise_factor": 0.5}, "G_only": {"sensitivity": "G_only"}}

    def __init__(self, rho: float, T: int):
        self.rho, self.T = rho, T
        self.k = k = 1.0
        self.q = q = T // 2 + 1
        x_q = 2.0 / (q + 1)  # x after the jump (k = 1: x_q = ((q-1) x_{q-1} + 2 w_q) / (q + 1))
        self.ws = [0.0] * (q - 1) + [1.0] + [x_q] * (T - q)
        self.prob = prob = HuberPair(G=1.0 / (q + 1), H=1.0, a=x_q / 2, r=1.0)
        maxdist = np.array([0.0 if t < q else 1.0 for t in range(1, T + 1)])  # max_{i<=t} ||w_i - x_{i-1}||
        # the claim's sigma_t (eq. (6)), written out here rather than read from the code under audit
        self.sig = np.array([2 * (k + 1) * t ** (k - 1) * (prob.G + prob.H * maxdist[t - 1])
                             * math.sqrt(math.log2(2 * T)) / rho for t in range(1, T + 1)])
        self.means = {p: self.nodes(self.releases(p, 1, np.random.default_rng(0), rho=math.inf))[0]
                      for p in range(T + 1)}

    def data(self, p):
        return [(np.array([1.0 if t == p else -1.0]),) for t in range(1, self.T + 1)]

    def releases(self, p, n, rng, **kw):
        from dpregret.papers.ztc22 import o2b

        T = self.T
        out = np.empty((n, T))
        for a, b in chunks(n):
            args = {"rho": self.rho, **kw}
            run = o2b.run(FixedData(self.prob, self.data(p)), Schedule(self.ws, b - a), T, k=self.k, src=None,
                          noise_src=SampleStreams(rng, b - a),
                          checkpoints=[T], record_released=True, **args)
            out[a:b] = run.extra["released"][:, :, 0]
        return out

    def nodes(self, y):  # node k = release k minus release k - lowbit(k) (release 0 = 0)
        z = y.copy()
        t = np.array([t for t in range(1, self.T + 1) if t & (t - 1)])  # not a power of two
        if t.size:  # every such column at once (each subtracts a column of y, not of z)
            z[:, t - 1] -= y[:, t - (t & -t) - 1]
        return z

    def llr_nodes(self, z, p):
        """Exact log p_{D_p} - log p_{D'} of node transcripts z under the claimed sigma_t: the
        nodes whose means agree (those not covering p) contribute exactly 0 and are skipped."""
        means, sig = self.means, self.sig
        k = np.flatnonzero(means[p] != means[0])
        zk = z[:, k]
        return np.sum(((zk - means[0][k]) ** 2 - (zk - means[p][k]) ** 2) / (2 * sig[k] ** 2), axis=1)

    def llr(self, y, p):  # of the releases y
        return self.llr_nodes(self.nodes(y), p)

    def draw(self, variant, n, rng):
        kw = self.variant_args[variant]
        base = self.nodes(self.releases(0, n, rng("D'"), **kw))
        return {f"t={p}": (self.llr(self.releases(p, n, rng("D", p), **kw), p), self.llr_nodes(base, p))
                for p in range(1, self.T + 1)}

    def exact(self, rng) -> str | None:
        T, q = self.T, self.q
        y = self.releases(0, 16, rng)
        for p in (1, q, T):
            rep = [transcript_logpdf(self.prob, self.data(s), Schedule(self.ws, len(y)), y[:, :, None], k=self.k,
                                     rho=self.rho) for s in (p, 0)]
            err = float(np.abs(self.llr(y, p) - (rep[0] - rep[1])).max())
            if err > 1e-8:
                return f"closed-form node LLR differs from the replayed likelihood by {err:.3g} (record at {p})"
        got = (abs(self.means[q][q - 1] - self.means[0][q - 1])
               / (self.sig[q - 1] * self.rho / math.sqrt(math.log2(2 * T))))
        want = (2 * q - 1) / (2 * q + 4)
        if abs(got - want) >= 1e-12:
            return f"the record at {q} moves delta_q by {got:.6g} Delta_q, not {want:.6g}"
        return None

    def independence(self, n, alpha, rng):  # node noises of the releases under D'
        return independence_check(self.nodes(self.releases(0, min(n, CHECK_SAMPLES), rng)) - self.means[0], alpha)


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
    a = _O2BAudit(rho, T)
    q = a.q
    mu_q = math.sqrt(math.log2(T) / math.log2(2 * T)) * (2 * q - 1) / (2 * q + 4) * rho
    controls = {"half_noise": f"sigma_t / 2 (mu of the record at t = {q}: {2 * mu_q:.3g})",
                "G_only": "Delta_t without the smoothness term H max ||w_i - x_{i-1}|| (sigma_t 7x too small "
                          "from the jump on; Delta_t without G, or no noise, are grosser still)"}
    return AuditSpec(privacy_claim("AUDIT-ztc-thm3-o2b", ZTC, "Theorem 3 (Algorithm 1 end to end)",
                                   f"the released g_t + gamma_t of Algorithm 1 (k = 1, T = {T}, eq. (6) sigma_t; 1-D "
                                   f"records G-Lipschitz and H-smooth, a fixed-schedule learner; the record at every "
                                   f"step) are (alpha, alpha rho^2/2)-RDP, i.e. rho-GDP (rho = {rho:g}); the worst "
                                   f"record (t = {q}) is exactly {mu_q:.3g}-GDP", controls, "half_noise"),
                     rho, 0.0, a.draw, "half_noise", controls, gaussian_mu=rho, rdp=lambda al: al * rho**2 / 2,
                     gdp_only=True, exact_check=a.exact, stat_check=a.independence,
                     exact_ok="closed-form node LLR = replayed transcript likelihood; the record at the jump moves "
                                     "delta_q by (2q-1)/(2q+4) Delta_q (exact)")

# --- Zhang-Tran-Cutkosky's one-pass DP-SGD baseline ----------------------------------------
class _LinearRecords:
    """A linear problem on R^d for ``run_dpsgd``: the records are fixed vectors (one per step, in
    order), the gradient of l(y, z) = <z, y> is z, the ball is large enough never to bind (r = 1e6:
    every iterate is the unprojected one), and ``grad`` records the iterate it is called at (the
    learner's path y_1 .. y_T)."""

    def __init__(self, records: np.ndarray, G: float, D: float):
        self.records, self.G, self.D, self.r = records, G, D, 1e6
        self.d = records.shape[1]
        self.t, self.path = 0, []

    def sample(self, src, R):
        z = np.broadcast_to(self.records[self.t], (R, self.d))
        self.t += 1
        return z

    def grad(self, y, z):
        self.path.append(y.copy())
        return np.asarray(z, dtype=float)

    def subopt(self, avg):
        return np.zeros(len(avg))


def dpsgd_spec(rho: float = 1.0, T: int = 3, d: int = 2, G: float = 1.0, D: float = 2.0) -> AuditSpec:
    """``run_dpsgd`` (its own noise ``s`` and step ``eta``, its ``draw_normal`` from the scenarios'
    sampler) on linear records: D' has every record -G e_1, D_p has record p = +G e_1 (replace-one,
    the clipped gradients' l2 distance 2G).  The output is the iterate path y_1 .. y_T (each record
    p < T moves y_{p+1}; the last record moves no iterate that the averaged output reads).  Claim:
    rho-GDP, the noise ``s = 2G / rho`` of one step per record.  The score is the increment
    y_p - y_{p+1} along e_1 (the exact LLR's sufficient statistic whatever eta and s).  Scale check:
    with zero records the increments are eta s Z; the mean of their squared coordinates must be the
    formula's (eta s)^2 = D^2 s^2 / (T (G^2 + d s^2)) (both ways: too much noise fails too)."""
    from dpregret.papers.ztc22.dpsgd import run_dpsgd

    s = 2.0 * G / rho
    want = D**2 * s**2 / (T * (G**2 + d * s**2))  # (eta s)^2 of the formula

    def path(rec: np.ndarray, rho_v: float, n: int, rng) -> np.ndarray:
        out = np.empty((n, T, d))
        for a, b in chunks(n):
            prob = _LinearRecords(rec, G, D)
            run_dpsgd(prob, T, rho=rho_v, src=None, noise_src=SampleStreams(rng, b - a), checkpoints=[T], R=b - a)
            out[a:b] = np.stack(prob.path, axis=1)
        return out

    def records(p):
        r = np.zeros((T, d))
        r[:, 0] = -G
        if p:
            r[p - 1, 0] = G
        return r

    rho_of = {"correct": rho, "half_noise": 2 * rho}

    def draw(variant, n, rng):
        base = path(records(0), rho_of[variant], n, rng("D'"))
        out = {}
        for p in range(1, T):
            y = path(records(p), rho_of[variant], n, rng("D", p))
            out[f"t={p}"] = (y[:, p - 1, 0] - y[:, p, 0], base[:, p - 1, 0] - base[:, p, 0])
        return out

    def check(factor, n, alpha, rng):  # zero records: the increments are the noise
        y = path(np.zeros((T, d)), rho / factor, min(n, CHECK_SAMPLES), rng)
        inc = np.diff(y, axis=1)
        return scale_check(inc.reshape(len(inc), -1) ** 2, want, alpha,
                           "mean squared increment coordinate (eta s)^2")

    def stat(n, alpha, rng):
        return with_controls(check, n, alpha, rng)

    controls = {"half_noise": "s / 2: one clipped gradient's add/remove sensitivity G for the replace-one 2G (mu x 2)"}
    return AuditSpec(privacy_claim("AUDIT-ztc-dpsgd", ZTC, "the one-pass DP-SGD baseline (Algorithm 1's budget)",
                                   f"one-pass DP-SGD with N(0, s^2 I), s = 2G/rho, on each clipped gradient is rho-GDP "
                                   f"on its iterates (rho = {rho:g}, T = {T}, d = {d}, G = {G:g}, the record at every "
                                   "step "
                                   "that moves "
                                   "an iterate); its realised noise scale eta s equals the formula's (too much noise "
                                   "fails too)",
                                   controls, "half_noise"),
                     rho, 0.0, draw, "half_noise", controls, gaussian_mu=rho, rdp=lambda al: al * rho**2 / 2,
                     gdp_only=True, stat_check=stat)
