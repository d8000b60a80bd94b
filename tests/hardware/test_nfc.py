"""hardware.nfc.Mfrc522Reader: the real mfrc522 code, with our fixes, against emulated readers."""

from __future__ import annotations

import errno
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

import pytest

from hardware.emulator import EmulatedCard, FakeGpio, FakeSpiBus, Mfrc522Chip, emulated_pi
from hardware.emulator.fake_spidev import FakeSpiDev
from hardware.errors import NfcReaderError
from hardware.nfc import Mfrc522Reader, SpiMessage, import_mfrc522
from tests.hardware.conftest import Readers

CLASSIC = bytes.fromhex("DEADBEEF")
NTAG = bytes.fromhex("046E51C2B33480")


def test_reads_a_4_byte_uid_without_the_check_byte(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.classic(CLASSIC))
    with Mfrc522Reader() as reader:
        assert reader.poll() == CLASSIC


def test_reads_all_7_bytes_of_an_ntag_uid_through_cascade_level_2(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.ntag(NTAG))
    with Mfrc522Reader() as reader:
        assert reader.poll() == NTAG
    sent = [frame[:2] for frame in readers.ce0.frames_sent]
    # No SELECT at the last level: its anticollision answer holds the rest of the UID (no cascade tag).
    assert sent == [b"\x52", b"\x93\x20", b"\x93\x70", b"\x95\x20", b"\x50\x00"]


def test_a_4_byte_uid_needs_no_select(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.classic(CLASSIC))
    with Mfrc522Reader() as reader:
        assert reader.poll() == CLASSIC
    assert [frame[:2] for frame in readers.ce0.frames_sent] == [b"\x52", b"\x93\x20", b"\x50\x00"]


def test_reads_a_10_byte_uid_through_cascade_level_3(readers: Readers) -> None:
    uid = bytes.fromhex("0102030405060708090A")
    readers.ce0.place(EmulatedCard(uid=uid, atqa=b"\x84\x00", sak=0x20))
    with Mfrc522Reader() as reader:
        assert reader.poll() == uid


def test_a_select_and_the_next_levels_anticollision_are_one_spi_message(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.ntag(NTAG))
    with Mfrc522Reader() as reader:
        calls, transfers = readers.spi.messages, readers.ce0.transfers
        assert reader.poll() == NTAG
        # WUPA; anticollision CL1; SELECT CL1 with anticollision CL2; HLTA (a message each: five before).
        assert readers.spi.messages - calls == 4
        assert readers.ce0.transfers - transfers == 38
    assert [frame[:2] for frame in readers.ce0.frames_sent] == [b"\x52", b"\x93\x20", b"\x93\x70", b"\x95\x20",
                                                                b"\x50\x00"]


def test_a_10_byte_uid_takes_a_message_a_level_and_the_halt(readers: Readers) -> None:
    uid = bytes.fromhex("0102030405060708090A")
    readers.ce0.place(EmulatedCard(uid=uid, atqa=b"\x84\x00", sak=0x20))
    with Mfrc522Reader() as reader:
        calls = readers.spi.messages
        assert reader.poll() == uid
        assert readers.spi.messages - calls == 5  # WUPA, CL1, SELECT CL1 + CL2, SELECT CL2 + CL3, HLTA (seven before)


def test_a_select_that_goes_unanswered_gives_nothing_though_the_next_level_went_out_with_it(readers: Readers) -> None:
    card = EmulatedCard.ntag(NTAG)
    card.leave_after_frames = 2  # answers WUPA and the first anticollision, then is gone
    readers.ce0.place(card)
    with Mfrc522Reader() as reader:
        assert reader.poll() is None
        assert [frame[:2] for frame in readers.ce0.frames_sent] == [b"\x52", b"\x93\x20", b"\x93\x70", b"\x95\x20"]
        readers.ce0.place(card)
        card.leave_after_frames = None
        assert reader.poll() == NTAG


