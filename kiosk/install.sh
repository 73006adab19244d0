#!/usr/bin/env bash
# Install, update, roll back or remove the scoreboard kiosk on a Raspberry Pi OS or
# Debian machine. Run as root from the source checkout: sudo bash kiosk/install.sh
# Every run is idempotent; --dry-run prints each step without doing it. docs/deploy.md
# is the technician's guide.
set -Eeuo pipefail
# A step that fails stops the run, saying which.
trap '[ "$BASH_SUBSHELL" != 0 ] || printf "install.sh: failed (exit %s) at line %s: %s\n" "$?" "$LINENO" "$BASH_COMMAND" >&2' ERR

usage() {
    cat <<'EOF'
Usage: sudo bash kiosk/install.sh [OPTION...]

Installs the board as a service that starts at boot and comes back by itself:
its own venv in /opt/scoreboard/releases (built from this checkout, or from
--offline DIR), the config /etc/scoreboard/scoreboard.yaml (and for a lobby wall
/etc/scoreboard/lobby.yaml; each written only when absent), the journal in
/var/lib/scoreboard, and scoreboard.service on tty1 (or, on a Raspberry Pi OS
desktop, the user unit scoreboard-desktop.service).
Re-running updates the code and keeps the configs, the journal and the mode.

Mode (kept from the previous run when not given; first install: live):
  --live                 the table's live feed (scoreboard run --config ...)
  --demo                 the trade-show demo on a simulated shoe
  --lobby                a lobby wall or signage screen: every table as a tile
                         (scoreboard lobby --config /etc/scoreboard/lobby.yaml)
  --run-args ARGS        more flags for `scoreboard run` ('' clears them)
  --demo-args ARGS       more flags for `scoreboard demo` ('' clears them)
  --lobby-args ARGS      more flags for `scoreboard lobby` ('' clears them)

Display (kept from the previous run when not given):
  --display WAY          auto (default), cage, labwc, x11 or kmsdrm:
                           cage    a Wayland kiosk compositor on tty1 (no desktop)
                           labwc   inside the Raspberry Pi OS desktop (LightDM + labwc)
                           x11     a bare X server on tty1 (xinit, xserver-xorg-legacy)
                           kmsdrm  the board straight on the DRM device, where it works
                         auto: labwc on a Raspberry Pi OS desktop, cage when no desktop
                         is enabled, and a refusal naming any other desktop
  --desktop-user USER    the labwc desktop's user (default: LightDM's autologin user,
                         else the user who ran sudo)
  --disable-desktop      turn the enabled display manager off (boot to
                         multi-user.target) so the board can have tty1
  --rotate DEG           0, 90, 180 or 270: turn the picture clockwise (the board's
                         own --rotate; 0 clears it)

Shoe bridge (kept from the previous run when not given):
  --bridge SHOE          also run the card-reading shoe's bridge as a service,
                         scoreboard-bridge.service (SHOE: angel-eye or bee-tek):
                         scoreboard bridge --config /etc/scoreboard/bridge.yaml,
                         its journal in /var/lib/scoreboard-bridge
  --serial PATH          the shoe's serial device, best its /dev/serial/by-id/...
                         name (a ttyUSB number changes with the plug order)
  --bridge-args ARGS     more flags for `scoreboard bridge` (--baud N; '' clears them)
  --no-bridge            remove the bridge's service (its config and journal stay)

Other:
  --mosquitto            also install a local mosquitto for table T1 with a password
                         file and the ACL of kiosk/mosquitto (with --lobby, also the
                         account lobby-ID of lobby.yaml's lobby.id)
  --offline DIR          install from a folder of wheels (scoreboard's and every
                         dependency's; docs/deploy.md says how to make it), no index
  --python PYTHON        the Python 3.11+ the venv is made with (default: /usr/bin/python3)
  --rollback             point /opt/scoreboard/current back at the previous release
                         (its code and its own launchers)
  --uninstall            remove everything but the journals (/var/lib/scoreboard,
                         /var/lib/scoreboard-bridge) and the configs
                         /etc/scoreboard/scoreboard.yaml, lobby.yaml and bridge.yaml
  --purge                with --uninstall: remove the configs too (never the journal)
  --root DIR             install into DIR instead of / (tests): nothing outside DIR is
                         touched; apt, users, ownership and service starts are skipped
  --dry-run              print every step without doing any
  -h, --help             this help
EOF
}

fail() { # fail CODE MESSAGE: one line on stderr
    printf 'install.sh: %s\n' "$2" >&2
    exit "$1"
}

# --- options -------------------------------------------------------------------
mode='' display_opt='' rotate_opt='' rotate_given=0 run_args='' run_args_given=0
demo_args='' demo_args_given=0 lobby_args='' lobby_args_given=0 desktop_user='' disable_desktop=0 mosquitto=0
offline='' root='' dry_run=0 action=install purge=0 python=python3
bridge_opt='' serial_opt='' bridge_args='' bridge_args_given=0 no_bridge=0
# Debian's own Python, not whatever a technician's PATH puts first.
[ ! -x /usr/bin/python3 ] || python=/usr/bin/python3

needs_value() { [ "$2" -ge 2 ] || fail 2 "$1 needs a value (see --help)"; }

while [ $# -gt 0 ]; do
    case $1 in
        -h | --help) usage; exit 0 ;;
        --live | --demo | --lobby)
            [ -z "${mode_flag:-}" ] || [ "$mode_flag" = "$1" ] || fail 2 "$mode_flag and $1 contradict each other"
            mode_flag=$1; mode=${1#--} ;;
        --display) needs_value "$1" $#; display_opt=$2; shift ;;
        --rotate) needs_value "$1" $#; rotate_opt=$2; rotate_given=1; shift ;;
        --run-args) needs_value "$1" $#; run_args=$2; run_args_given=1; shift ;;
        --demo-args) needs_value "$1" $#; demo_args=$2; demo_args_given=1; shift ;;
        --lobby-args) needs_value "$1" $#; lobby_args=$2; lobby_args_given=1; shift ;;
        --desktop-user) needs_value "$1" $#; desktop_user=$2; shift ;;
        --disable-desktop) disable_desktop=1 ;;
        --mosquitto) mosquitto=1 ;;
        --bridge) needs_value "$1" $#; bridge_opt=$2; shift ;;
        --serial) needs_value "$1" $#; serial_opt=$2; shift ;;
        --bridge-args) needs_value "$1" $#; bridge_args=$2; bridge_args_given=1; shift ;;
        --no-bridge) no_bridge=1 ;;
        --offline) needs_value "$1" $#; offline=$2; shift ;;
        --python) needs_value "$1" $#; python=$2; shift ;;
        --root) needs_value "$1" $#; root=$2; shift ;;
        --dry-run) dry_run=1 ;;
        --rollback | --uninstall)
            [ "$action" = install ] || [ "$action" = "${1#--}" ] || fail 2 "--$action and $1: one action at a time"
            action=${1#--} ;;
        --purge) purge=1 ;;
        *) fail 2 "unknown option '$1' (see --help)" ;;
    esac
    shift
