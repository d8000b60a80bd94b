"""The MFRC522 (RC522) NFC reader driver, built on the ``mfrc522`` package with its faults fixed.

``mfrc522`` 0.0.7 is imported lazily, inside :class:`Mfrc522Reader`, because it imports
``RPi.GPIO`` at import time and that fails on anything but a Raspberry Pi. Its register access,
init sequence and ``MFRC522_Request`` are used as they are; these faults are worked around:

- **Empty polls spin for about a second.** ``MFRC522_ToCard`` waits with
  ``if ~((i != 0) and ~(n & 0x01) and ~(n & waitIRq))``, where ``~`` is bitwise, so the timer
  interrupt is ignored and an empty field costs 2000 register reads. The subclass made by
  :func:`fixed_mfrc522_class` waits for the timer as well, and sleeps between looks at the flags.
- **A 15.5 ms timeout, set before the chip is ready.** ``MFRC522_Init`` writes the registers right
  after the soft reset, while the oscillator may still be starting, and sets a 15.5 ms timer.
  :func:`initialise` waits for CommandReg.PowerDown to clear and sets a 1 ms timer.
- **A reset chip goes quiet.** After a brown-out the antenna is off and the timer unset: every poll
  finds nothing and nothing raises. :meth:`Mfrc522Reader.poll` checks the chip's health on every
  empty poll, re-initialises it, and reports the reader as faulty if that keeps failing.
- **Wrong UIDs.** ``SimpleMFRC522.uid_to_num`` includes the BCC check byte, and only cascade
  level 1 is read, so a 7-byte NTAG/Ultralight UID comes back as ``88 U0 U1 U2 BCC``. This driver
  runs anticollision and SELECT at every cascade level the card asks for (SAK bit 0x04) and returns
  the UID bytes alone.
- **A card left on the reader answers every other poll** (a REQA to a card that is already READY
  or ACTIVE sends it back to IDLE). This driver halts the card after each read (HLTA) and polls
  with WUPA, which wakes halted cards, so a card that stays on the reader is seen on every poll;
  :class:`hardware.taps.TagReaderHub` still debounces, one tap per placement.
- **The reset pin numbering trap.** With ``pin_rst=-1`` the library picks BOARD pin 22 (GPIO25) in
  BOARD mode but BCM 15 (header pin 10, the UART) in BCM mode. This driver always uses BCM numbers
  and an explicit ``rst_pin`` (default GPIO25), which also agrees with gpiozero's BCM numbering.
- **Duplicated log lines.** Each ``MFRC522()`` adds a handler to the shared logger; this driver
  does not go through that constructor. It never calls ``Close_MFRC522()``, whose global
  ``GPIO.cleanup()`` would reset pins other code owns.

On a Raspberry Pi 5 ``RPi.GPIO`` does not work; install ``rpi-lgpio`` (a drop-in ``RPi.GPIO``) and
``mfrc522`` with ``--no-deps`` (see hardware/README.md).
"""

from __future__ import annotations

import ctypes
import fcntl
import importlib
import logging
import struct
import time
import types
import weakref
from dataclasses import dataclass, replace
from typing import Any, Protocol

from hardware import iso14443
from hardware.errors import NfcReaderError, Phrase

log = logging.getLogger(__name__)

DEFAULT_RST_PIN = 25
"""BCM number of the reset pin: GPIO25, header pin 22 (the pin the library's BOARD default means)."""
DEFAULT_SPEED_HZ = 4_000_000
"""The SPI clock: the MFRC522 takes up to 10 Mbit/s (datasheet 8.1.2, SPI); 4 MHz is what the Arduino
library miguelbalboa/rfid uses (``MFRC522_SPICLOCK``). The mfrc522 package's 1 MHz made a poll's bytes
take four times as long on the wire, and the Pi's SPI driver waits for them with the CPU. Set
``spi_hz`` of a reader lower (1000000) for long or loose wires."""
HEALTH_EVERY = 16
"""Every this many polls, the look at an empty reader also reads the registers a reset chip loses (the
antenna, the timer, the command); in between it reads the interrupt flags, the errors, the FIFO level
and VersionReg, which a chip that stopped answering or a held MISO line already give away."""
KNOWN_VERSIONS = {
    0x88: "FM17522 clone",
    0x90: "MFRC522 v0.0",
    0x91: "MFRC522 v1.0",
    0x92: "MFRC522 v2.0",
    0x12: "MFRC522 counterfeit",
    0xB2: "FM17522E clone",
}
"""Values of VersionReg (0x37) seen on RC522 boards."""

_COMMAND_REG = 0x01
_COMM_IRQ_REG = 0x04
_FIFO_DATA_REG = 0x09
_CONTROL_REG = 0x0C
_TX_CONTROL_REG = 0x14
_T_MODE_REG = 0x2A
_T_PRESCALER_REG = 0x2B
_T_RELOAD_REG_H = 0x2C
_T_RELOAD_REG_L = 0x2D
_VERSION_REG = 0x37
_RF_CFG_REG = 0x26
_RX_GAIN_MASK = 0x70
RX_GAINS = {18: 0b000, 23: 0b001, 33: 0b100, 38: 0b101, 43: 0b110, 48: 0b111}
"""The receiver's gain in dB → RFCfgReg.RxGain (MFRC522 datasheet, RFCfgReg; 010 and 011 repeat 18 and 23 dB).
The chip starts at 33 dB; 43 or 48 dB helps an NTAG sticker read through a deed card, at the cost of
picking up more noise."""
_FIFO_WRITE = (_FIFO_DATA_REG << 1) & 0x7E
_FIFO_READ = _FIFO_WRITE | 0x80
_TIMER_IRQ = 0x01
_TX_IRQ = 0x40
_POWER_DOWN = 0x10
_T_STOP_NOW = 0x80
_PCD_SOFT_RESET = 0x0F
_PCD_TRANSMIT = 0x04
_T_MODE = 0x80
"""TAuto, and the high bits of the prescaler (0): the timer starts at the end of each frame sent."""
_T_PRESCALER = 0xA9
_TIMER_TICK_S = (2 * ((_T_MODE & 0x0F) << 8 | _T_PRESCALER) + 1) / 13_560_000
"""25 µs: "ftimer = 13.56 MHz / (2 × TPreScaler + 1)" (MFRC522 datasheet, 8.5 Timer unit) with
TPrescalerReg 0xA9 (169). The library's 0xD3E gives 0.5 ms ticks, too coarse for a short timeout."""
TIMER_RELOAD = 11
"""Timer ticks before "no card answered": (11 + 1) × 25 µs = 0.3 ms. A card starts answering 86-91 µs
after the reader's frame (ISO 14443-3 frame delay time: 1236/fc after a WUPA, 1172/fc after
ANTICOLLISION and SELECT, fixed for those commands) and the timer stops once it does (MFRC522
datasheet, TModeReg.TAuto), so 0.3 ms is three times the need. The library's 15.5 ms kept a reader
busy on every empty poll; this driver had 2 ms, then 1 ms, until the Pi's tap-to-glass figures
(docs/performance.md) asked for a shorter poll."""
LIBRARY_TIMER_RELOAD = 619
"""The library's 15.5 ms timeout in this driver's 25 µs ticks ((619 + 1) × 25 µs), for the bench."""
_WAIT_STEP_S = 0.00025
"""Sleep between two looks at CommIrqReg: a poll sleeps instead of spinning on the SPI bus. An answer
comes 0.3-1 ms after the command (its frame on the air at 106 kbit/s, the frame delay time, the answer's
frame), so a look every 0.25 ms finds it within a quarter of a millisecond."""
_WAIT_LIMIT_S = 0.01
"""A cap on one command: five times the chip's own timeout (longer timeouts get five times theirs).
A chip that raises no flag at all by then (its timer is not running: it was reset) is
re-initialised."""
_AWAKE_LIMIT_S = 0.05
"""How long to wait for the oscillator after a reset (CommandReg.PowerDown reads 0 once it runs);
the MFRC522 datasheet (section 8.8.2) gives the crystal's start-up time plus 37.74 µs."""
_RESET_PULSE_S = 0.0001
FAILURES_TO_FAULT = 3
"""Re-initialisations in a row that did not last before a reader is reported as faulty."""
HEALTHY_FOR_S = 2.0
"""A re-initialised reader counts as recovered only once it has stayed healthy this long: a module that
holds MISO, or a loose wire, passes the check right after a reset and fails it again moments later."""
RESET_PULSES = 2
"""Pulses on the RST pin before a reader only gets soft resets: the pin is often shared by every reader,
and each pulse resets them all (hardware/README.md, wiring)."""
RETRY_FAULTY_S = 2.0
"""A faulty reader is tried again this often; in between its polls fail at once, so the other
readers are not slowed down."""
NO_INTERRUPT = Phrase("no_irq", "the chip raised no interrupt at all")
WARN_EVERY_S = 10.0
"""A reader's "re-initialising it" warning is logged at most this often (with the count since)."""
CARD_ANSWER_MARGIN_S = 0.00005
"""Time added to a command's expected answer (its frame on the air, the frame delay time, the card's
frame) before the driver looks at the chip."""


