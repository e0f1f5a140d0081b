"""Tree aggregation: exact draw counts, exact prefix sums without noise, I_t sets."""
import math

import numpy as np
import pytest

from dpregret.core.rng import ReplicateStreams, stable_key
from dpregret.core.tree import (TreeBasedAgg, TreeNoise, binary_prefix_set, draws_per_release,
                           nodes_covering_leaf, prefix_nodes)


def ones(R, d):
    return lambda k: np.ones((R, k, d))


def zeros(R, d):
    return lambda k: np.zeros((R, k, d))


@pytest.mark.parametrize("T", [1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 33, 100, 1000])
def test_every_release_carries_exactly_K_draws(T):
    R, d = 2, 3
    tree = TreeBasedAgg(T, d, ones(R, d), R)
    K = max(1, math.ceil(math.log2(T))) if T > 1 else 1
    assert tree.K == K == draws_per_release(T)
    np.testing.assert_array_equal(tree.noise, K)  # L~_0
    for t in range(1, T + 1):
        tree.step(np.zeros(d))
        assert tree.last_draws == K
        np.testing.assert_array_equal(tree.noise, K)  # each draw is exactly 1


@pytest.mark.parametrize("T", [1, 5, 8, 64, 100])
def test_prefix_sums_exact_without_noise(T):
    R, d = 3, 4
    losses = np.random.default_rng(0).uniform(size=(T, R, d))
    tree = TreeBasedAgg(T, d, zeros(R, d), R)
    np.testing.assert_array_equal(tree.released, 0.0)
    for t in range(T):
        out = tree.step(losses[t])
        np.testing.assert_allclose(out, losses[: t + 1].sum(axis=0), rtol=0, atol=1e-12)


def test_noise_is_sum_of_node_noise_plus_padding():
    """With distinct draws we can follow exactly which node noise each release uses."""
    R, d, T = 1, 1, 16
    counter = iter(range(1, 10_000))
    node_draw = {}

    def draw(k):
        return np.array([[[float(next(counter))] for _ in range(k)]])

    tree = TreeBasedAgg(T, d, draw, R)
    for t in range(1, T + 1):
        start = tree.draw_count + 1  # id of this step's first draw (the node)
        tree.step(np.zeros(d))
        j0 = (t & -t).bit_length() - 1
        node_draw[(j0, t >> j0)] = start
        pad_ids = range(start + 1, tree.draw_count + 1)
        expected = sum(node_draw[n] for n in prefix_nodes(t)) + sum(pad_ids)
        assert tree.noise[0, 0] == expected
        assert len(prefix_nodes(t)) + len(pad_ids) == tree.K


@pytest.mark.parametrize("T", [1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 100, 1024])
def test_nodes_covering_a_leaf(T):
    """Count, by brute force, the released nodes containing each leaf."""
    released = {n for t in range(1, T + 1) for n in prefix_nodes(t)}
    cover = [sum(1 for (j, m) in released if (m - 1) * 2**j < leaf <= m * 2**j) for leaf in range(1, T + 1)]
    assert max(cover) == nodes_covering_leaf(T) == math.floor(math.log2(T)) + 1
    assert cover[0] == nodes_covering_leaf(T)
    # the paper's ceil(log2 T) undercounts exactly at powers of two (T >= 2)
    if T >= 2:
        assert (nodes_covering_leaf(T) > math.ceil(math.log2(T))) == (T & (T - 1) == 0)
    # every release uses at most K nodes, so padding is never negative
    assert max(len(prefix_nodes(t)) for t in range(1, T + 1)) <= draws_per_release(T)


def test_binary_prefix_set_examples():
    assert binary_prefix_set(7) == [4, 6, 7]
    assert binary_prefix_set(8) == [8]
    assert binary_prefix_set(13) == [8, 12, 13]
    for t in range(1, 200):
        s = binary_prefix_set(t)
        assert s[-1] == t and len(s) == t.bit_count()


def test_tree_noise_uses_own_step_scale():
    R, d, T = 2, 1, 20
    tree = TreeNoise(T, d, ones(R, d), R)
    sig = {}
    for t in range(1, T + 1):
        sig[t] = float(t) ** 2
        g = tree.step(sig[t])
        assert tree.members == binary_prefix_set(t)
        np.testing.assert_array_equal(g, sum(sig[i] for i in binary_prefix_set(t)))
    assert tree.draw_count == T


