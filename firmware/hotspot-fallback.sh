#!/usr/bin/env bash
# Start the table's own Wi-Fi (the NetworkManager connection table-hotspot) only when no known Wi-Fi
# has connected within a wait after boot: at home the table joins the home Wi-Fi as any device does,
# elsewhere the phones join the table's. Run once at boot by table-hotspot.service:
#
#   hotspot-fallback.sh [SECONDS]      # default 60
set -euo pipefail

WAIT="${1:-60}"
case "$WAIT" in '' | *[!0-9]*) echo "hotspot-fallback.sh: the wait is whole seconds, not '$WAIT'" >&2; exit 2 ;; esac

# A Wi-Fi connection other than the hotspot is up (nmcli -t prints TYPE:NAME:STATE, e.g.
# 802-11-wireless:Home:activated). One still "activating" does not count: it may never connect.
known_wifi_up() {
    nmcli -t -f TYPE,NAME,STATE connection show --active 2>/dev/null |
        grep '^802-11-wireless:.*:activated$' | grep -qv '^802-11-wireless:table-hotspot:'
}

for _ in $(seq "$WAIT"); do
    if known_wifi_up; then
        echo "a known Wi-Fi is connected: no hotspot"
        exit 0
    fi
    sleep 1
done
if known_wifi_up; then
    echo "a known Wi-Fi is connected: no hotspot"
    exit 0
fi
echo "no known Wi-Fi connected in ${WAIT} s: starting the table's own Wi-Fi"
exec nmcli connection up table-hotspot
