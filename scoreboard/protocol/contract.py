"""The numbers that define contract v1: its version and the bounds of a payload.

They live apart because decoding, encoding and the display status all need
them, and a bump of the version or a bound should be one edit in one place.
"""

from __future__ import annotations

VERSION = 1
MAX_PAYLOAD = 64 * 1024
MAX_GAME = 999
MAX_SHOE_ID = 64
MAX_BURN = 12
#: The largest bet limit a board shows: a trillion fits every currency's table stakes.
MAX_BET = 10**12
MAX_REASON = 200
