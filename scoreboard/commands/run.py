"""``scoreboard run``: the display in production, fed by the table's MQTT broker or its keypad.

Settings come from ``--config`` (YAML, see ``kiosk/scoreboard.yaml``) and are
overridden by flags.  On start the display replays its journal from the state
directory, so after a power cut it shows the roads it showed before, then
catches up from the broker's retained snapshot.

``--feed keypad`` (config ``feed: keypad``) takes the results from the dealer's
numeric keypad instead, for a table whose shoe reads no cards or whose shoe
failed; with a broker configured (an ``mqtt`` section, or ``--mqtt``) the
keypad display is then the table's controller there, and the other displays
follow it.  ``--feed shoe --shoe MODEL --serial PATH`` (config ``feed: shoe``
and a ``shoe:`` section) reads the card-reading shoe's serial line itself, for
a table with one monitor; with a broker it is the table's controller there too.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from scoreboard.cli import CommandError, UsageError
from scoreboard.commands.arg_types import directory, input_file, whole
from scoreboard.commands.display_args import add_display_arguments, languages_from, parse_size
from scoreboard.commands.shoe import add_mqtt_arguments, apply_mqtt_arguments, endpoint_from
from scoreboard.config import FEEDS, Config, ConfigError, JournalConfig, load_config
from scoreboard.core.good_roads import GoodRoadRules
from scoreboard.core.table import FeedStatus, TableState
from scoreboard.core.variants import VARIANTS
from scoreboard.journal import Journal, JournalError
from scoreboard.shoe_config import BAUD_RANGE, MODELS
from scoreboard.stopping import Stop, stop_on_signals

if TYPE_CHECKING:
    from scoreboard.app import Feed
    from scoreboard.feeds.keypad import KeypadFeed
    from scoreboard.feeds.keypad_publish import KeypadPublisher
    from scoreboard.feeds.shoe import ShoeFeed

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="the display: roads fed live from the table's MQTT broker (or the dealer keypad)",
        description=(
            "Show the table's roads, fed live by the shoe controller over MQTT, or by the "
            "dealer's numeric keypad (--feed keypad). Flags override the --config file."
        ),
    )
    parser.add_argument("--config", metavar="FILE", type=input_file, help="YAML configuration file")
    parser.add_argument(
        "--feed",
        choices=FEEDS,
        help=(
            "mqtt: the table's controller (default); keypad: the dealer keys results in; "
            "shoe: the card-reading shoe's serial line (--shoe, --serial); keypad and shoe "
            "publish as the table's controller when a broker is configured (feed:)"
        ),
    )
    shoe = parser.add_argument_group("shoe (--feed shoe; config shoe:)")
    shoe.add_argument("--shoe", choices=tuple(MODELS), help="the card-reading shoe (shoe.model)")
    shoe.add_argument(
        "--serial",
        metavar="PATH",
        help="its serial device, best a /dev/serial/by-id/... name (shoe.serial)",
    )
    shoe.add_argument(
        "--baud",
        type=whole(*BAUD_RANGE),
        metavar="N",
        help="line speed (shoe.baud; default the shoe's: 4800 Angel Eye, 9600 Bee-Tek)",
    )
    add_mqtt_arguments(parser)
    parser.add_argument("--display-id", metavar="ID", help="this display's id (default: hostname)")
    parser.add_argument(
        "--state-dir", metavar="DIR", type=directory, help="where the journal lives"
    )
    add_display_arguments(parser, from_config=True, portrait=False)
    parser.add_argument(
        "--headless",
        action="store_true",
        help="no window: apply the feed, journal it and publish the status only",
    )
    parser.set_defaults(func=run, stops=True)  # SIGTERM and Ctrl-C: scoreboard.stopping


def settings_from_args(args: argparse.Namespace) -> Config:
    try:
        config = load_config(args.config) if args.config else Config()
    except ConfigError as error:
        raise UsageError(str(error)) from None
    if args.mqtt:
        config = replace(config, mqtt_configured=True)
    config = apply_mqtt_arguments(config, args)
    flags = {
        "display_id": args.display_id or None,
        "state_dir": args.state_dir,
        "theme": args.theme or None,
        "windowed": True if args.windowed else None,
        "size": parse_size(args.size) if args.size else None,
        "rotate": getattr(args, "rotate", None),
        "motion": getattr(args, "motion", None),
        "languages": languages_from(args) or None,
        "feed": getattr(args, "feed", None),
    }
    config = _with_shoe_flags(config, args)
    if args.good_roads and config.good_roads is None:  # the file's thresholds, if it has them
        flags["good_roads"] = GoodRoadRules()
    return replace(config, **{name: value for name, value in flags.items() if value is not None})


def _with_shoe_flags(config: Config, args: argparse.Namespace) -> Config:
    """The ``shoe:`` section with ``--shoe``, ``--serial``, ``--baud`` over it; a shoe feed
    that names no shoe or device is a usage error, before anything is opened."""
    flags = {"model": args.shoe, "serial": args.serial, "baud": args.baud}
    shoe = replace(config.shoe, **{name: value for name, value in flags.items() if value})
    feed = args.feed or config.feed
    if feed == "shoe" and (shoe.model is None or shoe.serial is None):
        raise UsageError("the shoe feed needs --shoe and --serial (or shoe.model and shoe.serial)")
    if shoe.suits is not None and shoe.model == "bee-tek":
        raise UsageError("shoe.suits numbers an Angel Eye's card byte; a Bee-Tek names its suits")
    return replace(config, shoe=shoe)


@contextlib.contextmanager
def kiosk_or_refusal(hint: str = "") -> Iterator[None]:
    """Meanwhile, a kiosk with no display to show on ends the command with its message (exit 1)."""
    from scoreboard.monitor import NoDisplayError

    try:
        yield
    except NoDisplayError as error:
        raise CommandError(f"{error}{hint}") from None


def table_from(config: Config) -> TableState:
    """An empty table as the config describes it (id, name, variant, limits, decks)."""
    return TableState(
        table_id=config.table_id,
        table_name=config.table_name,
        variant=VARIANTS[config.variant],
        limits=config.limits,
        decks=config.decks,
    )


def use_static_limits(table: TableState, config: Config) -> None:
    """The config's limits, unless the journal brought back a controller's (they win).

    A v2 controller's limits carry an origin, which the journal keeps; without one,
    the table shows the static limits until the controller's retained limits arrive.
    """
    if config.limits is not None and table.limits_origin is None:
        table.set_limits(config.limits)


def open_journal(
    state_dir: Path, table: TableState, retention: JournalConfig | None = None
) -> Journal:
    """The journal in ``state_dir``, replayed into ``table``; the caller closes it (``with``).

    ``retention`` is the config's ``journal:`` section (how many shoes are kept, and
    whether a shoe must be exported before it may be pruned).
    A state dir that is plainly not one (a file in its way) is a usage error.  A
    disk that cannot be written (read-only, full) is not: the board starts from
    what it could read and runs from memory, and ``journal.health`` says why.
    """
    retention = retention or JournalConfig()
    try:
        journal = Journal(
            state_dir, keep_shoes=retention.keep_shoes, require_export=retention.require_export
        )
    except JournalError as error:
        raise UsageError(str(error)) from None
    journal.replay(table)
    return journal


def controller_publisher(config: Config, who: str) -> KeypadPublisher | None:
    """With a broker configured, this display as the table's controller there (``who``:
    the keypad or the shoe, in the log and the client id); else None."""
    from scoreboard.feeds.keypad_publish import KeypadPublisher
    from scoreboard.link import default_client_id

    if not config.mqtt_configured:
        log.info("%s: no broker configured; the games stay on this display", who)
        return None
    endpoint = endpoint_from(config)
    return KeypadPublisher(
        endpoint,
        client_id=config.mqtt.client_id
        or default_client_id(f"{who}-{config.display_id}", endpoint.topics),
        limits=config.limits,
        state_dir=config.resolved_state_dir,
        name=who,
        table_name=config.table_name,
    )


def keypad_feed(config: Config, journal: Journal) -> KeypadFeed:
    """The dealer keypad, the table's controller on the broker when one is configured."""
    from scoreboard.feeds.keypad import KeypadFeed

    publisher = controller_publisher(config, "keypad")
    return KeypadFeed(config.keypad, journal=journal, publisher=publisher, decks=config.decks)


