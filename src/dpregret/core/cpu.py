"""Pinned arithmetic: the same bits from the same inputs on every x86-64 machine.

Four parts of the numerical stack choose their code by the CPU they find, and each choice can move
the last bit of a result (one moved bit flips a sampled point and a trajectory diverges):

- NumPy dispatches exp, log, power and its reductions to SIMD kernels per CPU feature group
  (X86_V3 = AVX2/FMA, X86_V4 and AVX512_* above its wheel's X86_V2 baseline), chosen when NumPy
  is imported.  Pinned: ``NPY_DISABLE_CPU_FEATURES`` names every dispatched group, so NumPy runs
  its baseline kernels everywhere.
- glibc's libm picks FMA variants of exp, log, pow, sin, ... on CPUs with FMA and AVX2 (an IFUNC
  resolved when the process starts; NumPy's baseline calls libm).  Pinned: ``GLIBC_TUNABLES``
  masks AVX, AVX2, FMA and FMA4 from glibc's view.  Read only when a process starts, so this pin
  holds in processes started with :func:`pinned_env` (every workflow job, the tests, the
  ``dpregret`` command), not in a Python session that imported dpregret later.
- numba compiles for the host CPU with LLVM.  Pinned: ``NUMBA_CPU_NAME=generic`` (x86-64 baseline,
  no FMA, so no contraction; the same machine code on every host, fastmath included) and no SVML.
- OpenBLAS chooses its kernels per CPU and threads its reductions.  Pinned:
  ``OPENBLAS_CORETYPE=Nehalem`` (SSE4.2 kernels, every x86-64-v2 CPU) and one thread (OpenMP and
  MKL too).

What the pins cannot reach: the versions themselves (NumPy, numba/LLVM, OpenBLAS, glibc's libm).
``config/constraints.txt`` fixes the Python packages; glibc comes with the operating system, and
its exp/log/pow have been the same code since glibc 2.28, but a different glibc may round a libm
call differently.  :func:`state` records all of it in the provenance of every result.

``DPREGRET_PIN_CPU=0`` switches the pins off (to measure what they cost, and in the test that shows
the pins are needed); everything else pins by default.
"""
from __future__ import annotations

import os
import platform
import sys
import warnings
from functools import lru_cache

SWITCH = "DPREGRET_PIN_CPU"
# NumPy >= 2.4's names of the feature groups it dispatches above its x86-64 baseline (X86_V2)
NUMPY_DISPATCHED = ("X86_V3", "X86_V4", "AVX512_ICL", "AVX512_SPR")
GLIBC_HWCAPS = "glibc.cpu.hwcaps=-AVX,-AVX2,-FMA,-FMA4"
PINS = {
    "NPY_DISABLE_CPU_FEATURES": " ".join(NUMPY_DISPATCHED),
    "NUMBA_CPU_NAME": "generic",
    "NUMBA_DISABLE_INTEL_SVML": "1",
    "OPENBLAS_CORETYPE": "Nehalem",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def enabled(environ=None) -> bool:
    """Whether the pins apply (everywhere but where ``DPREGRET_PIN_CPU=0``)."""
    return (environ if environ is not None else os.environ).get(SWITCH, "1") != "0"


def is_x86_64() -> bool:
    return platform.machine().lower() in ("x86_64", "amd64")


def _tunables(current: str | None) -> str:
    """``GLIBC_TUNABLES`` with the hwcaps mask, other tunables kept."""
    parts = [p for p in (current or "").split(":") if p and not p.startswith("glibc.cpu.hwcaps=")]
    return ":".join(parts + [GLIBC_HWCAPS])


def pinned_env(environ=None) -> dict:
    """A copy of ``environ`` (default: this process's) with the pins set, for a process to start."""
    env = dict(os.environ if environ is None else environ)
    if enabled(env) and is_x86_64():
        env.update(PINS)
        env["GLIBC_TUNABLES"] = _tunables(env.get("GLIBC_TUNABLES"))
    return env


def libm_pinned() -> bool:
    """Whether this process started with glibc's hwcaps mask (it cannot be set later)."""
    return GLIBC_HWCAPS in os.environ.get("GLIBC_TUNABLES", "").split(":")


def apply() -> None:
    """Pin this process where it still can: the NumPy, numba and BLAS variables are read when those
    libraries load, so they take effect if dpregret is imported first.  Warns when NumPy was imported
    before the pins (its kernels are then the host's: results may differ on another CPU)."""
    if not enabled() or not is_x86_64():
        return
    numpy_first = "numpy" in sys.modules
    for key, value in PINS.items():
        os.environ[key] = value
    if numpy_first and numpy_kernels():
        warnings.warn("numpy was imported before dpregret, with its CPU-specific kernels "
                      f"({', '.join(numpy_kernels())}): results may differ in their last bits on another CPU. "
                      "Import dpregret first, or run the `dpregret` command or the workflow, which pin them.",
                      RuntimeWarning, stacklevel=3)


def reexec_pinned() -> None:
    """Restart this process with :func:`pinned_env` if it did not start with it (glibc's libm is
    pinned only at start).  For entry points dpregret owns (the ``dpregret`` command, the tests'
    plugin), never on import."""
    if not enabled() or not is_x86_64() or libm_pinned():
        return
    env = pinned_env()
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, list(sys.orig_argv), env)


