"""The wiring picture, the README's tables and the pins the code uses agree with each other."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from hardware.controls import ControlPins
from hardware.factory import CHIP_SELECT_PINS, I2C1_PINS, SPI_PINS
from hardware.nfc import DEFAULT_RST_PIN
from hardware.wiring import ENCODER_WIRES, HEADER, SVG_PATH, WIRES, Wire, gpio_of, markdown_table, render_svg

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def _without_images(svg: str) -> str:
    return re.sub(r"base64,[A-Za-z0-9+/=]+", "base64,…", svg)


def test_the_committed_svg_is_the_one_drawn_from_the_wiring_data() -> None:
    assert _without_images(SVG_PATH.read_text(encoding="utf-8")) == _without_images(render_svg())
    ElementTree.fromstring(SVG_PATH.read_text(encoding="utf-8"))


def test_the_readme_shows_the_wiring_tables_and_the_picture() -> None:
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    assert markdown_table(WIRES) in readme
    assert markdown_table(ENCODER_WIRES) in readme
    assert "](wiring.svg)" in readme


def pin_of(device: str, device_pin: str, wires: tuple[Wire, ...] = WIRES) -> int | None:
    (wire,) = [wire for wire in wires if wire.device == device and wire.device_pin == device_pin]
    return gpio_of(wire.header_pin)


def test_the_code_defaults_are_the_wiring() -> None:
    pins = ControlPins()
    assert pins.ok == pin_of("OK button", "leg 1")
    assert pins.cancel == pin_of("Cancel button", "leg 1")
    assert pins.up == pin_of("Up button", "leg 1")
    assert pins.down == pin_of("Down button", "leg 1")
    assert pins.buzzer == pin_of("buzzer module", "I/O (S)")
    assert dict(pins.leds) == {
        "green": pin_of("green LED", "anode, via 330 Ω"),
        "red": pin_of("red LED", "anode, via 330 Ω"),
    }
    encoder = ControlPins.with_encoder()
    assert encoder.encoder_a == pin_of("rotary encoder", "CLK (A)", ENCODER_WIRES)
    assert encoder.encoder_b == pin_of("rotary encoder", "DT (B)", ENCODER_WIRES)
    assert encoder.ok == pin_of("rotary encoder", "SW (push)", ENCODER_WIRES)
    assert pin_of("NFC reader 0", "RST") == DEFAULT_RST_PIN
    assert CHIP_SELECT_PINS[(0, 0)] == pin_of("NFC reader 0", "SDA (SS)")
    assert CHIP_SELECT_PINS[(0, 1)] == pin_of("NFC reader 1", "SDA (SS)")
    assert CHIP_SELECT_PINS[(1, 0)] == pin_of("NFC reader 2", "SDA (SS)")
    assert CHIP_SELECT_PINS[(1, 1)] == pin_of("NFC reader 3", "SDA (SS)")
    for bus, reader in ((0, "NFC reader 0"), (1, "NFC readers 2+3")):
        for line in ("MISO", "MOSI", "SCK"):
            assert SPI_PINS[bus][f"SPI{bus} {line.replace('SCK', 'SCLK')}"] == pin_of(reader, line)
    assert {"I²C SDA": pin_of("OLED display", "SDA"), "I²C SCL": pin_of("OLED display", "SCL")} == I2C1_PINS


def test_power_pins_are_power_pins() -> None:
    for wire in WIRES + ENCODER_WIRES:
        if wire.device_pin in ("GND", "cathode", "leg 2"):
            assert HEADER[wire.header_pin] == "GND", wire
        if wire.device_pin in ("3.3V", "VCC", "+") and wire.device != "buzzer module":
            assert HEADER[wire.header_pin] == "3V3", wire


def test_the_font_ships_with_its_licence() -> None:
    licence = (HARDWARE / "fonts" / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Dimitar Toshkov Zhekov" in licence
    for name in ("terminus-normal.otb", "terminus-bold.otb"):
        assert (HARDWARE / "fonts" / name).stat().st_size < 500_000


def test_config_txt_snippets_keep_comments_on_their_own_lines_and_name_spi1_3cs() -> None:
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```ini\n(.*?)```", readme, flags=re.S)
    assert blocks
    for block in blocks:
        for line in block.splitlines():
            assert line.startswith("#") or "#" not in line, line
    assert "dtoverlay=spi1-3cs" in readme
