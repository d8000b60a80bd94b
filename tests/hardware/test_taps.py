"""TagReaderHub: one stream of taps, one tap per placement, from simulated and emulated readers."""

from __future__ import annotations

from typing import Any

import pytest

from hardware.emulator import EmulatedCard
from hardware.errors import NfcReaderError
from hardware.nfc import Mfrc522Reader
from hardware.protocols import TagReader
from hardware.taps import SimulatedReader, TagReaderHub, Tap
from tests.hardware.conftest import Readers

ANN = bytes.fromhex("DEADBEEF")
BOB = bytes.fromhex("046E51C2B33480")


class ScriptedReader:
    """A reader that returns a fixed sequence of poll results (then nothing)."""

    def __init__(self, *results: bytes | None | Exception) -> None:
        self.results = list(results)
        self.closed = False

    def poll(self) -> bytes | None:
        result = self.results.pop(0) if self.results else None
        if isinstance(result, Exception):
            raise result
        return result

    def close(self) -> None:
        self.closed = True


def run(hub: TagReaderHub, polls: int) -> list[Tap]:
    taps = []
    for _ in range(polls):
        taps.extend(hub.poll_once())
    return taps


def test_simulated_tap_gives_exactly_one_tap() -> None:
    reader = SimulatedReader()
    hub = TagReaderHub([reader])
    reader.tap("DE:AD:BE:EF")
    assert run(hub, 10) == [Tap(0, ANN)]
    assert hub.get() == Tap(0, ANN)
    assert hub.get() is None


def test_the_same_card_tapped_twice_gives_two_taps() -> None:
    reader = SimulatedReader()
    hub = TagReaderHub([reader])
    reader.tap(ANN)
    reader.tap(ANN)
    assert run(hub, 10) == [Tap(0, ANN), Tap(0, ANN)]


def test_a_card_lying_on_the_reader_taps_once() -> None:
    reader = SimulatedReader()
    hub = TagReaderHub([reader])
    reader.place(BOB)
    assert run(hub, 20) == [Tap(0, BOB)]
    reader.remove()
    run(hub, 2)
    reader.place(BOB)
    assert run(hub, 5) == [Tap(0, BOB)]


def test_a_card_seen_every_other_poll_taps_once() -> None:
    flicker = ScriptedReader(*[ANN, None] * 10)
    hub = TagReaderHub([flicker])
    assert run(hub, 20) == [Tap(0, ANN)]


def test_one_miss_is_not_a_removal_but_two_are() -> None:
    hub = TagReaderHub([ScriptedReader(ANN, None, ANN, None, None, ANN)])
    assert run(hub, 6) == [Tap(0, ANN), Tap(0, ANN)]
    strict = TagReaderHub([ScriptedReader(ANN, None, None, None, ANN)], misses_to_remove=4)
    assert run(strict, 5) == [Tap(0, ANN)]


def test_swapping_cards_without_a_gap_taps_the_new_card() -> None:
    hub = TagReaderHub([ScriptedReader(ANN, ANN, BOB, BOB)])
    assert run(hub, 4) == [Tap(0, ANN), Tap(0, BOB)]


def test_taps_carry_the_reader_index_and_the_time() -> None:
    times = iter([10.0, 11.0])
    hub = TagReaderHub([ScriptedReader(), ScriptedReader(None, BOB), ScriptedReader(ANN)], clock=lambda: next(times))
    taps = run(hub, 2)
    assert taps == [Tap(2, ANN), Tap(1, BOB)]
    assert [tap.at for tap in taps] == [10.0, 11.0]
    assert taps[1].uid_text == "04:6E:51:C2:B3:34:80"


def test_a_failing_reader_is_recorded_and_the_others_keep_working() -> None:
    failure = NfcReaderError("NFC reader 0", "SPI0 CE0", "SPI transfer failed", "check the wiring")
    hub = TagReaderHub([ScriptedReader(failure, failure, ANN), ScriptedReader(BOB)])
    assert run(hub, 1) == [Tap(1, BOB)]
    assert hub.faults == {0: failure}
    assert run(hub, 2) == [Tap(0, ANN)]
    assert hub.faults == {}


def test_background_polling_delivers_taps_and_close_closes_readers() -> None:
    reader = SimulatedReader()
    with TagReaderHub([reader], interval_s=0.001) as hub:
        hub.start()
        reader.tap(BOB)
        assert hub.get(timeout=5) == Tap(0, BOB)
    assert reader.closed


def test_misses_to_remove_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        TagReaderHub([], misses_to_remove=0)


def test_simulated_reader_rejects_bad_uids() -> None:
    with pytest.raises(ValueError):
        SimulatedReader().tap("0102")


def test_readers_satisfy_the_protocol(readers: Readers) -> None:
    with Mfrc522Reader() as real:
        assert isinstance(real, TagReader)
    assert isinstance(SimulatedReader(), TagReader)


# The hub over the real driver and emulated chips -------------------------------------------------


def test_emulated_card_lying_on_the_reader_taps_once(readers: Readers) -> None:
    readers.ce1.place(EmulatedCard.ntag(BOB))
    with TagReaderHub([Mfrc522Reader(device=0), Mfrc522Reader(device=1)]) as hub:
        assert run(hub, 10) == [Tap(1, BOB)]
        readers.ce1.remove()
        assert run(hub, 3) == []
        readers.ce0.place(EmulatedCard.classic(ANN))
        readers.ce1.place(EmulatedCard.ntag(BOB))
        assert run(hub, 3) == [Tap(0, ANN), Tap(1, BOB)]


class StockReader:
    """The stock SimpleMFRC522 read_id_no_block as a TagReader (UID recovered from its number)."""

    def __init__(self, simple: Any) -> None:
        self.simple = simple

    def poll(self) -> bytes | None:
        number = self.simple.read_id_no_block()
        return None if number is None else (number >> 8).to_bytes(4, "big")

    def close(self) -> None:
        self.simple.READER.spi.close()


def test_debounce_also_tames_the_stock_code_that_sees_a_card_every_other_poll(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.classic(ANN))
    with TagReaderHub([StockReader(readers.pi.SimpleMFRC522())]) as hub:
        assert run(hub, 12) == [Tap(0, ANN)]


def test_a_card_pulled_away_mid_read_taps_once_with_its_full_uid(readers: Readers) -> None:
    card = EmulatedCard.ntag(BOB)
    card.leave_after_frames = 4  # gone before cascade level 2 completes
    readers.ce0.place(card)
    with TagReaderHub([Mfrc522Reader()]) as hub:
        assert run(hub, 3) == []
        readers.ce0.place(card)
        assert run(hub, 3) == [Tap(0, BOB)]
