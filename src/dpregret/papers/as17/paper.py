"""What Agarwal and Singh's folder declares and contributes to the registries: its paper and its
four scenarios (``PAPER``, ``SCENARIOS``: ``dpregret.papers`` builds its registries from them), and,
for the pipeline's registries (:mod:`dpregret.pipeline.registry` collects every folder's), its built-in
learners, its claims, its privacy audits and its rule groups' check and plot jobs (:data:`GROUPS`).
Light at import (``dpregret.papers`` imports it in every process): each function imports the modules
it needs when it runs."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from dpregret.papers import Paper, Scenario

if TYPE_CHECKING:
    from dpregret.core.protocols import LearnerSpec
    from dpregret.core.rng import ReplicateStreams

PAPER = Paper("AS17", "Agarwal and Singh 2017", "The Price of Differential Privacy for Online Learning",
              "Naman Agarwal and Karan Singh", 2017,
              "Proceedings of the 34th International Conference on Machine Learning (ICML), PMLR 70",
              "agarwal2017price",
              "003_a21566fafc49b886.txt")
# its scenarios (config keys, rule prefixes), each with its simulation module in this folder; its config
# parameters are declared in this folder's config.schema.yaml
SCENARIOS = (
    Scenario("as17_experts", "AS17", "experts_", "scenario_experts", folder=__package__),
    Scenario("as17_olo", "AS17", "olo_", "scenario_olo", folder=__package__),
    Scenario("as17_mab", "AS17", "mab_", "scenario_bandits", folder=__package__),
    Scenario("as17_blo", "AS17", "blo_", "scenario_blo", folder=__package__),
)

# Scenarios whose claims one check decides across their tables (Tables 1 and 2: rules.smk's as17_tables group):
# the config's ``scenarios`` names all of one set or none of it (dpregret.pipeline.config.effective says so)
TOGETHER = (("as17_olo", "as17_mab", "as17_blo"),)

# The workflow's check and plot jobs of this folder's own rules (rules.smk, included by the Snakefile):
# job group -> (its claims module, whose check_job(params, tables) decides the group's claims; its drawing
# function "module:function", called with (tables, params, outputs)).  A scenario of the generic rules
# needs no entry: its folder's claims and figures.draw are found by convention (dpregret.pipeline.jobs).
def validate(scenario: str, p: dict) -> None:
    """The rules across a scenario's keys that its schema cannot say (``dpregret.pipeline.config``): the claims'
    eps (``rate_eps``, ``regret_eps``) are among the run's ``eps``; the grids are put in ascending order."""
    from dpregret.papers import ParamError

    for key in ("rate_eps", "regret_eps"):
        if key in p and not any(abs(e - p[key]) < 1e-12 for e in p["eps"]):
            raise ParamError(key, f"{p[key]} must be one of {scenario}.eps {p['eps']}")
    for k in ("T", "T_switching", "T_fixed", "eps", "N_grid", "s_grid"):
        if k in p:
            p[k] = sorted(p[k])


GROUPS = {
    "as17_experts": ("dpregret.papers.as17.claims_experts", "dpregret.papers.as17.figures:draw_experts"),
    "as17_tables": ("dpregret.papers.as17.claims_tables", "dpregret.papers.as17.figures:draw_tables"),
}


def _streams(seed: int, name: str, replicates: range, *key) -> ReplicateStreams:
    from dpregret.core.rng import ReplicateStreams, stable_key

    return ReplicateStreams(seed, stable_key("learner", name, *key), replicates)


