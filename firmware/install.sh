#!/usr/bin/env bash
# Set up the table banker on a Raspberry Pi (Raspberry Pi OS Bookworm or Trixie; Pi 3, 4, 5, Zero 2 W).
#
#   sudo ./firmware/install.sh            # from the project's directory on the Pi
#
# It enables SPI and I2C (400 kHz), installs the build tools and lgpio from apt, creates a venv with
# the system's packages visible, installs the project into it, creates the service user "banker" in
# the spi, i2c and gpio groups, writes /etc/table-banker/table.toml (only if it is missing) and
# installs, enables and (re)starts the systemd unit table-banker.service. Running it again upgrades
# the program in place; the settings and the games in /var/lib/table-banker are kept.
#
# Run with --help for the options. --root DIR and --dry-run are for testing the script: every file
# goes under DIR and every command is printed instead of run.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: sudo firmware/install.sh [options]

  --user NAME          the service user (default: banker)
  --prefix DIR         where the program goes (default: /opt/table-banker)
  --spi1 2cs|3cs       also enable SPI1 for readers 2 and 3 (2cs) or 2, 3 and 4 (3cs)
  --hotspot SSID PASS  make a Wi-Fi hotspot for places without Wi-Fi (NetworkManager); the Pi
                       falls back to it when no known Wi-Fi is in range
  --port N             the phone page's port written to a new table.toml (default: 8080)
  --language en|ru|bg  the table's language written to a new table.toml (default: en)
  --no-service         install the program but do not install or start the systemd unit
  --force              go on on an unknown OS release or a machine that is not a Raspberry Pi
  --root DIR           write every file under DIR (for testing)
  --dry-run            print the commands instead of running them (for testing)
  -h, --help           this text
USAGE
}

SERVICE_USER=banker
PREFIX=/opt/table-banker
SPI1=""
HOTSPOT_SSID=""
HOTSPOT_PASSWORD=""
PORT=8080
LANGUAGE=en
SERVICE=1
FORCE=0
ROOT=""
DRY_RUN=0

die() {
    echo "install.sh: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --user) [ $# -ge 2 ] || die "--user needs a name"; SERVICE_USER="$2"; shift 2 ;;
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX="$2"; shift 2 ;;
        --spi1)
            [ $# -ge 2 ] || die "--spi1 needs 2cs or 3cs"
            case "$2" in 2cs | 3cs) SPI1="$2" ;; *) die "--spi1 is 2cs or 3cs, not '$2'" ;; esac
            shift 2 ;;
        --hotspot)
            [ $# -ge 3 ] || die "--hotspot needs an SSID and a password"
            HOTSPOT_SSID="$2"; HOTSPOT_PASSWORD="$3"
            [ "${#HOTSPOT_PASSWORD}" -ge 8 ] || die "the hotspot password needs at least 8 characters (WPA2)"
            shift 3 ;;
        --port)
            [ $# -ge 2 ] || die "--port needs a number"
            case "$2" in '' | *[!0-9]*) die "--port is a number, not '$2'" ;; esac
            if [ "$2" -lt 1 ] || [ "$2" -gt 65535 ]; then die "--port is 1-65535, not $2"; fi
            PORT="$2"; shift 2 ;;
        --language)
            [ $# -ge 2 ] || die "--language needs en, ru or bg"
            case "$2" in en | ru | bg) LANGUAGE="$2" ;; *) die "--language is en, ru or bg, not '$2'" ;; esac
            shift 2 ;;
        --no-service) SERVICE=0; shift ;;
        --force) FORCE=1; shift ;;
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT="${2%/}"; shift 2 ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option '$1'" ;;
    esac
done

