"""A part missing when the table starts: the table opens anyway, says which part, and uses it once it answers."""

from __future__ import annotations

import gc
import tracemalloc
from types import SimpleNamespace

import pytest

from hardware import DisplayError, NfcReaderError, ReaderConfig, ScreenView, TableConfig, Tap, open_table, render_view
from hardware.absent import RETRY_S, AbsentDisplay, AbsentReader
from hardware.emulator import EmulatedCard, FakeI2cBus, FakeSpiBus, Mfrc522Chip, OledPanel, emulated_pi, managed_smbus2
from hardware.oled import open_luma_device

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

ANN = bytes.fromhex("DEADBEEF")
BOB = bytes.fromhex("046E51C2B33480")


def test_pi_mode_starts_with_a_reader_that_does_not_answer_and_uses_it_once_it_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [0.0]
    monkeypatch.setattr("hardware.factory.time", SimpleNamespace(monotonic=lambda: now[0]))
    spi = FakeSpiBus()
    spi.attach(0, 0, Mfrc522Chip(EmulatedCard.classic(ANN)))
    spi.attach(0, 1, None)  # a loose reader: VersionReg reads 0x00 (this stopped the table before)
    config = TableConfig(mode="pi", pin_factory="mock")
    with emulated_pi(spi), managed_smbus2(FakeI2cBus({0x3C: OledPanel("sh1106")})), open_table(config) as table:
        assert set(table.faults()) == {"reader:1"}
        fault = table.faults()["reader:1"]
        assert isinstance(fault, NfcReaderError) and "VersionReg reads 0x00" in fault.problem
        assert [health.fault is not None for health in table.hub.health()] == [False, True]  # from the start
        assert table.hub.poll_once() == [Tap(0, ANN)]  # the other reader works
        spi.attach(0, 1, Mfrc522Chip(EmulatedCard.ntag(BOB)))  # the wire is pushed back in
        assert table.hub.poll_once() == []  # not tried again yet
        now[0] += RETRY_S
        assert table.hub.poll_once() == [Tap(1, BOB)]
        assert table.faults() == {}


def test_pi_mode_starts_without_a_display_and_the_readers_work() -> None:
    spi = FakeSpiBus()
    spi.attach(0, 0, Mfrc522Chip(EmulatedCard.classic(ANN)))
    spi.attach(0, 1, Mfrc522Chip())
    bus = FakeI2cBus()  # I²C is enabled, nothing acknowledges at 0x3C (this stopped the table before)
    config = TableConfig(mode="pi", pin_factory="mock")
    with emulated_pi(spi), managed_smbus2(bus), open_table(config) as table:
        assert isinstance(table.display, AbsentDisplay)
        assert set(table.faults()) == {"display"}
        with pytest.raises(DisplayError, match="no display answers"):
            table.display.show(ScreenView(title="Ann", amount="$1,500"))
        assert table.hub.poll_once() == [Tap(0, ANN)]  # the readers work without it


def test_an_absent_display_is_tried_again_after_its_retry_time() -> None:
    bus = FakeI2cBus()
    now = [0.0]

    def opener() -> object:
        from hardware.oled import Oled

        with managed_smbus2(bus):
            return Oled(chip="sh1106")

    with managed_smbus2(bus), pytest.raises(DisplayError) as raised:
        opener()
    display = AbsentDisplay(opener, raised.value, clock=lambda: now[0])  # type: ignore[arg-type]
    view = ScreenView(title="Ann", amount="$1,500")
    panel = OledPanel("sh1106")
    bus.panels[0x3C] = panel
    with pytest.raises(DisplayError):
        display.show(view)  # plugged in, but not yet tried again
    now[0] += RETRY_S
    display.show(view)
    assert not display.absent and display.attempts == 2
    assert panel.display_on and panel.image() == render_view(view)
    display.close(clear=False)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_trying_an_absent_display_a_hundred_times_keeps_under_100_kib(chip: str) -> None:
    # luma keeps every device it builds (its exit hook holds it): a failed attempt must not build one.
    bus = FakeI2cBus()
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(100):
            with pytest.raises(DisplayError):
                open_luma_device(chip=chip, bus=bus)  # type: ignore[arg-type]
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 100 * 1024, f"{grown / 1024:.0f} KiB kept by 100 failed attempts"


def test_the_emulated_table_leaves_out_the_parts_asked_and_plugs_them_in() -> None:
    config = TableConfig(mode="emulated")
    with open_table(config, absent=("reader:1", "display")) as table:
        emulation = table.emulation
        assert emulation is not None
        assert set(table.faults()) == {"reader:1", "display"}
        reader = table.readers[1]
        assert isinstance(reader, AbsentReader)
        emulation.chips[0].place(EmulatedCard.classic(ANN))
        assert table.hub.poll_once() == [Tap(0, ANN)]
        emulation.connect("reader:1")
        emulation.connect("display")
        emulation.clock.sleep(RETRY_S)
        emulation.chips[1].place(EmulatedCard.ntag(BOB))
        assert [tap.reader for tap in table.hub.poll_once()] == [1]
        view = ScreenView(title="Bob")
        table.display.show(view)
        assert emulation.panel.image() == render_view(view)
        assert table.faults() == {}


@pytest.mark.parametrize(
    ("absent", "message"),
    [(("reader:2",), "no part 'reader:2'"), (("speaker",), "no part 'speaker'"), (("reader:1",), "only an emulated")],
)
def test_leaving_out_a_part_the_table_does_not_have_is_refused(absent: tuple[str, ...], message: str) -> None:
    mode = "simulated" if message.startswith("only") else "emulated"
    with pytest.raises(ValueError, match=message):
        open_table(TableConfig(mode=mode, readers=(ReaderConfig(0, 0), ReaderConfig(0, 1))), absent=absent)
