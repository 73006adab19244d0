"""The live feed: one :class:`~scoreboard.link.client.Link` and one display session.

The link hands raw link events over from paho's thread; on the app loop's
thread :meth:`MqttFeed.poll` moves them into the backlog of the
:class:`~scoreboard.feeds._session.DisplaySession`, which works through one time
slice of it (parses, applies, journals, schedules resyncs, keeps the status),
and publishes what the session returns.  With a backlog left, the feed's
deadline is ``now``: the kiosk draws a frame and comes straight back.
Nothing here decides anything: it is the :class:`~scoreboard.kiosk.loop.Feed`
protocol wired to those two.  The journal
belongs to the command that opened it; the feed only writes to it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from scoreboard.feeds._backlog import STEP_BUDGET
from scoreboard.feeds._session import DisplaySession, Keeper
from scoreboard.link.client import Link, default_client_id
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState

log = logging.getLogger(__name__)

GOODBYE_SECONDS = 2.0  # how long a clean stop waits for the broker to take the goodbye


class MqttFeed:
    """A :class:`~scoreboard.kiosk.loop.Feed` reading one table's topics from an MQTT broker."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        display_id: str,
        journal: Keeper | None = None,
        client_id: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        budget: float = STEP_BUDGET,
        simulated: bool = False,
    ) -> None:
        """``simulated``: the table's controller is a simulated shoe (``demo --mqtt``), so a
        live stream is marked DEMO: a player must never take a demo for a live game."""
        self.simulated = simulated
        self.session = DisplaySession(
            endpoint, display_id, journal=journal, budget=budget, clock=clock
        )
        self.link = Link(
            endpoint,
            client_id=client_id or default_client_id(display_id, endpoint.topics),
            subscriptions=endpoint.topics.display_subscriptions,
            will=self.session.will,
            clock=clock,
        )

    def start(self, wake: Callable[[], None]) -> None:
        settings = self.link.endpoint.mqtt
        log.info(
            "mqtt: connecting to %s:%d (MQTT %s) as display %s, topics %s/{coup,event,...}",
            settings.host,
            settings.port,
            settings.protocol,
            self.session.display_id,
            self.link.endpoint.topics.prefix,
        )
        self.link.start(wake)

    def poll(self, table: TableState, now: float) -> None:
        """Hand what the link received to the session; publish what it asks for.

        A failing journal is tried again here too (when its backoff allows), so a
        disk fault clears while the table is quiet.
        """
        heal = getattr(self.session.journal, "heal", None)
        if heal is not None:
            heal()
        for message in self.session.step(self.link.drain(), table, now):
            self.link.publish(message)

    def status(self, now: float) -> FeedStatus:
        status = self.session.status(now)
        return FeedStatus.DEMO if self.simulated and status is FeedStatus.LIVE else status

    def report(self, render: RenderHealth) -> None:
        """The kiosk's word on its last frame attempt, for the next status."""
        self.session.render = render

    def journal_health(self) -> JournalHealth:
        return self.session.journal_health()

    def next_deadline(self, now: float) -> float | None:
        return self.session.next_deadline(now)

    def stop(self) -> None:
        """Say goodbye on the status topic (even mid-reconnect: Link.goodbye), then disconnect."""
        said = self.link.goodbye(self.session.will, GOODBYE_SECONDS)
        if not said and self.session.goodbye() is not None:
            log.warning("mqtt: the goodbye was not acknowledged in %.0f s", GOODBYE_SECONDS)
        self.link.stop()