def test_a_messages_transfer_is_replaced_in_place_only_by_one_of_its_length() -> None:
    message = SpiMessage([[0x02, 0x00], [0x12, 0x34, 0x56]], speed_hz=4_000_000)
    message.set_frame(1, [0x12, 0x9A, 0xBC])
    assert message.frames[1] == [0x12, 0x9A, 0xBC]
    with pytest.raises(ValueError, match="3 bytes, not 2"):
        message.set_frame(1, [0x12, 0x9A])


def test_an_empty_poll_is_one_system_call_that_sleeps_through_a_short_timer(readers: Readers) -> None:
    clock = readers.spi.clock
    with Mfrc522Reader() as reader:
        assert readers.ce0.timer_period_s == pytest.approx(0.0003, rel=1e-3)
        before, calls, start = readers.ce0.transfers, readers.spi.messages, clock.monotonic()
        assert reader.poll() is None
        # The library's 15.5 ms timer and a spinning wait read CommIrqReg hundreds of times a poll; here the
        # register writes that start the WUPA, the kernel's wait and the look at the chip are one SPI message.
        assert readers.spi.messages - calls == 1
        assert readers.ce0.transfers - before == 8
        assert clock.monotonic() - start < 0.001


def test_a_card_left_on_the_reader_is_seen_on_every_poll(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.ntag(NTAG))
    with Mfrc522Reader() as reader:
        assert [reader.poll() for _ in range(6)] == [NTAG] * 6


def test_a_card_pulled_away_mid_read_gives_nothing_rather_than_part_of_its_uid(readers: Readers) -> None:
    card = EmulatedCard.ntag(NTAG)
    card.leave_after_frames = 3  # answers WUPA, anticollision and SELECT of level 1, then is gone
    readers.ce0.place(card)
    with Mfrc522Reader() as reader:
        assert reader.poll() is None
        assert card not in readers.ce0.cards
        readers.ce0.place(card)
        assert reader.poll() == NTAG


@pytest.mark.parametrize("frames", [1, 2, 3])
def test_any_interruption_point_gives_none(readers: Readers, frames: int) -> None:
    card = EmulatedCard.ntag(NTAG)
    card.leave_after_frames = frames
    readers.ce0.place(card)
    with Mfrc522Reader() as reader:
        assert reader.poll() is None


def test_two_cards_on_one_reader_give_nothing_until_one_is_taken_away(readers: Readers) -> None:
    first = readers.ce0.place(EmulatedCard.classic("01020304"))
    readers.ce0.place(EmulatedCard.ntag(NTAG))
    with Mfrc522Reader() as reader:
        assert [reader.poll() for _ in range(4)] == [None] * 4
        readers.ce0.remove(first)
        assert {reader.poll(), reader.poll()} == {NTAG}


def test_two_readers_read_independently(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.classic(CLASSIC))
    readers.ce1.place(EmulatedCard.ntag(NTAG))
    with Mfrc522Reader(device=0) as ce0, Mfrc522Reader(device=1) as ce1:
        assert (ce0.poll(), ce1.poll()) == (CLASSIC, NTAG)
        readers.ce0.remove()
        assert (ce0.poll(), ce1.poll()) == (None, NTAG)


def test_reset_pin_is_bcm_gpio25_and_close_leaves_gpio_alone(readers: Readers) -> None:
    reader = Mfrc522Reader(rst_pin=25)
    assert readers.pi.gpio.mode == 11  # BCM, the numbering gpiozero uses too
    assert readers.pi.gpio.levels == {25: 1}
    assert reader.version == 0x92
    assert len(readers.spi.open_devices) == 1
    reader.close()
    assert readers.spi.open_devices == []
    assert readers.pi.gpio.cleanups == 0
    assert readers.pi.gpio.levels == {25: 1}


def test_reset_tied_to_3v3_touches_no_gpio(readers: Readers) -> None:
    with Mfrc522Reader(rst_pin=None):
        assert readers.pi.gpio.history == []


def test_an_injected_spi_device_is_used_as_is(readers: Readers) -> None:
    readers.ce1.place(EmulatedCard.classic(CLASSIC))
    spi = FakeSpiDev(readers.spi)
    spi.open(0, 1)
    with Mfrc522Reader(spi=spi) as reader:
        assert reader.poll() == CLASSIC
    assert readers.pi.gpio.history == []
    assert spi.address == (0, 1)  # the caller opened it, the caller closes it


