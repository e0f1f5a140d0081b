"""Audit specs of the learners' own noise paths that the other spec modules do not reach (see
:mod:`dpregret.claims.privacy`): Zhang-Tran-Cutkosky's one-pass DP-SGD baseline
(``papers.ztc22.dpsgd.run_dpsgd``, its own ``s = 2G / rho``); Agarwal-Singh's FTRL on the sphere and
the cube and FTPL's Gaussian tree (Corollary 3.2 items 2-3, Theorem 3.5) sit in their paper's folder
(:mod:`dpregret.papers.as17.audit`).

Each draws through the code the scenarios run -- the noise scale computed by the scenario's own
``noise_scales`` (resp. by ``run_dpsgd`` itself), the noise drawn by ``TreeSum`` / ``scaled_draws``
(resp. ``run_dpsgd``'s ``draw_normal``) from the scenarios' sampler (:class:`.SampleStreams`) --
and scores the outputs under the *claimed* noise, the paper's formula written out here, not read
from the code under audit.  Too little noise is a privacy violation these audits see (a lower
bound above the claim); too much noise is not, so the DP-SGD audit also checks the realised noise
scale against its formula both ways (:func:`scale_check`: a confidence interval for the mean of a
statistic of the noise, computed from the learner's draws; the formula's value outside it is a
FAIL, confirmed on a fresh sample as every statistical check of :func:`.privacy_audit.run_audit`),
as does the l2 randomiser's audit (:mod:`.privacy_mechanisms`).  Each scale check records its own
controls (the learner at twice and at half the formula's noise), which it must reject.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special

from .privacy_audit import CHECK_SAMPLES, ZTC, AuditSpec, chunks, privacy_claim, SampleStreams


# --- the realised noise scale against its formula -------------------------------------------
def scale_check(stat: np.ndarray, want: float, alpha: float, what: str) -> tuple[str | None, dict]:
    """Is ``want`` (the formula's value of E[stat]) inside the two-sided (1 - alpha) normal
    confidence interval of the mean of ``stat`` (i.i.d. draws, n >= 1e4: the CLT)?  Over- and
    under-noising by a factor both move E[stat] away from ``want``."""
    stat = np.asarray(stat, dtype=float).ravel()
    n = stat.size
    m, se = float(stat.mean()), float(stat.std(ddof=1) / math.sqrt(n))
    z = float(special.ndtri(1 - alpha / 2))
    lo, hi = m - z * se, m + z * se
    info = {"statistic": what, "formula": float(want), "estimate": m, "ci": [lo, hi], "ratio": m / want,
            "samples": int(n), "false_alarm_level": alpha,
            # as the independence checks report it: |z| of the formula against the estimate, and the critical |z|
            "max_abs_z": abs(m - want) / se if se > 0 else float("inf"), "threshold": z}
    if not lo <= want <= hi:
        return (f"the realised noise disagrees with its formula: {what} = {m:.5g} [{lo:.5g}, {hi:.5g}], "
                f"formula {want:.5g} (ratio {m / want:.4g})"), info
    return None, info


def with_controls(check, n, alpha, rng, factors=(2.0, 0.5)):
    """``check(factor, n, alpha, rng)`` on the correct code (factor 1) and on its controls (the
    noise scaled by each factor), which the check must reject: recorded in the info."""
    err, info = check(1.0, n, alpha, rng)
    info["controls"] = {}
    for f in factors:
        e, i = check(f, n, alpha, rng)
        info["controls"][f"noise x {f:g}"] = {"rejected": e is not None, "ratio": i["ratio"], "ci": i["ci"]}
    info["controls_caught"] = all(c["rejected"] for c in info["controls"].values())
    return err, info


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
    from ..papers.ztc22.dpsgd import run_dpsgd

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
                                   f"one-pass DP-SGD with N(0, s^2 I), s = 2G/rho, on each clipped gradient is rho-GDP on its "
                                   f"iterates (rho = {rho:g}, T = {T}, d = {d}, G = {G:g}, the record at every step that moves "
                                   f"an iterate); its realised noise scale eta s equals the formula's (too much noise fails too)",
                                   controls, "half_noise"),
                     rho, 0.0, draw, "half_noise", controls, gaussian_mu=rho, rdp=lambda al: al * rho**2 / 2,
                     gdp_only=True, stat_check=stat)
