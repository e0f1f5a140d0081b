"""Privacy claims, audited empirically (issue: "try to break every privacy claim").

Each :class:`AuditSpec` fixes worst-case neighbouring inputs, samples outputs of *the code the
scenarios run* (``dpregret.core.mechanisms``, ``dpregret.core.tree``, the learners and their compiled
kernels, with the noise scale they compute themselves), scores them by the exact log-likelihood
ratio under the *claimed* noise (the paper's formula, written out in the spec and not read from
the code under audit), and runs the recipe of :mod:`dpregret.verdict.audit`.  Every noise is drawn through
the scenarios' own sampler (:class:`~dpregret.core.rng.ReplicateStreams`' inverse transforms, also for
the draws handed to the compiled kernels), so a sampler drawing the wrong distribution is audited
too.  The event that separates D from D' is chosen for every variant and cell on its own selection
half; the Laplace claims offer it, beside the claimed log-likelihood ratio (which saturates), the
unsaturated projection on the neighbours' difference, so that a noise of the claimed variance but
another shape (their ``gaussian_shape`` control) is seen.  Lemma 5.4's printed sigma is 13x what
its (eps, delta) needs: its audit also claims the exact accountant's mu-GDP at the code's sigma
(tight), so sigma / 2 is caught.  The scales themselves are checked against the papers' formulas
in ``tests/test_calibration.py``.

Mechanisms audited: the Laplace and Gaussian mechanisms; Van der Hoeven's local Laplace
randomiser (Lemma 4) and the l2 randomiser (Song et al.); Agarwal-Singh TreeBasedAgg (Lemma 3.3)
as the experts scenario runs it, on its node transcript (LLR plus same-level node contrasts, the
independence check, and the exact check that its releases are the 0/1 node-to-prefix map applied
to the nodes plus padding); Zhang-Tran-Cutkosky NOISE(t) (Theorem 3's tree) on its releases,
which determine its node transcript exactly.

Private algorithms end to end: Algorithm 4 (Lemma 4.2) on what its inner learner receives, read
from the compiled EXP2 rounds (``exp2_block``, the scenario's path and row layout), from the numpy
classes (``PrivateFeedback`` around ``Exp2``, through a recording wrapper) and from the compiled
SCRiBLe rounds (``scrible_block``) on the cube with N = 1, where every forwarded value
``<l + Z, y>`` is a scaled Laplace draw (exact likelihood; for N >= 2 it is a sum of differently
scaled Laplace draws); Zhang-Tran-Cutkosky Algorithm 1 (``o2b.run``) on its released sequence;
Ene-Nguyen-Vladu PRIVATEBANDIT (Lemmas 5.1 and 5.4) on its released round sums.  Later plays are
functions of the audited values and data-independent randomness (post-processing).  The
Agarwal-Singh experts learner releases ``softmax(-eta L~_{t-1})``, a post-processing of
TreeBasedAgg's releases: covered by the TreeBasedAgg audit.  The learners' own noise paths that
those do not reach: the sphere and cube learners of Table 1 (their
TreeBasedAgg at the scenario's ``laplace_scale_cor3_2``), FTPL's Gaussian tree (``sigma_thm3_5``) and
Zhang-Tran-Cutkosky's DP-SGD baseline (``run_dpsgd``, with a check of its realised noise scale both
ways; the l2 randomiser's audit checks its noise radius the same way).  Not audited:
PRIVATEBANDIT's iterates (only its releases).

The specs live in one module per kind, on the machinery of :mod:`.privacy_audit` (``AuditSpec``,
``run_audit``, the realised-noise-scale check ``scale_check``): the shared mechanisms' here,
:mod:`.privacy_mechanisms` (single releases) and :mod:`.privacy_trees` (Zhang-Tran-Cutkosky's tree);
the audits of a paper's own code in its folder, declared by its ``paper.audits()``:
:mod:`dpregret.papers.as17.audit` (TreeBasedAgg, the OLO and FTPL trees, Algorithm 4),
:mod:`dpregret.papers.ztc22.audit` (Algorithm 1 end to end, DP-SGD) and
:mod:`dpregret.papers.env21.audit` (PRIVATEBANDIT).  :func:`dpregret.pipeline.registry.audit_specs` collects
them all, building them afresh on every call (the mutation suite calls it under a mutant's patch
to rebuild the specs from the patched library); the spec modules therefore hold no module-level
value computed from the library (everything a spec reads from the library is read when its
builder runs).  This module offers the shared mechanisms' specs (:func:`shared_audits`) and the
machinery's public entry.
"""
from __future__ import annotations

from dpregret.verdict.privacy_audit import (  # noqa: F401 (re-exported: the public entry)
    CHECK_SAMPLES, CHECK_SHARE, RDP_ORDERS, AuditSpec, independence_check, audit_variant, run_audit)
from dpregret.verdict.privacy_mechanisms import gaussian_spec, l2_spec, laplace_spec, local_laplace_spec
from dpregret.verdict.privacy_trees import tree_ztc_spec


def shared_audits() -> dict[str, AuditSpec]:
    """claim id -> :class:`AuditSpec` of the shared mechanisms' audits (the Laplace and Gaussian
    mechanisms, Van der Hoeven's local Laplace randomiser, the l2 randomiser, Zhang-Tran-Cutkosky's
    NOISE(t) tree), built now from the library as it is."""
    return {s.claim.claim_id: s for s in (laplace_spec(), gaussian_spec(), local_laplace_spec(), l2_spec(),
                                           tree_ztc_spec())}
