"""A table's limits and pay table: what the board shows under the roads.

Kept apart from the table state because the event vocabulary carries them too
(``LimitsReceived``) and the table state applies those events.  Until a
controller (or the config, or the demo) says what a table's limits are, they
are *unknown*: no bets, the variant's pay table, and the board says so rather
than showing a made-up default.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from scoreboard.game.side_bets import SIDE_BETS as TIERED
from scoreboard.game.side_bets import SideBet
from scoreboard.game.variants import Variant

#: The bets a limits spec may name, in the order the board lists them.
MAIN_BETS = ("player", "banker")
SIDE_BETS = ("tie", "player_pair", "banker_pair")
#: The variants' own side bets (EZ), listed after the pairs.
VARIANT_SIDE_BETS = ("dragon7", "panda8")
#: The side bets paid by card-count tiers (game/side_bets.py), listed last.
TIERED_BETS = tuple(TIERED)
#: The largest stake a limit may name (what the limits payload accepts).
MAX_STAKE = 1_000_000_000_000
_SPAN = re.compile(r"\s*(\d+)\s*-\s*(\d+)\s*")
_CURRENCY = re.compile(r"[A-Z]{3}")


class LimitsSpecError(ValueError):
    """A limits spec (``--limits``, config ``table.limits``) that does not say limits."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Table limits and pay table as shown on the board.

    ``bets`` maps a bet name (``player``, ``banker``, ``tie``, ``player_pair``,
    ``banker_pair``, ...) to ``(minimum, maximum)``; ``pays`` maps it to odds text.
    With no ``bets`` the limits are not :attr:`known`.

    >>> from scoreboard.game.variants import VARIANTS
    >>> limits = Limits.default_for(VARIANTS["commission"])
    >>> limits.bets["banker"], limits.pays["banker"], limits.known
    ((25, 10000), '0.95:1', True)
    >>> Limits.unknown(VARIANTS["ez"]).known
    False
    """

    currency: str = "USD"
    bets: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    pays: Mapping[str, str] = field(default_factory=dict)
    side_bets: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def __hash__(self) -> int:
        """By value, like the other values of the core: the screen keys what it drew on the
        limits themselves, so equal limits sent again are the same key.

        >>> a = Limits("EUR", {"player": (10, 500)}, {"player": "1:1"})
        >>> b = Limits("EUR", {"player": (10, 500)}, {"player": "1:1"})
        >>> hash(a) == hash(b), len({a, b, Limits("EUR", {"player": (10, 501)})})
        (True, 2)
        """
        return hash(
            (
                self.currency,
                frozenset(self.bets.items()),
                frozenset(self.pays.items()),
                frozenset((name, frozenset(pays.items())) for name, pays in self.side_bets.items()),
            )
        )

    @property
    def known(self) -> bool:
        """True when some bet's limits are known (a controller, the config or the demo said)."""
        return bool(self.bets)

    @property
    def order(self) -> tuple[str, ...]:
        """Every bet named, in the order the board lists them: Player, Banker, Tie, the
        pairs, the variant's side bets as a spec lists them, then any other by name.

        Fixed rather than the payload's key order, so a display restarted from its
        journal (which stores keys sorted) lists them as the one that never stopped.

        >>> Limits(bets={"tie": (5, 500), "banker": (25, 1000), "zebra": (1, 2),
        ...              "player": (25, 1000)}, pays={"dragon7": "40:1"}).order
        ('player', 'banker', 'tie', 'dragon7', 'zebra')
        """
        named = dict.fromkeys([*self.bets, *self.pays])
        listed = (*MAIN_BETS, *SIDE_BETS, *VARIANT_SIDE_BETS, *TIERED_BETS)
        first = [bet for bet in listed if bet in named]
        return (*first, *sorted(set(named) - set(first)))

    @classmethod
    def unknown(cls, variant: Variant, *, currency: str = "") -> Limits:
        """What a table shows before anyone said its limits: the variant's pays, no bets."""
        return cls(currency=currency, bets={}, pays=variant.pays())

    @classmethod
    def default_for(cls, variant: Variant) -> Limits:
        """The simulated controller's sample limits (USD 25-10,000): never a table's default."""
        return limits_from_spec("25-10000", variant, currency="USD")


@dataclass(frozen=True, slots=True)
class ScheduledLimits:
    """Limits announced ahead of their time: from ``at`` (Unix time) the board shows ``limits``.

    Several US states require the notice, so the board shows them beforehand
    ("New limits from 22:00: 50 - 20,000") and switches at that time.
    """

    at: float
    limits: Limits