done

case ${display_opt:-auto} in auto | cage | labwc | x11 | kmsdrm) ;;
    *) fail 2 "--display: expected auto, cage, labwc, x11 or kmsdrm, got '$display_opt'" ;;
esac
case ${rotate_opt:-0} in 0 | 90 | 180 | 270) ;;
    *) fail 2 "--rotate: expected 0, 90, 180 or 270, got '$rotate_opt'" ;;
esac
case ${bridge_opt:-angel-eye} in angel-eye | bee-tek) ;;
    *) fail 2 "--bridge: expected angel-eye or bee-tek, got '$bridge_opt'" ;;
esac
case ${serial_opt:-/} in /*) ;;
    *) fail 2 "--serial: expected the device's absolute path (/dev/serial/by-id/...), got '$serial_opt'" ;;
esac
if [ "$no_bridge" = 1 ] && [ -n "$bridge_opt$serial_opt" ]; then
    fail 2 "--no-bridge and --bridge/--serial contradict each other"
fi
for pair in "--run-args:$run_args" "--demo-args:$demo_args" "--lobby-args:$lobby_args" \
    "--desktop-user:$desktop_user" "--serial:$serial_opt" "--bridge-args:$bridge_args"; do
    case ${pair#*:} in *[\"\'\\\$\`]* | *$'\n'*)
        fail 2 "${pair%%:*}: quotes, backslashes, \$ and backticks are not allowed (systemd and the shell would read them differently)" ;;
    esac
done
[ "$purge" = 0 ] || [ "$action" = uninstall ] || fail 2 "--purge goes with --uninstall"
if [ -n "$offline" ]; then
    [ -d "$offline" ] || fail 2 "--offline: no such directory: $offline"
    offline=$(cd "$offline" && pwd)
    compgen -G "$offline/scoreboard-*.whl" >/dev/null ||
        fail 2 "--offline $offline: no scoreboard-*.whl there (docs/deploy.md: Offline install)"
fi
if [ -n "$root" ]; then
    [ -d "$root" ] || fail 2 "--root: no such directory: $root"
    root=$(cd "$root" && pwd)
    [ "$root" != / ] || root=
fi
if [ -z "$root" ] && [ "$dry_run" = 0 ] && [ "$(id -u)" != 0 ]; then
    fail 1 "run as root: sudo bash $0 (or --dry-run to see the steps)"
fi

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
R=$root
OPT=$R/opt/scoreboard
ETC=$R/etc/scoreboard
ENV_FILE=$ETC/environment
SYSTEM_UNIT=$R/etc/systemd/system/scoreboard.service
BRIDGE_UNIT=$R/etc/systemd/system/scoreboard-bridge.service
BRIDGE_DROPIN=$R/etc/systemd/system/scoreboard-bridge.service.d
USER_UNIT=$R/etc/systemd/user/scoreboard-desktop.service
BIN_LINK=$R/usr/local/bin/scoreboard
XWRAPPER=$R/etc/X11/Xwrapper.config
MOSQ_CONF=$R/etc/mosquitto/conf.d/scoreboard.conf
MOSQ_ACL=$R/etc/mosquitto/scoreboard.acl
MOSQ_PASSWD=$R/etc/mosquitto/scoreboard.passwd
AUTOSTART_MARK="# scoreboard kiosk (kiosk/install.sh)"
# What the wheel is built from (pyproject.toml: packages, package-dir, readme,
# license-files). An allow-list, so nothing else of the checkout reaches /opt.
WHEEL_SOURCES=(pyproject.toml README.md LICENSE scoreboard themes)
# The launchers belong to the release (RELEASE/libexec/), so a rollback runs the older
# release's session script with its own board; /opt/scoreboard/bin links into current.
LAUNCHERS=(kiosk/scoreboard-session.sh kiosk/scoreboard-notify-relay.py)
export PIP_DISABLE_PIP_VERSION_CHECK=1
build_stage=
trap '[ -z "$build_stage" ] || rm -rf "$build_stage"' EXIT

# --- how steps are shown and done -----------------------------------------------
shown() { # the command as one readable line
    local out="" arg
    for arg in "$@"; do
        case $arg in "" | *[[:space:]\'\"\$\`\\]*) arg=$(printf '%q' "$arg") ;; esac
        out+="${out:+ }$arg"
    done
    printf '%s' "$out"
}
say() { printf '%s\n' "$*"; }
step() { # a change inside the install root
    say "+ $(shown "$@")"
    [ "$dry_run" = 1 ] || "$@"
}
host() { # a change outside the install root: apt, users, ownership, services
    if [ -n "$R" ]; then
        say "- skipped (--root): $(shown "$@")"
    else
        step "$@"
    fi
}
host_try() { # a host step whose failure is reported but does not stop the install
    if [ -n "$R" ] || [ "$dry_run" = 1 ]; then host "$@"; return 0; fi
    say "+ $(shown "$@")"
    "$@" || say "  (failed, carrying on: $(shown "$@"))"
}
systemd_running() { [ -z "$R" ] && [ -d /run/systemd/system ]; }

put_file() { # put_file MODE PATH SUMMARY <CONTENT: write PATH when its content or mode differs
    local mode=$1 path=$2 summary=$3 content
    content=$(cat; printf .)
    content=${content%.}
    if [ -f "$path" ] && [ "$(cat "$path"; printf .)" = "$content." ]; then
        if [ "$(stat -c %a "$path")" = "$mode" ]; then
            say "= $path unchanged"
            return 0
        fi
        step chmod "$mode" "$path"
        return 0
    fi
    say "+ write $path (mode $mode)${summary:+: $summary}"
    [ "$dry_run" = 1 ] && return 0
    mkdir -p "$(dirname "$path")"
    (umask 077 && printf '%s' "$content" >"$path.new") # a password is never readable on the way
    chmod "$mode" "$path.new"
    mv -f "$path.new" "$path"
}
put_copy() { # put_copy MODE SOURCE DEST
    if [ -f "$3" ] && cmp -s "$2" "$3" && [ "$(stat -c %a "$3")" = "$1" ]; then
        say "= $3 unchanged"
    else
        step install -D -m "$1" "$2" "$3"
    fi
}
make_dir() { # make_dir MODE PATH
    if [ -d "$2" ] && [ "$(stat -c %a "$2")" = "$1" ]; then return 0; fi
    step install -d -m "$1" "$2"
}
remove() { # remove PATH...: whatever of them exists
    local path
    for path in "$@"; do
        if [ -e "$path" ] || [ -L "$path" ]; then step rm -rf "$path"; fi
    done
}

# --- what the machine has -------------------------------------------------------
env_value() { # env_value KEY: from the previous environment file, unquoted
    [ -f "$ENV_FILE" ] || return 0
    local line value
    line=$(grep -E "^$1=" "$ENV_FILE" | tail -n 1) || return 0
    value=${line#*=}
    value=${value#\"}
    printf '%s' "${value%\"}"
}
display_manager() { # the enabled display manager's unit, or nothing
    local link=$R/etc/systemd/system/display-manager.service
    if [ -L "$link" ]; then
        basename "$(readlink "$link")"
    elif [ -e "$link" ]; then
        echo display-manager.service
    fi
}
passwd_field() { # passwd_field USER FIELD: from the root's passwd (getent on /)
    if [ -z "$R" ]; then
        getent passwd "$1" | cut -d: -f"$2"
    elif [ -f "$R/etc/passwd" ]; then
        awk -F: -v user="$1" -v field="$2" '$1 == user { print $field }' "$R/etc/passwd"
    fi
}
lightdm_autologin() {
    local conf=$R/etc/lightdm/lightdm.conf
    [ -f "$conf" ] || return 0
    sed -n 's/^autologin-user=\(.*\)/\1/p' "$conf" | tail -n 1
}
package_missing() { # package_missing PKG: true when dpkg does not have it installed
    local admin=$R/var/lib/dpkg
    [ -f "$admin/status" ] || return 0
    [ "$(dpkg-query --admindir="$admin" -W -f='${db:Status-Status}' "$1" 2>/dev/null)" != installed ]
}

refuse_desktop() { # refuse_desktop DM: the display manager would fight the kiosk for tty1
    fail 1 "a desktop is enabled ($1) and would fight the kiosk for the screen. Choose one: --disable-desktop (turns $1 off and boots to the console; the board then uses cage), or keep the desktop and run the board yourself; --display labwc works only on the Raspberry Pi OS desktop (LightDM with labwc)"
}

choose_display() { # sets way: the display way this run installs
    local wanted=${display_opt:-$(env_value SCOREBOARD_DISPLAY)} dm
    wanted=${wanted:-auto}
    dm=$(display_manager)
    [ "$disable_desktop" = 0 ] || dm=
    case $wanted in
        auto)
            if [ -z "$dm" ]; then
                way=cage
            elif [ "$dm" = lightdm.service ] && [ -x "$R/usr/bin/labwc" ]; then
                way=labwc
            else
                refuse_desktop "$dm"
            fi
            ;;
        labwc)
            { [ "$dm" = lightdm.service ] && [ -x "$R/usr/bin/labwc" ]; } ||
                fail 1 "--display labwc needs the Raspberry Pi OS desktop (LightDM running labwc); found display manager '${dm:-none}', labwc $([ -x "$R/usr/bin/labwc" ] && echo installed || echo missing). Without a desktop use --display cage"
            way=labwc
            ;;
        *)
            [ -z "$dm" ] || refuse_desktop "$dm"
            way=$wanted
            ;;
    esac
}

# --- packages, user -------------------------------------------------------------
packages_for() {
    local list=(python3 python3-venv)
    case $1 in
        # Debian's cage 0.1.4 refuses to start without Xwayland, yet does not depend on it.
        cage) list+=(cage xwayland) ;;
        x11) list+=(xserver-xorg-core xserver-xorg-input-libinput xserver-xorg-legacy xinit x11-xserver-utils) ;;
        kmsdrm) list+=(libgbm1 libegl1 libgles2) ;;
    esac
    [ "$mosquitto" = 0 ] || list+=(mosquitto mosquitto-clients)
    printf '%s\n' "${list[@]}"
}

install_packages() {
    local wanted missing=() pkg
    mapfile -t wanted < <(packages_for "$way")
    for pkg in "${wanted[@]}"; do
        if package_missing "$pkg"; then missing+=("$pkg"); fi
    done
    if [ ${#missing[@]} = 0 ]; then
        say "= packages present: ${wanted[*]}"
        return 0
    fi
    host apt-get update -qq
    host env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

ensure_user() {
    # dialout: a display that reads its card-reading shoe itself (feed: shoe, docs/shoes.md).
    local groups=(video render input dialout) group
    [ "$way" != x11 ] || groups+=(tty)
    # Under --root nothing can be looked up: every host step is shown.
    if [ -n "$R" ] || ! id scoreboard >/dev/null 2>&1; then
        host useradd --system --user-group --home-dir /var/lib/scoreboard --no-create-home \
            --shell /usr/sbin/nologin --comment "scoreboard kiosk" scoreboard
    fi
    for group in "${groups[@]}"; do
        if [ -z "$R" ] && ! getent group "$group" >/dev/null; then
            host groupadd --system "$group"
        fi
    done
    host usermod --append --groups "$(IFS=,; echo "${groups[*]}")" scoreboard
    # Only bare X opens the VT itself.
    if [ "$way" != x11 ] && { [ -n "$R" ] || id -nG scoreboard 2>/dev/null | grep -qw tty; }; then
        host_try gpasswd --delete scoreboard tty
    fi
}

# --- releases -------------------------------------------------------------------
release_key() { # what the release is made of: same key, same release
    {
        if [ -n "$offline" ]; then
            (cd "$offline" && sha256sum ./*.whl)
        else
            (cd "$src" && find "${WHEEL_SOURCES[@]}" -type f ! -name '*.pyc' ! -path '*/__pycache__/*' -print0 |
                LC_ALL=C sort -z | xargs -0 sha256sum)
        fi
        (cd "$src" && sha256sum "${LAUNCHERS[@]}")
    } | sha256sum | cut -c1-64
}
release_launchers() { # release_launchers DIR: the session script and the relay into DIR/libexec
    step install -D -m 755 "$src/kiosk/scoreboard-session.sh" "$1/libexec/scoreboard-session"
    step install -D -m 644 "$src/kiosk/scoreboard-notify-relay.py" "$1/libexec/scoreboard-notify-relay"
}
release_stamp() { # release_stamp NAME: its UTC time, for ordering (the version may be 0.10 or 0.9)
    printf '%s' "${1##*-}"
}
releases() { # complete releases, oldest first
    local dir
    [ -d "$OPT/releases" ] || return 0
    for dir in "$OPT"/releases/*/; do
        dir=${dir%/}
        [ -f "$dir/RELEASE" ] && printf '%s %s\n' "$(release_stamp "${dir##*/}")" "${dir##*/}"
    done | sort | cut -d' ' -f2
}
current_release() {
    local target
    target=$(readlink "$OPT/current" 2>/dev/null) || return 0
    printf '%s' "${target##*/}"
}
switch_current() { # switch_current NAME: atomically
    step ln -sfn "releases/$1" "$OPT/current.new"
    step mv -T "$OPT/current.new" "$OPT/current"
}

