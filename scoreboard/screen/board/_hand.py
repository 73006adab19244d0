"""The last hand: both hands as drawn cards, totals and the winner.

Functions of a :class:`~scoreboard.screen.board.panels.PanelPainter`; card faces are
cached with the road sprites, keyed by size and card.  The cards can be shown
one by one in the order the dealer draws them (``shown``), so the board can
deal the hand again as it arrives; the totals always add up the cards on view.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pygame

from scoreboard.game.cards import RANKS, SUITS, Card, hand_total
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Coup, Game, Winner
from scoreboard.game.seats import Side
from scoreboard.screen.board._card_back import card_back
from scoreboard.screen.board._side_bet_mark import draw_side_bet_marks, side_bet_marks
from scoreboard.screen.board._small_panels import FrameInput, SmallPanel, Timing
from scoreboard.screen.board.canvas import draw_rect, mark_opaque, rounded_cross
from scoreboard.screen.board.marks import SIDE_KEY
from scoreboard.screen.board.panels import DrawnText, PanelPainter
from scoreboard.table.shoe_watch import Forming
from scoreboard.table.state import TableState

SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_TEXT = {"T": "10"}


def visible_cards(coup: Coup, shown: int | None) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The player's and the banker's cards among the first ``shown`` in deal order.

    Deal order is player, banker, player, banker, then the player's third card,
    then the banker's; None shows every card.

    >>> from scoreboard.game.cards import parse_cards
    >>> from scoreboard.game.rules import deal_coup
    >>> coup = deal_coup(parse_cards(["AS", "KH", "AD", "QC", "5S", "4C"]))  # both draw
    >>> [[str(c) for c in side] for side in visible_cards(coup, 3)]
    [['AS', 'AD'], ['KH']]
    >>> [len(side) for side in visible_cards(coup, 5)], [len(s) for s in visible_cards(coup, None)]
    ([3, 2], [3, 3])
    """
    if shown is None:
        return coup.player, coup.banker
    order = [("p", 0), ("b", 0), ("p", 1), ("b", 1)]
    order += [("p", 2)] * (len(coup.player) > 2) + [("b", 2)] * (len(coup.banker) > 2)
    taken = order[: max(0, shown)]
    player = tuple(coup.player[i] for side, i in taken if side == "p" and i < len(coup.player))
    banker = tuple(coup.banker[i] for side, i in taken if side == "b" and i < len(coup.banker))
    return player, banker


def draw_last_coup(
    p: PanelPainter,
    surface: pygame.Surface,
    table: TableState,
    shown: int | None = None,
    *,
    backs: bool = False,
) -> None:
    """The last hand of this table (see :func:`paint_last_coup`)."""
    paint_last_coup(p, surface, hand_shows(table, shown, backs=backs))


@dataclass(frozen=True, slots=True)
class HandShows:
    """Everything the last hand's panel draws besides the theme: its change key.

    The hand being dealt (``forming``) or the last game, the limits (the side
    bets it won), how many of its cards are on view and whether the rest lie
    face down.
    """

    forming: Forming | None
    game: Game | None
    limits: Limits
    shown: int | None
    backs: bool


def hand_shows(table: TableState, shown: int | None = None, *, backs: bool = False) -> HandShows:
    """What the last hand's panel shows for this table, ``shown`` cards on view."""
    forming = table.forming
    if forming is not None:  # the hand being dealt hides the last one
        return HandShows(forming, None, table.limits, None, False)
    return HandShows(None, table.last_game, table.limits, shown, backs)


def read_last_coup(_p: PanelPainter, given: FrameInput) -> HandShows:
    """The last hand's reading of one update: the table and how far motion dealt it."""
    return hand_shows(given.table, given.shown, backs=given.backs)


