"""The lobby board: every table of a floor as tiles, fed by the tables' own retained feed.

Inside: ``tables`` (one table as the lobby knows it, and the :class:`TileView` a
tile is drawn from), ``floor`` (the listed and discovered tables, bounded),
``arrange`` (sort, filter by pit, pages), pure like the core; ``settings``
(the config's ``lobby:`` section, read with ``settings.reader``), ``sample`` (a floor of
simulated tables for screenshots, benchmarks and tests), ``feed`` (the wildcard subscription, every
payload validated as a display validates it) and ``status`` (the lobby's own
retained status, with a last will).  Drawing lives in ``scoreboard/screen/wall/``
and the command in ``scoreboard/cli/commands/lobby.py``.
"""

from scoreboard.lobby.arrange import SortKey, arrange, page_at, paged
from scoreboard.lobby.floor import Floor, TableRefused
from scoreboard.lobby.tables import Listing, LobbyTable, TileState, TileView

__all__ = [
    "Floor",
    "Listing",
    "LobbyTable",
    "SortKey",
    "TableRefused",
    "TileState",
    "TileView",
    "arrange",
    "page_at",
    "paged",
]
