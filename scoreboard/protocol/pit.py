"""Pit commands and their answers on the wire: ``PREFIX/cmd/pit`` and ``PREFIX/cmd/pit/answer``.

A command is not a table event: no board applies it, only the table's
controller reads it (docs/protocol.md, "Pit commands").  It reuses the feed's
field readers, so a correction's coup is checked exactly as a ``correct``
event's is (cards the tableau would not deal are refused here, naming them) and
limits exactly as a limits payload's.  Neither message carries ``session`` or
``seq``: the command id and its time order them.

>>> command = PitCommand("c-1", VoidGame(17, "misdeal", "S1"), "anna", 1796162400.0)
>>> sorted(encode_pit_command(command).items())  # doctest: +NORMALIZE_WHITESPACE
[('action', 'void'), ('at', '2026-12-01T22:00:00Z'), ('by', 'anna'), ('game', 17),
 ('id', 'c-1'), ('reason', 'misdeal'), ('shoe', 'S1')]
>>> decode_pit_command(encode_pit_command(command), "here") == command
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from scoreboard.game.events import LimitsReceived
from scoreboard.protocol import decoding as read
from scoreboard.protocol.contract import MAX_REASON
from scoreboard.protocol.encoding import coup_fields, encode_limits, utc_text
from scoreboard.protocol.errors import SchemaError
from scoreboard.protocol.fields import _game, _game_number, _get, _shoe, _string, _utc_time
from scoreboard.table.pit import (
    ACTION_NAMES,
    ChangeLimits,
    CorrectGame,
    PitAction,
    PitAnswer,
    PitCommand,
    StartShoe,
    VoidGame,
)

#: The longest command id and sender name.
MAX_ID = 64
MAX_BY = 64


def encode_pit_command(command: PitCommand) -> dict[str, Any]:
    """The command's fields (the registry adds ``v``)."""
    action = command.action
    data: dict[str, Any] = {
        "id": command.id,
        "by": command.by,
        "at": utc_text(command.at),
        "action": ACTION_NAMES[type(action)],
    }
    match action:
        case VoidGame(game=number, reason=reason, shoe=shoe):
            data |= {"game": number, "reason": reason}
        case CorrectGame(game=game, reason=reason, shoe=shoe):
            coup = {k: v for k, v in coup_fields(game).items() if k != "game"}
            data |= {"game": game.number, "coup": coup, "reason": reason}
        case StartShoe(shoe=shoe, reason=reason):
            data |= {"reason": reason}
        case ChangeLimits(limits=limits, effective_at=at):
            shoe = None
            data["limits"] = encode_limits(LimitsReceived(limits))
            if at is not None:
                data["effective_at"] = utc_text(at)
    if shoe is not None:
        data["shoe"] = shoe
    return data


def decode_pit_command(data: Mapping[str, Any], where: str) -> PitCommand:
    """A command, every field checked; the action's own fields by its ``action``."""
    command_id = _command_id(data, where)
    by = _string(data, "by", where, limit=MAX_BY)
    at = _utc_time(data, "at", where)
    if at is None:
        raise SchemaError(where, "key at: required but missing")
    name = _string(data, "action", where, limit=16)
    where = f"{where} ({name})"
    action: PitAction
    if name == "void":
        number = _game_number(_get(data, "game", int, where), "game", where)
        action = VoidGame(number, _reason(data, where), _shoe_of(data, where))
    elif name == "correct":
        coup = dict(_get(data, "coup", dict, where))
        coup["game"] = _game_number(_get(data, "game", int, where), "game", where)
        game = _game(coup, f"{where} coup")
        action = CorrectGame(game, _reason(data, where), _shoe_of(data, where))
    elif name == "new_shoe":
        reason = _string(data, "reason", where, limit=MAX_REASON, default="")
        action = StartShoe(_shoe(data, where), reason)
    elif name == "limits":
        limits = read.decode_limits(_get(data, "limits", dict, where), f"{where} limits")
        action = ChangeLimits(limits.limits, _utc_time(data, "effective_at", where))
    else:
        raise SchemaError(where, "key action: expected void, correct, new_shoe or limits")
    return PitCommand(command_id, action, by, at)


def _command_id(data: Mapping[str, Any], where: str) -> str:
    command_id: str = _string(data, "id", where, limit=MAX_ID)
    if not command_id:
        raise SchemaError(where, "key id: expected 1-64 characters, got an empty string")
    return command_id


def _reason(data: Mapping[str, Any], where: str) -> str:
    """A void's or a correction's reason: required, the audit shows it."""
    reason: str = _string(data, "reason", where, limit=MAX_REASON)
    if not reason.strip():
        raise SchemaError(where, "key reason: a void or a correction needs a reason")
    return reason


def _shoe_of(data: Mapping[str, Any], where: str) -> str | None:
    return _shoe(data, where) if "shoe" in data else None


def encode_pit_answer(answer: PitAnswer) -> dict[str, Any]:
    return {"id": answer.id, "applied": answer.applied, "detail": answer.detail}


def decode_pit_answer(data: Mapping[str, Any], where: str) -> PitAnswer:
    detail = _string(data, "detail", where, limit=2 * MAX_REASON + 200, default="")
    return PitAnswer(_command_id(data, where), _get(data, "applied", bool, where), detail)


def command_id_of(payload: bytes) -> str | None:
    """The ``id`` of a command that could not be read, so its refusal can be answered.

    >>> command_id_of(b'{"id": "c-9", "action": "void"}'), command_id_of(b"junk")
    ('c-9', None)
    """
    try:
        data = json.loads(payload[: 64 * 1024])
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    command_id = data.get("id")
    if isinstance(command_id, str) and 0 < len(command_id) <= MAX_ID and command_id.isprintable():
        return command_id
    return None
