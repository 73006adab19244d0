"""Pit commands and answers on the wire: what the tool writes, the controller reads back,
the shipped schemas accept, and what either refuses, naming the key."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from scoreboard.controller._pit_desk import Ruling
from scoreboard.controller.inbox import MAX_PIT_HEARD, ControllerInbox
from scoreboard.game.cards import parse_cards
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, record_coup, result_coup
from scoreboard.link.client import Message
from scoreboard.protocol import (
    ImpossibleCoupError,
    SchemaError,
    SignatureError,
    Topics,
    UnknownTopicError,
    canonical_json,
    parse_message,
    sign,
)
from scoreboard.protocol.messages import parse_pit, pit_wire
from scoreboard.protocol.pit import command_id_of, encode_pit_command
from scoreboard.table.pit import (
    ChangeLimits,
    CorrectGame,
    PitAnswer,
    PitCommand,
    StartShoe,
    VoidGame,
)

TOPICS = Topics("doc/v2/T1")
KEY = b"table key"
AT = 1_796_162_400.0
LIMITS = Limits(
    currency="EUR",
    bets={"player": (50, 20000), "banker": (50, 20000)},
    pays={"player": "1:1", "banker": "0.95:1"},
)
COMMANDS = [
    PitCommand("c1", VoidGame(17, "misdeal"), "anna", AT),
    PitCommand("c2", VoidGame(17, "misdeal", "S1"), "anna", AT),
    PitCommand("c3", CorrectGame(Game(17, result_coup(Winner.BANKER, player_pair=True)), "x"),
               "", AT),
    PitCommand(
        "c4",
        CorrectGame(Game(3, record_coup(*map(parse_cards, (["9S", "KH"], ["4D", "3C"])))), "x"),
        "anna",
        AT,
    ),
    PitCommand("c5", StartShoe("T1-P20261201-220000", "cards damaged"), "anna", AT),
    PitCommand("c6", ChangeLimits(LIMITS), "anna", AT),
    PitCommand("c7", ChangeLimits(LIMITS, AT + 3600), "anna", AT + 0.25),
]  # fmt: skip
ANSWERS = [PitAnswer("c1", True, "game 17 of shoe S1 voided"), PitAnswer("c2", False, "no")]


def validate(kind: str, instance) -> list[str]:
    text = resources.files("scoreboard.schemas").joinpath(f"{kind}.json").read_text()
    validator = Draft202012Validator(json.loads(text))
    return [f"{e.json_path}: {e.message}" for e in validator.iter_errors(instance)]


@pytest.mark.parametrize("message", COMMANDS + ANSWERS, ids=lambda m: m.id)
def test_what_is_written_reads_back_the_same_and_validates(message):
    topic, payload = pit_wire(TOPICS, message, KEY)
    assert parse_pit(TOPICS, topic, payload, key=KEY) == message
    kind = "pit" if isinstance(message, PitCommand) else "pit_answer"
    assert topic == f"doc/v2/T1/cmd/{'pit' if kind == 'pit' else 'pit/answer'}"
    assert validate(kind, json.loads(payload)) == []


def test_a_table_with_a_key_refuses_an_unsigned_or_wrongly_signed_command():
    topic, unsigned = pit_wire(TOPICS, COMMANDS[0])
    with pytest.raises(SignatureError, match="unsigned"):
        parse_pit(TOPICS, topic, unsigned, key=KEY)
    _, other = pit_wire(TOPICS, COMMANDS[0], b"another key")
    with pytest.raises(SignatureError, match="does not match"):
        parse_pit(TOPICS, topic, other, key=KEY)


def test_a_command_signed_for_another_table_is_refused():
    _, payload = pit_wire(Topics("doc/v2/T2"), COMMANDS[0], KEY)
    with pytest.raises(SignatureError):
        parse_pit(TOPICS, TOPICS.pit, payload, key=KEY)


def raw(**fields) -> bytes:
    data = {"v": 2, "id": "r1", "by": "anna", "at": "2026-12-01T22:00:00Z", **fields}
    return canonical_json(data)


@pytest.mark.parametrize(
    ("fields", "error", "words"),
    [
        ({"action": "correct", "game": 1, "reason": "x",
          "coup": {"cards": {"player": ["2H", "3D"], "banker": ["4S", "2C"]}}},
         ImpossibleCoupError, "key cards"),
        ({"action": "correct", "game": 1, "reason": "x",
          "coup": {"result": "B", "cards": {"player": ["9H", "KD"], "banker": ["7S", "QC"]}}},
         ImpossibleCoupError, "key result"),
        ({"action": "void", "game": 1, "reason": "  "}, SchemaError, "needs a reason"),
        ({"action": "void", "game": 1000, "reason": "x"}, SchemaError, "key game"),
        ({"action": "void", "game": 1}, SchemaError, "key reason: required"),
        ({"action": "explode"}, SchemaError, "key action"),
        ({"action": "new_shoe"}, SchemaError, "key shoe"),
        ({"action": "limits", "limits": {"currency": "eur", "bets": {}, "pays": {}}},
         SchemaError, "key currency"),
        ({"action": "void", "game": 1, "reason": "x", "at": "22:00"}, SchemaError, "key at"),
        ({"action": "void", "game": 1, "reason": "x", "id": ""}, SchemaError, "key id"),
    ],
)  # fmt: skip
def test_a_bad_command_is_refused_naming_the_key(fields, error, words):
    with pytest.raises(error, match=words):
        parse_pit(TOPICS, TOPICS.pit, raw(**fields))


def test_a_new_shoe_without_a_reason_and_an_answer_without_words_read_as_built_without():
    """Both are optional on the wire and in code, and mean the same there: nothing."""
    command = parse_pit(TOPICS, TOPICS.pit, raw(action="new_shoe", shoe="S2"))
    assert command == PitCommand("r1", StartShoe("S2"), "anna", AT)
    answer = canonical_json({"v": 2, "id": "c1", "applied": True})
    assert parse_pit(TOPICS, TOPICS.pit_answer, answer) == PitAnswer("c1", True)


def test_a_pit_command_is_never_a_table_event():
    _, payload = pit_wire(TOPICS, COMMANDS[0])
    with pytest.raises(UnknownTopicError, match="not a table event"):
        parse_message(TOPICS, TOPICS.pit, payload)


def test_the_inbox_hears_commands_and_answers_for_those_it_cannot_trust():
    """Unsigned: refused by id, with why; no readable id: nothing to answer, ignored."""
    inbox = ControllerInbox(TOPICS, KEY)
    topic, signed = pit_wire(TOPICS, COMMANDS[0], KEY)
    _, unsigned = pit_wire(TOPICS, COMMANDS[1])
    inbox.take([Message(topic, signed, 0.0), Message(topic, unsigned, 0.0)])
    inbox.take([Message(topic, b"junk", 0.0)])
    first, second = inbox.pit_heard
    assert first == COMMANDS[0]
    assert isinstance(second, Ruling) and second.answer.id == "c2"
    assert not second.answer.applied and second.answer.detail.startswith("signature: ")


def test_the_documented_examples_validate_and_parse():
    text = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    section = text[text.index("## Pit commands") :]
    section = section[: section.index("\n## ", 4)]
    blocks = [b.split("```")[0] for b in section.split("```json\n")[1:]]
    assert len(blocks) >= 5
    for block in blocks:
        data = json.loads(block)
        kind = "pit_answer" if "applied" in data else "pit"
        assert validate(kind, data) == [], block
        topic = TOPICS.pit if kind == "pit" else TOPICS.pit_answer
        parse_pit(TOPICS, topic, canonical_json(sign(data, None)))


def test_the_inbox_holds_a_bounded_number_of_commands_for_a_controller_that_serves_none():
    inbox = ControllerInbox(TOPICS, None)
    for n in range(MAX_PIT_HEARD + 10):
        command = PitCommand(f"c{n}", VoidGame(1, "x"), "anna", AT)
        inbox.take([Message(*pit_wire(TOPICS, command), 0.0)])
    assert len(inbox.pit_heard) == MAX_PIT_HEARD


def test_ids_and_names_up_to_64_characters_are_read_and_one_more_is_refused():
    assert parse_pit(TOPICS, TOPICS.pit, raw(action="void", game=1, reason="x", id="i" * 64)).id
    assert parse_pit(TOPICS, TOPICS.pit, raw(action="void", game=1, reason="x", by="b" * 64)).by
    for key in ("id", "by"):
        with pytest.raises(SchemaError, match=f"key {key}: longer than 64 characters"):
            parse_pit(TOPICS, TOPICS.pit, raw(action="void", game=1, reason="x", **{key: "i" * 65}))
    with pytest.raises(SchemaError, match="key action: longer than 16 characters"):
        parse_pit(TOPICS, TOPICS.pit, raw(action="v" * 17))


def test_a_new_shoe_without_a_reason_has_an_empty_one():
    command = parse_pit(TOPICS, TOPICS.pit, raw(action="new_shoe", shoe="S1"))
    assert command.action == StartShoe("S1", "")


def test_a_correction_names_its_game_once_beside_the_coup():
    data = encode_pit_command(COMMANDS[3])
    assert data["game"] == 3 and "game" not in data["coup"]
    assert "effective_at" not in encode_pit_command(COMMANDS[5])


def test_an_answer_detail_is_read_up_to_600_characters():
    def answer(detail: str) -> bytes:
        return canonical_json({"v": 2, "id": "c1", "applied": False, "detail": detail})

    assert parse_pit(TOPICS, TOPICS.pit_answer, answer("d" * 600)).detail == "d" * 600
    with pytest.raises(SchemaError, match="key detail: longer than 600 characters"):
        parse_pit(TOPICS, TOPICS.pit_answer, answer("d" * 601))


@pytest.mark.parametrize(
    ("payload", "found"),
    [
        (b'{"id": "c"}', "c"),
        (b'{"id": "%s"}' % (b"c" * 64), "c" * 64),
        (b'{"id": "%s"}' % (b"c" * 65), None),
        (b'{"id": ""}', None),
        (b'{"id": 5}', None),
        (b'{"id": "c\\u0000"}', None),
        (b'["c"]', None),
        # Only the first 64 KiB are read: an id in a longer payload is not answered.
        (b'{"id": "c", "pad": "%s"}' % (b"p" * (64 * 1024)), None),
        (b'{"id": "c", "pad": "%s"}' % (b"p" * (64 * 1024 - 30)), "c"),
    ],
    ids=["one", "64", "65", "empty", "number", "control", "list", "over 64 KiB", "under"],
)
def test_the_id_of_an_unreadable_command_is_found_only_when_it_could_be_one(payload, found):
    assert command_id_of(payload) == found
