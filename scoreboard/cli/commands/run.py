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
import logging
import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from scoreboard.cli import UsageError
from scoreboard.cli.commands._shared import (
    kiosk_or_refusal,
    open_journal,
    table_from,
    use_static_limits,
)
from scoreboard.cli.options import apply_mqtt_arguments, endpoint_from, languages_from, parse_size
from scoreboard.journal import Journal
from scoreboard.roads.good_roads import GoodRoadRules
from scoreboard.service.stopping import Stop, stop_on_signals
from scoreboard.settings.config import Config, load_config
from scoreboard.settings.reader import ConfigError
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

if TYPE_CHECKING:
    from scoreboard.feeds.shoe import ShoeFeed
    from scoreboard.keypad.feed import KeypadFeed
    from scoreboard.keypad.publish import KeypadPublisher
    from scoreboard.kiosk.feed import Feed

log = logging.getLogger(__name__)


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


def controller_publisher(config: Config, who: str) -> KeypadPublisher | None:
    """With a broker configured, this display as the table's controller there (``who``:
    the keypad or the shoe, in the log and the client id); else None."""
    if not config.mqtt_configured:
        log.info("%s: no broker configured; the games stay on this display", who)
        return None
    from scoreboard.keypad.publish import KeypadPublisher  # with the link and paho
    from scoreboard.link.client import default_client_id

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
    from scoreboard.keypad.feed import KeypadFeed

    publisher = controller_publisher(config, "keypad")
    return KeypadFeed(config.keypad, journal=journal, publisher=publisher, decks=config.decks)


def shoe_feed(config: Config, table: TableState, journal: Journal) -> ShoeFeed:
    """The card-reading shoe's line read by this display (the bridge's parts), journaled
    in its journal, and published as the table's controller when a broker is configured."""
    from scoreboard.bridge.shoe_bridge import Bridge, desk_for
    from scoreboard.controller.open_hand import HandFile
    from scoreboard.controller.shoe_line import ShoeLine
    from scoreboard.feeds.shoe import ShoeFeed
    from scoreboard.shoes import SuitOrder
    from scoreboard.shoes.emulate import Emulated

    shoe = config.shoe
    assert shoe.model is not None and shoe.serial is not None  # settings_from_args checked
    suits = SuitOrder(shoe.suits) if shoe.suits else None
    desk = desk_for(Emulated(shoe.model), table, decks=config.decks, suits=suits)
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
    from scoreboard.screen.theme.loading import load_theme
    from scoreboard.screen.theme.values import ThemeError

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
            from scoreboard.feeds.mqtt import MqttFeed  # here only: the link and paho with it

            feed = MqttFeed(endpoint, display_id=config.display_id, journal=journal)
        # systemd stops the board with SIGTERM: the loop sees it and leaves through its
        # cleanup, which says goodbye on the status topic (scoreboard.service.stopping).
        with stop_on_signals() as stop:
            if args.headless:
                return run_headless(feed, table, stop=stop)
            try:
                import scoreboard.kiosk.loop  # noqa: F401  (pygame is there: the display can be shown)
            except ImportError:
                log.warning("run: the display app is not available; running headless")
                return run_headless(feed, table, stop=stop)
            headless = " A display with no screen runs as `scoreboard run --headless`."
            from scoreboard.kiosk.loop import run_kiosk

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
    from scoreboard.service.heartbeat import Heartbeat, summary
    from scoreboard.service.sdnotify import Notifier

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
