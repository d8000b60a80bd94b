#!/usr/bin/env bash
# Set up the table banker on a Raspberry Pi (Raspberry Pi OS Bookworm or Trixie; Pi 3, 4, 5, Zero 2 W).
#
#   sudo ./firmware/install.sh            # from the project's directory on the Pi
#
# It enables SPI and I2C (400 kHz), installs the build tools and lgpio from apt, creates a venv with
# the system's packages visible, installs the project into it, creates the service user "banker" in
# the spi, i2c and gpio groups, writes /etc/table-banker/table.toml (only if it is missing) and
# installs, enables and (re)starts the systemd unit table-banker.service. With --speaker it also
# installs espeak-ng and aplay (alsa-utils), puts the user in the audio group and, for an I2S amplifier,
# turns on its overlay. Running it again upgrades
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
  --spi1 2cs|3cs       four readers (0-3) instead of two: also enable SPI1 and write the matching
                       readers line to a new table.toml. 2cs: readers 0 and 1 on SPI0 (CE0, CE1),
                       2 and 3 on SPI1 (CE0 GPIO18, CE1 GPIO17). 3cs: reader 0 alone on SPI0,
                       1, 2 and 3 on SPI1 (CE0 GPIO18, CE1 GPIO17, CE2 GPIO16), for readers that
                       do not share a MISO line well (hardware/README.md)
  --i2c-hz 400000|1000000
                       the I2C clock for the OLED (default 400000, what the SSD1306 and SH1106 are
                       specified for); 1000000 sends a frame in about 10 ms instead of 24 ms but
                       is outside the controllers' specification: use it only if the picture stays
                       clean (hardware/README.md)
  --hotspot SSID PASS  make a Wi-Fi hotspot for places without Wi-Fi (NetworkManager): at boot the
                       Pi waits HOTSPOT_WAIT seconds (60) for a known Wi-Fi, and only if none
                       connects it starts the hotspot. Running it again changes the hotspot in place
                       (an active one comes back up at once)
  --country CC         the Wi-Fi country (two letters, e.g. GB, DE, BG): an access point does not
                       start without one; needed with --hotspot when none is set yet
  --speaker jack|usb|i2s
                       the table speaks each action: install espeak-ng and alsa-utils, add the
                       service user to the audio group and write the speaker line to a new
                       table.toml. jack: the 3.5 mm jack of a Pi 3/4 (dtparam=audio=on); usb: a
                       USB speaker; i2s: a MAX98357A amplifier (dtoverlay=max98357a,no-sdmode; it
                       takes GPIO 18-21, so not with --spi1) (hardware/README.md)
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
I2C_HZ=400000
HOTSPOT_WAIT=60
HOTSPOT_SSID=""
HOTSPOT_PASSWORD=""
COUNTRY=""
PORT=8080
LANGUAGE=en
SPEAKER=""
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
        --i2c-hz)
            [ $# -ge 2 ] || die "--i2c-hz needs 400000 or 1000000"
            case "$2" in 400000 | 1000000) I2C_HZ="$2" ;; *) die "--i2c-hz is 400000 or 1000000, not '$2'" ;; esac
            shift 2 ;;
        --hotspot)
            [ $# -ge 3 ] || die "--hotspot needs an SSID and a password"
            HOTSPOT_SSID="$2"; HOTSPOT_PASSWORD="$3"
            [ "${#HOTSPOT_PASSWORD}" -ge 8 ] || die "the hotspot password needs at least 8 characters (WPA2)"
            shift 3 ;;
        --country)
            [ $# -ge 2 ] || die "--country needs a two-letter code such as GB"
            case "$2" in [A-Z][A-Z]) COUNTRY="$2" ;; *) die "--country is two capital letters such as GB, not '$2'" ;; esac
            shift 2 ;;
        --port)
            [ $# -ge 2 ] || die "--port needs a number"
            case "$2" in '' | *[!0-9]*) die "--port is a number, not '$2'" ;; esac
            if [ "$2" -lt 1 ] || [ "$2" -gt 65535 ]; then die "--port is 1-65535, not $2"; fi
            PORT="$2"; shift 2 ;;
        --language)
            [ $# -ge 2 ] || die "--language needs en, ru or bg"
            case "$2" in en | ru | bg) LANGUAGE="$2" ;; *) die "--language is en, ru or bg, not '$2'" ;; esac
            shift 2 ;;
        --speaker)
            [ $# -ge 2 ] || die "--speaker needs jack, usb or i2s"
            case "$2" in jack | usb | i2s) SPEAKER="$2" ;; *) die "--speaker is jack, usb or i2s, not '$2'" ;; esac
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
if [ "$SPEAKER" = i2s ] && [ -n "$SPI1" ]; then
    die "--speaker i2s takes GPIO 18-21, which SPI1's readers use: choose --speaker usb or jack, or two readers"
