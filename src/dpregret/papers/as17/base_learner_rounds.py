"""Algorithm 4's rounds around a base learner that is not the paper's compiled SCRiBLe (Agarwal
and Singh, ICML 2017, section 4.2): the door of ``papers.as17.scenario_blo`` for your own bandit
linear optimisation learner runs them, one block of rounds at a time.

Per round and replicate row (the standard Laplace vectors ``z_t`` scaled by the run's ``lam``):

    y_t = learner.predict()                 # (R, n), checked: shape, finite, inside K
    suffer <l_t, c_t>                       # c_t = learner.center if it exposes one, else y_t
    learner.update(<l_t + lam z_t, y_t>)    # (R,)

:func:`run_user_rounds` makes these calls from Python; for a compiled learner (a
``numba.experimental.jitclass`` instance, :func:`is_compiled`) the rounds run in a compiled loop
(:func:`compiled_rounds`, built on first use: numba is imported only then) with the same protocol,
its ``draws`` uniforms per round drawn from the run's own streams.  A run (``scenario_blo``'s) has
``name``, ``lam``, ``learner``, ``streams``, ``expected`` (whether the learner exposes ``center``,
decided on round 1) and ``suffered`` (the summed ``<l_t, c_t>`` per replicate); a domain has
``name`` (``"ball"`` or ``"cube"``), ``n`` and ``contains``.
"""
from __future__ import annotations

import numpy as np

from dpregret.core.protocols import check_play

TOL = 1e-9  # how far outside K a play may lie (rounding)
try:  # np.einsum without its Python dispatch (optimize=False calls exactly this): the same numbers
    from numpy._core.multiarray import c_einsum as _einsum
except ImportError:  # pragma: no cover - another numpy layout
    _einsum = np.einsum


def _check_point(u, what: str, a, R: int, domain, round_: int | None = None) -> np.ndarray:
    a = np.asarray(a)
    where = "" if round_ is None else f" in round {round_}"
    try:
        check_play("bco", a, R, domain.n)
    except ValueError as err:
        raise ValueError(f"learner {u.name!r} ({what}){where}: {err}") from None
    a = a.astype(float, copy=False)
    inside = domain.contains(a)
    if not np.all(inside):
        r = int(np.argmin(inside))
        raise ValueError(f"learner {u.name!r} ({what}){where}: row {r} is outside the {domain.name} "
                         f"(point {np.round(a[r], 6).tolist()})")
    return a


def _fast(a, shape: tuple) -> bool:
    """``a`` is a float64 array of ``shape``: a play the round can use as it is (its values are
    checked after the block, :func:`_check_block`)."""
    return type(a) is np.ndarray and a.dtype == np.float64 and a.shape == shape


def _check_block(u, domain, R: int, t0: int, played: np.ndarray, centres: np.ndarray | None,
                 upto: int) -> None:
    """The plays (and centres) of rounds ``t0 + 1 .. t0 + upto``, ``(tb, R, n)``: finite and inside
    K, else the error :func:`_check_point` raises for the first bad round (its play before its centre)."""
    def ok(a):
        a = a[:upto]
        size = np.linalg.norm(a, axis=-1) if domain.name == "ball" else np.max(np.abs(a), axis=-1)
        return np.all(np.isfinite(a), axis=(1, 2)) & np.all(size <= 1.0 + TOL, axis=1)
    good = ok(played) if centres is None else ok(played) & ok(centres)
    for s in np.flatnonzero(~good):
        _check_point(u, "predict()", played[s], R, domain, t0 + s + 1)
        if centres is not None:
            _check_point(u, "center", centres[s], R, domain, t0 + s + 1)


