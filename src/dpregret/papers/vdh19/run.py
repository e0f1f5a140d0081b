"""Van der Hoeven 2019, Sec. 3.4 (experiments): the run engine of ``papers.vdh19.scenario``: every learner (batch
(variants, replicates)) for T rounds of absolute-loss regression on shared data and noise draws (:func:`run_learners`),
who privatises in each round (:class:`Masks`, :func:`smallest_positions`), learners grouped by a per-variant parameter
(:class:`Grouped`), and the tidy rows of the accumulated sums (:func:`tidy_rows`).  See
``papers.vdh19.scenario``'s docstring for the experiments and the streams."""
from __future__ import annotations

import numpy as np
import pandas as pd


def smallest_positions(src, T: int, n: int, block: int = 1024) -> np.ndarray:
    """(R, n): per replicate, the positions of the ``n`` smallest of its next ``T`` uniforms of
    ``src``, in increasing order of (uniform, position): the positions of rank ``< n`` of a
    stable argsort of ``src.uniform((T,))``, i.e. ``argsort(u, kind="stable")[:, :n]``.

    The uniforms are drawn in consecutive blocks (the same numbers, in the same order, as one
    ``(R, T)`` draw) and merged into a running n-smallest, so memory is O(R (n + block)), not
    O(R T).  Ties keep the lower position first: the running set precedes each new block in the
    concatenation, all its positions are lower, and a stable sort keeps that order."""
    n = min(int(n), T)
    R = src.R
    vals, pos = np.empty((R, 0)), np.empty((R, 0), dtype=np.int64)
    for lo in range(0, T, block):
        hi = min(lo + block, T)
        u = src.uniform((hi - lo,))
        vals = np.concatenate([vals, u], axis=1)
        pos = np.concatenate([pos, np.broadcast_to(np.arange(lo, hi, dtype=np.int64), (R, hi - lo))], axis=1)
        keep = np.argsort(vals, axis=1, kind="stable")[:, :n]
        vals, pos = np.take_along_axis(vals, keep, axis=1), np.take_along_axis(pos, keep, axis=1)
    return pos


class Masks:
    """Who privatises in round t: ``masks(t)`` -> (V, R) booleans, asked for t = 0, 1, ..., T-1
    in turn.  A replicate's random placement of ``n`` providers takes the rounds of rank ``< n``
    of a random permutation (the stable ranks of its ``T`` uniforms of the ``positions``
    stream); only the ``max n`` rounds of lowest rank are kept (:func:`smallest_positions`), with their
    rank, sorted by round, and a pointer per replicate walks them as the rounds go by: memory
    O(R max n) instead of (T, V, R) masks."""

    def __init__(self, variants, T: int, R: int, positions_src=None):
        self.T, self.R, self.t = T, R, 0
        kind = [v["placement"] for v in variants]
        self.n = np.array([v["n"] for v in variants], dtype=np.int64)
        self.uniform = np.array([k == "uniform" for k in kind])[:, None]
        self.adversarial = np.array([k == "adversarial" for k in kind])
        self.random = np.array([k == "random" for k in kind])[:, None]
        K = min(int(self.n[self.random[:, 0]].max()), T) if self.random.any() else 0
        self.K, self.rows = K, np.arange(R)
        self.rank_t = np.full(R, K)  # no random placement with n > 0: nobody is drawn
        if K > 0:
            top = smallest_positions(positions_src, T, K)  # (R, K) rounds, by rank
            order = np.argsort(top, axis=1, kind="stable")
            # rounds increasing, then their ranks, each with a sentinel column (round T, rank K)
            self.rounds = np.c_[np.take_along_axis(top, order, axis=1), np.full(R, T)]
            self.rank = np.c_[order, np.full(R, K)]
            self.ptr = np.zeros(R, dtype=np.int64)

    def __call__(self, t: int) -> np.ndarray:
        if t != self.t:
            raise ValueError(f"rounds must be asked in order: expected {self.t}, got {t}")
        self.t += 1
        rank_t = self.rank_t
        if self.K > 0:
            hit = self.rounds[self.rows, self.ptr] == t
            rank_t = np.where(hit, self.rank[self.rows, self.ptr], self.K)
            self.ptr += hit
        return self.uniform | (self.adversarial & (t < self.n))[:, None] | (self.random & (rank_t < self.n[:, None]))


class Grouped:
    """Learners of one class whose scalar parameter differs between variants: one instance
    per distinct value, each with batch (variants of the group, R)."""

    def __init__(self, keys, make):
        self.groups = {}
        for i, k in enumerate(keys):
            self.groups.setdefault(k, []).append(i)
        self.learners = {k: make(k, len(ix)) for k, ix in self.groups.items()}
        self.V = len(keys)

    def predict(self):
        parts = {k: lr.predict() for k, lr in self.learners.items()}
        first = next(iter(parts.values()))
        out = np.empty((self.V, *first.shape[1:]))
        for k, ix in self.groups.items():
            out[ix] = parts[k]
        return out

    def update(self, g):
        for k, ix in self.groups.items():
            self.learners[k].update(g[ix])


