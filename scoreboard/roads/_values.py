"""Frozen values made fast, for the road engine's hot path.

A frozen dataclass's ``__init__`` sets each field with a Python-level
``object.__setattr__(self, name, value)``; for :class:`~scoreboard.roads.stats.Counts`
(20 fields), made after every coup, that is most of the cost of reading the
counters.  :func:`maker` returns a function that makes the same value with its
slots filled in one loop run by the interpreter's C code (the slot descriptors
called by ``map``), so the value is as frozen, equal and hashable as one built by
its class.  Only for slotted dataclasses without ``__post_init__``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Point:
...     x: int
...     y: int
>>> make = maker(Point)
>>> make((1, 2)) == Point(1, 2), make((1, 2))
(True, Point(x=1, y=2))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import fields
from itertools import repeat
from operator import call
from typing import Any, TypeVar

__all__ = ["maker"]

T = TypeVar("T")  # pragma: no mutate (a name for the type checker only)


def maker(cls: type[T]) -> Callable[[Sequence[Any]], T]:
    """A function making a ``cls`` from all its field values, in field order.

    A wrong count of values is a ``TypeError``, as it is for the class itself:
    >>> from scoreboard.roads.stats import Streaks
    >>> maker(Streaks)((None, 0))
    Traceback (most recent call last):
    ...
    TypeError: Streaks takes 4 values, got 2
    """
    names = [field.name for field in fields(cls)]  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or "__dict__" in dir(cls):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass without __post_init__")
    setters = tuple(getattr(cls, name).__set__ for name in names)
    count, new = len(setters), object.__new__
    consume = deque[object](maxlen=0).extend  # pragma: no mutate (any bound: the results are None)

    def make(values: Sequence[Any]) -> T:
        if len(values) != count:
            raise TypeError(f"{cls.__name__} takes {count} values, got {len(values)}")
        made = new(cls)
        consume(map(call, setters, repeat(made), values))
        return made

    return make
