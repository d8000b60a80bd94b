"""The MFRC522 emulator behaves like the chip where a driver could pass against it and fail on a Pi."""

from __future__ import annotations

import pytest

from hardware.emulator import EmulatedCard, Mfrc522Chip, VirtualClock
from hardware.emulator.mfrc522_chip import (
    BIT_FRAMING_REG,
    COMM_IEN_REG,
    COMM_IRQ_REG,
    COMMAND_REG,
    CRC_RESULT_REG_L,
    CRC_RESULT_REG_M,
    ERROR_REG,
    FIFO_DATA_REG,
    FIFO_LEVEL_REG,
    STATUS1_REG,
    T_MODE_REG,
    T_PRESCALER_REG,
    T_RELOAD_REG_L,
    TX_CONTROL_REG,
)

IRQ_RX, IRQ_ERR, IRQ_TIMER = 0x20, 0x02, 0x01


def write(chip: Mfrc522Chip, register: int, *values: int) -> None:
    chip.spi_transfer([(register << 1) & 0x7E, *values])


def read(chip: Mfrc522Chip, register: int) -> int:
    return chip.spi_transfer([((register << 1) & 0x7E) | 0x80, 0])[1]


def set_up(chip: Mfrc522Chip, reload: int = 30) -> None:
    """The library's timer (TAuto, 2 kHz) with ``reload`` ticks, and the antenna on."""
    write(chip, T_MODE_REG, 0x8D)
    write(chip, T_PRESCALER_REG, 0x3E)
    write(chip, T_RELOAD_REG_L, reload)
    write(chip, TX_CONTROL_REG, 0x83)


def transceive(chip: Mfrc522Chip, frame: list[int], last_bits: int = 0) -> None:
    write(chip, COMMAND_REG, 0x00)
    write(chip, COMM_IRQ_REG, 0x7F)
    write(chip, FIFO_LEVEL_REG, 0x80)
    write(chip, FIFO_DATA_REG, *frame)
    write(chip, COMMAND_REG, 0x0C)
    write(chip, BIT_FRAMING_REG, 0x80 | last_bits)


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


def test_the_timer_raises_timer_irq_only_when_it_runs_out(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock=clock)
    set_up(chip, reload=30)
    assert chip.timer_period_s == pytest.approx(31 * 6781 / 13.56e6)  # ≈15.5 ms: the library's setting
    transceive(chip, [0x52], last_bits=7)
    clock.sleep(0.015)
    assert not read(chip, COMM_IRQ_REG) & IRQ_TIMER
    assert read(chip, STATUS1_REG) & 0x08  # TRunning
    clock.sleep(0.001)
    assert read(chip, COMM_IRQ_REG) & IRQ_TIMER


def test_a_chip_whose_timer_is_not_set_up_never_times_out(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock=clock)
    write(chip, TX_CONTROL_REG, 0x83)  # antenna on, but TModeReg as after reset: no TAuto
    transceive(chip, [0x52], last_bits=7)
    clock.sleep(1.0)
    assert not read(chip, COMM_IRQ_REG) & (IRQ_TIMER | IRQ_RX)


