"""The limits panel: the minimum and maximum bet as a headline, then the pay table.

The minimum bet is the first thing a passer-by looks for, so it leads in large
numbers; the full table follows.  Long pays (EZ Baccarat's "1:1 (Dragon 7
push)") wrap or are cut, never shrinking the table below the label floor.
Functions of a :class:`~scoreboard.screen.board.panels.PanelPainter`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pygame

from scoreboard.game.limits import Limits, ScheduledLimits
from scoreboard.screen.board._small_panels import FrameInput, SmallPanel
from scoreboard.screen.board.canvas import draw_rect
from scoreboard.screen.board.panels import PanelPainter
from scoreboard.screen.theme.values import RGB

MAIN_BETS = ("player", "banker")
"""The bets whose minimum and maximum make the headline."""

SHORT_KEYS = {"min_bet": "minimum", "max_bet": "maximum"}
"""The headline's shorter labels, for a panel too narrow for "Minimum bet" at the label floor."""

HEADLINE_SHARE = 0.32

ANNOUNCE_CAP = 1.15
"""The scheduled limits' announcement: its capitals, in label floors."""

ANNOUNCE_LINES = 2
"""The most lines the announcement takes: the limit table keeps its room."""
"""How much of the panel's body the minimum and maximum bet take."""


def draw_limits(
    p: PanelPainter,
    surface: pygame.Surface,
    limits: Limits,
    *,
    scheduled: ScheduledLimits | None = None,
    now: float | None = None,
) -> None:
    """These limits (see :func:`paint_limits`), ``scheduled`` ones announced as at ``now``
    (unix time, default the wall clock)."""
    paint_limits(p, surface, limits_shows(limits, scheduled, now))


@dataclass(frozen=True, slots=True)
class LimitsShows:
    """Everything the limits panel draws besides the theme: its change key.

    The limits, and the scheduled ones with the time they are announced from
    (``when``: "22:00", with the date when not today; "" when none are known).
    """

    limits: Limits
    scheduled: ScheduledLimits | None = None
    when: str = ""


def limits_shows(
    limits: Limits, scheduled: ScheduledLimits | None = None, now: float | None = None
) -> LimitsShows:
    """What the limits panel shows: ``scheduled``'s time as read at ``now`` (unix time,
    default the wall clock: the kiosk's local time, so its date goes at midnight)."""
    if scheduled is None or not scheduled.limits.known:
        return LimitsShows(limits, scheduled)
    when = local_when(scheduled.at, time.time() if now is None else now)
    return LimitsShows(limits, scheduled, when)


def read_limits(_p: PanelPainter, given: FrameInput) -> LimitsShows:
    """The limits' reading of one update: the table's limits, and while some are
    scheduled the kiosk's wall clock as it last gave it to the table (``table.wall``)."""
    table = given.table
    return limits_shows(table.limits, table.scheduled, table.wall)


def paint_limits(p: PanelPainter, surface: pygame.Surface, shows: LimitsShows) -> None:
    """The main bets' minimum and maximum as a headline, then every bet and its pay.

    Unknown limits (no bets yet) say so, "Limits —", and the table keeps the
    variant's pays with a dash for each span: never a made-up default.
    Scheduled limits (:attr:`TableState.scheduled`) are announced under the
    headline ahead of time: "New limits from 22:00: 50 – 20,000".
    """
    limits, scheduled = shows.limits, shows.scheduled
    known = limits.known
    p.title(surface, "limits", f"  ({limits.currency})" if known else "")
    body = p.layout.panels["limits"].body
    head = pygame.Rect(body.x, body.y, body.width, round(body.height * HEADLINE_SHARE))
    lines: list[tuple[str, bool]] = []
    pitch, gap = round(p.floor("label") * ANNOUNCE_CAP * 2.1), p.layout.px(0.006)
    if scheduled is not None and shows.when:
        said = scheduled_lines(p, scheduled, shows.when)
        lines = wrapped(p, said, body.width - 2 * p.layout.px(0.008), spare_lines(p, limits))
        short = pitch * len(lines) + gap - (body.bottom - head.bottom - table_need(p, limits))
        head.height -= max(0, min(short, head.height - headline_need(p)))
    draw_headline(p, surface, limits, head)
    rest = pygame.Rect(body.x, head.bottom, body.width, body.bottom - head.bottom)
    if lines:
        strip = pygame.Rect(rest.x, rest.y + gap, rest.width, pitch * len(lines))
        draw_scheduled(p, surface, lines, strip)
        rest = pygame.Rect(rest.x, strip.bottom, rest.width, rest.bottom - strip.bottom)
    draw_limit_table(p, surface, limits, rest)


