"""The frame's chrome: header with the feed mark and clock, the cut card's
"final hand" plate, footer, shuffle banner.

Functions of a :class:`~scoreboard.screen.board.panels.PanelPainter`, which carries the
theme, the layout and the text cache; sizes are fractions of the boxes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import pygame

from scoreboard.screen.board._notices import alert_count, alert_text, draw_staff_mark, shoe_text
from scoreboard.screen.board._small_panels import FrameInput, SmallPanel
from scoreboard.screen.board.canvas import draw_rect
from scoreboard.screen.board.panels import DrawnText, Entry, PanelPainter, PanelView
from scoreboard.screen.theme.values import RGB, Colors
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

log = logging.getLogger(__name__)


def luminance(color: RGB) -> float:
    """Perceived lightness 0..1, to pick light or dark text on a coloured pill.

    >>> luminance((255, 255, 255)), luminance((0, 0, 0))
    (1.0, 0.0)
    """
    r, g, b = color
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def mix(a: RGB, b: RGB, amount: float) -> RGB:
    """``a`` moved ``amount`` of the way towards ``b``.

    >>> mix((0, 0, 0), (200, 100, 50), 0.5)
    (100, 50, 25)
    """
    return tuple(round(x + (y - x) * amount) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _ink_on(colors: Colors, fill: RGB) -> RGB:
    """Text colour for a pill of ``fill``: a theme colour if it contrasts, else black or white."""
    ink = colors.header_background if luminance(fill) > 0.5 else colors.header_text
    if abs(luminance(ink) - luminance(fill)) < 0.3:
        ink = (0, 0, 0) if luminance(fill) > 0.5 else (255, 255, 255)
    return ink


def plate_shows(table: TableState) -> bool:
    """The cut card's "final hand" plate is up: the card is out and the shoe not yet over."""
    return table.cut_card_out and not table.shuffling


def plate_in_header(p: PanelPainter) -> bool:
    """The plate goes in the header: the layout has no big-road title strip to carry it."""
    panel = p.layout.panels.get("big_road")
    return panel is None or panel.title is None


def game_number(table: TableState) -> str:
    """The header's game: the last game's number, a dash before the shoe's first game.

    An empty shoe has dealt no game yet, so it says "–", never "Game 1" (nor 0).

    >>> from scoreboard.game.notation import result_games
    >>> table = TableState()
    >>> _ = table.new_shoe("S1")
    >>> game_number(table)
    '–'
    >>> for game in result_games("BP"):
    ...     _ = table.add_game(game)
    >>> game_number(table)
    '2'
    """
    number = table.last_number
    return str(number) if number else "–"


def draw_header(
    p: PanelPainter,
    surface: pygame.Surface,
    table: TableState,
    status: FeedStatus,
    clock: str,
    *,
    fault: bool = False,
    journal_failing: bool = False,
) -> PanelView:
    """The header for this table (see :func:`paint_header`); returns the numbers drawn."""
    shows = header_shows(p, table, status, clock, fault=fault, journal_failing=journal_failing)
    return paint_header(p, surface, shows)


@dataclass(frozen=True, slots=True)
class StaffMarks:
    """The staff's marks a header carries when the layout has no footer: the alerts'
    count and the shoe's words ("" while the shoe is well)."""

    alerts: int = 0
    shoe: str = ""


NO_STAFF = StaffMarks()
"""No staff marks in the header (a footer carries them, or there are none)."""


@dataclass(frozen=True, slots=True)
class HeaderShows:
    """Everything the header draws: its change key (``clock`` is "" for a theme without
    one; ``staff`` is empty where a footer carries the staff's marks)."""

    table_name: str
    table_id: str
    shoe: str
    game: str
    status: FeedStatus
    clock: str
    fault: bool
    journal_failing: bool
    staff: StaffMarks
    plate: bool


def header_shows(
    p: PanelPainter,
    table: TableState,
    status: FeedStatus,
    clock: str,
    *,
    fault: bool = False,
    journal_failing: bool = False,
) -> HeaderShows:
    """What the header shows for this table, feed status and clock."""
    footer = "footer" in p.layout.panels  # else the staff's marks are in the header
    staff = NO_STAFF if footer else StaffMarks(alert_count(table), shoe_text(p, table))
    return HeaderShows(
        table.table_name,
        table.table_id,
        str(table.shoe_number) if table.shoe_number else "–",
        game_number(table),
        status,
        clock if p.theme.style.clock else "",
        fault,
        journal_failing,
        staff,
        plate_shows(table) and plate_in_header(p),
    )


