"""Audit specs of two private algorithms end to end: Agarwal-Singh Algorithm 4 (Lemma 4.2) on
what its inner learner receives (compiled EXP2 and SCRiBLe rounds, numpy classes) and
Zhang-Tran-Cutkosky Algorithm 1 (Theorem 3) on its released sequence (see
:mod:`dpregret.claims.privacy`)."""
from __future__ import annotations

import math

import numpy as np

from .privacy_audit import AS17, CHECK_SAMPLES, ZTC, AuditSpec, chunks, privacy_claim, independence_check, SampleStreams


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
    from ..papers.as17.bandits import Exp2, PrivateFeedback
    from ..papers.as17.exp2_jit import exp2_block
    from ..papers.as17.scrible_jit import scrible_block
    from ..papers.as17.bandits import row_params
    from ..papers.as17.scrible import blo_row_params as blo_params

    claim_lam, claim_lam_s = 1.0 / eps, 2.0 / eps
    lam, eta, gam = row_params("dp_exp2", N, T, eps)
    _, eta0, gam0 = row_params("exp2", N, T, None)
    sp, sp0 = blo_params("cube", "dp_scrible", 1, T, eps), blo_params("cube", "scrible", 1, T, None)
    b01 = np.array([[(t + j) % 2 for j in range(N)] for t in range(T)], dtype=float)
    bpm = np.array([[1.0 if t % 2 == 0 else -1.0] for t in range(T)])
    # per path and variant: (lambda the audited rows run with, base losses, (lo, hi): D_p row = lo + hi - base row)
    exp2 = {"correct": (lam, b01, (0, 1)), "half_noise": (claim_lam / 2, b01, (0, 1)),
            "wrong_sensitivity": (claim_lam, 2 * b01 - 1, (-1, 1))}
    exp2_kernel_table = {**exp2, "gaussian_shape": (claim_lam, b01, (0, 1))}
    scr = {"correct": (sp["lambda"], bpm, (-1, 1)), "half_noise": (claim_lam_s / 2, bpm, (-1, 1)),
           "wrong_sensitivity": (1.0 / eps, bpm, (-1, 1))}

    def neighbour(base, lh, p):
        L = base.copy()
        if p:
            L[p - 1] = lh[0] + lh[1] - L[p - 1]
        return L

    # sim(L, lam, n, rng, gauss): n runs over the rounds of L (len(L) <= T); what the inner learner received.
    # Every draw goes through the scenarios' sampler (SampleStreams: ReplicateStreams.laplace / .uniform, the
    # draws the scenarios hand to the kernels); gauss: sqrt(2) N(0, 1) in place of Lap(1) (the same variance)
    def _noise(st, shape, gauss):
        return np.sqrt(2.0) * st.normal(shape) if gauss else st.laplace(1.0, shape)

    def exp2_kernel(L, lam_v, n, rng, gauss=False):
        tb = len(L)
        rec = np.empty((n, tb, 2))
        for a, b in chunks(n):
            r = b - a  # rows: r non-private (exp2), then r audited (dp_exp2), as the scenario batches them
            st = SampleStreams(rng, r)
            Z, U = _noise(st, (tb, N), gauss), st.uniform((tb,))
            out = np.empty((2 * r, tb, 2))
            exp2_block(np.full((2 * r, N), -np.log(N)), np.repeat([eta0, eta], r), np.repeat([gam0, gam], r),
                       np.repeat([0.0, lam_v], r), np.zeros((2 * r, N)),
                       np.ascontiguousarray(np.broadcast_to(L, (r, tb, N))), Z, U, np.zeros(2 * r), np.zeros(2 * r),
                       np.zeros((2 * r, N)), out)
            rec[a:b] = out[r:]
        return rec

    def exp2_numpy(L, lam_v, n, rng, gauss=False):
        rec = np.empty((n, len(L), 2))
        for a, b in chunks(n):
            st = SampleStreams(rng, b - a)
            inner = Received(Exp2(N, eta, gam, st, b - a))
            learner = PrivateFeedback(inner, lam_v, st)
            for row in L:
                learner.update(row[learner.predict()])
            rec[a:b, :, 0], rec[a:b, :, 1] = np.stack(inner.arms, axis=1), np.stack(inner.values, axis=1)
        return rec

    def scrible_kernel(L, lam_v, n, rng, gauss=False):
        tb = len(L)
        rec = np.empty((n, tb, 2))
        for a, b in chunks(n):
            r = b - a  # rows: r non-private (scrible), then r audited (dp_scrible)
            st = SampleStreams(rng, r)
            Z, U = _noise(st, (tb, 1), gauss), st.uniform((tb,))
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

    paths = {"exp2-kernel": (exp2_kernel, exp2_noise, exp2_shift, exp2_kernel_table, claim_lam),
             "exp2-numpy": (exp2_numpy, exp2_noise, exp2_shift, exp2, claim_lam),
             "scrible-kernel": (scrible_kernel, scrible_noise, scrible_shift, scr, claim_lam_s)}

    def score(path, p, LD, base, rec):
        """log p_D(transcript) - log p_D'(transcript) under the claim: round p's term only (later
        rounds have the same conditional law under both inputs); and round p's shift along the
        change, ``c z``, which does not saturate (:func:`.privacy_audit.mean_shift_projection`)."""
        _, noise, shift, _, lam_c = paths[path]
        z, c = noise(rec, base, p), shift(rec, p, LD, base)  # z = c + noise under D, noise under D'
        return np.stack([(np.abs(z) - np.abs(z - c)) / lam_c, c * z], axis=1)

    def draw(variant, n, rng):
        cells = {}
        for name, (sim, _, _, table, _) in paths.items():
            if variant not in table:  # gaussian_shape: the compiled EXP2 rounds only (one sweep, not three)
                continue
            lam_v, base, lh = table[variant]
            gauss = variant == "gaussian_shape"
            rec0 = sim(base, lam_v, n, rng(name, "D'"), gauss)
            for p in range(1, T + 1):
                # rounds after p have the same conditional law under D_p and D' (same losses), so the
                # transcript's likelihood ratio is round p's: D_p runs only rounds 1..p
                LD = neighbour(base, lh, p)
                cells[f"{name} t={p}"] = (score(name, p, LD, base, sim(LD[:p], lam_v, n, rng(name, "D", p), gauss)),
                                          score(name, p, LD, base, rec0))
        return cells

    def independence(n, alpha, rng):
        fails, info = [], {}
        for name, (sim, noise, _, table, _) in paths.items():
            lam_v, base, _ = table["correct"]
            rec = sim(base, lam_v, min(n, CHECK_SAMPLES), rng)
            err, info[name] = independence_check(np.stack([noise(rec, base, t) for t in range(1, T + 1)], axis=1),
                                                 alpha / len(paths))
            if err:
                fails.append(f"{name}: {err}")
        return ("; ".join(fails) or None), info

    controls = {"half_noise": "lambda / 2", "wrong_sensitivity": "losses in [-1, 1] (the paper's ||l||_inf <= 1) "
                "with lambda = 1/eps, calibrated for [0, 1]; SCRiBLe: the printed lambda = ||Y||_1/eps without the "
                "factor 2 (true eps: 2 eps; a no-noise control, grosser still, would cost a full sweep)",
                "gaussian_shape": "Gaussian noise of the claimed variance 2 lambda^2 in place of Lap(lambda) (another "
                "shape, same variance), on the compiled EXP2 rounds"}
    return AuditSpec(privacy_claim("AUDIT-as17-lemma4.2-bandit", AS17, "Lemma 4.2 (Algorithm 4 + EXP2 / SCRiBLe), transcript",
                                   f"the plays and forwarded values of Algorithm 4 are eps-DP (eps = {eps:g}, T = {T}, the "
                                   f"record at every step): EXP2 with N = {N} arms and lambda = 1/eps (compiled rounds and "
                                   f"numpy classes), SCRiBLe on the cube [-1, 1] with lambda = 2/eps (compiled rounds); "
                                   f"the forwarded noises are independent across rounds", controls, "half_noise"),
                     eps, 0.0, draw, "half_noise", controls, tight_floor=0.9, stat_check=independence)


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