def paint_last_coup(p: PanelPainter, surface: pygame.Surface, shows: HandShows) -> None:
    """The last hand; ``shown`` is how many of its cards are on view in deal order (None: all).

    ``backs``: the hand was dealt face down before its coup, so the cards not yet
    on view lie face down where they will be turned over.

    A coup without cards (a results-only feed) shows its result instead of
    empty hands: the winner and, when the feed gave them, the totals.  While a
    hand is being dealt (``forming``) the panel shows it instead, face down.
    """
    shown, backs = shows.shown, shows.backs
    body = p.layout.panels["last_coup"].body
    if shows.forming is not None:  # a hand being dealt: its cards face down, whatever is known
        p.title(surface, "last_coup", f"  #{shows.forming.game}")
        draw_forming(p, surface, body, shows.forming)
        return
    game = shows.game
    p.title(surface, "last_coup", f"  #{game.number}" if game else "")
    if game is None:  # the big road says "Waiting for the first hand": said once
        return
    coup = game.coup
    if not coup.has_cards:
        draw_result(p, surface, body, coup)
        return
    player, banker = visible_cards(coup, shown)
    complete = shown is None or len(player) + len(banker) >= len(coup.player) + len(coup.banker)
    if complete:  # the side bets this hand won, once its last card is on view
        draw_side_bet_marks(p, surface, side_bet_marks(p, shows.limits, coup))
    hands = ((coup.player, player), (coup.banker, banker))
    winner = coup.winner if complete else None
    totals = [hand_total(visible) if visible else None for _, visible in hands]
    areas = draw_heads(p, surface, body, totals, winner)
    card_h = min(card_height(a, len(h[0])) for a, h in zip(areas, hands, strict=True))
    for area, (cards, visible) in zip(areas, hands, strict=True):
        draw_cards(p, surface, area, cards, visible, card_h)
        if backs:
            for where in card_places(area, len(cards), card_h)[len(visible) :]:
                draw_back(p, surface, where)


def draw_heads(
    p: PanelPainter,
    surface: pygame.Surface,
    body: pygame.Rect,
    totals: list[int | None],
    winner: Winner | None,
) -> list[pygame.Rect]:
    """Both hands' heads (Player's, Banker's) with their totals; where each hand's cards lie."""
    sides = (Winner.PLAYER, Winner.BANKER)
    for i, (inset, side) in enumerate(zip(hand_areas(p, body), sides, strict=True)):
        total = totals[i]
        p.part(
            surface,
            ("hand head", i, total, winner),
            functools.partial(draw_head, p, area=inset, side=side, total=total, winner=winner),
        )
    return card_areas(p, body)


def draw_forming(
    p: PanelPainter, surface: pygame.Surface, body: pygame.Rect, hand: Forming
) -> None:
    """The hand being dealt: a card back in each seat dealt, no total and no winner.

    Only seats are drawn: :class:`~scoreboard.table.shoe_watch.Forming` holds no
    face, so a squeezed hand cannot show here before its coup.  Each hand is laid
    out for two cards, or three once its third is dealt.
    """
    areas = draw_heads(p, surface, body, [None, None], None)
    dealt = [{seat.number for seat in hand.seats if seat.side is side} for side in Side]
    counts = [max(2, *numbers) if numbers else 2 for numbers in dealt]
    card_h = min(card_height(area, count) for area, count in zip(areas, counts, strict=True))
    for area, count, numbers in zip(areas, counts, dealt, strict=True):
        for n, where in enumerate(card_places(area, count, card_h)):
            if n + 1 in numbers:
                draw_back(p, surface, where)


def draw_back(p: PanelPainter, surface: pygame.Surface, where: pygame.Rect) -> None:
    """A card lying face down at ``where`` (upright, or sideways for a third card)."""
    surface.blit(card_back(p, where.size, corner_radius(min(where.size))), where)