def read_header(p: PanelPainter, given: FrameInput) -> HeaderShows:
    """The header's reading of one update: the table, the feed's status, the clock, the
    journal's health and whether another panel fails (read last, after their draws)."""
    return header_shows(
        p,
        given.table,
        given.status,
        given.clock,
        fault=given.fault,
        journal_failing=given.journal_failing,
    )


def paint_header(p: PanelPainter, surface: pygame.Surface, shows: HeaderShows) -> PanelView:
    """Title, table, shoe and game numbers, the feed mark, the clock; returns the numbers drawn.

    ``fault`` (a panel failed to draw) replaces the feed mark by DISPLAY FAULT,
    so the header never says LIVE over a board it could not draw;
    ``journal_failing`` adds the JOURNAL warning beside it.

    Laid out right to left from what each part needs at its size floor: the
    clock, the marks, the numbers; the title (or the theme's logo) takes what
    is left and is cut with an ellipsis rather than shrunk.  So no part ever
    covers another, in any orientation.
    """
    status, clock, staff = shows.status, shows.clock, shows.staff
    fault, journal_failing = shows.fault, shows.journal_failing
    box = p.layout.panels["header"].body
    colors = p.colors
    margin = p.layout.px(0.012)
    gap = p.layout.px(0.016)
    right = box.right - margin
    if clock:
        clock_box = pygame.Rect(box.x, box.y, right - box.x, box.height)
        cap = max(p.floor("label"), box.height * 0.3)
        drawn = p.put(surface, clock, clock_box, colors.header_text, align="right", cap=cap)
        right = drawn.rect.left - gap
    fields = [("table", shows.table_id), ("shoe", shows.shoe), ("game", shows.game)]
    caption_cap = max(p.floor("label"), box.height * 0.2)
    value_cap = max(p.floor("number"), box.height * 0.36)
    captions = [p.words(key).upper() for key, _ in fields]
    slots = [
        field_width(p, c, v, caption_cap, value_cap) + gap
        for c, (_, v) in zip(captions, fields, strict=True)
    ]
    height = round(box.height * 0.46)
    room = right - box.x - round(box.width * 0.4) - sum(slots)
    short = widest_marks(p, fault, journal_failing, height, short=False, staff=staff) > room
    marks = header_marks(
        p, status, fault=fault, journal_failing=journal_failing, short=short, staff=staff
    )
    # The numbers stay put whatever the status: room is kept for the widest marks.
    need = widest_marks(p, fault, journal_failing, height, short=short, staff=staff)
    x = min(box.x + round(box.width * 0.4), right - need - gap - sum(slots))
    x = max(x, box.x + margin)
    if x - gap - box.x - margin < title_width(p, box.height) and len(p.theme.languages) > 1:
        # A narrow header (portrait) keeps the brand whole: the numbers' captions in the
        # first language only ("TABLE", not "TABLE 枱") give it their room.
        captions = [p.names(key)[0].upper() for key, _ in fields]
        narrow = [
            field_width(p, c, v, caption_cap, value_cap) + gap
            for c, (_, v) in zip(captions, fields, strict=True)
        ]
        x = max(x, min(x + sum(slots) - sum(narrow), box.x + round(box.width * 0.4)))
        slots = narrow
    title_room = pygame.Rect(box.x + margin, box.y, x - gap - box.x - margin, box.height)
    draw_title(p, surface, shows.table_name, title_room)
    entries = []
    caption = mix(colors.header_text, colors.header_background, 0.4)
    for (key, value), text, slot_w in zip(fields, captions, slots, strict=True):
        slot = pygame.Rect(x, box.y, slot_w, box.height)
        label = pygame.Rect(
            slot.x, slot.y + round(box.height * 0.08), slot_w, round(box.height * 0.34)
        )
        caption_text = p.put(
            surface, text, label, caption, align="center", cap=caption_cap, role="label"
        )
        value_box = pygame.Rect(
            slot.x, label.bottom, slot_w, box.bottom - label.bottom - round(box.height * 0.06)
        )
        shown = p.put(
            surface,
            value,
            value_box,
            colors.header_text,
            bold=True,
            align="center",
            cap=value_cap,
            role="number",
        )
        entries.append(Entry(key, caption_text, shown))
        x += slot_w
    pill = draw_marks(p, surface, marks, (x, right), box)
    regions = [("marks", pill)]
    if shows.plate:
        strip = pygame.Rect(x + gap, pill.y, max(1, pill.left - 2 * gap - x), pill.height)
        regions.append(("cut_card", draw_cut_card_plate(p, surface, strip, max_width=strip.width)))
    return PanelView(tuple(entries), tuple(regions))


