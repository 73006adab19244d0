"""Shipped themes (YAML) and fonts; located with importlib.resources."""