def numpy_kernels() -> list[str]:
    """NumPy's dispatched feature groups that are on in this process ([] when pinned)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]


@lru_cache(maxsize=1)
def machine() -> dict:
    """The CPU's model name (/proc/cpuinfo) and the x86-64 level its features reach, as NumPy's own
    CPU detection sees them (what an emulator presents, too)."""
    from numpy._core._multiarray_umath import __cpu_features__ as have

    model = None
    try:
        with open("/proc/cpuinfo") as fh:
            model = next((line.partition(":")[2].strip() for line in fh if line.startswith("model name")), None)
    except OSError:
        pass
    level = None
    if is_x86_64():
        level = "x86-64"
        if all(have.get(f) for f in ("SSE42", "POPCNT", "SSSE3")):
            level = "x86-64-v2"
            if all(have.get(f) for f in ("AVX2", "FMA3", "BMI2")):
                level = "x86-64-v3"
                if all(have.get(f) for f in ("AVX512F", "AVX512_SKX")):
                    level = "x86-64-v4"
    return {"model": model, "machine": platform.machine(), "host_level": level}


def _blas_core() -> str | None:
    """The kernel set OpenBLAS chose in this process (NumPy's bundled OpenBLAS), if it can be asked."""
    import ctypes
    import glob

    import numpy as np

    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs", "libscipy_openblas*.so"))
    for path in libs:
        lib = ctypes.CDLL(path)
        for name in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn.restype = ctypes.c_char_p
                return fn().decode()
    return None


def state() -> dict:
    """What this process runs on and which pins are in effect (for the provenance of a result)."""
    import numba
    import numpy as np

    try:
        blas = np.__config__.CONFIG["Build Dependencies"]["blas"]
        blas = f"{blas.get('name')} {blas.get('version')}"
    except (AttributeError, KeyError, TypeError):
        blas = None
    try:
        core = _blas_core()
    except OSError:
        core = None
    libc = platform.libc_ver()
    kernels = numpy_kernels()
    return {
        "pinned": enabled() and is_x86_64() and not kernels and libm_pinned()
        and numba.config.CPU_NAME == PINS["NUMBA_CPU_NAME"],
        "cpu": machine(),
        "numpy": {"baseline": list(np._core._multiarray_umath.__cpu_baseline__), "dispatched_on": kernels,
                  "NPY_DISABLE_CPU_FEATURES": os.environ.get("NPY_DISABLE_CPU_FEATURES")},
        "libm": {"libc": " ".join(libc) if libc[0] else None, "GLIBC_TUNABLES": os.environ.get("GLIBC_TUNABLES"),
                 "fma_variants_masked": libm_pinned()},
        "numba": {"cpu_name": numba.config.CPU_NAME or "host", "cpu_features": numba.config.CPU_FEATURES or None,
                  "svml": not numba.config.DISABLE_INTEL_SVML},
        "blas": {"library": blas, "core": core, "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
                 "threads": os.environ.get("OPENBLAS_NUM_THREADS")},
    }


def require_pinned(what: str = "this job") -> None:
    """Stop ``what`` before it computes anything if the pins should hold and do not (a job started
    by something other than the workflow, say), naming what is not pinned."""
    if not enabled() or not is_x86_64():
        return
    s = state()
    if s["pinned"]:
        return
    missing = []
    if s["numpy"]["dispatched_on"]:
        missing.append(f"NumPy's kernels {s['numpy']['dispatched_on']} are on")
    if not s["libm"]["fma_variants_masked"]:
        missing.append("glibc's libm was not started with GLIBC_TUNABLES=" + GLIBC_HWCAPS)
    if s["numba"]["cpu_name"] != PINS["NUMBA_CPU_NAME"]:
        missing.append(f"numba targets {s['numba']['cpu_name']!r}")
    raise RuntimeError(f"{what} runs without the pinned arithmetic (dpregret.core.cpu): {'; '.join(missing)}. "
                       "Start it from the workflow (snakemake) or the dpregret command, which pin it, "
                       f"or set {SWITCH}=0 to run unpinned (results may then differ on another CPU).")
