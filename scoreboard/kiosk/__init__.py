"""The kiosk: one window, any feed, redraw only what changed.

Public: ``window`` (the one loop of every kiosk window: :class:`Window`, and
:class:`Scene`, what the board or the wall supplies), ``loop`` (the table's
board as a scene: :class:`Kiosk` and :func:`run_kiosk`), ``feed`` (what the
board asks of a feed), ``theme_watch`` (the theme file watched and reloaded)
and ``monitor`` (which monitor, which way up).  Private: ``_promo`` (the
venue's images on the shuffle screen).
"""
