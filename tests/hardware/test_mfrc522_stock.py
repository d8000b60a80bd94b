"""The unmodified mfrc522 package against the register-level emulator.

These tests pin down the emulator (the stock code works against it the way issue reports say it
works against a real RC522) and the faults that hardware.nfc exists to work around.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from hardware.emulator import EmulatedCard, FakeSpiBus, Mfrc522Chip, emulated_pi
from tests.hardware.conftest import Readers

CLASSIC = "DEADBEEF"
NTAG = "046E51C2B33480"


def stock_reader(readers: Readers, device: int = 0) -> Any:
    """A SimpleMFRC522 on the given chip select (its constructor only knows CE0)."""
    simple_class = readers.pi.SimpleMFRC522
    simple = simple_class.__new__(simple_class)
    simple.READER = readers.pi.MFRC522(bus=0, device=device)
    return simple


def test_stock_code_reads_the_uid_plus_its_check_byte(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.classic(CLASSIC))
    simple = readers.pi.SimpleMFRC522()
    assert simple.read_id_no_block() == 0xDEADBEEF22  # 0x22 is the BCC, not part of the UID


def test_stock_code_reads_a_7_byte_uid_as_cascade_tag_and_3_bytes(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.ntag(NTAG))
    simple = readers.pi.SimpleMFRC522()
    # 0x88 (cascade tag) 04 6E 51 + BCC 0xB3: the numbers reported as "136-4-110-81-179".
    assert simple.read_id_no_block() == 0x88046E51B3


def test_stock_empty_poll_spins_through_2000_register_reads(readers: Readers) -> None:
    simple = readers.pi.SimpleMFRC522()
    before = readers.ce0.transfers
    assert simple.read_id_no_block() is None
    assert readers.ce0.transfers - before == 2013


def test_stock_code_sees_a_card_left_on_the_reader_every_other_poll(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.classic(CLASSIC))
    simple = readers.pi.SimpleMFRC522()
    seen = [simple.read_id_no_block() is not None for _ in range(6)]
    assert seen == [True, False, True, False, True, False]


def test_stock_reset_pin_default_depends_on_the_numbering_mode(readers: Readers) -> None:
    readers.pi.MFRC522()
    assert readers.pi.gpio.mode == 10  # BOARD
    assert readers.pi.gpio.levels == {22: 1}  # header pin 22 = GPIO25
    readers.pi.gpio.cleanup()
    readers.pi.gpio.setmode(11)  # BCM, as gpiozero's RPi.GPIO factory sets it
    readers.pi.MFRC522()
    assert readers.pi.gpio.levels == {15: 1}  # GPIO15 = header pin 10, the UART's RXD


def test_each_stock_instance_adds_a_log_handler(readers: Readers) -> None:
    logger = logging.getLogger("mfrc522Logger")
    before = len(logger.handlers)
    try:
        readers.pi.MFRC522(device=0)
        readers.pi.MFRC522(device=1)
        assert len(logger.handlers) == before + 2
    finally:
        del logger.handlers[before:]


def test_stock_crc_through_the_emulated_coprocessor_matches_iso(readers: Readers) -> None:
    chip = readers.pi.MFRC522()
    assert chip.CalulateCRC([0x50, 0x00]) == [0x57, 0xCD]
    assert chip.Read_MFRC522(chip.VersionReg) == 0x92


def test_stock_read_no_block_authenticates_and_reads_sector_2(readers: Readers) -> None:
    card = EmulatedCard.classic(CLASSIC)
    card.memory[8 * 16 : 8 * 16 + 9] = b"player:03"
    readers.ce0.place(card)
    uid_number, text = readers.pi.SimpleMFRC522().read_no_block()
    assert uid_number == 0xDEADBEEF22
    assert text.startswith("player:03")


def test_two_stock_readers_on_ce0_and_ce1_read_their_own_cards(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.classic("01020304"))
    readers.ce1.place(EmulatedCard.classic("A1A2A3A4"))
    assert stock_reader(readers, 0).read_id_no_block() >> 8 == 0x01020304
    assert stock_reader(readers, 1).read_id_no_block() >> 8 == 0xA1A2A3A4


def test_two_cards_on_one_reader_collide(readers: Readers) -> None:
    readers.ce0.place(EmulatedCard.classic("01020304"))
    readers.ce0.place(EmulatedCard.classic("A1A2A3A4"))
    simple = readers.pi.SimpleMFRC522()
    assert [simple.read_id_no_block() for _ in range(4)] == [None] * 4


def _faked_modules() -> dict[str, object]:
    return {name: module for name, module in sys.modules.items() if name.split(".")[0] in ("spidev", "RPi", "mfrc522")}


def test_emulation_puts_sys_modules_back() -> None:
    before = _faked_modules()
    chip = Mfrc522Chip()
    spi = FakeSpiBus()
    spi.attach(0, 0, chip)
    with emulated_pi(spi) as pi:
        assert sys.modules["spidev"].SpiDev is not None
        assert sys.modules["mfrc522.MFRC522"] is pi.mfrc522_module
        assert pi.mfrc522_module.spidev is sys.modules["spidev"]
    assert _faked_modules() == before
