"""Zhang, Tran, Cutkosky (NeurIPS 2022): every claim's statement (:class:`~dpregret.verdict.core.Claim`), the
declarations the checks of :mod:`.claims` and :mod:`.claims_linear` decide (their rate claims' specs,
:class:`~dpregret.verdict.spec.ClaimSpec`, read these)."""
from __future__ import annotations

from dataclasses import replace

from dpregret.verdict.core import Claim, claim_factory

PAPER = "ZTC22"  # dpregret.papers


_c = claim_factory(PAPER)


CLAIMS = {
    "ZTC-thm3-sensitivity": Claim(
        "ZTC-thm3-sensitivity", PAPER, "Theorem 3 (eq. (6), Appendix B)", "exact",
        "at every step of every run, ||delta_t - delta'_t|| for replacement samples z'_t (extreme points of the "
        "support) stays within the sensitivity Delta_t that eq. (6) calibrates sigma_t for: least squares and logistic "
        "regression (k), and a linear loss with antipodal replacements at k_sens = 3, where the ratio reaches "
        "(t^3 - (t-1)^3)/(4 t^2) -> 3/4 (the tightest eq. (6) can be: its G term is (k+1)/k times what one record "
        "moves, 2x at k = 1)",
        "max_t ||delta_t - delta'_t|| / Delta_t",
        "Delta_t / 2 (eq. (6) without its factor 2: half the noise)",
        secondary="Delta_t without the smoothness term H (G only); Delta_t without the Lipschitz term G (H only: no "
                  "noise at t = 1)"),
    "ZTC-thm4-bound": _c(
        "ZTC-thm4-bound", "Theorem 4 with Remark 5's OGD", "bound",
        "E[L(x_T) - L(x*)] <= (k+1) E[Regret_T]/T^(k+1) + 2(k+1)^2 D/sqrt(lambda) ((sigma_G + D sigma_H)/sqrt(T) "
        "+ sqrt(2V)(G+DH) log2(2T)/(rho T)), with E[Regret_T] <= (3/2) D sqrt(sum_t Ghat_t^2) (the OGD's own bound, "
        "Ghat_t^2 from Theorem 4's second part), at every non-vacuous point: every member c of the family of "
        "G-Lipschitz stochastic linear losses (sigma_G = G - c, its own; x* on the boundary; T_lin_priv at rho_lin and "
        "T_lin_stat at rho_stat: measured = the worst member's ratio), logistic regression on wdbc (every T, both rho) "
        "and the location problem (every sigma_G); a point whose bound is at or above L(x_0) - L* (the suboptimality "
        "of the learners' start x_0 = 0, which the learner frozen there attains) is vacuous and decides nothing",
        "suboptimality - bound",
        "Algorithm 1 with sigma_t doubled (the family's points at rho_lin, the location points)"),
    "ZTC-rem5-rate-T-stat": _c(
        "ZTC-rem5-rate-T-stat", "Remark 5 (non-private term dominates)", "rate",
        "at large rho (rho_stat) the worst-case suboptimality of Algorithm 1 over the family of G-Lipschitz "
        "stochastic linear losses on the ball (no curvature at the worst member, so the statistical term "
        "(sigma_G + D sigma_H)/sqrt(T) is attained) decays at least as T^(-1/2); T_lin_stat, points kept by the "
        "declared filter (worst member inside the signal grid, Algorithm 1 within 25% of its non-private twin)",
        "max over the family of the mean suboptimality vs T (rho_stat)",
        "Algorithm 1 with a fresh sample at the second point of delta_t (grad l(x_{t-1}, z'_t)): the implementation "
        "slip that keeps g_t unbiased but stops its sampling noise from telescoping"),
    "ZTC-rem5-rate-T-priv": _c(
        "ZTC-rem5-rate-T-priv", "Remark 5 (privacy term dominates)", "rate",
        "the worst-case privacy cost of Algorithm 1 (suboptimality minus the non-private twin's, paired, maximised "
        "over the family of G-Lipschitz stochastic linear losses) decays as sqrt(d) log T/(rho T): divided by the "
        "stated log2(2T), its exponent in T is at most -1 (T_lin_priv at rho_lin; points kept by the declared filter: "
        "worst member inside the signal grid, not saturated, Theorem 4's privacy term >= 2x its statistical term)",
        "max over the family of the mean privacy cost / log2(2T) vs T (rho_lin)",
        "the naive conversion (plain gradients noised for their own sensitivity 2 beta_t G): the one slip that "
        "changes the exponent in T (to -1/2); a wrong constant or log factor moves the exponent by < 0.1"),
    "ZTC-thm8-bound": _c(
        "ZTC-thm8-bound", "Theorem 8 with Remark 9's OSD (Lemma 7's regularised losses)", "bound",
        "E[L(x_T) - L(x*)] <= (k+1) E[Regret-bar_T]/T^(k+1) + 16(k+1)^3/(lambda mu) ((sigma_G + D sigma_H)^2/T + "
        "2V(G+DH)^2 log2(2T)^2/(rho^2 T^2)), with E[Regret-bar_T] <= sum_t E||gbar_t||^2/(2 sum_{i<=t} mu_i) and "
        "E||gbar_t||^2 from Theorem 8's second part (fully explicit), at every non-vacuous (T, rho): ridge logistic "
        "regression on wdbc (both rho) and the location problem (mu = 1, rho_priv); vacuous points as for Theorem 4 "
        "(the linear family is not strongly convex: Theorem 8 does not apply to it)",
        "suboptimality - bound", "Algorithm 1 with sigma_t doubled (the location points)"),
    "ZTC-rem9-rate-T-stat": _c(
        "ZTC-rem9-rate-T-stat", "Remark 9 (strongly convex, non-private term dominates)", "rate",
        "with mu-strong convexity and large rho the suboptimality decays at least as 1/(mu T)",
        "suboptimality vs T at rho_stat (ridge logistic)",
        "Algorithm 1 with a fresh sample at the second point of delta_t: the smallest slip found that changes the "
        "exponent (the OSD's mu doubled or halved does not: slopes -1.05 and -1.02 on seed 12345)"),
    "ZTC-rem5-rate-rho": _c(
        "ZTC-rem5-rate-rho", "Remark 5 (privacy term, worst case)", "rate",
        "the privacy cost of Algorithm 1 (suboptimality minus its non-private twin's, paired), maximised over a fixed "
        "family of G-Lipschitz stochastic linear losses, grows at most as 1/rho, on the points kept by the declared "
        "filter (worst member inside the signal grid, not saturated, Theorem 4's privacy term >= 2x its statistical "
        "term)",
        "max over the family of the mean privacy cost vs 1/rho (T_mm, d_mm)",
        "sigma_t proportional to 1/rho^2 (equal at the grid's geometric centre): cost ~ 1/rho^2"),
    "ZTC-rem5-rate-d": _c(
        "ZTC-rem5-rate-d", "Remark 5 (privacy term, worst case)", "rate",
        "the worst-case privacy cost over the same family grows at most as sqrt(d), on the points kept by the same "
        "filter",
        "max over the family of the mean privacy cost vs d (T_mm, rho_mm)",
        "sigma_t times sqrt(d / d_min) (a sensitivity that grows as sqrt(d); equal at the smallest d): cost ~ d"),
    "ZTC-rem9-rate-T-priv": _c(
        "ZTC-rem9-rate-T-priv", "Remark 9 (strongly convex, privacy term dominates)", "rate",
        "with mu-strong convexity the privacy cost (suboptimality minus the non-private twin's, paired) decays as "
        "d log^2 T / (mu rho^2 T^2): divided by the stated log2(2T)^2 its exponent in T is -2 (location problem, mu = "
        "1)",
        "privacy cost / log2(2T)^2 vs T at rho_priv",
        "the naive conversion with the same learner (noise of scale 2 beta_t G / rho): cost ~ 1/T"),
    "ZTC-thm6-optimistic": _c(
        "ZTC-thm6-optimistic", "Theorem 6 (section 3, proof in App. D)", "rate",
        "Theorem 6 decided on the quantity its proof bounds: for the hint hint_t = ghat_{t-1} = g_{t-1} + gamma_{t-1}, "
        "D sqrt(sum_t ||ghat_t - hint_t||^2) / beta_{1:T} (which bounds E[Regret_T]/beta_{1:T} of every optimistic "
        "learner (8) up to its constant) is O(D(G + DH)(1 + sqrt(V) log T/(sqrt(lambda) rho)) T^(-3/2)): its exponent "
        "in T is at most -3/2 (+ tol for the log T) over T_opt_grid at rho_opt_rate = 10, where the privacy factor "
        "4 sqrt(d) log2(2T)/(sqrt(2) rho) is 7-11 (privacy dominates), location problem at the smallest sigma_G/G.  "
        "Not a claim about learning (learns = False): the quantity is a property of the losses Algorithm 1 releases "
        "(delta_t + gamma_t - gamma_{t-1}), the same for any learner.  The learner's part, Theorem 6's assumption (8) "
        "for the optimistic OGD run, is checked on the same runs: its regret against the best point of W over "
        "beta_{1:T} is at most K = 3 times the quantity at every T (a bound check; FAIL if broken)",
        "D sqrt(sum_t ||ghat_t - ghat_{t-1}||^2) / beta_{1:T} vs T (location problem, rho_opt_rate)",
        "hint 0 (the optimism dropped): D sqrt(sum_t ||ghat_t||^2) / beta_{1:T}, the quantity (8) gives Theorem 4's "
        "learner, ~ T^(-1/2)"),
    "ZTC-thm6-adaptive-sigma": _c(
        "ZTC-thm6-adaptive-sigma", "Theorem 6 with Theorem 4 (section 3, the display after Theorem 6)", "rate",
        "the optimistic learner's suboptimality is O(D(sigma_G + D sigma_H)/sqrt(T) + sqrt(d) D(G + DH) log T/(rho "
        "T)): sigma_G in place of Remark 5's G.  Decided at fixed T (T_opt), fixed G (the location problem, d_opt, G "
        "= 2.5 at every point) and rho_adapt, over sigma_G/G on s_adapt/G (2 decades, sigma_H = 0): the optimistic "
        "learner's mean suboptimality decays at least linearly in sigma_G (its exponent in G/sigma_G is at most -1 + "
        "tol), on the points where Theorem 6's privacy term is at most half its statistical term (the regime "
        "condition, declared; the measured privacy share, paired against the same learner without noise, is recorded)",
        "mean suboptimality of the optimistic learner vs G/sigma_G (T_opt, rho_adapt)",
        "Algorithm 1 with sigma_t x 10 (the privacy noise of rho_adapt/10, whose floor does not shrink with sigma_G)"),
    "ZTC-thm11-eq14": _c(
        "ZTC-thm11-eq14", "Theorem 11's proof, eq. (14) (App. F)", "coverage",
        "with probability >= 1 - delta, for all t <= T, ||beta_t grad L(x_t) - g_t||_2 <= 8 C^2 Phi sqrt(sum_{i<=t} "
        "i^4 (G + H ||w_i - x_{i-1}||)^2) (k = 3, C = C_pf), on the draws of ZTC-thm11-bound's runs (every T of T_pf), "
        "where it is learner-independent (linear member c_pf, H = 0).  Not a claim about learning (learns = False)",
        "fraction of runs with max_t ||beta_t grad L(x_t) - g_t|| / eq. (14)'s bound > 1 (against delta)",
        "the fresh-sample slip (grad l(x_{t-1}, z'_t)): the process changed, not the bound"),
    "ZTC-thm11-eq17": _c(
        "ZTC-thm11-eq17", "Theorem 11's proof, eq. (17) (App. F)", "coverage",
        "with probability >= 1 - delta, for all t <= T, ||gamma_t||_2 <= A'/rho (G + DH) Phi log2(2T) t^2 (k = 3, "
        "C = C_pf) for Algorithm 1's tree noise on the noise draws of ZTC-thm11-bound's runs (every T of T_pf; H = 0: "
        "sigma_t does not depend on the iterates).  Not a claim about learning (learns = False)",
        "fraction of runs with max_t ||gamma_t|| / eq. (17)'s bound > 1 (against delta)",
        "the tree with sigma_t doubled (the process changed, not the bound)"),
    "ZTC-eq4-variance": _c(
        "ZTC-eq4-variance", "eq. (4) (Lemma 15, Sec. 2)", "bound",
        "at every step t of the tree's grid (t = 2^n - 1 and 2^n up to the largest T of T_lin_stat), "
        "E||beta_t grad L(x_t) - g_t||^2 <= 4(k+1)^2 (sigma_G^2 + D^2 sigma_H^2) t^(2k-1)/lambda: the telescoped "
        "variance of Algorithm 1's g_t (its technical novelty), on the draws of the linear family's runs, where it is "
        "learner-independent (grad l(x, z) = -z) and ||z - c|| = sigma_G a.s. (the largest variance at sigma_G), so "
        "the ratio is the same for every member.  Not a claim about learning (learns = False)",
        "mean ||beta_t grad L(x_t) - g_t||^2 / eq. (4)'s bound, per step",
        "the fresh-sample slip (grad l(x_{t-1}, z'_t) at the second point: the noise no longer telescopes, it grows "
        "as t^(2k+1) in place of t^(2k-1))"),
    "ZTC-eq7-noise": _c(
        "ZTC-eq7-noise", "eq. (7) (Lemma 16 with eq. (6), Sec. 2)", "bound",
        "at every step t of the tree's grid (t = 2^n - 1: gamma_t sums n nodes, eq. (7) nearly tight there; t = 2^n: "
        "one node) up to the largest T of T_lin_priv, E||gamma_t||^2 <= 8(k+1)^2 V (G + DH)^2 log2(2T)^2 "
        "t^(2k-2)/(lambda rho^2) (V = d, N(0, I)), for Algorithm 1's tree noise on the noise draws of the linear "
        "family's run at rho_lin (H = 0: sigma_t does not depend on the iterates), on 4 x the runs' replicates.  "
        "Not a claim about learning (learns = False)",
        "mean ||gamma_t||^2 / eq. (7)'s bound, per step",
        "the tree with sigma_t^2 doubled (sigma_t x sqrt(2)): the process changed, not the bound"),
    "ZTC-vs-dpsgd": _c(
        "ZTC-vs-dpsgd", "Remark 5 vs DP-SGD (section 1)", "comparison",
        "at equal (alpha, alpha rho^2/2)-RDP, Algorithm 1 beats one-pass DP-SGD at the largest T (rho_priv)",
        "suboptimality(Algorithm 1) - suboptimality(DP-SGD)",
        "the naive conversion in place of Algorithm 1 (its noise does not shrink with t)"),
    "ZTC-thm11-bound": _c(
        "ZTC-thm11-bound", "Theorem 11 (section 5, k = 3, parameter-free)", "coverage",
        "with probability >= 1 - delta, L(x_T) - L(x*) <= 4 Regret-bar_T(x*)/T^4 + 8A||x*||(G + 28||x*||H) "
        "Phi/sqrt(T) + 8A'||x*||(G + DH) Phi log2(2T)/(rho T) (measured regularised regret of KT x OGD normalised by "
        "one constant G^ = the bound on ||gbar_t|| at t = T, as Remark 12 states it, with the subgradient the "
        "algorithm fed it; C = C_pf, the paper's universal constant being unspecified), on a G-Lipschitz stochastic "
        "linear loss (a member c_pf of the linear family: x* on the boundary of W, H = 0) at every T of T_pf, large "
        "enough that the iterate leaves its start, where the bound is below L(x_0) - L*.  Not a claim about learning "
        "(learns = False): the bound carries the learner's own measured regret, so by the theorem any learner meets "
        "it, one that does not learn through its regret term",
        "fraction of runs violating the bound (against delta)",
        "the same runs against the bound with C_pf / 2 (only the unspecified constant changes)"),
    "ZTC-sec5-shift-rate": _c(
        "ZTC-sec5-shift-rate", "Section 5 (Remark 12, shifted coordinates)", "rate",
        "started at x_0, Remark 12's parameter-free learner (KT x OGD, one constant G^, Theorem 11's regularised "
        "losses centred at x_0) has L(x_T) - L(x*) = O~(||x* - x_0|| (G + DH)/sqrt(T) + ||x* - x_0|| sqrt(d)(G + DH)/"
        "(rho T)) ('by shifting coordinates', before Theorem 10): at fixed T, D and rho the mean suboptimality shrinks "
        "at least linearly with s = ||x* - x_0|| (exponent -1 in 1/s), where the worst-case diameter bound would not "
        "shrink; on ZTC-thm11-bound's instance (a member c_pf of the linear family, x* on the boundary of W, D = "
        "2 r_pf) at the smallest T of T_pf, where Theorem 11's bound is below L(x_0) - L*, x_0 on the segment from the "
        "origin to x* at each s of s_shift_pf (2 decades)",
        "log-log slope of mean suboptimality in 1/||x* - x_0||",
        "the same learner started at the origin (the shift dropped: the start at distance r_pf = D/2 whatever s)"),
    "ZTC-thm11-gbar": _c(
        "ZTC-thm11-gbar", "Theorem 11, second part", "coverage",
        "with probability >= 1 - delta, for all t, ||gbar_t|| <= G t^3 + A(2G + 57DH) Phi t^(5/2) + 2A'(G + DH) Phi "
        "log2(2T) t^2/rho (the normaliser of the parameter-free learner; C = C_pf), for the subgradient the algorithm "
        "fed its learner (u = w/||w||; 0 at w = 0, the first two steps), on the runs of ZTC-thm11-bound.  Not a claim "
        "about learning (learns = False): a bound on the loss vectors, for every point of W",
        "fraction of runs with max_t ||gbar_t|| / bound > 1 (against delta)",
        "the tree with sigma_t doubled, decided on the bound's random part, eq. (17) (ZTC-thm11-eq17's control: the "
        "process changed, not the bound)",
        secondary="the same runs against the bound on ||gbar_t|| with C_pf / 2 (the bound changed, not the process: "
                  "the deterministic part G t^3 + xi_t alone exceeds it)"),
}


CLAIMS = {**CLAIMS, **{cid: replace(CLAIMS[cid], learns=False) for cid in ("ZTC-thm11-bound", "ZTC-thm11-gbar",
                                                                           "ZTC-thm6-optimistic", "ZTC-eq4-variance",
                                                                           "ZTC-eq7-noise", "ZTC-thm11-eq14",
                                                                           "ZTC-thm11-eq17")}}
