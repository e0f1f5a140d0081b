"""Zhang, Tran, Cutkosky (NeurIPS 2022), Algorithm 1: differentially private online-to-batch,
with its refinements (section 3 optimistic, section 4 strongly convex, section 5
parameter-free), its baselines and its bounds.

:func:`run` executes Algorithm 1 line by line, vectorised over replicates: ``beta_t = t^k``,
``x_t`` the beta-weighted average of the learner's ``w_t``, ``delta_t = beta_t grad l(x_t, z_t)
- beta_{t-1} grad l(x_{t-1}, z_t)`` (the same sample at both points), ``g_t = g_{t-1} +
delta_t``, ``gamma_t = NOISE(t)`` (:class:`dpregret.tree.TreeNoise`) with ``sigma_t`` of
eq. (6) and ``D = N(0, I)`` (V = d), and the learner sees ``<g_t + gamma_t, w>``.  Work per
step is O(d log T) (the tree touches at most log2(T)+1 stored draws, amortised O(1)).

Conversions (``conversion=``): ``"tree"`` (Algorithm 1), ``"none"`` (non-private anytime
online-to-batch, the same learner without noise), ``"naive"`` (anytime online-to-batch on
``beta_t grad l(x_t, z_t)`` plus Gaussian noise calibrated to its own sensitivity
``2 beta_t G``: each record enters one gradient, so sigma_t = 2 beta_t G / rho gives the same
(alpha, alpha rho^2/2)-RDP), ``"fresh"`` (a near-miss control: Algorithm 1 with a fresh sample
``z'_t`` at the second point, ``delta_t = beta_t grad l(x_t, z_t) - beta_{t-1} grad l(x_{t-1},
z'_t)``; ``g_t`` is still unbiased for ``beta_t grad L(x_t)`` but its sampling noise no longer
telescopes: it grows as t^(k+1/2) instead of t^(k-1/2)).  :func:`run_dpsgd` is one-pass projected DP-SGD at the same
budget.  Regularised losses: ``reg="sc"`` (Lemma 7, ``+ beta_t mu/4 ||w - x_t||^2``) and
``reg="pf"`` (Theorem 11, ``+ xi_t ||w|| + nu_t ||w||^2``).

Run-time sensitivity check (Theorem 3): with ``check_sensitivity=True`` every step also
evaluates ``delta_t`` at replacement samples ``z'_t`` (the problem's ``neighbours``, extreme
points of the support) and records the largest ``||delta_t - delta'_t|| / Delta_t``, where
``Delta_t = rho sigma_t / sqrt(log2(2T))`` is the sensitivity that eq. (6) calibrates for.
Theorem 3's proof needs this ratio <= 1 at every step.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .. import _validate as V
from ..environments.stochastic import project_ball
from ..rng import ReplicateStreams, draw_normal
from ..tree import TreeNoise

LAMBDA_L2 = 2.0  # ||.||_2^2 is 2-strongly convex w.r.t. ||.||_2 (Assumption 1)
# eq6: Delta_t of eq. (6).  Understated controls: half is Delta_t / 2 (eq. (6) without its
# factor 2: half the noise); G_only drops the smoothness term H max||w_i - x_{i-1}||; H_only
# drops the Lipschitz term G (zero noise at t = 1).
SENSITIVITIES = ("eq6", "half", "G_only", "H_only")


def beta(t, k: float):
    return np.asarray(t, dtype=float) ** k


def sensitivity_eq6(t: int, k: float, G: float, H: float, maxdist: np.ndarray) -> np.ndarray:
    """Delta_t = 2 (k+1) t^(k-1) (G + H max_{i<=t} ||w_i - x_{i-1}||): the bound on
    ``||delta_t - delta'_t||`` behind eq. (6) (Appendix B): ``||delta_t|| <= (beta_t -
    beta_{t-1}) G + beta_{t-1} H ||x_t - x_{t-1}||`` and ``beta_{t-1} beta_t / beta_{1:t} <=
    (k+1) t^(k-1)``."""
    return 2.0 * (k + 1) * t ** (k - 1) * (G + H * maxdist)


def sigma_eq6(t: int, T: int, k: float, rho: float, G: float, H: float, maxdist: np.ndarray) -> np.ndarray:
    """eq. (6): sigma_t^2 = 4 (k+1)^2 / rho^2 (G + H max_i ||w_i - x_{i-1}||)^2 log2(2T) t^(2k-2)."""
    return sensitivity_eq6(t, k, G, H, maxdist) * math.sqrt(math.log2(2 * T)) / rho


@dataclass
class Run:
    """Per-replicate results at the checkpoints (arrays (R, C) unless noted)."""

    checkpoints: list[int]
    subopt: np.ndarray  # L(x_t) - L(x*)
    regret: np.ndarray  # sum_s <g_s + gamma_s, w_s - x*> (+ regulariser terms for reg losses)
    subopt_w: np.ndarray  # L(w_t) - L(x*), the learner's own iterate
    sens_ratio: np.ndarray | None = None  # (R,) max_t ||delta_t - delta'_t|| / Delta_t
    extra: dict = field(default_factory=dict)


def _pf_params(problem, T: int, rho: float, C: float, delta: float):
    """Theorem 10: A, A', Phi and xi_t, nu_t (sigma_D = 1 for N(0, I))."""
    G, H, D, d = problem.G, problem.H, problem.D, problem.d
    A = 8 * math.sqrt(2) * C**2
    A1 = 8 * math.sqrt(d) * 1.0 * C**2
    kappa = 1 + D * H / G
    Phi = math.sqrt(math.log(20 * d * T * math.log(2 * kappa * T) / delta))
    l2 = math.log2(2 * T)

    def xi(t):
        return A * G * Phi * t**2.5 + (A1 * (G + D * H) * Phi * l2 * t**2 / rho if math.isfinite(rho) else 0.0)

    def nu(t):
        return 28 * A * H * Phi * t**2.5

    def ghat(t):  # Theorem 11, second part: bound on ||gbar_t||
        return G * t**3 + A * (2 * G + 57 * D * H) * Phi * t**2.5 + (
            2 * A1 * (G + D * H) * Phi * l2 * t**2 / rho if math.isfinite(rho) else 0.0)

    return {"A": A, "A1": A1, "Phi": Phi, "xi": xi, "nu": nu, "ghat": ghat}


