"""The non-road panels: header, counters, ask road, last hand, limits, footer.

Each function draws one panel's content into its body rectangle on top of the
cached static layer; sizes are fractions of that rectangle, never pixels.
"""

from __future__ import annotations

import pygame

from scoreboard.core.cards import Card
from scoreboard.core.roads import Color, Roads
from scoreboard.core.rules import Coup, Winner
from scoreboard.core.table import FeedStatus, Limits, TableState
from scoreboard.render.grid import RoadPainter
from scoreboard.render.layout import ScreenLayout
from scoreboard.render.text import TextCache
from scoreboard.theme import RGB, Theme

SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_TEXT = {"T": "10"}
STATUS_LABEL = {
    FeedStatus.DEMO: "demo",
    FeedStatus.LIVE: "live",
    FeedStatus.CONNECTING: "connecting",
    FeedStatus.OFFLINE: "offline",
    FeedStatus.CONTROLLER_OFFLINE: "controller_offline",
    FeedStatus.MISSING_GAMES: "missing_games",
}


class PanelPainter:
    """Draws panel contents; shares the text cache and the road symbols."""

    def __init__(
        self, theme: Theme, layout: ScreenLayout, text: TextCache, roads: RoadPainter
    ) -> None:
        self.theme = theme
        self.layout = layout
        self.text = text
        self.roads = roads
        self.colors = theme.colors

    # -- helpers ----------------------------------------------------------------------
    def words(self, key: str, sep: str = " ") -> str:
        return sep.join(dict.fromkeys(self.theme.label(key)))

    def put(
        self,
        surface: pygame.Surface,
        text: str,
        box: pygame.Rect,
        color: RGB,
        *,
        bold: bool = False,
        align: str = "left",
        height: float | None = None,
    ) -> pygame.Rect:
        """Fit ``text`` into ``box`` (vertically centred) and return where it went."""
        rendered = self.text.fit(text, height or box.height, box.width, color, bold=bold)
        where = rendered.get_rect(centery=box.centery)
        if align == "center":
            where.centerx = box.centerx
        elif align == "right":
            where.right = box.right
        else:
            where.left = box.left
        surface.blit(rendered, where)
        return where

    def uniform_size(
        self, texts: list[str], height: float, width: float, *, bold: bool = False
    ) -> int:
        """One font size for a column of texts: the largest at which all of them fit."""
        size = self.text.size_for_height(height)
        widest = max((self.text.font(size, bold=bold).size(t)[0] for t in texts), default=0)
        if widest > width > 0:
            size = max(6, int(size * width / widest))
        return size

    def title(self, surface: pygame.Surface, name: str, extra: str = "") -> None:
        """The panel's title strip: primary label, then the other languages, muted."""
        box = self.layout.panels[name].title
        if box is None:
            return
        inner = box.inflate(-2 * self.layout.px(0.01), -round(box.height * 0.3))
        labels = self.theme.label(name)
        where = self.put(surface, labels[0] + extra, inner, self.colors.title, bold=True)
        for other in labels[1:]:
            rest = pygame.Rect(where.right + inner.height // 2, inner.y, inner.width, inner.height)
            rest.width = max(1, inner.right - rest.x)
            where = self.put(surface, other, rest, self.colors.muted)

    # -- header -------------------------------------------------------------------------
    def header(
        self, surface: pygame.Surface, table: TableState, status: FeedStatus, clock: str
    ) -> None:
        box = self.layout.panels["header"].body
        colors = self.colors
        name = self.theme.style.header_title or table.table_name or "Baccarat"
        if table.table_name and self.theme.style.header_title:
            name = f"{self.theme.style.header_title}  ·  {table.table_name}"
        margin = self.layout.px(0.012)
        left = pygame.Rect(box.x + margin, box.y, round(box.width * 0.36), box.height)
        self.put(surface, name, left, colors.header_text, bold=True, height=box.height * 0.62)
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
            self.put(surface, self.words(key).upper(), label, colors.accent, align="center")
            value_box = pygame.Rect(slot.x, label.bottom, slot_w, round(box.height * 0.48))
            self.put(surface, value, value_box, colors.header_text, bold=True, align="center")
            x += slot_w
        right = box.right - margin
        if clock and self.theme.style.clock:
            clock_box = pygame.Rect(0, box.y, round(box.width * 0.09), box.height)
            clock_box.right = right
            self.put(
                surface,
                clock,
                clock_box,
                colors.header_text,
                align="right",
                height=box.height * 0.5,
            )
            right = clock_box.left - round(box.width * 0.012)
        self.feed_mark(surface, status, right, box)

    def feed_mark(
        self, surface: pygame.Surface, status: FeedStatus, right: int, box: pygame.Rect
    ) -> None:
        """A pill with the feed's state: green live, gold demo, red offline."""
        colors = self.colors
        fill = {
            FeedStatus.LIVE: colors.ok,
            FeedStatus.DEMO: colors.accent,
            FeedStatus.CONNECTING: colors.warning,
            FeedStatus.MISSING_GAMES: colors.warning,
        }.get(status, colors.error)
        text = self.words(STATUS_LABEL[status], "  ")
        height = round(box.height * 0.46)
        label = self.text.fit(
            text, height * 0.8, box.width * 0.2, colors.header_background, bold=True
        )
        pill = pygame.Rect(0, 0, label.get_width() + height, height)
        pill.midright = (right, box.centery)
        pygame.draw.rect(surface, fill, pill, border_radius=height // 2)
        surface.blit(label, label.get_rect(center=pill.center))

    # -- counters ---------------------------------------------------------------------
    def counters(self, surface: pygame.Surface, table: TableState) -> None:
        body = self.layout.panels["counters"].body
        counts = table.roads.counts
        colors = self.colors
        gap = self.layout.px(0.006)
        tiles_h = round(body.height * 0.46)
        tile_w = (body.width - 2 * gap) / 3
        sides = (
            ("banker", counts.banker, "banker", colors.banker),
            ("player", counts.player, "player", colors.player),
            ("tie", counts.tie, "tie", colors.tie),
        )
        for i, (key, count, percent_key, color) in enumerate(sides):
            tile = pygame.Rect(
                round(body.x + i * (tile_w + gap)), body.y + gap, round(tile_w), tiles_h
            )
            pygame.draw.rect(surface, color, tile, border_radius=self.layout.radius)
            name_box = pygame.Rect(tile.x, tile.y, tile.width, round(tile.height * 0.3))
            self.put(
                surface,
                self.words(key),
                name_box.inflate(-gap * 2, -gap),
                colors.bead_text,
                bold=True,
                align="center",
            )
            count_box = pygame.Rect(tile.x, name_box.bottom, tile.width, round(tile.height * 0.44))
            self.put(surface, str(count), count_box, colors.bead_text, bold=True, align="center")
            pct_box = pygame.Rect(
                tile.x, count_box.bottom, tile.width, tile.bottom - count_box.bottom
            )
            pct = f"{counts.percent(percent_key):.1f}%"
            self.put(surface, pct, pct_box.inflate(0, -gap), colors.bead_text, align="center")
        streaks = table.roads.streaks
        rows: list[tuple[str, str, RGB]] = [
            (self.words("banker_pair"), str(counts.banker_pairs), colors.banker),
            (self.words("player_pair"), str(counts.player_pairs), colors.player),
            (self.words("natural"), str(counts.naturals), colors.accent),
            (self.words("games"), str(counts.games), colors.text),
        ]
        for name in table.variant.counters:
            rows.append((self.words(name), str(getattr(counts, name)), colors.accent))
        letters = self.theme.roads.letters
        side = streaks.current_side
        current = "–"
        if side is not None:
            letter = letters["banker" if side is Winner.BANKER else "player"]
            current = f"{letter} × {streaks.current_length}"
        longest = (
            f"{letters['banker']} {streaks.longest_banker} · {letters['player']} "
            f"{streaks.longest_player}"
        )
        rows.append((self.words("streak"), current, colors.text))
        rows.append((self.words("longest"), longest, colors.text))
        area = pygame.Rect(body.x, body.y + tiles_h + 2 * gap, body.width, 0)
        area.height = body.bottom - area.y
        per_col = (len(rows) + 1) // 2
        row_h = area.height / per_col
        col_w = (area.width - 2 * gap) / 2
        size = self.text.size_for_height(row_h * 0.6)
        widest = max(
            self.text.font(size).size(label)[0] + self.text.font(size, bold=True).size(value)[0]
            for label, value, _ in rows
        )
        room = col_w - 2 * gap
        if widest > room:
            size = max(6, int(size * room / widest))
        for index, (label, value, color) in enumerate(rows):
            col, row = divmod(index, per_col)
            cell = pygame.Rect(
                round(area.x + col * (col_w + 2 * gap)),
                round(area.y + row * row_h),
                round(col_w),
                round(row_h),
            )
            shown = self.text.render(label, size, colors.muted)
            surface.blit(shown, shown.get_rect(midleft=cell.midleft))
            shown = self.text.render(value, size, color, bold=True)
            surface.blit(shown, shown.get_rect(midright=cell.midright))

    # -- ask road -----------------------------------------------------------------------
    def predictions(self, surface: pygame.Surface, roads: Roads) -> None:
        body = self.layout.panels["predictions"].body
        colors = self.colors
        row_h = body.height / 2
        for i, (winner, key) in enumerate(((Winner.BANKER, "banker"), (Winner.PLAYER, "player"))):
            row = pygame.Rect(body.x, round(body.y + i * row_h), body.width, round(row_h))
            size = round(min(row.height * 0.78, body.width / 7))
            chip = pygame.Rect(row.x, 0, size, size)
            chip.centery = row.centery
            shape = (
                self.theme.symbols.banker if winner is Winner.BANKER else self.theme.symbols.player
            )
            color = colors.banker if winner is Winner.BANKER else colors.player
            surface.blit(self.roads.sprites.disc(chip.size, color, shape), chip)
            letter = self.theme.roads.letters[key]
            self.put(
                surface,
                letter,
                chip.inflate(-size // 4, -size // 4),
                colors.bead_text,
                bold=True,
                align="center",
            )
            label = pygame.Rect(chip.right + size // 3, row.y, round(body.width * 0.3), row.height)
            self.put(surface, self.words(key), label, colors.text, height=row.height * 0.5)
            predicted = roads.predictions.get(winner, {})
            slot = size * 1.15
            for k, road in enumerate(("big_eye_boy", "small_road", "cockroach_pig"), start=1):
                cell = pygame.Rect(0, 0, size, size)
                cell.centery = row.centery
                cell.right = round(body.right - (3 - k) * slot)
                pygame.draw.rect(
                    surface,
                    colors.grid,
                    cell,
                    self.layout.line,
                    border_radius=self.layout.radius // 2,
                )
                entry: Color | None = predicted.get(road)
                if entry is None:
                    dash = cell.inflate(-round(size * 0.6), -round(size * 0.92))
                    pygame.draw.rect(surface, colors.muted, dash)
                    continue
                sprite = self.roads.derived(k, entry, cell.size)
                surface.blit(sprite, sprite.get_rect(center=cell.center))

    # -- last hand ----------------------------------------------------------------------
    def last_coup(self, surface: pygame.Surface, table: TableState) -> None:
        game = table.last_game
        self.title(surface, "last_coup", f"  #{game.number}" if game else "")
        body = self.layout.panels["last_coup"].body
        if game is None:
            self.put(
                surface,
                self.words("waiting"),
                body.inflate(-body.width // 10, -body.height // 2),
                self.colors.muted,
                align="center",
            )
            return
        coup = game.coup
        half = body.width // 2
        for i, (key, cards, total, side) in enumerate(
            (
                ("player", coup.player, coup.player_total, Winner.PLAYER),
                ("banker", coup.banker, coup.banker_total, Winner.BANKER),
            )
        ):
            area = pygame.Rect(body.x + i * half, body.y, half, body.height)
            self.hand(
                surface, area.inflate(-self.layout.px(0.008), 0), key, cards, total, coup, side
            )
        if not coup.has_cards:
            side_key = {Winner.BANKER: "banker", Winner.PLAYER: "player", Winner.TIE: "tie"}
            fill = {
                Winner.BANKER: self.colors.banker,
                Winner.PLAYER: self.colors.player,
                Winner.TIE: self.colors.tie,
            }[coup.winner]
            below = pygame.Rect(body.x, body.y + round(body.height * 0.36), body.width, 0)
            below.height = body.bottom - below.y
            self.put(
                surface,
                self.words(side_key[coup.winner]),
                below.inflate(-body.width // 4, -below.height // 4),
                fill,
                bold=True,
                align="center",
            )

    def hand(
        self,
        surface: pygame.Surface,
        area: pygame.Rect,
        key: str,
        cards: tuple[Card, ...],
        total: int | None,
        coup: Coup,
        side: Winner,
    ) -> None:
        colors = self.colors
        color = colors.player if side is Winner.PLAYER else colors.banker
        won = coup.winner is side
        head = pygame.Rect(area.x, area.y, area.width, round(area.height * 0.3))
        if won or coup.winner is Winner.TIE:
            fill = color if won else colors.tie
            pygame.draw.rect(surface, fill, head, border_radius=self.layout.radius)
            text_color = colors.bead_text
        else:
            pygame.draw.rect(
                surface, color, head, self.layout.line * 2, border_radius=self.layout.radius
            )
            text_color = color
        inner = head.inflate(-head.height // 2, -round(head.height * 0.3))
        self.put(surface, self.words(key), inner, text_color, bold=True)
        self.put(
            surface,
            "–" if total is None else str(total),
            inner,
            text_color,
            bold=True,
            align="right",
        )
        table_area = pygame.Rect(area.x, head.bottom, area.width, area.bottom - head.bottom)
        table_area = table_area.inflate(0, -round(table_area.height * 0.12))
        if not cards:
            return
        card_h = table_area.height
        card_w = round(card_h * 0.7)
        step = min(
            card_w + card_h * 0.08, (area.width - card_h) / 2 if len(cards) == 3 else card_w * 1.1
        )
        x = area.x + max(
            0, round((area.width - (step * 2 + (card_h if len(cards) == 3 else card_w))) / 2)
        )
        for n, card in enumerate(cards):
            face = self.card(card, (card_w, card_h))
            if n == 2:
                face = pygame.transform.rotate(face, 90)
                surface.blit(face, face.get_rect(midleft=(round(x + 2 * step), table_area.centery)))
            else:
                surface.blit(face, (round(x + n * step), table_area.y))

    def card(self, card: Card, size: tuple[int, int]) -> pygame.Surface:
        """A drawn card: white face, rank and suit in the corner, a large suit pip."""
        key = ("card", size, str(card))
        found = self.roads.sprites.get(key)
        if found is not None:
            return found
        colors = self.colors
        face = pygame.Surface(size, pygame.SRCALPHA)
        radius = max(2, size[0] // 9)
        pygame.draw.rect(face, colors.card_face, face.get_rect(), border_radius=radius)
        pygame.draw.rect(
            face, colors.card_edge, face.get_rect(), max(1, size[0] // 40), border_radius=radius
        )
        ink = colors.card_red if card.suit in ("H", "D") else colors.card_black
        rank = RANK_TEXT.get(card.rank, card.rank)
        corner = pygame.Rect(size[0] * 0.08, size[1] * 0.04, size[0] * 0.84, size[1] * 0.42)
        self.put(face, rank, corner, ink, bold=True)
        if card.suit:
            pip = pygame.Rect(size[0] * 0.15, size[1] * 0.46, size[0] * 0.7, size[1] * 0.5)
            self.put(face, SUIT_GLYPHS[card.suit], pip, ink, align="center")
        return self.roads.sprites.put(key, face)

    # -- limits and pay table ---------------------------------------------------------
    def limits(self, surface: pygame.Surface, limits: Limits) -> None:
        self.title(surface, "limits", f"  ({limits.currency})")
        body = self.layout.panels["limits"].body
        colors = self.colors
        bets = list(limits.bets) + [b for b in limits.pays if b not in limits.bets]
        table = [("", f"{self.words('minimum')} – {self.words('maximum')}", self.words("pays"))]
        for bet in bets:
            low, high = limits.bets.get(bet, (None, None))
            span = "–" if low is None else f"{low:,} – {high:,}"
            table.append((self._bet_name(bet), span, limits.pays.get(bet, "–")))
        row_h = body.height / max(len(table), 4)
        line_h = min(row_h * 0.6, self.layout.unit * 0.03)
        edges = (0.0, 0.42, 0.78, 1.0)
        inset = self.layout.px(0.008)
        sizes = [
            self.uniform_size(
                [row[c] for row in table[1:]],
                line_h,
                (edges[c + 1] - edges[c]) * body.width - 2 * inset,
                bold=c == 0,
            )
            for c in range(3)
        ]
        size = min(sizes)
        head_size = self.uniform_size(list(table[0]), line_h * 0.8, body.width * 0.34)
        for r, texts in enumerate(table):
            line = pygame.Rect(body.x, round(body.y + r * row_h), body.width, round(row_h))
            if r % 2 == 0 and r:
                pygame.draw.rect(
                    surface, colors.background, line, border_radius=self.layout.radius // 2
                )
            for c, text in enumerate(texts):
                left = round(body.x + edges[c] * body.width) + inset
                right = round(body.x + edges[c + 1] * body.width) - inset
                if r == 0:
                    shown = self.text.render(text, min(size, head_size), colors.muted)
                else:
                    shown = self.text.render(text, size, colors.text, bold=c == 0)
                if c == 0:
                    where = shown.get_rect(midleft=(left, line.centery))
                else:
                    where = shown.get_rect(midright=(right, line.centery))
                surface.blit(shown, where)

    def _bet_name(self, bet: str) -> str:
        try:
            return self.words(bet)
        except AttributeError:
            return bet.replace("_", " ").title()

    # -- footer and shuffle -----------------------------------------------------------
    def footer(self, surface: pygame.Surface) -> None:
        if not self.theme.style.disclaimer or "footer" not in self.layout.panels:
            return
        box = self.layout.panels["footer"].body
        height = min(box.height * 0.62, self.layout.unit * 0.022)
        self.put(
            surface,
            self.words("disclaimer", "   "),
            box.inflate(-box.width // 20, 0),
            self.colors.muted,
            align="center",
            height=height,
        )

    def notice(self, surface: pygame.Surface, area: pygame.Rect, text: str) -> None:
        """A quiet message on a panel-coloured plate, centred in ``area`` (empty roads)."""
        height = min(area.height * 0.14, self.layout.unit * 0.045)
        shown = self.text.fit(text, height, area.width * 0.8, self.colors.muted)
        plate = shown.get_rect(center=area.center).inflate(round(height * 1.2), round(height * 0.4))
        pygame.draw.rect(surface, self.colors.panel, plate, border_radius=self.layout.radius)
        surface.blit(shown, shown.get_rect(center=area.center))

    def shuffle_banner(self, surface: pygame.Surface) -> pygame.Rect:
        """A calm banner over the roads while the next shoe is prepared."""
        panel = self.layout.panels.get("big_road") or next(iter(self.layout.panels.values()))
        colors = self.colors
        banner = panel.rect.inflate(-round(panel.rect.width * 0.3), -round(panel.rect.height * 0.4))
        pygame.draw.rect(
            surface, colors.header_background, banner, border_radius=self.layout.radius * 2
        )
        pygame.draw.rect(
            surface,
            colors.accent,
            banner,
            self.layout.line * 2,
            border_radius=self.layout.radius * 2,
        )
        top = banner.inflate(-banner.width // 8, -banner.height // 2)
        top.y = banner.y + round(banner.height * 0.14)
        self.put(
            surface,
            self.words("shuffling", "  ·  "),
            top,
            colors.header_text,
            bold=True,
            align="center",
        )
        note = pygame.Rect(
            top.x, top.bottom + round(banner.height * 0.06), top.width, round(banner.height * 0.2)
        )
        self.put(surface, self.words("shuffle_note", "  ·  "), note, colors.accent, align="center")
        return banner