def limits_after(
    current: Limits,
    scheduled: ScheduledLimits | None,
    limits: Limits,
    *,
    effective_at: float | None = None,
    cancel_scheduled: bool = False,
    wall: float | None = None,
) -> tuple[Limits, ScheduledLimits | None]:
    """The limits shown and the schedule after a limits message (the rule of protocol.md).

    ``wall`` is the kiosk's wall clock as the table last heard it (None: not yet).
    Immediate limits replace the current ones and keep a schedule unless
    ``cancel_scheduled``; limits with an ``effective_at`` replace any earlier
    schedule, and apply at once when that time is past.  A time that is not a
    finite number says nothing: the message changes nothing.

    >>> from scoreboard.game.variants import VARIANTS
    >>> now, later = Limits.default_for(VARIANTS["commission"]), Limits("EUR")
    >>> limits_after(now, None, later, effective_at=100.0, wall=50.0)[1].at
    100.0
    >>> limits_after(now, None, later, effective_at=100.0, wall=150.0) == (later, None)
    True
    """
    if effective_at is None:
        return limits, None if cancel_scheduled else scheduled
    if not math.isfinite(effective_at):
        return current, scheduled
    if wall is not None and effective_at <= wall:
        return limits, None
    return current, ScheduledLimits(effective_at, limits)


