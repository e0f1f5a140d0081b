"""Mutation suite: realistic implementation bugs ("mutants"), each patched into the library at
test time, and the pipeline claims that must catch them.

- :mod:`.registry` -- the mutants (``MUTANTS``): name, doc, target claim ids, source edit; and
  ``COVERAGE``: for every learner of the four papers, the mutants of its update and of its
  calibration (too much and too little noise);
- :mod:`.patching` -- applying and reverting a mutant by monkeypatching (the library carries
  no mutant code);
- :mod:`.runner` -- :func:`run_mutant`, :func:`run_all` on the small instances it collects from the paper
  folders (``dpregret.papers.<paper>.instances``, on :mod:`dpregret.verdict.instances`) and the audits' instance.

Command line: ``python -m dpregret.pipeline.mutation [--only NAME ...] [--json PATH]``.
"""
from dpregret.pipeline.mutation.registry import MUTANTS, REQUIRED, Mutant
from dpregret.pipeline.mutation.runner import run_all, run_mutant, summary, table

__all__ = ["MUTANTS", "REQUIRED", "Mutant", "run_all", "run_mutant", "summary", "table"]
