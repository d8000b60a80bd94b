"""The faults a first build of the table meets, on the emulated table: a stuck button, two readers
failing at once, switching off from the table, and a fault at boot that must stay on the display."""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from firmware import grammar as g
from firmware import run
from firmware.config import Config
from firmware.loop import TableLoop
from hardware.display import render_view
from hardware.errors import ControlsError
from hardware.factory import Table, TableConfig, open_table

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.01)


def text(loop: TableLoop) -> str:
    view = loop.view
    return "" if view is None else " ".join([view.title, *view.lines, view.footer])


@pytest.fixture
def emulated() -> Iterator[tuple[TableLoop, Table]]:
    journal = Journal(":memory:")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="emulated", hold_time_s=0.05, stuck_time_s=0.3))
    loop = TableLoop(session, table)
    loop.render()
    yield loop, table
    loop.stop()
    table.close()
    journal.close()


def test_a_stuck_ok_button_is_a_fault_ignored_until_it_is_released_and_the_others_keep_working(
    emulated: tuple[TableLoop, Table],
) -> None:
    loop, table = emulated
    assert table.emulation is not None
    ok = table.emulation.pin_factory.pin(5)
    ok.drive_low()  # OK shorted to ground
    wait_until(lambda: loop.pump() > 0 and "Setup" in text(loop))  # the long press opens setup, as before
    wait_until(lambda: loop.pump() > 0 and "Button OK stuck" in text(loop))
    assert "ignored until it comes up" in " ".join(text(loop).split())
    assert [fault.part for fault in loop.faults()] == ["controls"]  # the phones are told
    loop.handle(g.Tick())
    loop.grammar = g.GrammarState(last_input=loop.clock())  # past the notice: the idle screen
    down = table.emulation.pin_factory.pin(26)
    cancel = table.emulation.pin_factory.pin(6)
    loop.handle(g.TapIn(loop.tags.resolve(loop.tags.uid_of("player:1") or "")))
    assert "Ann" in text(loop)
    down.drive_low()
    down.drive_high()
    cancel.drive_low()
    cancel.drive_high()
    loop.pump()
    assert "Ann" not in loop.view.title if loop.view is not None else False  # ✕ went back: Cancel works
    time.sleep(0.5)
    assert loop.pump() == 0  # the stuck OK sends nothing more, however long it stays down
    ok.drive_high()
    wait_until(lambda: loop.pump() > 0 and "Button OK works again" in text(loop))
    assert loop.faults() == []
    loop.handle(g.Tick())
    ok.drive_low()
    ok.drive_high()
    loop.pump()
    assert "Button OK" not in text(loop)  # an ordinary press again: the notice went on


def test_two_readers_that_stop_at_once_are_both_named_in_one_notice(emulated: tuple[TableLoop, Table]) -> None:
    loop, table = emulated
    assert table.emulation is not None
    for device in (0, 1):
        table.emulation.spi.attach(0, device, None)  # both boards lose power: MISO reads zeros
    for _ in range(5):
        loop.pump()
    assert set(loop.reader_faults()) == {0, 1}
    loop.handle(g.Tick())
    assert loop.view is not None
    assert loop.view.title == "Readers 1, 2 fault"
    said = " ".join(" ".join(loop.view.lines).split())
    assert "No reader answers (SPI0 CE0, SPI0 CE1)" in said


def test_setup_offers_switch_off_and_the_loop_stops_for_it(emulated: tuple[TableLoop, Table]) -> None:
    loop, _ = emulated
    loop.handle(g.Press("ok", long=True))
    assert loop.view is not None and "Switch off" not in loop.view.lines  # not offered unless allowed
    loop.can_switch_off = True
    loop.handle(g.Press("cancel"))
    loop.handle(g.Press("ok", long=True))
    assert loop.view is not None
    lines = list(loop.view.lines)
    for _ in range(lines.index("Switch off")):
        loop.handle(g.Press("down"))
    loop.handle(g.Press("ok"))
    assert text(loop).startswith("Switch off?")
    loop.handle(g.Press("ok"))
    assert loop.switch_off_requested
    assert "Saving the game and switching off" in text(loop)


