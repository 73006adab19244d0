"""YAML files for people: errors that say the file, the line and the column.

Themes and the display config are written by hand; a syntax error must read
like ``theme.yaml: line 4, column 6: YAML syntax error: ...`` on one line, not
PyYAML's multi-line report.
"""

from __future__ import annotations

from typing import Any

import yaml


class YamlSyntaxError(ValueError):
    """A file that is not valid YAML; the message is one line naming where."""


def parse_yaml(text: str, source: str) -> Any:
    """``yaml.safe_load`` of ``text``, with a one-line error naming ``source``.

    >>> parse_yaml("a: [1", "x.yaml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoreboard.yamlfile.YamlSyntaxError: x.yaml: line 1, column 6: YAML syntax error: ...
    """
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "YAML"
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise YamlSyntaxError(f"{source}: {where}: YAML syntax error: {problem}") from None