def draw_head(
    p: PanelPainter,
    surface: pygame.Surface,
    area: pygame.Rect,
    side: Winner,
    total: int | None,
    winner: Winner | None,
) -> pygame.Rect:
    """A hand's name and total on a strip, filled for the winner (or both on a tie).

    The total is drawn first and keeps its size; the name takes the room left
    of it (its other languages go, then its end), so the two never run together.
    """
    colors = p.colors
    color = p.roads.side_color[side]
    floor = p.floor("number")
    head = head_rect(p, area)
    cap = max(floor, head.height * 0.5)
    if winner is side or winner is Winner.TIE:
        fill = color if winner is side else colors.tie
        draw_rect(surface, fill, head, border_radius=p.layout.radius)
        ink = colors.bead_text
    else:
        draw_rect(surface, color, head, p.layout.line * 2, border_radius=p.layout.radius)
        ink = color
    inner = head.inflate(-round(cap * 0.6), 0)
    number = p.put(
        surface,
        "–" if total is None else str(total),
        inner,
        ink,
        bold=True,
        align="right",
        cap=cap,
        role="number",
    )
    room = pygame.Rect(
        inner.x, inner.y, number.rect.left - inner.x - round(cap * 0.4), inner.height
    )
    names = p.names(SIDE_KEY[side])
    name = " ".join(dict.fromkeys(names))
    label_cap = max(p.floor("label"), min(cap * 0.62, head.height * 0.34))
    if p.text.width(name, p.text.size_for_cap(label_cap, bold=True), bold=True) > room.width:
        name = names[0]  # the other languages go first; put() cuts the rest
    if room.width > 0:
        p.put(surface, name, room, ink, bold=True, cap=label_cap, role="label")
    return head


CARD_RATIO = 0.7
"""A card's width over its height."""


