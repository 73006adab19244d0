"""The numbers that define contract v2: its version and the bounds of a payload.

They live apart because decoding, encoding and the display status all need
them, and a bump of the version or a bound should be one edit in one place.
"""

from __future__ import annotations

__all__ = [
    "MAX_BET",
    "MAX_BURN",
    "MAX_DETAIL",
    "MAX_GAME",
    "MAX_PAYLOAD",
    "MAX_REASON",
    "MAX_SEQ",
    "MAX_SHOE_ID",
    "MAX_TABLE_NAME",
    "MAX_TIME",
    "VERSION",
    "VERSIONS",
    "WILL_SEQ",
]

VERSION = 2
#: The versions a display reads: v1 payloads still parse (with no origin).
VERSIONS = (1, 2)
MAX_PAYLOAD = 64 * 1024
MAX_GAME = 999
MAX_SHOE_ID = 64
MAX_BURN = 12
#: The largest bet limit a board shows: a trillion fits every currency's table stakes.
MAX_BET = 10**12
MAX_REASON = 200
#: The longest table name a controller may say (its birth's ``name``).
MAX_TABLE_NAME = 120
#: The longest ``detail`` of a shoe health message: words and the bad bytes in hex.
MAX_DETAIL = 500
#: The largest session and seq: 2^53 - 1, the largest integer every JSON reader keeps exact.
MAX_SEQ = 2**53 - 1
#: The seq a last will stands at: after every payload of the session it ends.
WILL_SEQ = MAX_SEQ
#: The latest ``effective_at`` (9999-12-30T23:59:59Z, Unix time): a day short of the last
#: date a calendar library holds, so the time shown in any time zone is still a date.
MAX_TIME = 253_402_214_399
