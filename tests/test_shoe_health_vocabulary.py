"""game/events.py: the words a card-reading shoe's health is told in, which the protocol,
the journal and the staff's screen all read."""

from __future__ import annotations

from scoreboard.game.events import HEALTH_STATES, ShoeHealth


def test_a_health_condition_is_raised_cleared_or_seen_once() -> None:
    assert HEALTH_STATES == ("raised", "cleared", "seen")


def test_a_health_change_told_without_words_has_an_empty_detail_and_no_game() -> None:
    health = ShoeHealth("device", "raised")
    assert (health.detail, health.shoe, health.game) == ("", None, None)
