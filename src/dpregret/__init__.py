"""dpregret: empirical checks of differentially private online learning theorems."""

__version__ = "0.1.0"
