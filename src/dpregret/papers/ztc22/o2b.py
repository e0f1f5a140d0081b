"""Zhang, Tran, Cutkosky (NeurIPS 2022), Algorithm 1 (Sec. 2): differentially private online-to-batch,
with its refinements (section 3 optimistic, section 4 strongly convex, section 5
parameter-free) and its control conversions.  Its bounds are in
:mod:`dpregret.papers.ztc22.bounds`, the one-pass DP-SGD baseline in
:mod:`dpregret.papers.ztc22.dpsgd`, the privacy audit's transcript density in
:mod:`dpregret.papers.ztc22.audit`.

:func:`run` executes Algorithm 1 line by line, vectorised over replicates: ``beta_t = t^k``,
``x_t`` the beta-weighted average of the learner's ``w_t``, ``delta_t = beta_t grad l(x_t, z_t)
- beta_{t-1} grad l(x_{t-1}, z_t)`` (the same sample at both points), ``g_t = g_{t-1} +
delta_t``, ``gamma_t = NOISE(t)`` (:class:`dpregret.core.tree.TreeNoise`) with ``sigma_t`` of
eq. (6) and ``D = N(0, I)`` (V = d), and the learner sees ``<g_t + gamma_t, w>``.  Work per
step is O(d log T) (the tree touches at most log2(T)+1 stored draws, amortised O(1)).

Conversions (``conversion=``): ``"tree"`` (Algorithm 1), ``"none"`` (non-private anytime
online-to-batch, the same learner without noise), ``"naive"`` (anytime online-to-batch on
``beta_t grad l(x_t, z_t)`` plus Gaussian noise calibrated to its own sensitivity
``2 beta_t G``: each record enters one gradient, so sigma_t = 2 beta_t G / rho gives the same
(alpha, alpha rho^2/2)-RDP), ``"fresh"`` (a near-miss control: Algorithm 1 with a fresh sample
``z'_t`` at the second point, ``delta_t = beta_t grad l(x_t, z_t) - beta_{t-1} grad l(x_{t-1},
z'_t)``; ``g_t`` is still unbiased for ``beta_t grad L(x_t)`` but its sampling noise no longer
telescopes: it grows as t^(k+1/2) instead of t^(k-1/2)).  Regularised losses: ``reg="sc"``
(Lemma 7, ``+ beta_t mu/4 ||w - x_t||^2``) and ``reg="pf"`` (Theorem 11, ``+ xi_t ||w|| +
nu_t ||w||^2``).

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

from dpregret.core import validate as V
from dpregret.core.rng import ReplicateStreams, draw_normal
from dpregret.core.tree import TreeNoise

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


def pf_params(problem, T: int, rho: float, C: float, delta: float):
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
        check_sensitivity: bool = False, record_released: bool = False, noise_factor: float = 1.0,
        regret: bool = True) -> Run:
    """Algorithm 1 (see module docstring).  ``src`` draws the data and ``noise_src`` the
    privacy noise (ReplicateStreams or Generators): separate streams, so runs with the same
    data key share their data whatever their noise (common random numbers across
    conversions and learners).  ``noise_factor`` multiplies every sigma_t (1 = the paper;
    other values are mis-calibrated negative controls).  ``regret=False``: the caller reads no regret, and the
    compiled path of the minimax family skips its arithmetic (``Run.regret`` NaN there; every other number the
    same); the per-step loop computes it anyway."""
    T, k, rho, cps = _checked_args(T, k, rho, checkpoints, conversion, sensitivity, reg)
    if linear_fast_path(problem, learner, conversion, reg, check_sensitivity, record_released, src, noise_src):
        return _run_linear_ogd(problem, learner, T, k, rho, src, noise_src, cps, conversion, sensitivity, noise_factor,
                               regret)
    if linear_pf_fast_path(problem, learner, conversion, reg, check_sensitivity, record_released, src, noise_src):
        return _run_linear_pf(problem, learner, T, k, rho, src, noise_src, cps, sensitivity, noise_factor, pf)
    # the plain per-step loop (every case the compiled fast paths do not take); the mutants of papers/ztc22/mutants.py
    # edit its lines here
    R, d = learner.predict().shape
    G, H = problem.G, problem.H
    x = np.zeros((R, d))
    g = np.zeros((R, d))
    bsum = 0.0
    maxdist = np.zeros(R)
    noise_src, tree = _tree_for(noise_src, conversion, T, R, d)
    sample = sampler(problem, src, R, T + (T - 1 if conversion == "fresh" else 0))
    ratio = np.zeros(R) if check_sensitivity else None
    xs = problem.x_star
    tot = _Totals.zeros(R, d)
    cp_set = set(cps)
    for t in range(1, T + 1):
        w = learner.predict()
        b_t, b_prev = float(t) ** k, float(t - 1) ** k
        x_prev = x
        bsum_prev, bsum = bsum, bsum + b_t
        x = (bsum_prev * x_prev + b_t * w) / bsum
        z = sample()
        gx = problem.grad(x, z)
        if conversion == "naive":
            delta = b_t * gx
            g = delta  # the plain conversion's t-th loss vector
        elif conversion == "fresh":
            delta = b_t * gx - (b_prev * problem.grad(x_prev, sample()) if t > 1 else 0.0)
            g = g + delta
        else:
            delta = b_t * gx - (b_prev * problem.grad(x_prev, z) if t > 1 else 0.0)
            g = g + delta
        step = w - x_prev  # ||w_t - x_{t-1}||: np.linalg.norm(axis=-1)'s own arithmetic, without its dispatch
        maxdist = np.maximum(maxdist, np.sqrt(np.add.reduce(step * step, axis=-1)))
        if conversion in ("tree", "fresh"):
            Delta = sensitivity_variant(sensitivity, t, k, G, H, maxdist)
            noise = tree.step(noise_factor * Delta * math.sqrt(math.log2(2 * T)) / rho)
        elif conversion == "naive":
            Delta = 2.0 * b_t * G
            noise = (noise_factor * Delta / rho) * draw_normal(
                noise_src, (d,) if isinstance(noise_src, (ReplicateStreams, BlockedNormal)) else (R, d))
        else:
            Delta, noise = None, 0.0
        if check_sensitivity and Delta is not None:
            worst = _worst_neighbour(problem, z, x, x_prev, delta, b_t, b_prev, t, conversion, R)
            ratio = np.maximum(ratio, worst / np.maximum(Delta, 1e-300))
        ghat = g + noise
        tot.add_release(ghat)
        if reg == "sc":
            full = ghat + b_t * problem.mu / 2 * (w - x)
            tot.regret += np.sum(ghat * (w - xs), axis=-1) + b_t * problem.mu / 4 * (
                np.sum((w - x) ** 2, axis=-1) - np.sum((xs - x) ** 2, axis=-1))
        elif reg == "pf":
            full = tot.pf_loss_vector(ghat, w, xs, t, pf, getattr(learner, "reg_centre", None))
        else:
            full = ghat
            tot.regret += np.add.reduce(ghat * (w - xs), axis=-1)
        learner.update(full)
        tot.add_update(full, w, ghat if record_released else None)
        if t in cp_set:
            tot.checkpoint(problem.subopt(x), problem.subopt(w))
    return tot.result(cps, ratio, problem, reg, record_released)


def _checked_args(T, k, rho, checkpoints, conversion: str, sensitivity: str, reg: str | None):
    """:func:`run`'s arguments checked: ``(T, k, rho, the sorted checkpoints in [1, T])``."""
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
    return T, k, rho, cps


