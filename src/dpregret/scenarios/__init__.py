"""The scenario contract (:mod:`.contract`: the user claims, the door rows); each paper's
scenarios, which build the runs its claims need and return tidy tables, sit in its folder
(``dpregret.papers.<paper>``, ``Scenario.scenario_module``)."""
