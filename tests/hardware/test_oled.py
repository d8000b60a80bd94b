"""The real luma.oled SSD1306/SH1106 drivers over a fake I²C bus, and the simulated display."""

from __future__ import annotations

import errno
import io
from pathlib import Path

import pytest
import smbus2
from PIL import Image, ImageChops

from hardware.display import ScreenView, render_view
from hardware.emulator import FakeI2cBus, OledPanel, managed_smbus2
from hardware.errors import DisplayError
from hardware.oled import Oled, SimulatedDisplay, open_luma_device
from hardware.protocols import Display
from tests.hardware.pixels import as_read, read_row

# luma.oled 3.16 calls Image.getdata(), which Pillow 13 deprecates (luma.oled#404).
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

PAYMENT = ScreenView(
    title="Боб → Анна", lines=("Боб платит Анне 550 тыс. руб.",), amount="550 тыс.", footer="OK платить  ✕ назад"
)


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("address", [0x3C, 0x3D])
def test_the_real_driver_puts_the_rendered_view_on_the_panel(chip: str, address: int) -> None:
    panel = OledPanel(chip)  # type: ignore[arg-type]
    bus = FakeI2cBus({address: panel})
    with Oled(device=open_luma_device(chip=chip, address=address, bus=bus)) as oled:  # type: ignore[arg-type]
        assert panel.display_on
        oled.show(PAYMENT)
        shown = panel.image()
    assert same(shown, render_view(PAYMENT))
    assert read_row(shown, 0) == as_read("Боб → Анна")


def test_sh1106_column_offset_must_match_the_board() -> None:
    # A 1.3" board whose glass starts at RAM column 0 shows the picture shifted by two pixels
    # unless the driver is told (page_address_offset=0).
    panel = OledPanel("sh1106", column_offset=0)
    bus = FakeI2cBus({0x3C: panel})
    Oled(device=open_luma_device(chip="sh1106", bus=bus)).show(PAYMENT)
    expected = render_view(PAYMENT)
    shifted = Image.new("1", expected.size)
    shifted.paste(expected, (2, 0))
    assert same(panel.image(), shifted)
    Oled(device=open_luma_device(chip="sh1106", bus=bus, page_address_offset=0)).show(PAYMENT)
    assert same(panel.image(), expected)


def test_upside_down_mounting_rotates_the_frame() -> None:
    panel = OledPanel("ssd1306")
    Oled(device=open_luma_device(chip="ssd1306", rotate=2, bus=FakeI2cBus({0x3C: panel}))).show(PAYMENT)
    assert same(panel.image(), render_view(PAYMENT).rotate(180))


@pytest.mark.parametrize(
    ("chip", "transactions", "payload"),
    [
        ("ssd1306", 2, (1 + 6) + (1 + 1024)),  # one command write, then all pixels in one i2c_rdwr
        ("sh1106", 16, 8 * (1 + 3) + 8 * (1 + 128)),  # per page: set page/column, then 128 bytes
    ],
)
def test_a_full_frame_on_the_managed_bus_the_pi_uses(chip: str, transactions: int, payload: int) -> None:
    panel = OledPanel(chip)  # type: ignore[arg-type]
    bus = FakeI2cBus({0x3C: panel})
    with managed_smbus2(bus):
        oled = Oled(chip=chip)  # type: ignore[arg-type]
    start = len(bus.transactions)
    oled.show(PAYMENT)
    assert len(bus.transactions) - start == transactions
    assert bus.bytes_sent(start) == payload
    assert same(panel.image(), render_view(PAYMENT))


def test_a_missing_i2c_bus_says_how_to_enable_it() -> None:
    with managed_smbus2(FakeI2cBus(), ports=()), pytest.raises(DisplayError) as raised:
        Oled(chip="ssd1306")
    assert raised.value.bus == "I²C bus 1 (/dev/i2c-1) address 0x3C"
    assert "raspi-config nonint do_i2c 0" in raised.value.fix


def test_no_display_at_the_address_suggests_the_other_address() -> None:
    bus = FakeI2cBus({0x3D: OledPanel("sh1106")})
    with managed_smbus2(bus), pytest.raises(DisplayError, match="no display answers") as raised:
        Oled(address=0x3C)
    assert "i2cdetect -y 1" in raised.value.fix
    assert "0x3D" in raised.value.fix


