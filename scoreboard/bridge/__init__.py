"""The shoe bridge: a card-reading shoe on a serial line, published as a controller.

Public: ``shoe_bridge`` (:class:`Bridge`, used by ``scoreboard bridge`` and by a
display that reads its shoe itself).  Private: ``_desk`` (the shoe's messages turned
into dealt hands and table events).
"""
