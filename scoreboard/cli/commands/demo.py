"""``scoreboard demo``: the kiosk dealing a simulated shoe, shoe after shoe, forever.

For trade shows and for trying a theme: full screen unless ``--windowed``, one
coup every ``--pace`` seconds, a shuffle screen between shoes.  Esc or q quits
(full screen too); Ctrl-C (or SIGTERM) always does.  The board starts mid-shoe
(``--start-at``, by default 30-60 coups already dealt) so it is never empty;
``--variant``, ``--currency`` and ``--limits`` set the table it shows.

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
import os
import random
import threading
from typing import TYPE_CHECKING

from scoreboard.cli import UsageError
from scoreboard.cli.commands._run_tag import this_run
from scoreboard.cli.commands._shared import kiosk_or_refusal, open_journal
from scoreboard.cli.options import (
    DisplayRequest,
    apply_mqtt_arguments,
    display_from_args,
    endpoint_from,
    spec_limits,
)
from scoreboard.feeds.simulated import split_history
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer
from scoreboard.game.variants import VARIANTS
from scoreboard.service.stopping import stop_on_signals
from scoreboard.settings.config import Config, JournalConfig
from scoreboard.table.state import TableState

if TYPE_CHECKING:
    from scoreboard.controller import Controller

log = logging.getLogger(__name__)

CONTROLLER_JOIN_SECONDS = 2.0  # its dealing ends at its next step once told to stop
#: Coups already dealt when the demo starts (drawn from the seed), so the board is never empty.
START_AT_RANGE = (30, 60)


def run(args: argparse.Namespace) -> int:
    display = display_from_args(args)
    if args.mqtt and args.state_dir is not None:
        raise UsageError("--state-dir journals the demo's own deal: not with --mqtt")
    limits = spec_limits(args.limits, args)
    config = apply_mqtt_arguments(Config(), args)
    try:
        dealer = Dealer(decks=args.decks, seed=args.seed, table_id=config.table_id, run=this_run())
    except ValueError as error:
        raise UsageError(str(error)) from None
    table = TableState(
        table_id=config.table_id,
        table_name=args.table_name,
        variant=VARIANTS[args.variant],
    )  # limits unknown until the demo's dealer (or controller) says them, as a table's
    if args.mqtt:
        return run_over_mqtt(args, config, dealer, table, display, limits)
    return run_simulated(args, dealer, table, display, limits, config.journal)


def start_at(args: argparse.Namespace, dealer: Dealer) -> int:
    """Coups dealt before the board comes on: ``--start-at``, else drawn from the seed.

    >>> start_at(argparse.Namespace(start_at=None), Dealer(seed=1)) in range(30, 61)
    True
    """
    if args.start_at is not None:
        return int(args.start_at)
    return random.Random(dealer.seed).randint(*START_AT_RANGE)


def show_kwargs(args: argparse.Namespace, display: DisplayRequest) -> dict:
    """The kiosk's screen settings from the demo's flags (Esc or q quit, full screen too)."""
    return {
        "windowed": args.windowed,
        "size": display.size,
        "run_for": args.duration,
        "rotate": display.rotate,
        "portrait": display.portrait,
        # Esc and q quit a demo on a desk; not one a service manager keeps up (the kiosk
        # session sets NOTIFY_SOCKET), where a visitor's key would only blank the stand.
        "quit_keys": "NOTIFY_SOCKET" not in os.environ,
        "motion": display.motion,
        "good_roads": display.good_roads,
    }


def run_simulated(
    args: argparse.Namespace,
    dealer: Dealer,
    table: TableState,
    display: DisplayRequest,
    limits: Limits,
    retention: JournalConfig | None = None,
) -> int:
    """The board fed by the dealer in-process, journaled when given a state dir.

    A journal that brought back a shoe wins over ``--start-at``: the board goes
    on from what it showed instead of a pre-dealt shoe.
    """
    from scoreboard.feeds.simulated import SimulatedFeed

    with contextlib.ExitStack() as stack:
        journal = None
        if args.state_dir is not None:
            journal = stack.enter_context(open_journal(args.state_dir, table, retention))
        coups = start_at(args, dealer)
        if table.shoe_id is not None:
            log.info("demo: the journal brought back shoe %s; not starting mid-shoe", table.shoe_id)
            coups = 0
        shuffle = 3 * args.pace if args.shuffle_seconds is None else args.shuffle_seconds
        history, timed = split_history(dealer.timed(args.pace, shuffle), coups)
        feed = SimulatedFeed(
            dealer,
            pace=args.pace,
            shuffle_seconds=shuffle,
            journal=journal,
            history=history,
            timed=timed,
            limits=limits,
        )
        from scoreboard.kiosk.loop import run_kiosk

        with stop_on_signals() as stop, kiosk_or_refusal():
            return run_kiosk(feed, table, display.theme, stop=stop, **show_kwargs(args, display))


def run_over_mqtt(
    args: argparse.Namespace,
    config: Config,
    dealer: Dealer,
    table: TableState,
    display: DisplayRequest,
    limits: Limits,
) -> int:
    """A controller thread publishing to the broker, and the board as its MQTT display.

    The controller publishes the demo's limits (and so its variant's pays) and
    starts mid-shoe: the shoe so far goes out in the snapshot it publishes on
    connect, so the board takes it in at once.
    """
    from scoreboard.controller import start_background_controller
    from scoreboard.feeds.mqtt import MqttFeed

    endpoint = endpoint_from(config)
    display_id = f"demo-{config.display_id}"
    log.info(
        "demo: dealing to %s %s (display %s)",
        endpoint.mqtt.broker_names,
        endpoint.topics.prefix,
        display_id,
    )
    feed = MqttFeed(endpoint, display_id=display_id, simulated=True)
    shuffle = 3 * args.pace if args.shuffle_seconds is None else args.shuffle_seconds
    history, timed = split_history(dealer.timed(args.pace, shuffle), start_at(args, dealer))
    from scoreboard.kiosk.loop import run_kiosk

    # SIGTERM and Ctrl-C end the kiosk's loop and the controller's dealing; each leaves
    # through its cleanup: the display's goodbye, then the controller's.
    with stop_on_signals() as stop, kiosk_or_refusal():
        controller, thread = start_background_controller(
            endpoint, dealer=dealer, limits=limits, history=history, timed=timed
        )
        stop.on_stop(controller.stop_dealing)
        try:
            return run_kiosk(feed, table, display.theme, stop=stop, **show_kwargs(args, display))
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
