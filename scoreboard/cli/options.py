"""The options several commands share, declared once, and read back into settings.

The MQTT flags (``run``, ``lobby``, ``shoe``, ``demo``, ``pit``, ``bridge``:
broker, identity, credentials, TLS), the table's flags (``--variant``,
``--currency``, ``--limits``, ``--side-bets``, ``--table-name``) and the display
flags (``--theme``, ``--windowed``, ``--size``, ``--portrait``, ``--rotate``...).
Every command takes them with the same words in ``--help``.

``demo`` and ``screenshot`` show a sample table, so their limits default to the
sample USD 25-10,000.  A controller (``shoe``) has no default: limits it was not
given are limits it does not know, and it publishes none, so a display keeps
the limits its own config gives (docs/protocol.md, *Limits*).

A command that reads a config file (``run``, ``lobby``) declares the display
flags with ``from_config=True``: no defaults (the file decides; a flag overrides
it) and the config key named in the help.  :func:`display_from_args` turns the
flags of a command without a config file into a :class:`DisplayRequest`.

Declaring imports nothing heavy (no pygame, no paho, no theme reader): ``--help``
reads this, and so does every controller command, which shows no theme.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from scoreboard.cli.arg_types import KEEPALIVE, input_file
from scoreboard.cli.errors import UsageError
from scoreboard.game.limits import (
    Limits,
    LimitsSpecError,
    check_currency,
    limits_from_spec,
    offer_side_bets,
    side_bets_from_spec,
)
from scoreboard.game.side_bets import SIDE_BETS
from scoreboard.game.variants import VARIANTS
from scoreboard.settings.config import PROTOCOLS, ROTATIONS, Config, TlsConfig, with_mqtt
from scoreboard.settings.endpoint import Endpoint, load_endpoint
from scoreboard.settings.reader import ConfigError, parse_brokers
from scoreboard.settings.reader import parse_size as read_size
from scoreboard.settings.translations import SHIPPED, parse_languages

if TYPE_CHECKING:  # the theme and the plate's rules are read when a display runs, not to declare
    from scoreboard.roads.good_roads import GoodRoadRules
    from scoreboard.screen.theme.values import Theme

__all__ = [
    "SIDE_BETS_HELP",
    "WINDOWED_PORTRAIT",
    "DisplayRequest",
    "add_display_arguments",
    "add_mqtt_arguments",
    "add_table_arguments",
    "add_table_name",
    "apply_mqtt_arguments",
    "display_from_args",
    "endpoint_from",
    "languages_from",
    "limits_from_args",
    "parse_size",
    "spec_limits",
]


# -- MQTT ---------------------------------------------------------------------


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
    """The config's one :class:`~scoreboard.settings.endpoint.Endpoint`; usage error if unusable."""
    try:
        return load_endpoint(config)
    except ConfigError as error:
        raise UsageError(str(error)) from None


# -- the table ----------------------------------------------------------------

#: The sample table's limits (demo, screenshot): Player/Banker 25-10,000, side bets derived.
SAMPLE_LIMITS = "25-10000"
SAMPLE_CURRENCY = "USD"

SPEC_HELP = (
    "table limits: MIN-MAX for Player/Banker (tie and pairs derived), or "
    "bet=MIN-MAX,... (player, banker, tie, player_pair, banker_pair, and dragon7/panda8 "
    "with --variant ez)"
)


SIDE_BETS_HELP = (
    "side bets paid by card counts the table offers, at their usual pays: "
    f"{','.join(SIDE_BETS)}; each may name its limits (lucky_7=10-1000), else the pairs'"
)


