"""One module per ``scoreboard`` command: its arguments, declared without running anything.

Each module's ``register(subparsers)`` adds the command's parser and sets
``runs`` to the :mod:`scoreboard.cli.commands` module whose ``run(args)`` does the
work (imported only then), and ``stops=True`` for a command whose loops stop in
order on SIGTERM and Ctrl-C (:mod:`scoreboard.service.stopping`).  They import only
what declaring needs: never pygame, paho or the command's own module.
"""
