"""The table program's settings: a TOML file, every field optional.

```toml
[table]
language = "ru"            # en, ru or bg: the OLED and the phones' default
edition = "ru"             # offered first for a new game at the table: us, uk or ru
data_dir = "/var/lib/table-banker"   # the journal (games, tags, settings) and the web secret
host = "0.0.0.0"           # where the phone page listens
port = 8080
switch_off = ["systemctl", "poweroff"]   # what setup's "Switch off" runs (the default on a Pi; [] hides it)

[hardware]                 # see hardware/README.md; every key optional
readers = [{bus = 0, device = 0, rst_pin = 25}, {bus = 0, device = 1, rst_pin = 25},   # SPI0 CE0, CE1
           {bus = 1, device = 0, rst_pin = 25}, {bus = 1, device = 1, rst_pin = 25}]   # SPI1 (--spi1 2cs)
display = {chip = "sh1106", address = 0x3C, bus_hz = 400000}   # bus_hz: dtparam=i2c_arm_baudrate
controls = {ok = 5, cancel = 6, up = 13, down = 26, buzzer = 12}
pin_factory = "lgpio"
speaker = {output = "jack", device = "default", volume = 80, voice = "man"}   # jack, usb or i2s
```

The hardware mode is not a setting: ``banker run`` is on the Pi unless ``--simulated`` or
``--emulated`` is given.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from banker.edition import EDITIONS
from banker.messages import LANGUAGES
from hardware.factory import TableConfig
from hardware.oled import OLED_ADDRESSES, OLED_CHIPS

DEFAULT_DATA_DIR = Path.home() / ".local" / "share" / "table-banker"
DEFAULT_PORT = 8080
SWITCH_OFF = ("systemctl", "poweroff")
"""Through logind, which asks polkit: firmware/install.sh installs the rule that lets the service user."""


class ConfigError(ValueError):
    """A settings file that cannot be used; the message names the file, the field and the fix."""


@dataclass(frozen=True)
class Config:
    language: str = "en"
    edition: str = "us"
    data_dir: Path = DEFAULT_DATA_DIR
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    hardware: dict[str, Any] = field(default_factory=dict)
    """The ``[hardware]`` table, as :meth:`hardware.factory.TableConfig.from_mapping` takes it."""
    switch_off: tuple[str, ...] | None = None
    """The command setup's "Switch off" runs once the game is saved; ``None``: ``systemctl poweroff``
    on a Pi (firmware/install.sh allows the service user to run it) and nothing elsewhere; ``()``:
    setup does not offer it."""

    @property
    def journal_path(self) -> Path:
        return self.data_dir / "banker.sqlite3"

    def switch_off_command(self, mode: str) -> tuple[str, ...]:
        """What "Switch off" runs in ``mode``; empty when setup does not offer it."""
        if self.switch_off is not None:
            return self.switch_off
        return SWITCH_OFF if mode == "pi" else ()

    def table_config(self, mode: str) -> TableConfig:
        """The hardware settings for ``mode`` (simulated, emulated or pi).

        Raises:
            ConfigError: the ``[hardware]`` table has unknown keys or impossible values.
        """
        try:
            return TableConfig.from_mapping({**self.hardware, "mode": mode})
        except (ValueError, TypeError) as error:
            raise ConfigError(f"[hardware]: {error}") from error


def load_config(path: str | Path | None) -> Config:
    """Read the settings file; ``None`` gives every default.

    Raises:
        ConfigError: the file cannot be read, is not TOML, or has an unknown or wrong field.
    """
    if path is None:
        return Config()
    where = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{where}: cannot read it ({error.strerror})") from error
    except UnicodeDecodeError as error:
        raise ConfigError(f"{where}: not UTF-8 text") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{where}: not valid TOML ({error})") from error
    unknown = set(data) - {"table", "hardware"}
    if unknown:
        raise ConfigError(f"{where}: unknown section(s) {sorted(unknown)}; the sections are [table] and [hardware]")
    table = data.get("table", {})
    hardware = data.get("hardware", {})
    if not isinstance(table, dict) or not isinstance(hardware, dict):
        raise ConfigError(f"{where}: [table] and [hardware] must be tables")
    known = {"language", "edition", "data_dir", "host", "port", "switch_off"}
    unknown = set(table) - known
    if unknown:
        raise ConfigError(f"{where}: [table] has no field(s) {sorted(unknown)}; its fields: {', '.join(sorted(known))}")
    config = Config(hardware=dict(hardware))
    values: dict[str, Any] = {}
    if "language" in table:
        values["language"] = _choice(where, "language", table["language"], LANGUAGES)
    if "edition" in table:
        values["edition"] = _choice(where, "edition", table["edition"], EDITIONS)
    if "data_dir" in table:
        if not isinstance(table["data_dir"], str) or not table["data_dir"].strip():
            raise ConfigError(f"{where}: [table] data_dir must be a directory path")
        values["data_dir"] = Path(os.path.expanduser(table["data_dir"]))
    if "host" in table:
        if not isinstance(table["host"], str) or not table["host"]:
            raise ConfigError(f"{where}: [table] host must be an address such as 0.0.0.0")
        values["host"] = table["host"]
    if "port" in table:
        port = table["port"]
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ConfigError(f"{where}: [table] port must be a whole number 0-65535, not {port!r}")
        values["port"] = port
    if "switch_off" in table:
        command = table["switch_off"]
        if not isinstance(command, list) or not all(isinstance(word, str) and word for word in command):
            raise ConfigError(f"{where}: [table] switch_off is a command as a list of words, such as "
                              f"[\"systemctl\", \"poweroff\"], or [] for none; not {command!r}")
        values["switch_off"] = tuple(command)
    config = Config(**{**config.__dict__, **values})
    try:
        table_config = TableConfig.from_mapping({**config.hardware, "mode": "simulated"})
    except (ValueError, TypeError) as error:
        raise ConfigError(f"{where}: [hardware]: {error}") from error
    display = table_config.display
    if display.chip not in OLED_CHIPS:
        raise ConfigError(f"{where}: [hardware] display chip is one of {', '.join(OLED_CHIPS)}, not {display.chip!r}")
    if display.address not in OLED_ADDRESSES:
        raise ConfigError(f"{where}: [hardware] display address is 0x3C (60) or 0x3D (61), not {display.address}")
    if display.rotate not in (0, 2):
        raise ConfigError(f"{where}: [hardware] display rotate is 0 or 2 (upside down), not {display.rotate}")
    _check_bus_clock(where, display.bus_hz)
    return config


I2C_CLOCKS = (100_000, 400_000, 1_000_000)
"""The I²C clocks a Pi's ``dtparam=i2c_arm_baudrate`` is set to for the OLED: standard, fast, fast-mode plus."""


def _check_bus_clock(where: str, bus_hz: Any) -> None:
    if isinstance(bus_hz, bool) or bus_hz not in I2C_CLOCKS:
        raise ConfigError(f"{where}: [hardware] display bus_hz is the Pi's I²C clock (dtparam=i2c_arm_baudrate): "
                          f"100000, 400000 or 1000000, not {bus_hz!r}")


def _choice(where: str, name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ConfigError(f"{where}: [table] {name} is one of {', '.join(allowed)}, not {value!r}")
    return str(value)
