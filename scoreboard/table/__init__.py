"""One table's state and every rule that changes it, pure.

Public: ``state`` (:class:`TableState` and :func:`apply_event`, the one way events
change a table), ``applied`` (what applying an event did), ``amendments`` (voids and
corrections), ``integrity`` (cards that say the shoe is wrong), ``unfinished`` (a
previous shoe the display lacks games of), ``behind`` (noticing the board fell
behind its controller), ``shoe_watch`` (the card-reading shoe's hand and health),
``pit`` (what pit staff ask a controller), ``visible`` (feed text made safe to
print) and ``health`` (the board's own health, as values).  Private: ``_records``
(one game number's record), ``_order`` (protocol v2 ordering), ``_event_rules``
(what each kind of event does) and ``_ruled`` (the table as those rules see it,
so they need not import ``state``).  Imports only ``game`` and ``roads``.
"""
