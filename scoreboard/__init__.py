"""scoreboard: a baccarat roadmap kiosk.

``scoreboard.core`` is the pure game model (cards, tableau, shoe, roads, table
state); the feeds, the journal and the renderer are adapters around it.
"""

import os

__version__ = "0.1.0"

# pygame prints a greeting on import; JSON on stdout must stay clean.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