def test_board_numbering_set_elsewhere_is_an_error_not_a_wrong_pin(readers: Readers) -> None:
    readers.pi.gpio.setmode(10)
    with pytest.raises(NfcReaderError, match="BOARD numbering"):
        Mfrc522Reader()
    assert readers.spi.open_devices == []


def test_missing_spi_device_names_the_bus_and_how_to_enable_it(readers: Readers) -> None:
    with pytest.raises(NfcReaderError) as raised:
        Mfrc522Reader(bus=1, device=0)
    message = str(raised.value)
    assert "/dev/spidev1.0" in message
    assert "dtoverlay=spi1" in message
    readers.spi.endpoints.clear()
    with pytest.raises(NfcReaderError, match=r"spidev0\.0.*raspi-config nonint do_spi 0"):
        Mfrc522Reader()


def test_permission_denied_names_the_spi_group(readers: Readers) -> None:
    readers.spi.denied.add((0, 0))
    with pytest.raises(NfcReaderError, match="spi and gpio groups") as raised:
        Mfrc522Reader()
    assert raised.value.bus == "SPI0 CE0 (/dev/spidev0.0)"


def test_nothing_wired_to_the_chip_select_is_reported_with_the_wiring(readers: Readers) -> None:
    readers.spi.attach(1, 0, None)
    with pytest.raises(NfcReaderError, match="no MFRC522 answers") as raised:
        Mfrc522Reader(bus=1, device=0)
    assert "MISO to GPIO19" in raised.value.fix
    assert "SDA/SS to GPIO18" in raised.value.fix
    assert readers.spi.open_devices == []


def test_raspberry_pi_5_gpio_failure_points_to_rpi_lgpio() -> None:
    spi = FakeSpiBus()
    spi.attach(0, 0, Mfrc522Chip())
    gpio = FakeGpio(setup_error=RuntimeError("Cannot determine SOC peripheral base address"))
    with emulated_pi(spi, gpio), pytest.raises(NfcReaderError, match="rpi-lgpio") as raised:
        Mfrc522Reader()
    assert raised.value.bus == "GPIO25 (reset pin)"
    assert spi.open_devices == []


def test_without_rpi_gpio_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] in ("mfrc522", "RPi")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "RPi", None)  # what a laptop without RPi.GPIO has
    with pytest.raises(NfcReaderError) as raised:
        import_mfrc522("NFC reader 0", "SPI0 CE0")
    assert "'RPi" in raised.value.problem
    assert "rpi-lgpio" in raised.value.fix


def test_without_the_mfrc522_package_the_error_gives_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] == "mfrc522"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "mfrc522", None)
    with pytest.raises(NfcReaderError, match="pip install --no-deps mfrc522==0.0.7"):
        Mfrc522Reader()


