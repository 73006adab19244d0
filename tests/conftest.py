"""Shared test setup: real rendering without a display or a sound card."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# Hypothesis explores new examples on every developer run; CI runs a fixed set
# (derandomize), so a red build always means a change broke something, and the
# failing example can be replayed from the printed blob.
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
