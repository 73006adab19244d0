"""Events back to payloads: what the controller publishes and the journal keeps.

The inverse of :mod:`scoreboard.protocol.decoding`: ``encode`` gives the payload
kind and dict for an event, which decodes back to an equal event.
"""

from __future__ import annotations

from typing import Any

from scoreboard.core.events import (
    Burn,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    Event,
    LimitsReceived,
    NewShoe,
    ResyncRequest,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.core.rules import Coup, Game
from scoreboard.protocol.contract import VERSION


def coup_fields(game: Game) -> dict[str, Any]:
    """The wire fields of one coup: cards when known, else the result and flags."""
    coup: Coup = game.coup
    fields: dict[str, Any] = {"game": game.number}
    if coup.has_cards:
        fields["cards"] = {
            "player": [str(card) for card in coup.player],
            "banker": [str(card) for card in coup.banker],
        }
        return fields
    fields["result"] = coup.winner.value
    for name in ("player_pair", "banker_pair"):
        if getattr(coup, name):
            fields[name] = True
    if coup.natural:
        fields["natural"] = True
    for name in ("player_total", "banker_total"):
        if getattr(coup, name) is not None:
            fields[name] = getattr(coup, name)
    return fields


def encode(event: Event) -> tuple[str, dict[str, Any]]:
    """``(kind, payload dict)`` for an event: what the controller sends and the journal keeps.

    >>> encode(NewShoe("S1"))
    ('event', {'v': 1, 'type': 'new_shoe', 'shoe': 'S1'})
    """
    v: dict[str, Any] = {"v": VERSION}
    match event:
        case CoupReceived(shoe=shoe, game=game, ts=ts):
            data = {**v, "shoe": shoe, **coup_fields(game)}
            if ts:
                data["ts"] = ts
            return "coup", data
        case NewShoe(shoe=shoe):
            return "event", {**v, "type": "new_shoe", "shoe": shoe}
        case Shuffle():
            return "event", {**v, "type": "shuffle"}
        case Burn(cards=cards):
            return "event", {**v, "type": "burn", "cards": [str(card) for card in cards]}
        case CutCard():
            return "event", {**v, "type": "cut_card"}
        case Void(shoe=shoe, game=number, reason=reason):
            return "event", {**v, "type": "void", "shoe": shoe, "game": number, "reason": reason}
        case Correct(shoe=shoe, game=game, reason=reason):
            coup = {"shoe": shoe, **coup_fields(game)}
            return "event", {
                **v,
                "type": "correct",
                "shoe": shoe,
                "game": game.number,
                "coup": coup,
                "reason": reason,
            }
        case Snapshot(shoe=shoe, games=games, voided=voided, ts=ts):
            data = {
                **v,
                "shoe": shoe,
                "coups": [{"shoe": shoe, **coup_fields(game)} for game in games],
                "voided": list(voided),
            }
            if ts:
                data["ts"] = ts
            return "snapshot", data
        case LimitsReceived(limits=limits):
            return "limits", {
                **v,
                "currency": limits.currency,
                "bets": {name: list(pair) for name, pair in limits.bets.items()},
                "pays": dict(limits.pays),
            }
        case ControllerStatus(online=online):
            return "controller_status", {**v, "online": online}
        case ResyncRequest(display=display, shoe=shoe, missing=missing):
            data = {**v, "missing": list(missing)}
            if display is not None:
                data["display"] = display
            if shoe is not None:
                data["shoe"] = shoe
            return "resync", data
    raise TypeError(f"not a protocol event: {event!r}")