case "$SERVICE_USER" in '' | *[!a-z0-9_-]*) die "--user is a lower-case name, not '$SERVICE_USER'" ;; esac
case "$PREFIX" in /*) ;; *) die "--prefix must be an absolute path, not '$PREFIX'" ;; esac

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$PREFIX/venv"
CONFIG_DIR=/etc/table-banker
CONFIG="$CONFIG_DIR/table.toml"
STATE_DIR=/var/lib/table-banker
UNIT=/etc/systemd/system/table-banker.service
BOOT_CONFIG=/boot/firmware/config.txt

say() { echo "== $*"; }

# Run a command, or print it with --dry-run.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        echo "+ $*"
    else
        "$@"
    fi
}

# ---- where are we --------------------------------------------------------------------------------
if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    die "run it as root: sudo $0"
fi
if [ ! -f "$SOURCE/pyproject.toml" ] || [ ! -d "$SOURCE/hardware" ]; then
    die "run it from the project: $SOURCE has no pyproject.toml"
fi

CODENAME=unknown
if [ -r "$ROOT/etc/os-release" ]; then
    CODENAME="$(sed -n 's/^VERSION_CODENAME=//p' "$ROOT/etc/os-release" | tr -d '"')"
    CODENAME="${CODENAME:-unknown}"
fi
case "$CODENAME" in
    bookworm | trixie) ;;
    *)
        [ "$FORCE" = 1 ] || die "this is '$CODENAME'; the script knows Raspberry Pi OS bookworm and trixie (--force to go on)"
        echo "install.sh: '$CODENAME' is not bookworm or trixie; going on (--force)" >&2 ;;
esac
MODEL="$(tr -d '\0' < "$ROOT/proc/device-tree/model" 2>/dev/null || true)"
case "$MODEL" in
    "Raspberry Pi"*) say "$MODEL, $CODENAME" ;;
    *)
        [ "$FORCE" = 1 ] || die "not a Raspberry Pi ('${MODEL:-no /proc/device-tree/model}'; --force to go on)"
        say "not a Raspberry Pi ('${MODEL:-unknown}'); going on (--force)" ;;
esac
[ -f "$ROOT$BOOT_CONFIG" ] || [ "$DRY_RUN" = 1 ] || die "$BOOT_CONFIG is missing: this script needs Raspberry Pi OS Bookworm or later"

# ---- SPI, I2C ------------------------------------------------------------------------------------
say "enabling SPI and I2C"
run raspi-config nonint do_spi 0
run raspi-config nonint do_i2c 0

# Append a line to config.txt unless it is there; comments go on lines of their own.
boot_line() {
    local line="$1" comment="$2" file="$ROOT$BOOT_CONFIG"
    mkdir -p "$(dirname "$file")"
    touch "$file"
    if ! grep -qxF "$line" "$file"; then
        printf '# %s\n%s\n' "$comment" "$line" >> "$file"
        REBOOT=1
    fi
}
REBOOT=0
boot_line "dtparam=i2c_arm_baudrate=400000" "table banker: a full OLED frame in about 25 ms instead of 95 ms"
if [ -n "$SPI1" ]; then
    other=$([ "$SPI1" = 2cs ] && echo 3cs || echo 2cs)
    if grep -qxF "dtoverlay=spi1-$other" "$ROOT$BOOT_CONFIG"; then
        echo "install.sh: $BOOT_CONFIG already has dtoverlay=spi1-$other; remove it for spi1-$SPI1" >&2
    fi
    boot_line "dtoverlay=spi1-$SPI1" "table banker: NFC readers on SPI1"
fi

# ---- packages ------------------------------------------------------------------------------------
say "installing packages"
export DEBIAN_FRONTEND=noninteractive
run apt-get update
# lgpio from apt: pip has no lgpio wheel for Python 3.13 (trixie). python3-dev and build-essential
# build spidev; the -dev libraries let Pillow build if no wheel fits.
run apt-get install -y --no-install-recommends python3-venv python3-dev python3-pip build-essential \
    python3-lgpio liblgpio-dev swig i2c-tools libjpeg-dev zlib1g-dev libfreetype-dev libopenjp2-7 git rsync

# ---- the user ------------------------------------------------------------------------------------
say "service user $SERVICE_USER"
if ! grep -q "^$SERVICE_USER:" "$ROOT/etc/passwd" 2>/dev/null; then
    run useradd --system --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in spi i2c gpio; do
    if ! grep -q "^$group:" "$ROOT/etc/group" 2>/dev/null; then
        run groupadd --system "$group"
    fi
done
run usermod -aG spi,i2c,gpio "$SERVICE_USER"

# ---- the program ---------------------------------------------------------------------------------
say "installing the program into $VENV"
mkdir -p "$ROOT$PREFIX"
run rsync -a --delete --exclude .git --exclude .venv --exclude .table-data "$SOURCE/" "$PREFIX/src/"
if [ ! -x "$ROOT$VENV/bin/python" ]; then
    # The system's packages stay visible: python3-lgpio from apt. A system-wide pip install is
    # refused on Bookworm (externally-managed-environment), so everything else goes in here.
    run python3 -m venv --system-site-packages "$VENV"
fi
PIP=("$VENV/bin/python" -m pip)
run "${PIP[@]}" install --upgrade pip
# rpi-lgpio is RPi.GPIO on the kernel's GPIO device, on every model (RPi.GPIO itself fails on a Pi 5);
# lgpio is the apt package. mfrc522 without its dependencies, or pip pulls RPi.GPIO back in.
run "${PIP[@]}" install spidev==3.8 rpi-lgpio==0.6
run "${PIP[@]}" install --no-deps mfrc522==0.0.7
run "${PIP[@]}" install --upgrade "$PREFIX/src"
# The same version number again is still a new build: reinstall the project itself.
run "${PIP[@]}" install --no-deps --force-reinstall "$PREFIX/src"

# ---- settings ------------------------------------------------------------------------------------
mkdir -p "$ROOT$CONFIG_DIR"
if [ -f "$ROOT$CONFIG" ]; then
    say "keeping $CONFIG"
else
    say "writing $CONFIG"
    cat > "$ROOT$CONFIG" <<TOML
# The table banker's settings (see firmware/config.py and hardware/README.md).
[table]
language = "$LANGUAGE"
data_dir = "$STATE_DIR"
host = "0.0.0.0"
port = $PORT

[hardware]
# readers = [{bus = 0, device = 0, rst_pin = 25}, {bus = 0, device = 1, rst_pin = 25}]
# display = {chip = "sh1106", address = 0x3C}
# controls = {ok = 5, cancel = 6, up = 13, down = 26, buzzer = 12}
TOML
fi

# ---- Wi-Fi hotspot -------------------------------------------------------------------------------
if [ -n "$HOTSPOT_SSID" ]; then
    say "Wi-Fi hotspot '$HOTSPOT_SSID' (used when no known Wi-Fi is in range)"
    run nmcli connection delete table-hotspot || true
    run nmcli connection add type wifi ifname wlan0 con-name table-hotspot autoconnect yes \
        ssid "$HOTSPOT_SSID" 802-11-wireless.mode ap 802-11-wireless.band bg ipv4.method shared \
        wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$HOTSPOT_PASSWORD" connection.autoconnect-priority -10
    cat > "$ROOT$CONFIG_DIR/hotspot.env" <<ENV
HOTSPOT_SSID=$HOTSPOT_SSID
HOTSPOT_PASSWORD=$HOTSPOT_PASSWORD
ENV
    chmod 600 "$ROOT$CONFIG_DIR/hotspot.env"
fi

# ---- the service ---------------------------------------------------------------------------------
if [ "$SERVICE" = 1 ]; then
    say "installing $UNIT"
    mkdir -p "$(dirname "$ROOT$UNIT")"
    sed -e "s|/opt/table-banker|$PREFIX|g" -e "s|^User=banker|User=$SERVICE_USER|" -e "s|^Group=banker|Group=$SERVICE_USER|" \
        "$SOURCE/firmware/table-banker.service" > "$ROOT$UNIT"
    run systemctl daemon-reload
    run systemctl enable table-banker.service
    if [ "$REBOOT" = 1 ]; then
        say "SPI/I2C settings changed: reboot (sudo reboot); the table starts by itself afterwards"
    else
        run systemctl restart table-banker.service
    fi
fi

say "done. Next: sudo reboot if asked above, then the bring-up checklist (hardware/README.md): banker check"