fi

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$PREFIX/venv"
CONFIG_DIR=/etc/table-banker
CONFIG="$CONFIG_DIR/table.toml"
STATE_DIR=/var/lib/table-banker
UNIT=/etc/systemd/system/table-banker.service
HOTSPOT_UNIT=/etc/systemd/system/table-hotspot.service
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
MODEL="$(tr -d '\0' 2>/dev/null < "$ROOT/proc/device-tree/model" || true)"
case "$MODEL" in
    "Raspberry Pi"*) say "$MODEL, $CODENAME" ;;
    *)
        [ "$FORCE" = 1 ] || die "not a Raspberry Pi ('${MODEL:-no /proc/device-tree/model}'; --force to go on)"
        say "not a Raspberry Pi ('${MODEL:-unknown}'); going on (--force)" ;;
esac
[ -f "$ROOT$BOOT_CONFIG" ] || [ "$DRY_RUN" = 1 ] || die "$BOOT_CONFIG is missing: this script needs Raspberry Pi OS Bookworm or later"
# The I2S amplifier and SPI1's readers both take GPIO 18-21: refused together, in one run or across two.
if [ "$SPEAKER" = i2s ] && grep -qE '^[[:space:]]*dtoverlay=spi1-' "$ROOT$BOOT_CONFIG" 2>/dev/null; then
    die "--speaker i2s takes GPIO 18-21, which the SPI1 readers an earlier run set up use ($BOOT_CONFIG has dtoverlay=spi1-…): choose --speaker usb or jack"
fi
if [ -n "$SPI1" ] && grep -qE '^[[:space:]]*dtoverlay=max98357a' "$ROOT$BOOT_CONFIG" 2>/dev/null; then
    die "--spi1 takes GPIO 18-21, which the I2S amplifier an earlier run set up uses ($BOOT_CONFIG has dtoverlay=max98357a): keep two readers, or remove that line and the speaker"
fi

# ---- SPI, I2C ------------------------------------------------------------------------------------
say "enabling SPI and I2C"
run raspi-config nonint do_spi 0
run raspi-config nonint do_i2c 0

# Append a line to config.txt unless it is there; comments go on lines of their own. A line after a
# conditional section ([pi4], [cm4], ...) would apply to that model only: the lines go under [all].
boot_line() {
    local line="$1" comment="$2" file="$ROOT$BOOT_CONFIG" section
    mkdir -p "$(dirname "$file")"
    touch "$file"
    if ! grep -qxF "$line" "$file"; then
        section="$(grep -E '^[[:space:]]*\[[^]]*\]' "$file" | tail -n 1 | tr -d '[:space:]' || true)"
        if [ -n "$section" ] && [ "$section" != "[all]" ]; then
            printf '[all]\n' >> "$file"
        fi
        printf '# %s\n%s\n' "$comment" "$line" >> "$file"
        REBOOT=1
    fi
}
REBOOT=0
# A run that changed config.txt leaves the boot's id behind: a run again before the reboot still says to reboot.
REBOOT_MARK="$CONFIG_DIR/reboot-needed"
BOOT_ID="$(cat "$ROOT/proc/sys/kernel/random/boot_id" 2>/dev/null || echo unknown)"
other_hz=$([ "$I2C_HZ" = 400000 ] && echo 1000000 || echo 400000)
if grep -qxF "dtparam=i2c_arm_baudrate=$other_hz" "$ROOT$BOOT_CONFIG" 2>/dev/null; then
    echo "install.sh: $BOOT_CONFIG already has dtparam=i2c_arm_baudrate=$other_hz; remove it for $I2C_HZ" >&2
