"""``scoreboard pit``: the pit's tools, a command to a table's controller and its answer.

``scoreboard pit void|correct|new-shoe|limits --table ID ...`` publishes one
command on ``PREFIX/cmd/pit`` (signed with ``--hmac-key-file`` when the table
has a key), waits for the controller's answer on ``PREFIX/cmd/pit/answer`` and
prints it.  Exit status: 0 applied, 1 refused (by the controller, or by the
broker's ACL), 2 no answer within ``--timeout`` (or a usage error, nothing sent).
"""

from __future__ import annotations

import argparse
import getpass
import re
import sys
import threading
import time
import uuid
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TextIO

from scoreboard.cli import UsageError
from scoreboard.cli.arg_types import clock
from scoreboard.cli.options import apply_mqtt_arguments, endpoint_from, spec_limits
from scoreboard.game.cards import UnknownCardError, parse_cards
from scoreboard.game.notation import ResultsSyntaxError, parse_results
from scoreboard.game.rules import Coup, Game, ImpossibleHandError, record_coup
from scoreboard.link.client import (
    Link,
    Message,
    Publish,
    PublishRefused,
    Refused,
    Subscribed,
    default_client_id,
)
from scoreboard.protocol import ProtocolError
from scoreboard.protocol.errors import SchemaError, SignatureError
from scoreboard.protocol.fields import _utc_time
from scoreboard.protocol.messages import parse_pit, pit_wire
from scoreboard.protocol.topics import Topics
from scoreboard.settings.config import Config
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.pit import (
    ChangeLimits,
    CorrectGame,
    PitAction,
    PitAnswer,
    PitCommand,
    StartShoe,
    VoidGame,
)

APPLIED, REFUSED, NO_ANSWER = 0, 1, 2


def run(args: argparse.Namespace) -> int:
    config = apply_mqtt_arguments(Config(), args)
    # A one-off client: the broker need not keep its session after it leaves.
    config = replace(config, mqtt=replace(config.mqtt, session_expiry=0))
    endpoint = endpoint_from(config)
    command = PitCommand(
        args.id or uuid.uuid4().hex,
        action_from(args, config.table_id, time.time()),
        args.by or _login(),
        time.time(),
    )
    try:  # read back as the controller will: every bound checked here, before sending
        parse_pit(endpoint.topics, *pit_wire(endpoint.topics, command))
    except ProtocolError as error:
        raise UsageError(f"not sent: {error}") from None
    return send(endpoint, command, args.timeout)


def action_from(args: argparse.Namespace, table_id: str, now: float) -> PitAction:
    """The command's action from the flags, or a one-line usage error naming the flag."""
    if args.action == "void":
        return VoidGame(args.game, _reason(args.reason), args.shoe)
    if args.action == "correct":
        return CorrectGame(Game(args.game, coup_from(args)), _reason(args.reason), args.shoe)
    if args.action == "new-shoe":
        shoe = args.shoe or f"{table_id}-P{time.strftime('%Y%m%d-%H%M%S', time.gmtime(now))}"
        return StartShoe(shoe, args.reason)
    at = None if args.at is None else when(args.at, now)
    return ChangeLimits(spec_limits(args.limits, args), at)


def _reason(text: str) -> str:
    if not text.strip():
        raise UsageError("--reason: say why (the audit keeps it)")
    return text


def coup_from(args: argparse.Namespace) -> Coup:
    """The corrected coup: ``--result`` in the notation, or ``--player`` and ``--banker`` cards."""
    if args.result is not None:
        if args.banker is not None:
            raise UsageError("--banker goes with --player, not with --result")
        try:
            coups = parse_results(args.result)
        except ResultsSyntaxError as error:
            raise UsageError(f"--result: {error}") from None
        if len(coups) != 1:
            raise UsageError(f"--result: one coup, such as Bp, got {args.result!r}")
        return coups[0]
    if args.banker is None:
        raise UsageError("--player needs --banker")
    try:
        return record_coup(parse_cards(args.player), parse_cards(args.banker))
    except (UnknownCardError, ImpossibleHandError) as error:
        raise UsageError(f"--player/--banker: {error}") from None


