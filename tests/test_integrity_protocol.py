"""``decks`` on the wire: the new_shoe payload's optional deck count, and who publishes it."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from jsonschema import Draft202012Validator
from mqtt_broker import Recorder, needs_mosquitto, running_broker, unique_prefix, wait_for

from scoreboard.controller import Controller
from scoreboard.game.events import NewShoe, Origin
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import SchemaError, Topics, encode, parse_dict, parse_message, wire

TOPICS = Topics("test/v2/T1")


def new_shoe(**fields) -> dict:
    return {"v": 2, "type": "new_shoe", "shoe": "S1", "session": 7, "seq": 3, **fields}


def test_a_new_shoe_may_say_its_decks_and_round_trips() -> None:
    event = parse_dict("event", new_shoe(decks=6), "here")
    assert event == NewShoe("S1", origin=Origin(7, 3), decks=6)
    assert encode(event)[1]["decks"] == 6
    topic, payload = wire(TOPICS, event)
    assert parse_message(TOPICS, topic, payload) == event


def test_without_decks_the_payload_is_as_before() -> None:
    assert "decks" not in encode(NewShoe("S1", origin=Origin(7, 3)))[1]
    assert parse_dict("event", new_shoe(), "here").decks is None
    assert parse_dict("event", {"v": 1, "type": "new_shoe", "shoe": "S1"}, "here").decks is None


@pytest.mark.parametrize("decks", [0, 17, True, "8", 1e9, 8.0, -1, [8], {"n": 8}])
def test_a_hostile_deck_count_is_rejected_naming_the_key(decks) -> None:
    payload = json.dumps(new_shoe(decks=decks)).encode()
    with pytest.raises(SchemaError, match=r"key decks: expected an integer 1-16"):
        parse_message(TOPICS, "test/v2/T1/event", payload)


def test_null_decks_means_not_said() -> None:
    assert parse_dict("event", new_shoe(decks=None), "here").decks is None


def test_the_schema_takes_what_the_display_takes() -> None:
    schema = json.loads(resources.files("scoreboard.schemas").joinpath("event.json").read_text())
    validator = Draft202012Validator(schema)
    assert validator.is_valid(new_shoe(decks=16)) and validator.is_valid(new_shoe(decks=1))
    for bad in (0, 17, True, "8", 1e9):
        assert not validator.is_valid(new_shoe(decks=bad)), bad


def test_the_dealer_and_so_the_demo_and_the_simulated_controller_say_the_decks() -> None:
    first = next(iter(Dealer(decks=6, seed=1).shoe()))
    assert isinstance(first, NewShoe) and first.decks == 6
    assert encode(first)[1]["decks"] == 6


@needs_mosquitto
def test_the_simulated_controller_publishes_the_decks_of_each_shoe(tmp_path) -> None:
    prefix = unique_prefix()
    topics = Topics(prefix)
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), topics.event).start()
        controller = Controller(
            broker.endpoint(prefix), limits=Limits.default_for(VARIANTS["commission"])
        )
        controller.start()
        try:
            controller.deal(timed(Dealer(decks=1, seed=4).shoe(), 0.0, 0.0))
            assert controller.flush(10)
            assert wait_for(lambda: bool(recorder.on(topics.event)), 10)
        finally:
            controller.stop()
            recorder.stop()
    shoes = [json.loads(p) for p in recorder.on(topics.event) if b"new_shoe" in p]
    assert [payload["decks"] for payload in shoes] == [1]
