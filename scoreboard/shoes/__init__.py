"""Card-reading shoes."""
