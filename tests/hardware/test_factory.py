"""open_table: simulated, emulated (real drivers over emulated parts) and pi, chosen in one place."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hardware import (
    ControlEvent,
    DisplayConfig,
    DisplayError,
    HardwareError,
    NfcReaderError,
    ReaderConfig,
    ScreenView,
    TableConfig,
    Tap,
    open_table,
    render_view,
)
from hardware.controls import ControlPins
from hardware.emulator import EmulatedCard, FakeI2cBus, FakeSpiBus, Mfrc522Chip, OledPanel, emulated_pi, managed_smbus2
from hardware.oled import SimulatedDisplay
from hardware.taps import SimulatedReader
from tests.hardware.pixels import as_read, read_row

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

ANN = bytes.fromhex("DEADBEEF")
BOB = bytes.fromhex("046E51C2B33480")


def test_import_hardware_touches_no_hardware_library() -> None:
    code = (
        "import sys, hardware; "
        "print(sorted(m for m in ('mfrc522', 'RPi', 'spidev', 'gpiozero', 'luma', 'smbus2') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_simulated_table_plays_without_hardware() -> None:
    with open_table(TableConfig(mode="simulated")) as table:
        assert table.mode == "simulated"
        reader = table.readers[1]
        assert isinstance(reader, SimulatedReader)
        reader.tap(BOB)
        assert table.hub.poll_once() == [Tap(1, BOB)]
        table.display.show(ScreenView(title="Боб", lines=("Баланс 1500",)))
        assert isinstance(table.display, SimulatedDisplay)
        frame = table.display.frame
        assert frame is not None
        assert read_row(frame, 14) == as_read("Баланс 1500")
        table.controls.press("ok")  # type: ignore[attr-defined]
        assert table.controls.get_event() == ControlEvent("ok")


def test_emulated_table_runs_every_real_driver_end_to_end() -> None:
    spidev_before = sys.modules.get("spidev")
    with open_table(TableConfig(mode="emulated")) as table:
        emulation = table.emulation
        assert emulation is not None
        emulation.chips[1].place(EmulatedCard.ntag(BOB))
        (tap,) = table.hub.poll_once()
        assert tap == Tap(1, BOB)
        view = ScreenView(title="Боб", lines=(tap.uid_text,), footer="OK")
        table.display.show(view)
        assert emulation.panel.image() == render_view(view)
        ok = emulation.pin_factory.pin(5)
        ok.drive_low()
        ok.drive_high()
        assert table.controls.get_event() == ControlEvent("ok")
    assert sys.modules.get("spidev") is spidev_before  # the fakes leave with the table


def test_pi_mode_off_a_pi_fails_loudly_instead_of_simulating() -> None:
    # The display is opened first (it is what can show what else is wrong): off a Pi it has no bus.
    with pytest.raises(DisplayError, match="do_i2c 0") as raised:
        open_table(TableConfig(mode="pi"))
    assert raised.value.lasting
    with managed_smbus2(FakeI2cBus({0x3C: OledPanel("sh1106")})), pytest.raises(NfcReaderError) as reader:
        open_table(TableConfig(mode="pi"))
    assert reader.value.device == "NFC reader 0 (MFRC522)"
    assert "RPi" in str(reader.value)


def test_pi_mode_without_spi_enabled_names_the_device_node() -> None:
    with (
        emulated_pi(FakeSpiBus()),
        managed_smbus2(FakeI2cBus({0x3C: OledPanel("sh1106")})),
        pytest.raises(NfcReaderError, match=r"/dev/spidev0\.0.*do_spi 0"),
    ):
        open_table(TableConfig(mode="pi"))


def test_pi_mode_does_not_start_without_the_i2c_bus_and_closes_what_it_opened() -> None:
    spi = FakeSpiBus()
    spi.attach(0, 0, Mfrc522Chip())
    spi.attach(0, 1, Mfrc522Chip())
    with emulated_pi(spi), managed_smbus2(FakeI2cBus(), ports=()), pytest.raises(DisplayError, match="do_i2c 0"):
        open_table(TableConfig(mode="pi"))
    assert spi.open_devices == []


def test_pi_mode_with_every_part_present_opens_the_real_drivers() -> None:
    spi = FakeSpiBus()
    spi.attach(0, 0, Mfrc522Chip(EmulatedCard.classic(ANN)))
    bus = FakeI2cBus({0x3D: OledPanel("ssd1306")})
    config = TableConfig(
        mode="pi",
        readers=(ReaderConfig(0, 0),),
        display=DisplayConfig(chip="ssd1306", address=0x3D),
        pin_factory="mock",
    )
    with emulated_pi(spi), managed_smbus2(bus), open_table(config) as table:
        assert table.hub.poll_once() == [Tap(0, ANN)]
        table.display.show(ScreenView(title="OK"))
        assert read_row(bus.panels[0x3D].image(), 0) == "OK"
    assert spi.open_devices == []
    assert bus.closed


def test_every_failure_is_a_hardware_error() -> None:
    assert issubclass(NfcReaderError, HardwareError)
    assert issubclass(DisplayError, HardwareError)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (TableConfig(mode="laptop"), "mode"),  # type: ignore[arg-type]
        (TableConfig(readers=()), "1 to 4 readers"),
        (TableConfig(readers=(ReaderConfig(0, 0),) * 2), "two readers on SPI0 CE0"),
        (TableConfig(readers=(ReaderConfig(0, 2),)), "no chip select SPI0 CE2"),
        (TableConfig(controls=ControlPins(ok=10)), "GPIO10 is assigned to both SPI0 MOSI and ok"),
        (TableConfig(controls=ControlPins(cancel=3)), "GPIO3 is assigned to both I²C SCL and cancel"),
        (
            TableConfig(readers=(ReaderConfig(0, 0), ReaderConfig(1, 0)), controls=ControlPins(up=20, down=26)),
            "GPIO20 is assigned to both SPI1 MOSI and up",
        ),
        (TableConfig(controls=ControlPins(buzzer=25)), "GPIO25 is assigned to both RC522 reset and buzzer"),
    ],
)
def test_invalid_configurations_are_refused_before_any_pin_is_touched(config: TableConfig, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        open_table(config)


def test_four_readers_on_spi0_and_spi1_validate() -> None:
    readers = (ReaderConfig(0, 0), ReaderConfig(0, 1), ReaderConfig(1, 0), ReaderConfig(1, 1))
    TableConfig(readers=readers).validate()


def test_config_from_plain_data() -> None:
    config = TableConfig.from_mapping(
        {
            "mode": "pi",
            "readers": [{"bus": 0, "device": 0}, {"bus": 1, "device": 0, "rst_pin": None}],
            "display": {"chip": "ssd1306", "address": 0x3D, "rotate": 2},
            "controls": {"up": None, "down": None, "encoder_a": 13, "encoder_b": 26, "leds": {"green": 23}},
        }
    )
    assert config.readers == (ReaderConfig(0, 0), ReaderConfig(1, 0, None))
    assert config.display == DisplayConfig(chip="ssd1306", address=0x3D, rotate=2)
    assert config.controls.encoder_a == 13
    assert config.controls.leds == (("green", 23),)
    with pytest.raises(ValueError, match="unknown table settings"):
        TableConfig.from_mapping({"readerz": []})
    with pytest.raises(ValueError, match="unknown DisplayConfig settings"):
        TableConfig.from_mapping({"display": {"colour": "blue"}})