def derived_bets(
    minimum: int, maximum: int, sides: Iterable[str] = ()
) -> dict[str, tuple[int, int]]:
    """Player/Banker limits with the side bets a table usually pairs with them.

    The tie takes a fifth of the minimum and a tenth of the maximum, the pairs a
    fifth and a twentieth (at least 1 each): 25-10,000 gives a 5-1,000 tie.
    ``sides`` names the variant's own side bets (EZ's ``dragon7``, ``panda8``),
    limited like the pairs, so a pay table never shows a bet without limits.

    >>> derived_bets(25, 10000)["tie"], derived_bets(25, 10000)["player_pair"]
    ((5, 1000), (5, 500))
    >>> derived_bets(1, 10)["tie"]
    (1, 1)
    >>> derived_bets(25, 10000, ["dragon7"])["dragon7"]
    (5, 500)
    """
    tie = (max(1, minimum // 5), max(1, maximum // 10))
    pair = (max(1, minimum // 5), max(1, maximum // 20))
    bets = dict.fromkeys(MAIN_BETS, (minimum, maximum))
    bets["tie"] = (min(tie), max(tie))
    bets["player_pair"] = bets["banker_pair"] = (min(pair), max(pair))
    for side in sides:
        bets.setdefault(side, (min(pair), max(pair)))
    return bets


def parse_span(text: str, what: str) -> tuple[int, int]:
    """``"25-10000"`` -> ``(25, 10000)``; a :class:`LimitsSpecError` naming ``what`` otherwise.

    >>> parse_span("5 - 1000", "tie")
    (5, 1000)
    """
    match = _SPAN.fullmatch(text)
    if not match:
        raise LimitsSpecError(f"{what}: expected MIN-MAX such as 25-10000, got {text!r}")
    return check_span(int(match.group(1)), int(match.group(2)), what)


def check_span(minimum: int, maximum: int, what: str) -> tuple[int, int]:
    """``(minimum, maximum)`` if it is a usable pair of stakes, else a LimitsSpecError."""
    if not 0 <= minimum <= maximum <= MAX_STAKE:
        raise LimitsSpecError(
            f"{what}: expected 0 <= minimum <= maximum <= {MAX_STAKE}, got {minimum}-{maximum}"
        )
    return (minimum, maximum)


def check_currency(code: str) -> str:
    """A three-letter upper-case currency code (ISO 4217's form), else a LimitsSpecError.

    >>> check_currency("EUR")
    'EUR'
    """
    if not _CURRENCY.fullmatch(code):
        raise LimitsSpecError(f"expected a currency code of three capital letters, got {code!r}")
    return code


def limits_from_spec(spec: str, variant: Variant, *, currency: str = "USD") -> Limits:
    """Limits from ``MIN-MAX`` (Player/Banker, side bets derived) or ``bet=MIN-MAX,...``.

    The variant gives the pays.  Named bets are ``player``, ``banker``, ``tie``,
    ``player_pair``, ``banker_pair`` and the variant's own (``dragon7``,
    ``panda8``); a spec naming only some bets shows only those.

    >>> from scoreboard.game.variants import VARIANTS
    >>> limits_from_spec("player=10-500,tie=1-50", VARIANTS["commission"]).bets
    {'player': (10, 500), 'tie': (1, 50)}
    >>> limits_from_spec("10-500", VARIANTS["commission"], currency="EUR").bets["banker"]
    (10, 500)
    """
    check_currency(currency)
    pays = variant.pays()
    text = spec.strip()
    if "=" not in text:
        return Limits(currency, derived_bets(*parse_span(text, "Player/Banker"), pays), pays)
    bets: dict[str, tuple[int, int]] = {}
    for part in text.split(","):
        name, sep, span = part.partition("=")
        name = name.strip()
        if not sep or not name:
            raise LimitsSpecError(f"expected BET=MIN-MAX, got {part.strip()!r}")
        if name not in pays:
            raise LimitsSpecError(
                f"no bet {name!r} at a {variant.name} table (one of {', '.join(pays)})"
            )
        if name in bets:
            raise LimitsSpecError(f"{name} is given twice")
        bets[name] = parse_span(span, name)
    return Limits(currency, bets, pays)


def pays_text(bet: SideBet) -> str:
    """A tiered bet's pays as one odds text, each different pay once, in tier order.

    >>> pays_text(TIERED["lucky_7"]), pays_text(TIERED["super_lucky_7"])
    ('6/15:1', '30/40/100:1')
    """
    return "/".join(str(pay) for pay in dict.fromkeys(bet.pays.values())) + ":1"


def offer_side_bets(
    limits: Limits,
    offered: Iterable[SideBet],
    spans: Mapping[str, tuple[int, int]] | None = None,
) -> Limits:
    """``limits`` with the tiered side bets ``offered``: their pay tables, their pays text,
    and their limits (``spans``, else those of the pairs derived from Player's).

    >>> from scoreboard.game.variants import VARIANTS
    >>> table = limits_from_spec("25-10000", VARIANTS["commission"])
    >>> lucky = offer_side_bets(table, [TIERED["lucky_7"]])
    >>> lucky.bets["lucky_7"], lucky.pays["lucky_7"], dict(lucky.side_bets["lucky_7"])
    ((5, 500), '6/15:1', {'lucky_7_2': 6, 'lucky_7_3': 15})
    """
    bets, pays = dict(limits.bets), dict(limits.pays)
    tables = dict(limits.side_bets)
    player = limits.bets.get("player")
    pair = derived_bets(*player)["player_pair"] if player else None
    for bet in offered:
        span = (spans or {}).get(bet.key, pair)
        if span is not None:
            bets[bet.key] = span
        pays[bet.key] = pays_text(bet)
        tables[bet.key] = dict(bet.pays)
    return Limits(limits.currency, bets, pays, tables)


def side_bets_from_spec(spec: str) -> tuple[list[SideBet], dict[str, tuple[int, int]]]:
    """``small_6,lucky_7=10-1000`` -> the bets at their usual pays, and the spans given.

    >>> bets, spans = side_bets_from_spec("small_6, lucky_7=10-1000")
    >>> [bet.key for bet in bets], spans
    (['small_6', 'lucky_7'], {'lucky_7': (10, 1000)})
    """
    bets: list[SideBet] = []
    spans: dict[str, tuple[int, int]] = {}
    for part in spec.split(","):
        name, sep, span = (text.strip() for text in part.partition("="))
        if name not in TIERED:
            raise LimitsSpecError(f"no side bet {name!r} (one of {', '.join(TIERED)})")
        if any(bet.key == name for bet in bets):
            raise LimitsSpecError(f"{name} is given twice")
        bets.append(TIERED[name])
        if sep:
            spans[name] = parse_span(span, name)
    return bets, spans


def describe(limits: Limits) -> str:
    """The limits in a few words for a log line: the currency and the main bet's span.

    >>> from scoreboard.game.variants import VARIANTS
    >>> describe(limits_from_spec("50-20000", VARIANTS["commission"], currency="EUR"))
    'EUR 50-20,000'
    >>> describe(Limits("GBP", {"tie": (5, 500)})), describe(Limits.unknown(VARIANTS["ez"]))
    ('GBP tie 5-500', 'none')
    """
    if not limits.known:
        return "none"
    bet = next(name for name in limits.order if name in limits.bets)
    low, high = limits.bets[bet]
    named = (
        ""
        if bet in MAIN_BETS and limits.bets.get("player") == limits.bets.get("banker")
        else f"{bet} "
    )
    return f"{limits.currency} {named}{low:,}-{high:,}"
