"""Reproducible random streams (docs/workflow.md, reproducibility).

Every replicate owns one stream, derived from the root seed and a *stable key*
(scenario, parameter point, role, replicate index) through
``numpy.random.SeedSequence(root, spawn_key=...)``.  Nothing depends on call order,
on how replicates are grouped into chunks, or on how many jobs run at once, so a
result table is byte-identical whatever ``--cores`` or ``chunk_size`` is.

Vectorisation over replicates is kept by buffering: :class:`ReplicateStreams` draws
blocks of uniforms from each replicate's generator and serves ``(R, ...)`` arrays,
every replicate consuming the same count per request.  Non-uniform variates are made
by inverse transforms of those uniforms, so each is a deterministic function of the
replicate's own stream.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence

import numpy as np
from scipy import special

from dpregret.core import validate as V


def stable_key(*parts) -> tuple[int, ...]:
    """A spawn key from printable parts: 32-bit words of a SHA-256 of their ``repr``.

    Floats are written with ``repr`` (shortest round-trip form), so ``0.5`` and ``0.50``
    give the same key, while ``1`` and ``1.0`` differ only if the caller mixes types;
    callers pass parameter values exactly as they come from the config.
    """
    text = "\x1f".join(_canon(p) for p in parts).encode()
    digest = hashlib.sha256(text).digest()
    return tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))


def _canon(p) -> str:
    if isinstance(p, float | np.floating):
        f = float(p)
        return repr(int(f)) if f.is_integer() else repr(f)
    if isinstance(p, np.integer):
        return repr(int(p))
    if isinstance(p, tuple | list):
        return "(" + ",".join(_canon(q) for q in p) + ")"
    return repr(p)


def replicate_generator(root_seed: int, key: Sequence[int], replicate: int) -> np.random.Generator:
    """The generator of one replicate: ``SeedSequence(root, spawn_key=key + (replicate,))``."""
    V.integer("root_seed", root_seed, minimum=0)
    V.integer("replicate", replicate, minimum=0)
    ss = np.random.SeedSequence(root_seed, spawn_key=tuple(key) + (int(replicate),))
    return np.random.Generator(np.random.PCG64(ss))


_TINY = np.finfo(float).tiny


class ReplicateStreams:
    """Per-replicate uniform streams served as ``(R, *shape)`` arrays.

    Parameters
    ----------
    root_seed : the configuration's single root seed.
    key : a :func:`stable_key` naming scenario, parameter point and role.
    replicates : the global replicate indices this object serves (any chunk of them).
    block : uniforms buffered per replicate per refill (performance only; any value
        gives the same numbers).
    """

    def __init__(self, root_seed: int, key: Sequence[int], replicates: Iterable[int], block: int = 8192):
        self.replicates = np.asarray(list(replicates), dtype=np.int64)
        if self.replicates.ndim != 1 or self.replicates.size == 0:
            raise ValueError("replicates must be a non-empty sequence of indices >= 0")
        self.block = V.integer("block", block, minimum=1)
        self._gens = [replicate_generator(root_seed, key, int(r)) for r in self.replicates]
        self._buf = np.empty((len(self._gens), 0))
        self._pos = 0
        self.consumed = 0  # uniforms consumed per replicate (for the random-number budget)

    @property
    def R(self) -> int:
        return len(self._gens)

    def _fill(self, out: np.ndarray) -> None:
        """The next ``out.shape[1]`` uniforms of every replicate, written into ``out`` (rows
        C-contiguous). A generator gives the same sequence whether its doubles are drawn in one
        call or in several, so how requests are split never changes a number."""
        for row, g in zip(out, self._gens):
            g.random(out=row)
        # Generator.random lies in [0, 1); an exact 0 becomes the smallest positive double
        out[out == 0.0] = _TINY

    def _take(self, k: int) -> np.ndarray:
        """The next ``k`` uniforms of every replicate, ``(R, k)``: a view of the buffer when
        they lie in it (consumed positions are never read again, so callers may write to it)."""
        self.consumed += k
        avail = self._buf.shape[1] - self._pos
        if k <= avail:
            self._pos += k
            return self._buf[:, self._pos - k : self._pos]
        out = np.empty((self.R, k))
        out[:, :avail] = self._buf[:, self._pos :]
        rest = k - avail
        if rest >= self.block:  # a large request: straight into the output, the buffer stays spent
            self._fill(out[:, avail:])
            self._pos = self._buf.shape[1]
            return out
        self._buf = np.empty((self.R, self.block))  # a new array: views handed out earlier stay valid
        self._fill(self._buf)
        out[:, avail:] = self._buf[:, :rest]
        self._pos = rest
        return out

    def uniform(self, shape: tuple[int, ...] = ()) -> np.ndarray:
        """U(0,1) with shape ``(R, *shape)``; values in the open interval (0, 1)."""
        k = int(math.prod(shape))  # (math.prod: np.prod's per-call overhead is most of a one-round draw)
        return self._take(k).reshape((self.R, *shape))

    def laplace(self, scale, shape: tuple[int, ...] = ()) -> np.ndarray:
        """Laplace(0, scale), inverse CDF: ``-b sign(u-1/2) log(1-2|u-1/2|)``."""
        w = self.uniform(shape) - 0.5
        scale = np.asarray(scale)
        if np.broadcast_shapes(scale.shape, w.shape) != w.shape or scale.dtype.kind != "f":
            return -scale * np.sign(w) * np.log1p(-2.0 * np.abs(w))
        # the same numbers with two temporaries fewer: (-b sign(w)) log1p(.) = sign(w) ((-b) log1p(.)), the
        # sign a factor of +-1 or 0, exact either way
        out = np.abs(w)
        out *= -2.0
        np.log1p(out, out=out)
        out *= -scale
        out *= np.sign(w)
        return out

    def normal(self, shape: tuple[int, ...] = ()) -> np.ndarray:
        """Standard normal by the inverse CDF (``scipy.special.ndtri``)."""
        return special.ndtri(self.uniform(shape))

    def exponential(self, shape: tuple[int, ...] = ()) -> np.ndarray:
        return -np.log(self.uniform(shape))

    def gamma_int(self, k: int, shape: tuple[int, ...] = ()) -> np.ndarray:
        """Gamma(k, 1) for integer shape k as a sum of k exponentials."""
        k = V.integer("k", k, minimum=1)
        return self.exponential((*shape, k)).sum(axis=-1)

    def choice(self, p: np.ndarray) -> np.ndarray:
        """One index per replicate from the rows of ``p`` (shape (R, N)), by inversion."""
        u = self.uniform(())
        c = np.cumsum(p, axis=1)
        idx = (c < (u * c[:, -1])[:, None]).sum(axis=1)
        return np.minimum(idx, p.shape[1] - 1)


class RowStreams(ReplicateStreams):
    """V variants x R replicates as one stream object (row ``v * R + r`` = replicate r).

    Without ``scales``: every variant gets the same draws (the chunk's streams tiled).
    With ``scales``/``kinds``: ``laplace(scale, shape)`` and ``normal(shape)`` return, for
    variant v, ``scales[v]`` times one standard Laplace draw (kind "laplace") or one standard
    normal draw (kind "gaussian") of the replicate -- both drawn at every request, so each
    replicate's consumption does not depend on the variants or the chunking.
    """

    def __init__(self, base: ReplicateStreams, V: int, scales=None, kinds=None):  # noqa: D107 - no super().__init__
        self._base, self.V = base, int(V)
        self.replicates = np.tile(base.replicates, self.V)
        self.scales = None if scales is None else np.asarray(scales, dtype=float)
        self.kinds = None if kinds is None else list(kinds)
        if self.scales is not None and (self.scales.shape != (self.V,) or len(self.kinds) != self.V):
            raise ValueError(f"scales and kinds must have one entry per variant ({self.V})")
        if self.kinds is not None and not set(self.kinds) <= {"laplace", "gaussian"}:
            raise ValueError(f"kinds must be 'laplace' or 'gaussian', got {self.kinds}")

    @property
    def R(self) -> int:
        return self.V * self._base.R

    @property
    def consumed(self) -> int:
        return self._base.consumed

    def _tile(self, z: np.ndarray) -> np.ndarray:
        return np.concatenate([z] * self.V, axis=0)

    def _mix(self, shape) -> np.ndarray:
        zl = self._base.laplace(1.0, shape)
        zg = self._base.normal(shape)
        return np.concatenate([s * (zl if k == "laplace" else zg) for s, k in zip(self.scales, self.kinds)], axis=0)

    def uniform(self, shape=()):
        return self._tile(self._base.uniform(shape))

    def normal(self, shape=()):
        return self._tile(self._base.normal(shape)) if self.scales is None else self._mix(shape)

    def laplace(self, scale, shape=()):
        if self.scales is None:
            return self._tile(self._base.laplace(scale, shape))
        return np.asarray(scale) * self._mix(shape)


# --- one interface for both kinds of randomness source ------------------------------
# Mechanisms are pure functions of (data, rng).  ``rng`` is either a numpy Generator
# (output shape = ``shape``) or a ReplicateStreams (output shape = ``(R, *shape)``).

Source = np.random.Generator | ReplicateStreams


def draw_uniform(rng: Source, shape: tuple[int, ...] = ()) -> np.ndarray:
    if isinstance(rng, ReplicateStreams):
        return rng.uniform(shape)
    u = rng.random(shape)
    return np.where(u == 0.0, np.finfo(float).tiny, u)


def draw_laplace(rng: Source, scale, shape: tuple[int, ...] = ()) -> np.ndarray:
    if isinstance(rng, ReplicateStreams):
        return rng.laplace(scale, shape)
    return rng.laplace(0.0, 1.0, shape) * np.asarray(scale)


def draw_normal(rng: Source, shape: tuple[int, ...] = ()) -> np.ndarray:
    if isinstance(rng, ReplicateStreams):
        return rng.normal(shape)
    return rng.standard_normal(shape)


def draw_gamma_int(rng: Source, k: int, shape: tuple[int, ...] = ()) -> np.ndarray:
    if isinstance(rng, ReplicateStreams):
        return rng.gamma_int(k, shape)
    return rng.gamma(float(V.integer("k", k, minimum=1)), 1.0, shape)
