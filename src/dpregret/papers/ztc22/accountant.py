"""Zhang, Tran, Cutkosky, Theorem 3, in the report's independent accountant (``dpregret.pipeline.report.accountant``):
Algorithm 1 is ``(alpha, alpha rho^2/2)``-RDP, i.e. its Gaussian noises compose to rho-GDP (a record's nodes of
the tree share the budget), at every rho of the ztc22 configuration.  Ours: the RDP conversion
``rho^2/2 + rho sqrt(2 ln(1/delta))`` (:func:`dpregret.core.accounting.zcdp_to_dp_optimal`); PLD: one Gaussian
event of noise multiplier ``1/rho``.  Also the conversion erratum: the printed ``(2 rho sqrt(ln(1/delta)), delta)``
at rho = 10, delta = 0.5, where the PLD delta at that epsilon is close to 1."""
from __future__ import annotations

DELTAS = (1e-5, 1e-3)
# rho levels above this are not privacy levels (Theorem 6's rate at rho_opt_rate = 1e4 tests the near
# non-private regime: eps in the hundreds), and the PLD accountant's grid overflows there
RHO_MAX = 100.0


def _rhos(ztc: dict) -> list[float]:
    out = set()
    for k, v in ztc.items():
        if k.startswith("rho"):
            out |= {float(x) for x in (v if isinstance(v, list) else [v]) if float(x) <= RHO_MAX}
    return sorted(out)


def rows(run: dict) -> list[dict]:
    """One row per (rho, delta) of the run's ztc22 parameters, and the erratum's row."""
    from dpregret.core.accounting import pld_delta, pld_epsilon, zcdp_to_dp, zcdp_to_dp_optimal

    if "ztc22" not in run.get("scenarios", []):
        return []
    out = []
    for rho in _rhos(run["ztc22"]):
        for delta in DELTAS:
            out.append({"paper": "Zhang, Tran, Cutkosky 2022", "where": "Theorem 3 (Algorithm 1, rho-GDP)",
                        "level": f"rho = {rho:g}", "delta": delta, "eps_ours": zcdp_to_dp_optimal(rho, delta)[0],
                        "eps_pld": pld_epsilon(1.0 / rho, delta)})
    printed = zcdp_to_dp(10.0, 0.5)
    out.append({"paper": "Zhang, Tran, Cutkosky 2022", "where": "the printed conversion (erratum)",
                "level": "rho = 10", "delta": 0.5, "eps_ours": printed, "eps_pld": pld_epsilon(0.1, 0.5),
                "note": f"at the printed eps {printed:.4g} the PLD delta is {pld_delta(0.1, printed):.4f}, not 0.5"})
    return out
