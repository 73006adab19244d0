"""The frozen values a theme is made of: colours, fonts, labels, symbols, road style, layouts.

:mod:`~scoreboard.screen.theme.loading` builds them from YAML (through
:mod:`~scoreboard.screen.theme._checks`); the renderer reads only these values, never raw dicts.

>>> Colors().banker, Style().text_scale
((200, 30, 45), 1.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

RGB = tuple[int, int, int]

PANELS = (
    "header",
    "bead_plate",
    "big_road",
    "big_eye_boy",
    "small_road",
    "cockroach_pig",
    "predictions",
    "counters",
    "last_coup",
    "limits",
    "footer",
)
ROAD_PANELS = ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig")
DERIVED_PANELS = ("big_eye_boy", "small_road", "cockroach_pig")
COLUMNS: Mapping[str, int] = MappingProxyType({"bead_plate": 15, "big_road": 50, "derived": 48})
"""The columns each road shows at least by default: a 90-coup shoe on the bead plate
(15 x 6), and the big and derived roads of 99 % of 8-deck shoes (docs/display.md)."""
ORIENTATIONS = ("landscape", "portrait", "wide")
WIDE_RATIO = 2.1
"""A screen at least this many times as wide as tall is ultrawide (21:9 at 2560x1080,
32:9 at 3840x1080): it gets the theme's ``wide`` layout when there is one."""
SHAPES = ("circle", "square", "diamond")