def test_banker_run_switches_off_after_the_journal_is_closed_and_says_it_is_safe_to_unplug(tmp_path: Path) -> None:
    marker = tmp_path / "switched-off"
    config = Config(data_dir=tmp_path / "data", host="127.0.0.1", port=0, switch_off=("touch", str(marker)))
    table = open_table(TableConfig(mode="emulated", hold_time_s=0.05))
    stop = threading.Event()
    codes: list[int] = []
    thread = threading.Thread(target=lambda: codes.append(run.serve(config, table, stop, "emulated")), daemon=True)
    assert table.emulation is not None
    pins = table.emulation.pin_factory
    try:
        thread.start()
        time.sleep(1.0)  # the loop runs

        def press(pin: int, hold: float = 0.0) -> None:
            pins.pin(pin).drive_low()
            time.sleep(hold)
            pins.pin(pin).drive_high()
            time.sleep(0.3)

        press(5, hold=0.3)  # long OK: setup
        press(13)  # Up from the first line: the last, Switch off
        press(5)
        press(5)  # Yes, switch off
        thread.join(20)
        assert codes == [0]
        assert marker.exists()
        panel = table.emulation.panel
        assert panel.display_on
        assert panel.image() == render_view(run.switched_off_view("en"))
        journal = Journal(config.journal_path)  # the journal was closed cleanly: it opens again
        journal.close()
    finally:
        stop.set()
        thread.join(5)
        table.close()
    assert table.emulation.panel.display_on  # closing the table did not blank it


def test_a_lasting_fault_at_boot_stays_on_the_display_while_the_program_is_down(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import hardware.factory as factory

    panels: list[object] = []
    real_open_emulated = factory._open_emulated

    def without_gpio(*args: object, **kwargs: object) -> object:
        def no_lgpio(*_a: object, **_k: object) -> object:
            raise ControlsError("lgpio pin factory", "GPIO (gpiozero pin factory)", "its library is not installed",
                                "sudo apt install python3-lgpio", lasting=True)

        monkeypatch.setattr(factory, "GpioControls", no_lgpio)
        return real_open_emulated(*args, **kwargs)  # type: ignore[arg-type]

    from hardware.emulator import oled_panel

    real_init = oled_panel.OledPanel.__post_init__

    def remember(self: oled_panel.OledPanel) -> None:
        real_init(self)
        if self not in panels:
            panels.append(self)

    monkeypatch.setattr(oled_panel.OledPanel, "__post_init__", remember)
    monkeypatch.setattr(factory, "_open_emulated", without_gpio)
    args = argparse.Namespace(config=None, port=0, host="127.0.0.1", data_dir=str(tmp_path), lang=None,
                              simulated=False, emulated=True, absent=[])
    assert run.cmd_run(args) == 3
    panel = panels[0]
    assert isinstance(panel, oled_panel.OledPanel)
    assert panel.display_on  # not blanked on the way out
    error = ControlsError("lgpio pin factory", "GPIO (gpiozero pin factory)", "its library is not installed",
                          "sudo apt install python3-lgpio", lasting=True)
    assert panel.image() == render_view(run.boot_fault_view(error, "en"))


def test_a_data_directory_that_cannot_be_used_is_said_on_the_display(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    config = Config(data_dir=blocker / "data", host="127.0.0.1", port=0)
    table = open_table(TableConfig(mode="emulated"))
    try:
        assert run.serve(config, table, threading.Event(), "emulated") == 2
        assert table.emulation is not None
        view = table.display.last_view  # type: ignore[attr-defined]
        assert view is not None and view.title == "Cannot start"
        assert "cannot use the data directory" in view.lines[0]
    finally:
        table.close()
    assert table.emulation.panel.display_on


@pytest.mark.parametrize(("flags", "part"), [("0x50005", "power"), ("0x50000", "power_since_boot"), ("0x0", None)])
def test_a_weak_supply_is_told_to_the_phones(emulated: tuple[TableLoop, Table], tmp_path: Path, flags: str,
                                             part: str | None) -> None:
    from banker.messages import render

    loop, _table = emulated
    throttled = tmp_path / "get_throttled"
    throttled.write_text(flags + "\n")  # as the Pi's firmware gives them in sysfs
    loop.throttled = str(throttled)
    assert [fault.part for fault in loop.faults()] == ([part] if part else [])
    if part:
        for language in ("en", "ru", "bg"):
            assert "Pi" in render(f"web_fault_{part}", {}, language)
