"""What several commands do alike, in one place instead of imported from each other.

A table and its journal opened as ``run``, ``bridge`` and ``demo`` open them; a
kiosk's refusal when there is no display; the names of the odds' events (``odds``,
``simulate``).  A dealing process's run tag is in :mod:`._run_tag`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from scoreboard.cli import CommandError, UsageError
from scoreboard.game.rules import Winner
from scoreboard.game.variants import VARIANTS
from scoreboard.journal import Journal, JournalError
from scoreboard.settings.config import Config, JournalConfig
from scoreboard.table.state import TableState


@contextlib.contextmanager
def kiosk_or_refusal(hint: str = "") -> Iterator[None]:
    """Meanwhile, a kiosk with no display to show on ends the command with its message (exit 1)."""
    from scoreboard.kiosk.monitor import NoDisplayError

    try:
        yield
    except NoDisplayError as error:
        raise CommandError(f"{error}{hint}") from None


def table_from(config: Config) -> TableState:
    """An empty table as the config describes it (id, name, variant, limits, decks)."""
    return TableState(
        table_id=config.table_id,
        table_name=config.table_name,
        variant=VARIANTS[config.variant],
        limits=config.limits,
        decks=config.decks,
    )


def use_static_limits(table: TableState, config: Config) -> None:
    """The config's limits, unless the journal brought back a controller's (they win).

    A v2 controller's limits carry an origin, which the journal keeps; without one,
    the table shows the static limits until the controller's retained limits arrive.
    """
    if config.limits is not None and table.limits_origin is None:
        table.set_limits(config.limits)


def open_journal(
    state_dir: Path, table: TableState, retention: JournalConfig | None = None
) -> Journal:
    """The journal in ``state_dir``, replayed into ``table``; the caller closes it (``with``).

    ``retention`` is the config's ``journal:`` section (how many shoes are kept, and
    whether a shoe must be exported before it may be pruned).
    A state dir that is plainly not one (a file in its way) is a usage error.  A
    disk that cannot be written (read-only, full) is not: the board starts from
    what it could read and runs from memory, and ``journal.health`` says why.
    """
    retention = retention or JournalConfig()
    try:
        journal = Journal(
            state_dir, keep_shoes=retention.keep_shoes, require_export=retention.require_export
        )
    except JournalError as error:
        raise UsageError(str(error)) from None
    journal.replay(table)
    return journal


LABELS = {
    Winner.BANKER.value: "Banker wins",
    Winner.PLAYER.value: "Player wins",
    Winner.TIE.value: "Tie",
    "player_pair": "Player pair",
    "banker_pair": "Banker pair",
    "natural": "Natural (either hand)",
    "banker_six": "Banker wins with 6",
    "dragon7": "Dragon 7",
    "panda8": "Panda 8",
    "small_6": "Banker wins with 6, 2 cards",
    "big_6": "Banker wins with 6, 3 cards",
    "lucky_7_2": "Player wins with 7, 2 cards",
    "lucky_7_3": "Player wins with 7, 3 cards",
    **{
        f"super_lucky_7_{p}{b}": f"Player's 7 over Banker's 6, {p} + {b} cards"
        for p in (2, 3)
        for b in (2, 3)
    },
}
