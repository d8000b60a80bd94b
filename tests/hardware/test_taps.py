"""TagReaderHub: one stream of taps, one tap per placement, from simulated and emulated readers."""

from __future__ import annotations

from typing import Any

import pytest

from hardware.emulator import EmulatedCard
from hardware.errors import NfcReaderError
from hardware.nfc import Mfrc522Reader
from hardware.protocols import TagReader
from hardware.taps import REMOVALS_KEPT, Removal, SimulatedReader, TagReaderHub, Tap
from tests.hardware.conftest import Readers

ANN = bytes.fromhex("DEADBEEF")
BOB = bytes.fromhex("046E51C2B33480")


class Clock:
    """A hand-moved clock for the hub: every poll round takes ``step`` seconds."""

    def __init__(self, step: float = 0.025) -> None:
        self.now = 100.0
        self.step = step

    def __call__(self) -> float:
        return self.now


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


def run(hub: TagReaderHub, polls: int, clock: Clock | None = None) -> list[Tap]:
    taps = []
    for _ in range(polls):
        taps.extend(hub.poll_once())
        if clock is not None:
            clock.now += clock.step
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


def test_a_card_counts_as_removed_after_its_absence_time_not_after_two_misses() -> None:
    # Before: removal after two misses (≈50 ms), so a card dropping out for two polls tapped twice.
    clock = Clock(step=0.025)
    hub = TagReaderHub([ScriptedReader(ANN, None, None, None, ANN, *[None] * 40, ANN)], clock=clock)
    assert run(hub, 5, clock) == [Tap(0, ANN)]
    assert run(hub, 42, clock) == [Tap(0, ANN)]  # 40 polls = 1 s without it: lifted and put back
    assert hub.removals.get_nowait() == Removal(0, ANN)


def test_simulated_readers_are_exact_two_misses_remove_the_card() -> None:
    reader = SimulatedReader()
    hub = TagReaderHub([reader])
    reader.place(ANN)
    run(hub, 1)
    reader.remove()
    run(hub, 2)
    reader.place(ANN)
    assert run(hub, 1) == [Tap(0, ANN)]
    strict = TagReaderHub([SimulatedReader()], misses_to_remove=4)
    assert strict.misses_to_remove == 4


def test_the_same_card_again_within_the_cooldown_does_not_tap_again() -> None:
    clock = Clock(step=0.05)
    # Seen, gone for 0.7 s (removed), seen again 0.75 s after its tap: the slide of one placement.
    results = [ANN, *[None] * 14, ANN, *[None] * 40, ANN]
    hub = TagReaderHub([ScriptedReader(*results)], clock=clock, remove_after_s=0.6, cooldown_s=1.0)
    assert run(hub, 16, clock) == [Tap(0, ANN)]
    assert run(hub, 41, clock) == [Tap(0, ANN)]  # two seconds later: a new tap


def test_a_deed_put_on_a_bank_card_does_not_make_the_bank_card_tap_again(readers: Readers) -> None:
    clock = readers.spi.clock
    ann = readers.ce0.place(EmulatedCard.classic(ANN))
    with TagReaderHub([Mfrc522Reader()], clock=clock.monotonic) as hub:

        def rounds(count: int) -> list[Tap]:
            taps = []
            for _ in range(count):
                taps.extend(hub.poll_once())
                clock.sleep(0.015)
            return taps

        assert rounds(3) == [Tap(0, ANN)]
        deed = readers.ce0.place(EmulatedCard.ntag(BOB))  # on top: the two collide, neither is read
        assert rounds(60) == []  # more than a second
        readers.ce0.remove(deed)
        assert rounds(5) == []  # the bank card was never gone
        readers.ce0.remove(ann)
        assert rounds(60) == []
        assert [hub.removals.get_nowait()] == [Removal(0, ANN)]


def test_a_card_at_the_edge_of_the_field_taps_once(readers: Readers) -> None:
    clock = readers.spi.clock
    # It gets enough field for one poll in three: the old two-miss rule tapped it again and again.
    readers.ce0.place(EmulatedCard.classic(ANN, edge=(True, False, False)))
    with TagReaderHub([Mfrc522Reader()], clock=clock.monotonic) as hub:
        taps = []
        for _ in range(60):
            taps.extend(hub.poll_once())
            clock.sleep(0.015)
        assert taps == [Tap(0, ANN)]
        assert hub.last_good == [pytest.approx(clock.monotonic() - 0.015, abs=0.01)]


