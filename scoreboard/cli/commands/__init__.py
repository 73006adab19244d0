"""One module per ``scoreboard`` subcommand, each with ``register(subparsers)``."""
