"""The hand being dealt, kept across a restart, for a shoe that names cards but never seats.

A Bee-Tek shoe sends one line per card and leaves the seats to the host: a
bridge restarted in the middle of a hand that forgot its first cards would deal
the rest as a new hand's Player 1, Banker 1... and publish a wrong coup.  So the
cards of the open hand are kept in a small file of the state dir (replaced
durably after each card) and given back to the desk at start, when they belong
to the game the journal says comes next (a hand whose coup was journaled just
before a kill is not dealt twice).  An Angel Eye needs none: its reveal repeats
every card of the hand.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from scoreboard.core.cards import Card, UnknownCardError, parse_card
from scoreboard.journal.disk import remove_quietly, replace_durably
from scoreboard.regular_file import read_regular

__all__ = ["HAND_NAME", "Hand", "HandFile"]

log = logging.getLogger("scoreboard.controller")  # one name in the logs for the whole controller

#: The file in the bridge's state dir (``scoreboard audit`` knows it is not the journal's).
HAND_NAME = "shoe_hand.json"
_MAX_BYTES = 4096

Hand = tuple[str, int, tuple[Card | None, ...]]  # shoe, game, the cards dealt (None: unread)


class HandFile:
    """``state_dir/HAND_NAME``: the open hand written as it grows, read back at start."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / HAND_NAME
        self._kept: Hand | None = None

    def load(self) -> Hand | None:
        """The hand kept by the last run, or None (none, or unreadable: said in the log)."""
        if not self.path.exists():
            return None
        try:
            data = json.loads(read_regular(self.path, _MAX_BYTES))
            shoe, game, cards = data["shoe"], data["game"], data["cards"]
            if not isinstance(shoe, str) or not isinstance(game, int) or len(cards) > 6:
                raise ValueError("not a hand")
            hand = (shoe, game, tuple(None if card is None else parse_card(card) for card in cards))
        except (OSError, ValueError, TypeError, KeyError, UnknownCardError) as error:
            log.warning("bridge: ignoring %s (%s): the open hand is forgotten", self.path, error)
            return None
        self._kept = hand
        return hand

    def keep(self, hand: Hand | None) -> None:
        """Write ``hand`` if it changed (None or no cards: no hand open, the file goes)."""
        if hand is not None and not hand[2]:
            hand = None
        if hand == self._kept:
            return
        try:
            if hand is None:
                remove_quietly(self.path)
            else:
                shoe, game, cards = hand
                text = json.dumps({"shoe": shoe, "game": game, "cards": [_name(c) for c in cards]})
                replace_durably(self.path, text.encode())
        except OSError as error:  # the journal's health says the disk fails; go on
            log.warning("bridge: cannot keep the open hand in %s (%s)", self.path, error)
            return
        self._kept = hand


def _name(card: Card | None) -> str | None:
    return None if card is None else str(card)
