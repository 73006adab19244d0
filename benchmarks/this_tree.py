"""This tree's measuring code (``scoreboard.bench``), whichever tree's ``scoreboard`` is imported.

A ``--compare`` run measures an older tree in that tree's own interpreter, so
``import scoreboard`` finds *its* package, which may have no ``bench`` (or an
older one).  The measuring code must still be this tree's, so both columns are
measured the same way: here the package ``scoreboard/bench`` of this checkout
is loaded under another name (its modules import each other relatively and
take the tree's ``Kiosk`` as an argument), and everything it imports from
``scoreboard`` is the measured tree's.  In this tree's own interpreter it is
simply ``scoreboard.bench``.

    frames = this_tree.bench("frames")
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent.parent / "scoreboard" / "bench"
ALIAS = "this_tree_bench"


def package_name() -> str:
    """``scoreboard.bench`` when the imported scoreboard is this tree's, else the alias (loaded)."""
    import scoreboard

    if Path(scoreboard.__file__).resolve().parent == PACKAGE.parent:
        return "scoreboard.bench"
    if ALIAS not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            ALIAS, PACKAGE / "__init__.py", submodule_search_locations=[str(PACKAGE)]
        )
        assert spec is not None and spec.loader is not None, PACKAGE
        module = importlib.util.module_from_spec(spec)
        sys.modules[ALIAS] = module
        spec.loader.exec_module(module)
    return ALIAS


def bench(module: str) -> ModuleType:
    """This tree's ``scoreboard.bench.<module>``."""
    return importlib.import_module(f"{package_name()}.{module}")
