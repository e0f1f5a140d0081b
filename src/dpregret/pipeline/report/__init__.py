"""Figures, the claims table and the self-contained HTML report."""