def widest_marks(
    p: PanelPainter,
    fault: bool,
    journal: bool,
    height: int,
    *,
    short: bool,
    staff: StaffMarks = NO_STAFF,
) -> int:
    """The width of the widest marks any feed status would show with these warnings.

    Measured once per painter and set of warnings (it runs twice a header draw).
    """

    def widest() -> int:
        return max(
            marks_width(
                p,
                header_marks(p, s, fault=fault, journal_failing=journal, short=short, staff=staff),
                height,
            )
            for s in FeedStatus
        )

    return p.laid_out(("widest_marks", fault, journal, height, short, staff), widest)


def field_width(
    p: PanelPainter, caption: str, value: str, caption_cap: float, value_cap: float
) -> int:
    """The width a header field needs: its caption or its value, whichever is wider."""
    text = p.text
    caption_w = text.width(caption, text.size_for_cap(caption_cap))
    value_w = text.width(value, text.size_for_cap(value_cap, bold=True), bold=True)
    return max(caption_w, min(value_w, round(p.layout.size[0] * 0.14)))


def title_width(p: PanelPainter, height: int) -> int:
    """The width the header's title text needs uncut at its size (0 with a logo: it scales)."""
    if p.theme.style.logo:
        return 0
    title = p.theme.style.header_title or "Baccarat"
    cap = max(p.floor("label"), height * 0.36)
    size = p.text.size_for_cap(cap, bold=True)
    return p.text.width(title, size, bold=True)


def draw_title(p: PanelPainter, surface: pygame.Surface, name: str, room: pygame.Rect) -> None:
    """The header's title in ``room``: the theme's logo when it has one, else its title text
    (and the table's ``name`` beside either)."""
    if room.width <= 0:
        return
    logo = header_logo(p, room.height)
    title = p.theme.style.header_title
    if logo is not None:
        widest = round(room.width * (0.5 if name else 1.0))  # the name keeps room
        if logo.get_width() > widest:
            scale = widest / logo.get_width()
            logo = pygame.transform.smoothscale(
                logo, (widest, max(1, round(logo.get_height() * scale)))
            )
        where = surface.blit(logo, logo.get_rect(midleft=room.midleft))
        gap = p.layout.px(0.016)
        room = pygame.Rect(where.right + gap, room.y, room.right - where.right - gap, room.height)
        title = ""
        if not name or room.width <= 0:
            return
    cap = max(p.floor("label"), room.height * 0.36)
    # The table's name matters more than the board's title: the two, the name whole,
    # the name cut with an ellipsis, and only then the title alone.
    whole = f"{title}  ·  {name}" if title and name else title or name or "Baccarat"
    for text, cut in ((whole, False), (name, False), (name, True), (title, True)):
        if not text:
            continue
        shown, _ = p.sized(text, room, bold=True, cap=cap, role="label")
        if shown == text or (cut and len(shown) >= min(len(text), 6)):
            p.put(surface, text, room, p.colors.header_text, bold=True, cap=cap, role="label")
            return
    # Every text cut to a stub says nothing: the header keeps its numbers and marks.


_LOGOS: dict[tuple[str, int, int, int], pygame.Surface | None] = {}
LOGOS_KEPT = 8
"""How many scaled logos are kept (a theme, a few header heights, a reload or two)."""


def header_logo(p: PanelPainter, height: int) -> pygame.Surface | None:
    """The theme's logo scaled to ``height`` (less a margin), cached; None without one.

    Kept per file version (modification time and size) and height, so an
    edited logo shows on the next theme reload.  check-theme validates the
    image, but a file that changed or vanished since must not break the
    header: it is logged and the title text is drawn instead.
    """
    path = p.theme.style.logo
    if path is None:
        return None
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = (0, -1)
    key = (str(path), height, *version)
    if key not in _LOGOS:
        if len(_LOGOS) >= LOGOS_KEPT:
            del _LOGOS[next(iter(_LOGOS))]
        _LOGOS[key] = _load_logo(path, height)
    return _LOGOS[key]


