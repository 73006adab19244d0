"""scoreboard: a baccarat roadmap kiosk.

The pure core is three rooms: ``game`` (cards, tableau, shoe, events), ``roads``
and ``table`` (one table's state and its rules).  Around them: ``protocol``,
``journal``, ``shoes``, ``settings``, ``link``, ``controller``, ``keypad``,
``bridge``, ``feeds``, ``lobby``, ``screen``, ``kiosk``, ``service``, ``bench``
and ``cli``; docs/architecture.md says what each may import.  One module is
loose here: ``regular_file`` (only regular files are read), a leaf every room
that reads a file a person names uses.
"""

import os

__version__ = "0.1.0"

# pygame prints a greeting on import; JSON on stdout must stay clean.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
