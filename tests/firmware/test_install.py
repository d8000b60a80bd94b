"""firmware/install.sh and firmware/table-banker.service: shellcheck, systemd-analyze, and the script run
against a fake root with --dry-run (its options, the files it writes, the commands it would run)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
SCRIPT = FIRMWARE / "install.sh"
UNIT = FIRMWARE / "table-banker.service"
HOTSPOT_UNIT = FIRMWARE / "table-hotspot.service"
FALLBACK = FIRMWARE / "hotspot-fallback.sh"


def fake_pi(root: Path, *, codename: str = "bookworm", model: str | None = "Raspberry Pi 4 Model B Rev 1.5") -> Path:
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "os-release").write_text(f'PRETTY_NAME="Debian"\nVERSION_CODENAME={codename}\n')
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc" / "group").write_text("root:x:0:\nspi:x:999:\ni2c:x:998:\ngpio:x:997:\n")
    if model is not None:
        (root / "proc" / "device-tree").mkdir(parents=True)
        (root / "proc" / "device-tree" / "model").write_bytes(model.encode() + b"\0")
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text("[all]\ndtparam=audio=on\n")
    # The Wi-Fi country as Raspberry Pi Imager and raspi-config set it.
    (root / "boot" / "firmware" / "cmdline.txt").write_text(
        "console=tty1 root=PARTUUID=1 cfg80211.ieee80211_regdom=GB\n")
    (root / "proc" / "sys" / "kernel" / "random").mkdir(parents=True)
    (root / "proc" / "sys" / "kernel" / "random" / "boot_id").write_text("boot-1\n")
    return root


def install(root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), "--root", str(root), "--dry-run", *options], capture_output=True, text=True, timeout=60
    )


def test_shellcheck_finds_nothing() -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    result = subprocess.run(["shellcheck", str(SCRIPT), str(FALLBACK)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(("source", "program"), [(UNIT, "/opt/table-banker/venv/bin/banker"),
                                               (HOTSPOT_UNIT, "/opt/table-banker/src/firmware/hotspot-fallback.sh")])
def test_the_units_pass_systemd_analyze_verify(tmp_path: Path, source: Path, program: str) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not available")
    # verify checks that ExecStart exists: point it at a program this machine has.
    text = source.read_text().replace(program, shutil.which("true") or "/bin/true")
    unit = tmp_path / source.name
    unit.write_text(text)
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr


def test_the_unit_runs_banker_run_as_the_service_user_with_its_state_directory() -> None:
    lines = UNIT.read_text().splitlines()
    settings = dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))
    assert settings["ExecStart"] == "/opt/table-banker/venv/bin/banker run --config /etc/table-banker/table.toml"
    assert settings["User"] == "banker"
    assert settings["SupplementaryGroups"] == "spi i2c gpio audio"
    assert settings["StateDirectory"] == "table-banker"
    assert settings["WorkingDirectory"] == "/var/lib/table-banker"
    assert settings["Restart"] == "on-failure"
    assert settings["KillSignal"] == "SIGTERM"
    assert "PrivateDevices" not in settings
    # Restarted for as long as it takes, never left in start-limit-hit: a part may come back.
    unit_section = lines[lines.index("[Unit]"):lines.index("[Service]")]
    assert "StartLimitIntervalSec=0" in unit_section


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--spi1", "4cs"], "--spi1 is 2cs or 3cs"),
        (["--port", "http"], "--port is a number"),
        (["--port", "70000"], "--port is 1-65535"),
        (["--hotspot", "Cottage", "short"], "at least 8 characters"),
        (["--hotspot", "Cottage"], "an SSID and a password"),
        (["--language", "de"], "--language is en, ru or bg"),
        (["--prefix", "opt"], "absolute path"),
        (["--user", "Bad User"], "lower-case name"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
    ],
)
def test_bad_options_are_refused_with_a_reason(tmp_path: Path, options: list[str], message: str) -> None:
    result = install(fake_pi(tmp_path), *options)
    assert result.returncode == 2
    assert message in result.stderr


def test_help() -> None:
    result = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "--hotspot SSID PASS" in result.stdout


def test_a_machine_that_is_not_a_pi_or_an_unknown_release_is_refused(tmp_path: Path) -> None:
    result = install(fake_pi(tmp_path / "laptop", model=None))
    assert result.returncode == 2 and "not a Raspberry Pi" in result.stderr
    assert "No such file" not in result.stderr  # the missing model file is the message's business, not bash's
    result = install(fake_pi(tmp_path / "old", codename="bullseye"))
    assert result.returncode == 2 and "bullseye" in result.stderr
    assert install(fake_pi(tmp_path / "forced", codename="bullseye"), "--force").returncode == 0


def test_a_first_install_on_a_fresh_pi(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    result = install(root, "--spi1", "3cs", "--language", "ru", "--hotspot", "Cottage", "monopoly1")
    assert result.returncode == 0, result.stderr
    commands = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert "raspi-config nonint do_spi 0" in commands
    assert "raspi-config nonint do_i2c 0" in commands
    (apt,) = [command for command in commands if command.startswith("apt-get install")]
    for package in ("python3-dev", "build-essential", "python3-lgpio", "python3-venv"):
        assert package in apt.split()
    assert "python3 -m venv --system-site-packages /opt/table-banker/venv" in commands
    assert "/opt/table-banker/venv/bin/python -m pip install --no-deps mfrc522==0.0.7" in commands
    assert any("rpi-lgpio" in command for command in commands)
    assert not any("RPi.GPIO" in command for command in commands)
    assert any(command.startswith("useradd --system") and command.endswith(" banker") for command in commands)
    assert "usermod -aG spi,i2c,gpio banker" in commands
    assert "systemctl enable table-banker.service" in commands
    assert "systemctl restart table-banker.service" not in commands  # SPI/I2C changed: a reboot comes first
    assert any(command.startswith("nmcli connection add type wifi") and "Cottage" in command for command in commands)
    boot = (root / "boot/firmware/config.txt").read_text().splitlines()
    assert "dtparam=i2c_arm_baudrate=400000" in boot and "dtoverlay=spi1-3cs" in boot
    assert all(line.startswith("#") or "#" not in line for line in boot)
    settings = (root / "etc/table-banker/table.toml").read_text()
    assert 'language = "ru"' in settings and 'data_dir = "/var/lib/table-banker"' in settings
    assert (root / "etc/systemd/system/table-banker.service").read_text() == UNIT.read_text()
    assert (root / "etc/table-banker/hotspot.env").stat().st_mode & 0o077 == 0
    import tomllib

    parsed = tomllib.loads(settings)
    assert parsed["table"]["port"] == 8080


def test_running_it_again_upgrades_in_place_and_keeps_the_settings(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    assert install(root).returncode == 0
    settings = root / "etc/table-banker/table.toml"
    settings.write_text(settings.read_text().replace('language = "en"', 'language = "bg"'))
    boot = (root / "boot/firmware/config.txt").read_text()
    with (root / "etc/passwd").open("a") as passwd:
        passwd.write("banker:x:990:990::/var/lib/table-banker:/usr/sbin/nologin\n")
    (root / "proc/sys/kernel/random/boot_id").write_text("boot-2\n")  # rebooted since the first run
    again = install(root)
    assert again.returncode == 0, again.stderr
    assert 'language = "bg"' in settings.read_text()
    assert "keeping /etc/table-banker/table.toml" in again.stdout
    assert (root / "boot/firmware/config.txt").read_text() == boot  # nothing added twice
    commands = [line[2:] for line in again.stdout.splitlines() if line.startswith("+ ")]
    assert not any(command.startswith("useradd") for command in commands)
    assert "systemctl restart table-banker.service" in commands
    assert any("--force-reinstall /opt/table-banker/src" in command for command in commands)


def test_the_service_user_and_no_one_else_may_switch_the_pi_off(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    result = install(root, "--user", "table")
    assert result.returncode == 0, result.stderr
    (apt,) = [command for command in commands_of(result) if command.startswith("apt-get install")]
    assert "polkitd" in apt.split()
    rule = (root / "etc/polkit-1/rules.d/50-table-banker.rules").read_text()
    assert 'subject.user == "table"' in rule
    assert '"org.freedesktop.login1.power-off"' in rule
    assert "polkit.Result.YES" in rule and rule.count("return") == 1
    from firmware.config import SWITCH_OFF, load_config

    settings = load_config(root / "etc/table-banker/table.toml")
    assert settings.switch_off_command("pi") == SWITCH_OFF == ("systemctl", "poweroff")
    assert settings.switch_off_command("emulated") == ()


def test_another_prefix_and_user_reach_the_unit(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    assert install(root, "--prefix", "/srv/banker", "--user", "table").returncode == 0
    unit = (root / "etc/systemd/system/table-banker.service").read_text()
    assert "ExecStart=/srv/banker/venv/bin/banker run" in unit
    assert "User=table" in unit and "Group=table" in unit


def test_the_wifi_qr_text_while_the_hotspot_is_up() -> None:
    from firmware.run import wifi_join_text

    environ = {"HOTSPOT_SSID": "Banker; 1", "HOTSPOT_PASSWORD": 'pa:ss"word'}
    assert wifi_join_text(environ, active=lambda: True) == 'WIFI:T:WPA;S:Banker\\; 1;P:pa\\:ss\\"word;;'
    assert wifi_join_text(environ, active=lambda: False) == ""
    assert wifi_join_text({}, active=lambda: True) == ""


def test_the_unit_reads_the_hotspot_settings_the_script_writes() -> None:
    assert "EnvironmentFile=-/etc/table-banker/hotspot.env" in UNIT.read_text()
    assert "HOTSPOT_SSID=%s" in SCRIPT.read_text()


def commands_of(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]


@pytest.mark.parametrize(
    ("spi1", "readers", "overlay"),
    [("2cs", [(0, 0), (0, 1), (1, 0), (1, 1)], "dtoverlay=spi1-2cs"),
     ("3cs", [(0, 0), (1, 0), (1, 1), (1, 2)], "dtoverlay=spi1-3cs")],
)
def test_spi1_gives_a_new_table_four_readers(tmp_path: Path, spi1: str, readers: list[tuple[int, int]],
                                             overlay: str) -> None:
    from firmware.config import load_config

    root = fake_pi(tmp_path)
    result = install(root, "--spi1", spi1)
    assert result.returncode == 0, result.stderr
    assert overlay in (root / "boot/firmware/config.txt").read_text().splitlines()
    table = load_config(root / "etc/table-banker/table.toml").table_config("pi")
    assert [(reader.bus, reader.device) for reader in table.readers] == readers
    assert {reader.rst_pin for reader in table.readers} == {25}


def test_spi1_on_a_table_toml_that_was_kept_says_what_to_add(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    assert install(root).returncode == 0
    again = install(root, "--spi1", "2cs")
    assert again.returncode == 0
    assert "lists no readers, so the table uses two" in again.stderr
    assert "readers = [{bus = 0, device = 0, rst_pin = 25}" in again.stderr


def test_config_txt_lines_go_under_all_after_a_conditional_section(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    boot = root / "boot/firmware/config.txt"
    boot.write_text("[all]\ndtparam=audio=on\n[pi4]\narm_boost=1\n")
    assert install(root, "--spi1", "2cs").returncode == 0
    lines = boot.read_text().splitlines()
    assert lines[:4] == ["[all]", "dtparam=audio=on", "[pi4]", "arm_boost=1"]
    assert lines[4] == "[all]"
    assert "dtparam=i2c_arm_baudrate=400000" in lines[5:] and "dtoverlay=spi1-2cs" in lines[5:]
    assert lines.count("[all]") == 2  # once added, the next lines already are under [all]


def test_the_i2c_clock_setting(tmp_path: Path) -> None:
    from firmware.config import load_config

    root = fake_pi(tmp_path)
    assert install(root, "--i2c-hz", "1000000").returncode == 0
    assert "dtparam=i2c_arm_baudrate=1000000" in (root / "boot/firmware/config.txt").read_text().splitlines()
    assert load_config(root / "etc/table-banker/table.toml").table_config("pi").display.bus_hz == 1_000_000
    refused = install(fake_pi(tmp_path / "other"), "--i2c-hz", "3400000")
    assert refused.returncode == 2 and "--i2c-hz is 400000 or 1000000" in refused.stderr


def test_the_hotspot_starts_only_when_no_known_wifi_connects(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    result = install(root, "--hotspot", "Cottage", "monopoly1")
    assert result.returncode == 0, result.stderr
    commands = commands_of(result)
    (add,) = [command for command in commands if command.startswith("nmcli connection add")]
    words = add.split()
    setting = dict(zip(words[3::2], words[4::2], strict=False))
    assert setting["autoconnect"] == "no"  # NetworkManager never picks it over the home Wi-Fi by itself
    assert setting["wifi-sec.key-mgmt"] == "wpa-psk"
    assert setting["wifi-sec.proto"] == "rsn"  # WPA2
    assert setting["wifi-sec.pairwise"] == "ccmp" and setting["wifi-sec.group"] == "ccmp"
    assert setting["ipv4.method"] == "shared"
    (apt,) = [command for command in commands if command.startswith("apt-get install")]
    assert "dnsmasq-base" in apt.split()  # what ipv4.method shared runs
    assert "systemctl enable table-hotspot.service" in commands
    unit = (root / "etc/systemd/system/table-hotspot.service").read_text()
    assert "Type=oneshot" in unit
    assert "ExecStart=/opt/table-banker/src/firmware/hotspot-fallback.sh 60" in unit
    without = install(fake_pi(tmp_path / "home"))
    assert "dnsmasq-base" not in [word for command in commands_of(without) for word in command.split()]
    assert not (tmp_path / "home/etc/systemd/system/table-hotspot.service").exists()


def test_the_hotspot_password_file_is_never_readable_by_others_and_is_quoted(tmp_path: Path) -> None:
    import shlex

    root = fake_pi(tmp_path)
    shims = tmp_path / "bin"
    shims.mkdir()
    calls = tmp_path / "chmod-calls"
    # Any chmod of the file would mean it existed with other permissions first.
    (shims / "chmod").write_text(f'#!/bin/sh\necho "$@" >> {calls}\nexec /bin/chmod "$@"\n')
    (shims / "chmod").chmod(0o755)
    ssid, password = 'Cot"tage\\ 2', "mono $poly #1"
    result = subprocess.run(
        ["bash", str(SCRIPT), "--root", str(root), "--dry-run", "--hotspot", ssid, password],
        capture_output=True, text=True, timeout=60,
        env={"PATH": f"{shims}:/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    env = root / "etc/table-banker/hotspot.env"
    assert env.stat().st_mode & 0o777 == 0o600
    assert not calls.exists() or "hotspot.env" not in calls.read_text()
    # systemd's EnvironmentFile: double quotes, backslash escapes, no expansion (as shlex reads it).
    values = dict(shlex.split(line)[0].split("=", 1) for line in env.read_text().splitlines())
    assert values == {"HOTSPOT_SSID": ssid, "HOTSPOT_PASSWORD": password}


@pytest.fixture
def fake_nmcli(tmp_path: Path) -> tuple[Path, Path]:
    """An nmcli that prints the active connections from a file and records every other call."""
    active, calls = tmp_path / "active", tmp_path / "calls"
    active.write_text("")
    shims = tmp_path / "bin"
    shims.mkdir()
    (shims / "nmcli").write_text(
        f'#!/bin/sh\nif [ "$5" = show ]; then cat {active}; else echo "$@" >> {calls}; fi\n')
    (shims / "nmcli").chmod(0o755)
    return active, calls


@pytest.mark.parametrize(
    ("active", "started"),
    [("802-11-wireless:Home:activated\nloopback:lo:activated\n", False), ("", True),
     ("802-11-wireless:table-hotspot:activated\n", True), ("802-3-ethernet:Wired connection 1:activated\n", True),
     ("802-11-wireless:Home:activating\n", True)],  # still trying, and it may never connect
)
def test_the_fallback_starts_the_hotspot_only_without_a_known_wifi(
    tmp_path: Path, fake_nmcli: tuple[Path, Path], active: str, started: bool
) -> None:
    active_file, calls = fake_nmcli
    active_file.write_text(active)
    result = subprocess.run(["bash", str(FALLBACK), "1"], capture_output=True, text=True, timeout=30,
                            env={"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert (calls.exists() and "connection up table-hotspot" in calls.read_text()) == started


@pytest.mark.parametrize(("output", "boot_lines"), [
    ("jack", ["dtparam=audio=on"]),
    ("usb", []),
    ("i2s", ["dtparam=i2s=on", "dtoverlay=max98357a,no-sdmode"]),
])
def test_the_speaker_installs_espeak_and_writes_its_line(tmp_path: Path, output: str, boot_lines: list[str]) -> None:
    from firmware.config import load_config

    root = fake_pi(tmp_path)
    result = install(root, "--speaker", output)
    assert result.returncode == 0, result.stderr
    commands = commands_of(result)
    (apt,) = [command for command in commands if command.startswith("apt-get install")]
    assert {"espeak-ng", "alsa-utils"} <= set(apt.split())
    assert "usermod -aG spi,i2c,gpio,audio banker" in commands
    boot = (root / "boot/firmware/config.txt").read_text().splitlines()
    for line in boot_lines:
        assert line in boot
    if output != "i2s":
        assert not any("max98357a" in line for line in boot)
    speaker = load_config(root / "etc/table-banker/table.toml").table_config("pi").speaker
    assert speaker is not None and speaker.output == output


def test_without_the_speaker_nothing_of_it_is_installed(tmp_path: Path) -> None:
    from firmware.config import load_config

    root = fake_pi(tmp_path)
    result = install(root)
    (apt,) = [command for command in commands_of(result) if command.startswith("apt-get install")]
    assert "espeak-ng" not in apt.split() and "usermod -aG spi,i2c,gpio banker" in commands_of(result)
    assert load_config(root / "etc/table-banker/table.toml").table_config("pi").speaker is None


def test_an_i2s_speaker_and_spi1_readers_are_refused_together(tmp_path: Path) -> None:
    result = install(fake_pi(tmp_path), "--speaker", "i2s", "--spi1", "2cs")
    assert result.returncode == 2 and "GPIO 18-21" in result.stderr
    refused = install(fake_pi(tmp_path / "other"), "--speaker", "hdmi")
    assert refused.returncode == 2 and "--speaker is jack, usb or i2s" in refused.stderr


def test_a_kept_table_toml_is_told_the_speaker_line(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    assert install(root).returncode == 0
    again = install(root, "--speaker", "usb")
    assert again.returncode == 0 and "has no speaker" in again.stderr
    assert 'speaker = {output = "usb", device = "plughw:1,0"' in again.stderr


def test_an_i2s_speaker_is_refused_after_spi1_readers_and_spi1_after_an_i2s_speaker(tmp_path: Path) -> None:
    root = fake_pi(tmp_path / "readers-first")
    assert install(root, "--spi1", "2cs").returncode == 0
    refused = install(root, "--speaker", "i2s")
    assert refused.returncode == 2 and "GPIO 18-21" in refused.stderr and "dtoverlay=spi1" in refused.stderr
    other = fake_pi(tmp_path / "speaker-first")
    assert install(other, "--speaker", "i2s").returncode == 0
    refused = install(other, "--spi1", "3cs")
    assert refused.returncode == 2 and "GPIO 18-21" in refused.stderr and "max98357a" in refused.stderr
    assert not any("spi1" in line for line in (other / "boot/firmware/config.txt").read_text().splitlines())


def test_an_i2s_speaker_plays_on_the_amplifiers_card_by_name_not_alsas_default(tmp_path: Path) -> None:
    from firmware.config import load_config

    root = fake_pi(tmp_path)  # dtparam=audio=on is left on: the headphones are card 0 and ALSA's default
    assert install(root, "--speaker", "i2s").returncode == 0
    speaker = load_config(root / "etc/table-banker/table.toml").table_config("pi").speaker
    assert speaker is not None and speaker.device == "plughw:CARD=MAX98357A,DEV=0"


def test_the_data_directory_is_made_for_the_service_user_before_the_service_starts(tmp_path: Path) -> None:
    result = install(fake_pi(tmp_path), "--user", "table")
    assert "install -d -m 0750 -o table -g table /var/lib/table-banker" in commands_of(result)


def test_a_second_run_before_the_reboot_still_says_to_reboot(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    first = install(root)
    assert "reboot (sudo reboot)" in first.stdout
    with (root / "etc/passwd").open("a") as passwd:
        passwd.write("banker:x:990:990::/var/lib/table-banker:/usr/sbin/nologin\n")
    again = install(root)  # config.txt already has every line: this run changes nothing there
    assert again.returncode == 0 and "reboot (sudo reboot)" in again.stdout
    assert "systemctl restart table-banker.service" not in commands_of(again)
    (root / "proc/sys/kernel/random/boot_id").write_text("boot-2\n")  # the Pi started again
    after = install(root)
    assert "reboot" not in after.stdout.split("Next:")[0]
    assert "systemctl restart table-banker.service" in commands_of(after)


def test_running_the_hotspot_again_changes_it_in_place_and_brings_an_active_one_back(
    tmp_path: Path, fake_nmcli: tuple[Path, Path]
) -> None:
    active, _calls = fake_nmcli
    active.write_text("table-hotspot\n")  # it exists and is up: the phones are on it
    root = fake_pi(tmp_path / "root")
    command = ["bash", str(SCRIPT), "--root", str(root), "--dry-run", "--hotspot", "Cottage", "monopoly2"]
    result = subprocess.run(command,
                            capture_output=True, text=True, timeout=60,
                            env={"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    commands = commands_of(result)
    assert not any(command.startswith("nmcli connection delete") for command in commands)
    (modify,) = [command for command in commands if command.startswith("nmcli connection modify table-hotspot")]
    assert "monopoly2" in modify and "autoconnect no" in modify
    assert "nmcli connection up table-hotspot" in commands


def test_a_hotspot_without_a_wifi_country_is_refused_unless_one_is_given(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    (root / "boot/firmware/cmdline.txt").write_text("console=tty1 root=PARTUUID=1\n")
    refused = install(root, "--hotspot", "Cottage", "monopoly1")
    assert refused.returncode == 2 and "--country" in refused.stderr
    given = install(root, "--hotspot", "Cottage", "monopoly1", "--country", "BG")
    assert given.returncode == 0, given.stderr
    assert "raspi-config nonint do_wifi_country BG" in commands_of(given)
    assert install(root, "--country", "bulgaria").returncode == 2


def test_the_program_tree_root_runs_is_owned_by_root_and_the_table_does_not_wait_for_the_network(
    tmp_path: Path,
) -> None:
    result = install(fake_pi(tmp_path), "--hotspot", "Cottage", "monopoly1")
    (rsync,) = [command for command in commands_of(result) if command.startswith("rsync")]
    assert "--chown=root:root" in rsync.split()
    settings = [line for line in UNIT.read_text().splitlines() if "=" in line and not line.startswith("#")]
    assert "After=network.target" in settings
    assert not any("network-online" in line for line in settings)
