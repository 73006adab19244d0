"""``scoreboard shoe --emulate angel-eye|bee-tek``: a card-reading shoe on a serial line.

Deals simulated 8-deck shoes as that shoe's bytes (docs/shoes.md), at a pace,
into ``--serial PATH`` or into a pseudo-terminal it creates and names on stdout,
so a reader (the bridge, a test, ``cat``) opens it as it would the real shoe.
``scoreboard shoe`` hands over to :func:`run` when ``--emulate`` is given.
"""

from __future__ import annotations

import argparse
import logging
import math
import threading

from scoreboard.cli import CommandError, UsageError
from scoreboard.game.shoe import Dealer
from scoreboard.service.stopping import stop_on_signals

log = logging.getLogger(__name__)


def run(args: argparse.Namespace) -> int:
    from scoreboard.controller.emulated_shoe import (
        BAUDS,
        LineError,
        PseudoTerminal,
        SerialDevice,
        send,
    )
    from scoreboard.shoes.emulate import SHUFFLE, Habits, angel_eye, bee_tek

    pace, baud = _checked(args)
    shuffle = SHUFFLE if args.shuffle_seconds is None else args.shuffle_seconds / pace
    try:
        dealer = Dealer(decks=args.decks, seed=args.seed)
    except ValueError as error:
        raise UsageError(str(error)) from None
    baud = baud or BAUDS[args.emulate]
    try:
        line = SerialDevice(args.serial, baud) if args.serial else PseudoTerminal(baud)
    except (LineError, OSError) as error:
        raise CommandError(str(error)) from None
    if not args.serial:
        print(line.path, flush=True)
    log.info(
        "shoe: emulating %s on %s at %d baud, %d decks, seed %d, pace %.2fs",
        args.emulate,
        line.path,
        baud,
        args.decks,
        dealer.seed,
        pace,
    )
    deal = angel_eye if args.emulate == "angel-eye" else bee_tek
    chunks = deal(dealer, seed=dealer.seed, shoes=args.shoes, habits=Habits(shuffle=shuffle))
    with stop_on_signals() as stop:
        woken = threading.Event()
        stop.on_stop(woken.set)  # a stop wakes the pace's wait; the loop then leaves
        try:
            written, dropped = send(line, chunks, pace, sleep=woken.wait, stopped=woken.is_set)
        except LineError as error:
            raise CommandError(str(error)) from None
        finally:
            line.close()
    log.info("shoe: %d bytes written, %d dropped (no room on the line)", written, dropped)
    return 0


def _checked(args: argparse.Namespace) -> tuple[float, int | None]:
    """The flags --emulate needs, checked: a finite positive pace, no MQTT-only flags."""
    if not math.isfinite(args.pace) or args.pace <= 0:
        raise UsageError(f"--pace must be a number of seconds above 0, got {args.pace}")
    for flag in ("tables", "state_dir", "mqtt", "limits", "currency"):
        if getattr(args, flag, None) is not None:
            name = "--" + flag.replace("_", "-")
            raise UsageError(f"{name} is for the MQTT controller; --emulate writes a serial line")
    if getattr(args, "limit_tiers", False):
        raise UsageError("--limit-tiers is for the MQTT controller; --emulate writes a serial line")
    return args.pace, args.baud


def refuse_without_emulate(args: argparse.Namespace) -> None:
    """``--serial`` and ``--baud`` say where an emulated shoe writes: alone they mean nothing."""
    for flag in ("serial", "baud"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag} goes with --emulate angel-eye|bee-tek")
