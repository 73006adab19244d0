"""Text from the feed made safe to print where staff read it: logs, audit, export.

A reason a controller sends ("misread", "voided on the dealer keypad") is
checked for control characters on the wire, but a bidirectional override
(U+202E) or a line separator passes and can visually reverse or split a log or
audit line.  :func:`escaped` writes such characters as ``\\uXXXX``: the text
still says what was sent, and no line can pretend to be another.
"""

from __future__ import annotations

import unicodedata

#: The bidirectional embeddings, overrides and isolates: format characters (Cf),
#: so :data:`HIDDEN` holds them (:func:`escaped`'s examples check it).
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Categories never printed as they are: controls, surrogates, format characters
#: (zero-width, BOM, bidi marks), line and paragraph separators.  ``str.isprintable``
#: is False for every one of them.
HIDDEN = frozenset({"Cc", "Cs", "Cf", "Zl", "Zp"})


def escaped(text: str) -> str:
    r"""``text`` with every hidden or direction-changing character written as a code.

    >>> escaped("misread"), escaped("evil\u202eeulav"), escaped("a\x00b\u2028c")
    ('misread', 'evil\\u202eeulav', 'a\\x00b\\u2028c')
    >>> escaped("\ud800"), escaped("a\u2029b"), escaped("zero\u200bwidth"), escaped("\x7f\xa0")
    ('\\ud800', 'a\\u2029b', 'zero\\u200bwidth', '\\x7f\xa0')
    >>> {unicodedata.category(char) for char in BIDI}
    {'Cf'}
    """
    if text.isprintable():  # nothing HIDDEN in it (so no BIDI either)
        return text
    return "".join(_shown(char) for char in text)


def _shown(char: str) -> str:
    if unicodedata.category(char) in HIDDEN:
        code = ord(char)
        short = code < 0x100  # pragma: no mutate (U+0100 is a letter: never escaped)
        return f"\\x{code:02x}" if short else f"\\u{code:04x}"
    return char