fi
if [ "$I2C_HZ" = 400000 ]; then
    boot_line "dtparam=i2c_arm_baudrate=400000" "table banker: a full OLED frame in about 24 ms instead of 95 ms"
else
    boot_line "dtparam=i2c_arm_baudrate=1000000" "table banker: a full OLED frame in about 10 ms (outside the OLED's 400 kHz specification)"
fi
if [ -n "$SPI1" ]; then
    other=$([ "$SPI1" = 2cs ] && echo 3cs || echo 2cs)
    if grep -qxF "dtoverlay=spi1-$other" "$ROOT$BOOT_CONFIG"; then
        echo "install.sh: $BOOT_CONFIG already has dtoverlay=spi1-$other; remove it for spi1-$SPI1" >&2
    fi
    boot_line "dtoverlay=spi1-$SPI1" "table banker: NFC readers on SPI1"
fi
case "$SPEAKER" in
    jack) boot_line "dtparam=audio=on" "table banker: the speaker on the 3.5 mm jack" ;;
    i2s)
        boot_line "dtparam=i2s=on" "table banker: the speaker's I2S amplifier"
        boot_line "dtoverlay=max98357a,no-sdmode" "table banker: MAX98357A on GPIO 18 (BCLK), 19 (LRCLK), 21 (DIN)" ;;
esac

mkdir -p "$ROOT$CONFIG_DIR"
if [ "$REBOOT" = 1 ]; then
    echo "$BOOT_ID" > "$ROOT$REBOOT_MARK"
elif [ -f "$ROOT$REBOOT_MARK" ]; then
    if [ "$(cat "$ROOT$REBOOT_MARK")" = "$BOOT_ID" ]; then
        REBOOT=1  # changed by an earlier run, and the Pi has not started again since
    else
        rm -f "$ROOT$REBOOT_MARK"
    fi
fi

# ---- packages ------------------------------------------------------------------------------------
say "installing packages"
export DEBIAN_FRONTEND=noninteractive
run apt-get update
# lgpio from apt: pip has no lgpio wheel for Python 3.13 (trixie). python3-dev and build-essential
# build spidev; the -dev libraries let Pillow build if no wheel fits. polkitd: the rule below that lets
# the service user switch the Pi off.
PACKAGES=(python3-venv python3-dev python3-pip build-essential python3-lgpio liblgpio-dev swig i2c-tools
    libjpeg-dev zlib1g-dev libfreetype-dev libopenjp2-7 git rsync polkitd)
# NetworkManager's shared IPv4 (the hotspot hands out addresses) runs dnsmasq from dnsmasq-base.
[ -z "$HOTSPOT_SSID" ] || PACKAGES+=(dnsmasq-base)
# The speaker: espeak-ng speaks (its voices for en, ru and bg come with it), aplay plays.
[ -z "$SPEAKER" ] || PACKAGES+=(espeak-ng alsa-utils)
run apt-get install -y --no-install-recommends "${PACKAGES[@]}"

# ---- the user ------------------------------------------------------------------------------------
say "service user $SERVICE_USER"
if ! grep -q "^$SERVICE_USER:" "$ROOT/etc/passwd" 2>/dev/null; then
    run useradd --system --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
GROUPS_OF_USER=(spi i2c gpio)
[ -z "$SPEAKER" ] || GROUPS_OF_USER+=(audio)
for group in "${GROUPS_OF_USER[@]}"; do
    if ! grep -q "^$group:" "$ROOT/etc/group" 2>/dev/null; then
        run groupadd --system "$group"
    fi
