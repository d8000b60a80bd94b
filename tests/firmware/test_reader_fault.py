"""A reader that stops answering mid-game: the table says so on the OLED and goes on with the others."""

from __future__ import annotations

import logging

import pytest

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from firmware import grammar as g
from firmware.grammar import FAULT_S as FAULT_NOTICE_S
from firmware.loop import TableLoop
from hardware.controls import SimulatedControls
from hardware.errors import NfcReaderError
from hardware.factory import TableConfig, open_table
from hardware.taps import SimulatedReader


class Broken:
    def poll(self) -> bytes | None:
        raise NfcReaderError("NFC reader 1 (MFRC522)", "SPI0 CE1 (/dev/spidev0.1)", "stopped answering", "check it")

    def close(self) -> None:
        pass


def test_a_reader_fault_is_shown_and_the_other_reader_still_taps() -> None:
    journal = Journal(":memory:")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="simulated"))
    now = [100.0]
    loop = TableLoop(session, table, clock=lambda: now[0])
    try:
        table.hub.readers[1] = Broken()
        loop.pump()
        assert set(loop.reader_faults()) == {1}
        loop.handle(g.Tick())
        assert loop.view is not None and loop.view.title == "Reader 2 fault"
        assert "SPI0 CE1 does not answer." in " ".join(loop.view.lines)
        controls = table.controls
        assert isinstance(controls, SimulatedControls) and controls.beeps[-1] == "error"
        now[0] += FAULT_NOTICE_S + 1
        loop.handle(g.Tick())
        assert loop.view.title != "Reader 2 fault"
        first = table.hub.readers[0]
        assert isinstance(first, SimulatedReader)
        first.tap(loop.tags.uid_of("player:1") or "")
        assert loop.pump() >= 1
        assert "Ann" in loop.view.title
    finally:
        loop.stop()
        table.close()
        journal.close()


def test_a_module_holding_miso_becomes_a_fault_though_each_pulse_on_the_shared_reset_cures_it_a_moment(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="hardware.nfc")
    # Two readers on SPI0 and one RST pin (GPIO25). Reader 1's module does not let go of MISO once its
    # antenna is on: reader 0 then reads zeros. A pulse on RST resets both, so reader 0 reads right again
    # until reader 1 is set up again, and so on.
    with open_table(TableConfig(mode="emulated")) as table:
        assert table.emulation is not None
        clock, gpio = table.emulation.clock, table.emulation.gpio
        table.emulation.chips[1].holds_miso = True
        hub = table.hub
        start = clock.monotonic()
        while clock.monotonic() - start < 10.0 and 0 not in hub.faults:
            hub.poll_once()
            hub.pause()
        became_faulty_s = clock.monotonic() - start
        while clock.monotonic() - start < 20.0:
            hub.poll_once()
            hub.pause()
        pulses = sum(1 for kind, pin, level in gpio.history if kind == "output" and pin == 25 and level == 0)
        warnings = [record for record in caplog.records if "re-initialising" in record.getMessage()]
    assert 0 in hub.faults and 1 not in hub.faults  # reader 0 is the fault shown; reader 1 reads itself fine
    assert became_faulty_s < 5.0
    assert pulses <= 4  # a few, then soft resets: every pulse resets the readers that work, too
    assert len(warnings) <= 20.0 / 10.0 + 1  # once every 10 s at most, with the count since