@dataclass
class _Totals:
    """The running sums of :func:`run`'s per-step loop (per replicate) and its records at the checkpoints."""

    regret: np.ndarray
    lsum: np.ndarray  # sum of the learner's loss vectors (for the regret against the best point of W)
    wsum_dot: np.ndarray
    loss_sq: np.ndarray  # sum_t ||ghat_t||^2 (the same with hint 0)
    hint_err: np.ndarray  # sum_t ||ghat_t - ghat_{t-1}||^2: Theorem 6's proof quantity (hint ghat_{t-1}, ghat_0 = 0)
    ghat_prev: np.ndarray
    gbar_ratio: np.ndarray  # reg = "pf": max_t ||gbar_t|| / (Theorem 11's bound on it)
    gbar_ctl: dict = field(default_factory=dict)
    released: list = field(default_factory=list)
    sub: list = field(default_factory=list)
    sub_w: list = field(default_factory=list)
    reg_c: list = field(default_factory=list)

    @classmethod
    def zeros(cls, R: int, d: int) -> _Totals:
        return cls(regret=np.zeros(R), lsum=np.zeros((R, d)), wsum_dot=np.zeros(R), loss_sq=np.zeros(R),
                   hint_err=np.zeros(R), ghat_prev=np.zeros((R, d)), gbar_ratio=np.zeros(R))

    def add_release(self, ghat) -> None:
        """Step t's released loss vector ``ghat`` into the hint sums."""
        dh = ghat - self.ghat_prev
        self.hint_err += np.add.reduce(dh * dh, axis=-1)
        self.loss_sq += np.add.reduce(ghat * ghat, axis=-1)
        self.ghat_prev = ghat

    def pf_loss_vector(self, ghat, w, xs, t: int, pf: dict, x0=None):
        """``reg="pf"``: the learner's loss vector ``ghat + xi_t u + 2 nu_t w`` (Theorem 11), adding step t's
        regret and ||gbar_t|| against the bound on it (and against the controls' bounds).  ``x0``: the regulariser's
        centre (Section 5's shifted coordinates: the learner's start; the regulariser in ``w - x0``, ``||x* - x0||``
        in the regret)."""
        xi, nu = pf["xi"](t), pf["nu"](t)
        wr, xr = (w, xs) if x0 is None else (w - x0, xs - x0)
        wn = np.linalg.norm(wr, axis=-1, keepdims=True)
        full = ghat + xi * np.where(wn > 0, wr / np.maximum(wn, 1e-300), 0.0) + 2 * nu * wr
        xsn = np.linalg.norm(xr, axis=-1)  # ||x* - x0|| (per row for a family)
        self.regret += np.sum(ghat * (w - xs), axis=-1) + xi * (wn[:, 0] - xsn) + nu * (wn[:, 0] ** 2 - xsn**2)
        gn = np.linalg.norm(full, axis=-1)
        self.gbar_ratio = np.maximum(self.gbar_ratio, gn / pf["ghat"](t))
        for name, fn in pf.get("ghat_controls", {}).items():  # the same ||gbar_t|| against other bounds
            self.gbar_ctl[name] = np.maximum(self.gbar_ctl.get(name, 0.0), gn / fn(t))
        return full

    def add_update(self, full, w, released) -> None:
        """The loss vector ``full`` the learner was fed at its point ``w`` (and ``released``, if recorded)."""
        self.lsum = self.lsum + full
        self.wsum_dot += np.add.reduce(full * w, axis=-1)
        if released is not None:
            self.released.append(released)

    def checkpoint(self, subopt, subopt_w) -> None:
        self.sub.append(subopt)
        self.sub_w.append(subopt_w)
        self.reg_c.append(self.regret.copy())

    def result(self, cps, ratio, problem, reg: str | None, record_released: bool) -> Run:
        extra = {"released": np.stack(self.released, 1)} if record_released else {}
        if reg is None:  # linear losses: the regret against the best fixed point of the ball W
            extra["regret_max"] = self.wsum_dot + problem.r * np.linalg.norm(self.lsum, axis=-1)
            extra["hint_err_sq"], extra["loss_sq"] = self.hint_err, self.loss_sq
        if reg == "pf":
            extra["gbar_ratio"] = self.gbar_ratio
            extra.update({f"gbar_ratio_{k}": v for k, v in self.gbar_ctl.items()})
        return Run(cps, np.stack(self.sub, 1), np.stack(self.reg_c, 1), np.stack(self.sub_w, 1), ratio, extra)


