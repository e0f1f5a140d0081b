"""An example paper in one folder: Cesa-Bianchi and Lugosi (2006), Theorem 2.2, the regret bound of
the exponentially weighted forecaster (Hedge).  It is registered by name (config key ``papers``;
``dpregret.papers.register``) and run by the workflow's generic rules; nothing outside this folder
names it (docs/add-a-paper.md walks through it, tests/test_example_paper.py runs it).

- :mod:`.paper`: the paper's entry, its scenario and its parameters per preset;
- :mod:`.learners`: Hedge, vectorised over replicates (section 2.1);
- :mod:`.bounds`: Theorem 2.2's bound;
- :mod:`.scenario`: the experiment (points and one point's runs) and the door for your own learner (``USER_CLAIMS``);
- :mod:`.claims`: the claim, its near-miss control and its non-learner control;
- :mod:`.figures`: regret against T, the bound drawn in.
"""
