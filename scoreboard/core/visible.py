"""Text from the feed made safe to print where staff read it: logs, audit, export.

A reason a controller sends ("misread", "voided on the dealer keypad") is
checked for control characters on the wire, but a bidirectional override
(U+202E) or a line separator passes and can visually reverse or split a log or
audit line.  :func:`escaped` writes such characters as ``\\uXXXX``: the text
still says what was sent, and no line can pretend to be another.
"""

from __future__ import annotations

import unicodedata

#: The bidirectional embeddings, overrides and isolates.
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Categories never printed as they are: controls, surrogates, format characters
#: (zero-width, BOM, bidi marks), line and paragraph separators.
HIDDEN = frozenset({"Cc", "Cs", "Cf", "Zl", "Zp"})


def escaped(text: str) -> str:
    r"""``text`` with every hidden or direction-changing character written as a code.

    >>> escaped("misread"), escaped("evil\u202eeulav"), escaped("a\x00b\u2028c")
    ('misread', 'evil\\u202eeulav', 'a\\x00b\\u2028c')
    """
    if text.isprintable() and not BIDI.intersection(text):
        return text
    return "".join(_shown(char) for char in text)


def _shown(char: str) -> str:
    if char in BIDI or unicodedata.category(char) in HIDDEN:
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return char
