"""The roads players read, pure: bead plate, big road, the derived roads, counters.

Public: ``engine`` (:class:`Roads`: every road and the ask road, appended a coup at
a time), ``stats`` (counters and streaks), ``good_roads`` (the patterns players walk
the floor for).  Private: ``_layout`` (where a road's entries go on a grid) and
``_values`` (frozen values made fast for the hot path).  Imports only ``game``.
"""
