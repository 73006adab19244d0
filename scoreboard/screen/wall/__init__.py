"""The lobby's wall: every table of a floor as a tile, drawn with the board's pieces.

Public: ``renderer`` (:class:`LobbyRenderer`).  Private: ``_tile`` (one table's
tile), ``_layout`` (where tiles go) and ``_labels`` (the tile's words).
"""
