"""YAML files for people: errors that say the file, the line and the column.

Themes and the display config are written by hand; a syntax error must read
like ``theme.yaml: line 4, column 6: YAML syntax error: ...`` on one line, not
PyYAML's multi-line report.

They are also read by an unattended kiosk, so a file can never make it hang or
run out of memory: aliases (``*name``, the "billion laughs" bomb) are refused
where they stand, a file over :data:`MAX_BYTES` is refused unread, deep nesting
and values no Python type holds are one-line errors too, and a file that is not
UTF-8 says which byte is wrong.
"""

from __future__ import annotations

import os
import re
from typing import Any

import yaml

from scoreboard.regular_file import read_regular

MAX_BYTES = 1_000_000
"""The largest theme or config file read: a real one is a few kilobytes."""


class YamlSyntaxError(ValueError):
    """A file that is not valid YAML; the message is one line naming where."""


def excerpt(value: object, limit: int = 40) -> str:
    """``repr(value)``, cut to ``limit`` characters and "…" so an error stays one short line.

    >>> excerpt("x" * 100, limit=10)
    "'xxxxxxxx…"
    >>> excerpt(0.5)
    '0.5'
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _NoAliasLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses an alias instead of expanding it."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise YamlSyntaxError(f"line {mark.line + 1}: YAML aliases are not allowed")
        return super().compose_node(parent, index)


_FastLoader = getattr(yaml, "CSafeLoader", None)
"""libyaml's parser with PyYAML's safe constructor (absent when PyYAML was built without it)."""

_UNUSUAL = re.compile(
    "[^\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
    "|!|[|>][-+0-9]*#"
)
"""Where libyaml and PyYAML's own reader part ways: tabs, control and format characters, a
byte-order mark, tags, a block scalar's header running into a comment.  A text with any of
them is read by PyYAML alone (tests/test_yamlfile.py compares the two readers)."""

_SHALLOW = 64
"""Nesting the fast reader takes; deeper (no hand-written file is) goes to the careful one."""


class _Unsure(Exception):
    """The fast reader cannot vouch for this text: the careful one reads it."""


def read_fast(text: str) -> Any:
    """``text`` read by libyaml, when it reads it exactly as :func:`parse_yaml`'s careful reader.

    The careful reader (PyYAML in Python) takes ~25 ms for a theme; libyaml ~2 ms, on
    every kiosk start and theme reload.  Anything unusual (see :data:`_UNUSUAL`), an
    alias, deep nesting or any error raises :class:`_Unsure`: the careful reader then
    reads the text and words the error as it always has.
    """
    if _FastLoader is None or _UNUSUAL.search(text):
        raise _Unsure
    loader = _FastLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if not _plain_tree(node):
            raise _Unsure
        return loader.construct_document(node)
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError, TypeError) as error:
        raise _Unsure from error
    finally:
        loader.dispose()


def _plain_tree(root: yaml.Node) -> bool:
    """No node met twice (libyaml shares an anchored node where an alias names it) and
    no deeper than :data:`_SHALLOW`; walked without recursion."""
    seen: set[int] = set()
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen or depth > _SHALLOW:
            return False
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend((part, depth + 1) for pair in node.value for part in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, depth + 1) for item in node.value)
    return True


def parse_yaml(text: str, source: str) -> Any:
    """``yaml.safe_load`` of ``text`` without aliases, with a one-line error naming ``source``.

    >>> parse_yaml("a: [1", "x.yaml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoreboard.settings.yamlfile.YamlSyntaxError: x.yaml: line 1, column 6: YAML syntax error: ...
    >>> parse_yaml("a: &x [1]\\nb: *x\\n", "x.yaml")
    Traceback (most recent call last):
    ...
    scoreboard.settings.yamlfile.YamlSyntaxError: x.yaml: line 2: YAML aliases are not allowed
    """
    if len(text) > MAX_BYTES:
        raise YamlSyntaxError(f"{source}: too large ({len(text)} characters, at most {MAX_BYTES})")
    try:
        return read_fast(text)
    except _Unsure:
        pass
    try:
        return yaml.load(text, Loader=_NoAliasLoader)
    except YamlSyntaxError as error:
        raise YamlSyntaxError(f"{source}: {error}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "YAML"
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise YamlSyntaxError(f"{source}: {where}: YAML syntax error: {problem}") from None
    except RecursionError:
        raise YamlSyntaxError(f"{source}: YAML nested too deeply") from None
    except (ValueError, OverflowError, TypeError) as error:  # e.g. a 5,000-digit number
        problem = excerpt(str(error).splitlines()[0] if str(error) else type(error).__name__, 80)
        raise YamlSyntaxError(f"{source}: YAML value error: {problem}") from None


def read_text(path: str | os.PathLike[str], source: str | None = None) -> str:
    """The UTF-8 text of a hand-written file, at most :data:`MAX_BYTES`, or a one-line error.

    Raises :class:`OSError` when the file cannot be read at all (the caller
    names the file; a FIFO or a device is refused unopened, see
    :mod:`scoreboard.regular_file`), :class:`YamlSyntaxError` when it is too
    large or not UTF-8.
    """
    name = source or str(path)
    data = read_regular(path, MAX_BYTES)
    if len(data) > MAX_BYTES:
        raise YamlSyntaxError(f"{name}: too large (over {MAX_BYTES} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise YamlSyntaxError(
            f"{name}: not UTF-8 text (byte 0x{byte:02x} at offset {error.start})"
        ) from None


def load_yaml(path: str | os.PathLike[str], source: str | None = None) -> Any:
    """:func:`read_text` then :func:`parse_yaml`: the one way to read a theme or a config."""
    name = source or str(path)
    return parse_yaml(read_text(path, name), name)