def local_when(at: float, now: float) -> str:
    """``at`` in the kiosk's local time: ``"22:00"``, with the date when not ``now``'s day.

    A time off the whole minute keeps its seconds, so the board never says
    "from 22:29" while it still shows the old limits until 22:29:32.

    >>> at = time.mktime((2026, 12, 1, 22, 0, 0, 0, 0, -1))  # 22:00 local
    >>> local_when(at, at - 3600), local_when(at, at - 3 * 86400), local_when(at + 32, at)
    ('22:00', '2026-12-01 22:00', '22:00:32')
    """
    when, today = time.localtime(at), time.localtime(now)
    clock = "%H:%M" if when.tm_sec == 0 and at == int(at) else "%H:%M:%S"
    if when[:3] == today[:3]:
        return time.strftime(clock, when)
    return time.strftime(f"%Y-%m-%d {clock}", when)


def main_span(limits: Limits) -> tuple[int, int]:
    """The headline's minimum and maximum: of the main bets, else of every bet."""
    main = [limits.bets[bet] for bet in MAIN_BETS if bet in limits.bets]
    spans = main or list(limits.bets.values())
    return min(low for low, _ in spans), max(high for _, high in spans)


def scheduled_lines(p: PanelPainter, scheduled: ScheduledLimits, when: str) -> list[str]:
    """ "New limits from 22:00: 50 – 20,000" (``when``: the time), a line per shown language."""
    low, high = main_span(scheduled.limits)
    words = p.theme.filled("new_limits", time=when)
    return [f"{word}: {low:,} – {high:,}" for word in dict.fromkeys(words)]


def table_need(p: PanelPainter, limits: Limits) -> int:
    """The height the limit table needs for its rows at the label floor: 1.6 capitals a
    row keeps a row's letters (descenders included) clear of the next row's."""
    rows = len(set(limits.bets) | set(limits.pays)) + 1
    return round(rows * 1.6 * p.floor("label"))


def headline_need(p: PanelPainter) -> int:
    """The least height of the headline: a caption and a number at their floors."""
    return round(3.4 * p.floor("number"))


