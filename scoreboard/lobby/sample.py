"""A floor of simulated tables, dealt by the real rules: for screenshots, benchmarks and tests.

Each table gets its own seeded shoe, dealt part way (a different depth per
table), its pit, its limits and a controller that said it is online, all as
v2 events through :meth:`LobbyTable.take`, as the feed would apply them.

>>> floor = sample_floor(3, now=1000.0)
>>> [view.state.value for view in floor.views(1000.0, 300)]
['live', 'live', 'live']
"""

from __future__ import annotations

from scoreboard.game.events import ControllerStatus, CoupReceived, LimitsReceived, Origin, Snapshot
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer
from scoreboard.game.variants import VARIANTS
from scoreboard.lobby.floor import Floor
from scoreboard.lobby.tables import Listing

PITS = ("A", "B", "C", "D")
MINIMUMS = (10, 25, 50, 100, 500)


def dealt_games(seed: int, coups: int) -> tuple:
    """The first ``coups`` games of the shoe ``Dealer(seed=seed)`` deals, and its id."""
    games = []
    shoe = ""
    for event in Dealer(decks=8, seed=seed).shoe():
        if isinstance(event, CoupReceived):
            shoe = event.shoe
            games.append(event.game)
            if len(games) >= coups:
                break
    return shoe, tuple(games)


def sample_floor(count: int, *, now: float, seed: int = 1, session: int = 1) -> Floor:
    """``count`` live tables T1..Tn heard of at ``now``."""
    listings = [
        Listing(f"T{i}", name=f"Baccarat {i}", pit=PITS[(i - 1) * len(PITS) // count])
        for i in range(1, count + 1)
    ]  # neighbouring tables share a pit, as on a floor
    floor = Floor(listings)
    pays = VARIANTS["commission"].pays()
    for index, listing in enumerate(listings):
        entry = floor.entry(listing.table_id)
        entry.take(ControllerStatus(True, Origin(session, 1)), now)
        low = MINIMUMS[index % len(MINIMUMS)]
        bets = {"player": (low, low * 200), "banker": (low, low * 200), "tie": (5, 1000)}
        entry.take(LimitsReceived(Limits("USD", bets, pays), Origin(session, 2)), now)
        shoe, games = dealt_games(seed + index, 20 + (index * 7) % 60)
        entry.take(Snapshot(shoe, games, origin=Origin(session, 3)), now)
    return floor
