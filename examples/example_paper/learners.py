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


class Hedge:
    """Hedge as a learner of the experts setting (``dpregret.core.protocols``: ``predict()`` the (R, N) weights,
    ``update(losses)`` the round's (R, N) losses), played round by round: the paper's learner on the door."""

    def __init__(self, R: int, N: int, eta: float):
        self.eta, self.cum = float(eta), np.zeros((R, N))

    def predict(self) -> np.ndarray:
        w = -self.eta * self.cum
        w = np.exp(w - w.max(axis=1, keepdims=True))
        return w / w.sum(axis=1, keepdims=True)

    def update(self, losses: np.ndarray) -> None:
        self.cum += losses


def hedge_thm_2_2(R: int, N: int, T: int) -> Hedge:
    """``make(R, N, T)`` of the experts setting: Hedge at Theorem 2.2's eta."""
    return Hedge(R, N, eta_thm_2_2(N, T))
