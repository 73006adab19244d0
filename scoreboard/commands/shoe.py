"""``scoreboard shoe``: a simulated shoe controller publishing to an MQTT broker.

Also home of the MQTT connection flags shared with ``scoreboard run``.
"""

from __future__ import annotations

import argparse
import logging
import random
import time
from collections.abc import Callable
from dataclasses import replace

from scoreboard.cli import UsageError
from scoreboard.commands import emulate_shoe
from scoreboard.commands.arg_types import (
    DAY,
    DECKS,
    KEEPALIVE,
    SEED,
    SHOES,
    directory,
    input_file,
    seconds,
    whole,
)
from scoreboard.commands.table_args import (
    add_table_arguments,
    add_table_name,
    limits_from_args,
    spec_limits,
)
from scoreboard.config import PROTOCOLS, Config, ConfigError, TlsConfig, parse_brokers, with_mqtt
from scoreboard.config_endpoint import Endpoint, load_endpoint
from scoreboard.controller.floor import LIMIT_TIERS, MAX_TABLES
from scoreboard.core.limits import Limits, describe
from scoreboard.core.shoe import MAX_DECKS, Dealer, run_tag
from scoreboard.stopping import stop_on_signals

log = logging.getLogger(__name__)


def this_run() -> str:
    """This process's :func:`~scoreboard.core.shoe.run_tag`: its shoe ids are its own.

    A controller or demo restarted with the same ``--seed`` deals the same cards
    under new shoe ids, so no board ignores its shoes as ones already finished.
    """
    return run_tag(int(time.time()), random.SystemRandom().randrange(1296))


def add_mqtt_arguments(parser: argparse.ArgumentParser, *, lobby: bool = False) -> None:
    """The broker, identity, credential and TLS flags both ends of the feed take.

    ``lobby``: worded for a lobby, which shows every table under a root prefix
    (``--table`` stays, hidden, so that the lobby can refuse it in one line).
    """
    group = parser.add_argument_group("MQTT")
    group.add_argument(
        "--mqtt",
        metavar="HOST:PORT[,HOST:PORT...]",
        help="broker (default 127.0.0.1:1883); several (a cluster's nodes): tried in order, "
        "moving to the next when one fails",
    )
    table_help = argparse.SUPPRESS if lobby else "table id (default T1)"
    group.add_argument("--table", metavar="ID", help=table_help)
    group.add_argument(
        "--prefix",
        metavar="ROOT" if lobby else "PREFIX",
        help="root prefix the tables are under (default baccarat/v2)"
        if lobby
        else "topic prefix (default baccarat/v2/ID; a v1 controller's is baccarat/v1/ID)",
    )
    group.add_argument(
        "--mqtt-protocol", choices=PROTOCOLS, help="MQTT protocol version (default 5)"
    )
    group.add_argument("--username", metavar="U", help="broker user name")
    group.add_argument(
        "--password-file", metavar="F", type=input_file, help="file holding the password"
    )
    group.add_argument("--tls-ca", metavar="F", type=input_file, help="CA certificate: enables TLS")
    group.add_argument(
        "--tls-cert", metavar="F", type=input_file, help="client certificate (with --tls-key)"
    )
    group.add_argument("--tls-key", metavar="F", type=input_file, help="client private key")
    group.add_argument(
        "--hmac-key-file",
        metavar="F",
        type=input_file,
        help="shared key: sign / require signatures",
    )
    group.add_argument(
        "--keepalive",
        metavar="SECONDS",
        type=KEEPALIVE,
        help="seconds between pings; a link silent for 1.5 x this is lost, and a controller's "
        "last will goes out (default: the config's mqtt.keepalive, 1 s; `shoe --tables`: 5 s)",
    )