def shoe_feed(config: Config, table: TableState, journal: Journal) -> ShoeFeed:
    """The card-reading shoe's line read by this display (the bridge's parts), journaled
    in its journal, and published as the table's controller when a broker is configured."""
    from scoreboard.controller.bridge import Bridge, desk_for
    from scoreboard.controller.open_hand import HandFile
    from scoreboard.controller.shoe_line import ShoeLine
    from scoreboard.feeds.shoe import ShoeFeed
    from scoreboard.shoes.emulate import Emulated

    shoe = config.shoe
    assert shoe.model is not None and shoe.serial is not None  # settings_from_args checked
    desk = desk_for(Emulated(shoe.model), table, decks=config.decks, suits=shoe.suits)
    bridge = Bridge(
        line=ShoeLine(shoe.serial, shoe.line_speed),
        desk=desk,
        table=table,
        publisher=controller_publisher(config, "shoe"),
        journal=journal,
        hand_file=HandFile(config.resolved_state_dir),
        name="shoe",
    )
    log.info(
        "shoe: reading %s on %s at %d baud; shoe %s, %d games so far",
        shoe.model,
        shoe.serial,
        shoe.line_speed,
        table.shoe_id,
        len(table.games),
    )
    return ShoeFeed(bridge)


def run(args: argparse.Namespace) -> int:
    from scoreboard.feeds.mqtt import MqttFeed
    from scoreboard.theme import ThemeError, load_theme

    config = settings_from_args(args)
    keypad = config.feed == "keypad"
    if keypad and args.headless:
        raise UsageError("--headless has no keyboard: the keypad feed needs the kiosk's screen")
    try:  # a bad theme is a config mistake: refuse before touching the journal or the broker
        theme = load_theme(config.theme, config.languages)
    except ThemeError as error:
        raise UsageError(str(error)) from None
    endpoint = None if config.feed in ("keypad", "shoe") else endpoint_from(config)
    table = table_from(config)
    # The command owns the journal: whatever way the loop ends, it is closed here.
    with open_journal(config.resolved_state_dir, table, config.journal) as journal:
        use_static_limits(table, config)
        feed: Feed
        if keypad:
            feed = keypad_feed(config, journal)
        elif endpoint is None:
            feed = shoe_feed(config, table, journal)
        else:
            feed = MqttFeed(endpoint, display_id=config.display_id, journal=journal)
        # systemd stops the board with SIGTERM: the loop sees it and leaves through its
        # cleanup, which says goodbye on the status topic (scoreboard.stopping).
        with stop_on_signals() as stop:
            if args.headless:
                return run_headless(feed, table, stop=stop)
            try:
                import scoreboard.app  # noqa: F401  (pygame is there: the display can be shown)
            except ImportError:
                log.warning("run: the display app is not available; running headless")
                return run_headless(feed, table, stop=stop)
            headless = " A display with no screen runs as `scoreboard run --headless`."
            from scoreboard.app import run_kiosk

            with kiosk_or_refusal(headless):
                return run_kiosk(
                    feed,
                    table,
                    theme,
                    good_roads=config.good_roads,
                    windowed=config.windowed,
                    size=config.size,
                    rotate=config.rotate,
                    motion=config.motion,
                    promo=config.promo,
                    stop=stop,
                    rotate_languages=config.rotate_languages,
                )