def test_streams_drive_tree_vectorised():
    R, d, T = 5, 3, 33
    s = ReplicateStreams(7, stable_key("tree"), range(R))
    tree = TreeBasedAgg(T, d, lambda k: s.laplace(2.0, (k, d)), R)
    for _ in range(T):
        out = tree.step(np.ones(d))
    assert out.shape == (R, d)
    assert np.all(np.isfinite(out))


def test_bad_arguments_name_the_key():
    with pytest.raises(ValueError, match="T"):
        TreeBasedAgg(0, 1, zeros(1, 1), 1)
    with pytest.raises(ValueError, match="d"):
        TreeBasedAgg(4, 0, zeros(1, 1), 1)
    tree = TreeBasedAgg(1, 1, zeros(1, 1), 1)
    tree.step(np.zeros(1))
    with pytest.raises(ValueError, match="T=1"):
        tree.step(np.zeros(1))
    with pytest.raises(ValueError, match="sigma_t"):
        TreeNoise(4, 1, zeros(1, 1), 1).step(-1.0)


def test_unpadded_tree_is_jain_private_sum():
    T, R, d = 20, 1, 1
    tree = TreeBasedAgg(T, d, ones(R, d), R, pad=False)
    assert tree.last_draws == 0
    for t in range(1, T + 1):
        tree.step(np.zeros(d))
        assert tree.last_draws == t.bit_count() == tree.noise[0, 0]


@pytest.mark.parametrize("T", [1, 6, 8, 13])
def test_releases_are_node_map_applied_to_node_transcript(T):
    from dpregret.core.tree import prefix_node_matrix
    R, d = 3, 2
    s = ReplicateStreams(3, stable_key("map"), range(R))
    tree = TreeBasedAgg(T, d, lambda k: s.laplace(1.5, (k, d)), R)
    losses = np.random.default_rng(T).uniform(size=(T, R, d))
    M, nodes = prefix_node_matrix(T)
    values, releases = [], []
    for t in range(T):
        tree.step(losses[t])
        assert tree.last_node[0] == nodes[t]
        values.append(tree.last_node[1])
        releases.append(tree.released - tree.padding)
    np.testing.assert_allclose(np.einsum("tk,krd->trd", M, np.array(values)), np.array(releases), atol=1e-12)


@pytest.mark.parametrize("T", [1, 2, 37, 64, 513])
def test_tree_releases_in_blocks_equal_the_streaming_class(T):
    """TreeReleases (blocks of steps) releases what TreeBasedAgg releases step by step on the
    same draws, to rounding, whatever the block edges; and the prefix-sum classes' block()
    methods equal their step() paths (ExactSum and FreshNoise exactly)."""
    from dpregret.papers.as17.prefix_sums import ExactSum, FreshNoise, TreeSum, scaled_draws
    from dpregret.core.rng import ReplicateStreams, stable_key
    from dpregret.core.tree import TreeReleases
    d, reps, scales = 3, [0, 4], [1.0, 2.5]
    B = len(reps) * len(scales)
    losses = np.random.default_rng(T).normal(size=(B, T, d))

    def draw(role):
        return scaled_draws(ReplicateStreams(2, stable_key(T, role), reps), scales, d)
    edges = sorted({0, T, *[e for e in (1, 5, T // 3, T // 2 + 1) if 0 < e < T]})
    for name, make in (("tree", lambda: TreeSum(T, B, d, draw("t"))), ("exact", lambda: ExactSum(B, d)),
                       ("fresh", lambda: FreshNoise(B, d, draw("f")))):
        ref, fast = make(), make()
        want = []
        for t in range(T):
            want.append(ref.estimate.copy())
            ref.step(losses[:, t])
        got = np.concatenate([fast.block(losses[:, a:b]) for a, b in zip(edges[:-1], edges[1:])], axis=1)
        want = np.stack(want, axis=1)
        if name == "tree":
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        else:
            np.testing.assert_array_equal(got, want)
    # a TreeReleases built on its own draws the initial release's K draws first, as the class does
    a = TreeReleases(T, d, draw("t"), B)
    b = TreeSum(T, B, d, draw("t"))
    np.testing.assert_array_equal(a.noise, b.tree.noise)