def add_table_arguments(parser: argparse.ArgumentParser, *, sample: bool) -> None:
    """``--variant``, ``--currency``, ``--limits`` and ``--side-bets``; ``sample``: the
    sample table's defaults (the side bets: none, as a table offers none unless it says)."""
    parser.add_argument(
        "--variant", choices=sorted(VARIANTS), default="commission", help="pay table"
    )
    parser.add_argument("--side-bets", metavar="BETS", help=SIDE_BETS_HELP)
    if sample:
        parser.add_argument(
            "--currency",
            default=SAMPLE_CURRENCY,
            metavar="CODE",
            help=f"currency of the limits (default {SAMPLE_CURRENCY})",
        )
        parser.add_argument(
            "--limits",
            default=SAMPLE_LIMITS,
            metavar="SPEC",
            help=f"{SPEC_HELP}; default {SAMPLE_LIMITS}",
        )
        return
    parser.add_argument(
        "--currency", metavar="CODE", help="currency of --limits (EUR, USD...; needed with it)"
    )
    parser.add_argument(
        "--limits",
        metavar="SPEC",
        help=f"{SPEC_HELP}; default none: no limits are published, displays keep their config's",
    )


def add_table_name(parser: argparse.ArgumentParser) -> None:
    """``--table-name``: the header's name of the table shown."""
    parser.add_argument("--table-name", default="", help="table name for the header")


def limits_from_args(args: argparse.Namespace) -> Limits | None:
    """The limits ``--limits``, ``--currency`` and ``--variant`` say (None: none given).

    Anything else is a one-line usage error naming the flag.
    """
    if args.limits is None and args.currency is None:
        if args.side_bets is not None:
            raise UsageError("--side-bets needs --limits and --currency (they are the table's)")
        return None
    if args.currency is None:
        raise UsageError("--limits needs --currency (the table's, such as EUR): none is assumed")
    if args.limits is None:
        raise UsageError("--currency needs --limits (the table's bets, such as 25-10000)")
    return spec_limits(args.limits, args)


def spec_limits(spec: str, args: argparse.Namespace, flag: str = "--limits") -> Limits:
    """``spec`` in ``--currency`` for ``--variant``, or a usage error naming ``flag``."""
    try:
        check_currency(args.currency)
    except LimitsSpecError as error:
        raise UsageError(f"--currency: {error}") from None
    try:
        limits = limits_from_spec(spec, VARIANTS[args.variant], currency=args.currency)
    except LimitsSpecError as error:
        raise UsageError(f"{flag}: {error}") from None
    side_bets = getattr(args, "side_bets", None)
    if side_bets is None:
        return limits
    try:
        return offer_side_bets(limits, *side_bets_from_spec(side_bets))
    except LimitsSpecError as error:
        raise UsageError(f"--side-bets: {error}") from None


# -- the display --------------------------------------------------------------

#: The window ``--portrait --windowed`` opens without a ``--size``.
WINDOWED_PORTRAIT = (1080, 1920)


@dataclass(frozen=True, slots=True)
class DisplayRequest:
    """What the display flags ask for: the theme, the screen and how the picture sits on it.

    ``size`` None is the desktop's; ``portrait`` asks for the portrait layout on
    a screen that may be landscape (the kiosk then turns the picture 90 degrees);
    ``rotate`` is the clockwise turn for a monitor mounted on its side;
    ``good_roads`` the thresholds of the good-road plate (None: off).
    """

    theme: Theme
    size: tuple[int, int] | None
    rotate: int = 0
    portrait: bool = False
    motion: bool = True
    good_roads: GoodRoadRules | None = None


def _key(config_key: str, used: bool) -> str:
    return f" ({config_key})" if used else ""


