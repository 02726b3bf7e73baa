"""Game records (being written)."""
