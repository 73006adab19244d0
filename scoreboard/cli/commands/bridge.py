"""``scoreboard bridge``: a card-reading shoe's serial line, published as the table's controller.

Reads an Angel Eye or a Bee-Tek shoe with pyserial (docs/shoes.md) and publishes
protocol v2 to the table's broker (:mod:`scoreboard.bridge.shoe_bridge`).  The
journal in its state dir keeps the shoe and its games, so a restart continues the
same shoe.  Settings come from ``--config`` (the same YAML as ``run``: ``mqtt``,
``table``, ``journal``) and are overridden by flags.  Under systemd it says ready
after its first turn and feeds the watchdog from its loop; SIGTERM ends it with
its goodbye on the status topic (exit 0).
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import replace
from pathlib import Path

from scoreboard.cli import UsageError
from scoreboard.cli.commands._shared import open_journal, table_from, use_static_limits
from scoreboard.cli.options import apply_mqtt_arguments, endpoint_from
from scoreboard.cli.parsers.bridge import STATE_SUBDIR
from scoreboard.service.stopping import stop_on_signals
from scoreboard.settings.config import Config, load_config
from scoreboard.settings.reader import ConfigError
from scoreboard.shoes.emulate import Emulated

log = logging.getLogger(__name__)

#: Each shoe's line speed (docs/shoes.md).
BAUDS = {Emulated.ANGEL_EYE: 4800, Emulated.BEE_TEK: 9600}


def settings(args: argparse.Namespace) -> tuple[Config, Path]:
    """The config with the flags applied, and the bridge's state dir."""
    try:
        config = load_config(args.config) if args.config else Config()
    except ConfigError as error:
        raise UsageError(str(error)) from None
    config = apply_mqtt_arguments(config, args)
    state_dir = args.state_dir or config.resolved_state_dir / STATE_SUBDIR
    return replace(config, state_dir=state_dir), state_dir


def run(args: argparse.Namespace) -> int:
    from scoreboard.bridge.shoe_bridge import Bridge, desk_for
    from scoreboard.controller.open_hand import HandFile
    from scoreboard.controller.shoe_line import ShoeLine
    from scoreboard.keypad.publish import KeypadPublisher
    from scoreboard.link.client import default_client_id
    from scoreboard.service.heartbeat import Heartbeat
    from scoreboard.service.sdnotify import Notifier
    from scoreboard.shoes import SuitOrder

    kind = Emulated(args.shoe)
    if args.suits and kind is not Emulated.ANGEL_EYE:
        raise UsageError("--suits numbers Angel Eye's card byte; a Bee-Tek names its suits")
    try:
        suits = SuitOrder(args.suits.upper()) if args.suits else None
    except ValueError as error:
        raise UsageError(f"--suits: {error}") from None
    config, state_dir = settings(args)
    endpoint = endpoint_from(config)
    table = table_from(config)
    with open_journal(state_dir, table, config.journal) as journal:
        use_static_limits(table, config)
        desk = desk_for(kind, table, decks=config.decks, suits=suits)
        publisher = KeypadPublisher(
            endpoint,
            client_id=config.mqtt.client_id or default_client_id("bridge", endpoint.topics),
            limits=config.limits,  # the configured ones only: no controller invents limits
            state_dir=state_dir,
            name="bridge",
            table_name=config.table_name,
        )
        line = ShoeLine(args.serial, args.baud or BAUDS[kind])
        bridge = Bridge(
            line=line,
            desk=desk,
            table=table,
            publisher=publisher,
            journal=journal,
            hand_file=HandFile(state_dir),
        )
        log.info(
            "bridge: %s on %s -> %s %s; shoe %s, %d games so far",
            kind.value,
            args.serial,
            endpoint.mqtt.broker_names,
            endpoint.topics.prefix,
            table.shoe_id,
            len(table.games),
        )
        heartbeat = Heartbeat(Notifier.from_environ())
        with stop_on_signals() as stop:
            try:
                bridge.run(stop, heartbeat.good_step)
            finally:
                heartbeat.stopping()
    return 0