def when(text: str, now: float) -> float:
    """``--at``: ``HH:MM`` (the next such local time) or an ISO 8601 UTC time, not past."""
    if re.fullmatch(r"\d\d:\d\d", text):
        try:
            hour, minute = map(int, clock(text).split(":"))
        except argparse.ArgumentTypeError as error:
            raise UsageError(f"--at: {error}") from None
        local = datetime.fromtimestamp(now).astimezone()
        moment = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if moment.timestamp() <= now:
            moment += timedelta(days=1)
        return moment.timestamp()
    try:
        at = _utc_time({"at": text}, "at", "--at")
    except SchemaError as error:
        raise UsageError(str(error)) from None
    assert at is not None
    if at <= now:
        raise UsageError(f"--at: {text} is past; leave --at out to change the limits now")
    return at


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""


def send(endpoint: Endpoint, command: PitCommand, timeout: float) -> int:
    """Publish ``command`` once subscribed to the answers, wait for its answer, print it."""
    topics = endpoint.topics
    link = Link(
        endpoint,
        client_id=default_client_id(f"pit-{command.id[:12]}", topics),
        subscriptions=(topics.pit_answer,),
    )
    wake = threading.Event()
    link.start(wake.set)
    deadline = time.monotonic() + timeout
    sent = False
    try:
        while time.monotonic() < deadline:
            for event in link.drain():
                match event:
                    case Subscribed(refused=refused) if not sent:
                        if refused:
                            why = f"the broker does not let this account read {refused[0]}"
                            return _say(REFUSED, why)
                        topic, payload = pit_wire(topics, command, endpoint.hmac_key)
                        link.publish(Publish(topic, payload, qos=1))
                        sent = True
                    case PublishRefused(reason=reason):
                        return _say(
                            REFUSED,
                            f"the broker refused the command ({reason}): this account may not "
                            "send pit commands (see kiosk/mosquitto/acl)",
                        )
                    case Refused(reason=reason):
                        return _say(REFUSED, f"the broker refused the connection: {reason}")
                    case Message(topic=topic, payload=payload):
                        answer = _answer(topics, topic, payload, endpoint.hmac_key)
                        if answer is not None and answer.id == command.id:
                            if answer.applied:
                                return _say(APPLIED, f"applied: {answer.detail}", sys.stdout)
                            return _say(REFUSED, f"refused: {answer.detail}")
            wake.wait(max(0.0, deadline - time.monotonic()))
            wake.clear()
    finally:
        link.stop()
    where = "after sending it" if sent else "(never connected and subscribed)"
    return _say(NO_ANSWER, f"no answer from the table's controller within {timeout:g} s {where}")


def _answer(topics: Topics, topic: str, payload: bytes, key: bytes | None) -> PitAnswer | None:
    """An answer on the answer topic, checked (and its signature, with a key); else None."""
    try:
        answer = parse_pit(topics, topic, payload, key=key)
    except SignatureError:
        return _unverified(topics, topic, payload)
    except ProtocolError as error:
        print(f"scoreboard pit: ignored a message on {topic}: {error}", file=sys.stderr)
        return None
    return answer if isinstance(answer, PitAnswer) else None


def _unverified(topics: Topics, topic: str, payload: bytes) -> PitAnswer | None:
    """An answer this key cannot verify: never taken as applied, shown for what it says."""
    try:
        answer = parse_pit(topics, topic, payload)
    except ProtocolError:
        return None
    if not isinstance(answer, PitAnswer):
        return None
    said = f"{'applied' if answer.applied else 'refused'}: {answer.detail}"
    return PitAnswer(
        answer.id,
        False,
        "the controller's answer is not signed with this --hmac-key-file (is it the "
        f"table's key?); unverified, it says {said!r}",
    )


def _say(code: int, text: str, stream: TextIO = sys.stderr) -> int:
    print(f"scoreboard pit: {text}", file=stream)
    return code
