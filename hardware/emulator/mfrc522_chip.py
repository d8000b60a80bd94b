"""A register-level emulator of the NXP MFRC522 and of the type A cards in its field.

It answers the SPI register protocol of the chip (one address byte, then data) closely enough that
the unmodified ``mfrc522`` package runs against it: the FIFO (FlushBuffer also clears BufferOvfl),
the IRQ registers with their set/clear convention (ErrIRq with ErrorReg), Status1Reg, Transceive
started by ``StartSend``, Transmit, CalcCRC, MFAuthent (key check only), soft reset, soft
power-down (CommandReg PowerDown and RcvOff), the RST pin (hard reset, then the oscillator start-up
during which PowerDown reads 1 and writes are lost) and the version register. Cards follow the
ISO 14443-3 state machine (IDLE, READY, ACTIVE, HALT) with anticollision and SELECT at every
cascade level, so the known faults of the library show up here as they do on a real reader: a REQA
to a card that is already READY or ACTIVE sends it back to IDLE without an answer, and two cards
with different UIDs collide.

**Time.** The chip runs on a clock (:mod:`hardware.emulator.clock`): a frame takes its time on the
air at 106 kbit/s (9.44 µs a bit, 9 bits a byte with parity), a card answers after the frame delay
time (≈91 µs), and the timer counts as TModeReg, TPrescalerReg and TReloadReg say: with TAuto it
starts at the end of each transmission, stops once an answer begins, and raises TimerIRq only if it
runs out (MFRC522 datasheet, sections 8.5 and 9.3.3.10). A chip whose timer is not configured, as
after a reset, never raises TimerIRq. TxLastBits is honoured on every frame.

Deliberately not modelled: RF levels, Crypto1 (authentication only compares the key), bit-wise
anticollision (NVB other than 0x20 and 0x70), WRITE and value blocks.
"""

from __future__ import annotations

import enum
import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hardware import iso14443
from hardware.emulator.clock import Clock, VirtualClock

# Registers (MFRC522 datasheet, section 9).
COMMAND_REG = 0x01
COMM_IEN_REG = 0x02
DIV_IEN_REG = 0x03
COMM_IRQ_REG = 0x04
DIV_IRQ_REG = 0x05
ERROR_REG = 0x06
STATUS1_REG = 0x07
STATUS2_REG = 0x08
FIFO_DATA_REG = 0x09
FIFO_LEVEL_REG = 0x0A
CONTROL_REG = 0x0C
BIT_FRAMING_REG = 0x0D
COLL_REG = 0x0E
MODE_REG = 0x11
WATER_LEVEL_REG = 0x0B
TX_CONTROL_REG = 0x14
CRC_RESULT_REG_M = 0x21
CRC_RESULT_REG_L = 0x22
T_MODE_REG = 0x2A
T_PRESCALER_REG = 0x2B
T_RELOAD_REG_H = 0x2C
T_RELOAD_REG_L = 0x2D
VERSION_REG = 0x37

# Commands written to CommandReg.
CMD_IDLE = 0x00
CMD_CALC_CRC = 0x03
CMD_TRANSMIT = 0x04
CMD_RECEIVE = 0x08
CMD_TRANSCEIVE = 0x0C
CMD_MF_AUTHENT = 0x0E
CMD_SOFT_RESET = 0x0F

# Bits of CommIrqReg.
IRQ_TX = 0x40
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_ERR = 0x02
IRQ_TIMER = 0x01
DIV_IRQ_CRC = 0x04
ERROR_COLLISION = 0x08
ERROR_BUFFER_OVFL = 0x10
COMMAND_POWER_DOWN = 0x10
COMMAND_RCV_OFF = 0x20
CONTROL_T_STOP_NOW = 0x80
STATUS2_CRYPTO1_ON = 0x08
FIFO_SIZE = 64

