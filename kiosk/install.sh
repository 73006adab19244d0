#!/usr/bin/env bash
# Install the scoreboard kiosk on a Debian or Ubuntu machine (run as root):
#   sudo kiosk/install.sh            # live display driven by the shoe controller
#   sudo kiosk/install.sh --demo     # trade-show demo on a simulated shoe
# Idempotent: re-running upgrades the code and keeps the config and the journal.
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "run as root (sudo $0)" >&2; exit 1; }
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
demo=0
[ "${1:-}" = "--demo" ] && demo=1

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    python3 python3-venv xserver-xorg-core xserver-xorg-video-all xinit x11-xserver-utils

id scoreboard >/dev/null 2>&1 || useradd --system --create-home --home-dir /var/lib/scoreboard \
    --groups video,input,tty --shell /usr/sbin/nologin scoreboard

install -d /opt/scoreboard
cp -a "$source_dir/." /opt/scoreboard/
rm -rf /opt/scoreboard/.git
[ -x /opt/scoreboard/.venv/bin/python ] || python3 -m venv /opt/scoreboard/.venv
/opt/scoreboard/.venv/bin/pip install --quiet --upgrade pip
/opt/scoreboard/.venv/bin/pip install --quiet /opt/scoreboard
chmod 755 /opt/scoreboard/kiosk/scoreboard-session.sh

install -d -m 750 -o root -g scoreboard /etc/scoreboard
[ -f /etc/scoreboard/scoreboard.yaml ] || \
    install -m 640 -o root -g scoreboard "$source_dir/kiosk/scoreboard.yaml" /etc/scoreboard/
if [ "$demo" = 1 ]; then
    echo 'SCOREBOARD_COMMAND=demo' > /etc/scoreboard/environment
fi
# Xorg started from a service needs permission to open the console.
printf 'allowed_users=anybody\nneeds_root_rights=yes\n' > /etc/X11/Xwrapper.config

install -m 644 "$source_dir/kiosk/scoreboard.service" /etc/systemd/system/scoreboard.service
systemctl daemon-reload
systemctl enable scoreboard.service
systemctl restart scoreboard.service
echo "scoreboard installed; logs: journalctl -u scoreboard -f"