def run_learners(T, R, d, draw, noise, scale, masks, learners):
    """Run every learner (batch (V, R)) for T rounds of absolute-loss regression.

    ``draw()`` -> ``x`` (R, d), ``y`` (R,) or (V, R); ``noise()`` -> (R, d) noise at scale 1;
    ``scale`` (V,): noise multiplier per variant; ``masks(t)`` -> (V, R) booleans (who
    privatises in round t, asked for t = 0, ..., T-1 in turn).  Returns per learner
    ``lin = sum <g, w>``, ``gsum = sum g``, ``S = sum ||g~||^2``, ``S_true = sum ||g||^2``, and
    for Algorithm 2-type learners (with a ``direction``) ``zg = sum <z, g>``, ``S_mag = sum
    <z, g~>^2``, ``S_mag_true = sum <z, g>^2``; for ``coords`` learners ``S_c`` (V, R, d)."""
    Vn = len(scale)
    acc = {}
    for name, (lr, kind) in learners.items():
        a = {"lin": np.zeros((Vn, R)), "gsum": np.zeros((Vn, R, d)), "S": np.zeros((Vn, R)),
             "S_true": np.zeros((Vn, R))}
        if kind == "alg2":
            a |= {"zg": np.zeros((Vn, R)), "S_mag": np.zeros((Vn, R)), "S_mag_true": np.zeros((Vn, R))}
        if kind == "coords":
            a["S_c"] = np.zeros((Vn, R, d))
        acc[name] = a
    for t in range(T):
        x, y = draw()
        xi = noise()
        nz = (masks(t) * scale[:, None])[..., None] * xi[None]  # (V, R, d)
        for name, (lr, kind) in learners.items():
            a = acc[name]
            if kind == "alg2":
                z = lr.direction.predict()
            w = lr.predict()
            m = np.einsum("vrd,rd->vr", w, x) - y
            g = np.sign(m)[..., None] * x[None]
            gt = g + nz
            a["lin"] += np.einsum("vrd,vrd->vr", g, w)
            a["gsum"] += g
            a["S"] += np.einsum("vrd,vrd->vr", gt, gt)
            a["S_true"] += np.einsum("vrd,vrd->vr", g, g)
            if kind == "alg2":
                zg, zgt = np.einsum("vrd,vrd->vr", z, g), np.einsum("vrd,vrd->vr", z, gt)
                a["zg"] += zg
                a["S_mag"] += zgt * zgt
                a["S_mag_true"] += zg * zg
            if kind == "coords":
                a["S_c"] += gt * gt
            lr.update(gt)
    return acc


def tidy_rows(acc, variants, u_ref, u_frac, reps, cols, extra=None) -> pd.DataFrame:
    """Tidy rows: algorithm x variant x replicate x comparator ``u = f u_ref[v]``."""
    frames = []
    reps = np.asarray(list(reps))
    u_ref = np.broadcast_to(np.asarray(u_ref, dtype=float), (len(variants), u_ref.shape[-1]))
    unorm = np.linalg.norm(u_ref, axis=1)
    for alg, a in acc.items():
        gdot = np.einsum("vrd,vd->vr", a["gsum"], u_ref)
        failed = extra.get(alg) if extra else None
        for i, v in enumerate(variants):
            for f in u_frac:
                reg = a["lin"][i] - f * gdot[i]
                df = {"alg": alg, "replicate": reps, "u_frac": float(f), "u_norm": float(f * unorm[i]),
                      "u_star_norm": float(unorm[i]), "regret": reg, "sum_sq": a["S"][i], "sum_sq_true": a["S_true"][i]}
                if "zg" in a:
                    df |= {"mag_regret": a["lin"][i] - f * unorm[i] * a["zg"][i], "mag_sum_sq": a["S_mag"][i],
                           "mag_sum_sq_true": a["S_mag_true"][i]}
                if failed is not None:
                    bad = failed[i]
                    df["regret"] = np.where(bad, np.nan, df["regret"])
                    if "mag_regret" in df:
                        df["mag_regret"] = np.where(bad, np.nan, df["mag_regret"])
                df = pd.DataFrame(df)
                for k in ("placement", "eps", "n_private", "eta"):
                    if k in v:
                        df[k] = v[k]
                frames.append(df)
    out = pd.concat(frames, ignore_index=True)
    for k, val in cols.items():
        out[k] = val
    for c in ("mag_regret", "mag_sum_sq", "mag_sum_sq_true"):
        if c not in out:
            out[c] = np.nan
    return out