def test_swapping_cards_without_a_gap_taps_the_new_card() -> None:
    hub = TagReaderHub([ScriptedReader(ANN, ANN, BOB, BOB)])
    assert run(hub, 4) == [Tap(0, ANN), Tap(0, BOB)]


def test_taps_carry_the_reader_index_and_the_time() -> None:
    clock = Clock(step=1.0)
    clock.now = 10.0
    hub = TagReaderHub([ScriptedReader(), ScriptedReader(None, BOB), ScriptedReader(ANN)], clock=clock)
    taps = run(hub, 2, clock)
    assert taps == [Tap(2, ANN), Tap(1, BOB)]
    assert [tap.at for tap in taps] == [10.0, 11.0]
    assert taps[1].uid_text == "04:6E:51:C2:B3:34:80"


def test_a_failing_reader_is_recorded_and_the_others_keep_working() -> None:
    failure = NfcReaderError("NFC reader 0", "SPI0 CE0", "SPI transfer failed", "check the wiring")
    seen: list[tuple[int, object]] = []
    hub = TagReaderHub(
        [ScriptedReader(failure, failure, ANN), ScriptedReader(BOB)], on_fault=lambda i, e: seen.append((i, e))
    )
    assert run(hub, 1) == [Tap(1, BOB)]
    assert hub.faults == {0: failure}
    assert seen == [(0, failure)]
    health = hub.health()
    assert health[0].fault is failure and health[0].last_good_poll is None
    assert health[1].fault is None and health[1].last_good_poll is not None
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
    with TagReaderHub([Mfrc522Reader(device=0), Mfrc522Reader(device=1)], clock=readers.spi.clock.monotonic) as hub:
        assert run(hub, 10) == [Tap(1, BOB)]
        readers.ce1.remove()
        assert run(hub, 3) == []
        readers.spi.clock.sleep(1.0)  # off for a second: removed, and past the cooldown
        assert run(hub, 2) == []
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
    card.leave_after_frames = 3  # gone before cascade level 2 completes
    readers.ce0.place(card)
    with TagReaderHub([Mfrc522Reader()]) as hub:
        assert run(hub, 3) == []
        readers.ce0.place(card)
        assert run(hub, 3) == [Tap(0, BOB)]


def test_removals_nobody_reads_keep_only_the_newest() -> None:
    # The table reads taps only: over hours of play the unread removals must not pile up.
    cards = [bytes([4, 0, 0, n % 256, n // 256, 1, 2]) for n in range(500)]
    clock = Clock(step=1.0)  # every poll a second apart: each card is gone after one empty poll pair
    hub = TagReaderHub([ScriptedReader(*[result for card in cards for result in (card, None, None)])], clock=clock)
    taps = run(hub, 3 * len(cards), clock)
    assert len(taps) == len(cards)
    assert hub.removals.qsize() == REMOVALS_KEPT
    kept = [hub.removals.get_nowait() for _ in range(REMOVALS_KEPT)]
    assert [removal.uid for removal in kept] == cards[-REMOVALS_KEPT:]


def test_a_tap_is_handed_on_before_its_cards_halt_goes_out(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.ntag(BOB))
    with TagReaderHub([Mfrc522Reader()], clock=readers.spi.clock.monotonic) as hub:
        sent_when_queued: list[list[bytes]] = []
        put = hub.taps.put

        def queued(tap: Tap) -> None:
            sent_when_queued.append([frame[:1] for frame in readers.ce0.frames_sent])
            put(tap)

        hub.taps.put = queued  # type: ignore[method-assign]
        assert hub.poll_once() == [Tap(0, BOB)]
        # WUPA, anticollision CL1, SELECT CL1, anticollision CL2 when the tap was queued; HLTA (0x50) after it.
        assert sent_when_queued == [[b"\x52", b"\x93", b"\x93", b"\x95"]]
        assert readers.ce0.frames_sent[-1][:2] == b"\x50\x00"


def test_a_reader_whose_halt_was_left_and_never_sent_halts_the_card_before_its_next_poll(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.ntag(BOB))
    with Mfrc522Reader() as reader:
        reader.defer_halt = True
        assert reader.poll() == BOB
        assert readers.ce0.frames_sent[-1][:1] == b"\x95"  # no HLTA yet
        assert reader.poll() == BOB  # the HLTA first, on the air before the WUPA; the card answers again
        assert [frame[:1] for frame in readers.ce0.frames_sent[4:6]] == [b"\x50", b"\x52"]
