"""The game itself, pure: cards, the Punto Banco tableau, what happens at a table.

Public: ``cards`` (cards in the feed's notation), ``rules`` (who draws, who wins,
:class:`Coup` and :class:`Game`), ``seats`` (where a card goes in a hand),
``notation`` (a shoe written as ``"Bbn P Tp"``), ``variants`` and ``side_bets``
(what a bet pays), ``limits`` (a table's limits and pay table), ``events`` (the one
event vocabulary every feed, the protocol and the journal speak), ``shoe`` (the
simulated shoe, dealing events), ``odds`` (exact probabilities by enumeration),
``simulation`` (whole shoes at speed) and ``floor`` (a simulated floor's plan).

Imports nothing of the package outside this room, and nothing impure (no screen,
network, disk, clock or log): tests/test_architecture.py checks it.
"""
