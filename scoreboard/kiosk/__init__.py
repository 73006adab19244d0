"""The kiosk: one window, any feed, redraw only what changed.

Public: ``loop`` (:class:`Kiosk` and :func:`run_kiosk`), ``feed`` (what the loop
asks of a feed), ``theme_watch`` (the theme file watched and reloaded) and
``monitor`` (which monitor, which way up).  Private: ``_promo`` (the venue's
images on the shuffle screen).
"""
