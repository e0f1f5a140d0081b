"""Van der Hoeven 2019's mutants: realistic bugs of Algorithm 1 (Sec. 3.3, eq. (3.3.2), Lemma 7's
prior support C = 1/(5G)) and of Algorithm 2's direction learner (Sec. 3.3.1), each a small edit
of :mod:`.learners`, with the claims that must catch it.  Plain data (a ``dpregret.pipeline.mutation.registry.Mutant``'s
fields, an edit as ``(target, old, new)``): the mutation registry, in the pipeline, builds them; the
mechanism mutants of the paper's audits (Lemma 4, the l2 randomiser) edit the shared
``dpregret.core.mechanisms`` and stay in the registry."""

MUTANTS = [
    dict(
        name="vdh-potential-sign", paper="VDH19", category="learner",
        doc="PrivatePotential.update accumulates L = L + g~ instead of L = -sum g~ (the sign convention of eq. (3.3.2) "
            "flipped): Algorithm 1 bets with the gradient instead of against it.",
        targets=("VDH-eq3.3.5-bound", "VDH-thm10-proof-bound"),
        edits=(('dpregret.papers.vdh19.learners:PrivatePotential._update', 'self.L = self.L - g',
                'self.L = self.L + g'),),
    ),
    dict(
        name="vdh-direction-step-power", paper="VDH19", category="learner",
        doc="ProjectedOGDBall (Algorithm 2's direction learner) steps with eta_t = 1 / sum_s ||g~_s||^2 instead of "
            "1 / sqrt(sum_s ||g~_s||^2): the square root of the AdaGrad-style step forgotten, a step one power off. "
            "The direction freezes after a few rounds.",
        targets=("VDH-eq3.3.5-bound", "VDH-sec3.4-minority-cost-rate-T-adversarial"),
        edits=(('dpregret.papers.vdh19.learners:ProjectedOGDBall._update', 'np.divide(1.0, np.sqrt(self.S),',
                'np.divide(1.0, self.S,'),),
    ),
    dict(
        name="vdh-bet-radius-missing-5", paper="VDH19", category="learner",
        doc="PrivatePotential uses the prior support C = 1/G instead of 1/(5G): the 5 that keeps |v E[g~]| <= 1/5 "
            "(Lemma 7, needed for the wealth lower bound) is dropped. Bets are 5 times too large: harmless where |g~| "
            "stays near G (the bet peaks at L/(2B) <= 1/(2G)), ruinous on the searched 'shock' sequence (a slow "
            "drift, then +G), where |v g~| reaches 1.",
        targets=("VDH-thm10-proof-bound",),
        edits=(('dpregret.papers.vdh19.learners:PrivatePotential.__init__',
                'self.C = 1.0 / (5.0 * _param("G", G, self.shape))', 'self.C = 1.0 / _param("G", G, self.shape)'),),
    ),
]

# Every learner of this paper, and the mutants of its update and of its calibration (too much and too little
# noise): mutant names (this folder's or the registry's), or a string saying why there is none (a learner
# whose noise is another learner's names that learner under "noise"); the registry's COVERAGE collects them.
COVERAGE = {
    "VDH19 Algorithm 1 (unconstrained potential)": {
        "update": ("vdh-potential-sign", "vdh-bet-radius-missing-5"),
        "noise": "VDH19 local randomisers"},
    "VDH19 Algorithm 2's direction learner": {
        "update": ("vdh-direction-step-power",),
        "noise": "VDH19 local randomisers"},
    "VDH19 local randomisers": {
        "update": "a mechanism: no update",
        "too much noise": ("l2-randomiser-eps-per-coordinate",),
        "too little noise": ("l2-randomiser-gamma-shape", "l2-randomiser-missing-2", "local-laplace-missing-2")},
}
