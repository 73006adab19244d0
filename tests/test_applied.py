"""table/applied.py: the feed mark's words and what an applied event asks of the journal."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from scoreboard.table.applied import CHANGED, STALE, TRANSIENT, UNCHANGED, Applied, FeedStatus


def test_the_feed_marks_words_are_the_display_status_contracts() -> None:
    """The display status publishes them (``connected`` for live), the schema lists them."""
    schema = json.loads(
        resources.files("scoreboard.schemas").joinpath("display_status.json").read_text()
    )
    published = {s.value for s in FeedStatus if s not in (FeedStatus.DEMO, FeedStatus.LIVE)}
    assert published | {"connected"} == set(schema["properties"]["feed"]["enum"])
    assert (FeedStatus.DEMO.value, FeedStatus.LIVE.value) == ("demo", "live")


@pytest.mark.parametrize(
    ("applied", "kept"),
    [
        (UNCHANGED, False),
        (Applied(retired=0), False),
        (Applied(retired=1), True),
        (Applied(completed="S1"), True),
        (Applied(completed=""), True),
        (CHANGED, True),
        (STALE, False),
    ],
)
def test_an_event_is_journaled_when_it_changed_retired_or_completed_something(applied, kept):
    assert applied.worth_keeping is kept


def test_the_shared_answers_say_what_they_are() -> None:
    assert (UNCHANGED.changed, UNCHANGED.stale, UNCHANGED.retired) == (False, False, 0)
    assert (CHANGED.changed, CHANGED.stale) == (True, False)
    assert (STALE.changed, STALE.stale) == (False, True)
    # a card dealt face down: the board redraws it, the journal keeps no line of it
    assert (TRANSIENT.changed, TRANSIENT.transient, TRANSIENT.worth_keeping) == (True, True, False)
    assert Applied().completed is None and Applied().alerts == ()
    with pytest.raises(TypeError, match="not a truth value"):
        bool(CHANGED)