CARRIER_HZ = 13_560_000
BIT_S = 128 / CARRIER_HZ
"""One bit at 106 kbit/s."""
FRAME_DELAY_S = 1236 / CARRIER_HZ
"""ISO 14443-3 frame delay time from the reader's last bit to the card's first (≈91 µs)."""
OSCILLATOR_START_S = 0.001
"""Crystal start-up after RST goes high or PowerDown is cleared; the datasheet gives the crystal's
start-up time plus 37.74 µs (section 8.8.2). A millisecond is a typical crystal's figure."""

_RESET_VALUES = {
    COMMAND_REG: 0x20,
    COMM_IEN_REG: 0x80,
    COMM_IRQ_REG: 0x14,
    CONTROL_REG: 0x10,
    MODE_REG: 0x3F,
    TX_CONTROL_REG: 0x80,
    0x12: 0x00,  # TxModeReg
    0x13: 0x00,  # RxModeReg
    0x15: 0x00,  # TxASKReg
    0x16: 0x10,  # TxSelReg
    0x17: 0x84,  # RxSelReg
    0x18: 0x84,  # RxThresholdReg
    0x19: 0x4D,  # DemodReg
    0x1C: 0x62,  # MfTxReg
    0x24: 0x26,  # ModWidthReg
    0x26: 0x48,  # RFCfgReg
    0x27: 0x88,  # GsNReg
    0x28: 0x20,  # CWGsPReg
    0x29: 0x20,  # ModGsPReg
    WATER_LEVEL_REG: 0x08,
    CRC_RESULT_REG_M: 0xFF,
    CRC_RESULT_REG_L: 0xFF,
}


class CardState(enum.Enum):
    """The ISO 14443-3 type A states a card can be in while it is powered by the field."""

    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


@dataclass
class Response:
    """What a card sends back: whole bytes, and how many bits of the last byte are valid (0 = all)."""

    data: bytes
    last_bits: int = 0


