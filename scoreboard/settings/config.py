"""The kiosk's configuration: YAML validated into frozen dataclasses.

A pit technician edits one file per display (see ``kiosk/scoreboard.yaml``);
command-line flags override it.  A mistake is reported as
``file: key.path: what was expected`` before anything connects, so a display
never starts half-configured.  :mod:`scoreboard.settings.endpoint` then reads
the secrets once and hands the link one ``Endpoint``: the broker settings, the
table's topics, the password and the HMAC key, travelling together.

>>> config = config_from_mapping({"table": {"id": "T7"}, "mqtt": {"broker": "10.0.0.2:8883"}})
>>> config.mqtt.host, config.mqtt.port, config.prefix
('10.0.0.2', 8883, 'baccarat/v2/T7')
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from scoreboard.game.limits import (
    Limits,
    LimitsSpecError,
    check_currency,
    check_span,
    derived_bets,
    offer_side_bets,
    parse_span,
)
from scoreboard.game.side_bets import SIDE_BETS as TIERED
from scoreboard.game.side_bets import SideBet
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol.topics import PREFIX_RULE, check_prefix, default_prefix
from scoreboard.roads.good_roads import GoodRoadRules
from scoreboard.settings.keypad import KeypadConfig, read_keypad
from scoreboard.settings.reader import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    ConfigError,
    Reader,
    host_port,
    is_text,
)
from scoreboard.settings.reader import MAX_SIDE as MAX_SIDE  # re-exported: the size parser's bounds
from scoreboard.settings.reader import MIN_SIDE as MIN_SIDE
from scoreboard.settings.reader import parse_brokers as parse_brokers
from scoreboard.settings.reader import parse_hostport as parse_hostport
from scoreboard.settings.reader import parse_size as parse_size
from scoreboard.settings.shoe import ShoeConfig, read_shoe
from scoreboard.settings.translations import parse_languages
from scoreboard.settings.yamlfile import YamlSyntaxError, load_yaml

PROTOCOLS = ("5", "3.1.1")
#: How long the broker keeps a display's session (its subscriptions and the QoS 1
#: messages queued while it is down): a day covers a night's power cut; a week at most,
#: so a retired display's queue does not grow on the broker for ever.
DEFAULT_SESSION_EXPIRY = 86_400
SESSION_EXPIRY_RANGE = (60, 7 * 86_400)
#: How long the link waits for a broker's CONNACK (``mqtt.connect_timeout``) and for its
#: SUBACK (``mqtt.subscribe_timeout``) before leaving it; why seconds and not
#: milliseconds is told in :mod:`scoreboard.link._ping`.  Tests of a hanging broker set less.
CONNECT_TIMEOUT = 5.0
SUBSCRIBE_TIMEOUT = 5.0
ANSWER_TIMEOUT_RANGE = (0.5, 300.0)
#: How far the picture may be turned clockwise for a monitor mounted on its side.
ROTATIONS = (0, 90, 180, 270)
#: The shortest and longest turn of a rotating language (``display.rotate_languages``), seconds.
ROTATE_SECONDS = (3, 3600)

#: MQTT's client id: what mosquitto accepts, and what a topic-safe display id gives.
CLIENT_ID_RULE = "1-128 letters, digits, '.', '_' or '-'"
#: Where a display's games come from: the table's broker, the dealer's keypad, or the
#: card-reading shoe's serial line (the ``shoe:`` section).
FEEDS = ("mqtt", "keypad", "shoe")
#: Decks in a shoe (``table.decks``), as a new_shoe payload may say them.
DECKS_RANGE = (1, 16)
KEEP_SHOES_RANGE = (1, 100_000)
#: A ``good_roads`` section's thresholds (``display.good_roads``, ``lobby.good_roads``).
GOOD_ROAD_KEYS = ("streak", "chop", "double", "one_two", "red")


@dataclass(frozen=True, slots=True)
class TlsConfig:
    """Server verification with ``ca``; a client certificate when ``cert`` and ``key`` are set."""

    ca: Path
    cert: Path | None = None
    key: Path | None = None


@dataclass(frozen=True, slots=True)
class MqttConfig:
    """The broker settings; ``client_id`` None means the program's stable default.

    ``host:port`` is the first broker; ``fallbacks`` are the others of a cluster or
    a pair (``mqtt.broker: [h1:p1, h2:p2]``), tried in order when one fails.
    """

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    protocol: str = "5"
    prefix: str | None = None
    username: str | None = None
    password_file: Path | None = None
    tls: TlsConfig | None = None
    hmac_key_file: Path | None = None
    keepalive: int = 1
    client_id: str | None = None
    session_expiry: int = DEFAULT_SESSION_EXPIRY
    fallbacks: tuple[tuple[str, int], ...] = ()
    connect_timeout: float = CONNECT_TIMEOUT
    subscribe_timeout: float = SUBSCRIBE_TIMEOUT

    @property
    def brokers(self) -> tuple[tuple[str, int], ...]:
        """Every broker in the order they are tried, the first one first.

        >>> MqttConfig(port=1884, fallbacks=(("10.0.0.3", 1883),)).brokers
        (('127.0.0.1', 1884), ('10.0.0.3', 1883))
        """
        return ((self.host, self.port), *self.fallbacks)

    @property
    def broker_names(self) -> str:
        """Every broker for a log line, in the order tried: ``"h1:1883, h2:1883"``."""
        return ", ".join(host_port(*broker) for broker in self.brokers)


@dataclass(frozen=True, slots=True)
class JournalConfig:
    """Retention: the last ``keep_shoes`` shoes with games, and none pruned unexported if asked."""

    keep_shoes: int = 200
    require_export: bool = False


@dataclass(frozen=True, slots=True)
class Config:
    table_id: str = "T1"
    table_name: str = ""
    variant: str = "commission"
    display_id: str = field(default_factory=lambda: socket.gethostname() or "display")
    state_dir: Path | None = None
    theme: str = "classic"
    windowed: bool = False
    size: tuple[int, int] | None = None
    mqtt: MqttConfig = field(default_factory=MqttConfig)
    #: The table's static limits (``table.limits``): shown until a limits message
    #: replaces them; None: unknown until the controller says.
    limits: Limits | None = None
    rotate: int = 0
    motion: bool = True
    #: ``mqtt`` (the table's controller over the broker), ``keypad`` (the dealer's keys) or
    #: ``shoe`` (the card-reading shoe's serial line).
    feed: str = "mqtt"
    #: The file has an ``mqtt`` section (or a flag named a broker): a keypad publishes there.
    mqtt_configured: bool = False
    keypad: KeypadConfig = field(default_factory=KeypadConfig)
    #: The card-reading shoe a display reads itself (``feed: shoe``).
    shoe: ShoeConfig = field(default_factory=ShoeConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    #: Decks in the table's shoe (``table.decks``), unless a new shoe says otherwise.
    decks: int = 8
    #: The good roads shown in the big road's title row (``display.good_roads``); None: off.
    good_roads: GoodRoadRules | None = None
    #: The languages shown, main first (``display.languages``, shipped codes); (): the theme's.
    languages: tuple[str, ...] = ()
    #: Seconds each language after the main one is shown in turn (``display.rotate_languages``).
    rotate_languages: float = 0.0
    #: The venue's images shown on the shuffle screen (``display.promo``); None: none.
    promo: PromoConfig | None = None

    @property
    def prefix(self) -> str:
        return self.mqtt.prefix or default_prefix(self.table_id)

    @property
    def resolved_state_dir(self) -> Path:
        """Where the journal lives: the configured dir, else the XDG state dir per table."""
        if self.state_dir is not None:
            return self.state_dir
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        return Path(base) / "scoreboard" / self.table_id


# -- reading ------------------------------------------------------------------
def read_document(path: str | os.PathLike[str]) -> Any:
    """A config file's YAML document ({} when empty); a ConfigError names the file and why."""
    source = str(path)
    try:
        data = load_yaml(path, source)
    except OSError as error:
        raise ConfigError(f"{source}: cannot read ({error.strerror or error})") from None
    except YamlSyntaxError as error:
        raise ConfigError(str(error)) from None
    return data or {}


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and validate a YAML config file."""
    return config_from_mapping(read_document(path), source=str(path))


def config_from_mapping(data: Any, *, source: str = "<config>") -> Config:
    """Validate a parsed YAML document (a mapping) into a :class:`Config`.

    Every mistake is named in one :class:`ConfigError`, one line each.
    """
    reader = Reader(source)
    config = read_config(reader, data)
    reader.check()
    return config


def read_config(reader: Reader, data: Any) -> Config:
    """The :class:`Config` in ``data``, its mistakes recorded in ``reader`` (a lobby's file too)."""
    root = reader.mapping(
        data, "", {"table", "display", "mqtt", "feed", "keypad", "shoe", "journal"}
    )
    table = reader.mapping(
        root.get("table", {}), "table", {"id", "name", "variant", "limits", "decks", "side_bets"}
    )
    display = reader.mapping(
        root.get("display", {}),
        "display",
        {
            *("id", "theme", "windowed", "size", "state_dir", "rotate", "motion", "good_roads"),
            *("languages", "rotate_languages", "promo"),
        },
    )
    defaults = Config()
    languages = _read_languages(reader, display.get("languages"))
    table_id = reader.ident(table.get("id", defaults.table_id), "table.id")
    variant: str | None = reader.text(table.get("variant", defaults.variant), "table.variant")
    if variant not in VARIANTS:
        reader.expected("table.variant", f"one of {', '.join(VARIANTS)}", variant)
        variant = None  # its limits are read against its pays: not read at all
    return Config(
        table_id=table_id,
        table_name=reader.text(table.get("name", ""), "table.name"),
        variant=variant or defaults.variant,
        display_id=reader.ident(display.get("id", defaults.display_id), "display.id"),
        state_dir=reader.path(display.get("state_dir"), "display.state_dir"),
        theme=reader.text(display.get("theme", defaults.theme), "display.theme"),
        windowed=reader.boolean(display.get("windowed", False), "display.windowed"),
        size=reader.size(display.get("size"), "display.size"),
        mqtt=_read_mqtt(reader, root.get("mqtt", {})),
        limits=_read_side_bets(
            reader,
            table.get("side_bets"),
            _read_limits(reader, table.get("limits"), variant),
            limits_given=table.get("limits") is not None,
        ),
        rotate=reader.choice(display.get("rotate", 0), "display.rotate", ROTATIONS),
        motion=reader.boolean(display.get("motion", True), "display.motion"),
        feed=reader.one_of(root.get("feed", defaults.feed), "feed", FEEDS),
        mqtt_configured="mqtt" in root,
        keypad=read_keypad(reader, root.get("keypad")),
        shoe=read_shoe(reader, root.get("shoe")),
        journal=_read_journal(reader, root.get("journal", {})),
        decks=reader.integer(table.get("decks", defaults.decks), "table.decks", *DECKS_RANGE),
        good_roads=_read_display_good_roads(reader, display.get("good_roads", {})),
        languages=languages,
        rotate_languages=_read_rotation(reader, display.get("rotate_languages", 0), languages),
        promo=_read_display_promo(reader, display.get("promo")),
    )


def _read_rotation(reader: Reader, raw: Any, languages: tuple[str, ...]) -> float:
    """``display.rotate_languages``: seconds (0: off); the languages must have two to rotate."""
    if (
        isinstance(raw, bool)
        or not isinstance(raw, int | float)
        or not (raw == 0 or ROTATE_SECONDS[0] <= raw <= ROTATE_SECONDS[1])
    ):
        low, high = ROTATE_SECONDS
        reader.expected("display.rotate_languages", f"0 (off) or {low} to {high} seconds", raw)
        return 0.0
    if raw and len(languages) < 3:
        reader.expected(
            "display.rotate_languages",
            "display.languages with the main language and two or more to rotate",
            list(languages),
        )
    return float(raw)


def _read_languages(reader: Reader, data: Any) -> tuple[str, ...]:
    """``display.languages``: shipped codes (a list, or "en, th"), main first; none: the theme's."""
    if data is None:
        return ()
    if not isinstance(data, str | list):
        reader.expected("display.languages", "a list of language codes like [en, th]", data)
        return ()
    try:
        return parse_languages(data, "display.languages")
    except ValueError as error:  # it names the key and the code
        reader.error("display.languages", str(error).removeprefix("display.languages: "))
        return ()


# -- display.promo ------------------------------------------------------------------------
PROMO_SECONDS = (2, 600)
"""How long each promo image (and the shoe's summary between them) shows, in seconds."""
PROMO_DEFAULT_SECONDS = 8


@dataclass(frozen=True, slots=True)
class PromoConfig:
    """Where the venue's images are and how long each shows (``display.promo``)."""

    folder: Path
    seconds: int = PROMO_DEFAULT_SECONDS


def _read_display_promo(reader: Reader, data: Any) -> PromoConfig | None:
    """``display.promo: {folder: DIR, seconds: N}``; absent: no promo."""
    if data is None:
        return None
    section = reader.mapping(data, "display.promo", {"folder", "seconds"})
    folder = reader.path(section.get("folder"), "display.promo.folder")
    if folder is None:
        if section.get("folder") is None:  # a wrong one is already named
            reader.expected("display.promo.folder", "a folder of PNG or JPEG images", None)
        return None
    seconds = section.get("seconds", PROMO_DEFAULT_SECONDS)
    return PromoConfig(folder, reader.integer(seconds, "display.promo.seconds", *PROMO_SECONDS))


def _read_display_good_roads(reader: Reader, data: Any) -> GoodRoadRules | None:
    """``display.good_roads``: off unless ``enabled: true``; the lobby's thresholds."""
    section = reader.mapping(data, "display.good_roads", {"enabled", *GOOD_ROAD_KEYS})
    rules = good_road_rules(reader, section, "display.good_roads")
    return (
        rules
        if reader.boolean(section.get("enabled", False), "display.good_roads.enabled")
        else None
    )


def good_road_rules(reader: Reader, section: Any, key: str) -> GoodRoadRules:
    """The thresholds of a ``good_roads`` section (read with ``reader.mapping``), defaults kept.

    >>> good_road_rules(Reader("f.yaml"), {"streak": 8}, "lobby.good_roads").streak
    8
    """
    defaults = GoodRoadRules()
    return GoodRoadRules(
        **{
            name: reader.integer(section.get(name, getattr(defaults, name)), f"{key}.{name}", 2, 99)
            for name in GOOD_ROAD_KEYS
        }
    )


def _read_journal(reader: Reader, data: Any) -> JournalConfig:
    """``journal:``: how many shoes to keep, and whether an unexported one may be pruned."""
    journal = reader.mapping(data, "journal", {"keep_shoes", "require_export"})
    defaults = JournalConfig()
    return JournalConfig(
        keep_shoes=reader.integer(
            journal.get("keep_shoes", defaults.keep_shoes), "journal.keep_shoes", *KEEP_SHOES_RANGE
        ),
        require_export=reader.boolean(
            journal.get("require_export", defaults.require_export), "journal.require_export"
        ),
    )


def _read_limits(reader: Reader, data: Any, variant: str | None) -> Limits | None:
    """``table.limits``: a currency and each bet's ``[minimum, maximum]`` (or ``MIN-MAX``).

    ``bets: 25-10000`` alone gives Player/Banker and derives the tie and pairs
    (as ``scoreboard demo --limits``).  The pays come from ``table.variant``.
    """
    if data is None or variant is None:
        return None
    limits = reader.mapping(data, "table.limits", {"currency", "bets"})
    if not isinstance(data, Mapping):
        return None
    pays = VARIANTS[variant].pays()
    currency = reader.text(limits.get("currency", "USD"), "table.limits.currency")
    try:
        check_currency(currency)
    except LimitsSpecError:
        reader.expected("table.limits.currency", "a code of three capital letters (USD)", currency)
        currency = "USD"  # a stand-in: the file is refused
    raw = limits.get("bets")
    if raw is None:
        reader.expected("table.limits.bets", "each bet's [minimum, maximum], or MIN-MAX", raw)
        return None
    if isinstance(raw, str):
        try:
            return Limits(currency, derived_bets(*parse_span(raw, "bets"), pays), pays)
        except LimitsSpecError:
            reader.expected(
                "table.limits.bets", "MIN-MAX such as 25-10000, minimum <= maximum", raw
            )
            return None
    bets_map = reader.mapping(raw, "table.limits.bets", set(pays))
    if not bets_map:
        if isinstance(raw, Mapping) and not raw:  # a wrong one is already named
            reader.expected("table.limits.bets", "at least one bet", dict(bets_map))
        return None
    spans = {
        str(name): _read_span(reader, span, f"table.limits.bets.{name}")
        for name, span in bets_map.items()
    }
    bets = {name: span for name, span in spans.items() if span is not None}
    return Limits(currency, bets, pays) if len(bets) == len(spans) else None


def _read_side_bets(
    reader: Reader, data: Any, limits: Limits | None, *, limits_given: bool
) -> Limits | None:
    """``table.side_bets``: the side bets paid by card counts the table offers.

    A list of bets (``[small_6, lucky_7]``: usual pays, limits as the pairs'), or a
    mapping of each bet to ``{limits: MIN-MAX, pays: {tier: n}}`` (both optional).
    They are part of the table's limits, so ``table.limits`` must be there too.
    """
    if data is None:
        return limits
    key = "table.side_bets"
    named: Mapping[str, Any]
    if isinstance(data, list):
        unknown = [name for name in data if not isinstance(name, str) or name not in TIERED]
        if unknown or len(set(map(str, data))) != len(data):
            reader.expected(key, f"each once of {', '.join(TIERED)}", data)
            return limits
        named = dict.fromkeys(data)
    else:
        named = reader.mapping(data, key, set(TIERED))
    offered: list[SideBet] = []
    spans: dict[str, tuple[int, int]] = {}
    for name in named:
        where = f"{key}.{name}"
        section = reader.mapping(named[name], where, {"limits", "pays"})
        if "limits" in section:
            span = _read_span(reader, section["limits"], f"{where}.limits")
            if span is not None:
                spans[name] = span
        pays = reader.mapping(section.get("pays"), f"{where}.pays", set(TIERED[name].pays))
        checked = {
            tier: reader.integer(pay, f"{where}.pays.{tier}", 1, 1000) for tier, pay in pays.items()
        }
        offered.append(TIERED[name].with_pays(checked))
    if not limits_given:
        reader.expected(key, "table.limits beside it (the side bets' limits are the table's)", data)
    return None if limits is None else offer_side_bets(limits, offered, spans)


def _read_span(reader: Reader, value: Any, key: str) -> tuple[int, int] | None:
    try:
        if isinstance(value, str):
            return parse_span(value, key)
        if (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
        ):
            return check_span(value[0], value[1], key)
    except LimitsSpecError:
        pass
    reader.expected(key, "[minimum, maximum] stakes, 0 <= minimum <= maximum", value)
    return None


def _read_mqtt(reader: Reader, data: Any) -> MqttConfig:
    mqtt = reader.mapping(
        data,
        "mqtt",
        {
            "broker", "host", "port", "protocol", "prefix", "username", "password_file",
            "tls", "hmac_key_file", "keepalive", "client_id", "session_expiry",
            "connect_timeout", "subscribe_timeout",
        },
    )  # fmt: skip
    (host, port), *fallbacks = ((DEFAULT_HOST, DEFAULT_PORT),)
    if "broker" in mqtt:
        (host, port), *fallbacks = reader.brokers(mqtt["broker"], "mqtt.broker")
    protocol = str(mqtt.get("protocol", "5"))
    if protocol not in PROTOCOLS:
        reader.expected("mqtt.protocol", "5 or 3.1.1", mqtt.get("protocol"))
    prefix = mqtt.get("prefix")
    if prefix is not None:
        prefix = reader.text(prefix, "mqtt.prefix")
        try:
            check_prefix(prefix)
        except ValueError:
            reader.expected("mqtt.prefix", PREFIX_RULE, prefix)
    return MqttConfig(
        host=reader.text(mqtt.get("host", host), "mqtt.host"),
        port=reader.integer(mqtt.get("port", port), "mqtt.port", 1, 65535),
        protocol=protocol,
        prefix=prefix,
        username=reader.optional_text(mqtt.get("username"), "mqtt.username"),
        password_file=reader.path(mqtt.get("password_file"), "mqtt.password_file"),
        tls=_read_tls(reader, mqtt.get("tls")),
        hmac_key_file=reader.path(mqtt.get("hmac_key_file"), "mqtt.hmac_key_file"),
        keepalive=reader.integer(mqtt.get("keepalive", 1), "mqtt.keepalive", 1, 3600),
        client_id=_read_client_id(reader, mqtt.get("client_id")),
        session_expiry=reader.integer(
            mqtt.get("session_expiry", DEFAULT_SESSION_EXPIRY),
            "mqtt.session_expiry",
            *SESSION_EXPIRY_RANGE,
        ),
        fallbacks=tuple(fallbacks),
        connect_timeout=reader.seconds(
            mqtt.get("connect_timeout", CONNECT_TIMEOUT),
            "mqtt.connect_timeout",
            *ANSWER_TIMEOUT_RANGE,
        ),
        subscribe_timeout=reader.seconds(
            mqtt.get("subscribe_timeout", SUBSCRIBE_TIMEOUT),
            "mqtt.subscribe_timeout",
            *ANSWER_TIMEOUT_RANGE,
        ),
    )


def _read_client_id(reader: Reader, value: Any) -> str | None:
    """A fixed client id: the same on every start, so the broker keeps the session."""
    if value is None:
        return None
    text = reader.text(value, "mqtt.client_id")
    if is_text(value) and not re.fullmatch(r"[A-Za-z0-9._-]{1,128}", text):
        reader.expected("mqtt.client_id", CLIENT_ID_RULE, text)
    return text


def _read_tls(reader: Reader, data: Any) -> TlsConfig | None:
    """No block (or ``tls: null``): no TLS.  A block must name its CA file."""
    if data is None:
        return None
    tls = reader.mapping(data, "mqtt.tls", {"ca", "cert", "key"})
    ca = reader.path(tls.get("ca"), "mqtt.tls.ca")
    if ca is None and tls.get("ca") is None and isinstance(data, Mapping):
        reader.expected("mqtt.tls.ca", "the CA certificate file", None)
    cert = reader.path(tls.get("cert"), "mqtt.tls.cert")
    key = reader.path(tls.get("key"), "mqtt.tls.key")
    if (cert is None) != (key is None):
        reader.expected("mqtt.tls", "both cert and key, or neither", f"cert={cert}, key={key}")
    return None if ca is None else TlsConfig(ca, cert, key)


def with_mqtt(config: Config, **changes: Any) -> Config:
    """The config with some MQTT settings replaced (flags override the file)."""
    changes = {key: value for key, value in changes.items() if value is not None}
    return replace(config, mqtt=replace(config.mqtt, **changes)) if changes else config
