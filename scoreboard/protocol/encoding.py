"""Events back to payloads: what the controller publishes and the journal keeps.

The inverse of :mod:`scoreboard.protocol.decoding`: one ``encode_*`` per message
type gives its fields (without ``v``, the event ``type`` and the v2 envelope
``session`` and ``seq``, which :func:`scoreboard.protocol.messages.encode` adds),
which decode back to an equal event.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from scoreboard.game.events import (
    Burn,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    ResyncRequest,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.game.rules import Coup, Game
from scoreboard.protocol.shoe_events import encode_raised


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


def encode_coup(event: CoupReceived) -> dict[str, Any]:
    data = {"shoe": event.shoe, **coup_fields(event.game)}
    if event.ts is not None:
        data["ts"] = event.ts
    return data


def encode_new_shoe(event: NewShoe) -> dict[str, Any]:
    data: dict[str, Any] = {"shoe": event.shoe}
    if event.decks is not None:
        data["decks"] = event.decks
    if event.previous is not None and event.previous_games is not None:
        data["previous"] = {"shoe": event.previous, "games": event.previous_games}
    return data


def encode_shoe_mark(event: Shuffle | CutCard) -> dict[str, Any]:
    """A shuffle or a cut card: only the shoe it belongs to (v2; absent from v1 events)."""
    return {} if event.shoe is None else {"shoe": event.shoe}


def encode_burn(event: Burn) -> dict[str, Any]:
    data: dict[str, Any] = {"cards": [str(card) for card in event.cards]}
    if event.shoe is not None:
        data["shoe"] = event.shoe
    return data


def encode_void(event: Void) -> dict[str, Any]:
    return {"shoe": event.shoe, "game": event.game, "reason": event.reason}


def encode_correct(event: Correct) -> dict[str, Any]:
    # The coup's own shoe is redundant (it defaults to the event's) but helps a reader.
    coup = {"shoe": event.shoe, **coup_fields(event.game)}  # pragma: no mutate
    return {"shoe": event.shoe, "game": event.game.number, "coup": coup, "reason": event.reason}


def encode_snapshot(event: Snapshot) -> dict[str, Any]:
    data = {
        "shoe": event.shoe,
        # Each entry's shoe is redundant (it defaults to the snapshot's) but helps a reader.
        "coups": [{"shoe": event.shoe, **coup_fields(g)} for g in event.games],  # pragma: no mutate
        "voided": list(event.voided),
    }
    if event.ts is not None:
        data["ts"] = event.ts
    return data


def encode_limits(event: LimitsReceived) -> dict[str, Any]:
    limits = event.limits
    data: dict[str, Any] = {
        "currency": limits.currency,
        "bets": {name: list(pair) for name, pair in limits.bets.items()},
        "pays": dict(limits.pays),
    }
    if limits.side_bets:  # only when offered: a v2 board without them reads the rest
        data["side_bets"] = {bet: dict(pays) for bet, pays in limits.side_bets.items()}
    if event.effective_at is not None:
        data["effective_at"] = utc_text(event.effective_at)
    if event.cancel_scheduled:
        data["cancel_scheduled"] = True
    return data


def utc_text(at: float) -> str:
    """A Unix time as ISO 8601 UTC with a ``Z`` (microseconds only when it has them).

    >>> utc_text(1796162400.0), utc_text(1796162400.25)
    ('2026-12-01T22:00:00Z', '2026-12-01T22:00:00.250000Z')
    """
    moment = datetime.fromtimestamp(at, UTC)
    spec = "microseconds" if moment.microsecond else "seconds"
    return moment.replace(tzinfo=None).isoformat(timespec=spec) + "Z"


def encode_controller_status(event: ControllerStatus) -> dict[str, Any]:
    data: dict[str, Any] = {"online": event.online}
    if event.raised:  # only a shoe's controller with a condition raised says it
        data["raised"] = encode_raised(event.raised)
    if event.name:  # only a controller told the table's name says it
        data["name"] = event.name
    return data


def encode_resync(event: ResyncRequest) -> dict[str, Any]:
    data: dict[str, Any] = {"missing": list(event.missing)}
    if event.display is not None:
        data["display"] = event.display
    if event.shoe is not None:
        data["shoe"] = event.shoe
    return data
