"""``scoreboard demo``: the kiosk dealing a simulated shoe, shoe after shoe, forever.

For trade shows and for trying a theme: full screen unless ``--windowed``, one
coup every ``--pace`` seconds, a shuffle screen between shoes.  Esc quits in
windowed mode; Ctrl-C (or SIGTERM) always does.

With ``--mqtt HOST:PORT`` the demo takes the real path: a simulated controller
deals on a background thread and publishes to that broker, and the board is an
ordinary MQTT display of the table, so more displays (``scoreboard run --mqtt
HOST:PORT``) can watch the same shoe.
"""

from __future__ import annotations

import argparse
import logging
import threading

from scoreboard.cli import UsageError, sigterm_as_interrupt
from scoreboard.commands.shoe import add_mqtt_arguments, apply_mqtt_arguments, mqtt_endpoint
from scoreboard.commands.themes import add_display_arguments, display_from_args
from scoreboard.config import Config
from scoreboard.core.shoe import Dealer
from scoreboard.core.table import Limits, TableState

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
    add_mqtt_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    theme, size = display_from_args(args)
    if args.pace <= 0:
        raise UsageError("--pace must be a positive number of seconds")
    config = apply_mqtt_arguments(Config(), args)
    try:
        dealer = Dealer(decks=args.decks, seed=args.seed, table_id=config.table_id)
    except ValueError as error:
        raise UsageError(str(error)) from None
    table = TableState(table_id=config.table_id, table_name=args.table_name)
    from scoreboard.app import run_kiosk

    if not args.mqtt:
        from scoreboard.feeds.simulated import SimulatedFeed

        feed = SimulatedFeed(dealer, pace=args.pace, shuffle_seconds=args.shuffle_seconds)
        return run_kiosk(
            feed, table, theme, windowed=args.windowed, size=size, run_for=args.duration
        )
    return run_over_mqtt(args, config, dealer, table, theme, size)


def run_over_mqtt(args, config: Config, dealer: Dealer, table: TableState, theme, size) -> int:
    """A controller thread publishing to the broker, and the board as its MQTT display."""
    from scoreboard.app import run_kiosk
    from scoreboard.feeds.controller import start_background_controller
    from scoreboard.feeds.mqtt import MqttFeed

    topics, password, key = mqtt_endpoint(config)
    display_id = f"demo-{config.display_id}"
    log.info(
        "demo: dealing to %s:%d %s (display %s)",
        config.mqtt.host,
        config.mqtt.port,
        topics.prefix,
        display_id,
    )
    feed = MqttFeed(
        config.mqtt, topics=topics, display_id=display_id, password=password, hmac_key=key
    )
    controller, thread = start_background_controller(
        config.mqtt,
        topics=topics,
        dealer=dealer,
        limits=Limits.default_for(table.variant),
        pace=args.pace,
        shuffle_seconds=args.shuffle_seconds,
        hmac_key=key,
        password=password,
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


def stop_controller(controller, thread: threading.Thread) -> None:
    """Publish the controller's goodbye and wait for its dealing thread to end."""
    try:
        controller.stop()
    except Exception:
        log.exception("demo: stopping the controller failed")
    thread.join(CONTROLLER_JOIN_SECONDS)
    if thread.is_alive():
        log.warning("demo: the controller thread did not stop in %.0f s", CONTROLLER_JOIN_SECONDS)
