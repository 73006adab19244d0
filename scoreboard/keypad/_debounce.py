"""Contact bounce: one physical press of a keypad key is one press, however its contacts chatter.

A worn or cheap keypad can send one press as down/up/down a few milliseconds
apart; taken as it comes, that is two Banker coups, or a void confirmed by the
press that asked it.  :class:`KeyDebounce` stands between the raw key events
and the keypad's state machine (:class:`~scoreboard.keypad._keys.KeypadInput`):

- a press goes through at once (the coup is entered on first contact);
- a release is held back for the debounce time: a press of the same key
  within it is the same press (both are dropped, the key stays down); once the
  time has passed with no such press the release goes through, with its own time;
- a press of a key already down (key repeat, a stuck key) is dropped.

Time is the key events' own (when they happened, as the kiosk stamped them),
never when they were handled, so a slow poll neither splits nor merges presses;
a stroke stamped before the last one counts at the last one's time.

>>> debounce = KeyDebounce(0.05)
>>> debounce.stroke(KeyStroke("[3]", True, 0.0))
[KeyStroke(key='[3]', down=True, at=0.0)]
>>> debounce.stroke(KeyStroke("[3]", False, 0.008)), debounce.stroke(KeyStroke("[3]", True, 0.016))
([], [])
>>> debounce.stroke(KeyStroke("[3]", False, 0.1)), debounce.due(0.15)
([], [KeyStroke(key='[3]', down=False, at=0.1)])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class KeyStroke:
    """One key event: pygame's name for the key, down or up, when it happened (monotonic)."""

    key: str
    down: bool
    at: float


class KeyDebounce:
    """The keys down and the releases still in doubt (see the module docstring)."""

    #: How long after its press a key held down still counts as in play
    #: (:meth:`watching`): a stuck key must not keep the kiosk looking often for ever.
    WATCH_SECONDS: ClassVar[float] = 5.0

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._down: dict[str, float] = {}  # key -> when it was pressed
        self._doubt: dict[str, KeyStroke] = {}  # key -> its release, held back
        self._last = float("-inf")

    def stroke(self, stroke: KeyStroke) -> list[KeyStroke]:
        """The clean strokes a raw one lets through: releases it confirms first, then itself."""
        at = max(stroke.at, self._last)
        self._last = at
        clean = self.due(at)
        key = stroke.key
        if not stroke.down:
            if key in self._down:
                self._doubt[key] = KeyStroke(key, False, at)
            elif key not in self._doubt:
                clean.append(KeyStroke(key, False, at))
            return clean
        if self._doubt.pop(key, None) is not None:
            return clean  # a bounce: the key never came up
        if key not in self._down:
            self._down[key] = at
            clean.append(KeyStroke(key, True, at))
        return clean

    def due(self, now: float) -> list[KeyStroke]:
        """The releases no press followed within the debounce time by ``now``, oldest first."""
        done = sorted(
            (release for release in self._doubt.values() if self._past(release, now)),
            key=lambda release: release.at,
        )
        for release in done:
            del self._doubt[release.key]
            del self._down[release.key]
        return done

    def _past(self, release: KeyStroke, now: float) -> bool:
        """Whether the debounce time after ``release`` is over (to the nanosecond, so 0.15 - 0.1
        counts as the 0.05 it means)."""
        return now - release.at >= self.seconds - 1e-9

    def settled(self, now: float) -> float:
        """Until when the keys are known: ``now``, or the oldest release still in doubt.

        What time decides about the keys (a hold long enough) is decided there:
        a key released just before its hold ended is not held to the end.

        >>> debounce = KeyDebounce(0.05)
        >>> debounce.stroke(KeyStroke("[-]", True, 0.0))[0].down
        True
        >>> debounce.stroke(KeyStroke("[-]", False, 1.97))
        []
        >>> debounce.settled(2.0), debounce.settled(1.9)
        (1.97, 1.9)
        """
        return min([now, *(release.at for release in self._doubt.values())])

    def watching(self, now: float) -> bool:
        """Whether a key's timing matters now: a release in doubt, or a key recently pressed.

        While it does the kiosk looks for key events more often, so each is
        stamped close to when it happened.
        """
        return bool(self._doubt) or any(
            now < pressed + self.WATCH_SECONDS for pressed in self._down.values()
        )

    def release_all(self) -> None:
        """The window lost the keyboard: no key is down or in doubt any more."""
        self._down.clear()
        self._doubt.clear()
