"""What the shoe is in the middle of, kept across a restart: a hand or a burn being dealt.

A Bee-Tek shoe sends one line per card and leaves the seats to the host: a
bridge restarted in the middle of a hand that forgot its first cards would deal
the rest as a new hand's Player 1, Banker 1... and publish a wrong coup.  And a
bridge restarted in the middle of a burn (either shoe) would take the rest of the
burn for another new shoe.  So the cards of the open hand and of the burn being
dealt are kept in a small file of the state dir (replaced durably after each
card) and given back to the desk at start, when they belong to the game the
journal says comes next (a hand whose coup was journaled just before a kill is
not dealt twice).  An Angel Eye's open hand needs none: its reveal repeats every
card of the hand.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoreboard.game.cards import Card, UnknownCardError, parse_card
from scoreboard.journal.disk import remove_quietly, replace_durably
from scoreboard.regular_file import read_regular

__all__ = ["HAND_NAME", "HandFile", "OpenHand"]

log = logging.getLogger("scoreboard.controller")  # one name in the logs for the whole controller

#: The file in the bridge's state dir (``scoreboard audit`` knows it is not the journal's).
HAND_NAME = "shoe_hand.json"
_MAX_BYTES = 4096
#: The most cards a kept hand or burn holds (a burn: the face-up card and ten).
_MOST_CARDS = 11


@dataclass(frozen=True, slots=True)
class OpenHand:
    """Game ``game`` of shoe ``shoe`` as far as it went: its ``cards`` (None: unread),
    and while a burn is being dealt its cards so far (``burn``) and how many it wants."""

    shoe: str
    game: int
    cards: tuple[Card | None, ...] = ()
    burn: tuple[Card, ...] | None = None
    wanted: int = 1

    @property
    def idle(self) -> bool:
        """Nothing half done: no hand open, no burn being dealt."""
        return not self.cards and self.burn is None

    def data(self) -> dict[str, Any]:
        return {
            "shoe": self.shoe,
            "game": self.game,
            "cards": [None if card is None else str(card) for card in self.cards],
            "burn": None if self.burn is None else [str(card) for card in self.burn],
            "wanted": self.wanted,
        }

    @classmethod
    def read(cls, data: Any) -> OpenHand:
        """``data`` as written by :meth:`data`; ``ValueError`` (or kin) names what is wrong."""
        shoe, game, wanted = data["shoe"], data["game"], data.get("wanted", 1)
        cards, burn = data["cards"], data.get("burn")
        if not isinstance(shoe, str) or not isinstance(game, int) or not isinstance(wanted, int):
            raise ValueError("not a hand")
        if len(cards) > _MOST_CARDS or (burn is not None and len(burn) > _MOST_CARDS):
            raise ValueError("too many cards")
        return cls(
            shoe,
            game,
            tuple(None if card is None else parse_card(card) for card in cards),
            None if burn is None else tuple(parse_card(card) for card in burn),
            wanted,
        )


class HandFile:
    """``state_dir/HAND_NAME``: the open hand written as it grows, read back at start."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / HAND_NAME
        self._kept: OpenHand | None = None

    def load(self) -> OpenHand | None:
        """The hand kept by the last run, or None (none, or unreadable: said in the log)."""
        if not self.path.exists():
            return None
        try:
            hand = OpenHand.read(json.loads(read_regular(self.path, _MAX_BYTES)))
        except (OSError, ValueError, TypeError, KeyError, UnknownCardError) as error:
            log.warning("bridge: ignoring %s (%s): the open hand is forgotten", self.path, error)
            return None
        self._kept = hand
        return hand

    def keep(self, hand: OpenHand | None) -> None:
        """Write ``hand`` if it changed (None or idle: nothing half done, the file goes)."""
        if hand is not None and hand.idle:
            hand = None
        if hand == self._kept:
            return
        try:
            if hand is None:
                remove_quietly(self.path)
            else:
                replace_durably(self.path, json.dumps(hand.data()).encode())
        except OSError as error:  # the journal's health says the disk fails; go on
            log.warning("bridge: cannot keep the open hand in %s (%s)", self.path, error)
            return
        self._kept = hand
