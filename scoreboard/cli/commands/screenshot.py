"""``scoreboard screenshot -o FILE.png``: the kiosk's frame for a state, as a PNG.

Works headless (it sets ``SDL_VIDEODRIVER=dummy`` when no driver is chosen):
the state comes from ``--results`` (the ``scoreboard roads`` syntax) or from a
simulated shoe (``--seed S --coups N``, crossing into new shoes when N is large,
showing the current one).  ``--fault PANEL`` and ``--journal-failing`` show what
the kiosk shows when a panel cannot be drawn or the journal cannot write;
``--dealing N`` a hand being dealt (face down), ``--shoe-health`` the shoe's
staff mark.  The
table's limits are the demo's (``--variant``, ``--currency``, ``--limits``) or
unknown (``--no-limits``, as before a controller says them); ``--rotate`` writes
the picture a monitor mounted on its side is sent.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from scoreboard.cli import UsageError
from scoreboard.cli.options import (
    DisplayRequest,
    display_from_args,
    spec_limits,
)
from scoreboard.game.events import CardDealt, CoupReceived, NewShoe, ShoeHealth
from scoreboard.game.rules import Game
from scoreboard.game.seats import DEAL_ORDER, Seat, Side
from scoreboard.game.shoe import Dealer, opening
from scoreboard.game.variants import VARIANTS
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState, apply_event


def failing_panel(_surface: object, _body: object, _table: object) -> None:
    from scoreboard.screen.board.guard import SimulatedFault

    raise SimulatedFault("shown as failed by scoreboard screenshot --fault")


def results_games(text: str) -> list[Game]:
    """Games from RESULTS text, read by the one results notation of core."""
    from scoreboard.game.notation import ResultsSyntaxError, result_games

    try:
        return result_games(text)
    except ResultsSyntaxError as error:
        raise UsageError(f"--results: {error}") from None


def dealt_table(
    seed: int, coups: int, decks: int = 8, table: TableState | None = None
) -> TableState:
    """A table after ``coups`` coups of a seeded simulated shoe (the current shoe shown).

    Only shuffles and coups are applied: the picture is of the hand just dealt,
    without the cut card's mark or the shuffle screen (``--cut-card`` and
    ``--shuffling`` add those).
    """
    table = table or TableState(table_id="T1")
    if coups <= 0:
        # The shoe id does not depend on the decks, so the default Dealer is
        # used: an empty table never rejected --decks, and still does not.
        apply_event(table, next(iter(Dealer(seed=seed))))
        return table
    for event in opening(Dealer(decks=decks, seed=seed), coups):
        apply_event(table, event)
    return table


def whole_shoe_table(seed: int, decks: int = 8, table: TableState | None = None) -> TableState:
    """A table with the first shoe of ``seed`` dealt to its end: every coup before the shuffle."""
    table = table or TableState(table_id="T1")
    shoes = 0
    for event in Dealer(decks=decks, seed=seed):
        if isinstance(event, NewShoe):
            shoes += 1
            if shoes == 2:
                break
        if isinstance(event, NewShoe | CoupReceived):
            apply_event(table, event)
    return table


def shoe_state(table: TableState, dealing: int | None, conditions: list[str]) -> None:
    """The card-reading shoe's part: the next hand's first ``dealing`` cards, the conditions."""
    for condition in conditions:
        apply_event(table, ShoeHealth(condition, "raised"))
    seats = (*DEAL_ORDER, Seat(Side.PLAYER, 3), Seat(Side.BANKER, 3))
    if dealing and table.shoe_id is not None:
        for seat in seats[:dealing]:
            apply_event(table, CardDealt(table.shoe_id, table.last_number + 1, seat))


def build_table(args: argparse.Namespace) -> TableState:
    variant = VARIANTS[args.variant]
    if args.no_limits and args.side_bets is not None:
        raise UsageError("--side-bets: the side bets are among the limits, which --no-limits drops")
    limits = None if args.no_limits else spec_limits(args.limits, args)
    table = TableState(table_id="T1", table_name=args.table_name, variant=variant, limits=limits)
    dealt = args.coups or args.whole_shoe
    if args.results is not None:
        if dealt:
            raise UsageError("--coups and --whole-shoe deal a simulated shoe: not with --results")
        table.new_shoe("screenshot")
        for game in results_games(args.results):
            table.add_game(game)
        return table
    if args.seed is None and not dealt:
        table.new_shoe("screenshot")
        return table
    seed = Dealer(seed=args.seed).seed
    if args.seed is None:
        print(f"seed {seed} (--seed {seed} draws this board again)")
    try:
        if args.whole_shoe:
            return whole_shoe_table(seed, args.decks, table)
        dealt_table(seed, args.coups, args.decks, table)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if table.shoe_number > 1:
        print(
            f"--coups {args.coups}: shoe {table.shoe_number} is shown, at game {len(table.games)}"
            " (the earlier shoes ended at their cut card; --whole-shoe shows one to its end)"
        )
    return table


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    display = display_from_args(args)
    theme, screen = display.theme, display.size or (1920, 1080)
    if args.lobby is not None:
        return lobby_shot(args, display)
    table = build_table(args)
    if args.cut_card:
        table.mark_cut_card()
    if args.shuffling:
        table.set_shuffling(True)
    shoe_state(table, args.dealing, args.shoe_health)
    import pygame

    from scoreboard.kiosk.monitor import logical_size
    from scoreboard.kiosk.theme_watch import use_theme_rows
    from scoreboard.screen.board.renderer import Renderer
    from scoreboard.screen.board.text import shared_cache

    use_theme_rows(table, theme)  # the theme owns the roads' rows, as on the kiosk
    pygame.display.init()
    pygame.font.init()
    try:
        drawers = dict.fromkeys(args.fault, failing_panel)
        # One frame, then the process ends: nothing made ahead, no font opened per size.
        with shared_cache(theme.fonts, theme.style.text_scale).one_font_per_file():
            renderer = Renderer(
                theme,
                logical_size(screen, display.rotate),
                drawers=drawers,
                motion=display.motion,
                good_roads=display.good_roads,
                ahead=False,
            )
            frame = renderer.render(
                table,
                FeedStatus(args.status),
                clock=args.clock or time.strftime("%H:%M"),
                journal_failing=args.journal_failing,
            )
        save_frame(frame, screen, display.rotate, args.output)
    finally:
        pygame.display.quit()
    return 0


def lobby_shot(args: argparse.Namespace, display: DisplayRequest) -> int:
    """The lobby's first page over a simulated floor, as ``scoreboard lobby`` draws it."""
    from scoreboard.lobby import arrange, paged
    from scoreboard.lobby.sample import sample_floor
    from scoreboard.lobby.settings import PER_PAGE_RANGE

    now = time.time()
    views = arrange(sample_floor(args.lobby, now=now).views(now, 300.0))
    pages = paged(views, max(PER_PAGE_RANGE[0], min(args.lobby, PER_PAGE_RANGE[1])))
    screen = display.size or (1920, 1080)
    import pygame

    from scoreboard.kiosk.monitor import logical_size
    from scoreboard.screen.wall.renderer import LobbyRenderer

    pygame.display.init()
    pygame.font.init()
    try:
        renderer = LobbyRenderer(display.theme, logical_size(screen, display.rotate))
        tiles: list = pages[0]  # TileViews, drawn as the lobby draws them
        clock = args.clock or time.strftime("%H:%M")
        renderer.draw(tiles, page=0, pages=len(pages), connected=True, clock=clock)
        frame = renderer.frame
        save_frame(frame, screen, display.rotate, args.output)
    finally:
        pygame.display.quit()
    return 0


def save_frame(frame: object, screen: tuple[int, int], rotate: int, output: Path) -> None:
    """Write ``frame`` as the screen shows it: turned for a monitor mounted on its side."""
    import pygame

    from scoreboard.kiosk.monitor import copy_rotated

    assert isinstance(frame, pygame.Surface)
    if rotate:
        shown = pygame.Surface(screen)
        copy_rotated(shown, frame, frame.get_rect(), rotate)
        frame = shown
    output.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(frame, str(output))
