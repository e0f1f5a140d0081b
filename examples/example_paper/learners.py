"""Hedge, the exponentially weighted average forecaster (Cesa-Bianchi and Lugosi 2006, section 2.1),
on linear losses, vectorised over replicates."""
import numpy as np


def eta_thm_2_2(N: int, T: int) -> float:
    """Theorem 2.2's learning rate, eta = sqrt(8 ln N / T)."""
    return float(np.sqrt(8.0 * np.log(N) / T))


def hedge_losses(losses: np.ndarray, eta: float) -> np.ndarray:
    """The forecaster's loss <p_t, l_t> per replicate and round, ``losses`` of shape (R, T, N):
    p_t proportional to exp(-eta L_{t-1}), L_{t-1} the experts' cumulative losses before round t.
    ``eta = 0`` is the uniform forecaster (the non-learner)."""
    before = np.cumsum(losses, axis=1) - losses
    w = -eta * before
    w = np.exp(w - w.max(axis=2, keepdims=True))
    p = w / w.sum(axis=2, keepdims=True)
    return (p * losses).sum(axis=2)
