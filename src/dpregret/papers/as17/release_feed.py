"""The releases a full-information learner is fed: any experts or OLO learner played on
TreeBasedAgg's eps-DP prefix sums (Agarwal and Singh, ICML 2017, section 3: Algorithm 2 with
Lemma 3.3), on fresh-noise prefix sums (the control) and on the exact losses (the twin).

Anything computed from the tree's releases ``L~_0, ..., L~_T`` is post-processing, so a learner
fed the losses reconstructed from them, ``L~_t - L~_{t-1}``, runs privately.  For each learner
``name`` :class:`ReleasePlayer` keeps one run on the exact losses (role ``nonprivate``) and, at
each eps, one on the tree's releases (``tree``) and one on the fresh-noise sums' (``fresh_noise``,
:class:`~dpregret.papers.as17.prefix_sums.FreshNoise`), and plays them round by round:

    learner.update(released_0)                      # before round 1
    for t = 1..T:  x_t = learner.predict()          # checked by the setting's check_play
                   suffer <x_t, l_t>
                   learner.update(released_t - released_{t-1})

The releases are made a block of rounds at a time (``TreeReleases.block``, ``FreshNoise.block``: the
same draws and numbers as one release at a time).  Shared by the experts' door
(``papers.as17.scenario_experts``) and the OLO door over the sphere and the cube
(``papers.as17.scenario_olo``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from dpregret.core.protocols import check_play
from dpregret.core.tree import TreeReleases
from dpregret.papers.as17.prefix_sums import FreshNoise

try:  # np.einsum without its Python dispatch (optimize=False calls exactly this): the same numbers
    from numpy._core.multiarray import c_einsum as _einsum
except ImportError:  # pragma: no cover - another numpy layout
    _einsum = np.einsum


class _Run:
    """One learner on one feed (role ``tree``, ``nonprivate`` or ``fresh_noise``) at one eps."""

    def __init__(self, name: str, role: str, eps: float | None, rows: slice, learner):
        self.name, self.role, self.eps, self.rows, self.learner = name, role, eps, rows, learner
        self.suffered = None


def _feed(run: _Run, feeds: dict) -> np.ndarray:
    return feeds[run.role] if run.role == "nonprivate" else feeds[run.role][run.rows]


class ReleasePlayer:
    """Every learner fed the full-information releases (:func:`play_on_releases`): built with the
    releases' initial state, then fed block by block (:meth:`block`), so the blocks may come from
    the rows' own loop or from the paper's rounds (the experts' compiled rounds hand their draws
    over, ``papers.as17.scenario_experts``).  ``tree_initial``: the tree's initial noise already
    drawn (the sum of its K scaled draws, as ``TreeReleases`` would make it), else drawn by
    ``tree_draws``.  ``runs``: one ``_Run`` per (learner, feed, eps), with ``name``, ``role``,
    ``eps`` and ``suffered`` (the summed ``<x_t, l_t>`` per replicate)."""

    def __init__(self, build: Callable, learners: Mapping[str, Callable], R: int, N: int, T: int,
                 eps: Sequence[float], tree_draws, fresh_draws, setting: str, check_block, tree_initial=None):
        ER = len(eps) * R
        self.R, self.N, self.eps, self.setting, self.check_block = R, N, eps, setting, check_block
        self.tree = tree = TreeReleases(T, N, tree_draws, ER, initial=tree_initial)  # L~_0's K draws, as TreeBasedAgg
        self.fresh = fresh = FreshNoise(ER, N, fresh_draws)
        self.runs = runs = []
        built = []
        for name, make in learners.items():
            runs.append(_Run(name, "nonprivate", None, slice(0, R), build(make, name, built)))
            for k, e in enumerate(eps):
                for role in ("tree", "fresh_noise"):
                    runs.append(_Run(name, role, e, slice(k * R, (k + 1) * R), build(make, name, built)))
        first = {"tree": tree.true + tree.noise, "fresh_noise": fresh.estimate, "nonprivate": np.zeros((R, N))}
        for u in runs:  # the releases before round 1 (L~_0), as update() before the first predict()
            u.learner.update(_feed(u, first).copy())
            u.suffered = np.zeros(R)

    def block(self, t0: int, L: np.ndarray) -> None:
        """Rounds ``t0 + 1 .. t0 + tb`` on the losses ``L`` (``(R, tb, N)``)."""
        R, N, eps, runs, setting, check_block = self.R, self.N, self.eps, self.runs, self.setting, self.check_block
        ER, tb = len(eps) * R, L.shape[1]
        LE = np.broadcast_to(L[None], (len(eps), R, tb, N)).reshape(ER, tb, N)
        inc = {}
        for role, sums in (("tree", self.tree), ("fresh_noise", self.fresh)):
            before = sums.block(LE)  # the release each round is played on, L~_{t-1}
            after = sums.true + sums.noise if role == "tree" else sums.estimate  # L~_{t0 + tb}
            inc[role] = np.diff(np.concatenate([before, after[:, None]], axis=1), axis=1)  # L~_t - L~_{t-1}
        # per run: its block of plays, of <x_t, l_t>, and what it is fed each round ((tb, R, N), contiguous:
        # the same values as the round's slice, copied fresh for the learner every round)
        fed = {"nonprivate": np.ascontiguousarray(L.transpose(1, 0, 2))}
        for role in ("tree", "fresh_noise"):
            fed[role] = np.ascontiguousarray(inc[role].transpose(1, 0, 2))
        plays = [np.empty((tb, R, N)) for _ in runs]
        dots = [np.empty((tb, R)) for _ in runs]
        feeds = [fed["nonprivate"] if u.role == "nonprivate" else fed[u.role][:, u.rows] for u in runs]
        work = list(zip(runs, [u.learner for u in runs], plays, dots, feeds))
        for s in range(tb):
            l = L[:, s]
            for u, learner, played, dot, feed in work:
                x = learner.predict()
                if not (type(x) is np.ndarray and x.dtype == np.float64 and x.shape == (R, N)):
                    x = np.asarray(x, dtype=float)
                    if x.shape != (R, N):
                        try:
                            check_play(setting, x, R, N)  # raises, naming the shape
                        except ValueError as err:
                            raise ValueError(f"learner {u.name!r} ({u.role}) in round {t0 + s + 1}: {err}") from None
                played[s] = x
                _einsum("bi,bi->b", x, l, out=dot[s])
                learner.update(feed[s].copy())
        for u, dot in zip(runs, dots):
            u.suffered = running_sum(u.suffered, dot.T)  # the rounds' <x_t, l_t>, added in order
        for u, played in zip(runs, plays):  # every play of the block
            try:
                check_block(played)
            except ValueError as err:
                raise ValueError(f"learner {u.name!r} ({u.role}) in rounds {t0 + 1}..{t0 + tb}: {err}") from None


def play_on_releases(build: Callable, learners: Mapping[str, Callable], R: int, N: int, T: int,
                     eps: Sequence[float], tree_draws, fresh_draws, blocks, setting: str, check_block) -> list[_Run]:
    """Every learner fed the full-information releases, for the rows of the experts' and the OLO doors.

    For each ``name`` a run on the exact losses (``nonprivate``) and, at each eps, one on the
    increments of TreeBasedAgg's releases (``tree``) and one on the fresh-noise sums' (``fresh_noise``),
    each built by ``build(make, name, built)``; the releases' draws (``tree_draws``,
    ``fresh_draws``: row ``e * R + r`` is eps ``e``, replicate ``r``) as the paper rows'.
    ``blocks`` yields ``(t0, L)``, the losses of rounds ``t0 + 1 .. t0 + tb`` as ``(R, tb, N)``;
    ``check_block(plays)`` validates a run's ``(tb, R, N)`` plays.  Returns the runs, with
    ``suffered`` the summed ``<x_t, l_t>`` per replicate.  (The rows do not depend on how the
    rounds are cut into blocks.)"""
    player = ReleasePlayer(build, learners, R, N, T, eps, tree_draws, fresh_draws, setting, check_block)
    for t0, L in blocks:
        player.block(t0, L)
    return player.runs


def running_sum(acc: np.ndarray, per_round: np.ndarray) -> np.ndarray:
    """``acc`` plus each of ``per_round``'s rounds (axis 1), added in order."""
    return np.cumsum(np.concatenate([acc[:, None], per_round], axis=1), axis=1)[:, -1]

