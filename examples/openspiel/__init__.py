"""OpenSpiel's Hearts certified as Black Maria (see hearts.py)."""
