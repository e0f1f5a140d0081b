"""Online learners: small objects with ``predict()`` then ``update(feedback)``,
vectorised over a leading batch axis (replicates x parameter points)."""