@dataclass(eq=False)
class EmulatedCard:
    """A type A card or tag: a MIFARE Classic 1K (4-byte UID) or an NTAG21x/Ultralight (7-byte UID).

    Build one with :meth:`classic` or :meth:`ntag`.
    """

    uid: bytes
    """The full UID as printed by a phone app: 4, 7 or 10 bytes."""
    atqa: bytes
    """The answer to REQA/WUPA (2 bytes, least significant first)."""
    sak: int
    """The final SAK (0x08 MIFARE Classic 1K, 0x00 NTAG/Ultralight)."""
    memory: bytearray = field(default_factory=lambda: bytearray(64 * 16))
    """Contents returned by READ, 16 bytes per block."""
    key_a: bytes = b"\xff" * 6
    leave_after_frames: int | None = None
    """If set, the card answers (or ignores) this many more frames, then leaves the field: a card
    pulled away in the middle of a read."""
    state: CardState = CardState.IDLE
    level: int = 0
    """Cascade levels completed by SELECT since the last wake-up."""
    halted_before: bool = False
    """Whether the card was woken from HALT; an error then sends it back to HALT instead of IDLE."""
    edge: Sequence[bool] = ()
    """A card at the edge of the field: for each REQA/WUPA in turn (repeating), whether the card
    gets enough field to answer it. Empty: it always does."""

    def __post_init__(self) -> None:
        self.parts = iso14443.uid_parts(self.uid)
        self._wakes = 0
        self._unpowered = False

    @classmethod
    def classic(cls, uid: bytes | str, *, edge: Sequence[bool] = ()) -> EmulatedCard:
        """A MIFARE Classic 1K card with a 4-byte UID (ATQA ``04 00``, SAK 0x08)."""
        uid = bytes.fromhex(uid) if isinstance(uid, str) else uid
        return cls(uid=uid, atqa=b"\x04\x00", sak=0x08, edge=edge)

    @classmethod
    def ntag(cls, uid: bytes | str, *, edge: Sequence[bool] = ()) -> EmulatedCard:
        """An NTAG213/215/216 or Ultralight tag with a 7-byte UID (ATQA ``44 00``, SAK 0x00)."""
        uid = bytes.fromhex(uid) if isinstance(uid, str) else uid
        return cls(uid=uid, atqa=b"\x44\x00", sak=0x00, edge=edge)

    def power_up(self) -> None:
        """The card enters the field: it resets to IDLE."""
        self.state = CardState.IDLE
        self.level = 0
        self.halted_before = False

    def _error(self) -> None:
        """An unexpected frame: back to IDLE, or HALT if the card was woken from HALT."""
        self.state = CardState.HALT if self.halted_before else CardState.IDLE
        self.level = 0

    def _wake(self) -> Response:
        self.state = CardState.READY
        self.level = 0
        return Response(self.atqa)

    def receive(self, frame: bytes, tx_last_bits: int) -> Response | None:
        """Process one frame from the reader and return the answer, or ``None`` for silence.

        ``tx_last_bits`` is how many bits of the last byte were sent (0: all 8): a 7-bit single
        byte is a short frame (REQA/WUPA); any other incomplete frame is garbage to the card.
        """
        if tx_last_bits == 7 and len(frame) == 1:
            if self.edge:
                powered = self.edge[self._wakes % len(self.edge)]
                self._wakes += 1
                if not powered:
                    self.power_up()  # not enough field: the card lost power and restarts in IDLE
                    self._unpowered = True
                    return None
                self._unpowered = False
            return self._short_frame(frame[0])
        if self._unpowered:
            return None
        if not frame:
            return None
        if tx_last_bits:
            if self.state in (CardState.READY, CardState.ACTIVE):
                self._error()
            return None
        if frame[0] in iso14443.CASCADE_LEVELS and len(frame) >= 2:
            return self._select(frame)
        if frame[:2] == bytes([iso14443.HLTA, 0x00]):
            if self.state is CardState.ACTIVE and _crc_ok(frame):
                self.state = CardState.HALT
                self.halted_before = True
            elif self.state is not CardState.HALT:
                self._error()
            return None
        if frame[0] == iso14443.READ and len(frame) == 4 and self.state is CardState.ACTIVE:
            if not _crc_ok(frame):
                return None
            start = frame[1] * 16 % len(self.memory)
            block = bytes((self.memory + self.memory)[start : start + 16])
            return Response(block + iso14443.crc_a(block))
        if self.state in (CardState.READY, CardState.ACTIVE):
            self._error()
        return None

    def _short_frame(self, command: int) -> Response | None:
        if command == iso14443.REQA:
            if self.state is CardState.IDLE:
                return self._wake()
            if self.state in (CardState.READY, CardState.ACTIVE):
                # ISO 14443-3: any unexpected command in READY/ACTIVE returns the card to IDLE
                # silently. This is why a card left on the reader answers every other REQA.
                self._error()
            return None
        if command == iso14443.WUPA:
            if self.state in (CardState.IDLE, CardState.HALT):
                self.halted_before = self.state is CardState.HALT
                return self._wake()
            self._error()
            return None
        if self.state in (CardState.READY, CardState.ACTIVE):
            self._error()
        return None

    def _select(self, frame: bytes) -> Response | None:
        if self.state is not CardState.READY:
            if self.state is CardState.ACTIVE:
                self._error()
            return None
        level = iso14443.CASCADE_LEVELS.index(frame[0])
        if level != self.level or level >= len(self.parts):
            self._error()
            return None
        part = self.parts[level]
        nvb = frame[1]
        if nvb == iso14443.NVB_ANTICOLLISION and len(frame) == 2:
            return Response(part + bytes([iso14443.bcc(part)]))
        if nvb == iso14443.NVB_SELECT and len(frame) == 9:
            if not _crc_ok(frame):
                return None
            if frame[2:6] != part or frame[6] != iso14443.bcc(part):
                return None
            self.level += 1
            if self.level < len(self.parts):
                sak = iso14443.SAK_UID_INCOMPLETE
            else:
                sak = self.sak
                self.state = CardState.ACTIVE
            return Response(bytes([sak]) + iso14443.crc_a([sak]))
        self._error()
        return None


