"""The wheel ships every package: pyproject's package list is written by hand."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_of_the_source_tree_is_in_the_wheel() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "scoreboard").rglob("__init__.py")
    }
    assert found, "no package found: the test looks in the wrong place"
    assert found - listed == set(), "packages missing from pyproject's [tool.setuptools] packages"
