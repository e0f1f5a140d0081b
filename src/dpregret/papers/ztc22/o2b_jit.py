"""Compiled fast path of :func:`dpregret.papers.ztc22.o2b.run` for the minimax family (Zhang, Tran,
Cutkosky 2022, Sec. 2, Remark 5): :class:`~dpregret.core.environments.stochastic.LinearFamily` losses,
:class:`~dpregret.core.learners.oco.ProjectedOGD` (Remark 5's step) and the ``"tree"`` (Algorithm 1),
``"naive"`` or ``"none"`` conversion, without regulariser, sensitivity check or recorded releases
(:func:`linear_ogd_block`); and Theorem 11's regularised losses (Sec. 5) around the parameter-free learner
on the same family (:func:`linear_pf_block`).

Speed only: the same numbers as the reference loop of ``o2b.run``, bit for bit.

- The random numbers are the same uniforms of the same streams, drawn in blocks of steps
  (a :class:`~dpregret.core.rng.ReplicateStreams` serves each replicate's uniforms in order,
  whatever the block), and turned into the same samples and N(0, 1) draws elementwise.
- Every per-step scalar (``beta_t``, ``beta_{1:t}``, OGD's ``eta_t``, eq. (6)'s factor, the
  latter through :func:`dpregret.papers.ztc22.o2b.sensitivity_eq6`) is computed in Python as in
  the reference; the kernel does the per-replicate arithmetic in the reference's order.
- Reductions over the d coordinates (``np.sum(..., axis=-1)``, ``np.linalg.norm(..., axis=-1)``)
  use :func:`~dpregret.core.learners.pairwise_jit.pairwise_sum`, numpy's pairwise summation (8 accumulators, blocks of
  128), so they round as numpy does; TreeNoise's ``gamma_t`` is the sum of the alive nodes in increasing level, as
  ``ndarray.sum(axis=0)`` adds them.
``tests/papers/ztc22/test_ztc22_jit.py`` checks equality with the reference loop.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from dpregret.core.learners.pairwise_jit import pairwise_sum


@njit(cache=True)
def linear_ogd_block(t0, u, nz, c, s_rows, sqrt_d, tree, x, g, w, wpre, regret, xs, b_t, b_prev, bsum_prev,
                     bsum, eta, sig, r, naive, gam, want_regret):
    """Steps ``t0 + 1 .. t0 + B`` of ``o2b.run`` (see the module docstring), in place.

    u: (Rb, B, d) the data stream's uniforms and nz: (Rb, B, d) the noise stream's N(0, 1)
    draws (shape (Rb, 0, d) for the ``"none"`` conversion), of the Rb stream replicates; row
    ``rr`` of the R = m Rb rows (member-major, :class:`TiledStreams`) uses replicate ``rr % Rb``.
    The sample of row rr is ``c[rr] + s_rows[rr] * sign(u - 1/2) / sqrt(d)``
    (:meth:`LinearFamily.sample`), the gradient of its linear loss.  The noise does not depend on the
    row's iterates (H = 0: eq. (6)'s sigma_t is the per-step ``sig``, computed in Python as ``run()`` does),
    so the rows of one replicate share it: tree (L, Rb, d) holds each replicate's stored nodes, and
    gam (B, d) receives one replicate's noise of the block's steps (TreeNoise's gamma_t: the alive nodes
    summed in increasing level, as ``ndarray.sum(axis=0)`` adds them), then read by its m rows.  The
    per-step scalars are indexed by step - 1; wpre receives the w played at the last step.  ``naive``:
    the ``"naive"`` conversion instead (g_t = beta_t grad l(x_t, z_t), plus N(0, 1) draws nz times
    ``sig`` = (factor 2 beta_t G) / rho; no tree).  ``want_regret`` False: the regret is not summed (left as
    it is)."""
    R, d = x.shape
    Rb, B = u.shape[0], u.shape[1]
    noisy = nz.shape[1] > 0
    tmp = np.empty(d)
    acc = np.empty(d)
    for rb in range(Rb):
        if noisy and not naive:  # TreeNoise.step of replicate rb at every step of the block
            for s in range(B):
                t = t0 + s + 1
                j0 = 0
                while ((t >> j0) & 1) == 0:
                    j0 += 1
                sg = sig[t - 1]
                for j in range(d):  # the new node (the levels below it are dead: never read again)
                    tree[j0, rb, j] = sg * nz[rb, s, j]
                    gam[s, j] = tree[j0, rb, j]
                lv = j0 + 1
                while (t >> lv) > 0:
                    if (t >> lv) & 1:
                        for j in range(d):
                            gam[s, j] = gam[s, j] + tree[lv, rb, j]
                    lv += 1
        elif noisy:
            for s in range(B):
                sg = sig[t0 + s]
                for j in range(d):
                    gam[s, j] = sg * nz[rb, s, j]
        for rr in range(rb, R, Rb):
            # the row's sample c + s sign / sqrt(d) is c + sign (s / sqrt(d)) exactly (sign = -1 or +1: the
            # product and the quotient only change sign), the sign computed without a branch (random)
            sq_row = s_rows[rr] / sqrt_d
            for s in range(B):
                t = t0 + s + 1
                i = t - 1
                bt, bp, bs0, bs1 = b_t[i], b_prev[i], bsum_prev[i], bsum[i]
                for j in range(d):
                    x[rr, j] = (bs0 * x[rr, j] + bt * w[rr, j]) / bs1
                # delta = b_t grad(x, z) - b_{t-1} grad(x_prev, z); g = g + delta
                if naive:
                    for j in range(d):
                        zj = c[rr, j] + (2.0 * np.float64(u[rb, s, j] >= 0.5) - 1.0) * sq_row
                        g[rr, j] = bt * zj
                elif t > 1:
                    for j in range(d):
                        zj = c[rr, j] + (2.0 * np.float64(u[rb, s, j] >= 0.5) - 1.0) * sq_row
                        g[rr, j] = g[rr, j] + (bt * zj - bp * zj)
                else:
                    for j in range(d):
                        zj = c[rr, j] + (2.0 * np.float64(u[rb, s, j] >= 0.5) - 1.0) * sq_row
                        g[rr, j] = g[rr, j] + (bt * zj - 0.0)
                # ghat = g + gamma_t; regret += <ghat, w - x*>; OGD on ghat
                if noisy:
                    for j in range(d):
                        tmp[j] = g[rr, j] + gam[s, j]
                else:
                    for j in range(d):
                        tmp[j] = g[rr, j] + 0.0
                if want_regret:
                    for j in range(d):
                        acc[j] = tmp[j] * (w[rr, j] - xs[rr, j])
                    regret[rr] = regret[rr] + pairwise_sum(acc, 0, d)
                e = eta[i]
                for j in range(d):
                    acc[j] = w[rr, j] - e * tmp[j]
                for j in range(d):
                    tmp[j] = acc[j] * acc[j]
                nrm = np.sqrt(pairwise_sum(tmp, 0, d))
                den = nrm if nrm > 1e-300 else 1e-300
                q = r / den
                sc = q if q < 1.0 else 1.0
                if s == B - 1:
                    for j in range(d):
                        wpre[rr, j] = w[rr, j]
                for j in range(d):
                    w[rr, j] = acc[j] * sc


@njit(cache=True)
def linear_pf_block(t0, u, nz, c, s_rows, sqrt_d, tree, x, g, regret, xs, xsn, x0, xr, b_t, b_prev, bsum_prev, bsum,
                    sig, r, xi, nu, ghat, ghat_ctl, wealth, coin_sum, zdir,
                    dir_acc, w_hat, wpre,
                    gbar_ratio, gbar_ctl):
    """Steps ``t0 + 1 .. t0 + B`` of ``o2b.run`` with ``reg="pf"`` (Theorem 11's regularised
    losses) around :class:`~dpregret.core.learners.oco.ParameterFree` on a
    :class:`~dpregret.core.environments.stochastic.LinearFamily`, ``"tree"`` conversion, in place; the
    same arithmetic in the same order as the reference loop and the learner's ``predict`` and
    ``update``.  Arguments as :func:`linear_ogd_block` (``sig`` (T,) sigma_t of eq. (6); tree (L, R, d): one
    member per replicate here, nothing to share), plus: ``xsn`` (R,) ||x* - x_r|| per row, ``x0`` (d,) the learner's
    start x_0 (Section 5's shifted coordinates: it plays Proj_W(x_0 + w^)), ``xr`` (d,) the regulariser's centre
    (x_0 as the paper shifts it; 0 in the twin that shifts the play only); ``xi``,
    ``nu``, ``ghat`` (T,) Theorem 10-11's xi_t, nu_t and the learner's normaliser Ghat_t, and
    ``ghat_ctl`` (m, T) further bounds on ||gbar_t|| (controls); the learner's state (``wealth``,
    ``coin_sum``, ``dir_acc`` (R,), ``zdir``, ``w_hat`` (R, d)); ``wpre`` receives the w played at
    the last step; ``gbar_ratio`` (R,) and ``gbar_ctl`` (m, R) the running max_t ||gbar_t|| / bound."""
    R, d = x.shape
    Rb, B = u.shape[0], u.shape[1]
    m = ghat_ctl.shape[0]
    tmp = np.empty(d)
    xp = np.empty(d)
    acc = np.empty(d)
    gam = np.empty(d)
    w = np.empty(d)
    full = np.empty(d)
    gt = np.empty(d)
    for rr in range(R):
        rb = rr % Rb
        sr = s_rows[rr]
        for s in range(B):
            t = t0 + s + 1
            i = t - 1
            # learner.predict(): v = coin_sum / (t + 1) * wealth (t = updates so far), w = Proj_W(x_0 + v z)
            v = coin_sum[rr] / (t - 1 + 1) * wealth[rr]
            for j in range(d):
                w_hat[rr, j] = v * zdir[rr, j]
                tmp[j] = (x0[j] + w_hat[rr, j]) * (x0[j] + w_hat[rr, j])
            nrm = np.sqrt(pairwise_sum(tmp, 0, d))
            q = r / (nrm if nrm > 1e-300 else 1e-300)
            sc = q if q < 1.0 else 1.0
            for j in range(d):
                w[j] = (x0[j] + w_hat[rr, j]) * sc
            bt, bp, bs0, bs1 = b_t[i], b_prev[i], bsum_prev[i], bsum[i]
            for j in range(d):
                xp[j] = x[rr, j]
                x[rr, j] = (bs0 * xp[j] + bt * w[j]) / bs1
            for j in range(d):
                sign = -1.0 if u[rb, s, j] < 0.5 else 1.0
                zj = c[rr, j] + sr * sign / sqrt_d
                if t > 1:
                    g[rr, j] = g[rr, j] + (bt * zj - bp * zj)
                else:
                    g[rr, j] = g[rr, j] + (bt * zj - 0.0)
            sg = sig[i]  # sigma_t of eq. (6): H = 0, the iterates never enter it
            j0 = 0
            while ((t >> j0) & 1) == 0:
                j0 += 1
            for lv in range(j0):
                for j in range(d):
                    tree[lv, rr, j] = 0.0
            for j in range(d):
                tree[j0, rr, j] = sg * nz[rb, s, j]
            first = True
            lv = 0
            while (t >> lv) > 0:
                if (t >> lv) & 1:
                    if first:
                        for j in range(d):
                            gam[j] = tree[lv, rr, j]
                        first = False
                    else:
                        for j in range(d):
                            gam[j] = gam[j] + tree[lv, rr, j]
                lv += 1
            for j in range(d):
                tmp[j] = g[rr, j] + gam[j]  # ghat
            # the regularised loss: full = ghat + xi u + 2 nu (w - x_r), u = (w - x_r) / ||w - x_r|| (0 at w = x_r)
            xit, nut = xi[i], nu[i]
            for j in range(d):
                acc[j] = (w[j] - xr[j]) * (w[j] - xr[j])
            wn = np.sqrt(pairwise_sum(acc, 0, d))
            den = wn if wn > 1e-300 else 1e-300
            for j in range(d):
                uj = (w[j] - xr[j]) / den if wn > 0 else 0.0
                full[j] = (tmp[j] + xit * uj) + (2 * nut) * (w[j] - xr[j])
            for j in range(d):
                acc[j] = tmp[j] * (w[j] - xs[rr, j])
            regret[rr] = regret[rr] + ((pairwise_sum(acc, 0, d) + xit * (wn - xsn[rr]))
                                       + nut * (wn * wn - xsn[rr] * xsn[rr]))
            for j in range(d):
                acc[j] = full[j] * full[j]
            gn = np.sqrt(pairwise_sum(acc, 0, d))
            rt = gn / ghat[i]
            if rt > gbar_ratio[rr] or gbar_ratio[rr] != gbar_ratio[rr]:
                gbar_ratio[rr] = rt
            for k in range(m):
                rt = gn / ghat_ctl[k, i]
                if rt > gbar_ctl[k, rr] or gbar_ctl[k, rr] != gbar_ctl[k, rr]:
                    gbar_ctl[k, rr] = rt
            # learner.update(full)
            for j in range(d):
                acc[j] = (x0[j] + w_hat[rr, j]) - w[j]  # out
            for j in range(d):
                tmp[j] = acc[j] * acc[j]
            on = np.sqrt(pairwise_sum(tmp, 0, d))
            don = on if on > 1e-300 else 1e-300
            for j in range(d):
                gs = acc[j] / don if on > 0 else 0.0
                gt[j] = (0.5 * (full[j] + gn * gs)) / ghat[i]
            for j in range(d):
                tmp[j] = gt[j] * gt[j]
            ng = np.sqrt(pairwise_sum(tmp, 0, d))
            dg = ng if ng > 1.0 else 1.0
            for j in range(d):
                gt[j] = gt[j] / dg
            for j in range(d):
                tmp[j] = gt[j] * zdir[rr, j]
            cc = -pairwise_sum(tmp, 0, d)
            wealth[rr] = wealth[rr] + cc * v
            coin_sum[rr] = coin_sum[rr] + cc
            for j in range(d):
                tmp[j] = gt[j] * gt[j]
            dir_acc[rr] = dir_acc[rr] + pairwise_sum(tmp, 0, d)
            da = dir_acc[rr] if dir_acc[rr] > 1e-300 else 1e-300
            st = np.sqrt(2 * da)
            for j in range(d):
                acc[j] = zdir[rr, j] - gt[j] / st
            for j in range(d):
                tmp[j] = acc[j] * acc[j]
            nz_ = np.sqrt(pairwise_sum(tmp, 0, d))
            q = 1.0 / (nz_ if nz_ > 1e-300 else 1e-300)
            sc = q if q < 1.0 else 1.0
            for j in range(d):
                zdir[rr, j] = acc[j] * sc
            for j in range(d):
                wpre[rr, j] = w[j]


@njit(cache=True)
def tree_low_levels(nodes, gam, t0, levels):
    """Algorithm 1's tree noise at the steps ``t0 + 1 .. t0 + n`` of a block aligned to ``2^levels``
    (:func:`dpregret.papers.ztc22.scenario.tree_gamma_norms`), its levels below ``levels``, in place: for every
    set bit lv < levels of t, in increasing lv, ``gam[:, t - t0 - 1] += nodes[:, p - t0 - 1]`` with p = t's prefix
    ``(t >> lv) << lv`` (in the block); nodes, gam (R, n, d), gam zero on entry (its first addition is 0 + node, as
    numpy's ``gam[:, on] += ...`` adds it)."""
    R, n, d = nodes.shape
    for r in range(R):
        for j in range(n):
            t = t0 + j + 1
            for lv in range(levels):
                if (t >> lv) & 1:
                    pj = ((t >> lv) << lv) - t0 - 1
                    for k in range(d):
                        gam[r, j, k] = gam[r, j, k] + nodes[r, pj, k]