def add_display_arguments(
    parser: argparse.ArgumentParser,
    *,
    default_size: str | None = None,
    from_config: bool = False,
    windowed: bool = True,
    portrait: bool = True,
    motion: bool = True,
    good_roads: bool = True,
) -> None:
    """Declare the display flags ``parser`` takes (each flag is turned off by its keyword).

    ``from_config=True``: the command reads a config file, so no flag has a default
    of its own and each help names its key.

    >>> parser = argparse.ArgumentParser()
    >>> add_display_arguments(parser, from_config=True, portrait=False, good_roads=False)
    >>> args = parser.parse_args(["--size", "800x600", "--rotate", "90"])
    >>> args.theme, args.windowed, args.size, args.rotate, args.motion
    (None, None, '800x600', 90, None)
    """
    parser.add_argument(
        "--theme",
        default=None if from_config else "classic",
        metavar="NAME|FILE",
        help="theme name or YAML file" + _key("display.theme", from_config),
    )
    if windowed:
        parser.add_argument(
            "--windowed",
            action="store_true",
            default=None if from_config else False,
            help="a window instead of full screen" + _key("display.windowed", from_config),
        )
    parser.add_argument(
        "--languages",
        metavar="CODES",
        help="the languages shown, main first, e.g. en,th (shipped: "
        + ",".join(SHIPPED)
        + "; zh = zh-Hant); default the theme's"
        + _key("display.languages", from_config),
    )
    size_help = "screen size, e.g. 1920x1080; taller than wide picks the portrait layout"
    if default_size:
        size_help += f" (default {default_size})"
    parser.add_argument(
        "--size",
        default=default_size,
        metavar="WxH",
        help=size_help + _key("display.size", from_config),
    )
    if portrait:
        parser.add_argument(
            "--portrait",
            action="store_true",
            help=(
                "portrait layout: with --size, swaps it to taller than wide; full screen on a "
                "landscape screen, turns the picture 90 degrees (as --rotate 90)"
            ),
        )
    parser.add_argument(
        "--rotate",
        type=int,
        choices=ROTATIONS,
        metavar="{0,90,180,270}",
        help=(
            "turn the picture clockwise by this many degrees, for a monitor mounted on its "
            "side that the OS does not rotate (90/270 on a landscape screen: portrait layout)"
        )
        + _key("display.rotate", from_config),
    )
    if motion:
        parser.add_argument(
            "--no-motion",
            dest="motion",
            action="store_false",
            default=None,
            help="no animation: every change drawn at once "
            + (
                "(display.motion: false)"
                if from_config
                else "(as the theme's motion.enabled: false)"
            ),
        )
    if good_roads:
        parser.add_argument(
            "--good-roads",
            action="store_true",
            default=None if from_config else False,
            help="name the good roads (長莊 long Banker, 單跳 single jump, ...) in the big "
            "road's title row" + _key("display.good_roads.enabled", from_config),
        )


def display_from_args(args: argparse.Namespace) -> DisplayRequest:
    """The validated theme and the requested screen (size None: the desktop's).

    ``--portrait`` with a size (or a window) swaps it to taller than wide; full
    screen without a size it is left to the kiosk, which turns the picture on a
    landscape screen instead of asking for a mode the screen does not have.
    """
    from scoreboard.roads.good_roads import GoodRoadRules
    from scoreboard.screen.theme.loading import load_theme
    from scoreboard.screen.theme.values import ThemeError

    try:
        theme = load_theme(args.theme, languages_from(args))
    except ThemeError as error:
        raise UsageError(str(error)) from None
    size = parse_size(args.size) if args.size else None
    portrait = bool(getattr(args, "portrait", False))
    rotate = args.rotate or 0
    if portrait and rotate:
        raise UsageError("--portrait and --rotate: give one (--rotate 90 is portrait turned)")
    if portrait and (size is not None or getattr(args, "windowed", False)):
        width, height = size or WINDOWED_PORTRAIT
        size = (min(width, height), max(width, height))
        portrait = False
    motion = True if args.motion is None else args.motion
    rules = GoodRoadRules() if getattr(args, "good_roads", False) else None
    return DisplayRequest(
        theme, size, rotate=rotate, portrait=portrait, motion=motion, good_roads=rules
    )


def languages_from(args: argparse.Namespace) -> tuple[str, ...]:
    """``--languages`` as shipped codes, main first (empty: not given), or a one-line usage error.

    >>> languages_from(argparse.Namespace(languages="en,zh"))
    ('en', 'zh-Hant')
    """
    text = getattr(args, "languages", None)
    if text is None:
        return ()
    try:
        return parse_languages(text)
    except ValueError as error:
        raise UsageError(str(error)) from None


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> ``(1920, 1080)``, or a one-line ``--size`` usage error."""
    try:
        return read_size(text)
    except ValueError as error:
        raise UsageError(f"--size: {error}") from None
