"""The plain per-step references of ``benchmarks/bench_kernels.py`` are the same algorithms as
the vectorised kernels: on the same seed and draws they give the same numbers (allclose 1e-12).
No timing assertions: the smoke run is only checked to finish."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_kernels as B  # noqa: E402

# (kernel, T, R): T crosses several powers of two (tree levels, padding) where it matters
CASES = [
    ("exp2", 70, 3),
    ("ftrl", 70, 3),
    ("treeagg", 70, 3),
    ("treenoise", 70, 3),
    ("vdh1", 40, 3),
    ("vdh3", 12, 2),
    ("o2b", 70, 3),
    ("pbandit", 70, 3),  # 9 rounds of 8 steps (the last shorter)
    ("pbandit_jit", 70, 3),  # the same run, compiled rounds
    ("exp2_jit", 70, 3),
    ("scrible", 70, 3),
    ("scrible_jit", 70, 3),
    ("ftrl_jit", 70, 3),
    ("o2b_mm_jit", 70, 3),
]


@pytest.mark.parametrize("name,T,R", CASES, ids=[c[0] for c in CASES])
def test_reference_equals_kernel(name, T, R):
    _, kernel, reference, _, _ = B.KERNELS[name]
    out, streams = kernel(T, R)
    ref = reference(T, range(R))
    assert out.shape == ref.shape and out.shape[0] == R
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12)
    assert all(s.consumed > 0 for s in streams)


def test_reference_is_per_replicate():
    """Replicate r of the reference alone = row r of the kernel run with more replicates
    (streams are per replicate, so the comparison in the benchmark is meaningful at any R)."""
    out, _ = B.kernel_treeagg(33, 4)
    np.testing.assert_allclose(out[2:3], B.reference_treeagg(33, [2]), rtol=1e-12, atol=1e-12)


def test_random_number_time_counts_whole_blocks():
    out, streams = B.kernel_treenoise(20, 2)
    assert streams[0].consumed == 20 * B.TREE_D
    assert B.random_number_time(streams) > 0


def test_smoke_run():
    r = subprocess.run([sys.executable, str(BENCH / "bench_kernels.py"), "--smoke"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    for label, *_ in B.KERNELS.values():
        assert label in r.stdout
    assert "False" not in r.stdout


def test_peer_smoke_run_without_or_with_the_peer():
    """bench_peer.py --smoke finishes; our row is always printed, the peer's when importable."""
    r = subprocess.run([sys.executable, str(BENCH / "bench_peer.py"), "--smoke"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ours: Exp2" in r.stdout
    assert ("peer: SMPyBandits" in r.stdout) or ("not importable" in r.stdout and "pip install SMPyBandits" in r.stdout)


@pytest.mark.slow  # bench_scaling.py --smoke in a subprocess: python -m pytest -m slow
def test_scaling_smoke_run():
    """bench_scaling.py --smoke runs every scenario and prints its exponents (no assertions on them)."""
    r = subprocess.run([sys.executable, str(BENCH / "bench_scaling.py"), "--smoke"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    for name in ("as17_experts", "as17_olo", "as17_bandits", "as17_blo", "ztc22", "env21", "vdh19"):
        assert name in r.stdout
