"""A reader that stops answering mid-game: the table says so on the OLED and goes on with the others."""

from __future__ import annotations

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