def test_a_card_answers_after_the_frame_delay_and_the_timer_stops(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(EmulatedCard.classic("DEADBEEF"), clock=clock)
    set_up(chip, reload=3)
    transceive(chip, [0x52], last_bits=7)
    assert not read(chip, COMM_IRQ_REG) & IRQ_RX  # the frame is still on the air
    assert read(chip, FIFO_LEVEL_REG) == 0
    clock.sleep(0.0005)
    assert read(chip, COMM_IRQ_REG) & IRQ_RX
    assert read(chip, FIFO_LEVEL_REG) == 2
    clock.sleep(0.01)
    assert not read(chip, COMM_IRQ_REG) & IRQ_TIMER


def test_tx_last_bits_is_honoured_on_every_frame(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(EmulatedCard.classic("DEADBEEF"), clock=clock)
    set_up(chip, reload=3)
    transceive(chip, [0x52], last_bits=7)
    clock.sleep(0.001)
    # Anticollision sent with BitFramingReg still at 7 bits: the card gets a broken frame.
    transceive(chip, [0x93, 0x20], last_bits=7)
    clock.sleep(0.005)
    assert read(chip, COMM_IRQ_REG) & (IRQ_RX | IRQ_TIMER) == IRQ_TIMER


def test_flush_buffer_clears_buffer_overflow_and_the_error_raises_err_irq(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock=clock)
    write(chip, FIFO_DATA_REG, *range(65))
    assert read(chip, ERROR_REG) & 0x10  # BufferOvfl
    assert read(chip, COMM_IRQ_REG) & IRQ_ERR
    write(chip, FIFO_LEVEL_REG, 0x80)
    assert read(chip, ERROR_REG) & 0x10 == 0
    assert read(chip, FIFO_LEVEL_REG) == 0


def test_status1_reports_irq_crc_and_fifo_levels(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock=clock)
    assert read(chip, STATUS1_REG) == 0x01  # LoAlert: the FIFO is empty
    write(chip, FIFO_DATA_REG, 0x50, 0x00)
    write(chip, COMMAND_REG, 0x03)  # CalcCRC
    assert read(chip, STATUS1_REG) & 0x20  # CRCReady
    write(chip, COMM_IEN_REG, 0x80 | 0x40)
    write(chip, COMM_IRQ_REG, 0x80 | 0x40)
    assert read(chip, STATUS1_REG) & 0x10  # IRq: an enabled interrupt is pending


def test_crc_result_resets_to_ff(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock=clock)
    assert (read(chip, CRC_RESULT_REG_M), read(chip, CRC_RESULT_REG_L)) == (0xFF, 0xFF)


def test_soft_power_down_switches_the_field_off_and_waking_takes_the_oscillator_time(clock: VirtualClock) -> None:
    card = EmulatedCard.classic("DEADBEEF")
    chip = Mfrc522Chip(card, clock=clock)
    set_up(chip, reload=3)
    write(chip, COMMAND_REG, 0x10)  # PowerDown
    assert not chip.antenna_on
    transceive(chip, [0x52], last_bits=7)  # ignored: the chip is powered down
    write(chip, COMMAND_REG, 0x00)  # wake up
    assert read(chip, COMMAND_REG) & 0x10  # still starting
    clock.sleep(0.002)
    assert read(chip, COMMAND_REG) & 0x10 == 0
    assert chip.antenna_on


def test_rcv_off_hears_nothing(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(EmulatedCard.classic("DEADBEEF"), clock=clock)
    set_up(chip, reload=3)
    write(chip, COMMAND_REG, 0x20)  # RcvOff
    write(chip, COMM_IRQ_REG, 0x7F)
    write(chip, FIFO_DATA_REG, 0x52)
    write(chip, COMMAND_REG, 0x20 | 0x0C)
    write(chip, BIT_FRAMING_REG, 0x87)
    clock.sleep(0.005)
    assert read(chip, COMM_IRQ_REG) & (IRQ_RX | IRQ_TIMER) == IRQ_TIMER


def test_rst_low_silences_the_chip_and_the_rising_edge_resets_it(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock=clock)
    set_up(chip)
    chip.set_reset_level(0)
    assert read(chip, 0x37) == 0x00  # hard power-down: nothing answers on SPI
    chip.set_reset_level(1)
    assert read(chip, COMMAND_REG) & 0x10  # PowerDown until the oscillator runs
    write(chip, T_MODE_REG, 0x8D)  # lost
    clock.sleep(0.002)
    assert read(chip, COMMAND_REG) & 0x10 == 0
    assert read(chip, T_MODE_REG) == 0x00
    assert read(chip, TX_CONTROL_REG) == 0x80  # antenna off after reset
    assert chip.resets == 1
