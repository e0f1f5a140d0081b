"""One module per paper: each builds the runs its claims need and returns tidy tables."""
