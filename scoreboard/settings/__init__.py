"""What an operator sets, read one way: every mistake collected, each named
``FILE: key.path: expected WHAT, got VALUE``.

Public: ``reader`` (the one collect-every-error :class:`Reader`), ``yamlfile`` (YAML
errors with file, line and column), ``config`` (the kiosk's config), ``endpoint``
(how to reach one table's feed), ``keypad`` (the dealer keypad's keys), ``shoe``
(the card-reading shoe's section) and ``translations`` (the labels shipped in seven
languages, and the language codes a config may name).  The lobby's section is read
in ``lobby.settings`` with the same reader.  Never imports the screen or a feed.
"""
