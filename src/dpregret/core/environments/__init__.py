"""Loss sequences and data streams (oblivious adversaries: fixed before play)."""
