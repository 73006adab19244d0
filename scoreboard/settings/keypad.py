"""The dealer keypad's section of the config: which key does what, checked at load.

Kept beside :mod:`scoreboard.settings.config` (which reads it through :func:`read_keypad`
with the config's :class:`~scoreboard.settings.reader.Reader`)
because it holds the keypad's vocabulary, the actions, and their numeric-keypad
defaults; the keypad feed maps key names to these actions.

Key names are pygame's (``pygame.key.name``): ``"[1]"`` is keypad 1, ``"[-]"``
keypad minus, ``"enter"`` the keypad's Enter, ``"page down"``; any case.  With
NumLock off a keypad sends navigation keys instead (keypad 1 is End), so by
default (``numlock_off: true``) every keypad digit and the point also accept
their NumLock-off twin.

>>> config = read_keypad(Reader("kiosk.yaml"), {"banker": ["[9]"]})
>>> config.keys[KeypadAction.BANKER], config.keys[KeypadAction.PLAYER]
(('[9]', 'page up'), ('[1]', 'end'))
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoreboard.settings.reader import Reader


class KeypadAction(enum.StrEnum):
    """What a keypad key does; the values are the config's key names."""

    PLAYER = "player"
    TIE = "tie"
    BANKER = "banker"
    PLAYER_PAIR = "player_pair"
    NATURAL = "natural"
    BANKER_PAIR = "banker_pair"
    BANKER_SIX = "banker_six"
    VOID_LAST = "void_last"
    NEW_SHOE = "new_shoe"
    CLEAR = "clear"


#: The layout a dealer expects on a numeric keypad (NumLock on):
#: ``7 8 9`` free, ``4 5 6`` Player pair / Natural / Banker pair, ``1 2 3``
#: Player / Tie / Banker, ``0`` clear, ``-`` void the last game, ``*`` new shoe.
DEFAULT_KEYS: Mapping[KeypadAction, tuple[str, ...]] = {
    KeypadAction.PLAYER: ("[1]",),
    KeypadAction.TIE: ("[2]",),
    KeypadAction.BANKER: ("[3]",),
    KeypadAction.PLAYER_PAIR: ("[4]",),
    KeypadAction.NATURAL: ("[5]",),
    KeypadAction.BANKER_PAIR: ("[6]",),
    KeypadAction.BANKER_SIX: (),  # Super 6 tables bind it (e.g. "[9]")
    KeypadAction.VOID_LAST: ("[-]",),
    KeypadAction.NEW_SHOE: ("[*]",),
    KeypadAction.CLEAR: ("[0]", "backspace"),
}
#: The actions that enter a coup: each needs a key.
RESULTS = (KeypadAction.PLAYER, KeypadAction.TIE, KeypadAction.BANKER)
#: What a keypad key sends with NumLock off (pygame names).
NUMLOCK_OFF_TWINS: Mapping[str, str] = {
    "[0]": "insert",
    "[1]": "end",
    "[2]": "down",
    "[3]": "page down",
    "[4]": "left",
    "[5]": "clear",
    "[6]": "right",
    "[7]": "home",
    "[8]": "up",
    "[9]": "page up",
    "[.]": "delete",
}
CONFIRM_RANGE = (1.0, 15.0)
HOLD_RANGE = (0.5, 10.0)
#: Shorter than any contact bounce worth the name would let bounces through (a
#: debounce is never off); longer would swallow a quick dealer's second press.
DEBOUNCE_RANGE = (0.005, 0.25)
OPTIONS = ("numlock_off", "confirm_seconds", "hold_seconds", "debounce_seconds")


@dataclass(frozen=True, slots=True)
class KeypadConfig:
    """Each action's keys (pygame names, NumLock-off twins included) and the key timing.

    A destructive key (void last, new shoe) acts on a second press within
    ``confirm_seconds`` or when held ``hold_seconds``.  A key pressed again
    within ``debounce_seconds`` of its release is still the same press (contact
    bounce, see :mod:`scoreboard.keypad._debounce`).
    """

    keys: Mapping[KeypadAction, tuple[str, ...]] = field(
        default_factory=lambda: with_twins(DEFAULT_KEYS)
    )
    numlock_off: bool = True
    confirm_seconds: float = 4.0
    hold_seconds: float = 2.0
    debounce_seconds: float = 0.05

    def action_of(self) -> dict[str, KeypadAction]:
        """Key name -> action, for the feed.

        >>> KeypadConfig().action_of()["page down"]
        <KeypadAction.BANKER: 'banker'>
        """
        return {name: action for action, names in self.keys.items() for name in names}