def run_headless(
    feed: Feed,
    table: TableState,
    *,
    stop: Stop | None = None,
) -> int:
    """The app loop without a window: wait for input, a deadline or ``stop``; poll, log the mark.

    It polls once a second at least, so a failing journal (which the feed tries
    again on every poll) clears even while the table is quiet.  Under systemd it
    is ready after its first poll and feeds the watchdog after each one (there is
    no frame to produce).
    """
    from scoreboard.heartbeat import Heartbeat, summary
    from scoreboard.sdnotify import Notifier

    heartbeat = Heartbeat(Notifier.from_environ())
    halt = stop or Stop()
    wake = threading.Event()
    halt.on_stop(wake.set)
    feed.start(wake.set)
    shown: FeedStatus | None = None
    try:
        while not halt.requested:
            now = time.monotonic()
            deadlines = [feed.next_deadline(now), heartbeat.deadline(now)]
            timeout = min([1.0, *(max(0.0, d - now) for d in deadlines if d is not None)])
            wake.wait(timeout)
            wake.clear()
            now = time.monotonic()
            table.switch_limits(time.time())  # scheduled limits due: at most a second late
            feed.poll(table, now)
            status = feed.status(now)
            journal_ok = feed.journal_health().ok
            line = summary(status, table.shoe_number, table.last_number, (), journal_ok)
            heartbeat.good_step(time.monotonic(), line)
            if status is not shown:
                log.info(
                    "feed %s: shoe %s, %d games, missing %s",
                    status.value,
                    table.shoe_id,
                    len(table.games),
                    list(table.missing),
                )
                shown = status
    finally:
        heartbeat.stopping()
        feed.stop()
    return 0
