"""Audit specs of the single-release mechanisms: the Laplace and Gaussian mechanisms, Van der
Hoeven's local Laplace randomiser (Lemma 4) and Song et al.'s l2 randomiser (see
:mod:`dpregret.verdict.privacy`).  Every noise is drawn by the mechanisms of
:mod:`dpregret.core.mechanisms` through the scenarios' sampler (:class:`.privacy_audit.SampleStreams`,
a :class:`~dpregret.core.rng.ReplicateStreams`).  The Laplace claims score each output by the claimed
log-likelihood ratio and by its (unsaturated) projection on the neighbours' difference
(:func:`.privacy_audit.mean_shift_projection`); their ``gaussian_shape`` control draws Gaussian noise of the
claimed variance, which only the projection's tail events can show."""
from __future__ import annotations

import numpy as np

from dpregret.core import mechanisms as M
from dpregret.verdict.privacy_audit import (AS17, CHECK_SAMPLES, VDH, ZTC, AuditSpec, privacy_claim, one_release,
                                            mean_shift_projection,
                            SampleStreams, scale_check, with_controls)


# --- Laplace mechanism ------------------------------------------------------------------
def laplace_spec(eps: float = 1.0) -> AuditSpec:
    x0, x1 = np.zeros(2), np.full(2, 0.5)  # l1 distance 1, l2 distance 0.707
    scales = {"correct": 1.0 / eps, "half_noise": 0.5 / eps, "wrong_sensitivity": np.sqrt(0.5) / eps,
              "no_noise": 0.0, "gaussian_shape": 1.0 / eps}

    def sample(variant, side, n, rng):
        x, st = (x1 if side else x0), SampleStreams(rng, n)
        if variant == "gaussian_shape":  # N(0, 2 lambda^2): the claimed variance, another shape
            return M.gaussian_mechanism(np.broadcast_to(x, (n, 2)), np.sqrt(2.0) * scales[variant], st)
        return x + (M.laplace_noise(scales[variant], (2,), st) if scales[variant] else np.zeros((n, 2)))

    def score(y, variant):
        return np.stack([M.laplace_logpdf(y - x0, 1 / eps) - M.laplace_logpdf(y - x1, 1 / eps),
                         mean_shift_projection(y, x1, x0)], axis=1)  # D: x0, D': x1

    controls = {"half_noise": "scale Delta_1/(2 eps)", "wrong_sensitivity": "scale from the l2 norm (0.707/eps)",
                "no_noise": "output = input",
                "gaussian_shape": "Gaussian noise of the claimed variance 2 lambda^2 (another shape, same variance)"}
    return AuditSpec(privacy_claim("AUDIT-laplace-mechanism", AS17, "Laplace mechanism (Lap^N(lambda), section 2)",
                                   f"x + Lap(Delta_1/eps)^d is eps-DP (eps = {eps:g}, Delta_1 = 1, d = 2)", controls,
                                   "half_noise"),
                     eps, 0.0, one_release(sample, score), "half_noise", controls, tight_floor=0.9)


# --- Gaussian mechanism -----------------------------------------------------------------
def gaussian_spec(eps: float = 1.0, delta: float = 1e-5) -> AuditSpec:
    a = np.sqrt(0.5)
    x0, x1 = np.zeros(2), np.full(2, a)  # l2 distance 1, l_inf distance 0.707
    sigma = np.sqrt(2 * np.log(1.25 / delta)) / eps
    sig = {"correct": sigma, "half_noise": sigma / 2, "wrong_sensitivity": sigma * a, "no_noise": 0.0}

    def sample(variant, side, n, rng):
        s, x = sig[variant], (x1 if side else x0)
        if not s:
            return np.broadcast_to(x, (n, 2)).copy()
        return M.gaussian_mechanism(np.broadcast_to(x, (n, 2)), s, SampleStreams(rng, n))

    controls = {"half_noise": "sigma / 2", "wrong_sensitivity": "sigma from the l_inf norm (0.707 Delta_2)",
                "no_noise": "output = input"}
    mu = 1 / sigma
    return AuditSpec(privacy_claim("AUDIT-gaussian-mechanism", ZTC, "Gaussian mechanism (Remark 2, Lemma 18)",
                                   f"x + N(0, sigma^2 I), sigma = sqrt(2 ln(1.25/delta)) Delta_2/eps, is (eps, "
                                   f"delta)-DP (eps = {eps:g}, delta = {delta:g}), {mu:.4g}-GDP and (alpha, alpha "
                                   "mu^2/2)-RDP", controls,
                                   "half_noise"),
                     eps, delta, one_release(sample, lambda y, v: M.gaussian_logpdf(y - x0, sigma)
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
        return g + M.local_laplace_randomiser(np.zeros((n, 3)), tau, SampleStreams(rng, n), bound=bound)

    scale = M.local_laplace_scale(tau[:2], 1.0)

    def score(y, variant):
        s = M.laplace_logpdf(y[:, :2] - g0[:2], scale) - M.laplace_logpdf(y[:, :2] - g1[:2], scale)
        # the public coordinate carries no noise and is equal under the claim's D, D': any other
        # value is impossible under D (log-ratio -inf, capped at -1e6)
        return s - 1e6 * (y[:, 2] != g0[2])

    controls = {"half_noise": "scale bound/tau_j (a bound of 1/2 assumed)", "no_noise": "output = input",
                "leak_public": "neighbours differ on the tau = inf coordinate"}
    return AuditSpec(privacy_claim("AUDIT-vdh-lemma4-local-laplace", VDH, "Lemma 4",
                                   "g + Lap(2/tau_j) per coordinate is (sum_j tau_j)-LDP for |g_j| <= 1 "
                                   "(tau = (0.6, 0.4, inf): eps = 1 over the protected coordinates)",
                                   controls, "half_noise"),
                     eps, 0.0, one_release(sample, score), "half_noise", controls, tight_floor=0.9)


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
        return g + M.l2_laplace_randomiser(np.zeros((n, 2)), eps_v.get(variant, eps), SampleStreams(rng, n))

    def score(y, variant):
        a, b = (np.ones(2), -np.ones(2)) if variant == "wrong_sensitivity" else (g0, g1)
        return M.l2_laplace_logpdf(y - a, eps) - M.l2_laplace_logpdf(y - b, eps)

    def check(factor, n, alpha, rng):  # ||z|| ~ Gamma(d, 2 bound / eps): E ||z|| = 2 d bound / eps (bound = 1)
        z = M.l2_laplace_randomiser(np.zeros((min(n, CHECK_SAMPLES), 2)), eps / factor,
                                    SampleStreams(rng, min(n, CHECK_SAMPLES)))
        return scale_check(np.linalg.norm(z, axis=1), 2 * 2 / eps, alpha, "mean noise radius E||z|| = 2 d / eps")

    controls = {"half_noise": "density exp(-eps ||z||)", "wrong_sensitivity": "inputs bounded in l_inf, not l2",
                "no_noise": "output = input"}
    return AuditSpec(privacy_claim("AUDIT-l2-randomiser", VDH, "section 3.2.1 (Song et al. 2015, Thm 1)",
                                   f"g + z, rho(z) ~ exp(-eps/2 ||z||_2), is eps-LDP for ||g||_2 <= 1 (eps = {eps:g}, "
                                   "d = 2); "
                                   "its realised mean noise radius is the density's 2 d / eps (too much noise fails "
                                   "too)",
                                   controls, "half_noise"),
                     eps, 0.0, one_release(sample, score), "half_noise", controls,
                     stat_check=lambda n, alpha, rng: with_controls(check, n, alpha, rng))