def run(problem, learner, T: int, *, k: float, rho: float, src, noise_src, checkpoints, conversion: str = "tree",
        sensitivity: str = "eq6", reg: str | None = None, pf: dict | None = None,
        check_sensitivity: bool = False, record_released: bool = False, noise_factor: float = 1.0) -> Run:
    """Algorithm 1 (see module docstring).  ``src`` draws the data and ``noise_src`` the
    privacy noise (ReplicateStreams or Generators): separate streams, so runs with the same
    data key share their data whatever their noise (common random numbers across
    conversions and learners).  ``noise_factor`` multiplies every sigma_t (1 = the paper;
    other values are mis-calibrated negative controls)."""
    T = V.integer("T", T, minimum=1)
    k = float(k)
    if k < 1:
        raise ValueError(f"k must be >= 1 (beta_t = t^k, Theorem 3), got {k}")
    if conversion not in ("tree", "none", "naive", "fresh"):
        raise ValueError(f"conversion must be 'tree', 'none', 'naive' or 'fresh', got {conversion!r}")
    if sensitivity not in SENSITIVITIES:
        raise ValueError(f"sensitivity must be one of {SENSITIVITIES}, got {sensitivity!r}")
    if reg not in (None, "sc", "pf"):
        raise ValueError(f"reg must be None, 'sc' or 'pf', got {reg!r}")
    rho = float(rho)
    if not rho > 0:
        raise ValueError(f"rho must be > 0 (inf for no noise), got {rho}")
    cps = sorted({int(c) for c in checkpoints if 1 <= int(c) <= T})
    if not cps:
        raise ValueError(f"checkpoints must contain a value in [1, T={T}], got {checkpoints!r}")
    if _linear_fast_path(problem, learner, conversion, reg, check_sensitivity, record_released, src, noise_src):
        return _run_linear_ogd(problem, learner, T, k, rho, src, noise_src, cps, conversion, sensitivity, noise_factor)
    R, d = learner.predict().shape
    G, H = problem.G, problem.H
    x = np.zeros((R, d))
    g = np.zeros((R, d))
    bsum = 0.0
    maxdist = np.zeros(R)
    if isinstance(noise_src, ReplicateStreams) and conversion != "none":  # the same N(0, 1) draws, in blocks
        noise_src = _BlockedNormal(noise_src, d, max(1, min(T, 1_000_000 // (R * d))), limit=T)
    tree = TreeNoise(T, d, lambda kk: draw_normal(noise_src, (kk, d) if isinstance(noise_src, (ReplicateStreams, _BlockedNormal)) else (R, kk, d)), R) if conversion in ("tree", "fresh") else None
    regret = np.zeros(R)
    sub, reg_c, sub_w = [], [], []
    ratio = np.zeros(R) if check_sensitivity else None
    xs = problem.x_star
    released = []
    gbar_ratio = np.zeros(R)  # reg = "pf": max_t ||gbar_t|| / (Theorem 11's bound on it)
    gbar_ctl: dict = {}
    lsum = np.zeros((R, d))  # sum of the learner's loss vectors (for the regret against the best point of W)
    wsum_dot = np.zeros(R)
    for t in range(1, T + 1):
        w = learner.predict()
        b_t, b_prev = float(t) ** k, float(t - 1) ** k
        x_prev = x
        bsum_prev, bsum = bsum, bsum + b_t
        x = (bsum_prev * x_prev + b_t * w) / bsum
        z = problem.sample(src, R)
        gx = problem.grad(x, z)
        if conversion == "naive":
            delta = b_t * gx
            g = delta  # the plain conversion's t-th loss vector
        elif conversion == "fresh":
            delta = b_t * gx - (b_prev * problem.grad(x_prev, problem.sample(src, R)) if t > 1 else 0.0)
            g = g + delta
        else:
            delta = b_t * gx - (b_prev * problem.grad(x_prev, z) if t > 1 else 0.0)
            g = g + delta
        maxdist = np.maximum(maxdist, np.linalg.norm(w - x_prev, axis=-1))
        if conversion in ("tree", "fresh"):
            Delta = _delta(sensitivity, t, k, G, H, maxdist)
            noise = tree.step(noise_factor * Delta * math.sqrt(math.log2(2 * T)) / rho)
        elif conversion == "naive":
            Delta = 2.0 * b_t * G
            noise = (noise_factor * Delta / rho) * draw_normal(noise_src, (d,) if isinstance(noise_src, (ReplicateStreams, _BlockedNormal)) else (R, d))
        else:
            Delta, noise = None, 0.0
        if check_sensitivity and Delta is not None:
            worst = np.zeros(R)
            for zp in problem.neighbours(z, x, x_prev):
                if conversion == "naive":
                    dp = b_t * problem.grad(x, zp)
                else:
                    dp = b_t * problem.grad(x, zp) - (b_prev * problem.grad(x_prev, zp) if t > 1 else 0.0)
                worst = np.maximum(worst, np.linalg.norm(delta - dp, axis=-1))
            ratio = np.maximum(ratio, worst / np.maximum(Delta, 1e-300))
        ghat = g + noise
        if reg == "sc":
            full = ghat + b_t * problem.mu / 2 * (w - x)
            regret += np.sum(ghat * (w - xs), axis=-1) + b_t * problem.mu / 4 * (
                np.sum((w - x) ** 2, axis=-1) - np.sum((xs - x) ** 2, axis=-1))
        elif reg == "pf":
            xi, nu = pf["xi"](t), pf["nu"](t)
            wn = np.linalg.norm(w, axis=-1, keepdims=True)
            full = ghat + xi * np.where(wn > 0, w / np.maximum(wn, 1e-300), 0.0) + 2 * nu * w
            xsn = float(np.linalg.norm(xs))
            regret += np.sum(ghat * (w - xs), axis=-1) + xi * (wn[:, 0] - xsn) + nu * (wn[:, 0] ** 2 - xsn**2)
            gn = np.linalg.norm(full, axis=-1)
            gbar_ratio = np.maximum(gbar_ratio, gn / pf["ghat"](t))
            for name, fn in pf.get("ghat_controls", {}).items():  # the same ||gbar_t|| against other bounds
                gbar_ctl[name] = np.maximum(gbar_ctl.get(name, 0.0), gn / fn(t))
        else:
            full = ghat
            regret += np.sum(ghat * (w - xs), axis=-1)
        learner.update(full)
        lsum = lsum + full
        wsum_dot += np.sum(full * w, axis=-1)
        if record_released:
            released.append(ghat)
        if t in cps:
            sub.append(problem.subopt(x))
            sub_w.append(problem.subopt(w))
            reg_c.append(regret.copy())
    extra = {"released": np.stack(released, 1)} if record_released else {}
    if reg is None:  # linear losses: the regret against the best fixed point of the ball W
        extra["regret_max"] = wsum_dot + problem.r * np.linalg.norm(lsum, axis=-1)
    if reg == "pf":
        extra["gbar_ratio"] = gbar_ratio
        extra.update({f"gbar_ratio_{k}": v for k, v in gbar_ctl.items()})
    return Run(cps, np.stack(sub, 1), np.stack(reg_c, 1), np.stack(sub_w, 1), ratio, extra)


class _BlockedNormal:
    """A ReplicateStreams' standard normal draws ``normal((k, d))`` / ``normal((d,))`` served
    from blocks of ``block`` rows (speed only): ``normal`` is the inverse CDF of the stream's
    uniforms, elementwise, and the stream serves its uniforms in order whatever the block, so
    every call returns the numbers the stream itself would (``tests/test_o2b_jit.py``).  At most
    ``limit`` rows are drawn from the stream (run() needs one per step), so it ends where the
    per-step draws would leave it."""

    def __init__(self, src: ReplicateStreams, d: int, block: int, limit: int):
        self.src, self.d, self.block, self.left = src, d, block, limit
        self._buf = None
        self._pos = 0

    def standard_normal(self, shape):
        shape = tuple(shape)
        k = 1 if shape == (self.d,) else shape[0]
        if shape not in ((self.d,), (k, self.d)):
            raise ValueError(f"blocked normal draws serve shapes (d,) and (k, d), got {shape}")
        if self._buf is None or self._pos + k > self._buf.shape[1]:
            rows = max(min(self.block, self.left), k)
            self.left -= rows
            new = draw_normal(self.src, (rows, self.d))
            self._buf = new if self._buf is None else np.concatenate([self._buf[:, self._pos:], new], axis=1)
            self._pos = 0
        self._pos += k
        z = self._buf[:, self._pos - k : self._pos]
        return z[:, 0] if shape == (self.d,) else z


def _linear_fast_path(problem, learner, conversion, reg, check_sensitivity, record_released, src, noise_src) -> bool:
    """Whether :func:`run` may use the compiled loop of :mod:`dpregret.learners.o2b_jit` (speed
    only, the same numbers): linear losses of the minimax family, Remark 5's OGD, streams."""
    from ..environments.stochastic import LinearFamily
    from .oco import ProjectedOGD

    return (type(problem) is LinearFamily and type(learner) is ProjectedOGD and conversion in ("tree", "none")
            and reg is None and not check_sensitivity and not record_released and isinstance(src, ReplicateStreams)
            and (conversion == "none" or isinstance(noise_src, ReplicateStreams)) and learner.t == 0)


def _base_uniform(src, shape):
    """The stream replicates' own uniforms (a TiledStreams serves them tiled m times)."""
    return ReplicateStreams.uniform(src, shape)


def _run_linear_ogd(problem, learner, T, k, rho, src, noise_src, cps, conversion, sensitivity, noise_factor) -> Run:
    """:func:`run` on :class:`LinearFamily` with :class:`ProjectedOGD` (tree or no noise), in
    blocks of steps through :func:`dpregret.learners.o2b_jit.linear_ogd_block`: the same draws
    and the same arithmetic in the same order as the loop of :func:`run`.  The inverse normal
    CDF is taken before a TiledStreams' tiling (elementwise: the same numbers, m times fewer)."""
    from scipy import special

    from ..environments.stochastic import TiledStreams
    from .o2b_jit import linear_ogd_block

    R, d = learner.predict().shape
    G, H = problem.G, problem.H
    for s in (src,) + ((noise_src,) if conversion == "tree" else ()):
        if (s.m if isinstance(s, TiledStreams) else 1) * s.R != R:
            raise ValueError(f"stream replicates x tiling must equal the learner's rows {R}")
    # per-step scalars, computed as run() computes them
    b_t = np.empty(T)
    b_prev = np.empty(T)
    bs0 = np.empty(T)
    bs1 = np.empty(T)
    eta = np.empty(T)
    c1 = np.empty(T)
    bsum = 0.0
    for t in range(1, T + 1):
        b_t[t - 1], b_prev[t - 1] = float(t) ** k, float(t - 1) ** k
        bs0[t - 1], bsum = bsum, bsum + float(t) ** k
        bs1[t - 1] = bsum
        learner.t += 1
        learner._acc += learner.ghat_sq(learner.t)
        eta[t - 1] = 2 * learner.r / math.sqrt(learner._acc)
        c1[t - 1] = sensitivity_eq6(t, k, 1.0, 0.0, 0.0)  # 2 (k+1) t^(k-1), the factor of eq. (6)
    Gs, Hs = {"eq6": (G, H), "half": (G / 2, H / 2), "G_only": (G, 0.0), "H_only": (0.0, H)}[sensitivity]
    sq = math.sqrt(math.log2(2 * T))
    x = np.zeros((R, d))
    g = np.zeros((R, d))
    w = np.array(learner.w, dtype=float, copy=True)
    wpre = np.zeros((R, d))
    maxdist = np.zeros(R)
    regret = np.zeros(R)
    tree = np.zeros((T.bit_length(), R, d))
    xs = np.ascontiguousarray(np.broadcast_to(problem.x_star, (R, d)), dtype=float)
    c = np.ascontiguousarray(np.broadcast_to(problem.c, (R, d)), dtype=float)
    s_rows = np.ascontiguousarray(np.broadcast_to(problem.s_rows, (R, 1))[:, 0], dtype=float)
    sub, reg_c, sub_w = [], [], []
    block = max(1, 2_000_000 // (src.R * d))
    t0 = 0
    for stop in cps + ([T] if cps[-1] < T else []):
        while t0 < stop:
            B = min(block, stop - t0)
            u = _base_uniform(src, (B, d))  # B steps of problem.sample: d uniforms each
            nz = special.ndtri(_base_uniform(noise_src, (B, d))) if conversion == "tree" else np.empty((src.R, 0, d))
            linear_ogd_block(t0, u, nz, c, s_rows, math.sqrt(problem.d), tree, x, g, w, wpre, maxdist, regret, xs,
                             b_t, b_prev, bs0, bs1, eta, c1, float(Gs), float(Hs), sq, float(rho),
                             float(noise_factor), float(learner.r))
            t0 += B
        if stop in cps:
            sub.append(problem.subopt(x))
            sub_w.append(problem.subopt(wpre.copy()))
            reg_c.append(regret.copy())
    learner.w = w
    return Run(cps, np.stack(sub, 1), np.stack(reg_c, 1), np.stack(sub_w, 1), None, {})


def _delta(sensitivity: str, t: int, k: float, G: float, H: float, maxdist: np.ndarray) -> np.ndarray:
    if sensitivity == "eq6":
        return sensitivity_eq6(t, k, G, H, maxdist)
    if sensitivity == "half":
        return sensitivity_eq6(t, k, G, H, maxdist) / 2
    if sensitivity == "G_only":
        return sensitivity_eq6(t, k, G, 0.0, maxdist)
    return sensitivity_eq6(t, k, 0.0, H, maxdist)


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
    from ..tree import binary_prefix_set

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
        sigma = _delta(sensitivity, t, k, G, H, maxdist) * math.sqrt(math.log2(2 * T)) / rho
        r_t = released[:, t - 1] - g - sum(nodes[i] for i in binary_prefix_set(t) if i < t)
        nodes[t] = r_t
        with np.errstate(divide="ignore", invalid="ignore"):
            sq = np.sum(r_t**2, axis=-1)
            lp = np.where(sigma > 0, -0.5 * sq / np.maximum(sigma, 1e-300) ** 2 - d * np.log(np.maximum(sigma, 1e-300)),
                          np.where(sq <= 1e-18, 0.0, -np.inf))
        logp += lp
        learner.update(released[:, t - 1])
    return logp


def run_dpsgd(problem, T: int, *, rho: float, src, noise_src, checkpoints, R: int) -> Run:
    """One-pass projected DP-SGD: ``y_{t+1} = Proj_W(y_t - eta (grad l(y_t, z_t) + N(0, s^2 I)))``
    with the gradient clipped at G (a no-op: ||grad|| <= G), ``s = 2G / rho`` (each record enters
    one step: the RDP composition over the T steps is one Gaussian with sensitivity 2G, i.e.
    (alpha, alpha rho^2/2)-RDP, the same budget as Algorithm 1), constant step ``eta = D /
    sqrt(T (G^2 + d s^2))`` and the averaged iterate (Shamir and Zhang 2013's
    ``E[L(avg) - L*] <= O(D sqrt(G^2 + d s^2) / sqrt(T))``).  The data are drawn from ``src``
    as in :func:`run`, so a common key gives common data."""
    T = V.integer("T", T, minimum=1)
    d, G, r = problem.d, problem.G, problem.r
    s = 2.0 * G / rho if math.isfinite(rho) else 0.0
    eta = problem.D / math.sqrt(T * (G**2 + d * s**2))
    y = np.zeros((R, d))
    avg = np.zeros((R, d))
    cps = sorted({int(c) for c in checkpoints if 1 <= int(c) <= T})
    sub = []
    for t in range(1, T + 1):
        z = problem.sample(src, R)
        gr = problem.grad(y, z)
        gn = np.linalg.norm(gr, axis=-1, keepdims=True)
        gr = gr * np.minimum(1.0, G / np.maximum(gn, 1e-300))
        avg = avg + (y - avg) / t
        y = project_ball(y - eta * (gr + s * draw_normal(noise_src, (d,) if isinstance(noise_src, ReplicateStreams) else (R, d))), r)
        if t in cps:
            sub.append(problem.subopt(avg))
    S = np.stack(sub, 1)
    return Run(cps, S, np.full_like(S, np.nan), S)


# --- bounds ------------------------------------------------------------------------------

def thm4_gsq(t: int, T: int, k: float, rho: float, problem, lam: float = LAMBDA_L2) -> float:
    """Theorem 4, second part: E||g_t + gamma_t||^2 <= 3 t^(2k) (G^2 + 4(k+1)^2/lambda
    ((sigma_G + D sigma_H)^2 / t + 2 V (G + DH)^2 log2(2T)^2 / (rho^2 t^2))), V = d."""
    p = problem
    priv = 2 * p.d * (p.G + p.D * p.H) ** 2 * math.log2(2 * T) ** 2 / (rho**2 * t**2) if math.isfinite(rho) else 0.0
    return 3 * t ** (2 * k) * (p.G**2 + 4 * (k + 1) ** 2 / lam * ((p.sigma_G + p.D * p.sigma_H) ** 2 / t + priv))


def bound_thm4(regret: np.ndarray, T: int, k: float, rho: float, problem, lam: float = LAMBDA_L2) -> np.ndarray:
    """Theorem 4: E[L(x_T) - L(x*)] <= (k+1) E[Regret_T(x*)] / T^(k+1) + 2 (k+1)^2 D / sqrt(lambda)
    ((sigma_G + D sigma_H) / sqrt(T) + sqrt(2V) (G + DH) log2(2T) / (rho T)), V = d.
    ``regret``: per-replicate measured Regret_T(x*) (its mean is E Regret)."""
    p = problem
    priv = math.sqrt(2 * p.d) * (p.G + p.D * p.H) * math.log2(2 * T) / (rho * T) if math.isfinite(rho) else 0.0
    return (k + 1) * np.asarray(regret) / T ** (k + 1) + 2 * (k + 1) ** 2 * p.D / math.sqrt(lam) * (
        (p.sigma_G + p.D * p.sigma_H) / math.sqrt(T) + priv)


def bound_thm8(regret: np.ndarray, T: int, k: float, rho: float, problem, lam: float = LAMBDA_L2) -> np.ndarray:
    """Theorem 8: E[L(x_T) - L(x*)] <= (k+1) E[Regret-bar_T(x*)] / T^(k+1) + 16 (k+1)^3 / (lambda mu)
    ((sigma_G + D sigma_H)^2 / T + 2 V (G + DH)^2 log2(2T)^2 / (rho^2 T^2))."""
    p = problem
    priv = 2 * p.d * (p.G + p.D * p.H) ** 2 * math.log2(2 * T) ** 2 / (rho**2 * T**2) if math.isfinite(rho) else 0.0
    return (k + 1) * np.asarray(regret) / T ** (k + 1) + 16 * (k + 1) ** 3 / (lam * p.mu) * (
        (p.sigma_G + p.D * p.sigma_H) ** 2 / T + priv)


def thm8_gbar_sq(t: int, T: int, k: float, rho: float, problem, lam: float = LAMBDA_L2) -> float:
    """Theorem 8, second part: E||gbar_t||^2 <= t^(2k) (4G^2 + mu^2 D^2 + 16(k+1)^2/lambda
    ((sigma_G + D sigma_H)^2 / t + 2V (G + DH)^2 log2(2T)^2 / (rho^2 t^2)))."""
    p = problem
    priv = 2 * p.d * (p.G + p.D * p.H) ** 2 * math.log2(2 * T) ** 2 / (rho**2 * t**2) if math.isfinite(rho) else 0.0
    return t ** (2 * k) * (4 * p.G**2 + p.mu**2 * p.D**2 + 16 * (k + 1) ** 2 / lam * (
        (p.sigma_G + p.D * p.sigma_H) ** 2 / t + priv))


def osd_regret_bound_thm8(T: int, k: float, rho: float, problem) -> float:
    """Remark 9's OSD on the beta_t mu/2-strongly convex losses of Lemma 7:
    E Regret-bar_T <= sum_t E||gbar_t||^2 / (2 sum_{i<=t} mu_i), mu_i = i^k mu / 2."""
    acc, out = 0.0, 0.0
    for t in range(1, T + 1):
        acc += t**k * problem.mu / 2
        out += thm8_gbar_sq(t, T, k, rho, problem) / (2 * acc)
    return out


def bound_thm11(regret_bar: np.ndarray, T: int, rho: float, problem, pf: dict) -> np.ndarray:
    """Theorem 11 (holds with probability >= 1 - delta): L(x_T) - L(x*) <= 4 Regret-bar_T(x*) / T^4
    + 8 A ||x*|| (G + 28 ||x*|| H) Phi / sqrt(T) + 8 A' ||x*|| (G + DH) Phi log2(2T) / (rho T)."""
    p = problem
    xs = float(np.linalg.norm(p.x_star))
    priv = 8 * pf["A1"] * xs * (p.G + p.D * p.H) * pf["Phi"] * math.log2(2 * T) / (rho * T) if math.isfinite(rho) else 0.0
    return 4 * np.asarray(regret_bar) / T**4 + 8 * pf["A"] * xs * (p.G + 28 * xs * p.H) * pf["Phi"] / math.sqrt(T) + priv