def spare_lines(p: PanelPainter, limits: Limits) -> int:
    """How many lines the announcement may take, 1 to :data:`ANNOUNCE_LINES`, leaving
    the limit table and the headline their least room."""
    body = p.layout.panels["limits"].body
    room = body.height - table_need(p, limits) - headline_need(p) - p.layout.px(0.006)
    pitch = round(p.floor("label") * ANNOUNCE_CAP * 2.1)
    return max(1, min(ANNOUNCE_LINES, room // max(1, pitch)))


def wrapped(
    p: PanelPainter, lines: list[str], room: int, most: int = ANNOUNCE_LINES
) -> list[tuple[str, bool]]:
    """At most ``most`` lines (with whether each is the first language's): the first
    language, broken after its time ("… 22:00" / "50 – 20,000") when it does not fit
    ``room`` at the label floor (and two lines may be had); the other languages while
    lines are left (side by side when only one line is left and they fit)."""
    size = p.text.size_for_cap(p.floor("label") * ANNOUNCE_CAP, bold=True)
    least = p.min_size("label", bold=True)
    joined = "  ·  ".join(lines)
    if most < len(lines) and p.text.width(joined, size, bold=True) <= room:
        return [(joined, True)]  # the languages side by side on the one line there is
    found: list[tuple[str, bool]] = []
    for index, line in enumerate(lines):
        parts = [line]
        if p.text.width(line, least, bold=True) > room and ": " in line and most > 1:
            head, _, tail = line.rpartition(": ")
            parts = [head, tail]
        elif p.text.width(line, size, bold=True) > room and index:
            break  # another language only where it fits at the announcement's size
        if found and len(found) + len(parts) > most:
            break
        found += [(part, index == 0) for part in parts]
    return found


def draw_scheduled(
    p: PanelPainter, surface: pygame.Surface, lines: list[tuple[str, bool]], strip: pygame.Rect
) -> None:
    """The announcement on a band of the panel's background: the first language in the
    accent colour, bold; the others in the text colour."""
    draw_rect(surface, p.colors.background, strip, border_radius=p.layout.radius)
    pitch = strip.height // max(1, len(lines))
    inset = p.layout.px(0.008)
    for index, (line, first) in enumerate(lines):
        row = pygame.Rect(strip.x + inset, strip.y + index * pitch, strip.width - 2 * inset, pitch)
        color = p.colors.accent if first else p.colors.text
        p.put(surface, line, row, color, bold=first, align="center",
              cap=p.floor("label") * ANNOUNCE_CAP, role="label")  # fmt: skip


def draw_headline(
    p: PanelPainter, surface: pygame.Surface, limits: Limits, head: pygame.Rect
) -> None:
    colors = p.colors
    gap = p.layout.px(0.006)
    if not limits.known:
        p.put(
            surface,
            p.words("no_limits"),
            head.inflate(-2 * gap, -2 * gap),
            colors.text,
            bold=True,
            align="center",
            cap=max(p.floor("number"), head.height * 0.3),
            role="label",
        )
        return
    values = main_span(limits)
    half = head.width // 2
    label_cap = max(p.floor("label"), head.height * 0.17)
    number_cap = max(p.floor("number"), head.height * 0.36)
    for i, (key, value) in enumerate(zip(("min_bet", "max_bet"), values, strict=True)):
        cell = pygame.Rect(head.x + i * half, head.y, half, head.height).inflate(-2 * gap, 0)
        label = pygame.Rect(cell.x, cell.y, cell.width, round(cell.height * 0.4))
        if not p.label_fits(key, label):
            key = SHORT_KEYS[key]  # "Min" for "Minimum bet" on a narrow panel
        p.put_label(surface, key, label, colors.muted, label_cap, align="center")
        number = pygame.Rect(cell.x, label.bottom, cell.width, cell.bottom - label.bottom)
        p.put(
            surface,
            f"{value:,}",
            number,
            colors.accent if i == 0 else colors.text,
            bold=True,
            align="center",
            cap=number_cap,
            role="number",
        )


def draw_limit_table(
    p: PanelPainter, surface: pygame.Surface, limits: Limits, area: pygame.Rect
) -> None:
    """Bet, minimum – maximum, pays: columns as wide as their texts, one size for all."""
    colors = p.colors
    bets = list(limits.order)
    head = ("", f"{p.words('minimum')} – {p.words('maximum')}", p.words("pays"))
    spans = []
    for bet in bets:
        low, high = limits.bets.get(bet, (None, None))
        spans.append("–" if low is None or high is None else f"{low:,} – {high:,}")
    if sum(p.text.width(t, p.min_size("label")) for t in spans[:1]) * 2.6 > area.width:
        spans = [t.replace(" – ", "–") for t in spans]  # a narrow panel: "25–10,000"
    pays_text = [limits.pays.get(bet, "–") for bet in bets]
    inset = p.layout.px(0.008)
    gap = p.layout.px(0.02)
    room = area.width - 2 * inset - 2 * gap
    measure = p.text.width
    row_h = area.height / max(len(bets) + 1, 4)
    two_lines = row_h >= 2.6 * p.floor("label")
    pays_text, notes = footnoted(p, pays_text, room // 3, two_lines)
    if notes:
        row_h = area.height / max(len(bets) + 1 + len(notes), 4)
        two_lines = row_h >= 2.6 * p.floor("label")

    def widths(size: int, names: list[str]) -> tuple[int, int, int]:
        name = max((measure(n, size, bold=True) for n in names), default=0)
        span = max((measure(t, size) for t in spans), default=0)
        pays = measure(head[2], size)
        for text in pays_text:
            whole = measure(text, size)
            broken = p.text.lines(text, size, whole - 1) if two_lines else [text]
            pays = max(pays, min(whole, max(measure(t, size) for t in broken)))
        return name, span, pays

    names = [p.bet_name(bet) for bet in bets]
    size = p.text.size_to_fit(row_h * 0.62, room, lambda size: sum(widths(size, names)))
    size = max(size, p.min_size("label"))
    if sum(widths(size, names)) > room:  # the bets' other languages go before anything is cut
        names = [p.bet_name(bet, primary=True) for bet in bets]
        head = ("", f"{p.theme.label('minimum')[0]} – {p.theme.label('maximum')[0]}", head[2])
        head = (*head[:2], p.theme.label("pays")[0])
    spare = area.width - 2 * inset - sum(widths(size, names))
    gap = max(p.layout.px(0.006), min(gap, spare // 2))  # narrower gaps before cut names
    _, span_w, pays_w = widths(size, names)
    right = area.right - inset
    span_right = right - min(pays_w, room // 3) - gap
    name_right = span_right - span_w - gap
    rows = [head, *zip(names, spans, pays_text, strict=True)]
    for r, texts in enumerate(rows):
        line = pygame.Rect(area.x, round(area.y + r * row_h), area.width, round(row_h))
        if r % 2 == 0 and r:
            draw_rect(surface, colors.background, line, border_radius=p.layout.radius // 2)
        color = colors.muted if r == 0 else colors.text
        name = pygame.Rect(area.x + inset, line.y, max(1, name_right - area.x - inset), line.height)
        draw_cell(p, surface, texts[0], name, color, size, bold=r > 0, align="left")
        left = area.x + inset if r == 0 else span_right - span_w
        span = pygame.Rect(left, line.y, span_right - left, line.height)
        draw_cell(p, surface, texts[1], span, color, size, align="right")
        pays = pygame.Rect(span_right + gap, line.y, right - span_right - gap, line.height)
        draw_cell(p, surface, texts[2], pays, color, size, align="right")
    for n, note in enumerate(notes, start=len(rows)):
        line = pygame.Rect(area.x + inset, round(area.y + n * row_h), room, round(row_h))
        small = p.min_size("text")  # the small print of the table
        shown = p.text.shorten(note, small, line.width)
        p.put_lines(surface, [shown], line, colors.muted, small, align="left", role="text")


def footnoted(
    p: PanelPainter, pays: list[str], width: int, two_lines: bool
) -> tuple[list[str], list[str]]:
    """Pays too long for their column lose their bracket to a footnote under the table.

    "1:1 (Dragon 7 push)" becomes "1:1 *" with "* Dragon 7 push" below, so
    the condition is still read in full instead of being cut to "1:1 (Drag…".

    Returns the pays as drawn and the footnotes.
    """
    size = p.min_size("label")
    shown: list[str] = []
    notes: list[str] = []
    for text in pays:
        lines = p.text.lines(text, size, width) if two_lines else [text]
        fits = all(p.text.width(line, size) <= width for line in lines) and "…" not in "".join(
            lines
        )
        if fits or " (" not in text or not text.endswith(")"):
            shown.append(text)
            continue
        mark = "*" * (len(notes) + 1)
        main, note = text[: text.index(" (")], text[text.index(" (") + 2 : -1]
        shown.append(f"{main} {mark}")
        notes.append(f"{mark} {note}")
    return shown, notes


def draw_cell(
    p: PanelPainter,
    surface: pygame.Surface,
    text: str,
    box: pygame.Rect,
    color: RGB,
    size: int,
    *,
    bold: bool = False,
    align: str,
) -> pygame.Rect | None:
    """One table cell: on one line, in two when too long and the row is tall enough, else cut.

    Returns the rectangle its text covers (None for an empty cell).
    """
    if not text:
        return None
    lines = p.text.lines(text, size, box.width, bold=bold)
    if len(lines) > 1 and box.height < 2.6 * p.text.cap_height(size, bold=bold):
        lines = [p.text.shorten(p.text.drawable(text, bold=bold), size, box.width, bold=bold)]
    drawn = p.put_lines(surface, lines, box, color, size, bold=bold, align=align, role="label")
    covered = drawn[0].rect.unionall([d.rect for d in drawn[1:]])
    return covered


LIMITS = SmallPanel("limits", read_limits, paint_limits)