def learners() -> dict[str, LearnerSpec]:
    """name -> :class:`~dpregret.core.protocols.LearnerSpec`: the experts learner on TreeBasedAgg
    (Algorithm 2, Theorem 3.4) and its exact-sums control, Algorithm 1 on the ball over the tree
    (Corollary 3.2), FTPL on the cube (Theorem 3.5), Algorithm 4 around EXP2 (Theorem 4.1), the
    explore-and-tree baseline (the control) and SCRiBLe on the ball (Theorem 4.5)."""
    from dpregret.core.protocols import LearnerSpec
    from dpregret.papers.as17 import bandits, ftrl, olo, prefix_sums, scrible

    def tree_experts(reps, N, T, seed, eps=1.0):
        lam = nodes_lambda(T, eps)
        draw = prefix_sums.scaled_draws(_streams(seed, "tree_experts", reps), lam, N)
        return ftrl.ExpWeights(ftrl.eta_thm34(N, T), prefix_sums.TreeSum(T, len(reps), N, draw))

    def nodes_lambda(T, eps):
        from dpregret.core.tree import nodes_covering_leaf
        return nodes_covering_leaf(T) / eps

    def ball_ftrl(reps, d, T, seed):
        draw = prefix_sums.scaled_draws(_streams(seed, "ball_ftrl", reps), nodes_lambda(T, 1.0), d)
        return olo.BallFTRL(math.sqrt(1.0 / T), prefix_sums.TreeSum(T, len(reps), d, draw))

    def ftpl(reps, d, T, seed):
        draw = prefix_sums.scaled_draws(_streams(seed, "ftpl", reps), 1.0, d, kind="gaussian")
        return olo.FTPLLinear("cube", prefix_sums.TreeSum(T, len(reps), d, draw))

    def exp2(reps, N, T, seed):
        eta = math.sqrt(math.log(N) / (N * T))
        return bandits.PrivateFeedback(bandits.Exp2(N, eta, min(1.0, N * eta), _streams(seed, "exp2", reps)), 1.0,
                                       _streams(seed, "exp2_noise", reps))

    def explore_tree(reps, N, T, seed):
        return bandits.ExploreTree(N, T, 1.0, _streams(seed, "explore", reps), _streams(seed, "explore_tree", reps))

    def scrible_ball(reps, d, T, seed):
        return scrible.Scrible("ball", d, 1.0 / math.sqrt(T), _streams(seed, "scrible", reps))

    specs = [
        LearnerSpec("tree_experts", "experts", "AS17", tree_experts),
        LearnerSpec("exact_experts", "experts", "AS17",
                    lambda reps, N, T, seed: ftrl.ExpWeights(ftrl.eta_thm34(N, T), prefix_sums.ExactSum(len(reps), N)),
                    "control"),
        LearnerSpec("ball_ftrl", "olo", "AS17", ball_ftrl),
        LearnerSpec("ftpl_cube", "olo", "AS17", ftpl),
        LearnerSpec("exp2_private", "bandit", "AS17", exp2),
        LearnerSpec("explore_tree", "bandit", "AS17", explore_tree, "control"),
        LearnerSpec("scrible_ball", "bco", "AS17", scrible_ball),
    ]
    return {s.name: s for s in specs}


def claims() -> dict:
    """claim id -> :class:`~dpregret.verdict.core.Claim`: section 3's (:mod:`.claims_experts`, with
    Lemma 3.3's exact check), then Tables 1 and 2's (:mod:`.claims_tables`: the OLO, bandit and BLO
    rates, the OLO bounds, the extra comparisons)."""
    from dpregret.papers.as17 import claims_experts as experts, claims_tables as tables

    out = {**experts.CLAIMS, experts.EXACT_CLAIM.claim_id: experts.EXACT_CLAIM}
    for spec in tables.OLO_SPECS + tables.MAB_SPECS + tables.BLO_SPECS:
        out[spec.claim.claim_id] = spec.claim
    out.update(tables.OLO_BOUNDS)
    out[tables.FTPL_BOUND.claim_id] = tables.FTPL_BOUND
    out.update(tables.EXTRA)
    return out


def audits() -> dict:
    """claim id -> :class:`~dpregret.verdict.privacy_audit.AuditSpec` of the audits of its own code
    (:mod:`.audit`), built now from the library as it is: Lemma 3.3's TreeBasedAgg, Lemma 4.2's
    Algorithm 4, Corollary 3.2's OLO trees, Theorem 3.5's FTPL tree."""
    from dpregret.papers.as17 import audit

    specs = (audit.tree_as17_spec(), audit.mab_feedback_spec(), audit.olo_tree_spec(), audit.ftpl_tree_spec())
    return {s.claim.claim_id: s for s in specs}
