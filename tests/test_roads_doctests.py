"""The examples in the road modules' docstrings are part of the specification: run them."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "scoreboard.roads.engine",
    "scoreboard.roads._layout",
    "scoreboard.roads.stats",
    "scoreboard.cli.commands.roads",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
