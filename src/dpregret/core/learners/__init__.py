"""Online learners shared by the papers and the protocols' doors (``oco``: the oco door's and
Zhang-Tran-Cutkosky's OCO learners; ``pairwise_jit``: numpy's pairwise sum, compiled): small
objects with ``predict()`` then ``update(feedback)``, vectorised over a leading batch axis
(replicates x parameter points).  Each paper's own learners sit in its folder
(``dpregret.papers.<paper>``)."""
