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
    return root


def install(root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), "--root", str(root), "--dry-run", *options], capture_output=True, text=True, timeout=60
    )


def test_shellcheck_finds_nothing() -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    result = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not available")
    # verify checks that ExecStart exists: point it at a program this machine has.
    text = UNIT.read_text().replace("/opt/table-banker/venv/bin/banker", shutil.which("true") or "/bin/true")
    unit = tmp_path / "table-banker.service"
    unit.write_text(text)
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr


def test_the_unit_runs_banker_run_as_the_service_user_with_its_state_directory() -> None:
    lines = UNIT.read_text().splitlines()
    settings = dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))
    assert settings["ExecStart"] == "/opt/table-banker/venv/bin/banker run --config /etc/table-banker/table.toml"
    assert settings["User"] == "banker"
    assert settings["SupplementaryGroups"] == "spi i2c gpio"
    assert settings["StateDirectory"] == "table-banker"
    assert settings["WorkingDirectory"] == "/var/lib/table-banker"
    assert settings["Restart"] == "on-failure"
    assert settings["KillSignal"] == "SIGTERM"
    assert "PrivateDevices" not in settings


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
    again = install(root)
    assert again.returncode == 0, again.stderr
    assert 'language = "bg"' in settings.read_text()
    assert "keeping /etc/table-banker/table.toml" in again.stdout
    assert (root / "boot/firmware/config.txt").read_text() == boot  # nothing added twice
    commands = [line[2:] for line in again.stdout.splitlines() if line.startswith("+ ")]
    assert not any(command.startswith("useradd") for command in commands)
    assert "systemctl restart table-banker.service" in commands
    assert any("--force-reinstall /opt/table-banker/src" in command for command in commands)


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
    assert "HOTSPOT_SSID=$HOTSPOT_SSID" in SCRIPT.read_text()