def _load_logo(path: Path, height: int) -> pygame.Surface | None:
    try:
        image = pygame.image.load(str(path))
        target = max(1, round(height * 0.8))
        width = max(1, round(image.get_width() * target / max(1, image.get_height())))
        if image.get_bitsize() not in (24, 32):  # smoothscale wants true colour
            image = image.convert(pygame.Surface((1, 1), pygame.SRCALPHA, 32))
        if pygame.display.get_surface() is not None:
            image = image.convert_alpha()
        return pygame.transform.smoothscale(image, (width, target))
    except (pygame.error, OSError, ValueError) as error:
        log.warning("theme logo %s cannot be drawn (%s); the header shows the title", path, error)
        return None


def header_marks(
    p: PanelPainter,
    status: FeedStatus,
    *,
    fault: bool,
    journal_failing: bool,
    short: bool = False,
    staff: StaffMarks = NO_STAFF,
) -> list[tuple[str, RGB]]:
    """The header's marks, right to left, as (text, fill): the feed mark, then any warning.

    The feed mark is green live, gold demo, amber connecting or missing games,
    red offline; while a panel fails to draw it is a red DISPLAY FAULT instead.
    ``short``: the primary language only, for a narrow header.  ``staff``: the
    integrity alerts' count and the shoe's state, for a layout without a footer
    to carry the staff's marks.
    """
    colors = p.colors
    fill = {
        FeedStatus.LIVE: colors.ok,
        FeedStatus.DEMO: colors.accent,
        FeedStatus.CONNECTING: colors.warning,
        FeedStatus.MISSING_GAMES: colors.warning,
    }.get(status, colors.error)

    def words(key: str) -> str:
        return p.theme.label(key)[0] if short else p.words(key, "  ")

    text = words(status.name.lower())  # the label key: "controller_offline", ...
    if fault:
        fill, text = colors.error, words("display_fault")
    marks = [(text, fill)]
    if journal_failing:
        marks.append((words("journal_failing"), colors.warning))
    if staff.alerts:
        marks.append((alert_text(p, staff.alerts), colors.warning))
    if staff.shoe:
        marks.append((staff.shoe, colors.warning))
    return marks


def marks_width(p: PanelPainter, marks: list[tuple[str, RGB]], height: int) -> int:
    """The width the marks take side by side as :func:`draw_pill` draws them, gaps included."""
    size = p.text.size_for_cap(pill_cap(p, height), bold=True)
    gap = round(p.layout.size[0] * 0.008)
    return sum(p.text.width(text, size, bold=True) + height + gap for text, _ in marks) - gap


def pill_cap(p: PanelPainter, height: int) -> float:
    """A mark's capitals on a pill ``height`` tall: 42 % of it, the label floor at least."""
    return max(p.floor("label"), height * 0.42)


def draw_marks(
    p: PanelPainter,
    surface: pygame.Surface,
    marks: list[tuple[str, RGB]],
    span: tuple[int, int],
    box: pygame.Rect,
) -> pygame.Rect:
    """Pills right to left between ``span`` (left, right); the rectangle they cover.

    Side by side when they fit, else stacked on two lanes, so a warning never
    covers the game number nor shrinks the feed mark below the label floor.
    """
    left, right = span
    height = round(box.height * 0.46)
    gap = round(box.width * 0.008)
    stacked = len(marks) > 1 and marks_width(p, marks, height) > right - left
    if stacked:
        height = round(box.height * 0.44)
    covered: pygame.Rect | None = None
    for index, (text, fill) in enumerate(marks):
        lane = pygame.Rect(left, 0, max(1, right - left), height)
        lane.centery = box.y + round(box.height * (0.26 + 0.48 * index)) if stacked else box.centery
        pill = draw_pill(p, surface, text, fill, lane)
        covered = pill if covered is None else covered.union(pill)
        if not stacked:
            right = pill.left - gap
    assert covered is not None  # there is always the feed mark
    return covered


