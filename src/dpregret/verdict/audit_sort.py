"""A sort of the audits' score samples that gives ``numpy.sort``'s bits, faster (:func:`sort_scores`).

The audits (:mod:`dpregret.verdict.audit`) sort the selection half of every score column, 10^5 to 10^6
values, several times per cell.  Under the pinned arithmetic (:mod:`dpregret.core.cpu`) NumPy's sort
runs its baseline introsort (the SIMD sorts are among the dispatched kernels the pin turns off), ~40 ms
per 5 x 10^5 values.  Sorting is exact: the sorted array of the same values is the same whatever the
algorithm, except for the order of values that compare equal with different bits, which for finite
floats (the scores are checked finite) are only -0.0 and +0.0.  :func:`sort_scores` sorts by a least
significant digit radix sort of the IEEE bit patterns (compiled, O(n)), which orders -0.0 before +0.0;
where both occur in the sample, NumPy's own order of them could differ, so it returns ``numpy.sort``'s
result there.  Otherwise the result is ``numpy.sort``'s, bit for bit."""
from __future__ import annotations

import numpy as np
from numba import njit

_BITS = 8  # radix digit: 256 buckets, eight passes over 64 bits (measured fastest of 8, 11 and 16 bits)
_MIN_SIZE = 4096  # below this, numpy.sort (a compiled call costs more than it saves)


@njit(cache=True)
def _radix_sort_bits(x: np.ndarray, out: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Sort the finite float64 ``x`` into ``out`` by their bit patterns mapped to order-preserving
    unsigned keys (negative: all bits flipped; otherwise the sign bit set), least significant 8-bit
    digit first, a pass skipped where every key has the same digit.  Returns False where ``x`` holds
    both -0.0 and +0.0 (``out`` is then not to be used)."""
    n = x.size
    bits = x.view(np.uint64)
    sign = np.uint64(1) << np.uint64(63)
    neg_zero, pos_zero = False, False
    keys = np.empty(n, dtype=np.uint64)
    for i in range(n):
        b = bits[i]
        if b & sign:
            keys[i] = ~b
            if b == sign:
                neg_zero = True
        else:
            keys[i] = b | sign
            if b == 0:
                pos_zero = True
    if neg_zero and pos_zero:
        return False
    passes = (64 + _BITS - 1) // _BITS
    mask = np.uint64((1 << _BITS) - 1)
    counts = np.zeros((passes, 1 << _BITS), dtype=np.int64)
    for i in range(n):
        k = keys[i]
        for p in range(passes):
            counts[p, (k >> np.uint64(p * _BITS)) & mask] += 1
    tmp = np.empty(n, dtype=np.uint64)
    src, dst = keys, tmp
    for p in range(passes):
        c = counts[p]
        if c.max() == n:  # every key has the same digit here: the pass would move nothing
            continue
        pos = np.empty(1 << _BITS, dtype=np.int64)
        total = 0
        for j in range(1 << _BITS):
            pos[j] = total
            total += c[j]
        shift = np.uint64(p * _BITS)
        for i in range(n):
            k = src[i]
            d = (k >> shift) & mask
            dst[pos[d]] = k
            pos[d] += 1
        src, dst = dst, src
    ob = out.view(np.uint64)
    for i in range(n):
        k = src[i]
        ob[i] = (k ^ sign) if k & sign else ~k
    return True


def sort_scores(x: np.ndarray) -> np.ndarray:
    """``numpy.sort(x)`` of a 1-D float64 array of finite values, the same bits (module docstring)."""
    x = np.ascontiguousarray(x, dtype=float)
    if x.ndim != 1 or x.size < _MIN_SIZE:
        return np.sort(x)
    out = np.empty_like(x)
    return out if _radix_sort_bits(x, out) else np.sort(x)
