"""Drawing only: a theme, the board of one table, the wall of a floor.

``theme`` reads and checks a theme; ``board`` draws one table's board from its
state and theme; ``wall`` draws the lobby's wall of tiles with the board's pieces.
Nothing here reads a feed, the network or the journal.
"""