done
run usermod -aG "$(IFS=,; echo "${GROUPS_OF_USER[*]}")" "$SERVICE_USER"
# The data directory exists before the service first starts it (StateDirectory=): banker check and
# banker enroll, run by hand as the README says, use it too.
run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"

# ---- the program ---------------------------------------------------------------------------------
say "installing the program into $VENV"
mkdir -p "$ROOT$PREFIX"
# Owned by root, whoever owns the checkout: root runs hotspot-fallback.sh from here, and the service's
# code must not be changeable by the login user.
run rsync -a --delete --chown=root:root --exclude .git --exclude .venv --exclude .table-data "$SOURCE/" "$PREFIX/src/"
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
# The readers line of a new table.toml: the readers that --spi1 wires up (reader 0 first).
readers_line() {
    local reader='rst_pin = 25}'
    case "$SPI1" in
        2cs) echo "readers = [{bus = 0, device = 0, $reader, {bus = 0, device = 1, $reader, {bus = 1, device = 0, $reader, {bus = 1, device = 1, $reader]" ;;
        3cs) echo "readers = [{bus = 0, device = 0, $reader, {bus = 1, device = 0, $reader, {bus = 1, device = 1, $reader, {bus = 1, device = 2, $reader]" ;;
        *) echo "# readers = [{bus = 0, device = 0, $reader, {bus = 0, device = 1, $reader]" ;;
    esac
}

# The display line: the I2C clock the frames are timed by (the emulated panel, banker bench).
display_line() {
    if [ "$I2C_HZ" = 400000 ]; then
        echo '# display = {chip = "sh1106", address = 0x3C, bus_hz = 400000}'
    else
        echo "display = {chip = \"sh1106\", address = 0x3C, bus_hz = $I2C_HZ}"
    fi
}

# The speaker line: the output --speaker chose (a USB speaker is usually the second card).
speaker_line() {
    case "$SPEAKER" in
        jack) echo 'speaker = {output = "jack", device = "default", volume = 80}' ;;
        usb) echo 'speaker = {output = "usb", device = "plughw:1,0", volume = 80}   # aplay -l: the card number' ;;
        i2s) echo 'speaker = {output = "i2s", device = "plughw:CARD=MAX98357A,DEV=0", volume = 80}   # by name, not the headphones' ;;
        *) echo '# speaker = {output = "jack", device = "default", volume = 80}   # install.sh --speaker' ;;
    esac
}

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
$(readers_line)
$(display_line)
$(speaker_line)
# controls = {ok = 5, cancel = 6, up = 13, down = 26, buzzer = 12}
TOML
fi
if [ -n "$SPI1" ] && ! grep -q '^readers *=' "$ROOT$CONFIG"; then
    echo "install.sh: $CONFIG was kept and lists no readers, so the table uses two; for four, add under [hardware]:" >&2
    echo "  $(readers_line)" >&2
fi
if [ -n "$SPEAKER" ] && ! grep -q '^speaker *=' "$ROOT$CONFIG"; then
    echo "install.sh: $CONFIG was kept and has no speaker; for the table to speak, add under [hardware]:" >&2
    echo "  $(speaker_line)" >&2
fi

# ---- Wi-Fi hotspot -------------------------------------------------------------------------------
# A value for a systemd EnvironmentFile: in double quotes, with \ and " escaped.
env_quote() {
    local value="${1//\\/\\\\}"
    printf '"%s"' "${value//\"/\\\"}"
}

# The unit's EnvironmentFile with the hotspot's name and password: created 0600, never readable by others.
write_hotspot_env() {
    local file="$ROOT$CONFIG_DIR/hotspot.env"
    rm -f "$file"
    (
        umask 077
        printf 'HOTSPOT_SSID=%s\nHOTSPOT_PASSWORD=%s\n' "$(env_quote "$HOTSPOT_SSID")" "$(env_quote "$HOTSPOT_PASSWORD")" > "$file"
    )
}