def _tree_for(noise_src, conversion: str, T: int, R: int, d: int):
    """``(noise source, Algorithm 1's tree or None)``: a ReplicateStreams source served in blocks of the same N(0, 1)
    draws; the tree for the conversions that add its noise."""
    if isinstance(noise_src, ReplicateStreams) and conversion != "none":  # the same N(0, 1) draws, in blocks
        noise_src = BlockedNormal(noise_src, d, max(1, min(T, 1_000_000 // (R * d))), limit=T)
    tree = TreeNoise(T, d,
                     lambda kk: draw_normal(noise_src,
                                            (kk, d) if isinstance(noise_src, (ReplicateStreams, BlockedNormal))
                                            else (R, kk, d)), R) if conversion in ("tree", "fresh") else None
    return noise_src, tree


def _worst_neighbour(problem, z, x, x_prev, delta, b_t: float, b_prev: float, t: int, conversion: str, R: int):
    """max over the problem's replacement samples z' of ``||delta_t - delta'_t||`` (Theorem 3's sensitivity)."""
    worst = np.zeros(R)
    for zp in problem.neighbours(z, x, x_prev):
        if conversion == "naive":
            dp = b_t * problem.grad(x, zp)
        else:
            dp = b_t * problem.grad(x, zp) - (b_prev * problem.grad(x_prev, zp) if t > 1 else 0.0)
        worst = np.maximum(worst, np.linalg.norm(delta - dp, axis=-1))
    return worst


def sampler(problem, src, R: int, limit: int):
    """``problem.sample(src, R)`` as a function of no argument: for a :class:`LinearFamily` or a :class:`Location`
    on a ReplicateStreams, served from blocks of samples (speed only): a sample is the elementwise
    ``c + s (signs) / sqrt(d)`` (``m + s (signs) / sqrt(d)``) of the stream's next d uniforms, which the stream
    serves in order whatever the block, so every call returns the numbers (and layout) ``sample`` would; at most
    ``limit`` samples are drawn from the stream (further calls draw one at a time)."""
    from dpregret.core.environments.stochastic import LinearFamily, Location

    if type(problem) not in (LinearFamily, Location) or not isinstance(src, ReplicateStreams):
        return lambda: problem.sample(src, R)
    state = {"buf": None, "pos": 0, "left": int(limit)}
    block = max(1, min(limit, 1_000_000 // (R * problem.d)))

    def sample():
        buf, pos = state["buf"], state["pos"]
        if buf is None or pos == buf.shape[0]:
            k = max(1, min(block, state["left"]))
            state["left"] -= k
            u = src.uniform((k, problem.d))  # (R, k, d); a TiledStreams tiles its replicates' draws
            signs = np.where(u < 0.5, -1.0, 1.0)
            if type(problem) is Location:  # Location.sample: m + s xi / sqrt(d)
                z = problem.m + problem.s * signs / math.sqrt(problem.d)
            else:
                z = problem.c[:, None] + problem.s_rows[:, None] * signs / math.sqrt(problem.d)
            buf, pos = np.ascontiguousarray(z.transpose(1, 0, 2)), 0
            state["buf"] = buf
        state["pos"] = pos + 1
        return (buf[pos],)
    return sample


class BlockedNormal:
    """A ReplicateStreams' standard normal draws ``normal((k, d))`` / ``normal((d,))`` served
    from blocks of ``block`` rows (speed only): ``normal`` is the inverse CDF of the stream's
    uniforms, elementwise, and the stream serves its uniforms in order whatever the block, so
    every call returns the numbers the stream itself would (``tests/papers/ztc22/test_ztc22_jit.py``).  At most
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


def linear_fast_path(problem, learner, conversion, reg, check_sensitivity, record_released, src, noise_src) -> bool:
    """Whether :func:`run` may use the compiled loop of :mod:`dpregret.papers.ztc22.o2b_jit` (speed
    only, the same numbers): linear losses of the minimax family (H = 0: sigma_t of eq. (6) does not depend on
    the iterates), Remark 5's OGD, streams."""
    from dpregret.core.environments.stochastic import LinearFamily
    from dpregret.core.learners.oco import ProjectedOGD

    return (type(problem) is LinearFamily and problem.H == 0 and type(learner) is ProjectedOGD
            and conversion in ("tree", "none", "naive") and reg is None and not check_sensitivity
            and not record_released and isinstance(src, ReplicateStreams)
            and (conversion == "none" or isinstance(noise_src, ReplicateStreams)) and learner.t == 0)


def _base_uniform(src, shape):
    """The stream replicates' own uniforms (a TiledStreams serves them tiled m times)."""
    return ReplicateStreams.uniform(src, shape)


def _stream_id(src):
    """A ReplicateStreams' identity: root seed and stable key of each replicate's generator (its SeedSequence),
    so two stream objects with the same id serve the same numbers from their start."""
    return tuple((g.bit_generator.seed_seq.entropy, tuple(g.bit_generator.seed_seq.spawn_key)) for g in src._gens)


class _LinearOGD:
    """The state of :func:`run` on :class:`LinearFamily` with :class:`ProjectedOGD` (tree, naive or no noise),
    advanced in blocks of steps through :func:`dpregret.papers.ztc22.o2b_jit.linear_ogd_block`: the same draws
    and the same arithmetic in the same order as the loop of :func:`run` (``tests/papers/ztc22/test_ztc22_jit.py``).
    The inverse normal CDF is taken before a TiledStreams' tiling (elementwise: the same numbers, m times fewer)."""

    def __init__(self, problem, learner, T, k, rho, src, noise_src, cps, conversion, sensitivity, noise_factor,
                 want_regret):
        from dpregret.core.environments.stochastic import TiledStreams

        R, d = learner.predict().shape
        for s in (src,) + ((noise_src,) if conversion != "none" else ()):
            if (s.m if isinstance(s, TiledStreams) else 1) * s.R != R:
                raise ValueError(f"stream replicates x tiling must equal the learner's rows {R}")
        self.problem, self.learner, self.T, self.cps = problem, learner, T, cps
        self.src, self.noise_src = src, noise_src
        self.noisy, self.naive, self.want_regret = conversion != "none", conversion == "naive", bool(want_regret)
        self.scalars = _linear_ogd_scalars(problem, learner, T, k, rho, conversion, sensitivity, noise_factor)
        self.x, self.g, self.wpre = np.zeros((R, d)), np.zeros((R, d)), np.zeros((R, d))
        self.w = np.array(learner.w, dtype=float, copy=True)
        self.regret = np.zeros(R)
        self.tree = np.zeros((T.bit_length(), src.R, d))  # one tree per stream replicate: its rows share the noise
        self.xs = np.ascontiguousarray(np.broadcast_to(problem.x_star, (R, d)), dtype=float)
        self.c = np.ascontiguousarray(np.broadcast_to(problem.c, (R, d)), dtype=float)
        self.s_rows = np.ascontiguousarray(np.broadcast_to(problem.s_rows, (R, 1))[:, 0], dtype=float)
        self.sub, self.reg_c, self.sub_w = [], [], []
        self.gam = None

    def advance(self, t0: int, u: np.ndarray, nz: np.ndarray | None) -> None:
        """Steps t0 + 1 .. t0 + B on the block's uniforms u (Rb, B, d) and N(0, 1) draws nz (None: no noise)."""
        from dpregret.papers.ztc22.o2b_jit import linear_ogd_block

        B, d = u.shape[1], u.shape[2]
        if self.gam is None or self.gam.shape[0] < B:
            self.gam = np.empty((B, d))
        if nz is None:
            nz = np.empty((u.shape[0], 0, d))
        linear_ogd_block(t0, u, nz, self.c, self.s_rows, math.sqrt(self.problem.d), self.tree, self.x, self.g, self.w,
                         self.wpre, self.regret, self.xs, *self.scalars, float(self.learner.r), self.naive, self.gam,
                         self.want_regret)

    def checkpoint(self) -> None:
        self.sub.append(self.problem.subopt(self.x))
        self.sub_w.append(self.problem.subopt(self.wpre.copy()))
        self.reg_c.append(self.regret.copy() if self.want_regret else np.full(self.x.shape[0], np.nan))

    def result(self) -> Run:
        self.learner.w = self.w
        return Run(self.cps, np.stack(self.sub, 1), np.stack(self.reg_c, 1), np.stack(self.sub_w, 1), None, {})


def _linear_ogd_scalars(problem, learner, T, k, rho, conversion, sensitivity, noise_factor):
    """The per-step scalars of :class:`_LinearOGD`, computed as run() and the learner compute them (the learner's
    step count and sum of Ghat_t^2 advanced to T): beta_t, beta_{t-1}, beta_{1:t-1}, beta_{1:t}, OGD's eta_t and the
    noise's scale (H = 0: ||w_i - x_{i-1}|| never enters sigma_t of eq. (6))."""
    G, H = problem.G, problem.H
    b_t, b_prev, bs0, bs1, eta, sig = (np.empty(T) for _ in range(6))
    Gs = {"eq6": G, "half": G / 2, "G_only": G, "H_only": 0.0}[sensitivity]
    Hs = {"eq6": H, "half": H / 2, "G_only": 0.0, "H_only": H}[sensitivity]
    sq = math.sqrt(math.log2(2 * T))
    bsum = 0.0
    for t in range(1, T + 1):
        b_t[t - 1], b_prev[t - 1] = float(t) ** k, float(t - 1) ** k
        bs0[t - 1], bsum = bsum, bsum + float(t) ** k
        bs1[t - 1] = bsum
        learner.t += 1
        learner._acc += learner.ghat_sq(learner.t)
        eta[t - 1] = 2 * learner.r / math.sqrt(learner._acc)
        if conversion == "naive":
            sig[t - 1] = (noise_factor * ((2.0 * b_t[t - 1]) * G)) / rho
        else:  # noise_factor Delta_t sqrt(log2(2T)) / rho, Delta_t of eq. (6) (2 (k+1) t^(k-1) its factor)
            sig[t - 1] = ((noise_factor * (sensitivity_eq6(t, k, 1.0, 0.0, 0.0) * (Gs + Hs * 0.0))) * sq) / rho
    return b_t, b_prev, bs0, bs1, eta, sig


def _blocks(T: int, cps: list, block: int):
    """``(t0, B, checkpoint after?)``: the blocks of steps of a compiled run, ending at every checkpoint."""
    t0 = 0
    for stop in cps + ([T] if cps[-1] < T else []):
        while t0 < stop:
            B = min(block, stop - t0)
            yield t0, B, t0 + B == stop and stop in cps
            t0 += B


def _run_linear_ogd(problem, learner, T, k, rho, src, noise_src, cps, conversion, sensitivity, noise_factor,
                    want_regret=True) -> Run:
    """:func:`run` on :class:`LinearFamily` with :class:`ProjectedOGD` through :class:`_LinearOGD`."""
    from scipy import special

    st = _LinearOGD(problem, learner, T, k, rho, src, noise_src, cps, conversion, sensitivity, noise_factor,
                    want_regret)
    d = st.x.shape[1]
    for t0, B, cp in _blocks(T, cps, max(1, 2_000_000 // (src.R * d))):
        u = _base_uniform(src, (B, d))  # B steps of problem.sample: d uniforms each
        st.advance(t0, u, special.ndtri(_base_uniform(noise_src, (B, d))) if st.noisy else None)
        if cp:
            st.checkpoint()
    return st.result()


def run_shared(calls: list[dict]) -> list[Run]:
    """``[run(**kw) for kw in calls]``, the same numbers, with the draws shared: the calls on the compiled paths of
    the minimax family (:func:`linear_fast_path`, :func:`linear_pf_fast_path`) with the same T, checkpoints and d
    advance in lockstep, block by block, and each block of a stream's uniforms (and their N(0, 1) transform) is
    drawn once for every call on that stream (same root seed and key, :func:`_stream_id`; a call on the first n of
    its replicates reads the block's first n rows: each replicate has its own stream).  Those calls' stream objects
    are left unread (but the one each block is drawn from).  Every other call runs on its own, first, in order."""
    out, groups = [None] * len(calls), {}
    for i, kw in enumerate(calls):
        st = _shared_state(kw)
        if st is None:
            out[i] = run(**kw)
        else:
            groups.setdefault((st.T, tuple(st.cps), st.x.shape[1]), []).append((i, st))
    for (T, cps, d), members in groups.items():
        for i, res in zip([i for i, _ in members], _run_lockstep([st for _, st in members], T, list(cps), d)):
            out[i] = res
    return out


def _shared_state(kw: dict):
    """The :class:`_LinearOGD` (or :class:`_LinearPF`) of one :func:`run_shared` call, or None if it is not on a
    compiled path."""
    kw = dict(kw)
    problem, learner, T = kw.pop("problem"), kw.pop("learner"), kw.pop("T")
    conversion, reg = kw.get("conversion", "tree"), kw.get("reg")
    sensitivity = kw.get("sensitivity", "eq6")
    src, noise_src = kw["src"], kw["noise_src"]
    flags = (kw.get("check_sensitivity", False), kw.get("record_released", False), src, noise_src)
    ogd = linear_fast_path(problem, learner, conversion, reg, *flags)
    if not (ogd or linear_pf_fast_path(problem, learner, conversion, reg, *flags)):
        return None
    T, k, rho, cps = _checked_args(T, kw["k"], kw["rho"], kw["checkpoints"], conversion, sensitivity, reg)
    if not ogd:
        return _LinearPF(problem, learner, T, k, rho, src, noise_src, cps, sensitivity, kw.get("noise_factor", 1.0),
                         kw.get("pf"))
    return _LinearOGD(problem, learner, T, k, rho, src, noise_src, cps, conversion, sensitivity,
                      kw.get("noise_factor", 1.0), kw.get("regret", True))


def _run_lockstep(states: list, T: int, cps: list, d: int) -> list[Run]:
    """:func:`run_shared`'s lockstep: per block, each stream's draws are drawn once, from the stream object with the
    most replicates among those whose ids begin with its id (uniforms for the data, their N(0, 1) transform for
    the noise)."""
    from scipy import special

    uses = [[("u", _stream_id(st.src), st.src)]
            + ([("nz", _stream_id(st.noise_src), st.noise_src)] if st.noisy else []) for st in states]
    bases: dict = {}  # (kind, stream id) -> the stream object its blocks are drawn from
    for kind, sid, s in sorted((x for us in uses for x in us), key=lambda x: -len(x[1])):
        if not any(k == kind and b[:len(sid)] == sid for k, b in bases):
            bases[(kind, sid)] = s
    plan = [[(next((k, b) for k, b in bases if k == kind and b[:len(sid)] == sid), s.R) for kind, sid, s in us]
            for us in uses]
    block = max(1, 2_000_000 // (max(s.R for s in bases.values()) * d))
    for t0, B, cp in _blocks(T, cps, block):
        draws = {}
        for (kind, sid), s in bases.items():
            u = _base_uniform(s, (B, d))  # B steps: d uniforms each
            draws[(kind, sid)] = special.ndtri(u) if kind == "nz" else u
        for st, p in zip(states, plan):
            st.advance(t0, draws[p[0][0]][:p[0][1]], draws[p[1][0]][:p[1][1]] if len(p) > 1 else None)
            if cp:
                st.checkpoint()
    return [st.result() for st in states]


def linear_pf_fast_path(problem, learner, conversion, reg, check_sensitivity, record_released, src, noise_src) -> bool:
    """Whether :func:`run` may use :func:`dpregret.papers.ztc22.o2b_jit.linear_pf_block` (speed only,
    the same numbers): Theorem 11's regularised losses around the parameter-free learner on a
    :class:`LinearFamily`, Algorithm 1's tree noise, streams, a fresh learner."""
    from dpregret.core.environments.stochastic import LinearFamily
    from dpregret.core.learners.oco import ParameterFree

    return (type(problem) is LinearFamily and type(learner) is ParameterFree and conversion == "tree" and reg == "pf"
            and not check_sensitivity and not record_released and isinstance(src, ReplicateStreams)
            and isinstance(noise_src, ReplicateStreams) and learner.t == 0)


class _LinearPF:
    """The state of :func:`run` with ``reg="pf"`` on :class:`LinearFamily` around :class:`ParameterFree`, advanced
    in blocks of steps through :func:`dpregret.papers.ztc22.o2b_jit.linear_pf_block`: the same draws and the same
    arithmetic in the same order as the loop of :func:`run` (``tests/papers/ztc22/test_ztc22_jit.py``).  The
    interface of :class:`_LinearOGD` (:func:`run_shared`)."""

    noisy = True

    def __init__(self, problem, learner, T, k, rho, src, noise_src, cps, sensitivity, noise_factor, pf):
        from dpregret.core.environments.stochastic import TiledStreams

        R, d = learner.R, learner.d
        for s in (src, noise_src):
            if (s.m if isinstance(s, TiledStreams) else 1) * s.R != R:
                raise ValueError(f"stream replicates x tiling must equal the learner's rows {R}")
        self.ctl = pf.get("ghat_controls", {})
        if pf["ghat"] is not learner.ghat:
            raise ValueError("the learner's normaliser must be Theorem 11's bound on ||gbar_t|| (pf['ghat'])")
        self.problem, self.learner, self.T, self.cps = problem, learner, T, cps
        self.src, self.noise_src = src, noise_src
        self.scalars = _pf_scalars(T, k, rho, pf, learner.ghat, self.ctl, sensitivity, noise_factor, problem.G,
                                   problem.H)
        self.x, self.g, self.wpre = np.zeros((R, d)), np.zeros((R, d)), np.zeros((R, d))
        self.tree = np.zeros((T.bit_length(), R, d))
        self.regret, self.gbar, self.gbar_ctl = np.zeros(R), np.zeros(R), np.zeros((len(self.ctl), R))
        self.xs = np.ascontiguousarray(np.broadcast_to(problem.x_star, (R, d)), dtype=float)
        self.x0 = np.zeros(d) if learner.x0 is None else np.ascontiguousarray(learner.x0, dtype=float)
        xr = learner.reg_centre
        self.xr = np.zeros(d) if xr is None else np.ascontiguousarray(xr, dtype=float)
        self.xsn = np.ascontiguousarray(np.linalg.norm(self.xs if xr is None else self.xs - self.xr, axis=-1))
        self.c = np.ascontiguousarray(np.broadcast_to(problem.c, (R, d)), dtype=float)
        self.s_rows = np.ascontiguousarray(np.broadcast_to(problem.s_rows, (R, 1))[:, 0], dtype=float)
        self.wealth, self.coin_sum = learner.wealth.astype(float).copy(), learner.coin_sum.astype(float).copy()
        self.zdir, self.w_hat = learner.z.astype(float).copy(), learner.w_hat.astype(float).copy()
        self.dir_acc = np.ascontiguousarray(learner._dir_acc[:, 0], dtype=float)
        self.sub, self.reg_c, self.sub_w = [], [], []

    def advance(self, t0: int, u: np.ndarray, nz: np.ndarray) -> None:
        """Steps t0 + 1 .. t0 + B on the block's uniforms u (Rb, B, d) and N(0, 1) draws nz."""
        from dpregret.papers.ztc22.o2b_jit import linear_pf_block

        b_t, b_prev, bs0, bs1, sig, xi, nu, gh, gh_ctl = self.scalars
        linear_pf_block(t0, u, nz, self.c, self.s_rows, math.sqrt(self.problem.d), self.tree, self.x, self.g,
                        self.regret, self.xs, self.xsn, self.x0, self.xr, b_t, b_prev, bs0, bs1, sig,
                        float(self.learner.r), xi, nu, gh, gh_ctl, self.wealth, self.coin_sum, self.zdir, self.dir_acc,
                        self.w_hat, self.wpre, self.gbar, self.gbar_ctl)

    def checkpoint(self) -> None:
        self.sub.append(self.problem.subopt(self.x))
        self.sub_w.append(self.problem.subopt(self.wpre.copy()))
        self.reg_c.append(self.regret.copy())

    def result(self) -> Run:
        lr = self.learner
        lr.t, lr.wealth, lr.coin_sum, lr.z = self.T, self.wealth, self.coin_sum, self.zdir
        lr._dir_acc, lr.w_hat, lr.w = self.dir_acc[:, None], self.w_hat, self.wpre.copy()
        extra = {"gbar_ratio": self.gbar, **{f"gbar_ratio_{name}": self.gbar_ctl[i] for i, name in enumerate(self.ctl)}}
        return Run(self.cps, np.stack(self.sub, 1), np.stack(self.reg_c, 1), np.stack(self.sub_w, 1), None, extra)


def _run_linear_pf(problem, learner, T, k, rho, src, noise_src, cps, sensitivity, noise_factor, pf) -> Run:
    """:func:`run` with ``reg="pf"`` on :class:`LinearFamily` around :class:`ParameterFree` (:class:`_LinearPF`)."""
    from scipy import special

    st = _LinearPF(problem, learner, T, k, rho, src, noise_src, cps, sensitivity, noise_factor, pf)
    d = learner.d
    for t0, B, cp in _blocks(T, cps, max(1, 2_000_000 // (src.R * d))):
        u = _base_uniform(src, (B, d))
        st.advance(t0, u, special.ndtri(_base_uniform(noise_src, (B, d))))
        if cp:
            st.checkpoint()
    return st.result()


def _pf_scalars(T, k, rho, pf, ghat, ctl, sensitivity, noise_factor, G, H):
    """The per-step scalars of :func:`_run_linear_pf`, computed as run() and the learner compute them: beta_t,
    beta_{t-1}, beta_{1:t-1}, beta_{1:t}, sigma_t of eq. (6) (H = 0: the iterates never enter it), and the values
    at t = 1 .. T of xi_t, nu_t, the learner's normaliser and the controls' bounds on ||gbar_t||.  ``pf["cache"]``
    (optional, the caller's dict; its functions then pure): the values kept for the next run at the same T and k
    (a function by identity), so the runs of one T evaluate each function once."""
    cache = pf.get("cache")
    if cache is not None and cache.get("Tk") != (T, k):
        cache.clear()
        cache["Tk"] = (T, k)

    def values(fn):
        if cache is not None and fn in cache:
            return cache[fn]
        v = np.array([fn(t) for t in range(1, T + 1)], dtype=float)
        if cache is not None:
            cache[fn] = v
        return v
    if cache is not None and "beta" in cache:
        b_t, b_prev, bs0, bs1, c1 = cache["beta"]
    else:
        b_t, b_prev, bs0, bs1, c1 = (np.empty(T) for _ in range(5))
        bsum = 0.0
        for t in range(1, T + 1):
            b_t[t - 1], b_prev[t - 1] = float(t) ** k, float(t - 1) ** k
            bs0[t - 1], bsum = bsum, bsum + float(t) ** k
            bs1[t - 1] = bsum
            c1[t - 1] = sensitivity_eq6(t, k, 1.0, 0.0, 0.0)
        if cache is not None:
            cache["beta"] = (b_t, b_prev, bs0, bs1, c1)
    Gs, Hs = {"eq6": (G, H), "half": (G / 2, H / 2), "G_only": (G, 0.0), "H_only": (0.0, H)}[sensitivity]
    sq = math.sqrt(math.log2(2 * T))
    sig = np.array([((noise_factor * (c * (Gs + Hs * 0.0))) * sq) / rho for c in c1.tolist()], dtype=float)
    gh_ctl = np.empty((len(ctl), T))
    for i, fn in enumerate(ctl.values()):
        gh_ctl[i] = values(fn)
    return b_t, b_prev, bs0, bs1, sig, values(pf["xi"]), values(pf["nu"]), values(ghat), gh_ctl


def sensitivity_variant(sensitivity: str, t: int, k: float, G: float, H: float, maxdist: np.ndarray) -> np.ndarray:
    """Delta_t of eq. (6) under a sensitivity variant: ``eq6`` the paper's, or a control's mistake."""
    if sensitivity == "eq6":
        return sensitivity_eq6(t, k, G, H, maxdist)
    if sensitivity == "half":
        return sensitivity_eq6(t, k, G, H, maxdist) / 2
    if sensitivity == "G_only":
        return sensitivity_eq6(t, k, G, 0.0, maxdist)
    return sensitivity_eq6(t, k, 0.0, H, maxdist)