class _NotARaspberryPi(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes ``import RPi.GPIO`` fail the way RPi.GPIO does on other machines."""

    def find_spec(self, name: str, path: object, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(name, self) if name == "RPi.GPIO" else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        raise RuntimeError("This module can only be run on a Raspberry Pi!")


def test_rpi_gpio_refusing_to_load_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] in ("mfrc522", "RPi")]:
        monkeypatch.delitem(sys.modules, name)
    package = types.ModuleType("RPi")
    package.__path__ = []
    monkeypatch.setitem(sys.modules, "RPi", package)
    monkeypatch.setattr(sys, "meta_path", [_NotARaspberryPi(), *sys.meta_path])
    with pytest.raises(NfcReaderError, match="RPi.GPIO refused to load.*simulated"):
        Mfrc522Reader()


def test_an_spi_failure_while_polling_is_a_reader_error(readers: Readers) -> None:
    reader = Mfrc522Reader()

    def unplugged(data: list[int]) -> list[int]:
        raise OSError(errno.EIO, "Input/output error")

    readers.ce0.spi_transfer = unplugged  # type: ignore[method-assign]
    with pytest.raises(NfcReaderError, match="SPI transfer failed"):
        reader.poll()
    reader.close()
    with pytest.raises(NfcReaderError, match="closed"):
        reader.poll()


def test_crc_of_select_is_checked(readers: Readers) -> None:
    card = readers.ce0.place(EmulatedCard.ntag(NTAG))
    original = card.receive

    def corrupt_sak(frame: bytes, bits: int) -> object:
        answer = original(frame, bits)
        if answer is not None and frame[:2] == b"\x93\x70":
            answer.data = answer.data[:1] + bytes([answer.data[1] ^ 0xFF]) + answer.data[2:]
        return answer

    card.receive = corrupt_sak  # type: ignore[method-assign,assignment]
    with Mfrc522Reader() as reader:
        assert reader.poll() is None


def test_an_spi_failure_while_opening_is_a_reader_error_and_releases_the_bus(readers: Readers) -> None:
    def unplugged(data: list[int]) -> list[int]:
        raise OSError(errno.EIO, "Input/output error")

    readers.ce0.spi_transfer = unplugged  # type: ignore[method-assign]
    with pytest.raises(NfcReaderError, match="SPI transfer failed.*check the wiring"):
        Mfrc522Reader()
    assert readers.spi.open_devices == []


# Reader health: a chip that was reset, or stopped answering, mid-game -------------------------------


def test_a_chip_reset_mid_game_is_noticed_and_reinitialised(readers: Readers) -> None:
    with Mfrc522Reader(device=0) as reader, Mfrc522Reader(device=1) as other:
        readers.ce0.brown_out()  # antenna off, timer unset: every poll would find nothing for ever
        readers.ce0.place(EmulatedCard.classic(CLASSIC))
        readers.ce1.place(EmulatedCard.ntag(NTAG))
        results = [reader.poll() for _ in range(3)]
        assert results[1:] == [CLASSIC, CLASSIC]
        assert reader.recoveries == 0 and reader.failures == 1  # on probation until it stays healthy
        readers.spi.clock.sleep(2.1)
        assert reader.poll() == CLASSIC
        assert reader.recoveries == 1 and reader.failures == 0 and reader.fault is None
        assert readers.ce0.resets == 2  # the brown-out, then the driver's pulse on RST
        # The pulse reset the reader sharing GPIO25 too: it is initialised again before its next poll.
        assert other.poll() == NTAG
        assert readers.ce1.timer_period_s == pytest.approx(0.0003, rel=1e-3)
        assert reader.last_good_poll is not None


def test_a_reader_whose_miso_reads_zero_becomes_faulty_and_costs_the_others_little(readers: Readers) -> None:
    clock = readers.spi.clock
    with Mfrc522Reader(device=0) as reader:
        readers.ce0.miso_stuck = 0x00
        start = clock.monotonic()
        assert reader.poll() is None
        assert reader.poll() is None
        with pytest.raises(NfcReaderError, match="VersionReg reads 0x00") as raised:
            reader.poll()
        assert raised.value.bus == "SPI0 CE0 (/dev/spidev0.0)"
        assert "MISO to GPIO9" in raised.value.fix and "other readers" in raised.value.fix
        assert (clock.monotonic() - start) / 3 < 0.03  # not 100 ms of spinning a poll
        transfers = readers.ce0.transfers
        with pytest.raises(NfcReaderError):
            reader.poll()
        assert readers.ce0.transfers == transfers  # until the retry time, a faulty reader costs nothing
        readers.ce0.miso_stuck = None
        clock.sleep(2.1)
        assert reader.poll() is None
        assert reader.fault is None and reader.failures == 0


def test_the_library_init_loses_its_settings_after_a_reset_and_ours_waits_for_the_oscillator(
    readers: Readers,
) -> None:
    from hardware.nfc import initialise

    with Mfrc522Reader(rst_pin=None, device=0) as reader:
        chip = reader._chip
        readers.ce0.brown_out()
        chip.MFRC522_Init()  # writes at once: the oscillator is still starting, the writes are lost
        assert readers.ce0.timer_period_s is None
        readers.ce0.brown_out()
        initialise(chip)
        assert readers.ce0.timer_period_s == pytest.approx(0.0003, rel=1e-3)
        assert readers.ce0.antenna_on


def test_a_third_reader_on_spi1_is_told_about_spi1_3cs(readers: Readers) -> None:
    with pytest.raises(NfcReaderError) as raised:
        Mfrc522Reader(bus=1, device=2)
    assert "dtoverlay=spi1-3cs" in raised.value.fix
    assert "GPIO16" in raised.value.fix


class _LgpioInUnwritableDirectory(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes ``import RPi.GPIO`` fail as rpi-lgpio does when lgpio cannot create its pipe."""

    def find_spec(self, name: str, path: object, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(name, self) if name == "RPi.GPIO" else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", ".lgd-nfy-3")


def test_lgpio_unable_to_create_its_pipe_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] in ("mfrc522", "RPi")]:
        monkeypatch.delitem(sys.modules, name)
    package = types.ModuleType("RPi")
    package.__path__ = []
    monkeypatch.setitem(sys.modules, "RPi", package)
    monkeypatch.setattr(sys, "meta_path", [_LgpioInUnwritableDirectory(), *sys.meta_path])
    with pytest.raises(NfcReaderError, match="notification pipe") as raised:
        Mfrc522Reader()
    assert "WorkingDirectory=" in raised.value.fix