def test_permission_denied_names_the_i2c_group(monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(port: int) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", f"/dev/i2c-{port}")

    monkeypatch.setattr(smbus2, "SMBus", denied)
    with pytest.raises(DisplayError, match="i2c group"):
        Oled()


def test_a_display_unplugged_during_the_game_is_a_display_error() -> None:
    bus = FakeI2cBus({0x3C: OledPanel("ssd1306")})
    oled = Oled(device=open_luma_device(chip="ssd1306", bus=bus))
    bus.panels.clear()
    with pytest.raises(DisplayError, match="stopped answering"):
        oled.show(PAYMENT)


def test_invalid_settings_are_refused_before_touching_the_bus() -> None:
    with pytest.raises(ValueError, match="chip"):
        open_luma_device(chip="ssd1309")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rotate"):
        open_luma_device(rotate=1)
    with pytest.raises(ValueError, match="address"):
        open_luma_device(address=0x80)


def test_close_blanks_the_panel_unless_asked_to_keep_the_picture() -> None:
    panel = OledPanel("ssd1306")
    bus = FakeI2cBus({0x3C: panel})
    oled = Oled(device=open_luma_device(chip="ssd1306", bus=bus))
    oled.show(ScreenView(title="Выключение"))
    oled.close(clear=False)
    assert panel.display_on
    assert panel.image().getbbox() is not None
    panel2 = OledPanel("ssd1306")
    oled2 = Oled(device=open_luma_device(chip="ssd1306", bus=FakeI2cBus({0x3C: panel2})))
    oled2.show(ScreenView(title="Выключение"))
    oled2.close()
    assert not panel2.display_on
    assert panel2.image().getbbox() is None
    with pytest.raises(DisplayError, match="closed"):
        oled2.show(PAYMENT)


def test_simulated_display_keeps_the_last_frame(tmp_path: Path) -> None:
    display = SimulatedDisplay()
    assert isinstance(display, Display)
    assert display.frame is None
    frames: list[Image.Image] = []
    display.add_listener(frames.append)
    display.show(PAYMENT)
    frame = display.frame
    assert frame is not None
    assert same(frame, render_view(PAYMENT))
    assert display.last_view == PAYMENT
    assert display.frames == 1
    assert len(frames) == 1
    with Image.open(io.BytesIO(display.png_bytes(scale=4))) as png:
        assert png.size == (512, 256)
        assert same(png.resize((128, 64), Image.Resampling.NEAREST), frame)
    display.save_png(tmp_path / "frame.png")
    with Image.open(tmp_path / "frame.png") as saved:
        assert same(saved, frame)


def test_show_image_converts_and_scales() -> None:
    display = SimulatedDisplay()
    grey = Image.new("L", (256, 128), 255)
    display.show_image(grey)
    frame = display.frame
    assert frame is not None
    assert frame.mode == "1"
    assert frame.size == (128, 64)
    assert frame.getextrema() == (255, 255)


# A display that browns out or goes away during a game ---------------------------------------------

BALANCE = ScreenView(title="Ann", amount="$1,500", footer="OK")


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_a_panel_that_browned_out_is_initialised_again(chip: str) -> None:
    panel = OledPanel(chip)  # type: ignore[arg-type]
    bus = FakeI2cBus({0x3C: panel})
    now = [0.0]
    oled = Oled(device=open_luma_device(chip=chip, bus=bus), clock=lambda: now[0])  # type: ignore[arg-type]
    oled.show(PAYMENT)
    panel.power_cycle()  # it still acknowledges every write, but shows nothing
    now[0] += 1
    oled.show(BALANCE)
    assert not panel.display_on  # no sign of it yet
    now[0] += oled.refresh_s or 0
    oled.show(PAYMENT)
    assert panel.display_on  # lit again by the init sequence sent after the frame
    assert oled.reinitialisations == 1
    now[0] += oled.whole_s or 0
    oled.show(PAYMENT)
    assert same(panel.image(), render_view(PAYMENT))  # what its RAM lost is drawn again, whole
    oled.close()


def test_a_display_that_stopped_answering_is_used_again_when_it_answers() -> None:
    panel = OledPanel("sh1106")
    bus = FakeI2cBus({0x3C: panel})
    oled = Oled(device=open_luma_device(chip="sh1106", bus=bus))
    oled.show(PAYMENT)
    del bus.panels[0x3C]  # a loose wire
    with pytest.raises(DisplayError, match="stopped answering"):
        oled.show(BALANCE)
    panel.power_cycle()
    bus.panels[0x3C] = panel  # back, and blank after losing power
    oled.show(BALANCE)
    assert panel.display_on
    assert same(panel.image(), render_view(BALANCE))
    oled.close()


def test_close_does_not_raise_when_the_display_is_gone() -> None:
    import luma.core.error  # type: ignore[import-untyped]

    bus = FakeI2cBus({0x3C: OledPanel("sh1106")})
    oled = Oled(device=open_luma_device(chip="sh1106", bus=bus))

    def gone() -> None:
        raise luma.core.error.DeviceNotFoundError("I2C device not found on address: 0x3C")

    oled.device.cleanup = gone
    oled.close(clear=False)
    assert oled.closed


def test_keep_alive_brings_back_a_panel_that_browned_out_while_the_screen_did_not_change() -> None:
    panel = OledPanel("ssd1306")
    bus = FakeI2cBus({0x3C: panel})
    now = [0.0]
    oled = Oled(device=open_luma_device(chip="ssd1306", bus=bus), clock=lambda: now[0])
    oled.show(PAYMENT)
    panel.power_cycle()
    oled.keep_alive()
    assert not panel.display_on  # not due yet
    dark = 0.0
    while not panel.display_on:  # the table's tick, every half second
        now[0] += 0.5
        dark += 0.5
        oled.keep_alive()
    assert dark <= 5.0  # lit again within 5 s (it was 300 s)
    sent = sum(len(transaction.payload) for transaction in bus.transactions)
    now[0] += oled.refresh_s or 0
    oled.keep_alive()
    assert sum(len(transaction.payload) for transaction in bus.transactions) - sent < 40  # ≈0.7 ms at 400 kHz
    while not same(panel.image(), render_view(PAYMENT)):
        now[0] += 0.5
        oled.keep_alive()
    assert now[0] <= 60.0  # the whole picture back within a minute
    oled.close()


# Re-initialisation: the same luma device, no leak, no dark picture ---------------------------------

def _commands_until_the_first_data(bus: FakeI2cBus) -> list[int]:
    sent: list[int] = []
    for transaction in bus.transactions:
        if transaction.payload[0] & 0x40:
            break
        sent.extend(transaction.payload[1:])
    return sent


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_the_init_sequence_sent_again_is_the_one_the_installed_luma_sends(chip: str) -> None:
    from hardware.oled import LUMA_CONTRAST, init_sequence

    bus = FakeI2cBus({0x3C: OledPanel(chip)})  # type: ignore[arg-type]
    device = open_luma_device(chip=chip, bus=bus)  # type: ignore[arg-type]
    sequence = init_sequence(device)
    assert sequence is not None
    expected = [0xE3, 0xAE, *sequence, 0x81, LUMA_CONTRAST[chip]]  # our NOP probe, then luma's constructor
    # Then the cleared frame's own address commands and its data.
    assert _commands_until_the_first_data(bus)[: len(expected)] == expected


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_a_hundred_reinitialisations_keep_under_100_kib(chip: str) -> None:
    import gc
    import tracemalloc

    bus = FakeI2cBus({0x3C: OledPanel(chip)})  # type: ignore[arg-type]
    now = [0.0]
    oled = Oled(device=open_luma_device(chip=chip, bus=bus), clock=lambda: now[0])  # type: ignore[arg-type]
    image = render_view(PAYMENT)
    oled.show_image(image)
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(100):
            now[0] += oled.refresh_s or 0
            oled.show_image(image)
            bus.transactions.clear()  # the fake bus's own record is not the driver's memory
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert oled.reinitialisations == 100
    assert grown < 100 * 1024, f"{grown / 1024:.0f} KiB kept by 100 re-initialisations"
    oled.close()


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_a_reinitialisation_never_darkens_the_picture(chip: str) -> None:
    panel = OledPanel(chip)  # type: ignore[arg-type]
    bus = FakeI2cBus({0x3C: panel})
    now = [0.0]
    oled = Oled(device=open_luma_device(chip=chip, bus=bus), clock=lambda: now[0])  # type: ignore[arg-type]
    oled.show(PAYMENT)
    expected = render_view(PAYMENT)
    seen: list[tuple[bool, bool]] = []
    receive = panel.receive

    def watched(payload: bytes) -> None:
        receive(payload)
        seen.append((panel.display_on, same(panel.image(), expected)))

    panel.receive = watched  # type: ignore[method-assign]
    now[0] += oled.refresh_s or 0
    oled.show(PAYMENT)
    assert oled.reinitialisations == 1
    assert seen and all(on and picture for on, picture in seen), seen
    oled.close()


# Only what changed goes on the wire ----------------------------------------------------------------

SCREENS = (
    PAYMENT,
    BALANCE,
    ScreenView(title="Ann", amount="$1,450", footer="OK"),
    ScreenView(title="Ann", amount="$1,450", footer="OK", inverted=True),
    ScreenView(title="Boardwalk", lines=("Ann pays Bob", "rent with a hotel"), amount="$2,000",
               footer="OK pay  ✕ back"),
    ScreenView(),
    ScreenView(title="Join", qr="http://192.168.1.23:8080/j/K7QP"),
    PAYMENT,
)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_every_frame_is_right_on_the_panel_when_only_changes_are_sent(chip: str, rotate: int) -> None:
    panel = OledPanel(chip)  # type: ignore[arg-type]
    bus = FakeI2cBus({0x3C: panel})
    with managed_smbus2(bus):
        oled = Oled(chip=chip, rotate=rotate)  # type: ignore[arg-type]
    for view in SCREENS:
        oled.show(view)
        expected = render_view(view)
        assert same(panel.image(), expected if rotate == 0 else expected.rotate(180)), view


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_a_small_change_sends_a_small_part_of_the_frame(chip: str) -> None:
    panel = OledPanel(chip)  # type: ignore[arg-type]
    bus = FakeI2cBus({0x3C: panel})
    with managed_smbus2(bus):
        oled = Oled(chip=chip)  # type: ignore[arg-type]
    oled.show(ScreenView(title="Ann", amount="$1,500", footer="OK"))
    start = len(bus.transactions)
    oled.show(ScreenView(title="Ann", amount="$1,450", footer="OK"))  # two digits of the amount change
    assert 0 < bus.bytes_sent(start) < 1024 // 3
    assert same(panel.image(), render_view(ScreenView(title="Ann", amount="$1,450", footer="OK")))
    start = len(bus.transactions)
    oled.show(ScreenView(title="Ann", amount="$1,450", footer="OK"))
    assert bus.bytes_sent(start) == 0  # nothing changed: nothing sent


def test_a_frame_after_a_failure_is_sent_whole() -> None:
    panel = OledPanel("ssd1306")
    bus = FakeI2cBus({0x3C: panel})
    oled = Oled(device=open_luma_device(chip="ssd1306", bus=bus))
    oled.show(PAYMENT)
    del bus.panels[0x3C]
    with pytest.raises(DisplayError):
        oled.show(BALANCE)
    panel.power_cycle()  # its RAM is noise now, which nothing on the bus tells
    bus.panels[0x3C] = panel
    oled.show(BALANCE)
    assert same(panel.image(), render_view(BALANCE))


def test_the_wire_time_of_a_frame_is_on_the_emulated_clock() -> None:
    from hardware.emulator import VirtualClock

    clock = VirtualClock()
    for hz, full_ms in ((400_000, 23.3), (1_000_000, 9.3)):
        bus = FakeI2cBus({0x3C: OledPanel("ssd1306")}, clock=clock, clock_hz=hz)
        with managed_smbus2(bus):
            oled = Oled(chip="ssd1306")
        start = clock.now
        oled.show(PAYMENT)
        # 2 writes: 9 clocks a byte (8 bits and the acknowledge) for address + payload, START and STOP each.
        clocks = (2 + 9 * (1 + 7)) + (2 + 9 * (1 + 1025))
        assert clock.now - start == pytest.approx(clocks / hz)
        assert (clock.now - start) * 1000 == pytest.approx(full_ms, abs=0.1)


# An OLED module on SPI (the 7-pin modules: CS, D/C, RES, SCK, MOSI) --------------------------------

@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_an_spi_panel_shows_every_frame_and_a_frame_takes_a_millisecond_on_the_wire(chip: str) -> None:
    from hardware.factory import DisplayConfig, TableConfig, open_table

    config = TableConfig(mode="emulated", display=DisplayConfig(chip=chip, interface="spi"))  # type: ignore[arg-type]
    with open_table(config) as table:
        assert table.emulation is not None
        panel, spi, clock = table.emulation.panel, table.emulation.spi, table.emulation.clock
        assert panel.display_on and panel.frames >= 1  # luma's init, through the D/C and RES lines
        for view in SCREENS:
            table.display.show(view)
            assert same(panel.image(), render_view(view)), view
        table.display.show(PAYMENT)
        messages, before = spi.messages, clock.monotonic()
        table.display.show(ScreenView(title="Join", qr="http://192.168.1.23:8080/j/K7QP"))  # nearly every byte
        wire_ms = (clock.monotonic() - before) * 1000
        if chip == "ssd1306":
            # 8 MHz, and the changed pages in one window of horizontal addressing: a command and a data write.
            assert spi.messages - messages == 2 and wire_ms < 1.5
        else:
            # The SH1106 takes 2 MHz at most and has page addressing only: a window a page.
            assert spi.messages - messages <= 16 and wire_ms < 5


def test_an_spi_panel_is_refused_where_its_pins_or_clock_do_not_fit() -> None:
    from hardware.factory import DisplayConfig, ReaderConfig, TableConfig

    TableConfig(display=DisplayConfig(chip="ssd1306", interface="spi")).validate()  # SPI1 CE2, D/C 22, RES 27
    with pytest.raises(ValueError, match="a reader on one chip select"):
        TableConfig(readers=(ReaderConfig(1, 2),), display=DisplayConfig(interface="spi")).validate()
    with pytest.raises(ValueError, match="GPIO5 is assigned to both"):
        TableConfig(display=DisplayConfig(interface="spi", dc_pin=5)).validate()  # the OK button's pin
    with pytest.raises(ValueError, match="SH1106 is one of"):
        TableConfig(display=DisplayConfig(chip="sh1106", interface="spi", spi_hz=8_000_000)).validate()
