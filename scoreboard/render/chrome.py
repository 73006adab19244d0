"""The frame's chrome: header with the feed mark and clock, the cut card's
"final hand" plate, footer, shuffle banner.

Functions of a :class:`~scoreboard.render.panels.PanelPainter`, which carries the
theme, the layout and the text cache; sizes are fractions of the boxes.
"""

from __future__ import annotations

import pygame

from scoreboard.core.table import FeedStatus, TableState
from scoreboard.render.panels import Entry, PanelPainter, PanelView
from scoreboard.theme import RGB, Colors


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

    >>> from scoreboard.core.roads import result_games
    >>> table = TableState()
    >>> _ = table.new_shoe("S1")
    >>> game_number(table)
    '–'
    >>> for game in result_games("BP"):
    ...     _ = table.add_game(game)
    >>> game_number(table)
    '2'
    """
    return str(table.last_number) if table.last_number else "–"


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
    """Title, table, shoe and game numbers, the feed mark, the clock; returns the numbers drawn.

    ``fault`` (a panel failed to draw) replaces the feed mark by DISPLAY FAULT,
    so the header never says LIVE over a board it could not draw;
    ``journal_failing`` adds the JOURNAL warning beside it.
    """
    box = p.layout.panels["header"].body
    colors = p.colors
    name = p.theme.style.header_title or table.table_name or "Baccarat"
    if table.table_name and p.theme.style.header_title:
        name = f"{p.theme.style.header_title}  ·  {table.table_name}"
    margin = p.layout.px(0.012)
    left = pygame.Rect(box.x + margin, box.y, round(box.width * 0.36), box.height)
    p.put(surface, name, left, colors.header_text, bold=True, height=box.height * 0.62)
    fields = [
        ("table", table.table_id),
        ("shoe", str(table.shoe_number) if table.shoe_number else "–"),
        ("game", game_number(table)),
    ]
    entries = []
    slot_w = round(box.width * 0.1)
    x = box.x + round(box.width * 0.4)
    for key, value in fields:
        slot = pygame.Rect(x, box.y, slot_w, box.height)
        label = pygame.Rect(slot.x, slot.y + round(box.height * 0.12), slot_w, 0)
        label.height = round(box.height * 0.3)
        caption = mix(colors.header_text, colors.header_background, 0.4)
        caption_text = p.put(surface, p.words(key).upper(), label, caption, align="center")
        value_box = pygame.Rect(slot.x, label.bottom, slot_w, round(box.height * 0.48))
        shown = p.put(surface, value, value_box, colors.header_text, bold=True, align="center")
        entries.append(Entry(key, caption_text, shown))
        x += slot_w
    right = box.right - margin
    if clock and p.theme.style.clock:
        clock_box = pygame.Rect(0, box.y, round(box.width * 0.09), box.height)
        clock_box.right = right
        p.put(
            surface,
            clock,
            clock_box,
            colors.header_text,
            align="right",
            height=box.height * 0.5,
        )
        right = clock_box.left - round(box.width * 0.012)
    marks = header_marks(p, status, fault=fault, journal_failing=journal_failing)
    pill = draw_marks(p, surface, marks, (x + round(box.width * 0.008), right), box)
    if plate_shows(table) and plate_in_header(p):
        gap = round(box.width * 0.012)
        strip = pygame.Rect(x + gap, pill.y, max(1, pill.left - 2 * gap - x), pill.height)
        draw_cut_card_plate(p, surface, strip, max_width=strip.width)
    return PanelView(tuple(entries))


def header_marks(
    p: PanelPainter, status: FeedStatus, *, fault: bool, journal_failing: bool
) -> list[tuple[str, RGB]]:
    """The header's marks, right to left, as (text, fill): the feed mark, then any warning.

    The feed mark is green live, gold demo, amber connecting or missing games,
    red offline; while a panel fails to draw it is a red DISPLAY FAULT instead.
    """
    colors = p.colors
    fill = {
        FeedStatus.LIVE: colors.ok,
        FeedStatus.DEMO: colors.accent,
        FeedStatus.CONNECTING: colors.warning,
        FeedStatus.MISSING_GAMES: colors.warning,
    }.get(status, colors.error)
    text = p.words(status.name.lower(), "  ")  # the label key: "controller_offline", ...
    if fault:
        fill, text = colors.error, p.words("display_fault", "  ")
    marks = [(text, fill)]
    if journal_failing:
        marks.append((p.words("journal_failing", "  "), colors.warning))
    return marks


def draw_marks(
    p: PanelPainter,
    surface: pygame.Surface,
    marks: list[tuple[str, RGB]],
    span: tuple[int, int],
    box: pygame.Rect,
) -> pygame.Rect:
    """Pills right to left between ``span`` (left, right); the rectangle they cover.

    Side by side when they fit at full size, else stacked on two lanes, so a
    warning never covers the game number nor shrinks the feed mark to nothing.
    """
    left, right = span
    height = round(box.height * 0.46)
    gap = round(box.width * 0.008)
    size = p.text.size_for_height(height * 0.8)
    need = sum(p.text.width(text, size, bold=True) + height + gap for text, _ in marks) - gap
    stacked = len(marks) > 1 and need > right - left
    if stacked:
        height = round(box.height * 0.4)
    covered: pygame.Rect | None = None
    for index, (text, fill) in enumerate(marks):
        lane = pygame.Rect(left, 0, max(1, right - left), height)
        lane.centery = box.y + round(box.height * (0.27 + 0.46 * index)) if stacked else box.centery
        pill = draw_pill(p, surface, text, fill, lane, cap=round(box.width * 0.2))
        covered = pill if covered is None else covered.union(pill)
        if not stacked:
            right = pill.left - gap
    assert covered is not None  # there is always the feed mark
    return covered


def draw_pill(
    p: PanelPainter, surface: pygame.Surface, text: str, fill: RGB, lane: pygame.Rect, *, cap: int
) -> pygame.Rect:
    """A rounded label of ``fill`` at the right of ``lane``, as tall as it.

    The label shrinks to fit the lane and at most ``cap`` pixels.
    """
    height = lane.height
    ink = _ink_on(p.colors, fill)
    width = max(1, min(cap, lane.width - height))
    label = p.text.fit(text, height * 0.8, width, ink, bold=True)
    pill = pygame.Rect(0, 0, label.get_width() + height, height)
    pill.midright = lane.midright
    pygame.draw.rect(surface, fill, pill, border_radius=height // 2)
    surface.blit(label, label.get_rect(center=pill.center))
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
    label = p.text.fit(p.words("cut_card_out", "  ·  "), height * 0.8, room, ink, bold=True)
    plate = pygame.Rect(0, 0, label.get_width() + card.width + 2 * pad + pad // 2, height)
    plate.midright = strip.midright
    pygame.draw.rect(surface, colors.accent, plate, border_radius=max(2, height // 4))
    card.midleft = (plate.x + pad, plate.centery)
    pygame.draw.rect(surface, ink, card, border_radius=max(1, card.width // 4))
    surface.blit(label, label.get_rect(midleft=(card.right + pad // 2, plate.centery)))
    return plate


def draw_footer(p: PanelPainter, surface: pygame.Surface) -> None:
    if not p.theme.style.disclaimer or "footer" not in p.layout.panels:
        return
    box = p.layout.panels["footer"].body
    height = min(box.height * 0.62, p.layout.unit * 0.022)
    p.put(
        surface,
        p.words("disclaimer", "   "),
        box.inflate(-box.width // 20, 0),
        p.colors.muted,
        align="center",
        height=height,
    )


def draw_shuffle_banner(p: PanelPainter, surface: pygame.Surface) -> pygame.Rect:
    """A calm banner over the roads while the next shoe is prepared."""
    panel = p.layout.panels.get("big_road") or next(iter(p.layout.panels.values()))
    colors = p.colors
    banner = panel.rect.inflate(-round(panel.rect.width * 0.3), -round(panel.rect.height * 0.4))
    pygame.draw.rect(surface, colors.header_background, banner, border_radius=p.layout.radius * 2)
    pygame.draw.rect(
        surface,
        colors.accent,
        banner,
        p.layout.line * 2,
        border_radius=p.layout.radius * 2,
    )
    top = banner.inflate(-banner.width // 8, -banner.height // 2)
    top.y = banner.y + round(banner.height * 0.14)
    p.put(
        surface,
        p.words("shuffling", "  ·  "),
        top,
        colors.header_text,
        bold=True,
        align="center",
    )
    note = pygame.Rect(
        top.x, top.bottom + round(banner.height * 0.06), top.width, round(banner.height * 0.2)
    )
    p.put(surface, p.words("shuffle_note", "  ·  "), note, colors.accent, align="center")
    return banner
