"""Where Agarwal and Singh's runs are written: the point files of each scenario's grids, in the order
the folder's rules (``rules.smk``) list and merge them, and the points one simulate job writes.

The grids come from the config's parameters of each scenario (``p``; an empty dict: the scenario is
not run); ``chunks(grid)`` gives the replicate chunks (``"lo-hi"``) of a grid, which may declare its
own replicate count (key ``replicates_<grid>``; ``chunks(None)``: the scenario's ``replicates``).
The scenario modules' ``simulate_job`` parse the point back from these names (the same formats).
"""
from __future__ import annotations

from typing import Callable

Chunks = Callable[[str | None], list[str]]


def grid_points(p: dict) -> list[tuple[str, int, int]]:
    """(grid, N, T) simulation points: the T grid at N, and the N grid at T_N."""
    return [("T", p["N"], T) for T in p["T"]] + [("N", N, p["T_N"]) for N in p.get("N_grid", [])]


def experts_files(p: dict, chunks: Chunks) -> list[str]:
    """as17_experts: a file per (sequence, T, chunk); one job writes every T of one sequence and chunk."""
    return [f"results/as17/experts/{env}/T{T}/chunk{c}.parquet"
            for env in p.get("envs", []) for T in p.get("T", []) for c in (chunks(None) if p else [])]


def olo_points(p: dict) -> dict[str, list[str]]:
    """as17_olo: the points of one (row, env) job of the T grid and of the N grid."""
    if not p:
        return {"T": [], "N": []}
    return {"T": [f"T_N{p['N']}_T{T}" for T in p["T"]], "N": [f"N_N{N}_T{p['T_N']}" for N in p.get("N_grid", [])]}


def olo_env_points(p: dict) -> list[tuple[str, str]]:
    """as17_olo: the (row, point) one job writes for one sequence: every row's T grid, then the N grid of
    the FTRL rows (FTPL runs the T grid only), as :func:`olo_files` lists them."""
    pts = olo_points(p)
    return [(row, pt) for row in p.get("rows", []) for pt in pts["T"] + (pts["N"] if row != "ftpl" else [])]


def olo_regret_points(p: dict) -> list[tuple[str, str]]:
    """as17_olo's grid R (Algorithm 1's regret rates on the sequences of ``regret_mu``): the (row, point)
    one job writes for one sequence, every FTRL row and T."""
    return [(row, f"R_N{p['N']}_T{T}") for row in p.get("rows", []) if row != "ftpl" for T in p.get("T", [])]


def olo_files(p: dict, chunks: Chunks) -> list[str]:
    """as17_olo: every point file (the T and N grids per row and sequence, FTPL's T grid only; then grid R)."""
    if not p:
        return []
    return [
        f"results/as17/olo/{row}/{env}/{g}_N{N}_T{T}/chunk{c}.parquet"
        for row in p.get("rows", []) for env in p.get("envs", [])
        for g, N, T in (grid_points(p) if row != "ftpl" else [("T", p["N"], T) for T in p["T"]])
        for c in chunks(None)
    ] + [
        f"results/as17/olo/{row}/{env}/R_N{p['N']}_T{T}/chunk{c}.parquet"
        for env in p.get("regret_mu", {}) if env in p.get("envs", [])
        for row in p.get("rows", []) if row != "ftpl" for T in p["T"]
        for c in chunks(None)
    ]


def mab_points(p: dict) -> dict[str, list[str]]:
    """as17_mab: the points ``N<N>_T<T>`` of one job of each grid (T, N, the eps window)."""
    if not p:
        return {}
    return {g: [f"N{N}_T{T}" for gg, N, T in grid_points(p) + [("eps", p["N"], p["T_eps"])] if gg == g]
            for g in ("T", "N", "eps")}


def mab_bound_points(p: dict) -> list[str]:
    """as17_mab: Theorem 4.1's bound grid on the signed sequence, one job per chunk."""
    return [f"bound_N{p['bound_grid']['N']}_T{T}" for T in (p.get("bound_grid", {}).get("T", []) if p else [])]


def mab_files(p: dict, chunks: Chunks) -> list[str]:
    """as17_mab: the T grid on every sequence of ``envs``; the N grid and the eps window on the stochastic
    sequence; Theorem 4.1's bound grid on the signed sequence."""
    if not p:
        return []
    return [
        f"results/as17/mab/{env}/{g}_N{N}_T{T}/chunk{c}.parquet"
        for g, N, T in grid_points(p) + [("eps", p["N"], p["T_eps"])]
        for env in (p.get("envs", ["stochastic"]) if g == "T" else ["stochastic"]) for c in chunks(g)
    ] + [f"results/as17/mab/signed/{pt}/chunk{c}.parquet" for pt in mab_bound_points(p) for c in chunks(None)]


def blo_T(p: dict, env: str) -> list[int]:
    """as17_blo: the T grid of a sequence (``T_<env>``, default ``T``)."""
    return p.get(f"T_{env}", p["T"]) if p else []


def blo_files(p: dict, chunks: Chunks) -> list[str]:
    """as17_blo: the T grid of each (domain, sequence), chunked by the sequence's replicate count, and
    the eps window on ``eps_envs`` (default every sequence), chunked by ``replicates_eps``."""
    if not p:
        return []
    return [
        f"results/as17/blo/{dom}/{env}/{g}_T{T}/chunk{c}.parquet"
        for dom in p.get("domains", []) for env in p.get("envs", [])
        for g, T, key in ([("T", T, env) for T in blo_T(p, env)]
                          + ([("eps", p["T_eps"], "eps")] if env in p.get("eps_envs", p["envs"]) else []))
        for c in chunks(key)
    ]