def apply_mqtt_arguments(config: Config, args: argparse.Namespace) -> Config:
    """Flags override the config file."""
    if getattr(args, "keepalive", None) is not None:
        config = replace(config, mqtt=replace(config.mqtt, keepalive=args.keepalive))
    host = port = fallbacks = None
    if args.mqtt:
        try:
            (host, port), *more = parse_brokers(args.mqtt)
        except ValueError as error:
            raise UsageError(f"--mqtt: {error}") from None
        fallbacks = tuple(more)
    if (args.tls_cert is None) != (args.tls_key is None):
        raise UsageError("--tls-cert and --tls-key go together")
    if args.tls_cert is not None and args.tls_ca is None and config.mqtt.tls is None:
        raise UsageError("--tls-cert needs --tls-ca (the CA that signed the broker's certificate)")
    tls = config.mqtt.tls
    if args.tls_ca is not None:
        tls = TlsConfig(args.tls_ca, args.tls_cert, args.tls_key)
    elif args.tls_cert is not None and tls is not None:
        tls = TlsConfig(tls.ca, args.tls_cert, args.tls_key)
    if args.table:
        config = replace(config, table_id=args.table)
    if args.password_file is not None and not (args.username or config.mqtt.username):
        raise UsageError("--password-file needs --username")
    return with_mqtt(
        config,
        host=host,
        port=port,
        fallbacks=fallbacks,
        prefix=args.prefix,
        protocol=args.mqtt_protocol,
        username=args.username,
        password_file=args.password_file,
        tls=tls,
        hmac_key_file=args.hmac_key_file,
    )


def endpoint_from(config: Config) -> Endpoint:
    """The config's one :class:`~scoreboard.config_endpoint.Endpoint`; a usage error if unusable."""
    try:
        return load_endpoint(config)
    except ConfigError as error:
        raise UsageError(str(error)) from None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "shoe",
        help="simulated shoe controller publishing to an MQTT broker",
        description=(
            "Deal simulated shoes by the real rules and publish them as the table feed: "
            "each card as it leaves the shoe (a deal event, face withheld), every coup with "
            "its cards, the shoe events, a retained snapshot after every "
            "coup, retained limits and the controller status (with a last will), each "
            "stamped with the connection's session and a sequence number (contract v2). "
            "Answers cmd/resync for the current and the previous shoe, and applies the pit's "
            "commands (cmd/pit: scoreboard pit), answering on cmd/pit/answer."
        ),
    )
    add_mqtt_arguments(parser)
    parser.add_argument(
        "--pace",
        type=seconds(0, DAY),
        default=2.0,
        metavar="SECONDS",
        help="seconds between coups",
    )
    parser.add_argument(
        "--shuffle-seconds",
        type=seconds(0, DAY),
        metavar="SECONDS",
        help="how long the shuffle lasts between shoes (default 3 x pace)",
    )
    parser.add_argument("--seed", type=SEED, help="shuffle seed (default: random)")
    parser.add_argument(
        "--tables",
        type=whole(1, MAX_TABLES),
        metavar="N",
        help=(
            "a simulated floor: deal N tables (<table>1 ... <table>N, default T1 ... TN), "
            "each with its own connection, shoe, seed and pace (within 25%% of --pace), "
            "and --limits for each; --seed makes the whole floor repeatable"
        ),
    )
    parser.add_argument(
        "--limit-tiers",
        action="store_true",
        help=(
            "with --tables: each table one of five sample tiers (Player/Banker "
            f"{', '.join(LIMIT_TIERS)}) in --currency, instead of --limits"
        ),
    )
    parser.add_argument("--decks", type=DECKS, default=MAX_DECKS, help="decks in the shoe")
    parser.add_argument(
        "--shoes", type=SHOES, metavar="N", help="stop after N shoes (default: never)"
    )
    add_table_name(parser)
    add_table_arguments(parser, sample=False)
    parser.add_argument(
        "--state-dir",
        type=directory,
        metavar="DIR",
        help="keep the last session (and shoe) here, so sessions grow even if the clock goes back",
    )
    parser.add_argument(
        "--linger",
        type=seconds(0, DAY),
        default=0.0,
        metavar="SECONDS",
        help="stay online answering resyncs this long after the last shoe",
    )
    parser.add_argument(
        "--no-cards",
        action="store_true",
        help="publish no deal event per card before each coup (as a controller without a "
        "card-reading shoe); --tables never publishes them",
    )
    emulate_shoe.add_arguments(parser)
    parser.set_defaults(func=run, stops=True)  # SIGTERM and Ctrl-C: scoreboard.stopping


def run(args: argparse.Namespace) -> int:
    from scoreboard.controller import Controller

    if args.emulate:
        return emulate_shoe.run(args)
    emulate_shoe.refuse_without_emulate(args)
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
    from scoreboard.controller.floor import FLOOR_KEEPALIVE, deal_floor, delayed, floor_tables

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