# The access point: WPA2 with CCMP (AES) only, never started by NetworkManager on its own (it would
# win over the home Wi-Fi at boot and then never scan again); table-hotspot.service starts it when no
# known Wi-Fi connected within the wait.
install_hotspot() {
    say "Wi-Fi hotspot '$HOTSPOT_SSID' (started at boot when no known Wi-Fi connects within $HOTSPOT_WAIT s)"
    local settings=(autoconnect no ssid "$HOTSPOT_SSID" 802-11-wireless.mode ap 802-11-wireless.band bg
        ipv4.method shared wifi-sec.key-mgmt wpa-psk wifi-sec.proto rsn wifi-sec.pairwise ccmp
        wifi-sec.group ccmp wifi-sec.psk "$HOTSPOT_PASSWORD")
    # Changed in place when it exists: deleting it would take down a hotspot the phones are on until the
    # next boot. An active one is brought up again with the new settings.
    if nmcli -t -f NAME connection show 2>/dev/null | grep -qx table-hotspot; then
        run nmcli connection modify table-hotspot "${settings[@]}"
        if nmcli -t -f NAME connection show --active 2>/dev/null | grep -qx table-hotspot; then
            run nmcli connection up table-hotspot
        fi
    else
        run nmcli connection add type wifi ifname wlan0 con-name table-hotspot "${settings[@]}"
    fi
    write_hotspot_env
    mkdir -p "$(dirname "$ROOT$HOTSPOT_UNIT")"
    sed -e "s|/opt/table-banker|$PREFIX|g" -e "s|hotspot-fallback.sh 60|hotspot-fallback.sh $HOTSPOT_WAIT|" \
        "$SOURCE/firmware/table-hotspot.service" > "$ROOT$HOTSPOT_UNIT"
    run systemctl daemon-reload
    run systemctl enable table-hotspot.service
}

# The Wi-Fi country: raspi-config writes it to cmdline.txt (cfg80211.ieee80211_regdom=CC); without one the
# access point does not start, and NetworkManager says nothing the players would see.
wifi_country() {
    local found
    found="$(grep -o 'cfg80211.ieee80211_regdom=[A-Z][A-Z]' "$ROOT/boot/firmware/cmdline.txt" 2>/dev/null | tail -n 1 || true)"
    if [ -n "$found" ]; then
        echo "${found##*=}"
    elif [ -z "$ROOT" ] && command -v iw > /dev/null; then
        iw reg get 2>/dev/null | sed -n 's/^country \([A-Z][A-Z]\):.*/\1/p' | grep -v '^00$' | head -n 1 || true
    fi
}
if [ -n "$COUNTRY" ]; then
    say "Wi-Fi country $COUNTRY"
    run raspi-config nonint do_wifi_country "$COUNTRY"
fi
if [ -n "$HOTSPOT_SSID" ]; then
    if [ -z "$COUNTRY" ] && [ -z "$(wifi_country)" ]; then
        die "no Wi-Fi country is set, and the hotspot cannot start without one: add --country CC (e.g. --country GB)"
    fi
    install_hotspot
fi

# ---- switching off from the table ----------------------------------------------------------------
# Setup at the table -> Switch off runs systemctl poweroff as the service user: logind asks polkit,
# which says yes for this user alone (polkitd reads JavaScript rules from rules.d since version 121).
POLKIT_RULE=/etc/polkit-1/rules.d/50-table-banker.rules
say "allowing $SERVICE_USER to switch the Pi off (setup at the table: Switch off)"
mkdir -p "$(dirname "$ROOT$POLKIT_RULE")"
cat > "$ROOT$POLKIT_RULE" <<RULES
// Written by the table banker's install.sh: setup at the table -> Switch off (systemctl poweroff).
polkit.addRule(function (action, subject) {
    if (subject.user == "$SERVICE_USER" &&
        (action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions")) {
        return polkit.Result.YES;
    }
});
RULES

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
