"""A table's limits and pay table: what the board shows under the roads.

Kept apart from the table state because the event vocabulary carries them too
(``LimitsReceived``) and the table state applies those events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scoreboard.core.variants import Variant


@dataclass(frozen=True, slots=True)
class Limits:
    """Table limits and pay table as shown on the board.

    ``bets`` maps a bet name (``player``, ``banker``, ``tie``, ``player_pair``,
    ``banker_pair``, ...) to ``(minimum, maximum)``; ``pays`` maps it to odds text.

    >>> from scoreboard.core.variants import VARIANTS
    >>> limits = Limits.default_for(VARIANTS["commission"])
    >>> limits.bets["banker"], limits.pays["banker"]
    ((25, 10000), '0.95:1')
    """

    currency: str = "USD"
    bets: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    pays: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def default_for(cls, variant: Variant) -> Limits:
        return cls(
            currency="USD",
            bets={
                "player": (25, 10000),
                "banker": (25, 10000),
                "tie": (5, 1000),
                "player_pair": (5, 500),
                "banker_pair": (5, 500),
            },
            pays=variant.pays(),
        )
