#!/bin/sh
# The kiosk's X session: one fullscreen window, no screen blanking, no cursor.
# Started by xinit from scoreboard.service; everything after "--" in
# SCOREBOARD_ARGS goes to `scoreboard` (default: the live display from the config).
xset s off 2>/dev/null
xset -dpms 2>/dev/null
xset s noblank 2>/dev/null
exec /opt/scoreboard/.venv/bin/scoreboard ${SCOREBOARD_COMMAND:-run --config /etc/scoreboard/scoreboard.yaml}