class ThemeError(Exception):
    """A theme that cannot be used; ``errors`` holds one line per problem."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = tuple(errors)


class ThemeNotFoundError(ThemeError):
    """No theme file by that name or path."""


@dataclass(frozen=True, slots=True)
class Colors:
    """Every colour the board uses; road colours keep their meaning in every theme."""

    background: RGB = (244, 239, 227)
    panel: RGB = (255, 255, 255)
    border: RGB = (190, 182, 165)
    grid: RGB = (214, 208, 196)
    title: RGB = (60, 55, 50)
    text: RGB = (30, 30, 32)
    muted: RGB = (110, 106, 100)
    accent: RGB = (166, 124, 0)
    header_background: RGB = (40, 36, 32)
    header_text: RGB = (250, 246, 236)
    banker: RGB = (200, 30, 45)
    player: RGB = (30, 80, 200)
    tie: RGB = (20, 150, 60)
    bead_text: RGB = (255, 255, 255)
    card_face: RGB = (255, 255, 255)
    card_edge: RGB = (150, 150, 150)
    card_red: RGB = (200, 30, 45)
    card_black: RGB = (20, 20, 20)
    ok: RGB = (20, 150, 60)
    warning: RGB = (220, 140, 0)
    error: RGB = (200, 30, 45)


@dataclass(frozen=True, slots=True)
class Fonts:
    """Absolute paths of the regular and bold font files, and the fonts after each in the chain.

    A character the theme's font has no glyph for is drawn by the first font of
    its chain that has one (the shipped kana, Hangul, Vietnamese and Thai fonts:
    :data:`scoreboard.screen.theme.fonts.CHAIN`), so a theme names one font and shows any language.
    """

    regular: Path
    bold: Path
    fallbacks: tuple[Path, ...] = ()
    fallbacks_bold: tuple[Path, ...] = ()

    def chain(self, *, bold: bool) -> tuple[Path, ...]:
        """The font files that draw text of this weight, first choice first."""
        return (self.bold, *self.fallbacks_bold) if bold else (self.regular, *self.fallbacks)


@dataclass(frozen=True, slots=True)
class Labels:
    """Every word on screen in one language; English defaults."""

    banker: str = "Banker"
    player: str = "Player"
    tie: str = "Tie"
    banker_pair: str = "B Pair"
    player_pair: str = "P Pair"
    natural: str = "Natural"
    games: str = "Games"
    bead_plate: str = "Bead Plate"
    big_road: str = "Big Road"
    big_eye_boy: str = "Big Eye Boy"
    small_road: str = "Small Road"
    cockroach_pig: str = "Cockroach Pig"
    predictions: str = "Ask Road"
    counters: str = "Statistics"
    last_coup: str = "Last Hand"
    limits: str = "Table Limits"
    table: str = "Table"
    game: str = "Game"
    shoe: str = "Shoe"
    streak: str = "Streak"
    longest: str = "Longest"
    minimum: str = "Min"
    maximum: str = "Max"
    pays: str = "Pays"
    shuffling: str = "Shuffling"
    shuffle_note: str = "A new shoe is being prepared"
    waiting: str = "Waiting for the first hand"
    disclaimer: str = "Past results do not predict future results."
    demo: str = "DEMO"
    live: str = "LIVE"
    connecting: str = "CONNECTING"
    offline: str = "OFFLINE"
    controller_offline: str = "SHOE OFFLINE"
    missing_games: str = "MISSING GAMES"
    cut_card_out: str = "FINAL HAND"  # the cut card is out: the next coup ends the shoe
    banker_six: str = "Banker 6"
    dragon7: str = "Dragon 7"
    panda8: str = "Panda 8"
    # The side bets paid by card counts (game/side_bets.py), where a table offers them
    small_6: str = "Small 6"
    big_6: str = "Big 6"
    lucky_6: str = "Lucky 6"
    lucky_7: str = "Lucky 7"
    super_lucky_7: str = "Super Lucky 7"
    display_fault: str = "DISPLAY FAULT"  # a panel failed to draw: the board says so
    journal_failing: str = "JOURNAL"  # the journal cannot write: running from memory
    no_limits: str = "Limits \u2014"  # no limits known yet: never a made-up default
    earlier: str = "Earlier"  # the roads scrolled: earlier results are off the left edge
    wins: str = "WINS"  # the winner banner: "BANKER WINS 7 \u2013 5"
    tie_result: str = "TIE"  # the winner banner of a tie: "TIE 6 \u2013 6"
    shoe_summary: str = "Shoe summary"  # the shuffle screen: the finished shoe in numbers
    min_bet: str = "Minimum bet"
    max_bet: str = "Maximum bet"
    # Notices (docs/display.md, "Notices"); {name} is filled in, see PLACEHOLDERS
    game_voided: str = "Game {game} voided"
    games_voided: str = "Games {games} voided"  # several at once: "Games 17, 18 voided"
    game_corrected: str = "Game {game} corrected: {change}"  # "Banker \u2192 Player"
    games_corrected: str = "Games {games} corrected"
    added: str = "{what} added"  # a correction that kept the winner: "P Pair added"
    removed: str = "{what} removed"
    cards_changed: str = "cards changed"
    alerts: str = "ALERTS"  # the staff mark beside the integrity alerts' count
    shoe_offline: str = "SHOE OFFLINE"  # staff mark: the card-reading shoe's cable is out
    shoe_error: str = "SHOE ERROR"  # staff mark: the shoe reports an error (its code follows)
    new_limits: str = "New limits from {time}"  # the limits panel: "New limits from 22:00"
    # The lobby board (docs/lobby.md); its states reuse live, shuffling, cut_card_out, offline
    lobby_title: str = "Baccarat tables"  # the header, unless style.header_title says
    lobby_page: str = "Page {page} / {pages}"
    lobby_stale: str = "No update for {age}"  # {age}: one of the three units below
    lobby_stale_badge: str = "NO UPDATE"
    lobby_waiting: str = "Waiting for the table"  # listed, nothing heard yet
    lobby_waiting_badge: str = "WAITING"
    lobby_no_tables: str = "Waiting for the tables"
    lobby_offline: str = "NO FEED"  # the lobby's own link to the broker is down
    lobby_seconds: str = "{n} s"
    lobby_minutes: str = "{n} min"
    lobby_hours: str = "{n} h"
    lobby_pit: str = "Pit {pit}"  # a tile's pit, before its game number


PLACEHOLDERS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "game_voided": ("game",),
        "games_voided": ("games",),
        "game_corrected": ("game", "change"),
        "games_corrected": ("games",),
        "added": ("what",),
        "removed": ("what",),
        "new_limits": ("time",),
        "lobby_page": ("page", "pages"),
        "lobby_stale": ("age",),
        "lobby_seconds": ("n",),
        "lobby_minutes": ("n",),
        "lobby_hours": ("n",),
        "lobby_pit": ("pit",),
    }
)
"""The labels with values filled in, and the ``{name}`` each must hold (and may only hold)."""


def fill_in(template: str, **values: str) -> str:
    """``template`` with each ``{name}`` replaced by its value; nothing else is interpreted.

    A theme's text is never given to ``str.format``: a label like ``{0.__class__}``
    stays text (check-theme refuses it before it gets here).

    >>> fill_in("Game {game} voided", game="17")
    'Game 17 voided'
    >>> fill_in("{0.__class__} {game}", game="17")
    '{0.__class__} 17'
    """
    for name, value in values.items():
        template = template.replace("{" + name + "}", value)
    return template


@dataclass(frozen=True, slots=True)
class Symbols:
    """Shape per side, so a colour-blind viewer can tell Banker from Player."""

    banker: str = "circle"
    player: str = "circle"
    red: str = "circle"
    blue: str = "circle"


@dataclass(frozen=True, slots=True)
class RoadStyle:
    """How the roads look: rows, columns, blink, scroll margin, what a bead shows.

    ``columns`` is how many columns each road shows at least (``derived`` for the
    three derived roads): the layout picks each road's cell so they fit, which is
    how a whole shoe stays on one screen.  ``derived_cell`` is a derived road's
    cell as a fraction of the big road's (0.5: a big-road cell holds 2x2 entries).
    """

    rows: int = 6
    empty_columns: int = 2
    blink_seconds: float = 2.5
    columns: Mapping[str, int] = field(default_factory=lambda: MappingProxyType(dict(COLUMNS)))
    derived_cell: float = 0.5
    bead_text: str = "letter"  # or "total"
    natural_mark: bool = True
    letters: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType({"banker": "B", "player": "P", "tie": "T"})
    )


@dataclass(frozen=True, slots=True)
class MotionStyle:
    """How the board moves when a coup arrives (docs/display.md, "Motion").

    ``enabled: false`` draws every coup's final state at once.
    """

    enabled: bool = True
    deal_seconds: float = 0.3  # between two cards of the last hand appearing
    banner_seconds: float = 3.0  # the winner banner
    draw_in_seconds: float = 0.35  # the newest road entry grows in
    notice_seconds: float = 4.0  # each notice ("Game 17 voided"), shown with motion off too


@dataclass(frozen=True, slots=True)
class Style:
    """Proportions (of the shorter screen side) for the frame's furniture."""

    gap: float = 0.008  # reserved: themes may set it, but the layout does not use it yet
    corner_radius: float = 0.006
    border_width: float = 0.0015
    title_height: float = 0.032
    text_scale: float = 1.0
    header_title: str = ""
    clock: bool = True
    disclaimer: bool = True
    split_naturals: bool = False  # the naturals counter per side: "B 3 · P 4"
    logo: Path | None = None  # an image beside the theme, shown in the header