def with_twins(keys: Mapping[KeypadAction, tuple[str, ...]]) -> dict[KeypadAction, tuple[str, ...]]:
    """Each keypad key followed by its NumLock-off twin."""
    return {
        action: tuple(
            name for key in names for name in (key, NUMLOCK_OFF_TWINS.get(key)) if name is not None
        )
        for action, names in keys.items()
    }


@functools.cache
def key_names() -> Mapping[str, str]:
    """Every key name pygame knows, lower case -> pygame's own spelling.

    The constants' names (``K_KP1``, or ``KP1``) lead to the same name
    ``pygame.key.name`` gives (``"[1]"``), which is what the kiosk hands the feed.
    """
    import pygame  # only here: the rest of the config knows nothing of the screen

    names: dict[str, str] = {}
    for constant in dir(pygame):
        code = getattr(pygame, constant)
        if not constant.startswith("K_") or not isinstance(code, int):
            continue
        name = pygame.key.name(code)
        if name and name != "unknown key":
            names.setdefault(name.lower(), name)
    for constant in dir(pygame):
        code = getattr(pygame, constant)
        if constant.startswith("K_") and isinstance(code, int):
            name = pygame.key.name(code)
            if name.lower() in names:
                names.setdefault(constant.lower(), name)
                names.setdefault(constant[2:].lower(), name)
    return names


def read_keypad(reader: Reader, data: Any) -> KeypadConfig:
    """The ``keypad:`` section (None: the defaults), its mistakes recorded in ``reader``."""
    if data is None:
        return KeypadConfig()
    section = reader.mapping(data, "keypad", {*KeypadAction, *OPTIONS})
    numlock_off = reader.boolean(section.get("numlock_off", True), "keypad.numlock_off")
    given = {KeypadAction(name): section[name] for name in section if name in set(KeypadAction)}
    keys = _bind(reader, given, numlock_off)
    return KeypadConfig(
        keys=keys,
        numlock_off=numlock_off,
        confirm_seconds=_seconds(reader, section, "confirm_seconds", 4.0, CONFIRM_RANGE),
        hold_seconds=_seconds(reader, section, "hold_seconds", 2.0, HOLD_RANGE),
        debounce_seconds=_seconds(reader, section, "debounce_seconds", 0.05, DEBOUNCE_RANGE),
    )


def _seconds(
    reader: Reader, section: Mapping[str, Any], name: str, default: float, span: tuple[float, float]
) -> float:
    return reader.seconds(section.get(name, default), f"keypad.{name}", *span)


def _bind(
    reader: Reader, given: Mapping[KeypadAction, Any], numlock_off: bool
) -> dict[KeypadAction, tuple[str, ...]]:
    """Every action's keys, the config's over the defaults; a key bound twice is refused.

    The defaults are bound first, so a clash names the config's own key.
    """
    owner: dict[str, str] = {}
    keys: dict[KeypadAction, tuple[str, ...]] = {}
    order = [action for action in KeypadAction if action not in given] + list(given)
    for action in order:
        where = f"keypad.{action.value}"
        names = _names(reader, given[action], where) if action in given else DEFAULT_KEYS[action]
        if action in RESULTS and not names and given.get(action) == []:
            reader.expected(where, "at least one key (a coup needs its result)", given.get(action))
        bound: list[str] = []
        for name in names:
            twin = NUMLOCK_OFF_TWINS.get(name) if numlock_off else None
            for key in (name, twin):
                if key is None:
                    continue
                if key in owner:
                    reader.expected(where, _clash(key, name, owner[key]), name)
                    continue
                owner[key] = where if action in given else f"{where} (default)"
                if key != name:
                    owner[key] += f' (NumLock-off twin of "{name}"; see keypad.numlock_off)'
                bound.append(key)
        keys[action] = tuple(bound)
    return {action: keys[action] for action in KeypadAction}


def _clash(key: str, name: str, other: str) -> str:
    twin = "" if key == name else f' (its NumLock-off twin "{key}")'
    action = other.split(" ", 1)[0]
    hint = f"; give {action} other keys too" if "(default)" in other else ""
    return f'a key no other action has: "{name}"{twin} is already {other}{hint}'


def _names(reader: Reader, value: Any, where: str) -> tuple[str, ...]:
    """One key name or a list of them, spelled as pygame does; a wrong one is left out."""
    items = value if isinstance(value, list) else [value]
    known = key_names()
    names: list[str] = []
    for item in items:
        if not isinstance(item, str) or item.strip().lower() not in known:
            reader.expected(
                where, 'pygame key names such as "[1]", "[-]", "enter" or "page down"', item
            )
            continue
        name = known[item.strip().lower()]
        if name in names:
            reader.expected(where, "each key once", item)
            continue
        names.append(name)
    return tuple(names)
