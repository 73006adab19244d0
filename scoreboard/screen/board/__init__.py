"""One table's board: (table state, theme, size) -> pygame Surface.

Public: ``renderer`` (:class:`Renderer`, what the kiosk loop draws with), ``probe``
(a theme tried at a size), ``canvas``, ``text``, ``symbols``, ``marks``, ``grid``,
``layout``, ``panels``, ``guard`` and ``shuffle_overlay`` (pieces the wall, the kiosk
and the commands also use).  The private modules are the panels themselves
(counters, ask road, limits, hand, notices, banner...) and their bookkeeping;
each small panel's module declares what it reads beside how it draws
(``_small_panels``).
Never imports the wall, a feed or the network.
"""