def run_user_rounds(u, domain, L: np.ndarray, Z: np.ndarray, t0: int = 0) -> None:
    """Algorithm 4 around ``u.learner`` over the loss block ``L`` (``(R, tb, n)``, rounds ``t0 + 1 ..
    t0 + tb``) with the standard Laplace vectors ``Z`` (``(R, tb, n)``, scaled by ``u.lam``): see the
    module docstring.  The round does only what the learner needs: its play's shape is checked at
    once, its values (finite, inside K; the centre's too) for the whole block after it (and before
    any exception the learner raises meanwhile is passed on); the fed vectors ``l_t + lam z_t`` are
    made for the block at once (the same elementwise arithmetic as round by round)."""
    R, tb, n = L.shape
    shape = (R, n)
    if u.suffered is None:
        u.suffered = np.zeros(R)
    learner, name = u.learner, u.name
    fed = np.ascontiguousarray((L + u.lam * Z).transpose(1, 0, 2))  # (tb, R, n): round s's l + lam z, contiguous
    if is_compiled(learner):
        return _run_compiled(u, domain, np.ascontiguousarray(L), fed, t0)
    played = np.empty((tb, R, n))
    centres = None if u.expected is False else np.empty((tb, R, n))
    dots = np.empty((tb, R))  # <l_t, c_t> per round, summed in order after the block
    einsum = _einsum
    ready = 0  # rounds whose play (and centre) are recorded
    try:
        for s in range(tb):
            y = learner.predict()
            if not _fast(y, shape):
                y = _check_point(u, "predict()", y, R, domain, t0 + s + 1)
            played[s] = y
            c = getattr(learner, "center", None)
            if u.expected is None:
                u.expected = c is not None
                if not u.expected:
                    centres = None
            if u.expected:
                if c is None:
                    raise ValueError(f"learner {name!r}: attribute center disappeared after round 1")
                if not _fast(c, shape):
                    c = _check_point(u, "center", c, R, domain, t0 + s + 1)
                centres[s] = c
            else:
                c = y
            ready = s + 1
            einsum("ri,ri->r", L[:, s], c, out=dots[s])
            learner.update(einsum("ri,ri->r", fed[s], y))
    except Exception:
        _check_block(u, domain, R, t0, played, centres, ready)  # a bad play before the failure is the error
        raise
    _check_block(u, domain, R, t0, played, centres, tb)
    u.suffered = np.cumsum(np.concatenate([u.suffered[:, None], dots.T], axis=1), axis=1)[:, -1]  # in round order


def is_compiled(learner) -> bool:
    """A ``numba.experimental.jitclass`` instance (its rounds run compiled, module docstring)."""
    return hasattr(type(learner), "_numba_type_")


_LOOPS = {}


def compiled_rounds(centre: bool, draws: bool):
    """The compiled loop of Algorithm 4's rounds around a jitclass learner (one per whether it has
    a ``center`` and declares ``draws``), built on first use: per round, the round's uniforms into
    ``learner.uniforms`` (if it draws), ``y = learner.predict()``, the play (and centre) recorded,
    ``<l_t, c_t>`` suffered and ``learner.update(<l_t + lam z_t, y_t>)``.  Returns the first round
    whose play (or centre) is not ``(R, n)``, else -1."""
    if (centre, draws) in _LOOPS:
        return _LOOPS[centre, draws]
    import numba

    def loop(learner, L, fed, U, played, centres, dots):
        R, tb, n = L.shape
        for s in range(tb):
            if draws:
                learner.uniforms = U[s]
            y = learner.predict()
            if y.shape[0] != R or y.shape[1] != n:
                return s
            c = learner.center if centre else y
            if c.shape[0] != R or c.shape[1] != n:
                return s
            v = np.empty(R)
            for r in range(R):
                acc = 0.0
                fv = 0.0
                for i in range(n):
                    played[s, r, i] = y[r, i]
                    if centre:
                        centres[s, r, i] = c[r, i]
                    acc += L[r, s, i] * c[r, i]
                    fv += fed[s, r, i] * y[r, i]
                dots[s, r] = acc
                v[r] = fv
            learner.update(v)
        return -1

    _LOOPS[centre, draws] = numba.njit(loop)
    return _LOOPS[centre, draws]


def _run_compiled(u, domain, L: np.ndarray, fed: np.ndarray, t0: int) -> None:
    """:func:`run_user_rounds` for a compiled learner: the rounds of the block by :func:`compiled_rounds`."""
    from numba.core.errors import NumbaError

    learner, (R, tb, n) = u.learner, L.shape
    k = int(getattr(learner, "draws", 0))
    U = np.ascontiguousarray(u.streams.uniform((tb, k)).transpose(1, 0, 2)) if k > 0 else np.empty((tb, R, 0))
    centre = hasattr(learner, "center")
    played, dots = np.empty((tb, R, n)), np.empty((tb, R))
    centres = np.empty((tb, R, n)) if centre else np.empty((0, 0, 0))
    try:
        bad = compiled_rounds(centre, k > 0)(learner, L, fed, U, played, centres, dots)
    except NumbaError as err:
        raise ValueError(f"learner {u.name!r} (a numba jitclass) cannot run in the compiled rounds: predict() must "
                         f"return a float64 (R, n) array, update take a float64 (R,) array"
                         f"{', uniforms be a float64[:, :] field' if k > 0 else ''}: "
                         f"{str(err).splitlines()[0]}") from None
    if bad >= 0:
        raise ValueError(f"learner {u.name!r} (predict() or center) in round {t0 + bad + 1}: not of shape ({R}, {n})")
    _check_block(u, domain, R, t0, played, centres if centre else None, tb)
    u.suffered = np.cumsum(np.concatenate([u.suffered[:, None], dots.T], axis=1), axis=1)[:, -1]  # in round order