def draw_pill(
    p: PanelPainter, surface: pygame.Surface, text: str, fill: RGB, lane: pygame.Rect
) -> pygame.Rect:
    """A rounded label of ``fill`` at the right of ``lane``, as tall as it.

    The label fits the lane, at the label floor at least (cut with an ellipsis
    before it would shrink below it).
    """
    height = lane.height
    ink = _ink_on(p.colors, fill)
    room = pygame.Rect(0, 0, max(1, lane.width - height), height)
    text, size = p.sized(text, room, bold=True, cap=pill_cap(p, height), role="label")
    label = p.text.render(text, size, ink, bold=True)
    pill = pygame.Rect(0, 0, label.get_width() + height, height)
    pill.midright = lane.midright
    draw_rect(surface, fill, pill, border_radius=height // 2)
    where = label.get_rect(center=pill.center)
    surface.blit(label, where)
    p.record(DrawnText(text, where, size, ink, True, "label"))
    return pill


def draw_cut_card_mark(p: PanelPainter, surface: pygame.Surface, table: TableState) -> None:
    """ "Final hand" at the right of the big road's title while the cut card is out.

    The big road's title strip has room at every size and orientation and sits
    where players look; a theme without one gets the plate in the header instead
    (see :func:`draw_header`).  Hidden under the shuffle screen.
    """
    if not plate_shows(table) or plate_in_header(p):
        return
    panel = p.layout.panels["big_road"]
    title = panel.title
    assert title is not None  # plate_in_header is false
    strip = pygame.Rect(title.x, 0, panel.body.right - title.x, round(title.height * 0.7))
    strip.centery = title.centery
    draw_cut_card_plate(p, surface, strip)


def draw_cut_card_plate(
    p: PanelPainter, surface: pygame.Surface, strip: pygame.Rect, *, max_width: int | None = None
) -> pygame.Rect:
    """An accent plate with a cut card and the label, right-aligned in ``strip``.

    The cut card is drawn as the dealer sees it: a slim card standing in the
    shoe.  The plate takes at most ``max_width`` (default half of ``strip``, so
    the panel's title stays clear); the label shrinks to fit.
    """
    colors = p.colors
    height = strip.height
    ink = _ink_on(colors, colors.accent)
    pad = round(height * 0.45)
    card = pygame.Rect(0, 0, max(2, round(height * 0.3)), max(3, round(height * 0.62)))
    room = (strip.width // 2 if max_width is None else max_width) - 2 * pad - card.width - pad // 2
    box = pygame.Rect(0, 0, max(1, room), height)
    text, size = p.sized(
        p.words("cut_card_out", "  ·  "), box, bold=True, height=height * 0.8, role="label"
    )
    label = p.text.render(text, size, ink, bold=True)
    plate = pygame.Rect(0, 0, label.get_width() + card.width + 2 * pad + pad // 2, height)
    plate.midright = strip.midright
    draw_rect(surface, colors.accent, plate, border_radius=max(2, height // 4))
    card.midleft = (plate.x + pad, plate.centery)
    draw_rect(surface, ink, card, border_radius=max(1, card.width // 4))
    where = label.get_rect(midleft=(card.right + pad // 2, plate.centery))
    surface.blit(label, where)
    p.record(DrawnText(text, where, size, ink, True, "label"))
    return plate


def draw_footer(
    p: PanelPainter, surface: pygame.Surface, *, alerts: int = 0, shoe: str = ""
) -> None:
    """The disclaimer, centred; at the right end the staff's marks
    (:func:`~scoreboard.screen.board._notices.draw_staff_mark`): the shoe's (``shoe``, its
    words) outermost, then the alerts' count, and the disclaimer kept clear of them."""
    if "footer" not in p.layout.panels:
        return
    box = p.layout.panels["footer"].body
    height = min(box.height * 0.62, p.layout.unit * 0.022)
    room = box.inflate(-box.width // 20, 0)
    gap = p.layout.px(0.016)
    left = room.right + gap
    for text in (shoe, alert_text(p, alerts) if alerts else ""):
        if text:
            place = pygame.Rect(room.x, room.y, left - gap - room.x, room.height)
            left = draw_staff_mark(p, surface, text, place, height).left
    if left <= room.right:
        room = room.inflate(-2 * (room.right - left + gap), 0)
    if not p.theme.style.disclaimer or room.width <= 0:
        return
    p.put(surface, p.words("disclaimer", "   "), room, p.colors.muted, align="center",
          height=height)  # fmt: skip


@dataclass(frozen=True, slots=True)
class FooterShows:
    """Everything the footer draws besides the theme: the staff's marks (the alerts'
    count, the shoe's words)."""

    alerts: int = 0
    shoe: str = ""


def read_footer(p: PanelPainter, given: FrameInput) -> FooterShows:
    """The footer's reading of one update: the table's alerts and its shoe's state."""
    return FooterShows(alert_count(given.table), shoe_text(p, given.table))


def paint_footer(p: PanelPainter, surface: pygame.Surface, shows: FooterShows) -> None:
    """:func:`draw_footer` from what it read."""
    draw_footer(p, surface, alerts=shows.alerts, shoe=shows.shoe)


HEADER = SmallPanel("header", read_header, paint_header, last=True)
"""The header: drawn last, so its feed mark says whether this frame's panels failed."""

FOOTER = SmallPanel("footer", read_footer, paint_footer)
