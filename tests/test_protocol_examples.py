"""docs/protocol.md's examples are real payloads: each one parses, and every kind has one.

A vendor copies these examples, so each ```json block of the page must be a
whole payload the project's decoder reads on the topic its caption names (the
line just above the block), validates against the shipped JSON Schema, and
that the encoder writes back unchanged.  Every message kind of
``scoreboard/protocol/kinds.py`` (and every event type, pit action and the
display's status) must have at least one, so a new kind without an example
fails here.  The signing test vector is recomputed by
``scoreboard.protocol.signing``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from scoreboard.protocol import (
    MESSAGES,
    Kind,
    Topics,
    canonical_json,
    decode,
    encode,
    parse_message,
    signature,
)
from scoreboard.protocol.messages import parse_pit, pit_wire
from scoreboard.table.pit import ACTION_NAMES

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"
TOPICS = Topics("baccarat/v2/T1")
ROOT = "baccarat/v2"
CAPTION = re.compile(r"`((?:PREFIX|ROOT)/[^`]+)`")
BLOCK = re.compile(r"^```json\n(.*?)^```", re.S | re.M)
DISPLAY_STATUS = "display_status"


@dataclass(frozen=True)
class Example:
    line: int  # of the opening fence, for the failure message
    topic: str  # as the caption names it: PREFIX/coup, PREFIX/display/<display-id>/status
    text: str

    @property
    def where(self) -> str:
        return f"docs/protocol.md:{self.line} ({self.topic})"

    @property
    def mqtt_topic(self) -> str:
        """The topic on table T1 (a placeholder such as ``<display-id>`` filled in)."""
        topic = self.topic.replace("PREFIX", TOPICS.prefix).replace("ROOT", ROOT)
        return re.sub(r"<[^>]+>", "T1-a", topic)

    @property
    def kind(self) -> str:
        """The payload kind: a :class:`Kind` value, or ``display_status``."""
        kind = TOPICS.kind_of(self.mqtt_topic)
        if kind is not None:
            return kind.value
        if re.fullmatch(rf"{re.escape(TOPICS.prefix)}/display/[^/]+/status", self.mqtt_topic):
            return DISPLAY_STATUS
        raise AssertionError(f"{self.where}: the caption names no topic of the contract")


def examples(text: str) -> list[Example]:
    """Every ```json block of ``text`` with the topic its caption (the line above) names."""
    found = []
    for block in BLOCK.finditer(text):
        line = text.count("\n", 0, block.start()) + 1
        caption = text[: block.start()].rstrip("\n").rsplit("\n", 1)[-1]
        topics = CAPTION.findall(caption)
        found.append(Example(line, topics[-1] if topics else "", block.group(1)))
    return found


def schema(kind: str) -> dict[str, Any]:
    text = resources.files("scoreboard.schemas").joinpath(f"{kind}.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def schema_errors(kind: str, data: Any) -> list[str]:
    validator = Draft202012Validator(schema(kind))
    return [f"{e.json_path}: {e.message}" for e in validator.iter_errors(data)]


def check(example: Example) -> dict[str, Any]:
    """Parse ``example`` as its topic's reader does; the payload it is (raises on any fault)."""
    assert example.topic, f"{example.where}: the line above a JSON example names no topic"
    topic = example.mqtt_topic
    data = decode(topic, example.text.encode("utf-8"), None)  # size, UTF-8, JSON, an object
    kind = example.kind
    assert schema_errors(kind, data) == [], example.where
    body = {k: v for k, v in data.items() if k != "sig"}
    if kind in (Kind.PIT, Kind.PIT_ANSWER):
        message = parse_pit(TOPICS, topic, canonical_json(data))
        assert json.loads(pit_wire(TOPICS, message)[1]) == body, example.where
    elif kind != DISPLAY_STATUS:
        event = parse_message(TOPICS, topic, canonical_json(data))
        assert encode(event)[1] == body, f"{example.where}: not what the encoder writes"
    return data


DOCUMENTED = examples(DOC.read_text(encoding="utf-8"))


@pytest.mark.parametrize("example", DOCUMENTED, ids=lambda e: f"line{e.line}")
def test_each_example_is_a_payload_the_decoder_reads_and_the_encoder_writes(example: Example):
    check(example)


def covered(found: list[Example]) -> set[tuple[str, str | None]]:
    """(kind, event type or pit action) of each example."""
    kinds = set()
    for example in found:
        data = check(example)
        tag = data.get("type") if example.kind == Kind.EVENT else data.get("action")
        kinds.add((example.kind, tag))
    return kinds


def wanted() -> set[tuple[str, str | None]]:
    """Every message the contract defines: each kind, each event type, each pit action."""
    kinds: set[tuple[str, str | None]] = {(m.kind.value, m.tag) for m in MESSAGES}
    kinds |= {(Kind.PIT.value, action) for action in ACTION_NAMES.values()}
    kinds |= {(Kind.PIT_ANSWER.value, None), (DISPLAY_STATUS, None)}
    assert {kind for kind, _ in kinds} >= {kind.value for kind in Kind}
    return kinds


def test_every_message_kind_has_an_example():
    missing = wanted() - covered(DOCUMENTED)
    assert not missing, f"docs/protocol.md has no example of {sorted(missing, key=str)}"


def test_an_example_taken_out_is_noticed():
    """The coverage check bites: without the page's only burn, ``burn`` is missing."""
    burns = [e for e in DOCUMENTED if '"type": "burn"' in e.text]
    assert len(burns) == 1
    without = [e for e in DOCUMENTED if e is not burns[0]]
    assert wanted() - covered(without) == {(Kind.EVENT.value, "burn")}


def test_a_caption_naming_no_topic_is_refused():
    (example,) = examples('The coup:\n```json\n{"v": 2}\n```\n')
    with pytest.raises(AssertionError, match="names no topic"):
        check(example)


def vector(text: str) -> dict[str, str]:
    """The signing test vector: the ```text block with ``key:``, ``topic:``, ``canonical:``."""
    for block in re.findall(r"^```text\n(.*?)^```", text, re.S | re.M):
        fields = dict(line.split(":", 1) for line in block.splitlines() if ":" in line)
        fields = {name.strip(): value.strip() for name, value in fields.items()}
        if {"key", "topic", "canonical", "sig"} <= fields.keys():
            return fields
    raise AssertionError("docs/protocol.md has no signing test vector")


def test_the_signing_vector_is_what_signing_computes():
    fields = vector(DOC.read_text(encoding="utf-8"))
    key, topic = fields["key"].encode("utf-8"), fields["topic"]
    payload = json.loads(fields["canonical"])
    assert canonical_json(payload).decode("utf-8") == fields["canonical"]  # canonical as written
    assert signature(payload, key, topic) == fields["sig"]
    published = [e for e in DOCUMENTED if f'"sig": "{fields["sig"]}"' in e.text]
    assert len(published) == 1, "the vector's payload as published, with its sig"
    signed = canonical_json(json.loads(published[0].text))
    assert parse_message(TOPICS, topic, signed, key=key) == parse_message(TOPICS, topic, signed)
    with pytest.raises(Exception, match="signature"):
        parse_message(TOPICS, topic, signed, key=key + b"x")
