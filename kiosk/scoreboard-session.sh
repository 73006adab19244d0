#!/bin/sh
# The kiosk's one launcher, installed in each release as libexec/scoreboard-session
# (/opt/scoreboard/bin/scoreboard-session links to the current one) and started by
# scoreboard.service (tty1) or scoreboard-desktop.service (labwc desktop). It runs its
# own release's board and relay, so a rollback runs the older release whole.
#
#   scoreboard-session          start the display stack SCOREBOARD_DISPLAY names:
#                                 cage    cage (Wayland kiosk compositor) running the board
#                                 x11     a bare X server on vt1 (xinit) running the board
#                                 kmsdrm  the board straight on the DRM device
#                                 labwc   the board in the running labwc desktop
#   scoreboard-session board    the board itself (what cage or xinit run)
#
# From /etc/scoreboard/environment (the installer writes it):
#   SCOREBOARD_MODE=live|demo|lobby
#                               live: `scoreboard run --config /etc/scoreboard/scoreboard.yaml`
#                               demo: `scoreboard demo` on a simulated shoe
#                               lobby: `scoreboard lobby --config /etc/scoreboard/lobby.yaml`
#   SCOREBOARD_ROTATE=0|90|180|270  passed to the board's --rotate
#   SCOREBOARD_RUN_ARGS, SCOREBOARD_DEMO_ARGS, SCOREBOARD_LOBBY_ARGS
#                               more flags for `run` / `demo` / `lobby` (split on spaces)
# The journal goes to STATE_DIRECTORY (systemd's StateDirectory=, /var/lib/scoreboard
# for the tty1 unit): the only place the unit may write.
set -eu

self=$(readlink -f "$0")
release=$(dirname "$(dirname "$self")")       # /opt/scoreboard/releases/NAME
board=$release/bin/scoreboard
config=${SCOREBOARD_CONFIG:-/etc/scoreboard/scoreboard.yaml}
lobby_config=${SCOREBOARD_LOBBY_CONFIG:-/etc/scoreboard/lobby.yaml}
state=${STATE_DIRECTORY:-/var/lib/scoreboard}
display=${SCOREBOARD_DISPLAY:-cage}

die() {
    echo "scoreboard-session: $*" >&2
    exit 1
}

# The unit's main process forwards the board's notifications to systemd, since the
# board is a child of cage or X in a logind session scope (see scoreboard.service).
relayed() {
    if [ -n "${NOTIFY_SOCKET:-}" ]; then
        exec "$release/bin/python" "$release/libexec/scoreboard-notify-relay" -- "$@"
    fi
    exec "$@"
}

start_board() {
    # The board, not the relay or the compositor, feeds the watchdog.
    unset WATCHDOG_PID
    case $display in
        cage | labwc) : "${SDL_VIDEODRIVER:=wayland}" ;;
        x11)
            : "${SDL_VIDEODRIVER:=x11}"
            # No screen saver, no DPMS power-down, no blanking; X has no cursor (-nocursor).
            xset s off -dpms s noblank 2>/dev/null || echo "scoreboard-session: xset failed: the screen may blank" >&2
            ;;
        kmsdrm) : "${SDL_VIDEODRIVER:=kmsdrm}" ;;
    esac
    export SDL_VIDEODRIVER
    [ -x "$board" ] || die "$board is missing: re-run kiosk/install.sh"
    rotate=
    if [ -n "${SCOREBOARD_ROTATE:-}" ]; then
        rotate="--rotate $SCOREBOARD_ROTATE"
    fi
    # The extra flags are meant to split on spaces, like words on a command line.
    case ${SCOREBOARD_MODE:-live} in
        live)
            # shellcheck disable=SC2086
            exec "$board" run --config "$config" --state-dir "$state" $rotate ${SCOREBOARD_RUN_ARGS:-}
            ;;
        demo)
            # shellcheck disable=SC2086
            exec "$board" demo --state-dir "$state/demo" $rotate ${SCOREBOARD_DEMO_ARGS:-}
            ;;
        lobby)
            # No journal: the lobby shows what the tables' retained feed says.
            # shellcheck disable=SC2086
            exec "$board" lobby --config "$lobby_config" $rotate ${SCOREBOARD_LOBBY_ARGS:-}
            ;;
        *) die "SCOREBOARD_MODE=${SCOREBOARD_MODE} in /etc/scoreboard/environment: expected live, demo or lobby" ;;
    esac
}

start_display() {
    # cage needs XDG_RUNTIME_DIR for its Wayland socket. The PAM session's
    # /run/user/UID is hidden by the unit's ProtectHome=, so the tty1 unit gives its
    # own RuntimeDirectory= (/run/scoreboard).
    if [ -n "${RUNTIME_DIRECTORY:-}" ]; then
        XDG_RUNTIME_DIR=$RUNTIME_DIRECTORY
        export XDG_RUNTIME_DIR
    fi
    case $display in
        cage)
            [ -n "${XDG_RUNTIME_DIR:-}" ] || die "XDG_RUNTIME_DIR is not set: cage needs it (start me from scoreboard.service)"
            # -s: a technician can still switch to another VT (Ctrl+Alt+F2).
            relayed cage -s -- "$self" board
            ;;
        x11) relayed xinit "$self" board -- :0 vt1 -nolisten tcp -nocursor -keeptty ;;
        kmsdrm) relayed "$self" board ;;
        labwc)
            [ -n "${WAYLAND_DISPLAY:-}" ] || die "WAYLAND_DISPLAY is not set: the labwc autostart imports it (see docs/deploy.md)"
            start_board
            ;;
        *) die "SCOREBOARD_DISPLAY=${display} in /etc/scoreboard/environment: expected cage, x11, kmsdrm or labwc" ;;
    esac
}

case ${1:-} in
    "") start_display ;;
    board) start_board ;;
    *) die "unknown argument '$1' (expected nothing or 'board')" ;;
esac