def _crc_ok(frame: bytes) -> bool:
    return len(frame) >= 3 and iso14443.crc_a(frame[:-2]) == frame[-2:]


class Mfrc522Chip:
    """One emulated MFRC522 with an antenna field that cards can be placed in and removed from.

    Connect it to the real ``mfrc522`` code through :class:`hardware.emulator.fake_spidev.FakeSpiBus`
    (which gives it the bus's clock). ``transfers`` counts SPI transactions (``xfer2`` calls).
    :meth:`set_reset_level` is the RST (NRSTPD) pin: low holds the chip in hard power-down.
    """

    version = 0x92

    def __init__(self, *cards: EmulatedCard, clock: Clock | None = None) -> None:
        self.holds_miso = False
        """A module that does not let go of MISO while deselected (see FakeSpiBus.miso_held_low)."""
        self.clock: Clock = clock if clock is not None else VirtualClock()
        self.registers = bytearray(64)
        self.fifo: list[int] = []
        self.cards: list[EmulatedCard] = []
        self.transfers = 0
        self.frames_sent: list[bytes] = []
        """Every frame the chip transmitted to the cards, for tests that check the protocol."""
        self.on_frame: Callable[[bytes], None] | None = None
        """Called with each transmitted frame before the cards see it (to script a test)."""
        self.miso_stuck: int | None = None
        """If set, every byte the chip shifts out reads this (0x00: MISO not connected or held low)."""
        self.in_reset = False
        self.resets = 0
        """Hard resets seen on the RST pin (falling edges)."""
        self._events: list[tuple[float, int, int, Callable[[], None]]] = []
        self._sequence = 0
        self._run = 0
        """Bumped when a command starts or stops: events of an older command are dropped."""
        self._timer = 0
        """Bumped when the timer is (re)started or stopped."""
        self._timer_window: tuple[float, float] | None = None
        self._awake_at = 0.0
        self._crc_ready = False
        self._soft_reset()
        for card in cards:
            self.place(card)

    # The field -------------------------------------------------------------------------------

    def place(self, card: EmulatedCard) -> EmulatedCard:
        """Put a card on the reader; it powers up in the IDLE state."""
        card.power_up()
        if card not in self.cards:
            self.cards.append(card)
        return card

    def place_at(self, card: EmulatedCard, at: float) -> None:
        """Put a card on the reader at the clock's time ``at`` (for latency measurements)."""
        def arrive() -> None:
            self.place(card)

        self._schedule(at, arrive, run_bound=False)

    def remove(self, card: EmulatedCard | None = None) -> None:
        """Take a card (or every card) off the reader."""
        if card is None:
            self.cards.clear()
        elif card in self.cards:
            self.cards.remove(card)

    @property
    def antenna_on(self) -> bool:
        return (
            self.registers[TX_CONTROL_REG] & 0x03 == 0x03
            and not self.in_reset
            and not self.registers[COMMAND_REG] & COMMAND_POWER_DOWN
        )

    # Power -------------------------------------------------------------------------------------

    def set_reset_level(self, level: int) -> None:
        """Drive the RST pin: 0 = hard power-down (every register lost, SPI silent, field off);
        the rising edge resets the chip and starts the oscillator."""
        if not level:
            if not self.in_reset:
                self.in_reset = True
                self.resets += 1
                for card in self.cards:
                    card.power_up()
            return
        if self.in_reset:
            self.in_reset = False
            self._soft_reset()
            self._power_down_until(self.clock.monotonic() + OSCILLATOR_START_S)

    def brown_out(self) -> None:
        """A supply dip: the chip restarts with its reset values, as after a pulse on RST."""
        self.set_reset_level(0)
        self.set_reset_level(1)

    def _power_down_until(self, awake_at: float) -> None:
        self.registers[COMMAND_REG] |= COMMAND_POWER_DOWN
        self._awake_at = awake_at
        self._schedule(awake_at, self._wake_up, run_bound=False)

    def _wake_up(self) -> None:
        if self.clock.monotonic() >= self._awake_at:
            self.registers[COMMAND_REG] &= ~COMMAND_POWER_DOWN & 0xFF

    @property
    def _starting(self) -> bool:
        return self.clock.monotonic() < self._awake_at

    # Time --------------------------------------------------------------------------------------

    def _schedule(self, at: float, action: Callable[[], None], *, run_bound: bool = True) -> None:
        run = self._run if run_bound else -1
        self._sequence += 1
        heapq.heappush(self._events, (at, self._sequence, run, action))

    def _settle(self) -> None:
        now = self.clock.monotonic()
        while self._events and self._events[0][0] <= now:
            _, _, run, action = heapq.heappop(self._events)
            if run in (-1, self._run):
                action()

    def _air_time(self, data: bytes, last_bits: int = 0) -> float:
        """Start bit, 9 bits a byte (8 + parity), fewer in an incomplete last byte, end."""
        bits = 2 + 9 * len(data)
        if last_bits and data:
            bits -= 9 - last_bits
        return bits * BIT_S

    # SPI ---------------------------------------------------------------------------------------

    def spi_transfer(self, data: list[int]) -> list[int]:
        """One SPI transaction: an address byte (bit 7 = read, bits 6..1 = register) then data.

        Reads may chain addresses (each byte out is the value of the address sent before it);
        writes send every data byte to the same register, as the datasheet describes.
        """
        self.transfers += 1
        out = [0] * len(data)
        if not data or self.in_reset:
            return out
        self._settle()
        if data[0] & 0x80:
            for index in range(len(data) - 1):
                out[index + 1] = self.read_register((data[index] >> 1) & 0x3F)
        elif not self._starting:
            address = (data[0] >> 1) & 0x3F
            for value in data[1:]:
                self.write_register(address, value & 0xFF)
        if self.miso_stuck is not None:
            return [self.miso_stuck] * len(data)
        return out

    def read_register(self, address: int) -> int:
        if address == FIFO_DATA_REG:
            return self.fifo.pop(0) if self.fifo else 0
        if address == FIFO_LEVEL_REG:
            return len(self.fifo)
        if address == VERSION_REG:
            return self.version
        if address == STATUS1_REG:
            return self._status1()
        return self.registers[address]

    def _status1(self) -> int:
        now = self.clock.monotonic()
        value = 0
        if self._crc_ready:
            value |= 0x20 | (0x40 if self.registers[CRC_RESULT_REG_L] == 0 == self.registers[CRC_RESULT_REG_M] else 0)
        pending = self.registers[COMM_IRQ_REG] & self.registers[COMM_IEN_REG] & 0x7F
        pending |= self.registers[DIV_IRQ_REG] & self.registers[DIV_IEN_REG] & 0x14
        if pending:
            value |= 0x10  # IRq
        if self._timer_window is not None and self._timer_window[0] <= now < self._timer_window[1]:
            value |= 0x08  # TRunning
        water = self.registers[WATER_LEVEL_REG] & 0x3F
        if FIFO_SIZE - len(self.fifo) <= water:
            value |= 0x02  # HiAlert
        if len(self.fifo) <= water:
            value |= 0x01  # LoAlert
        return value

    def write_register(self, address: int, value: int) -> None:
        if address in (COMM_IRQ_REG, DIV_IRQ_REG):
            # Bit 7 (Set1/Set2) decides whether the marked bits are set or cleared.
            if value & 0x80:
                self.registers[address] |= value & 0x7F
            else:
                self.registers[address] &= ~value & 0x7F
        elif address == FIFO_DATA_REG:
            if len(self.fifo) < FIFO_SIZE:
                self.fifo.append(value)
            else:
                self._error(ERROR_BUFFER_OVFL)
        elif address == FIFO_LEVEL_REG:
            if value & 0x80:  # FlushBuffer: empties the FIFO and clears BufferOvfl
                self.fifo.clear()
                self.registers[ERROR_REG] &= ~ERROR_BUFFER_OVFL & 0xFF
        elif address == COMMAND_REG:
            self._write_command(value)
        elif address == CONTROL_REG:
            if value & CONTROL_T_STOP_NOW:
                self._stop_timer()
        elif address == BIT_FRAMING_REG:
            self.registers[BIT_FRAMING_REG] = value & 0x7F
            if value & 0x80 and self._command == CMD_TRANSCEIVE:
                self._transceive(value & 0x07)
        elif address in (VERSION_REG, STATUS1_REG, ERROR_REG):
            pass
        else:
            self.registers[address] = value
            if address == TX_CONTROL_REG and not self.antenna_on:
                self._field_off()

    def _field_off(self) -> None:
        for card in self.cards:
            card.power_up()  # no field, no power: every card resets

    def _error(self, bits: int) -> None:
        self.registers[ERROR_REG] |= bits
        self.registers[COMM_IRQ_REG] |= IRQ_ERR

    # Commands ----------------------------------------------------------------------------------

    @property
    def _command(self) -> int:
        return self.registers[COMMAND_REG] & 0x0F

    def _write_command(self, value: int) -> None:
        was_down = bool(self.registers[COMMAND_REG] & COMMAND_POWER_DOWN)
        self.registers[COMMAND_REG] = (value & (COMMAND_RCV_OFF | COMMAND_POWER_DOWN)) | (value & 0x0F)
        if value & COMMAND_POWER_DOWN:
            # Soft power-down: the running command stops, the field goes off; registers are kept.
            self._run += 1
            self._set_command(CMD_IDLE)
            self._field_off()
            return
        if was_down:
            # Waking from soft power-down: the bit reads 1 until the oscillator runs again.
            self._power_down_until(self.clock.monotonic() + OSCILLATOR_START_S)
        self._run += 1
        self._run_command(value & 0x0F)

    def _run_command(self, command: int) -> None:
        if command == CMD_SOFT_RESET:
            self._soft_reset()
        elif command == CMD_CALC_CRC:
            crc = iso14443.crc_a(self.fifo)
            self.fifo.clear()
            self.registers[CRC_RESULT_REG_L] = crc[0]
            self.registers[CRC_RESULT_REG_M] = crc[1]
            self._crc_ready = True
            self.registers[DIV_IRQ_REG] |= DIV_IRQ_CRC
        elif command == CMD_TRANSMIT:
            frame = bytes(self.fifo)
            self.fifo.clear()
            last_bits = self.registers[BIT_FRAMING_REG] & 0x07
            self._send(frame, last_bits)
            tx_end = self.clock.monotonic() + self._air_time(frame, last_bits)

            def sent() -> None:
                self.registers[COMM_IRQ_REG] |= IRQ_TX | IRQ_IDLE
                self._set_command(CMD_IDLE)

            self._schedule(tx_end, sent)
            self._start_timer(tx_end, None)
        elif command == CMD_MF_AUTHENT:
            self._authenticate()

    def _set_command(self, command: int) -> None:
        self.registers[COMMAND_REG] = (self.registers[COMMAND_REG] & 0xF0) | command

    def _soft_reset(self) -> None:
        self.registers = bytearray(64)
        for address, value in _RESET_VALUES.items():
            self.registers[address] = value
        self.fifo = []
        self._run += 1
        self._timer += 1
        self._timer_window = None
        self._crc_ready = False
        for card in self.cards:
            card.power_up()

    # The timer ---------------------------------------------------------------------------------

    @property
    def timer_period_s(self) -> float | None:
        """How long the timer runs from TReload to zero as configured, or ``None`` without TAuto."""
        mode = self.registers[T_MODE_REG]
        if not mode & 0x80:
            return None
        prescaler = (mode & 0x0F) << 8 | self.registers[T_PRESCALER_REG]
        reload = self.registers[T_RELOAD_REG_H] << 8 | self.registers[T_RELOAD_REG_L]
        return (2 * prescaler + 1) * (reload + 1) / CARRIER_HZ

    def _start_timer(self, start: float, answer_at: float | None) -> None:
        """TAuto: the timer starts at the end of a transmission and stops once an answer begins."""
        self._timer += 1
        period = self.timer_period_s
        if period is None:
            self._timer_window = None
            return
        expiry = start + period
        stop = None if answer_at is None else answer_at + 5 * BIT_S
        if stop is not None and stop < expiry:
            self._timer_window = (start, stop)
            return
        self._timer_window = (start, expiry)
        timer = self._timer

        def run_out() -> None:
            if timer == self._timer:
                self.registers[COMM_IRQ_REG] |= IRQ_TIMER

        self._schedule(expiry, run_out, run_bound=False)

    def _stop_timer(self) -> None:
        self._timer += 1
        if self._timer_window is not None:
            self._timer_window = (self._timer_window[0], min(self._timer_window[1], self.clock.monotonic()))

    # Frames ------------------------------------------------------------------------------------

    def _active_cards(self) -> list[EmulatedCard]:
        if not self.antenna_on:
            return []
        present = []
        for card in list(self.cards):
            if card.leave_after_frames is not None:
                if card.leave_after_frames <= 0:
                    self.cards.remove(card)
                    card.leave_after_frames = None
                    continue
                card.leave_after_frames -= 1
            present.append(card)
        return present

    def _send(self, frame: bytes, tx_last_bits: int) -> list[Response]:
        self.frames_sent.append(frame)
        if self.on_frame is not None:
            self.on_frame(frame)
        answers = []
        for card in self._active_cards():
            answer = card.receive(frame, tx_last_bits)
            if answer is not None:
                answers.append(answer)
        if self.registers[COMMAND_REG] & COMMAND_RCV_OFF:
            return []  # the receiver is off: nothing is heard
        return answers

    def _transceive(self, tx_last_bits: int) -> None:
        frame = bytes(self.fifo)
        self.fifo.clear()
        self.registers[ERROR_REG] = 0
        self.registers[CONTROL_REG] = 0x10
        answers = self._send(frame, tx_last_bits)
        tx_end = self.clock.monotonic() + self._air_time(frame, tx_last_bits)
        self._schedule(tx_end, lambda: self._set_irq(IRQ_TX))
        if not answers:
            # Nobody answered: only the timer, if it is set up, ends the wait.
            self._start_timer(tx_end, None)
            return
        answer_at = tx_end + FRAME_DELAY_S
        self._start_timer(tx_end, answer_at)
        longest = max(answers, key=lambda answer: len(answer.data))
        received_at = answer_at + self._air_time(longest.data, longest.last_bits)
        self._schedule(received_at, lambda: self._receive(answers))

    def _set_irq(self, bits: int) -> None:
        self.registers[COMM_IRQ_REG] |= bits

    def _receive(self, answers: list[Response]) -> None:
        first = answers[0]
        if any(answer.data != first.data or answer.last_bits != first.last_bits for answer in answers):
            received = bytearray(max(len(answer.data) for answer in answers))
            for answer in answers:
                for index, byte in enumerate(answer.data):
                    received[index] |= byte
            self.fifo = list(received)
            self._error(ERROR_COLLISION)
        else:
            self.fifo = list(first.data[:FIFO_SIZE])
            self.registers[CONTROL_REG] = 0x10 | first.last_bits
        self.registers[COMM_IRQ_REG] |= IRQ_RX

    def _authenticate(self) -> None:
        # FIFO: mode, block, key (6 bytes), first 4 UID bytes. Crypto1 itself is not modelled.
        request = bytes(self.fifo)
        self.fifo.clear()
        active = [card for card in self._active_cards() if card.state is CardState.ACTIVE]
        if len(request) == 12 and active and request[2:8] == active[0].key_a:
            self.registers[STATUS2_REG] |= STATUS2_CRYPTO1_ON
            self.registers[COMM_IRQ_REG] |= IRQ_IDLE
            self._set_command(CMD_IDLE)
        else:
            self.registers[COMM_IRQ_REG] |= IRQ_TIMER
