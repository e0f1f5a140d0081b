"""The compiled paths of Agarwal and Singh's simulations against plain references, bit for bit: the
pulled-noise EXP2 rounds (``exp2_jit.exp2_block_pulled``: losses read through the arm labels, the rows
of a replicate side by side) and the compiled standard Laplace draws (``draws_jit.laplace``)."""
import numpy as np
import pytest

from dpregret.core.rng import ReplicateStreams, stable_key


def _pulled_reference(logq, eta, gamma, lam, L, z, U, suffered):
    """exp2_block_pulled's rounds one row at a time, on losses already in the replicate's arm labels
    (the kernel as it was before it read them through ``perm``), in plain Python."""
    import math
    B, N = logq.shape
    R, tb = L.shape[0], L.shape[1]
    for b in range(B):
        r, g, et, lm = b % R, gamma[b], eta[b], lam[b]
        w = [math.exp(v) for v in logq[b]]
        for s in range(tb):
            tot = 0.0
            for j in range(N):
                tot += w[j]
            if not (1e-100 < tot < 1e100):
                logq[b] -= logq[b].max()
                w = [math.exp(v) for v in logq[b]]
                tot = 0.0
                for j in range(N):
                    tot += w[j]
            a, c0 = (1.0 - g) / tot, g / N
            loss = csum = 0.0
            for j in range(N):
                pj = a * w[j] + c0
                loss += pj * L[r, s, j]
                csum += pj
            target, arm, c = U[r, s] * csum, N - 1, 0.0
            for j in range(N):
                c += a * w[j] + c0
                if not c < target:
                    arm = j
                    break
            suffered[b] += loss
            logq[b, arm] -= et * ((L[r, s, arm] + lm * z[r, s]) / (a * w[arm] + c0))
            w[arm] = math.exp(logq[b, arm])


@pytest.mark.parametrize("N,K", [(2, 5), (7, 3)])
def test_pulled_kernel_reads_the_arm_labels_and_gives_the_plain_rounds_bits(N, K):
    """exp2_block_pulled on the sequence's 0/1 losses (uint8) read through ``perm`` (the rows of a replicate
    side by side, the arm counted) gives the bits of the plain rounds on the relabelled float losses,
    through a re-base of the weights (large eta)."""
    from dpregret.papers.as17.exp2_jit import exp2_block_pulled
    rng = np.random.default_rng(11)
    R, T = 3, 600
    B = K * R
    eta = np.repeat(np.linspace(0.01, 3.0, K), R)
    gam, lam = np.repeat(np.linspace(0.0, 0.3, K), R), np.repeat(np.linspace(0.0, 2.0, K), R)
    Lb = (rng.random((R, T, N)) < 0.4).view(np.uint8)
    perm = np.argsort(rng.random((R, N)), axis=1)
    Lp = np.take_along_axis(Lb.astype(float), perm[:, None, :], axis=2)
    z, U = rng.laplace(size=(R, T)), rng.random((R, T))
    lq, suf = np.full((B, N), -np.log(N)), np.zeros(B)
    lq_ref, suf_ref = lq.copy(), suf.copy()
    exp2_block_pulled(lq, eta, gam, lam, Lb, perm, z, U, suf)
    _pulled_reference(lq_ref, eta, gam, lam, Lp, z, U, suf_ref)
    assert np.array_equal(suf, suf_ref) and np.array_equal(lq, lq_ref)
    assert np.abs(lq).max() > 1.0  # the weights moved


def test_compiled_laplace_draws_are_the_streams_own():
    """papers.as17.draws_jit.laplace serves the bits of ReplicateStreams.laplace(1.0, shape), request by request
    (buffered and large requests, any shape), and consumes the same uniforms."""
    from dpregret.papers.as17.draws_jit import laplace
    a, b = (ReplicateStreams(3, stable_key("draws-jit"), range(2, 7)) for _ in range(2))
    for shape in [(3,), (5, 4), (9000, 3), (1,), (7, 2), (20000,), ()]:
        x, y = a.laplace(1.0, shape), laplace(b, shape)
        assert x.shape == y.shape and np.array_equal(x, y) and y.flags.c_contiguous
    assert a.consumed == b.consumed
