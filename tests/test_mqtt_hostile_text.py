"""Well-formed but hostile text over a real broker: refused at the door, nothing changes.

Issue 9 items 1 and 2: a limits message with a NUL, or a coup whose shoe id
holds a lone surrogate, is valid JSON and valid UTF-8 on the wire (json escapes
them), yet no board can draw it and no journal or status can encode it.  The
display refuses both, counts them, and goes on with its last good state.
"""

from __future__ import annotations

import json

from dealt import dealt_shoe
from mqtt_broker import Display, needs_mosquitto, publisher, running_broker, unique_prefix

from scoreboard.protocol import CoupReceived, Topics, canonical_json, encode

pytestmark = needs_mosquitto


def test_a_nul_in_limits_and_a_surrogate_in_a_shoe_id_are_refused_and_counted(tmp_path):
    shoe = dealt_shoe(3)
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        topics = Topics(prefix)
        display = Display(broker.settings(), prefix).start()
        client = publisher(broker.settings())
        try:
            assert display.until(lambda: display.session.subscribed, 15)
            first = canonical_json(encode(CoupReceived(shoe.shoe, shoe.games[0]))[1])
            client.publish(topics.coup, first, qos=1).wait_for_publish(5)
            assert display.until(lambda: len(display.table.games) == 1)
            limits_before, version = display.table.limits, display.table.version
            nul = {"v": 1, "currency": "US\u0000D", "bets": {"tie": [5, 500]}, "pays": {}}
            ghost = {"v": 1, "shoe": "T1-\ud800", "game": 1, "result": "B"}
            for topic, data in ((topics.limits, nul), (topics.coup, ghost)):
                payload = json.dumps(data).encode()  # \u0000 and \ud800 escapes: valid JSON
                client.publish(topic, payload, qos=1).wait_for_publish(5)
            assert display.until(lambda: display.session.rejected == 2)
            assert display.table.limits == limits_before and display.table.version == version
            assert display.table.shoe_id == shoe.shoe and len(display.table.games) == 1
            # The board still follows the real controller.
            second = canonical_json(encode(CoupReceived(shoe.shoe, shoe.games[1]))[1])
            client.publish(topics.coup, second, qos=1).wait_for_publish(5)
            assert display.until(lambda: len(display.table.games) == 2)
        finally:
            client.loop_stop()
            display.stop()
