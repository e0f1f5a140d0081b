"""numpy's pairwise summation, compiled (numba): the reductions of the compiled rounds round as
numpy's ``np.sum`` / ``np.linalg.norm`` do (8 accumulators, blocks of 128; numpy/_core/src/umath/
loops_utils.h.src).  Shared by the compiled rounds of Agarwal-Singh's experts
(:mod:`dpregret.papers.as17.experts_jit`: the softmax normaliser) and of Zhang-Tran-Cutkosky's
Algorithm 1 (:mod:`dpregret.papers.ztc22.o2b_jit`)."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def pairwise_base(a, lo, n):
    """numpy's pairwise sum of ``a[lo:lo+n]`` for n <= 128 (numpy/_core/src/umath/loops_utils.h.src)."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[lo + i]
        return res
    r0 = a[lo]
    r1 = a[lo + 1]
    r2 = a[lo + 2]
    r3 = a[lo + 3]
    r4 = a[lo + 4]
    r5 = a[lo + 5]
    r6 = a[lo + 6]
    r7 = a[lo + 7]
    m = n - (n % 8)
    i = 8
    while i < m:
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@njit(cache=True)
def pairwise_sum(a, lo, n):
    """numpy's pairwise sum of ``a[lo:lo+n]``: blocks of at most 128 combined as numpy splits
    them (n2 = n/2 rounded down to a multiple of 8), without recursion (numba's cache cannot
    reload recursive functions)."""
    if n <= 128:
        return pairwise_base(a, lo, n)
    los = np.empty(128, np.int64)
    ns = np.empty(128, np.int64)
    st = np.zeros(128, np.int64)
    vals = np.empty(128)
    sp, vp = 0, 0
    los[0], ns[0], st[0] = lo, n, 0
    while sp >= 0:
        cl, cn = los[sp], ns[sp]
        if cn <= 128:
            vals[vp] = pairwise_base(a, cl, cn)
            vp += 1
            sp -= 1
        elif st[sp] == 0:
            st[sp] = 1
            n2 = cn // 2
            n2 -= n2 % 8
            los[sp + 1], ns[sp + 1], st[sp + 1] = cl + n2, cn - n2, 0  # right, evaluated second
            los[sp + 2], ns[sp + 2], st[sp + 2] = cl, n2, 0  # left, evaluated first
            sp += 2
        else:
            vals[vp - 2] = vals[vp - 2] + vals[vp - 1]
            vp -= 1
            sp -= 1
    return vals[0]
