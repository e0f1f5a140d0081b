"""Theorem 2.2 of Cesa-Bianchi and Lugosi (2006): with eta = sqrt(8 ln N / T) and losses in [0, 1],
the exponentially weighted forecaster's regret after T rounds is at most sqrt((T / 2) ln N)."""
import math


def bound_thm_2_2(N: int, T: int) -> float:
    """sqrt((T / 2) ln N)  (Theorem 2.2)."""
    return math.sqrt(T / 2.0 * math.log(N))
