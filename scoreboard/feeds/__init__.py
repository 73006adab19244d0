"""Feeds: adapters that turn outside input into table events for the kiosk loop.

Public: ``mqtt`` (the live feed: one link, one display session), ``simulated`` (the
demo feed, a simulated shoe at a table's pace), ``shoe`` (a display reading its
card-reading shoe itself) and ``repeats`` (say a recurring problem once).  Private:
``_session`` (the display session: ordering, gaps, resyncs, the journal),
``_backlog``, ``_following``, ``_pacing`` and ``_resync``.  The dealer keypad's feed
is in ``keypad``.
"""
