"""Two displays of one table list the limits in the same order, restarted or not.

The lab saw a running display list Player, Banker, Tie and the same display after
a restart Banker, Player, Tie: the journal stores the payload's keys sorted, and
the panel listed them in the order they came.
"""

from __future__ import annotations

import json

from scoreboard.game.events import LimitsReceived
from scoreboard.protocol import canonical_json, encode, parse_dict

PAYLOAD = {
    "v": 1,
    "currency": "USD",
    "bets": {"player": [25, 10000], "banker": [25, 10000], "tie": [5, 1000]},
    "pays": {"player": "1:1", "banker": "0.95:1", "tie": "8:1", "panda8": "25:1"},
}


def test_the_limits_keep_one_order_through_the_journal():
    live = parse_dict("limits", PAYLOAD, "limits")
    assert isinstance(live, LimitsReceived)
    kind, data = encode(live)
    stored = json.loads(canonical_json({"kind": str(kind), "data": data}))  # keys sorted
    assert list(stored["data"]["bets"]) == ["banker", "player", "tie"]
    replayed = parse_dict(stored["kind"], stored["data"], "journal")
    assert isinstance(replayed, LimitsReceived)
    assert live.limits.order == replayed.limits.order == ("player", "banker", "tie", "panda8")
