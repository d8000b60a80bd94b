"""A fake I²C bus with emulated SSD1306/SH1106 OLED controllers on it.

:class:`FakeI2cBus` has the methods luma.core's ``i2c`` interface calls on an smbus2 ``SMBus``
(``write_i2c_block_data`` for an unmanaged bus, ``i2c_rdwr`` for a managed one), counts every byte
and transaction, and fails with ``OSError`` errno 121 (EREMOTEIO) when nothing answers at the
address, as the kernel does. :class:`OledPanel` decodes the command stream into display RAM, so a
test can compare what the real luma driver sent with what was drawn, pixel by pixel.

**Time.** Given a clock (the emulated table shares the SPI bus's :class:`~.clock.VirtualClock`), each
write moves it by its time on the wire at ``clock_hz``: a START condition, the address byte, every
payload byte, each byte 8 bits and the receiver's acknowledge bit (9 clock periods), and a STOP
condition (NXP UM10204, the I²C-bus specification: "Each byte must be followed by an Acknowledge
bit"; START and STOP take about one clock period each at these rates). A write to an address nobody
acknowledges ends after the address byte. The controllers are specified up to fast mode, 400 kHz
(SSD1306 datasheet 13.3, I²C interface timing: tcycle ≥ 2.5 µs; SH1106 datasheet, I²C interface:
fSCL 400 kHz); 1 MHz (fast-mode plus) is outside both and is timed the same way, as many panels work
at it: :attr:`FakeI2cBus.clock_hz` is a setting, not a claim that a given panel takes it.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from PIL import Image

from hardware.emulator.clock import excluded

ControllerName = Literal["ssd1306", "sh1106"]

# Commands followed by this many argument bytes (both controllers; 0x20-0x22 are SSD1306 only).
_SSD1306_ARGUMENTS = {
    0x20: 1,
    0x21: 2,
    0x22: 2,
    0x81: 1,
    0x8D: 1,
    0xA8: 1,
    0xD3: 1,
    0xD5: 1,
    0xD9: 1,
    0xDA: 1,
    0xDB: 1,
    0x26: 6,
    0x27: 6,
    0x29: 5,
    0x2A: 5,
    0xA3: 2,
}
_SH1106_ARGUMENTS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


@dataclass
class OledPanel:
    """The display RAM of an SSD1306 (128 columns) or SH1106 (132 columns) and its address pointer.

    ``column_offset`` is where the 128 visible columns start in RAM: 0 for the SSD1306, and 2 on
    most 1.3" SH1106 boards (132-column RAM driving a 128-column glass).
    """

    controller: ControllerName = "ssd1306"
    width: int = 128
    height: int = 64
    column_offset: int | None = None
    display_on: bool = False
    contrast: int = 0
    inverted: bool = False
    frames: int = 0
    """Times the last page of RAM was completed: a full frame was written."""
    written: list[tuple[float, int, int, int]] = field(default_factory=list)
    """(time, page, first column, last column): when a write put its last byte into a page of RAM, and
    the visible columns it wrote there, on the bus's clock (a bus with a clock logs them);
    :func:`glass_time` says when the glass shows them."""

    def __post_init__(self) -> None:
        self.ram_width = 132 if self.controller == "sh1106" else 128
        if self.column_offset is None:
            self.column_offset = 2 if self.controller == "sh1106" else 0
        self.pages = self.height // 8
        self.ram = [bytearray(self.ram_width) for _ in range(self.pages)]
        self.page = 0
        self.column = 0
        self.addressing = 2  # page addressing until told otherwise (SSD1306 reset state)
        self.column_range = (0, self.ram_width - 1)
        self.page_range = (0, self.pages - 1)
        self._pending: list[int] = []
        self._arguments = _SH1106_ARGUMENTS if self.controller == "sh1106" else _SSD1306_ARGUMENTS

    def power_cycle(self) -> None:
        """The supply dipped: the controller restarts switched off, with its RAM full of noise."""
        self.__post_init__()
        self.ram = [bytearray((page * 37 + column * 11) & 0xFF for column in range(self.ram_width)) for page in
                    range(self.pages)]
        self.display_on = False
        self.contrast = 0
        self.inverted = False

    # Bytes from the bus ------------------------------------------------------------------------

    def receive(self, payload: bytes, arrivals: Callable[[int], float] | None = None) -> None:
        """One I²C write to the panel: a control byte (0x00 commands, 0x40 data), then bytes.

        ``arrivals(index)`` is when byte ``index`` of the payload was on the wire (the bus's clock): the
        panel then logs, in :attr:`written`, when each page of its RAM last took a byte."""
        if not payload:
            return
        control, body = payload[0], payload[1:]
        if control & 0x40:
            touched = self._data(body)
            if arrivals is not None:
                for page, (last, low, high) in touched.items():
                    self.written.append((arrivals(last + 1), page, low, high))
        else:
            for byte in body:
                self._command_byte(byte)

    def _command_byte(self, byte: int) -> None:
        if self._pending:
            self._pending.append(byte)
        else:
            self._pending = [byte]
        opcode = self._pending[0]
        if len(self._pending) - 1 < self._arguments.get(opcode, 0):
            return
        command, self._pending = self._pending, []
        self._execute(command)

    def _execute(self, command: list[int]) -> None:
        opcode, arguments = command[0], command[1:]
        if opcode <= 0x0F:
            self.column = (self.column & 0xF0) | opcode
        elif opcode <= 0x1F:
            self.column = (self.column & 0x0F) | ((opcode & 0x0F) << 4)
        elif opcode == 0x20 and self.controller == "ssd1306":
            self.addressing = arguments[0] & 0x03
        elif opcode == 0x21 and self.controller == "ssd1306":
            self.column_range = (arguments[0] & 0x7F, arguments[1] & 0x7F)
            self.column = self.column_range[0]
        elif opcode == 0x22 and self.controller == "ssd1306":
            self.page_range = (arguments[0] & 0x07, arguments[1] & 0x07)
            self.page = self.page_range[0]
        elif opcode == 0x81:
            self.contrast = arguments[0]
        elif opcode in (0xA6, 0xA7):
            self.inverted = opcode == 0xA7
        elif opcode in (0xAE, 0xAF):
            self.display_on = opcode == 0xAF
        elif 0xB0 <= opcode <= 0xB7:
            self.page = opcode & 0x07

    def _data(self, body: Iterable[int]) -> dict[int, tuple[int, int, int]]:
        """Write ``body`` into RAM; for each page it reached, the index in ``body`` of its last byte and
        the first and last visible columns it wrote."""
        last_visible = (self.column_offset or 0) + self.width - 1
        offset = self.column_offset or 0
        touched: dict[int, tuple[int, int, int]] = {}
        for index, byte in enumerate(body):
            if self.page < self.pages and self.column < self.ram_width:
                self.ram[self.page][self.column] = byte
                x = self.column - offset
                _, low, high = touched.get(self.page, (0, x, x))
                touched[self.page] = (index, min(low, x), max(high, x))
            if self.controller == "ssd1306" and self.addressing == 0:
                self._advance_horizontal()
            else:
                # Page addressing: the column pointer stops at the end of the page.
                if self.page == self.pages - 1 and self.column == last_visible:
                    self.frames += 1
                self.column = min(self.column + 1, self.ram_width - 1)
        return touched

    def _advance_horizontal(self) -> None:
        first_column, last_column = self.column_range
        if self.column < last_column:
            self.column += 1
            return
        self.column = first_column
        if self.page < self.page_range[1]:
            self.page += 1
        else:
            self.page = self.page_range[0]
            self.frames += 1

    # What is shown -----------------------------------------------------------------------------

    def image(self) -> Image.Image:
        """The visible 128×64 window of display RAM as a 1-bit image (white = lit pixel)."""
        image = Image.new("1", (self.width, self.height))
        pixels = image.load()
        assert pixels is not None
        offset = self.column_offset or 0
        for page, row in enumerate(self.ram):
            for x in range(self.width):
                byte = row[x + offset] if x + offset < self.ram_width else 0
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 1
        return image


class SpiOledPanel:
    """An :class:`OledPanel` wired to SPI (the 7-pin modules: CS, D/C, RES, SCK, MOSI): what the SPI bus
    sends while the D/C line is low is commands, while it is high display data (SSD1306 datasheet 8.1.3,
    "MCU Serial Interface (4-wire SPI)": D/C# is sampled on the eighth clock of each byte; SH1106: A0 the
    same). The controller answers nothing (it has no MISO). A low on RES resets it: switched off, its
    RAM not kept.

    Attached to a :class:`~.fake_spidev.FakeSpiBus` at its chip select, on the bus's clock: a transfer
    reaches it once the bus has moved its clock past the transfer's bits, and each byte arrives
    ``8 / speed_hz`` after the one before (:attr:`OledPanel.written` logs when a page took its last
    byte, as on the I²C bus).
    """

    def __init__(self, panel: OledPanel, levels: dict[int, int], dc_pin: int, *, speed_hz: int = 8_000_000) -> None:
        self.panel = panel
        self.levels = levels
        """The GPIO output levels (a :class:`~.fake_gpio.FakeGpio`'s ``levels``): the D/C line is read there."""
        self.dc_pin = dc_pin
        self.speed_hz = speed_hz
        self.clock: Any = None
        """Set by :meth:`~.fake_spidev.FakeSpiBus.attach`."""
        self.bytes_received = 0

    def set_reset_level(self, level: int) -> None:
        """The RES line: low resets the controller."""
        if not level:
            self.panel.power_cycle()

    def spi_transfer(self, data: list[int]) -> list[int]:
        control = 0x40 if self.levels.get(self.dc_pin) else 0x00
        self.bytes_received += len(data)
        if self.clock is None:
            self.panel.receive(bytes([control, *data]))
        else:
            end = float(self.clock.monotonic())
            count, byte_s = len(data), 8 / self.speed_hz

            def arrivals(index: int) -> float:
                # Payload index 1 is the transfer's first byte; the bus's clock is at the end of its last.
                return end - (count - index) * byte_s

            self.panel.receive(bytes([control, *data]), arrivals)
        return [0] * len(data)


@dataclass
class I2cTransaction:
    """One write on the wire: the 7-bit address and the bytes after it (control byte included)."""

    address: int
    payload: bytes


@dataclass
class FakeI2cBus:
    """A fake smbus2 ``SMBus`` with OLED panels at some addresses.

    Counts every transaction and byte so frame sizes can be measured at the bus level.
    """

    panels: dict[int, OledPanel] = field(default_factory=dict)
    transactions: list[I2cTransaction] = field(default_factory=list)
    closed: bool = False
    clock: Any = None
    """A :class:`~.clock.Clock` that each write advances by its wire time, or ``None``."""
    clock_hz: int = 400_000
    """SCL frequency: 100 kHz (the Pi's default), 400 kHz (fast mode), 1 MHz (fast-mode plus)."""
    handles_open: int = 0
    """``smbus2.SMBus`` objects open on it (see :func:`managed_smbus2`)."""
    transaction_overhead_s: float = 0.0
    """The time of one transaction besides its bits on the wire: the ioctl and the Pi's I²C driver
    starting it (0 in the tests; a Pi's in ``banker bench --table``, hardware/pimodel.py)."""

    def wire_s(self, payload_bytes: int, *, acknowledged: bool = True) -> float:
        """Seconds on the wire of one write: START, the address, the payload (9 clocks a byte), STOP."""
        clocks = 1 + 9 * (1 + (payload_bytes if acknowledged else 0)) + 1
        return clocks / self.clock_hz

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if len(data) > 32:
            raise ValueError("Data length cannot exceed 32 bytes")
        self._write(address, bytes([register, *data]))

    def i2c_rdwr(self, *messages: Any) -> None:
        """One I2C_RDWR call: its messages one after the other, a repeated START between two (one call's
        overhead, one STOP at the end)."""
        for index, message in enumerate(messages):
            self._write(int(message.addr), bytes(message), first=index == 0, last=index == len(messages) - 1)

    def _write(self, address: int, payload: bytes, *, first: bool = True, last: bool = True) -> None:
        if self.closed:
            raise OSError(errno.EBADF, "Bad file descriptor")
        with excluded(self.clock):  # the program's CPU is charged up to here; the bus's own work is not its
            panel = self.panels.get(address)
            arrivals: Callable[[int], float] | None = None
            if self.clock is not None:
                overhead = self.transaction_overhead_s if first else 0.0
                start = float(self.clock.monotonic()) + overhead
                hz = self.clock_hz

                def arrivals(index: int) -> float:
                    # START, the address byte, then each byte with its acknowledge: 9 clocks a byte.
                    return start + (1 + 9 * (1 + index + 1)) / hz

                wire = self.wire_s(len(payload), acknowledged=panel is not None)
                if not last:
                    wire -= 1 / self.clock_hz  # no STOP: the next message's repeated START follows
                self.clock.advance(overhead + wire)
                kernel = getattr(self.clock, "kernel", None)
                if kernel is not None:
                    kernel(overhead)
            if panel is None:
                raise OSError(errno.EREMOTEIO, "Remote I/O error")
            self.transactions.append(I2cTransaction(address, payload))
            if arrivals is None:
                panel.receive(payload)
            else:
                panel.receive(payload, arrivals)

    def close(self) -> None:
        self.closed = True

    def bytes_sent(self, since: int = 0) -> int:
        """Payload bytes (control bytes included, address bytes not) since transaction ``since``."""
        return sum(len(transaction.payload) for transaction in self.transactions[since:])


class I2cHandle:
    """One open ``/dev/i2c-N`` on a :class:`FakeI2cBus`: closing it (luma does, when a display did not
    answer) leaves the other opens working, as closing one file descriptor does; the bus counts as
    closed once every handle is."""

    def __init__(self, bus: FakeI2cBus) -> None:
        self.bus = bus
        self.closed = False
        bus.handles_open += 1
        bus.closed = False

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self._check()
        self.bus.write_i2c_block_data(address, register, data)

    def i2c_rdwr(self, *messages: Any) -> None:
        self._check()
        self.bus.i2c_rdwr(*messages)

    def _check(self) -> None:
        if self.closed:
            raise OSError(errno.EBADF, "Bad file descriptor")

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.bus.handles_open -= 1
        if self.bus.handles_open == 0:
            self.bus.close()


@contextmanager
def managed_smbus2(bus: FakeI2cBus, ports: Iterable[int] = (1,)) -> Iterator[FakeI2cBus]:
    """Make ``smbus2.SMBus(port)`` return ``bus`` for the given ports, as on a Pi with I²C enabled.

    luma.core opens the bus itself ("managed") when no ``bus=`` is passed, and then sends a whole
    frame in one ``i2c_rdwr`` transaction; this is how the real table runs, so benchmarks and the
    emulated table use it. Ports not listed raise ``FileNotFoundError`` like a missing
    ``/dev/i2c-N``.
    """
    import smbus2

    real = smbus2.SMBus
    allowed = set(ports)

    def fake_smbus(port: int | None = None, force: bool = False) -> I2cHandle:
        if port not in allowed:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/i2c-{port}")
        return I2cHandle(bus)

    smbus2.SMBus = fake_smbus  # type: ignore[misc,assignment]
    try:
        yield bus
    finally:
        smbus2.SMBus = real  # type: ignore[misc]


def scan_time(row: int, after: float, period_s: float, phase_s: float, rows: int = 64) -> float:
    """When the panel next drives ``row`` at or after ``after``.

    A passive-matrix OLED lights one row at a time, in order from the display start line, a whole pass
    every frame period: "Ffrm = Fosc / (D × K × No. of Mux)" (SSD1306 datasheet, section 8.3,
    "Oscillator Circuit and Display Time Generator"). A row shows what its RAM held when it was last
    driven, so a byte written just after its row went by is seen one pass later. ``phase_s`` is when
    row 0 was driven (the panel's oscillator runs on its own; nothing on the bus tells it).
    """
    if period_s <= 0:
        return after  # no scan modelled: the glass shows a byte as it arrives
    at = phase_s + row / rows * period_s
    if at < after:
        at += -(-(after - at) // period_s) * period_s
    return float(at)


def glass_time(written: Iterable[tuple[float, int, int, int]], rows: Iterable[int], period_s: float,
               phase_s: float, columns: tuple[int, int] = (0, 127)) -> float:
    """When the glass shows, on every row of ``rows`` between ``columns`` (first, last), what the writes
    ``written`` (:attr:`OledPanel.written`) put there: the latest of each such row's next pass after the
    last write to its page that reached those columns; 0.0 if none did."""
    left, right = columns
    last: dict[int, float] = {}
    for at, page, low, high in written:
        if low <= right and high >= left:
            last[page] = max(at, last.get(page, at))
    latest = 0.0
    for row in rows:
        written_at = last.get(row // 8)
        if written_at is not None:
            latest = max(latest, scan_time(row, written_at, period_s, phase_s))
    return latest