def test_retries_of_a_faulty_reader_do_not_pulse_the_shared_reset_pin(readers: Readers) -> None:
    with Mfrc522Reader(device=0) as reader, Mfrc522Reader(device=1) as other:
        readers.ce0.miso_stuck = 0x00
        for _ in range(2):
            reader.poll()
        with pytest.raises(NfcReaderError):
            reader.poll()
        resets = readers.ce1.resets
        readers.ce1.place(EmulatedCard.ntag(NTAG))
        for _ in range(3):
            readers.spi.clock.sleep(2.1)
            with pytest.raises(NfcReaderError):
                reader.poll()
            assert other.poll() == NTAG
        assert readers.ce1.resets == resets  # the working reader was left alone


def test_a_reset_pin_held_by_the_running_table_says_to_stop_it() -> None:
    spi = FakeSpiBus()
    spi.attach(0, 0, Mfrc522Chip())

    class LgpioError(Exception):
        pass

    gpio = FakeGpio(setup_error=LgpioError("'GPIO busy'"))
    with emulated_pi(spi, gpio), pytest.raises(NfcReaderError, match="systemctl stop table-banker"):
        Mfrc522Reader()
    assert spi.open_devices == []


def test_the_receiver_gain_is_set_and_set_again_after_a_reset(readers: Readers) -> None:
    with Mfrc522Reader(rx_gain_db=48) as reader, Mfrc522Reader(device=1) as other:
        assert readers.ce0.registers[0x26] == 0x78  # RxGain 111 (48 dB); the reserved bits as they were
        assert readers.ce1.registers[0x26] == 0x48  # the chip's own 33 dB
        readers.ce0.brown_out()
        assert readers.ce0.registers[0x26] == 0x48
        readers.ce0.place(EmulatedCard.classic(CLASSIC))
        assert [reader.poll() for _ in range(3)][1:] == [CLASSIC, CLASSIC]
        assert readers.ce0.registers[0x26] == 0x78
        assert other.poll() is None
    with pytest.raises(ValueError, match="rx_gain_db is one of"):
        Mfrc522Reader(rx_gain_db=40)


def test_the_pi_extra_installs_on_every_pi() -> None:
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    extra = [requirement.split("==")[0].lower() for requirement in project["project"]["optional-dependencies"]["pi"]]
    assert "rpi.gpio" not in extra  # fails on a Pi 5; rpi-lgpio is the same module on every model
    assert "lgpio" not in extra  # from apt: no wheel for Python 3.13, and a pip copy shadows the apt one
    assert "mfrc522" not in extra  # it requires RPi.GPIO: installed with --no-deps
    assert "rpi-lgpio" in extra
