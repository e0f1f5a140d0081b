"""The core layer: validation, CPU pins, random streams, provenance, the tree aggregator, mechanisms,
accounting and calibration, the learner contract (protocols), the shared environments and learners, and
the scenario contract (contract.py: the user claims, the door rows).  It imports nothing of the
package above it (verdict, papers, pipeline): the cross-paper registries are
``dpregret.pipeline.registry``'s."""
