"""What the board costs on this machine: the measuring code of ``scoreboard bench``.

One module per figure, each usable alone: :mod:`.roads` (a coup appended to
the roads), :mod:`.frames` (a coup's update, an animation frame and a full
frame, through the kiosk's own loop and its copy to the display), :mod:`.idle`
(the display loop's CPU with nothing arriving), :mod:`.memory` (resident
memory over shoes), :mod:`.latency` (publish -> flip through a private
:mod:`.broker`).  :mod:`.kiosk` drives a kiosk step by step on a synthetic
clock; :mod:`.stats` holds the medians and percentiles; :mod:`.verdict` judges
the figures against what the board needs and :mod:`.report` prints them;
:mod:`.suite` runs everything in order; :mod:`.results` holds one run's figures
and :mod:`.machine` what a figure needs beside it (the machine and its load).

Two rules keep this package usable by ``benchmarks/`` as well, including their
``--compare TREE`` runs, where this tree's measuring code runs against an older
tree's ``scoreboard`` (``benchmarks/this_tree.py`` loads the package under
another name there):

- the modules import each other relatively, and nothing is imported here;
- the kiosk class under test is handed in (``kiosk_class``), never imported:
  only the commands wire :mod:`scoreboard.kiosk.loop` (tests/test_architecture.py).
"""
