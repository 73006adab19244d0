"""``scoreboard demo``: the kiosk dealing a simulated shoe, shoe after shoe, forever.

For trade shows and for trying a theme: full screen unless ``--windowed``, one
coup every ``--pace`` seconds, a shuffle screen between shoes.  Esc quits in
windowed mode; Ctrl-C (or SIGTERM) always does.

With ``--mqtt HOST:PORT`` the demo takes the real path: a simulated controller
deals on a background thread and publishes to that broker, and the board is an
ordinary MQTT display of the table, so more displays (``scoreboard run --mqtt
HOST:PORT``) can watch the same shoe.

With ``--state-dir DIR`` (and no ``--mqtt``) the demo journals what it deals
there, as a display does, and replays it on the next start; by default it
keeps nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from scoreboard.cli import UsageError, sigterm_as_interrupt
from scoreboard.commands.run import open_journal
from scoreboard.commands.shoe import add_mqtt_arguments, apply_mqtt_arguments, endpoint_from
from scoreboard.commands.themes import add_display_arguments, display_from_args
from scoreboard.config import Config
from scoreboard.core.shoe import Dealer
from scoreboard.core.table import Limits, TableState

if TYPE_CHECKING:
    from scoreboard.controller import Controller
    from scoreboard.theme import Theme

log = logging.getLogger(__name__)

CONTROLLER_JOIN_SECONDS = 10.0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="show the board dealing a simulated shoe (full screen)",
        description=(
            "Show the board dealing a simulated shoe at a table's pace, forever. With --mqtt, "
            "a simulated controller publishes the shoe to that broker and the board shows it "
            "as a live display would."
        ),
    )
    add_display_arguments(parser, default_size=None)
    parser.add_argument("--windowed", action="store_true", help="a window instead of full screen")
    parser.add_argument(
        "--pace", type=float, default=4.0, metavar="SECONDS", help="seconds per coup (default 4)"
    )
    parser.add_argument("--seed", type=int, help="shuffle seed (default: random)")
    parser.add_argument("--decks", type=int, default=8, metavar="N", help="decks per shoe (1-8)")
    parser.add_argument(
        "--shuffle-seconds",
        type=float,
        metavar="SECONDS",
        help="how long the shuffle screen shows between shoes (default 3 x pace)",
    )
    parser.add_argument("--table-name", default="", help="table name for the header")
    parser.add_argument("--duration", type=float, metavar="SECONDS", help="quit after this long")
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        type=Path,
        help="journal the deal here, replay it on start (default: keep nothing; not with --mqtt)",
    )
    add_mqtt_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    theme, size = display_from_args(args)
    if args.pace <= 0:
        raise UsageError("--pace must be a positive number of seconds")
    if args.mqtt and args.state_dir is not None:
        raise UsageError("--state-dir journals the demo's own deal: not with --mqtt")
    config = apply_mqtt_arguments(Config(), args)
    try:
        dealer = Dealer(decks=args.decks, seed=args.seed, table_id=config.table_id)
    except ValueError as error:
        raise UsageError(str(error)) from None
    table = TableState(table_id=config.table_id, table_name=args.table_name)
    if args.mqtt:
        return run_over_mqtt(args, config, dealer, table, theme, size)
    return run_simulated(args, dealer, table, theme, size)


def run_simulated(
    args: argparse.Namespace,
    dealer: Dealer,
    table: TableState,
    theme: Theme,
    size: tuple[int, int] | None,
) -> int:
    """The board fed by the dealer in-process, journaled when given a state dir."""
    from scoreboard.app import run_kiosk
    from scoreboard.feeds.simulated import SimulatedFeed

    with contextlib.ExitStack() as stack:
        journal = None
        if args.state_dir is not None:
            journal = stack.enter_context(open_journal(args.state_dir, table))
        feed = SimulatedFeed(
            dealer, pace=args.pace, shuffle_seconds=args.shuffle_seconds, journal=journal
        )
        with sigterm_as_interrupt():
            return run_kiosk(
                feed, table, theme, windowed=args.windowed, size=size, run_for=args.duration
            )


def run_over_mqtt(
    args: argparse.Namespace,
    config: Config,
    dealer: Dealer,
    table: TableState,
    theme: Theme,
    size: tuple[int, int] | None,
) -> int:
    """A controller thread publishing to the broker, and the board as its MQTT display."""
    from scoreboard.app import run_kiosk
    from scoreboard.controller import start_background_controller
    from scoreboard.feeds.mqtt import MqttFeed

    endpoint = endpoint_from(config)
    display_id = f"demo-{config.display_id}"
    log.info(
        "demo: dealing to %s:%d %s (display %s)",
        endpoint.mqtt.host,
        endpoint.mqtt.port,
        endpoint.topics.prefix,
        display_id,
    )
    feed = MqttFeed(endpoint, display_id=display_id)
    controller, thread = start_background_controller(
        endpoint,
        dealer=dealer,
        limits=Limits.default_for(table.variant),
        pace=args.pace,
        shuffle_seconds=args.shuffle_seconds,
    )
    # SIGTERM leaves as Ctrl-C does: through the loop's cleanup (the display's goodbye)
    # and the controller's.
    with sigterm_as_interrupt():
        try:
            return run_kiosk(
                feed, table, theme, windowed=args.windowed, size=size, run_for=args.duration
            )
        finally:
            stop_controller(controller, thread)


def stop_controller(controller: Controller, thread: threading.Thread) -> None:
    """Publish the controller's goodbye and wait for its dealing thread to end."""
    try:
        controller.stop()
    except Exception:
        log.exception("demo: stopping the controller failed")
    thread.join(CONTROLLER_JOIN_SECONDS)
    if thread.is_alive():
        log.warning("demo: the controller thread did not stop in %.0f s", CONTROLLER_JOIN_SECONDS)