_BIT_FRAMING_REG = 0x0D
_ERROR_REG = 0x06
_FIFO_LEVEL_REG = 0x0A
_LOOK_REGISTERS = (_COMM_IRQ_REG, _ERROR_REG, _FIFO_LEVEL_REG, _CONTROL_REG, _VERSION_REG)
"""What one look at the chip reads, in one chained SPI read: how the command ended, and VersionReg."""
_HEALTH_REGISTERS = (_TX_CONTROL_REG, _T_MODE_REG, _T_RELOAD_REG_L, _COMMAND_REG)
"""What a health check reads besides: the settings a reset chip loses."""
_CARRIER_HZ = 13_560_000
_BIT_S = 128 / _CARRIER_HZ
"""One bit at 106 kbit/s (ISO 14443-2)."""
_FRAME_DELAY_S = 1236 / _CARRIER_HZ
"""ISO 14443-3 frame delay time after a WUPA (the longest of the commands used here)."""


def _air_time(whole_bytes: int, last_bits: int) -> float:
    """A frame on the air: start of communication, 9 bits a byte (8 and parity), fewer in a short last
    byte, end of communication (ISO 14443-3, 6.1)."""
    bits = 2 + 9 * whole_bytes - (9 - last_bits if last_bits else 0)
    return bits * _BIT_S


_HALT_AIR_S = _air_time(4, 0)
"""HLTA on the air (two bytes and its CRC_A)."""


@dataclass(slots=True)
class _Status:
    """One look at the chip: the registers of :data:`_LOOK_REGISTERS` (and of :data:`_HEALTH_REGISTERS`
    when ``health``), then the FIFO bytes read after them."""

    irq: int
    error: int
    level: int
    control: int
    version: int
    health: tuple[int, int, int, int] | None
    """TxControlReg, TModeReg, TReloadRegL, CommandReg, when they were read."""
    data: list[int]

    @classmethod
    def read(cls, values: list[int], *, health: bool) -> _Status:
        """The values of a chained read of :data:`_LOOK_REGISTERS` (and :data:`_HEALTH_REGISTERS`), then
        of the FIFO."""
        irq, error, level, control, version = values[:5]
        rest = values[5:]
        checks = None
        if health:
            checks = (rest[0], rest[1], rest[2], rest[3])
            rest = rest[4:]
        return cls(irq, error, level, control, version, checks, rest)

    @property
    def answered(self) -> bool:
        """Something was received (the receiver's interrupt), readable or not."""
        return bool(self.irq & 0x20)

    def complete(self, whole_bytes: int) -> bool:
        """A clean answer of exactly ``whole_bytes`` bytes: received, no error (protocol, parity, CRC,
        collision, buffer overflow: ErrorReg 0x1B), that many in the FIFO, no bits left over."""
        return (self.answered and not self.error & 0x1B and self.level == whole_bytes
                and self.control & 0x07 == 0)


