"""The controller's inbox: link events in, what the controller must do out (no paho, no network).

The link only hands raw messages over (see test_link.py); the inbox parses them
on the controller's own thread, so a forged or broken request costs a log line
per batch and never a snapshot.
"""

from __future__ import annotations

import logging

from scoreboard.controller import ControllerInbox
from scoreboard.link.client import Connected, Disconnected, Message, Refused
from scoreboard.protocol import ResyncRequest, Topics, wire

TOPICS = Topics("unit/v2/T1")


def inbox(key: bytes | None = None) -> ControllerInbox:
    return ControllerInbox(TOPICS, hmac_key=key)


def resync(key: bytes | None = None, display: str = "d1", shoe: str = "S1") -> Message:
    topic, payload = wire(TOPICS, ResyncRequest(display, shoe, (3, 4)), key)
    return Message(topic, payload, received_at=0.0)


def test_a_resync_request_makes_a_snapshot_due():
    box = inbox()
    assert not box.resync_due
    box.take([resync()])
    assert box.resync_due


def test_a_batch_is_logged_once_and_forgeries_are_ignored(caplog):
    box = inbox(key=b"k" * 32)
    batch = [resync(b"k" * 32, display) for display in ("d1", "d2")]
    batch += [resync(b"x" * 32) for _ in range(3)]
    with caplog.at_level(logging.INFO, logger="scoreboard"):
        box.take(batch)
    assert box.resync_due
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert "resync asked by d1" in messages[0] and "d2" in messages[0]
    assert "ignored 3 messages" in messages[1]


def test_only_forgeries_ask_for_nothing(caplog):
    box = inbox(key=b"k" * 32)
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        box.take([resync(b"x" * 32)])
    assert not box.resync_due
    assert "controller: ignored" in caplog.text and "signature" in caplog.text


def test_every_connect_makes_an_announcement_due():
    box = inbox()
    box.take([Connected(session_present=False)])
    assert box.connected and box.announce_due
    box.announce_due = False  # announced
    box.take([Disconnected("Keep alive timeout"), Connected(session_present=True)])
    assert box.connected and box.announce_due


def test_a_disconnect_is_reported_unless_the_controller_is_stopping(caplog):
    box = inbox()
    box.take([Connected(session_present=False)])
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        box.take([Disconnected("Keep alive timeout")])
    assert not box.connected
    assert "disconnected (Keep alive timeout); waiting to reconnect" in caplog.text
    caplog.clear()
    box.take([Connected(session_present=False)])
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        box.take([Disconnected("Normal disconnection")], stopping=True)
    assert not box.connected
    assert caplog.text == ""


def test_a_refused_connection_is_logged_and_stays_disconnected(caplog):
    box = inbox()
    with caplog.at_level(logging.ERROR, logger="scoreboard"):
        box.take([Refused("Not authorized")])
    assert not box.connected and not box.announce_due
    assert "broker refused the connection: Not authorized" in caplog.text
