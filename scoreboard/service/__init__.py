"""Living as a service: stopping on a signal, telling systemd, logging.

Public: ``stopping`` (handlers only record a signal; loops look and stop),
``sdnotify`` (ready, watchdog, status, stopping), ``heartbeat`` (when a loop tells
the service manager it is alive) and ``logsetup`` (journald or a terminal).  Used
by the kiosk, the controller, the bridge and the command line alike, so it lives
in none of them.
"""