class _SystemClock:
    @staticmethod
    def monotonic() -> float:
        return time.monotonic()

    @staticmethod
    def sleep(seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


_RESET_LINES: dict[tuple[int, int], list[weakref.ref[Mfrc522Reader]]] = {}
"""Readers sharing one RST pin: pulsing it resets all of them."""


class SpiDevice(Protocol):
    """The part of ``spidev.SpiDev`` the library uses."""

    def xfer2(self, data: list[int]) -> list[int]: ...

    def close(self) -> None: ...


_IOC_WRITE = 1
_SPI_IOC_MAGIC = ord("k")
_SPI_IOC_TRANSFER = struct.Struct("=QQIIHBBBBBB")
"""linux/spi/spidev.h ``struct spi_ioc_transfer``: tx_buf, rx_buf (u64), len, speed_hz (u32),
delay_usecs (u16), bits_per_word, cs_change, tx_nbits, rx_nbits, word_delay_usecs, pad (u8): 32 bytes."""


def SPI_IOC_MESSAGE(count: int) -> int:  # noqa: N802 - the kernel's name
    """linux/spi/spidev.h ``SPI_IOC_MESSAGE(N)``: ``_IOW(SPI_IOC_MAGIC, 0, char[N * 32])``."""
    return _IOC_WRITE << 30 | (count * _SPI_IOC_TRANSFER.size) << 16 | _SPI_IOC_MAGIC << 8


class SpiMessage:
    """Transfers to run as one SPI message: each frame a transfer with its own chip-select frame, in one
    system call (``SPI_IOC_MESSAGE(n)`` with ``cs_change`` between transfers, linux/spi/spidev.h).
    ``delays_us[i]`` is transfer ``i``'s ``delay_usecs``: the kernel waits that long after it, before
    the next.

    A register access of the MFRC522 is one chip-select frame (an address byte, then data: datasheet
    8.1.2), so the six register writes that start a command, the wait for the card and the look at the
    outcome go in one call instead of seven ``xfer2`` calls and a sleep: on a Pi the call costs several
    times what each further transfer in it does, and the kernel's wait sleeps. py-spidev has no call
    for this; the ioctl is made on its file descriptor. The ``spi_ioc_transfer`` array and its buffers
    are made once here: a message that is the same every time (a poll's) costs one ioctl a run.
    """

    def __init__(self, frames: list[list[int]], delays_us: list[int] | None = None,
                 speed_hz: int = DEFAULT_SPEED_HZ) -> None:
        self.frames = frames
        self.delays_us = delays_us or [0] * len(frames)
        self._buffers = []
        self._packed = bytearray()
        for index, frame in enumerate(frames):
            tx = ctypes.create_string_buffer(bytes(frame), len(frame))
            rx = ctypes.create_string_buffer(len(frame))
            self._buffers.append((tx, rx))
            last = index == len(frames) - 1
            self._packed += _SPI_IOC_TRANSFER.pack(ctypes.addressof(tx), ctypes.addressof(rx), len(frame), speed_hz,
                                                   min(0xFFFF, self.delays_us[index]), 8, 0 if last else 1, 0, 0, 0, 0)
        self.request = SPI_IOC_MESSAGE(len(frames))

    def run(self, spi: Any) -> list[int]:
        """Run the message on ``spi``; the bytes read back during its last transfer.

        An emulated bus has ``message`` itself; an SPI device without a file descriptor gets one ``xfer2``
        a frame and a sleep for each delay.

        Raises:
            OSError: the transfer failed.
        """
        message = getattr(spi, "message", None)
        if message is not None:
            answers: list[list[int]] = message(self.frames, self.delays_us)
            return answers[-1]
        fileno = getattr(spi, "fileno", None)
        if fileno is None:
            return self._each(spi)[-1]
        fcntl.ioctl(fileno(), self.request, self._packed)
        return list(self._buffers[-1][1].raw)

    def run_all(self, spi: Any) -> list[list[int]]:
        """Run the message on ``spi`` (as :meth:`run`); the bytes read back during each transfer.

        Raises:
            OSError: the transfer failed.
        """
        message = getattr(spi, "message", None)
        if message is not None:
            answers: list[list[int]] = message(self.frames, self.delays_us)
            return answers
        fileno = getattr(spi, "fileno", None)
        if fileno is None:
            return self._each(spi)
        fcntl.ioctl(fileno(), self.request, self._packed)
        return self.answers()

    def _each(self, spi: Any) -> list[list[int]]:
        out: list[list[int]] = []
        for frame, delay in zip(self.frames, self.delays_us, strict=True):
            out.append(list(spi.xfer2(list(frame))))
            if delay:
                time.sleep(delay / 1e6)
        return out

    def set_frame(self, index: int, frame: list[int]) -> None:
        """Put ``frame`` in place of transfer ``index``'s bytes (the same length): a message made once and
        run with other data (a SELECT's UID bytes) without building its buffers again."""
        if len(frame) != len(self.frames[index]):
            raise ValueError(f"transfer {index} is {len(self.frames[index])} bytes, not {len(frame)}")
        self.frames[index] = frame
        ctypes.memmove(self._buffers[index][0], bytes(frame), len(frame))

    def answers(self) -> list[list[int]]:
        """The bytes read back during every transfer of the last run (a real device's)."""
        return [list(rx.raw) for _, rx in self._buffers]


def _write(register: int, *values: int) -> list[int]:
    """The SPI frame that writes ``values`` to ``register`` (MFRC522 datasheet 8.1.2.2)."""
    return [(register << 1) & 0x7E, *values]


def _read(*registers: int) -> list[int]:
    """The SPI frame that reads ``registers`` in one go: each byte out is the value of the address before
    it (datasheet 8.1.2.1, reading several bytes)."""
    return [((register << 1) & 0x7E) | 0x80 for register in registers] + [0]


def fixed_mfrc522_class(base: type) -> type:
    """A subclass of the library's ``MFRC522`` whose ``MFRC522_ToCard`` stops waiting on timeout.

    The stock wait loop ends when a card answered (RxIRq/IdleIRq) or after 2000 reads; this one
    also ends on TimerIRq, the chip's own "nobody answered" signal, and on a wall-clock limit.
    It also moves the FIFO in one SPI transaction each way instead of one per byte. An empty
    poll then costs 12 SPI transfers instead of 2013.
    """

    class FixedMFRC522(base):  # type: ignore[misc]
        def MFRC522_ToCard(self, command: int, sendData: list[int]) -> tuple[int, list[int], int]:  # noqa: N802, N803
            irq_enable, wait_irq = 0x00, 0x00
            if command == self.PCD_AUTHENT:
                irq_enable, wait_irq = 0x12, 0x10
            if command == self.PCD_TRANSCEIVE:
                irq_enable, wait_irq = 0x77, 0x30
            self.Write_MFRC522(self.CommIEnReg, irq_enable | 0x80)
            _start_command(self, sendData)
            self.Write_MFRC522(self.CommandReg, command)
            if command == self.PCD_TRANSCEIVE:
                self.SetBitMask(self.BitFramingReg, 0x80)
            irq = _wait_for_irq(self, wait_irq | _TIMER_IRQ)
            self.ClearBitMask(self.BitFramingReg, 0x80)
            if not irq:
                self.no_irq = True  # not even the timer: the chip is not set up (reset) or not there
            if not irq & wait_irq:
                # TimerIRq: no card answered. No flag at all: the chip never finished.
                return (self.MI_NOTAGERR if irq & _TIMER_IRQ else self.MI_ERR, [], 0)
            if self.Read_MFRC522(self.ErrorReg) & 0x1B:
                return (self.MI_ERR, [], 0)
            if command != self.PCD_TRANSCEIVE:
                return (self.MI_OK, [], 0)
            level = self.Read_MFRC522(self.FIFOLevelReg)
            last_bits = self.Read_MFRC522(self.ControlReg) & 0x07
            length_bits = (level - 1) * 8 + last_bits if last_bits else level * 8
            count = min(max(level, 1), self.MAX_LEN)
            # One SPI transaction reads the whole answer: the address byte repeated, then a 0.
            data: list[int] = self.spi.xfer2([_FIFO_READ] * count + [0])[1:]
            return (self.MI_OK, data, length_bits)

    FixedMFRC522.__qualname__ = FixedMFRC522.__name__ = "FixedMFRC522"
    return FixedMFRC522


def _start_command(chip: Any, data: list[int]) -> None:
    """Go idle, clear every IRQ flag, flush the FIFO and fill it with ``data``.

    Direct writes replace the library's read-modify-write here (CommIrqReg with Set1=0 clears
    the marked bits; FIFOLevelReg's other bits are read-only), and the FIFO is filled in one SPI
    transaction, as the datasheet allows (address byte once, then the data bytes).
    """
    chip.Write_MFRC522(chip.CommandReg, chip.PCD_IDLE)
    chip.Write_MFRC522(chip.CommIrqReg, 0x7F)
    chip.Write_MFRC522(chip.FIFOLevelReg, 0x80)
    if data:
        chip.spi.xfer2([_FIFO_WRITE, *data])


def _wait_for_irq(chip: Any, mask: int) -> int:
    """Read CommIrqReg until a bit of ``mask`` is set, sleeping between reads; 0 if it never is.

    A card answers within a millisecond and the timer ends an empty poll after 2 ms, so a poll
    looks a handful of times instead of spinning on the bus until the timer fires.
    """
    clock = getattr(chip, "clock", _SystemClock)
    deadline = clock.monotonic() + getattr(chip, "wait_limit_s", _WAIT_LIMIT_S)
    step = getattr(chip, "wait_step_s", _WAIT_STEP_S)
    while True:
        clock.sleep(step)
        irq: int = chip.Read_MFRC522(_COMM_IRQ_REG)
        if irq & mask:
            return irq
        if clock.monotonic() > deadline:
            return 0


def _wait_awake(chip: Any) -> bool:
    """Wait until CommandReg.PowerDown reads 0 (the oscillator runs); ``False`` if it never does."""
    clock = getattr(chip, "clock", _SystemClock)
    deadline = clock.monotonic() + _AWAKE_LIMIT_S
    while True:
        value = chip.Read_MFRC522(_COMMAND_REG)
        if not value & _POWER_DOWN and value != 0xFF:
            return True
        if clock.monotonic() > deadline:
            return False
        clock.sleep(_WAIT_STEP_S)


def initialise(chip: Any) -> None:
    """The library's ``MFRC522_Init`` with its two gaps closed: it waits for the oscillator after
    the soft reset (register writes are lost until it runs) and sets a short timer (0.3 ms, in 25 µs
    ticks: TModeReg 0x80, TPrescalerReg 0xA9, :data:`TIMER_RELOAD`).

    Same registers and values otherwise: TxASKReg 0x40 (100 % ASK), ModeReg 0x3D (CRC preset 0x6363),
    antenna on.
    """
    _wait_awake(chip)
    chip.Write_MFRC522(_COMMAND_REG, _PCD_SOFT_RESET)
    _wait_awake(chip)
    chip.Write_MFRC522(_T_MODE_REG, _T_MODE)
    chip.Write_MFRC522(_T_PRESCALER_REG, _T_PRESCALER)
    reload = getattr(chip, "timer_reload", TIMER_RELOAD)
    chip.Write_MFRC522(_T_RELOAD_REG_L, reload & 0xFF)
    chip.Write_MFRC522(_T_RELOAD_REG_H, reload >> 8 & 0xFF)
    chip.Write_MFRC522(chip.TxAutoReg, 0x40)
    chip.Write_MFRC522(chip.ModeReg, 0x3D)
    gain = getattr(chip, "rx_gain_db", None)
    if gain is not None:
        # RFCfgReg bits 6-4 (RxGain); the other bits are kept (MFRC522 datasheet, RFCfgReg).
        value = chip.Read_MFRC522(_RF_CFG_REG)
        chip.Write_MFRC522(_RF_CFG_REG, value & ~_RX_GAIN_MASK & 0xFF | RX_GAINS[gain] << 4)
    chip.AntennaOn()


def spi_name(bus: int, device: int) -> str:
    """``"SPI0 CE1 (/dev/spidev0.1)"``."""
    return f"SPI{bus} CE{device} (/dev/spidev{bus}.{device})"


def _spi_enable_fix(bus: int, device: int) -> Phrase:
    if bus == 0 and device <= 1:
        return Phrase("spi_enable", "enable SPI: sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in "
                      "/boot/firmware/config.txt), then reboot and check that ls /dev/spidev* lists it")
    if bus == 0:
        return Phrase("spi0_two", "SPI0 has only CE0 and CE1; put further readers on SPI1 (dtoverlay=spi1-2cs) instead")
    if device >= 2:
        return Phrase("spi_3cs", f"CE{device} needs the three-chip-select overlay: dtoverlay=spi{bus}-3cs in "
                      "/boot/firmware/config.txt (CE0 GPIO18, CE1 GPIO17, CE2 GPIO16), then reboot",
                      {"device": device, "bus": bus})
    return Phrase("spi_overlay",
                  f"enable SPI{bus} with an overlay in /boot/firmware/config.txt: dtoverlay=spi{bus}-2cs "
                  "(CE0 GPIO18, CE1 GPIO17; spi1-3cs adds CE2 GPIO16), then reboot", {"bus": bus})


def _wiring_hint(bus: int, device: int) -> Phrase:
    sclk, mosi, miso = (11, 10, 9) if bus == 0 else (21, 20, 19)
    chip_select = {(0, 0): 8, (0, 1): 7, (1, 0): 18, (1, 1): 17, (1, 2): 16}.get((bus, device))
    select = f"GPIO{chip_select}" if chip_select is not None else f"CE{device}"
    return Phrase("reader_wiring", f"check the wiring: 3.3 V (not 5 V), GND, SCK to GPIO{sclk}, MOSI to GPIO{mosi}, "
                  f"MISO to GPIO{miso}, SDA/SS to {select}, RST to GPIO25 or 3.3 V",
                  {"sclk": sclk, "mosi": mosi, "miso": miso, "select": select})


def import_mfrc522(device: str = "NFC reader", bus: str = "SPI", number: int = 0) -> types.ModuleType:
    """Import the ``mfrc522.MFRC522`` *module* (the package binds the class over its name).

    Raises:
        NfcReaderError: the package, ``RPi.GPIO`` or ``spidev`` is missing or refuses to load.
    """
    try:
        return importlib.import_module("mfrc522.MFRC522")
    except ModuleNotFoundError as error:
        missing = error.name or "?"
        if missing.startswith("RPi"):
            fix_key, fix = "module_rpi_fix", (
                "run sudo ./firmware/install.sh, or in the venv: pip install rpi-lgpio==0.6 (it provides RPi.GPIO "
                "on every Raspberry Pi, the Pi 5 included), then pip install --no-deps mfrc522==0.0.7"
            )
        elif missing == "spidev":
            fix_key = "module_spidev_fix"
            fix = "pip install spidev==3.8 (it builds with python3-dev and build-essential from apt)"
        else:
            fix_key, fix = "module_mfrc522_fix", "pip install --no-deps mfrc522==0.0.7 (after rpi-lgpio and spidev)"
        raise NfcReaderError(device, bus, f"Python module {missing!r} is not installed", fix, lasting=True,
                             key="module_missing", fix_key=fix_key, values={"module": repr(missing)},
                             part="reader", number=number) from error
    except OSError as error:
        if ".lgd-nfy" not in str(error):
            raise
        # rpi-lgpio imports lgpio, which creates its notification pipe in the current directory.
        raise NfcReaderError(
            device,
            bus,
            f"lgpio cannot create its notification pipe in the current directory ({error})",
            "run the table from a directory its user may write to: WorkingDirectory= in the systemd unit, or "
            "set LG_WD to such a directory; this is not a gpio group problem",
            lasting=True, key="lgpio_pipe", fix_key="lgpio_pipe_fix", values={"error": str(error)}, part="reader",
            number=number,
        ) from error
    except RuntimeError as error:
        # RPi.GPIO: "This module can only be run on a Raspberry Pi!"
        raise NfcReaderError(
            device,
            bus,
            f"RPi.GPIO refused to load ({error})",
            "run on a Raspberry Pi, or open the table in 'simulated' mode elsewhere; on a Raspberry Pi 5 "
            "replace RPi.GPIO with rpi-lgpio",
            lasting=True, key="rpi_gpio_refused", fix_key="rpi_gpio_refused_fix", values={"error": str(error)},
            part="reader", number=number,
        ) from error


class Mfrc522Reader:
    """One RC522 board on an SPI chip select, returning full card UIDs.

    ``Mfrc522Reader(bus=0, device=1)`` opens ``/dev/spidev0.1`` (SPI0 CE1). Pass ``spi=`` to use an
    already open SPI device instead (then the reset pin is left alone). ``rst_pin`` is a BCM GPIO
    number; ``None`` means the reset pin is tied to 3.3 V and GPIO is not touched.
    ``timer_reload`` and ``wait_step_s`` are the chip's timeout in 0.5 ms ticks minus one and the
    sleep between looks at the IRQ flags; ``timer_reload=30, wait_step_s=0`` is how this driver
    (and the library) used to wait: a 15.5 ms timeout, spinning on the bus (``banker bench`` uses it).

    Raises:
        NfcReaderError: the software is missing, SPI is not enabled, the user may not open the bus,
            the reset pin cannot be driven, or no MFRC522 answers on that chip select.
    """

    def __init__(
        self,
        *,
        bus: int = 0,
        device: int = 0,
        spi: SpiDevice | None = None,
        rst_pin: int | None = DEFAULT_RST_PIN,
        speed_hz: int = DEFAULT_SPEED_HZ,
        name: str | None = None,
        timer_reload: int = TIMER_RELOAD,
        wait_step_s: float = _WAIT_STEP_S,
        rx_gain_db: int | None = None,
        number: int = 0,
    ) -> None:
        if rx_gain_db is not None and rx_gain_db not in RX_GAINS:
            raise ValueError(f"rx_gain_db is one of {sorted(RX_GAINS)} (dB), not {rx_gain_db}")
        self.bus_name = spi_name(bus, device)
        self.name = name or "MFRC522 NFC reader"
        self.number = number
        """The reader's place in the table's list (from 0), for the texts that name it."""
        module = import_mfrc522(self.name, self.bus_name, number)
        opened_here = spi is None
        if spi is None:
            spi = self._open_spi(module, bus, device, speed_hz)
        self._clock: Any = getattr(spi, "clock", None) or _SystemClock
        self._gpio: Any = None
        self._rst_pin = rst_pin
        self.failures = 0
        """Failed re-initialisations in a row."""
        self.recoveries = 0
        """Times the chip was found reset (or not answering) and re-initialised successfully."""
        self.fault: NfcReaderError | None = None
        """Set while the reader counts as faulty (after ``FAILURES_TO_FAULT`` failed recoveries)."""
        self.last_good_poll: float | None = None
        """``monotonic()`` (the SPI device's clock) of the last poll that found the chip healthy."""
        self.field_busy = False
        """The last poll heard an answer but read no UID (two cards colliding, a card leaving)."""
        self._retry_at = 0.0
        self._needs_init = False
        self._looks = 0
        self._wait_step = wait_step_s
        self._healthy_since = 0.0
        self._pulses = 0
        self.pulses_sent = 0
        """Pulses this reader sent on its RST pin (each resets every reader on that pin)."""
        self._warned_at = -WARN_EVERY_S
        self._suppressed = 0
        self._wiring = _wiring_hint(bus, device)
        try:
            if opened_here and rst_pin is not None:
                self._drive_reset_high(module.GPIO, rst_pin)
                self._gpio = module.GPIO
            chip_class: Any = fixed_mfrc522_class(module.MFRC522)
            chip: Any = chip_class.__new__(chip_class)
            # The stock constructor would open spidev itself, add a log handler per instance and
            # apply the BOARD/BCM reset-pin default; everything after it is the library's own code.
            chip.spi = spi
            chip.logger = logging.getLogger("mfrc522Logger")
            chip.clock = self._clock
            chip.no_irq = False
            chip.timer_reload = timer_reload
            chip.wait_step_s = wait_step_s
            chip.rx_gain_db = rx_gain_db
            chip.wait_limit_s = max(_WAIT_LIMIT_S, 5 * (timer_reload + 1) * _TIMER_TICK_S)
            initialise(chip)
            self.version: int = chip.Read_MFRC522(_VERSION_REG)
        except OSError as error:
            if opened_here:
                spi.close()
            raise NfcReaderError(
                self.name, self.bus_name, f"SPI transfer failed ({error})", str(_wiring_hint(bus, device)),
                key="spi_failed", fix_key="wiring", values={"error": str(error), "wiring": _wiring_hint(bus, device)},
                part="reader", number=self.number,
            ) from error
        except BaseException:
            if opened_here:
                spi.close()
            raise
        if self.version in (0x00, 0xFF):
            if opened_here:
                spi.close()
            raise NfcReaderError(
                self.name,
                self.bus_name,
                f"no MFRC522 answers (VersionReg reads 0x{self.version:02X})",
                str(_wiring_hint(bus, device)),
                key="no_chip", fix_key="wiring", values={"version": f"0x{self.version:02X}",
                                                           "wiring": _wiring_hint(bus, device)},
                part="reader", number=self.number,
            )
        if self.version not in KNOWN_VERSIONS:
            log.warning("%s: unknown VersionReg value 0x%02X", self.name, self.version)
        self._chip = chip
        self._spi = spi
        speed = int(getattr(spi, "max_speed_hz", speed_hz) or speed_hz)
        self._speed = speed
        self._wupa = {(health, flush): self._message([iso14443.WUPA], framing=0x07, answer_bytes=2, read_bytes=0,
                                                     health=health, flush=flush)
                      for health in (False, True) for flush in (False, True)}
        """The WUPA poll's message, without and with the health registers, and with the FIFO flushed first
        or not (it is empty after a poll nobody answered): the same every poll."""
        self._fifo_empty = False
        self._anticollision = {cascade: self._message([cascade, iso14443.NVB_ANTICOLLISION], framing=0x00,
                                                      answer_bytes=5, read_bytes=5, health=False)
                               for cascade in iso14443.CASCADE_LEVELS}
        self._select = {cascade: self._select_message(cascade, following)
                        for cascade, following in zip(iso14443.CASCADE_LEVELS[:-1], iso14443.CASCADE_LEVELS[1:],
                                                      strict=True)}
        """For each cascade level but the last, SELECT and the next level's anticollision in one message."""
        halt = [iso14443.HLTA, 0x00, *iso14443.crc_a([iso14443.HLTA, 0x00])]
        self._halt_message = self._message(halt, framing=0x00, answer_bytes=0, read_bytes=0, health=False,
                                           transceive=False)
        self._looks_alone = {health: SpiMessage([_read(*_LOOK_REGISTERS, *(_HEALTH_REGISTERS if health else ()))],
                                                speed_hz=speed) for health in (False, True)}
        self._owns_spi = opened_here
        self.closed = False
        self.defer_halt = False
        """Leave a read's HLTA for :meth:`finish_read`, after the tap is handed on (the hub sets it): the tap
        is not held up by a frame the card never answers."""
        self._halt_pending = False
        if self._gpio is not None and rst_pin is not None:
            line = _RESET_LINES.setdefault((id(self._gpio), rst_pin), [])
            line[:] = [ref for ref in line if ref() is not None]
            line.append(weakref.ref(self))

    def _open_spi(self, module: types.ModuleType, bus: int, device: int, speed_hz: int) -> SpiDevice:
        spi: Any = module.spidev.SpiDev()
        try:
            spi.open(bus, device)
        except FileNotFoundError as error:
            enable = _spi_enable_fix(bus, device)
            raise NfcReaderError(
                self.name, self.bus_name, "the SPI device does not exist", str(enable), lasting=True,
                key="no_spi_device", fix_key="phrase", values={"phrase": enable}, part="reader", number=self.number,
            ) from error
        except PermissionError as error:
            raise NfcReaderError(
                self.name,
                self.bus_name,
                "permission denied",
                "add the user to the spi and gpio groups (sudo usermod -aG spi,gpio $USER, then log in again; "
                "in the systemd unit: SupplementaryGroups=gpio spi i2c, and no PrivateDevices=yes)",
                lasting=True, key="permission", fix_key="spi_permission_fix", part="reader", number=self.number,
            ) from error
        spi.max_speed_hz = speed_hz
        device_: SpiDevice = spi
        return device_

    def _drive_reset_high(self, gpio: Any, rst_pin: int) -> None:
        try:
            mode = gpio.getmode()
            if mode is None:
                gpio.setmode(gpio.BCM)
            elif mode != gpio.BCM:
                raise NfcReaderError(
                    self.name,
                    self.bus_name,
                    "RPi.GPIO is already in BOARD numbering, but reset pins are BCM numbers",
                    "do not call GPIO.setmode(GPIO.BOARD) elsewhere; this program uses BCM numbers throughout",
                    key="board_numbering", fix_key="board_numbering_fix", part="reader", number=self.number,
                )
            gpio.setup(rst_pin, gpio.OUT)
            gpio.output(rst_pin, 1)
        except NfcReaderError:
            raise
        except Exception as error:  # RuntimeError from RPi.GPIO, lgpio.error from rpi-lgpio
            text = str(error)
            if "busy" in text.lower():
                fix_key, fix = "pin_busy_fix", (
                    f"another program holds GPIO{rst_pin}: stop the table first (sudo systemctl stop table-banker), "
                    "then run this again"
                )
            elif "peripheral base address" in text:
                fix_key, fix = "pi5_fix", "this is a Raspberry Pi 5: pip uninstall RPi.GPIO; pip install rpi-lgpio"
            elif "/dev/mem" in text or "/dev/gpiomem" in text or "ermission" in text:
                fix_key = "gpio_group_fix"
                fix = "add the user to the gpio group (sudo usermod -aG gpio $USER, then log in again)"
            else:
                fix_key = "reset_pin_fix"
                fix = f"check that GPIO{rst_pin} is free, or tie RST to 3.3 V and pass rst_pin=None"
            raise NfcReaderError(self.name, f"GPIO{rst_pin} (reset pin)", f"RPi.GPIO failed: {text}", fix,
                                 key="rpi_gpio_failed", fix_key=fix_key, values={"error": text, "pin": rst_pin},
                                 part="reader", number=self.number) from error

    # Reading -----------------------------------------------------------------------------------

    def poll(self) -> bytes | None:
        """Look for a card once: the full UID of the card on the reader, or ``None``.

        A card is woken (WUPA), its UID read level by level, and then halted. ``None`` also comes
        back when two cards collide or the card left before its whole UID was read: a partial UID
        is never returned. Each command to the card is one SPI message (:class:`SpiMessage`): the
        register writes that start it, the kernel's wait for the answer, and one read of the outcome; a
        SELECT and the next cascade level's anticollision go in one message (a 7-byte UID: WUPA,
        anticollision, SELECT with the second anticollision, HLTA, four system calls).

        An empty poll also checks the chip's health in the same read: a chip that was reset (a
        brown-out, static, a loose wire) has its antenna off and its timer unset and would otherwise
        answer nothing for ever. Such a chip is re-initialised (a pulse on RST when this reader drives
        it, at most :data:`RESET_PULSES` times, then the init sequence); it counts as recovered once it
        has stayed healthy for :data:`HEALTHY_FOR_S`. After :data:`FAILURES_TO_FAULT`
        re-initialisations in a row that did not last, the reader is faulty: :attr:`fault` is set and
        raised, and tried again every :data:`RETRY_FAULTY_S` seconds.

        Raises:
            NfcReaderError: the SPI transfer failed, or the reader is faulty.
        """
        if self.closed:
            raise NfcReaderError(self.name, self.bus_name, "the reader is closed", "open a new reader", key="closed",
                                 fix_key="closed_fix", part="reader", number=self.number)
        if self.fault is not None and self._clock.monotonic() < self._retry_at:
            raise self.fault
        problem: Phrase | None
        try:
            if self._needs_init:
                self._needs_init = False
                initialise(self._chip)
            if self._halt_pending:  # the last read's HLTA was left for finish_read, which nobody called
                self._halt_pending = False
                self._halt()
                self._clock.sleep(_HALT_AIR_S)  # on the air before the WUPA's writes stop the transmitter
            self._looks += 1
            health = self._looks % HEALTH_EVERY == 0
            status = self._command(self._wupa[health, not self._fifo_empty], health=health)
            # Sent out and nothing came back: the FIFO is empty for the next poll (no flush needed).
            self._fifo_empty = status is not None and not status.answered and status.level == 0
            if status is None:
                problem = NO_INTERRUPT
            elif status.answered:
                self.field_busy = True
                uid = self._read_uid() if status.complete(2) else None
                self.field_busy = uid is None
                self._healthy()
                return uid
            else:
                self.field_busy = status.error != 0
                problem = self._problem(status)
                if problem is None:
                    self._healthy()
                    return None
            self._recover(problem)
            return None
        except OSError as error:
            raise NfcReaderError(
                self.name,
                self.bus_name,
                f"SPI transfer failed ({error})",
                "check the wiring and that SPI is still enabled",
                key="spi_failed", fix_key="spi_still_fix", values={"error": str(error)}, part="reader",
                number=self.number,
            ) from error

    def _message(self, data: list[int], *, framing: int, answer_bytes: int, read_bytes: int, health: bool,
                 transceive: bool = True, flush: bool = True) -> SpiMessage:
        """One command as one SPI message: go idle, clear every IRQ flag, flush and fill the FIFO, set the
        framing, start the command (Transceive: and StartSend); then, for a Transceive, wait until its
        answer is due (the frame on the air and the card's answer, or the timer running out: it stops
        when an answer begins) and read the outcome (:data:`_LOOK_REGISTERS`, with
        :data:`_HEALTH_REGISTERS` when ``health``) and ``read_bytes`` bytes of the FIFO."""
        command = self._chip.PCD_TRANSCEIVE if transceive else _PCD_TRANSMIT
        frames = [_write(_COMMAND_REG, self._chip.PCD_IDLE), _write(_COMM_IRQ_REG, 0x7F),
                  *([_write(_FIFO_LEVEL_REG, 0x80)] if flush else []), _write(_FIFO_DATA_REG, *data),
                  _write(_BIT_FRAMING_REG, framing), _write(_COMMAND_REG, command)]
        if not transceive:
            return SpiMessage(frames, speed_hz=self._speed)
        frames.append(_write(_BIT_FRAMING_REG, framing | 0x80))
        sent = _air_time(len(data), framing & 0x07)
        timeout = (self._chip.timer_reload + 1) * _TIMER_TICK_S
        answer = _FRAME_DELAY_S + _air_time(answer_bytes, 0) if answer_bytes else 0.0
        due_us = round((sent + max(answer, timeout) + CARD_ANSWER_MARGIN_S) * 1e6)
        registers = (*_LOOK_REGISTERS, *(_HEALTH_REGISTERS if health else ()))
        frames.append(_read(*registers, *([_FIFO_DATA_REG] * read_bytes)))
        return SpiMessage(frames, [0] * (len(frames) - 2) + [due_us, 0], speed_hz=self._speed)

    def _command(self, message: SpiMessage, *, health: bool = False, read_bytes: int = 0) -> _Status | None:
        """Run one command's message and return its outcome. ``None``: no interrupt flag was raised before
        the command's limit (the chip is not set up: it was reset, or is not there)."""
        status = _Status.read(message.run(self._spi)[1:], health=health)
        if status.irq & 0x31 or read_bytes:  # RxIRq, IdleIRq or TimerIRq: the command ended
            return status  # (with FIFO bytes read, a command that had not ended has lost them: incomplete)
        give_up = self._clock.monotonic() + _WAIT_LIMIT_S
        while self._clock.monotonic() < give_up:
            self._clock.sleep(self._wait_step)
            status = _Status.read(self._looks_alone[health].run(self._spi)[1:], health=health)
            if status.irq & 0x31:
                return status
        return None

    def _transceive(self, data: list[int], answer_bytes: int, message: SpiMessage | None = None) -> list[int] | None:
        """One command to the card in the field and its answer: exactly ``answer_bytes`` whole bytes, or
        ``None`` (no answer, an error, a collision, a short answer)."""
        if message is None:
            message = self._message(data, framing=0x00, answer_bytes=answer_bytes, read_bytes=answer_bytes,
                                    health=False)
        status = self._command(message, read_bytes=answer_bytes)
        if status is None or not status.complete(answer_bytes):
            return None
        return status.data

    def _problem(self, status: _Status) -> Phrase | None:
        """What is wrong with the chip, from the health registers of a look; ``None`` if nothing."""
        if status.version in (0x00, 0xFF):
            value = f"0x{status.version:02X}"
            return Phrase("version_zero", f"VersionReg reads {value} (MISO not connected or held, or no power)",
                          {"value": value})
        if status.version != self.version:
            old, new = f"0x{self.version:02X}", f"0x{status.version:02X}"
            return Phrase("version_changed", f"VersionReg changed from {old} to {new}", {"old": old, "new": new})
        if status.health is not None:
            tx_control, t_mode, t_reload, command = status.health
            if command & _POWER_DOWN:
                return Phrase("powered_down", "the chip is powered down")
            if tx_control & 0x03 != 0x03:
                return Phrase("antenna_off",
                              "the antenna is off (the chip was reset: a brown-out, static or a loose wire)")
            if t_mode != _T_MODE or t_reload != self._chip.timer_reload & 0xFF:
                value = f"0x{t_mode:02X}"
                return Phrase("timer_lost", f"the timer settings were lost (TModeReg {value}; the chip was reset)",
                              {"value": value})
        if not status.irq & 0x01:
            return NO_INTERRUPT
        return None

    def version_now(self) -> int:
        """VersionReg as the chip answers it now, in one SPI transfer (``banker check`` reads every
        reader's in turn: a value that changes beside the others is two readers fighting over MISO).

        Raises:
            OSError: the SPI transfer failed.
        """
        value: int = self._spi.xfer2([((_VERSION_REG << 1) & 0x7E) | 0x80, 0])[1]
        return value

    def health_problem(self) -> Phrase | None:
        """What is wrong with the chip, from one chained read of its registers; ``None`` if nothing.

        Raises:
            OSError: the SPI transfer failed.
        """
        status = _Status.read(self._looks_alone[True].run(self._spi)[1:], health=True)
        return self._problem(replace(status, irq=status.irq | 0x01))

    def _healthy(self) -> None:
        now = self._clock.monotonic()
        if self.fault is not None:
            log.warning("%s on %s answers again", self.name, self.bus_name)
            self.fault = None
            self.failures = 0
        elif self.failures and now >= self._healthy_since + HEALTHY_FOR_S:
            # Healthy long enough since the last re-initialisation: that one worked.
            log.warning("%s on %s answers again", self.name, self.bus_name)
            self.recoveries += 1
            self.failures = 0
            self._pulses = 0
        self.last_good_poll = now

    def _recover(self, problem: Phrase) -> None:
        now = self._clock.monotonic()
        self._suppressed += 1
        if now >= self._warned_at + WARN_EVERY_S:
            more = f" ({self._suppressed - 1} more since the last warning)" if self._suppressed > 1 else ""
            log.warning("%s on %s: %s; re-initialising it%s", self.name, self.bus_name, problem, more)
            self._warned_at, self._suppressed = now, 0
        # A pulse on a shared RST pin resets the readers that work, too: a few, then soft resets only.
        hard = self.fault is None and self._pulses < RESET_PULSES
        if hard and self._gpio is not None and self._rst_pin is not None:
            self._pulses += 1
        self.reset(hard=hard)
        self.failures += 1
        after = self.health_problem()
        self._healthy_since = self._clock.monotonic()
        if after is None and self.failures < FAILURES_TO_FAULT:
            return  # on probation: it counts as recovered once it stays healthy (see _healthy)
        if self.failures >= FAILURES_TO_FAULT:
            reason = after or Phrase("again", f"{problem} again after each re-initialisation", {"problem": problem})
            self.fault = NfcReaderError(
                self.name,
                self.bus_name,
                f"stopped answering: {reason}; {self.failures} re-initialisations did not last",
                f"{self._wiring}; the table keeps working with the other readers, and this one is tried "
                f"again every {RETRY_FAULTY_S:g} s",
                key="stopped", fix_key="stopped_fix",
                values={"reason": reason, "count": self.failures, "wiring": self._wiring,
                        "seconds": f"{RETRY_FAULTY_S:g}"},
                part="reader", number=self.number,
            )
            self._retry_at = self._clock.monotonic() + RETRY_FAULTY_S
            raise self.fault

    def reset(self, *, hard: bool = True) -> None:
        """Reset the chip and initialise it again: with ``hard``, a pulse on RST if this reader
        drives it (every reader on the same RST pin is then initialised again before its next
        poll); always the soft reset of the init sequence.

        Raises:
            OSError: the SPI transfer failed.
        """
        if hard and self._gpio is not None and self._rst_pin is not None:
            self.pulses_sent += 1
            self._gpio.output(self._rst_pin, 0)
            self._clock.sleep(_RESET_PULSE_S)
            self._gpio.output(self._rst_pin, 1)
            for ref in _RESET_LINES.get((id(self._gpio), self._rst_pin), []):
                other = ref()
                if other is not None and other is not self:
                    other._needs_init = True
        initialise(self._chip)

    def _read_uid(self) -> bytes | None:
        """The UID of the card that answered the WUPA: anticollision at each cascade level, SELECT only
        where the UID goes on (ISO 14443-3, 6.4.4: a first byte of 0x88, the cascade tag, says a further
        level follows; the standard keeps 0x88 out of the UID's own bytes there), then HLTA. A SELECT and
        the next level's anticollision are one SPI message (:meth:`_select_and_go_on`)."""
        uid = bytearray()
        levels = iso14443.CASCADE_LEVELS
        part = self._transceive([levels[0], iso14443.NVB_ANTICOLLISION], 5, self._anticollision[levels[0]])
        for level, cascade in enumerate(levels):
            if part is None or iso14443.bcc(part[:4]) != part[4]:
                return None
            if part[0] != iso14443.CASCADE_TAG:
                uid += bytes(part[:4])
                if self.defer_halt:
                    self._halt_pending = True
                else:
                    self._halt()
                return bytes(uid)
            if level + 1 == len(levels):
                return None  # a cascade tag at the last level
            answer, following = self._select_and_go_on(cascade, part)
            if answer is None or bytes(answer[1:3]) != iso14443.crc_a(answer[:1]):
                return None
            if not answer[0] & iso14443.SAK_UID_INCOMPLETE:
                return None  # a cascade tag, yet the card says its UID is complete
            uid += bytes(part[1:4])
            part = following
        return None

    def _select_message(self, cascade: int, following: int) -> tuple[SpiMessage, int, int]:
        """SELECT at ``cascade`` (its UID bytes filled in at each tap) and the anticollision at ``following``
        as one message; the index of the transfer that fills the FIFO with the SELECT, and of the one
        that reads its outcome."""
        select = self._message([cascade, iso14443.NVB_SELECT, *[0] * 7], framing=0x00, answer_bytes=3,
                               read_bytes=3, health=False)
        anticollision = self._anticollision[following]
        fifo = next(index for index, frame in enumerate(select.frames) if frame[0] == _write(_FIFO_DATA_REG)[0])
        message = SpiMessage(select.frames + anticollision.frames, select.delays_us + anticollision.delays_us,
                             speed_hz=self._speed)
        return message, fifo, len(select.frames) - 1

    def _select_and_go_on(self, cascade: int, part: list[int]) -> tuple[list[int] | None, list[int] | None]:
        """SELECT the card at ``cascade`` with ``part`` (the cascade tag, three UID bytes and the check
        byte) and, in the same SPI message, run the next level's anticollision: the SAK with its CRC
        (3 bytes), or ``None``, and the next level's answer (5 bytes), or ``None``.

        The anticollision's register writes come after the read of the SELECT's outcome; they start from
        idle with the FIFO flushed, as a message of its own does, so the SELECT's answer is read
        whole before them. When the SELECT failed, the anticollision that went out with it is not read
        (a card that was not selected does not take part in the next level)."""
        message, fifo, outcome = self._select[cascade]
        frame = [cascade, iso14443.NVB_SELECT, *part]
        message.set_frame(fifo, _write(_FIFO_DATA_REG, *frame, *iso14443.crc_a(frame)))
        answers = message.run_all(self._spi)
        select = _Status.read(answers[outcome][1:], health=False)
        if not select.complete(3):
            return None, None
        following = _Status.read(answers[-1][1:], health=False)
        return select.data, following.data if following.complete(5) else None

    def finish_read(self) -> None:
        """Send the last read's HLTA if it was left for now (:attr:`defer_halt`); the next poll starts after
        the frame has gone out, a round later.

        Raises:
            NfcReaderError: the SPI transfer failed.
        """
        if not self._halt_pending or self.closed:
            return
        self._halt_pending = False
        try:
            self._halt()
        except OSError as error:
            raise NfcReaderError(
                self.name, self.bus_name, f"SPI transfer failed ({error})",
                "check the wiring and that SPI is still enabled", key="spi_failed", fix_key="spi_still_fix",
                values={"error": str(error)}, part="reader", number=self.number,
            ) from error

    def _halt(self) -> None:
        """Send HLTA with the Transmit command, and do not wait: HLTA is never answered, and the next poll
        starts after the frame (0.4 ms) has gone out. A halted card stays quiet until the next WUPA."""
        self._halt_message.run(self._spi)

    # Lifecycle ---------------------------------------------------------------------------------

    def close(self) -> None:
        """Release the SPI device. The reset pin and RPi.GPIO are left as they are (see module doc)."""
        if self.closed:
            return
        self.closed = True
        if self._owns_spi:
            self._spi.close()

    def __enter__(self) -> Mfrc522Reader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Mfrc522Reader {self.bus_name} version=0x{self.version:02X}>"
