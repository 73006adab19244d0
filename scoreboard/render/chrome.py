"""The frame's chrome: header with the feed mark and clock, footer, shuffle banner.

Functions of a :class:`~scoreboard.render.panels.PanelPainter`, which carries the
theme, the layout and the text cache; sizes are fractions of the boxes.
"""

from __future__ import annotations

import pygame

from scoreboard.core.table import FeedStatus, TableState
from scoreboard.render.panels import PanelPainter
from scoreboard.theme import RGB

STATUS_LABEL = {
    FeedStatus.DEMO: "demo",
    FeedStatus.LIVE: "live",
    FeedStatus.CONNECTING: "connecting",
    FeedStatus.OFFLINE: "offline",
    FeedStatus.CONTROLLER_OFFLINE: "controller_offline",
    FeedStatus.MISSING_GAMES: "missing_games",
}


def luminance(color: RGB) -> float:
    """Perceived lightness 0..1, to pick light or dark text on a coloured pill."""
    r, g, b = color
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def mix(a: RGB, b: RGB, amount: float) -> RGB:
    """``a`` moved ``amount`` of the way towards ``b``."""
    return tuple(round(x + (y - x) * amount) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def draw_header(
    p: PanelPainter, surface: pygame.Surface, table: TableState, status: FeedStatus, clock: str
) -> None:
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
        ("game", str(table.last_number) if table.last_number else "–"),
    ]
    slot_w = round(box.width * 0.1)
    x = box.x + round(box.width * 0.4)
    for key, value in fields:
        slot = pygame.Rect(x, box.y, slot_w, box.height)
        label = pygame.Rect(slot.x, slot.y + round(box.height * 0.12), slot_w, 0)
        label.height = round(box.height * 0.3)
        caption = mix(colors.header_text, colors.header_background, 0.4)
        p.put(surface, p.words(key).upper(), label, caption, align="center")
        value_box = pygame.Rect(slot.x, label.bottom, slot_w, round(box.height * 0.48))
        p.put(surface, value, value_box, colors.header_text, bold=True, align="center")
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
    draw_feed_mark(p, surface, status, right, box)


def draw_feed_mark(
    p: PanelPainter, surface: pygame.Surface, status: FeedStatus, right: int, box: pygame.Rect
) -> None:
    """A pill with the feed's state: green live, gold demo, red offline."""
    colors = p.colors
    fill = {
        FeedStatus.LIVE: colors.ok,
        FeedStatus.DEMO: colors.accent,
        FeedStatus.CONNECTING: colors.warning,
        FeedStatus.MISSING_GAMES: colors.warning,
    }.get(status, colors.error)
    text = p.words(STATUS_LABEL[status], "  ")
    height = round(box.height * 0.46)
    ink = colors.header_background if luminance(fill) > 0.5 else colors.header_text
    if abs(luminance(ink) - luminance(fill)) < 0.3:
        ink = (0, 0, 0) if luminance(fill) > 0.5 else (255, 255, 255)
    label = p.text.fit(text, height * 0.8, box.width * 0.2, ink, bold=True)
    pill = pygame.Rect(0, 0, label.get_width() + height, height)
    pill.midright = (right, box.centery)
    pygame.draw.rect(surface, fill, pill, border_radius=height // 2)
    surface.blit(label, label.get_rect(center=pill.center))


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
