"""Van der Hoeven 2019's errata: the proof of Lemma 4 (Sec. 3.2, the local randomiser) here, and
those kept beside the code they concern: Algorithm 1's printed eq. (3.3.4) (Sec. 3.3,
:data:`.learners.ERRATA`) and Theorems 10-12 (Sec. 3.3, 3.8, :data:`.bounds.ERRATA`).  Each entry
names the test that shows the disagreement (key ``test``); ``dpregret.pipeline.registry.errata()`` lists them in the
report."""
from dpregret.papers.vdh19.bounds import ERRATA as _BOUNDS
from dpregret.papers.vdh19.learners import ERRATA as _LEARNERS

ERRATA = [
    {"paper": "VDH19", "where": "Proof of Lemma 4",
     "printed": "numerator and denominator both written with g_{t,j'}",
     "correct": "the numerator uses g_{t,j}; tau_j = 0 gives an improper density, so dpregret requires tau_j > 0 (or "
                "inf)",
     "test": "tests/test_mechanisms.py (local randomiser scale 2 bound_j / tau_j, KS test)"},
    *_LEARNERS,
    *_BOUNDS,
]