@dataclass(frozen=True, slots=True)
class Panel:
    """A panel and its rectangle as fractions of the screen: x, y, width, height."""

    name: str
    rect: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Layout:
    """One orientation's panels; ``derived_cell`` overrides ``roads.derived_cell`` there.

    (A portrait screen's big road is narrowed by its columns: half its cell would
    leave the derived roads' marks too small to read, so portrait may ask for more.)
    """

    panels: tuple[Panel, ...]
    derived_cell: float | None = None

    def derived(self, roads: RoadStyle) -> float:
        """A derived road's cell per big-road cell in this layout."""
        return roads.derived_cell if self.derived_cell is None else self.derived_cell


@dataclass(frozen=True, slots=True)
class Theme:
    """A validated theme; build with :func:`load_theme` or :func:`parse_theme`."""

    name: str
    title: str
    source: Path | None
    colors: Colors
    fonts: Fonts
    languages: tuple[str, ...]
    labels: Mapping[str, Labels]
    symbols: Symbols
    roads: RoadStyle
    style: Style
    layouts: Mapping[str, Layout]
    motion: MotionStyle = MotionStyle()
    chosen: tuple[str, ...] = ()  # the display's languages over the theme's (a reload keeps them)

    def label(self, key: str) -> tuple[str, ...]:
        """The label in each shown language, primary first: ``("Banker", "莊")``.

        Each text once: a language without its own word for ``key`` falls back to
        English, and the board must not say "Ask Road Ask Road".
        """
        return tuple(dict.fromkeys(getattr(self.labels[lang], key) for lang in self.languages))

    def filled(self, key: str, **values: str | tuple[str, ...]) -> tuple[str, ...]:
        """The label in each shown language with its ``{name}`` placeholders filled in
        (:func:`fill_in`: never ``str.format``): ``("Game 17 voided", "第17局已取消")``.

        A value is one text for every language, or a tuple of one per shown language
        (each text once, as :meth:`label`).
        """
        texts = []
        for at, lang in enumerate(self.languages):
            mine = {k: v if isinstance(v, str) else v[at] for k, v in values.items()}
            texts.append(fill_in(getattr(self.labels[lang], key), **mine))
        return tuple(dict.fromkeys(texts))

    def layout(self, width: int, height: int) -> Layout:
        """Portrait layout for a tall screen, wide for an ultrawide one (width at least
        :data:`WIDE_RATIO` x height), when the theme has one; else landscape."""
        if height > width and "portrait" in self.layouts:
            return self.layouts["portrait"]
        if width >= WIDE_RATIO * height and "wide" in self.layouts:
            return self.layouts["wide"]
        return self.layouts.get("landscape") or next(iter(self.layouts.values()))
