"""Rendering: (table state, theme, size) -> pygame Surface.  Imports core and theme, never feeds."""