build_release() { # sets release: the release this run puts in use (new or kept)
    local key current wheel version name stage
    if [ -n "$offline" ]; then
        wheel=$(find "$offline" -maxdepth 1 -name 'scoreboard-*.whl' | sort -V | tail -n 1)
        [ -n "$wheel" ] || fail 1 "--offline $offline: no scoreboard-*.whl there (docs/deploy.md: Offline install)"
    fi
    key=$(release_key)
    current=$(current_release)
    if [ -n "$current" ] && grep -qx "key=$key" "$OPT/releases/$current/RELEASE" 2>/dev/null &&
        "$OPT/releases/$current/bin/python" -c 'import scoreboard' 2>/dev/null; then
        say "= release $current is up to date (same ${offline:+wheels}${offline:-source})"
        release=$current
        return 0
    fi
    if [ -n "$offline" ]; then
        version=${wheel##*/scoreboard-}
        version=${version%%-*}
    else
        version=$("$python" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' \
            "$src/pyproject.toml" 2>/dev/null) || fail 1 "cannot read project.version from $src/pyproject.toml with $python"
    fi
    name=$version-$(date -u +%Y%m%d%H%M%S)
    while [ -e "$OPT/releases/$name" ]; do
        sleep 1
        name=$version-$(date -u +%Y%m%d%H%M%S)
    done
    local rel=$OPT/releases/$name
    make_dir 755 "$OPT"
    make_dir 755 "$OPT/releases"
    step "$python" -m venv "$rel"
    if [ -n "$offline" ]; then
        step "$rel/bin/python" -m pip install --quiet --no-index --find-links "$offline" "$wheel"
    else
        if [ "$dry_run" = 1 ]; then
            stage="${TMPDIR:-/tmp}/scoreboard-install.XXXXXX"
        else
            stage=$(mktemp -d "${TMPDIR:-/tmp}/scoreboard-install.XXXXXX")
            build_stage=$stage
        fi
        local sources=() item
        for item in "${WHEEL_SOURCES[@]}"; do sources+=("$src/$item"); done
        step mkdir -p "$stage/src"
        step cp -R "${sources[@]}" "$stage/src/"
        # A fixed SOURCE_DATE_EPOCH: the same source makes the same wheel.
        step env SOURCE_DATE_EPOCH=315532800 "$rel/bin/python" -m pip wheel \
            --quiet --no-deps --wheel-dir "$stage/wheels" "$stage/src"
        wheel=$stage/wheels/scoreboard-$version-py3-none-any.whl
        step "$rel/bin/python" -m pip install --quiet "$wheel"
    fi
    if [ "$dry_run" = 0 ] && ! "$rel/bin/scoreboard" --help >/dev/null; then
        rm -rf "$rel"
        fail 1 "the new release $name does not start ($rel/bin/scoreboard --help failed); ${current:-nothing} stays in use"
    fi
    release_launchers "$rel"
    printf 'key=%s\nversion=%s\nfrom=%s\n' "$key" "$version" "${offline:-$src}" |
        put_file 644 "$rel/RELEASE" "the release is complete"
    switch_current "$name"
    release=$name
}

prune_releases() { # keep the one in use and the two newest others
    local name others=() keep=2 dir
    for dir in "$OPT"/releases/*/; do # a run that died half way left one without RELEASE
        [ -d "$dir" ] && [ ! -f "$dir/RELEASE" ] && remove "${dir%/}"
    done
    mapfile -t others < <(releases | grep -vx "$release" || true)
    local count=${#others[@]}
    for name in "${others[@]}"; do
        if [ "$count" -gt "$keep" ]; then remove "$OPT/releases/$name"; fi
        count=$((count - 1))
    done
}

# --- files ----------------------------------------------------------------------
install_launchers() {
    local session=$OPT/bin/scoreboard-session target=../current/libexec/scoreboard-session
    make_dir 755 "$OPT/bin"
    if [ ! -L "$session" ] || [ "$(readlink "$session")" != "$target" ]; then
        step ln -sfn "$target" "$session"
    fi
    remove "$OPT/bin/scoreboard-notify-relay" # an older installer's copy: the release has its own
    if [ "$(readlink "$BIN_LINK" 2>/dev/null)" != /opt/scoreboard/current/bin/scoreboard ]; then
        [ -d "$(dirname "$BIN_LINK")" ] || step mkdir -p "$(dirname "$BIN_LINK")"
        step ln -sfn /opt/scoreboard/current/bin/scoreboard "$BIN_LINK"
    fi
}

environment_text() {
    local rotate=$1
    printf '# Written by kiosk/install.sh on every run; change it with the installer\n'
    printf '# (--live/--demo/--lobby, --display, --rotate, --run-args, --demo-args, --lobby-args,\n'
    printf '# --bridge, --serial, --bridge-args), then it restarts the board.\n'
    printf 'SCOREBOARD_MODE=%s\n' "$mode"
    printf 'SCOREBOARD_DISPLAY=%s\n' "$way"
    case $way in
        cage) printf 'XDG_SESSION_TYPE=wayland\n' ;;
        x11) printf 'XDG_SESSION_TYPE=x11\n' ;;
        labwc) printf 'SCOREBOARD_DESKTOP_USER=%s\n' "$desktop_user" ;;
    esac
    [ "$rotate" = 0 ] || printf 'SCOREBOARD_ROTATE=%s\n' "$rotate"
    [ -z "$run_args" ] || printf 'SCOREBOARD_RUN_ARGS="%s"\n' "$run_args"
    [ -z "$demo_args" ] || printf 'SCOREBOARD_DEMO_ARGS="%s"\n' "$demo_args"
    [ -z "$lobby_args" ] || printf 'SCOREBOARD_LOBBY_ARGS="%s"\n' "$lobby_args"
    [ -z "$bridge" ] || printf 'SCOREBOARD_BRIDGE_SHOE=%s\nSCOREBOARD_BRIDGE_SERIAL="%s"\n' "$bridge" "$serial"
    [ -z "$bridge" ] || [ -z "$bridge_args" ] || printf 'SCOREBOARD_BRIDGE_ARGS="%s"\n' "$bridge_args"
}

kept_config() { # kept_config NAME [GROUP [LOCAL]]: /etc/scoreboard/NAME from kiosk/NAME, written
    # only when absent; LOCAL 1: the local broker has its account (default: --mosquitto given)
    local path=$ETC/$1 group=${2:-scoreboard} local=${3:-$mosquitto}
    if [ -f "$path" ]; then
        say "= $path kept"
        [ "$mosquitto" = 0 ] || say "  (check its mqtt.username and mqtt.password_file for the local broker)"
    else
        step install -m 640 "$src/kiosk/$1" "$path"
        if [ "$local" = 1 ]; then # the local broker asks for the account
            step sed -i -e 's|^  # username: |  username: |' \
                -e 's|^  # password_file: |  password_file: |' "$path"
        fi
    fi
    # Every run: a kept config or journal may carry the ids of a user removed by
    # --uninstall (its gid may since belong to another group).
    host chown "root:$group" "$path"
}

install_config() {
    local rotate
    make_dir 750 "$ETC"
    host chown root:scoreboard "$ETC"
    kept_config scoreboard.yaml
    if [ "$mode" = lobby ] || [ -f "$ETC/lobby.yaml" ]; then kept_config lobby.yaml; fi
    if [ "$rotate_given" = 1 ]; then rotate=$rotate_opt; else rotate=$(env_value SCOREBOARD_ROTATE); fi
    environment_text "${rotate:-0}" |
        put_file 640 "$ENV_FILE" "SCOREBOARD_MODE=$mode SCOREBOARD_DISPLAY=$way${rotate:+ SCOREBOARD_ROTATE=$rotate}${bridge:+ SCOREBOARD_BRIDGE_SHOE=$bridge}"
    host chown root:scoreboard "$ENV_FILE"
    make_dir 750 "$R/var/lib/scoreboard"
    host chown -R scoreboard:scoreboard "$R/var/lib/scoreboard"
}

install_xwrapper() {
    put_file 644 "$XWRAPPER" "X may start from the kiosk's service" <<'EOF'
# Written by kiosk/install.sh for the scoreboard's bare X server (scoreboard.service).
# xserver-xorg-legacy's wrapper reads this. X runs as the kiosk user with its devices
# from the unit's logind session on tty1: the unit forbids new privileges, so the
# wrapper never makes it root.
allowed_users=console
needs_root_rights=no
EOF
}

# --- mosquitto --------------------------------------------------------------------
mosquitto_conf_text() {
    local tls=0
    [ -f "$R/etc/mosquitto/certs/ca.crt" ] && [ -f "$R/etc/mosquitto/certs/broker.crt" ] &&
        [ -f "$R/etc/mosquitto/certs/broker.key" ] && tls=1
    # Debian's mosquitto.conf already sets persistence_location (a second one is an
    # error); the TLS listener stays commented until its certificates exist.
    awk -v tls="$tls" '
        /^persistence_location / { print "# " $0 "   (set by /etc/mosquitto/mosquitto.conf)"; next }
        /^listener 8883/ { in_tls = 1 }
        in_tls && !tls && /^[a-z]/ { print "#" $0; if ($1 == "require_certificate") in_tls = 0; next }
        in_tls && /^require_certificate/ { in_tls = 0 }
        { print }
    ' "$src/kiosk/mosquitto/mosquitto.conf"
}

new_secret() { head -c 18 /dev/urandom | base64 | tr -d '/+=\n'; }

mosquitto_account() { # mosquitto_account USER SECRET_FILE MODE OWNER
    local user=$1 file=$2 secret
    if [ -s "$file" ]; then
        say "= $file kept"
        secret=$(cat "$file")
    else
        secret=$(new_secret)
        printf '%s\n' "$secret" | put_file "$3" "$file" "a new random password for $user"
        host chown "$4" "$file"
    fi
    if [ -f "$MOSQ_PASSWD" ] && grep -q "^$user:" "$MOSQ_PASSWD"; then
        say "= $user is in $MOSQ_PASSWD"
        return 0
    fi
    local create=()
    [ -f "$MOSQ_PASSWD" ] || create=(-c)
    say "+ mosquitto_passwd ${create[*]} -b $MOSQ_PASSWD $user ********"
    if [ "$dry_run" = 0 ]; then
        command -v mosquitto_passwd >/dev/null || fail 1 "mosquitto_passwd is missing: apt-get install mosquitto"
        mosquitto_passwd "${create[@]}" -b "$MOSQ_PASSWD" "$user" "$secret"
    fi
}

# The lobby's id, as the board reads it from lobby.yaml (the hostname when it names none).
LOBBY_ID_CODE='
import sys
from scoreboard.settings.config import ConfigError
from scoreboard.lobby.settings import load_lobby_settings
try:
    print(load_lobby_settings(sys.argv[1]).lobby_id)
except ConfigError as error:
    sys.exit(f"install.sh: {error} (the lobby account is named after lobby.id)")
'
lobby_id() {
    local config=$ETC/lobby.yaml python=$OPT/current/bin/python
    [ -f "$config" ] || config=$src/kiosk/lobby.yaml
    if [ -x "$python" ]; then
        "$python" -c "$LOBBY_ID_CODE" "$config"
    else # a dry run before the first release: the sample's
        printf 'hall\n'
    fi
}

lobby_acl_text() { # lobby_acl_text ID: kiosk/mosquitto/acl, then lobby.acl's block for lobby ID
    cat "$src/kiosk/mosquitto/acl"
    printf '\n'
    sed -e "s|^user lobby-hall\$|user lobby-$1|" \
        -e "s|^topic write baccarat/v2/lobby/hall/status\$|topic write baccarat/v2/lobby/$1/status|" \
        "$src/kiosk/mosquitto/lobby.acl"
}

install_mosquitto() {
    local id
    mosquitto_conf_text | put_file 644 "$MOSQ_CONF" "one table (T1), no anonymous clients"
    if [ "$mode" = lobby ]; then
        if ! id=$(lobby_id); then exit 1; fi
        lobby_acl_text "$id" | put_file 644 "$MOSQ_ACL" "lobby-$id reads the tables, writes its status"
    else
        put_copy 644 "$src/kiosk/mosquitto/acl" "$MOSQ_ACL"
    fi
    make_dir 750 "$ETC"
    mosquitto_account controller-T1 "$ETC/controller.password" 600 root:root
    mosquitto_account display-T1-a "$ETC/mqtt.password" 640 root:scoreboard
    [ "$mode" != lobby ] || mosquitto_account "lobby-$id" "$ETC/lobby.password" 640 root:scoreboard
    [ "$dry_run" = 1 ] || [ ! -f "$MOSQ_PASSWD" ] || chmod 600 "$MOSQ_PASSWD"
    host chown mosquitto:mosquitto "$MOSQ_PASSWD"
    host systemctl enable mosquitto.service
    if systemd_running || [ -n "$R" ]; then host_try systemctl restart mosquitto.service; fi
}

# --- units ----------------------------------------------------------------------
autostart_path() { printf '%s/.config/labwc/autostart' "$R$(passwd_field "$desktop_user" 6)"; }

autostart_lines() { # the user's autostart without our line and without blanking (swayidle)
    local file=$1
    [ -f "$file" ] || return 0
    grep -vF "$AUTOSTART_MARK" "$file" | grep -v swayidle || true
}

set_autostart() { # set_autostart on|off
    local file content
    file=$(autostart_path)
    content=$(autostart_lines "$file")
    if [ "$1" = on ]; then
        if [ -f "$file" ] && grep -q swayidle "$file"; then
            say "  screen blanking off: the swayidle line leaves $file (as raspi-config nonint do_blanking 1 does)"
        fi
        content+="${content:+$'\n'}systemctl --user import-environment WAYLAND_DISPLAY XDG_RUNTIME_DIR && systemctl --user start scoreboard-desktop.service & $AUTOSTART_MARK"
    elif [ ! -f "$file" ] || ! grep -qF "$AUTOSTART_MARK" "$file"; then
        return 0
    else
        content=$(grep -vF "$AUTOSTART_MARK" "$file" || true)
        if [ -z "$content" ]; then # ours alone: without it the system autostart applies again
            remove "$file"
            return 0
        fi
    fi
    printf '%s\n' "$content" | put_file 644 "$file" "$([ "$1" = on ] && echo "starts scoreboard-desktop.service" || echo "without the scoreboard line")"
    host chown -R "$desktop_user:" "$(dirname "$file")"
}

user_systemctl() { # user_systemctl ARGS...: the desktop user's manager, when it runs
    if systemd_running || [ -n "$R" ] || [ "$dry_run" = 1 ]; then
        host_try systemctl --user --machine="$desktop_user@" "$@"
    fi
}

remove_system_unit() {
    [ -f "$SYSTEM_UNIT" ] || return 0
    if [ -n "$R" ]; then
        step systemctl --root="$R" disable scoreboard.service
    else
        host_try systemctl disable --now scoreboard.service
    fi
    remove "$SYSTEM_UNIT"
    if systemd_running; then host systemctl daemon-reload; fi
    host_try systemctl enable getty@tty1.service
}

remove_user_unit() {
    [ -f "$USER_UNIT" ] || return 0
    desktop_user=${desktop_user:-$previous_desktop_user}
    if [ -n "$desktop_user" ]; then
        user_systemctl stop scoreboard-desktop.service
        set_autostart off
    fi
    remove "$USER_UNIT"
}

install_system_unit() {
    remove_user_unit
    put_copy 644 "$src/kiosk/scoreboard.service" "$SYSTEM_UNIT"
    if [ -n "$R" ]; then
        step systemctl --root="$R" enable scoreboard.service
        host systemctl disable getty@tty1.service
        host systemctl restart scoreboard.service
        return 0
    fi
    if systemd_running || [ "$dry_run" = 1 ]; then host systemctl daemon-reload; fi
    host systemctl enable scoreboard.service
    host_try systemctl disable getty@tty1.service
    if systemd_running || [ "$dry_run" = 1 ]; then
        host systemctl restart scoreboard.service
    else
        say "  systemd is not running here: scoreboard.service starts at the next boot"
    fi
}

install_user_unit() {
    remove_system_unit
    put_copy 644 "$src/kiosk/scoreboard-desktop.service" "$USER_UNIT"
    host usermod --append --groups scoreboard "$desktop_user"
    set_autostart on
    user_systemctl daemon-reload
    user_systemctl restart scoreboard-desktop.service
    say "  the board starts with the desktop of $desktop_user (log in again once: the group scoreboard is new)"
}

disable_display_manager() {
    local dm
    dm=$(display_manager)
    [ -n "$dm" ] && [ "$disable_desktop" = 1 ] || return 0
    if [ -n "$R" ]; then
        step systemctl --root="$R" disable "$dm"
        step systemctl --root="$R" set-default multi-user.target
    else
        host systemctl disable "$dm"
        host systemctl set-default multi-user.target
        say "  $dm stays running until the next boot"
    fi
}

# --- the shoe bridge ----------------------------------------------------------------
choose_bridge() { # sets bridge, serial, bridge_args: the bridge this run installs (none: empty)
    bridge=${bridge_opt:-$(env_value SCOREBOARD_BRIDGE_SHOE)}
    serial=${serial_opt:-$(env_value SCOREBOARD_BRIDGE_SERIAL)}
    [ "$bridge_args_given" = 1 ] || bridge_args=$(env_value SCOREBOARD_BRIDGE_ARGS)
    if [ "$no_bridge" = 1 ]; then
        bridge='' serial='' bridge_args=''
    fi
    if [ -z "$bridge" ] && { [ -n "$serial_opt" ] || [ "$bridge_args_given" = 1 ]; }; then
        fail 2 "--serial and --bridge-args go with --bridge SHOE (no bridge is installed)"
    fi
    if [ -n "$bridge" ] && [ -z "$serial" ]; then
        fail 2 "--bridge $bridge needs --serial PATH (the shoe's device, best /dev/serial/by-id/...)"
    fi
    return 0
}

ensure_bridge_user() { # the bridge's own user: the serial devices (dialout), not the screen
    if [ -n "$R" ] || ! id scoreboard-bridge >/dev/null 2>&1; then
        host useradd --system --user-group --home-dir /var/lib/scoreboard-bridge --no-create-home \
            --shell /usr/sbin/nologin --comment "scoreboard shoe bridge" scoreboard-bridge
    fi
    if [ -z "$R" ] && ! getent group dialout >/dev/null; then
        host groupadd --system dialout
    fi
    host usermod --append --groups dialout,scoreboard scoreboard-bridge
}

controller_secret() { # controller_secret MODE OWNER: the local broker's controller password, if any
    local file=$ETC/controller.password
    [ -f "$file" ] || return 0
    host chown "$2" "$file"
    [ "$(stat -c %a "$file")" = "$1" ] || step chmod "$1" "$file"
}

install_bridge() {
    case $serial in
        /dev/ttyUSB* | /dev/ttyACM*)
            say "  $serial is named by the order the adapters were plugged in: after a reboot it may be another device; prefer its /dev/serial/by-id/... name (ls -l /dev/serial/by-id)" ;;
    esac
    if [ -z "$R" ] && [ ! -e "$serial" ]; then
        say "  $serial is not there now: the bridge waits for it (the table shows SHOE OFFLINE)"
    fi
    ensure_bridge_user
    local account=$mosquitto
    [ ! -f "$MOSQ_CONF" ] || [ ! -f "$ETC/controller.password" ] || account=1
    kept_config bridge.yaml scoreboard-bridge "$account"
    controller_secret 640 root:scoreboard-bridge # the controller account is the bridge's
    put_copy 644 "$src/kiosk/scoreboard-bridge.service" "$BRIDGE_UNIT"
    if [ "$mosquitto" = 1 ] || [ -f "$MOSQ_CONF" ]; then
        printf '# Written by kiosk/install.sh: the broker is on this machine.\n[Unit]\nWants=mosquitto.service\n' |
            put_file 644 "$BRIDGE_DROPIN/broker.conf" "the local broker starts with the bridge"
    else
        remove "$BRIDGE_DROPIN"
    fi
    if [ -n "$R" ]; then
        step systemctl --root="$R" enable scoreboard-bridge.service
        host systemctl restart scoreboard-bridge.service
        return 0
    fi
    if systemd_running || [ "$dry_run" = 1 ]; then host systemctl daemon-reload; fi
    host systemctl enable scoreboard-bridge.service
    if systemd_running || [ "$dry_run" = 1 ]; then
        host systemctl restart scoreboard-bridge.service
    else
        say "  systemd is not running here: scoreboard-bridge.service starts at the next boot"
    fi
}

remove_bridge() { # the service goes; its config and its journal stay
    [ -f "$BRIDGE_UNIT" ] || return 0
    if [ -n "$R" ]; then
        step systemctl --root="$R" disable scoreboard-bridge.service
    else
        host_try systemctl disable --now scoreboard-bridge.service
    fi
    remove "$BRIDGE_UNIT" "$BRIDGE_DROPIN"
    if systemd_running; then host systemctl daemon-reload; fi
    controller_secret 600 root:root
}

# --- actions --------------------------------------------------------------------
restart_board() {
    local display
    display=$(env_value SCOREBOARD_DISPLAY)
    if [ "$display" = labwc ]; then
        desktop_user=$previous_desktop_user
        user_systemctl restart scoreboard-desktop.service
    elif [ -n "$R" ] || systemd_running || [ "$dry_run" = 1 ]; then
        host systemctl restart scoreboard.service
    fi
    if [ -f "$BRIDGE_UNIT" ] && { [ -n "$R" ] || systemd_running || [ "$dry_run" = 1 ]; }; then
        host systemctl restart scoreboard-bridge.service
    fi
}

do_install() {
    mode=${mode:-$(env_value SCOREBOARD_MODE)}
    if [ -z "$mode" ] && [ "$(env_value SCOREBOARD_COMMAND)" = demo ]; then mode=demo; fi # the old installer's file
    mode=${mode:-live}
    [ "$run_args_given" = 1 ] || run_args=$(env_value SCOREBOARD_RUN_ARGS)
    [ "$demo_args_given" = 1 ] || demo_args=$(env_value SCOREBOARD_DEMO_ARGS)
    [ "$lobby_args_given" = 1 ] || lobby_args=$(env_value SCOREBOARD_LOBBY_ARGS)
    choose_display
    choose_bridge
    if [ "$way" = labwc ]; then
        desktop_user=${desktop_user:-$previous_desktop_user}
        desktop_user=${desktop_user:-$(lightdm_autologin)}
        if [ -z "$desktop_user" ] && [ "${SUDO_USER:-root}" != root ]; then desktop_user=$SUDO_USER; fi
        [ -n "$desktop_user" ] || fail 1 "--display labwc: whose desktop? Name it with --desktop-user USER"
        [ -n "$(passwd_field "$desktop_user" 6)" ] || fail 1 "--desktop-user $desktop_user: no such user"
    fi
    say "scoreboard: installing into ${R:-/} (mode $mode, display $way)$([ "$dry_run" = 0 ] || echo ': dry run, nothing is changed')"
    install_packages
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null ||
        [ "$dry_run" = 1 ] || fail 1 "$python is missing or older than 3.11: the board needs Python 3.11+"
    ensure_user
    build_release
    prune_releases
    install_launchers
    install_config
    [ "$way" != x11 ] || install_xwrapper
    if [ "$mosquitto" = 1 ]; then
        install_mosquitto
    elif [ "$mode" = lobby ] && [ -f "$MOSQ_CONF" ] && [ ! -f "$ETC/lobby.password" ]; then
        say "  the local broker has no account for the lobby yet: re-run with --lobby --mosquitto"
    fi
    disable_display_manager
    if [ "$way" = labwc ]; then install_user_unit; else install_system_unit; fi
    if [ -n "$bridge" ]; then install_bridge; else remove_bridge; fi
    if [ "$way" = labwc ]; then
        say "scoreboard: release $release in use; logs: journalctl --user -u scoreboard-desktop -f (as $desktop_user)"
    else
        say "scoreboard: release $release in use; logs: journalctl -u scoreboard -f"
    fi
    [ -z "$bridge" ] || say "scoreboard: the $bridge bridge reads $serial; logs: journalctl -u scoreboard-bridge -f"
}

do_rollback() {
    local current previous
    current=$(current_release)
    [ -n "$current" ] || fail 1 "nothing installed in $OPT to roll back"
    previous=$(releases | grep -B1 -x "$current" | head -n 1)
    { [ -n "$previous" ] && [ "$previous" != "$current" ]; } ||
        fail 1 "no release older than $current in $OPT/releases to roll back to"
    if [ ! -x "$OPT/releases/$previous/libexec/scoreboard-session" ]; then
        say "  $previous predates its own launchers: it gets this checkout's"
        release_launchers "$OPT/releases/$previous"
    fi
    switch_current "$previous"
    restart_board
    say "scoreboard: rolled back from $current to $previous"
}

do_uninstall() {
    say "scoreboard: removing from ${R:-/} (the journals in $R/var/lib/scoreboard and $R/var/lib/scoreboard-bridge stay)"
    remove_user_unit
    remove_system_unit
    remove_bridge
    if [ -f "$XWRAPPER" ] && grep -q 'kiosk/install.sh' "$XWRAPPER"; then remove "$XWRAPPER"; fi
    if [ -f "$MOSQ_CONF" ]; then
        remove "$MOSQ_CONF" "$MOSQ_ACL" "$MOSQ_PASSWD"
        if systemd_running || [ -n "$R" ] || [ "$dry_run" = 1 ]; then host_try systemctl restart mosquitto.service; fi
    fi
    if [ "$(readlink "$BIN_LINK" 2>/dev/null)" = /opt/scoreboard/current/bin/scoreboard ]; then remove "$BIN_LINK"; fi
    remove "$OPT"
    if [ -d "$ETC" ]; then
        local item
        for item in "$ETC"/* "$ETC"/.[!.]*; do
            [ -e "$item" ] || continue
            case ${item##*/} in scoreboard.yaml | lobby.yaml | bridge.yaml) [ "$purge" = 1 ] || continue ;; esac
            remove "$item"
        done
        if [ "$purge" = 1 ]; then remove "$ETC"; fi
    fi
    if [ -n "$R" ] || [ "$dry_run" = 1 ] || id scoreboard-bridge >/dev/null 2>&1; then
        host_try userdel scoreboard-bridge
    fi
    if [ -n "$R" ] || [ "$dry_run" = 1 ] || getent group scoreboard-bridge >/dev/null; then
        host_try groupdel scoreboard-bridge
    fi
    if [ -n "$R" ] || [ "$dry_run" = 1 ] || id scoreboard >/dev/null 2>&1; then
        host_try userdel scoreboard
    fi
    if [ -n "$R" ] || [ "$dry_run" = 1 ] || getent group scoreboard >/dev/null; then
        host_try groupdel scoreboard
    fi
    say "scoreboard: removed; kept $R/var/lib/scoreboard$([ "$purge" = 1 ] || echo " and the configs in $ETC")"
}

# Read before this run rewrites the environment file: whose desktop had the board.
previous_desktop_user=$(env_value SCOREBOARD_DESKTOP_USER)
case $action in
    install) do_install ;;
    rollback) do_rollback ;;
    uninstall) do_uninstall ;;
esac
