"""scoreboard: a baccarat roadmap kiosk.

``scoreboard.core`` is the pure game model (cards, tableau, shoe, roads, table
state); the feeds, the journal and the renderer are adapters around it.
"""

__version__ = "0.1.0"
