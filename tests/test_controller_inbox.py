"""The controller's paho callback only queues; its own loop parses and answers."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from scoreboard.config import MqttConfig
from scoreboard.core.table import Limits
from scoreboard.core.variants import VARIANTS
from scoreboard.feeds.controller import Controller
from scoreboard.protocol import ResyncRequest, Topics, encode, encode_payload

TOPICS = Topics("unit/v1/T1")


@dataclass
class RawMessage:
    topic: str
    payload: bytes


def controller(key: bytes | None = None) -> Controller:
    limits = Limits.default_for(VARIANTS["commission"])
    return Controller(MqttConfig(port=1), topics=TOPICS, limits=limits, hmac_key=key)


def resync(key: bytes | None = None, display: str = "d1") -> bytes:
    return encode_payload(encode(ResyncRequest(display, "S1", (3, 4)))[1], key)


def test_the_callback_only_queues_and_wakes():
    c = controller()
    c._on_message(c.client, None, RawMessage(TOPICS.resync, resync()))
    assert c._wakeup.is_set()
    assert not c._resync.is_set()  # parsed later, on the controller's own thread
    c._read_inbox()
    assert c._resync.is_set()


def test_a_batch_is_logged_once_and_forgeries_are_ignored(caplog):
    c = controller(key=b"k" * 32)
    for display in ("d1", "d2"):
        c._on_message(c.client, None, RawMessage(TOPICS.resync, resync(b"k" * 32, display)))
    for _ in range(3):
        c._on_message(c.client, None, RawMessage(TOPICS.resync, resync(b"x" * 32)))
    with caplog.at_level(logging.INFO, logger="scoreboard"):
        c._read_inbox()
    assert c._resync.is_set()
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert "resync asked by d1" in messages[0] and "d2" in messages[0]
    assert "ignored 3 messages" in messages[1]


def test_only_forgeries_ask_for_nothing():
    c = controller(key=b"k" * 32)
    c._on_message(c.client, None, RawMessage(TOPICS.resync, resync(b"x" * 32)))
    c._read_inbox()
    assert not c._resync.is_set()
