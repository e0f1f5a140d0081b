"""The tests' pytest plugin (``-p dpregret.pipeline.pinned_pytest`` in pyproject.toml): restarts the test
process with the pinned arithmetic of :mod:`dpregret.core.cpu` before pytest loads anything else, so a
test computes the same bits as a workflow job on every x86-64 CPU (glibc's libm is pinned only in
a process started with the pins).  ``DPREGRET_PIN_CPU=0`` leaves the process as it started."""
from dpregret.core import cpu

cpu.reexec_pinned()
