"""A dealing process's run tag (``shoe``, ``demo``), apart from :mod:`._shared`.

``shoe`` needs nothing else of what the commands share: kept with the table and
journal openers, the tag made every controller start import the display's journal
and table for one function.
"""

from __future__ import annotations

import random
import time

from scoreboard.game.shoe import run_tag


def this_run() -> str:
    """This process's :func:`~scoreboard.game.shoe.run_tag`: its shoe ids are its own.

    A controller or demo restarted with the same ``--seed`` deals the same cards
    under new shoe ids, so no board ignores its shoes as ones already finished.
    """
    return run_tag(int(time.time()), random.SystemRandom().randrange(1296))