def hand_areas(p: PanelPainter, body: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The player's and the banker's halves of the panel's ``body``, inset from each other."""
    half = body.width // 2
    halves = (pygame.Rect(body.x + i * half, body.y, half, body.height) for i in (0, 1))
    player, banker = (area.inflate(-p.layout.px(0.008), 0) for area in halves)
    return player, banker


def head_rect(p: PanelPainter, area: pygame.Rect) -> pygame.Rect:
    """The strip of a hand's name and total at the top of its ``area``."""
    tall = max(round(area.height * 0.24), round(p.floor("number") * 1.7))
    return pygame.Rect(area.x, area.y, area.width, tall)


def card_areas(p: PanelPainter, body: pygame.Rect) -> list[pygame.Rect]:
    """Where each hand's cards lie: its half below the head strip, inset."""
    areas = []
    for inset in hand_areas(p, body):
        head = head_rect(p, inset)
        below = pygame.Rect(inset.x, head.bottom, inset.width, inset.bottom - head.bottom)
        areas.append(below.inflate(-p.layout.px(0.01), -round(below.height * 0.1)))
    return areas


def warm_cards(p: PanelPainter) -> list[pygame.Surface]:
    """Draw every card face the last hand can show at this layout, before any coup needs one.

    A coup's cards are otherwise drawn the first time they are dealt, and SDL
    encodes a face's runs (:func:`run_length`) at its first blit onto a
    surface: in the first coups of a shoe most cards are new, which made the
    early coups the slow ones (a 1080p card's first blit ~120 us instead of
    ~45).  So each face is drawn now, and the renderer blits the returned
    surfaces, in order, once onto the frame the cards are blitted onto later
    (SDL keeps a face's encoding for one destination; its pixels there are
    covered by the first full frame).  Two heights exist (hands of two cards,
    or a third card in either), and the third card's turned face at the
    second, listed before its face (turning locks the face, which undoes its runs).
    """
    if "last_coup" not in p.layout.panels:
        return []
    areas = card_areas(p, p.layout.panels["last_coup"].body)
    two = min(card_height(area, 2) for area in areas)
    three = min(two, *(card_height(area, 3) for area in areas))
    cards = [Card(rank, suit) for rank in RANKS for suit in (*SUITS, None)]
    faces = []
    for height in dict.fromkeys((two, three)):
        for card in cards:
            face, _ = card_face(p, card, (round(height * CARD_RATIO), height))
            if height == three:
                faces.append(turned(p, card, face))
            faces.append(face)
    return faces


class WarmCards:
    """The faces :func:`warm_cards` drew at the build, blitted once onto each frame drawn on.

    Off the coup path: the first coups of a shoe drew most faces.  The blits wait
    for the frame's first full frame, since the frame may be the display's,
    handed over after the build.
    """

    def __init__(self, p: PanelPainter, wanted: bool) -> None:
        """``wanted``: the shipped last hand is drawn (a site's own drawer needs no faces)."""
        self.faces = warm_cards(p) if wanted else []
        self._onto: pygame.Surface | None = None

    def onto(self, frame: pygame.Surface) -> None:
        if self._onto is not frame:
            for face in self.faces:
                frame.blit(face, (0, 0))
            self._onto = frame


def card_height(area: pygame.Rect, count: int) -> int:
    """The card height for ``count`` cards in ``area`` (see :func:`draw_cards` for the step).

    As tall as the area, unless its width is the limit: then the cards overlap,
    down to a step that still shows each card's rank (the third card lies
    sideways, as dealt).
    """
    tall = area.height
    if count < 2:
        return min(tall, round(area.width / CARD_RATIO))
    spaced = 1.08 * CARD_RATIO  # a step with a small gap, per unit of card height
    tight = 0.74 * CARD_RATIO  # the rank ("10" too) still shows, clear of the next card
    last = 1.0 if count == 3 else CARD_RATIO  # the width of the last card
    steps = count - 1
    height = min(tall, area.width / (steps * spaced + last))
    if height < 0.75 * tall:  # side by side they would be small: let them overlap
        height = min(tall, area.width / (steps * tight + last))
    return int(height)


def draw_cards(
    p: PanelPainter,
    surface: pygame.Surface,
    area: pygame.Rect,
    cards: tuple[Card, ...],
    visible: tuple[Card, ...],
    card_h: int,
) -> None:
    """The hand's cards where the whole hand puts them; only the ``visible`` ones drawn.

    Places come from the whole hand, so a card appearing never moves the others.
    """
    if not cards:
        return
    card_w = round(card_h * CARD_RATIO)
    places = card_places(area, len(cards), card_h)
    for n, (card, where) in enumerate(zip(visible, places, strict=False)):
        face, rank = card_face(p, card, (card_w, card_h))
        if n == 2:
            face = turned(p, card, face)
            corner = pygame.Rect(
                where.x + rank.rect.y, where.y + card_w - rank.rect.right, rank.rect.h, rank.rect.w
            )
        else:
            corner = rank.rect.move(where.topleft)
        surface.blit(face, where)
        p.record(DrawnText(rank.text, corner, rank.size, rank.color, rank.bold, "label"))


def card_places(area: pygame.Rect, count: int, card_h: int) -> list[pygame.Rect]:
    """Where each of a hand's ``count`` cards lies in ``area``: centred, the third sideways."""
    card_w = round(card_h * CARD_RATIO)
    three = count == 3
    last = card_h if three else card_w
    step = min(card_h * 1.08 * CARD_RATIO, (area.width - last) / max(1, count - 1))
    width = step * (count - 1) + last
    x = area.x + max(0, round((area.width - width) / 2))
    top = area.centery - card_h // 2
    places = [pygame.Rect(round(x + n * step), top, card_w, card_h) for n in range(min(count, 2))]
    if three:
        sideways = pygame.Rect(0, 0, card_h, card_w)
        sideways.midleft = (round(x + 2 * step), area.centery)
        places.append(sideways)
    return places


def turned(p: PanelPainter, card: Card, face: pygame.Surface) -> pygame.Surface:
    """The third card's face turned sideways, kept like the face (the same object each frame)."""
    key = ("card turned", face.get_size(), str(card))
    found = p.roads.sprites.get(key)
    if found is not None:
        return found
    sideways = run_length(pygame.transform.rotate(face, 90))
    upright = face.get_size()
    return p.roads.sprites.put(key, mark_opaque(sideways, opaque_cross(upright[::-1], upright[0])))


def card_face(
    p: PanelPainter, card: Card, size: tuple[int, int]
) -> tuple[pygame.Surface, DrawnText]:
    """A drawn card (white face, rank and suit in the corner, a large suit pip) and its rank.

    The rank's rectangle is on the face; the caller moves it to the screen.
    """
    colors = p.colors
    ink = colors.card_red if card.suit in ("H", "D") else colors.card_black
    rank_text = RANK_TEXT.get(card.rank, card.rank)
    corner = pygame.Rect(size[0] * 0.08, size[1] * 0.04, size[0] * 0.84, size[1] * 0.42)
    rank_size = p.text.fit_size(rank_text, corner.height, corner.width, bold=True)
    glyphs = p.text.render(rank_text, rank_size, ink, bold=True)
    rank = DrawnText(rank_text, glyphs.get_rect(midleft=corner.midleft), rank_size, ink, True)
    key = ("card", size, str(card))
    found = p.roads.sprites.get(key)
    if found is not None:
        return found, rank
    face = pygame.Surface(size, pygame.SRCALPHA)
    radius = corner_radius(size[0])
    draw_rect(face, colors.card_face, face.get_rect(), border_radius=radius)
    draw_rect(face, colors.card_edge, face.get_rect(), max(1, size[0] // 40), border_radius=radius)
    face.blit(glyphs, rank.rect)
    if card.suit:
        pip = pygame.Rect(size[0] * 0.15, size[1] * 0.46, size[0] * 0.7, size[1] * 0.5)
        mark = p.text.fit(SUIT_GLYPHS[card.suit], pip.height, pip.width, ink)
        face.blit(mark, mark.get_rect(center=pip.center))
    face = mark_opaque(run_length(face), opaque_cross(size, size[0]))
    return p.roads.sprites.put(key, face), rank


def corner_radius(width: int) -> int:
    """The rounding of a card's corners, for a card ``width`` pixels wide (upright)."""
    return max(2, width // 9)


def opaque_cross(size: tuple[int, int], width: int) -> list[pygame.Rect]:
    """Where a card face of ``size`` (upright ``width``) is opaque: all but its round corners.

    >>> opaque_cross((90, 126), 90)
    [Rect(0, 11, 90, 104), Rect(11, 0, 68, 126)]
    """
    return rounded_cross(pygame.Rect((0, 0), size), corner_radius(width))


def run_length(face: pygame.Surface) -> pygame.Surface:
    """``face`` blitted by runs (SDL's RLE): its opaque runs copied, its clear corners skipped.

    A card's alpha is 0 or 255 only (its rounded rectangle is not smoothed and its
    ink lands on opaque white), so the run-length blit puts down exactly the
    pixels of a blended one, in about half the time (a 248x355 card at 1080p:
    51 -> 29 us, 500x710 at 4K: 206 -> 116 us).
    """
    face.set_alpha(255, pygame.RLEACCEL)
    return face


def draw_result(p: PanelPainter, surface: pygame.Surface, body: pygame.Rect, coup: Coup) -> None:
    """A results-only coup: "BANKER WINS" (or "TIE") on the winner's colour, and the totals."""
    colors = p.colors
    fill = p.roads.side_color[coup.winner]
    plate = body.inflate(-p.layout.px(0.01), -round(body.height * 0.12))
    draw_rect(surface, fill, plate, border_radius=p.layout.radius)
    if coup.winner is Winner.TIE:
        lines = p.names("tie_result")
    else:
        wins = p.names("wins")
        lines = tuple(
            f"{name.upper()} {word}"
            for name, word in zip(p.names(SIDE_KEY[coup.winner]), wins, strict=False)
        )
    lines = tuple(dict.fromkeys(lines))
    totals = coup.player_total is not None and coup.banker_total is not None
    rows = len(lines) + totals
    step = plate.height / rows
    cap = max(p.floor("label"), min(step * 0.4, 1.6 * p.floor("number")))
    for n, text in enumerate(lines):
        box = pygame.Rect(plate.x, round(plate.y + n * step), plate.width, round(step))
        p.put(
            surface,
            text,
            box.inflate(-p.layout.px(0.02), 0),
            colors.bead_text,
            bold=n == 0,
            align="center",
            cap=cap if n == 0 else max(p.floor("label"), cap * 0.7),
            role="label",
        )
    if totals:
        first, second = (
            (coup.banker_total, coup.player_total)
            if coup.winner is Winner.BANKER
            else (coup.player_total, coup.banker_total)
        )
        box = pygame.Rect(plate.x, round(plate.y + len(lines) * step), plate.width, round(step))
        p.put(
            surface,
            f"{first} – {second}",
            box,
            colors.bead_text,
            bold=True,
            align="center",
            cap=max(p.floor("number"), cap),
            role="number",
        )


LAST_HAND = SmallPanel("last_coup", read_last_coup, paint_last_coup, Timing.MOVING)
"""The last hand deals its cards again one by one as the coup arrives (motion)."""
