"""``scoreboard shoe``: a simulated shoe controller publishing to an MQTT broker.

Also home of the MQTT connection flags shared with ``scoreboard run``.
"""

from __future__ import annotations

import argparse
import logging
import random
from collections.abc import Callable
from dataclasses import replace

from scoreboard.cli import UsageError
from scoreboard.cli.commands import _emulate_shoe
from scoreboard.cli.commands._run_tag import this_run
from scoreboard.cli.options import (
    apply_mqtt_arguments,
    endpoint_from,
    limits_from_args,
    spec_limits,
)
from scoreboard.game.floor import LIMIT_TIERS, floor_tables
from scoreboard.game.limits import Limits, describe
from scoreboard.game.shoe import Dealer
from scoreboard.service.stopping import stop_on_signals
from scoreboard.settings.config import Config

log = logging.getLogger(__name__)


def run(args: argparse.Namespace) -> int:
    from scoreboard.controller import Controller

    if args.emulate:
        return _emulate_shoe.run(args)
    _emulate_shoe.refuse_without_emulate(args)
    shuffle_seconds = 3 * args.pace if args.shuffle_seconds is None else args.shuffle_seconds
    if args.tables is not None:
        return run_floor(args, shuffle_seconds)
    if args.limit_tiers:
        raise UsageError("--limit-tiers gives the tables of a floor theirs: only with --tables")
    limits = limits_from_args(args)
    config = apply_mqtt_arguments(Config(), args)
    try:
        dealer = Dealer(decks=args.decks, seed=args.seed, table_id=config.table_id, run=this_run())
    except ValueError as error:
        raise UsageError(str(error)) from None
    endpoint = endpoint_from(config)
    controller = Controller(
        endpoint,
        limits=limits,
        state_dir=args.state_dir,
        cards=not args.no_cards,
        table_name=args.table_name,
    )
    log.info(
        "shoe: table %s, %d decks, seed %d, pace %.2fs, limits %s -> %s %s, session %d",
        config.table_id,
        args.decks,
        dealer.seed,
        args.pace,
        "none (displays keep their config's)" if limits is None else describe(limits),
        endpoint.mqtt.broker_names,
        endpoint.topics.prefix,
        controller.session,
    )
    with stop_on_signals() as stop:  # a service stop says offline (retained) before leaving
        stop.on_stop(controller.stop_dealing)
        controller.start()
        try:
            controller.deal(dealer.timed(args.pace, shuffle_seconds), shoes=args.shoes)
            if args.linger and not stop.requested:
                controller.linger(args.linger)
        finally:
            controller.stop()
    return 0


def floor_limits(args: argparse.Namespace) -> Callable[[str], Limits | None]:
    """Each table's limits from its sample tier's spec: ``--limit-tiers``, else ``--limits``.

    Neither given: none, as for one table.  Tiers are sample limits, so they are
    asked for by name, in a currency the operator gives.
    """
    if not args.limit_tiers:
        limits = limits_from_args(args)
        return lambda _tier: limits
    if args.limits is not None:
        raise UsageError("--limit-tiers and --limits each set the tables' limits: give one")
    if args.currency is None:
        raise UsageError("--limit-tiers needs --currency (the floor's, such as USD)")
    tiers = {tier: spec_limits(tier, args, "--limit-tiers") for tier in LIMIT_TIERS}
    return tiers.__getitem__


def run_floor(args: argparse.Namespace, shuffle_seconds: float) -> int:
    """``--tables N``: every table its own controller, dealt on its own thread."""
    from scoreboard.controller import Controller
    from scoreboard.controller.floor import FLOOR_KEEPALIVE, deal_floor, delayed

    if args.prefix:
        raise UsageError("--prefix names one table's topics; --tables gives each its own")
    stem = args.table or "T"
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    try:
        tables = floor_tables(args.tables, stem, seed, args.pace)
    except ValueError as error:
        raise UsageError(str(error)) from None
    tier_limits = floor_limits(args)
    base = apply_mqtt_arguments(Config(), args)
    if args.keepalive is None:
        base = replace(base, mqtt=replace(base.mqtt, keepalive=FLOOR_KEEPALIVE))
    if base.mqtt.username:
        log.warning(
            "shoe: %d tables share the account %s; a broker that binds client ids to "
            "accounts (use_username_as_clientid) keeps only one of them connected",
            len(tables),
            base.mqtt.username,
        )
    deals = []
    run = this_run()  # one tag for the floor's process: each table's ids stay its own
    for table in tables:
        config = replace(base, table_id=table.table_id)
        try:
            dealer = Dealer(decks=args.decks, seed=table.seed, table_id=table.table_id, run=run)
        except ValueError as error:
            raise UsageError(str(error)) from None
        limits = tier_limits(table.limits)
        state_dir = None if args.state_dir is None else args.state_dir / table.table_id
        controller = Controller(endpoint_from(config), limits=limits, state_dir=state_dir)
        events = delayed(dealer.timed(table.pace, shuffle_seconds), table.offset)
        deals.append((controller, events))
    log.info(
        "shoe: a floor of %d tables %s ... %s, seed %d, pace %.2fs +-25%%, keepalive %d s -> %s",
        len(tables),
        tables[0].table_id,
        tables[-1].table_id,
        seed,
        args.pace,
        base.mqtt.keepalive,
        base.mqtt.broker_names,
    )
    with stop_on_signals() as stop:
        deal_floor(deals, shoes=args.shoes, stop=stop)
    return 0
