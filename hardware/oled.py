"""The 128×64 OLED: SSD1306 (most 0.96" modules) or SH1106 (most 1.3" modules) on I²C via luma.oled.

:class:`Oled` draws a :class:`~hardware.display.ScreenView` with :func:`~hardware.display.render_view`
and hands the image to a luma device. :class:`SimulatedDisplay` is the same class on luma's
``dummy`` device, keeping the last frame as an image for the simulated table and for tests.

A full frame is 1024 bytes of pixels. At the Pi's default 100 kHz I²C clock that is ≈95 ms on the
wire; set ``dtparam=i2c_arm_baudrate=400000`` for ≈25 ms (see hardware/README.md).

A panel that lost power for a moment (a brown-out) comes back switched off with its RAM full of
noise, yet still acknowledges every write, so nothing on the bus tells. :class:`Oled` therefore sends
the controller's init sequence and DISPLAYON again every ``refresh_s`` seconds (5 s: ≈30 bytes, 0.7 ms
at 400 kHz) on the same luma device, so a panel that browned out is lit again within 5 s, and the
whole frame every ``whole_s`` seconds (60 s), so what its RAM lost is drawn again within a minute;
neither darkens a panel that kept its power. After a failed frame it initialises the display again
before the next one, whole, so a display that answers again is used again.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from PIL import Image

from hardware.display import HEIGHT, WIDTH, ScreenView, reading_order, render_view
from hardware.errors import DisplayError

OledChip = Literal["ssd1306", "sh1106"]
OLED_CHIPS: tuple[OledChip, ...] = ("ssd1306", "sh1106")
OLED_ADDRESSES = (0x3C, 0x3D)
"""The two addresses these modules use; 0x3C unless the address jumper/resistor was moved."""
REFRESH_S = 5.0
"""How often the init sequence and DISPLAYON are sent again, for a panel that browned out silently."""
WHOLE_S = 60.0
"""How often the whole frame is sent again, for the RAM a brown-out filled with noise."""

_NOP = 0xE3
"""NOP: SSD1306 datasheet, command table (E3h); SH1106 datasheet, command 21 (E3H)."""

log = logging.getLogger(__name__)


LUMA_CONTRAST = {"ssd1306": 0xCF, "sh1106": 0x7F}
"""The contrast luma.oled 3.16's constructors set (``self.contrast(0xCF)`` / ``self.contrast(0x7F)``)."""


def init_sequence(device: Any) -> tuple[int, ...] | None:
    """The commands luma.oled 3.16's constructor sends a 128×64 SSD1306 or SH1106, without its first one
    (DISPLAYOFF), or ``None`` for a device of another kind (luma's ``dummy``).

    They are the bytes of ``ssd1306.__init__`` and ``sh1106.__init__`` in luma/oled/device/__init__.py,
    with the constants of luma/oled/const.py; tests/hardware/test_oled.py checks them against what the
    installed luma sends. Sending them again restores every setting a brown-out lost (multiplex, charge
    pump, addressing mode, segment remap, …) while the panel stays on: nothing in them clears the RAM or
    switches the display off.
    """
    kind = type(device).__name__
    if kind == "ssd1306":
        return (
            0xD5, 0x80,  # SETDISPLAYCLOCKDIV
            0xA8, 0x3F,  # SETMULTIPLEX: 64 rows
            0xD3, 0x00,  # SETDISPLAYOFFSET
            0x40,  # SETSTARTLINE
            0x8D, 0x14,  # CHARGEPUMP on
            0x20, 0x00,  # MEMORYMODE horizontal
            0xA1,  # SETSEGMENTREMAP
            0xC8,  # COMSCANDEC
            0xDA, 0x12,  # SETCOMPINS
            0xD9, 0xF1,  # SETPRECHARGE
            0xDB, 0x40,  # SETVCOMDETECT
            0xA4,  # DISPLAYALLON_RESUME
            0xA6,  # NORMALDISPLAY
        )
    if kind == "sh1106":
        return (
            0x20,  # MEMORYMODE (as luma sends it; the SH1106 has page addressing only)
            0x10, 0xB0, 0xC8,  # SETHIGHCOLUMN, page 0, COM scan decrement
            0x00, 0x10, 0x40,  # SETLOWCOLUMN, high column 0, start line 0
            0xA1,  # SETSEGMENTREMAP
            0xA6,  # NORMALDISPLAY
            0xA8, 0x3F,  # SETMULTIPLEX: 64 rows
            0xA4,  # DISPLAYALLON_RESUME
            0xD3, 0x00,  # SETDISPLAYOFFSET
            0xD5, 0xF0,  # SETDISPLAYCLOCKDIV
            0xD9, 0x22,  # SETPRECHARGE
            0xDA, 0x12,  # SETCOMPINS
            0xDB, 0x20,  # SETVCOMDETECT
            0x8D, 0x14,  # CHARGEPUMP (the SH1106 reads 0x8D as a no-op page address)
        )
    return None


def reinitialised(device: Any) -> Any:
    """``device`` again, its controller sent the init sequence once more (see :func:`init_sequence`).

    The same luma device is kept. A new one per re-initialisation would leak: luma.core's
    ``device.__init__`` registers a closure with ``atexit.register`` that calls ``self.cleanup()``
    (luma/core/device.py), so every device built stays alive until the process ends (about 324 KiB
    each for the SSD1306, its two 8,192-entry packing tables), and that closure cannot be
    unregistered because nothing outside the constructor can name it. A new device would also blank
    the picture: its constructor sends DISPLAYOFF and a cleared frame before DISPLAYON. The caller
    sends the frame again and then DISPLAYON (:meth:`Oled.show_image`).
    """
    sequence = init_sequence(device)
    if sequence is not None:
        device.command(*sequence)
        device.contrast(LUMA_CONTRAST[type(device).__name__])
    return device


WINDOW_OVERHEAD_BYTES = 10
"""What one more window costs on the wire, in bytes: a command write (address, control byte, six
command bytes) and the data write's address and control byte, with their START and STOP."""


def pack_pages(image: Image.Image) -> list[bytes]:
    """A 128×64 1-bit image as SSD1306/SH1106 display RAM holds it: 8 pages of 128 bytes, one byte a
    column of 8 rows, bit 0 the top row (SSD1306 datasheet 8.7, "Graphic Display Data RAM";
    the same layout luma.oled packs in ``ssd1306.display``)."""
    pages = image.height // 8
    # Transposed, each row of the image is a column of the screen; flipped, its 8 bytes are pages 7…0
    # with the lowest row in the lowest bit.
    columns = image.transpose(Image.Transpose.TRANSPOSE).transpose(Image.Transpose.FLIP_LEFT_RIGHT).tobytes()
    return [columns[pages - 1 - page :: pages] for page in range(pages)]


def page_order(view: ScreenView) -> tuple[int, ...]:
    """The pages of the panel's RAM in the order the view is read (:func:`hardware.display.reading_order`):
    each part's pages, the first part's first."""
    return pages_of(reading_order(view))


def pages_of(regions: tuple[tuple[int, int, int, int], ...]) -> tuple[int, ...]:
    """The pages of the panel's RAM that ``regions`` (top, bottom, left, right) cover, in their order."""
    pages: list[int] = []
    for top, bottom, _left, _right in regions:
        for page in range(top // 8, bottom // 8 + 1):
            if page not in pages:
                pages.append(page)
    return tuple(pages)


SPI_WINDOW_OVERHEAD_S = 200e-6
"""What one more window costs on SPI besides its bytes, on a Pi Zero 2 W: two system calls (hardware/pimodel.py:
60 µs each), two writes of the D/C line and luma's Python around them."""
I2C_RDWR_MAX_MESSAGES = 42
"""linux/i2c-dev.h: I2C_RDWR_IOCTL_MAX_MSGS, the most messages one I2C_RDWR call takes."""
RUN_GAP = 8
"""Unchanged bytes between two changes of a page that are left out (a window of their own after them):
a window costs about this much on the wire (SH1106: the page and column command, its START, address
and STOP, and the Pi's system call for each of the two writes)."""
_RUNS = re.compile(rb"[^\x00](?:[^\x00]|\x00{1,%d}(?=[^\x00]))*" % (RUN_GAP - 1))


def changed_runs(old: bytes, new: bytes) -> list[tuple[int, int]]:
    """The stretches (first, last index) where ``new`` differs from ``old``, two of them joined when fewer
    than :data:`RUN_GAP` equal bytes lie between."""
    if old == new:
        return []
    length = len(new)
    difference = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(length, "big")
    return [(found.start(), found.end() - 1) for found in _RUNS.finditer(difference)]


def changed_span(old: bytes | None, new: bytes) -> tuple[int, int] | None:
    """The first and last column where ``new`` differs from ``old`` (all of it when ``old`` is
    unknown), or ``None`` when they are the same."""
    if old is None:
        return 0, len(new) - 1
    if old == new:
        return None
    first = next(index for index in range(len(new)) if old[index] != new[index])
    last = next(index for index in range(len(new) - 1, -1, -1) if old[index] != new[index])
    return first, last


def _bus_name(port: int, address: int) -> str:
    return f"I²C bus {port} (/dev/i2c-{port}) address 0x{address:02X}"


@dataclass(frozen=True)
class SpiWiring:
    """An OLED module on SPI: its controller and chip select, and the GPIOs of its D/C and RES lines."""

    bus: int = 1
    device: int = 2
    dc_pin: int = 22
    reset_pin: int | None = 27
    speed_hz: int = 8_000_000

    def name(self) -> str:
        return f"SPI{self.bus} CE{self.device} (/dev/spidev{self.bus}.{self.device}), D/C GPIO{self.dc_pin}"


def _open_spi_serial(spi: SpiWiring, name: str) -> Any:
    """luma's SPI interface for ``spi`` (it drives D/C and RES with RPi.GPIO, in BCM numbers).

    Raises:
        DisplayError: the SPI device does not exist, or it or the GPIOs are not permitted.
    """
    import luma.core.error  # type: ignore[import-untyped]
    from luma.core.interface.serial import spi as luma_spi  # type: ignore[import-untyped]

    where = spi.name()
    try:
        return luma_spi(port=spi.bus, device=spi.device, gpio_DC=spi.dc_pin, gpio_RST=spi.reset_pin,
                        bus_speed_hz=spi.speed_hz)
    except luma.core.error.DeviceNotFoundError as error:
        overlay = "dtparam=spi=on" if spi.bus == 0 else f"dtoverlay=spi{spi.bus}-3cs"
        raise DisplayError(
            name, where, f"the SPI device does not exist ({error})",
            f"enable it: {overlay} in /boot/firmware/config.txt, reboot, and check that "
            f"ls /dev/spidev{spi.bus}.{spi.device} lists it",
            lasting=True, key="no_spi_display", fix_key="spi_display_enable",
            values={"error": str(error), "overlay": overlay, "bus": spi.bus, "device": spi.device}, part="display",
        ) from error
    except (PermissionError, RuntimeError) as error:
        raise DisplayError(
            name, where, f"the SPI device or its D/C and RES pins cannot be used ({error})",
            "add the user to the spi and gpio groups (sudo usermod -aG spi,gpio $USER, then log in again; in the "
            "systemd unit: SupplementaryGroups=gpio spi i2c)",
            lasting=True, key="spi_display_denied", fix_key="spi_permission_fix", values={"error": str(error)},
            part="display",
        ) from error


def open_luma_device(
    *,
    chip: OledChip = "sh1106",
    port: int = 1,
    address: int = 0x3C,
    rotate: int = 0,
    bus: Any | None = None,
    page_address_offset: int = 2,
    spi: SpiWiring | None = None,
) -> Any:
    """Construct the luma.oled driver for the module on the I²C bus (or on SPI, ``spi``); it initialises
    the panel.

    ``bus`` is an already open smbus-like object (then luma sends 32-byte blocks); ``None`` lets
    luma open ``/dev/i2c-<port>`` with smbus2 and send a frame in one transaction, as on the Pi.
    ``page_address_offset`` (SH1106 only) is the first visible RAM column: 2 on most 1.3" boards;
    use 0 if the picture is shifted by two pixels with garbage at one edge.

    Raises:
        ValueError: unknown chip, address or rotation.
        DisplayError: I²C is not enabled, not permitted, or nothing answers at the address.
    """
    if chip not in OLED_CHIPS:
        raise ValueError(f"OLED chip is one of {OLED_CHIPS}, not {chip!r}")
    if not 0x03 <= address <= 0x77:
        raise ValueError(f"not a 7-bit I²C device address: 0x{address:02X}")
    if rotate not in (0, 2):
        raise ValueError(f"rotate is 0 or 2 (upside down) for a landscape 128×64 screen, not {rotate}")
    import luma.core.error
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306  # type: ignore[import-untyped]

    name = f"OLED display ({chip.upper()})"
    if spi is not None:
        serial = _open_spi_serial(spi, name)
        # Nothing answers on SPI (the controller has no MISO): a missing display is only seen on the glass.
        if chip == "sh1106":
            return sh1106(serial, width=WIDTH, height=HEIGHT, rotate=rotate, page_address_offset=page_address_offset)
        return ssd1306(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
    where = _bus_name(port, address)
    try:
        serial = i2c(bus=bus, port=port, address=address)
    except luma.core.error.DeviceNotFoundError as error:
        raise DisplayError(
            name,
            where,
            f"the I²C bus does not exist ({error})",
            f"enable I²C: sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in /boot/firmware/config.txt), "
            f"reboot, and check that ls /dev/i2c-{port} lists it",
            lasting=True, key="no_i2c_bus", fix_key="i2c_enable", values={"error": str(error), "port": port},
            part="display",
        ) from error
    except luma.core.error.DevicePermissionError as error:
        raise DisplayError(
            name,
            where,
            "permission denied",
            "add the user to the i2c group (sudo usermod -aG i2c $USER, then log in again; "
            "in the systemd unit: SupplementaryGroups=gpio spi i2c)",
            lasting=True, key="permission", fix_key="i2c_permission_fix", part="display",
        ) from error
    try:
        # One NOP first (0xE3 on both controllers): a display that does not acknowledge it is not
        # built a luma device, which would never be freed (see reinitialised), however often the
        # table tries it again.
        serial.command(_NOP)
        if chip == "sh1106":
            return sh1106(serial, width=WIDTH, height=HEIGHT, rotate=rotate, page_address_offset=page_address_offset)
        return ssd1306(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
    except (luma.core.error.DeviceNotFoundError, OSError) as error:
        serial.cleanup()
        other = 0x3D if address == 0x3C else 0x3C
        raise DisplayError(
            name,
            where,
            f"no display answers ({error})",
            f"check the wiring (SDA to GPIO2 pin 3, SCL to GPIO3 pin 5, VCC to 3.3 V, GND) and run "
            f"i2cdetect -y {port}; if it shows 0x{other:02X}, set the display address to 0x{other:02X}",
            key="no_display", fix_key="display_wiring", values={"error": str(error), "port": port,
                                                                "other": f"0x{other:02X}"}, part="display",
        ) from error


class Oled:
    """A display that draws screen views on a luma device.

    ``Oled()`` opens an SH1106 at 0x3C on I²C bus 1; ``chip``/``address``/``port``/``rotate``
    choose another. Pass ``device=`` to use a luma device opened elsewhere (a dummy, or a driver
    on a fake bus); ``chip``, ``port`` and ``address`` then only name it in error messages.

    Raises:
        DisplayError: see :func:`open_luma_device`.
    """

    def __init__(
        self,
        *,
        device: Any | None = None,
        chip: OledChip = "sh1106",
        port: int = 1,
        address: int = 0x3C,
        rotate: int = 0,
        contrast: int | None = None,
        refresh_s: float | None = REFRESH_S,
        whole_s: float | None = WHOLE_S,
        reopen: Callable[[Any], Any] | None = reinitialised,
        clock: Callable[[], float] = time.monotonic,
        spi: SpiWiring | None = None,
    ) -> None:
        self.name = f"OLED display ({chip.upper()})"
        self.where = spi.name() if spi is not None else _bus_name(port, address)
        self.spi = spi
        """How the panel is wired to SPI, or ``None`` on I²C."""
        import luma.core.error

        self._bus_errors: tuple[type[BaseException], ...] = (OSError, luma.core.error.Error)
        if device is None:
            device = open_luma_device(chip=chip, port=port, address=address, rotate=rotate, spi=spi)
        self.device = device
        self.refresh_s = refresh_s
        """Seconds between two sends of the init sequence (``None``: never)."""
        self.whole_s = whole_s
        """Seconds between two whole frames (``None``: only the changes after the first)."""
        self.reinitialisations = 0
        self._reopen = reopen
        self._clock = clock
        self._initialised_at = clock()
        self._whole_at = clock()
        self._failed = False
        self._contrast = contrast
        self._last_image: Image.Image | None = None
        self._ram: list[bytes] | None = None
        """The pages the panel's RAM holds (as :func:`pack_pages` gives them), or ``None`` when unknown."""
        self.send_changes_only = True
        """Send only the changed columns of changed pages (``False``: every frame whole, as luma does)."""
        self.bytes_sent = 0
        """Pixel bytes the last frame put on the bus."""
        self.frames = 0
        """Frames handed to the device since it was opened."""
        self.last_view: ScreenView | None = None
        self._lock = threading.Lock()
        self._listeners: list[Callable[[Image.Image], None]] = []
        self.closed = False
        if contrast is not None:
            self.device.contrast(contrast)

    def show(self, view: ScreenView) -> None:
        """Render ``view`` and display it.

        Raises:
            DisplayError: the display stopped answering.
        """
        regions = reading_order(view)
        self.show_image(render_view(view), order=pages_of(regions), first=regions[0] if regions else None)
        self.last_view = view

    def show_image(self, image: Image.Image, *, order: tuple[int, ...] = (),
                   first: tuple[int, int, int, int] | None = None) -> None:
        """Display a 128×64 image; other modes are converted to 1-bit, other sizes are scaled. ``first``
        (top, bottom, left, right): the part to send before the rest; ``order``: the pages to send next,
        in that order (the rest follow top to bottom).

        Raises:
            DisplayError: the display stopped answering.
        """
        if image.size != (WIDTH, HEIGHT):
            image = image.resize((WIDTH, HEIGHT))
        if image.mode != "1":
            image = image.convert("1")
        with self._lock:
            if self.closed:
                raise DisplayError(self.name, self.where, "the display is closed", "open a new one",
                               key="display_closed",
                                   fix_key="display_closed_fix", part="display")
            try:
                now = self._clock()
                init_due = self.refresh_s is not None and now - self._initialised_at >= self.refresh_s
                whole_due = self.whole_s is not None and now - self._whole_at >= self.whole_s
                again = self._failed and self._reinitialise()
                whole = again or whole_due
                self._send(image, whole=whole, order=order, first=first)
                if whole:
                    self._whole_at = now
                # The frame first, then the init sequence of a keep-alive: the new picture is not held up.
                if again or (init_due and self._reinitialise()):
                    self.device.show()  # DISPLAYON after the frame: a panel that browned out wakes up to it
            except self._bus_errors as error:
                self._ram = None  # what the panel holds now is not known
                self._failed = self._reopen is not None
                raise DisplayError(
                    self.name, self.where, f"the display stopped answering ({error})", "check the I²C wiring and power",
                    key="display_stopped", fix_key="display_stopped_fix", values={"error": str(error)}, part="display",
                ) from error
            if self._failed:
                log.warning("%s on %s answers again", self.name, self.where)
            self._failed = False
            self._last_image = image
            self.frames += 1
            listeners = list(self._listeners)
        for listener in listeners:
            listener(image)

    def _send(self, image: Image.Image, *, whole: bool, order: tuple[int, ...] = (),
              first: tuple[int, int, int, int] | None = None) -> None:
        """Put ``image`` on the panel: only the bytes of its RAM that differ from what it holds, or all of
        it (``whole``, the first frame, after a failure, or a device that is not an SSD1306 or SH1106,
        which luma draws).

        A change goes in windows of columns of one page each, an unchanged stretch of :data:`RUN_GAP`
        bytes or more left out between two. The changed bytes inside ``first`` (top, bottom, left,
        right in the view's pixels: the part the player reads first) go first, then the pages in
        ``order``, then the others, so that the line a player reads first is on the glass before the
        rest of the frame is on the wire."""
        kind = type(self.device).__name__
        if kind not in ("ssd1306", "sh1106") or not self.send_changes_only:
            self.device.display(image)
            self._ram = None
            return
        pages = pack_pages(self.device.preprocess(image))
        previous = None if whole else self._ram
        if previous is None:
            spans: list[tuple[int, int] | None] = [(0, len(page) - 1) for page in pages]
            if kind == "ssd1306":
                self._send_ssd1306(pages, spans)
            else:
                for index, span in enumerate(spans):
                    assert span is not None
                    self.device.command(*self._window_command(index, span[0], span[1] - span[0] + 1))
                    self.device.data(list(pages[index][span[0] : span[1] + 1]))
            self._ram = pages
            self.bytes_sent = sum(len(page) for page in pages)
            return
        ram = [bytearray(page) for page in previous]
        windows: list[tuple[int, int, bytes]] = []
        if first is not None:
            top, bottom, left, right = self._on_panel(first)
            for index in range(max(0, top // 8), min(len(pages) - 1, bottom // 8) + 1):
                windows += self._runs(index, ram[index], pages[index], left, right)
            self._write_windows(windows, pages)  # on the wire before the rest is even worked out
        if getattr(self.device, "rotate", 0) == 2:
            order = tuple(len(pages) - 1 - page for page in order)
        sequence = [*dict.fromkeys(page for page in order if 0 <= page < len(pages)),
                    *(page for page in range(len(pages)) if page not in order)]
        rest: list[tuple[int, int, bytes]] = []
        for index in sequence:
            rest += self._runs(index, ram[index], pages[index], 0, len(pages[index]) - 1)
        self._write_windows(rest, pages)
        self._ram = pages
        self.bytes_sent = sum(len(data) for _, _, data in windows + rest)

    def _on_panel(self, rect: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """A rectangle of the view (top, bottom, left, right) as the panel's RAM holds it (upside down
        when the display is rotated by 180°)."""
        top, bottom, left, right = rect
        if getattr(self.device, "rotate", 0) == 2:
            return HEIGHT - 1 - bottom, HEIGHT - 1 - top, WIDTH - 1 - right, WIDTH - 1 - left
        return rect

    def _runs(self, index: int, held: bytearray, page: bytes, left: int, right: int) -> list[tuple[int, int, bytes]]:
        """The windows (page, column, bytes) that bring page ``index`` between columns ``left`` and
        ``right`` from what the panel holds (``held``, updated) to ``page``."""
        windows = []
        old = bytes(held[left : right + 1])
        if self.spi is not None:
            # On SPI a window costs far more than the bytes between two changes: one window a page.
            span = changed_span(old, page[left : right + 1])
            runs = [] if span is None else [span]
        else:
            runs = changed_runs(old, page[left : right + 1])
        for low, high in runs:
            low, high = low + left, high + left
            windows.append((index, low, page[low : high + 1]))
            held[low : high + 1] = page[low : high + 1]
        return windows

    def _window_command(self, index: int, column: int, length: int) -> list[int]:
        """The commands that point the RAM at page ``index``, column ``column``, for ``length`` bytes."""
        if type(self.device).__name__ == "ssd1306":
            start = self.device._colstart + column
            return [0x21, start, start + length - 1, 0x22, index, index]  # COLUMNADDR, PAGEADDR
        address = self.device._page_address_offset + column
        return [0xB0 | index, address & 0x0F, 0x10 | address >> 4]  # page, low and high column

    def _write_windows(self, windows: list[tuple[int, int, bytes]], pages: list[bytes] | None = None) -> None:
        """Write the windows: on the managed smbus2 bus the Pi uses, as one ``i2c_rdwr`` of all their
        messages (a command write and a data write each, a repeated START between them: one system call
        instead of two a window, I2C_RDWR in linux/i2c-dev.h, up to 42 messages a call); on SPI an
        SSD1306's windows as one rectangle of ``pages`` when that costs less (:meth:`_write_spi`); on
        another bus through luma's command and data calls."""
        if not windows:
            return
        if self.spi is not None and pages is not None and type(self.device).__name__ == "ssd1306":
            self._write_spi(windows, pages)
            return
        serial = getattr(self.device, "_serial_interface", None)
        if serial is None or not getattr(serial, "_managed", False) or not hasattr(serial, "_i2c_msg_write"):
            for index, column, data in windows:
                self.device.command(*self._window_command(index, column, len(data)))
                self.device.data(list(data))
            return
        messages = []
        address, write = serial._addr, serial._i2c_msg_write
        for index, column, data in windows:
            # bytes, not lists: smbus2 copies a list into its buffer one value at a time.
            messages.append(write(address, bytes([0x00, *self._window_command(index, column, len(data))])))
            messages.append(write(address, b"\x40" + data))
        for start in range(0, len(messages), I2C_RDWR_MAX_MESSAGES):
            serial._bus.i2c_rdwr(*messages[start : start + I2C_RDWR_MAX_MESSAGES])

    def _write_spi(self, windows: list[tuple[int, int, bytes]], pages: list[bytes]) -> None:
        """An SSD1306 on SPI: the windows (page, column, bytes) as one rectangle of the new ``pages``
        (horizontal addressing takes it in order) when its bytes cost less than a window each: a window
        is a command and a data write, two system calls and two writes of the D/C line, about
        :data:`SPI_WINDOW_OVERHEAD_S` on a Pi, while a byte at 8 MHz is 1 µs."""
        assert self.spi is not None
        overhead = SPI_WINDOW_OVERHEAD_S * self.spi.speed_hz / 8
        top, bottom = min(w[0] for w in windows), max(w[0] for w in windows)
        left, right = min(w[1] for w in windows), max(w[1] + len(w[2]) - 1 for w in windows)
        joined = (bottom - top + 1) * (right - left + 1) + overhead
        if len(windows) > 1 and joined < sum(len(w[2]) + overhead for w in windows):
            start = self.device._colstart
            self.device.command(0x21, start + left, start + right, 0x22, top, bottom)  # COLUMNADDR, PAGEADDR
            self.device.data([byte for page in pages[top : bottom + 1] for byte in page[left : right + 1]])
            return
        for index, column, data in windows:
            self.device.command(*self._window_command(index, column, len(data)))
            self.device.data(list(data))

    def _send_ssd1306(self, pages: list[bytes], spans: list[tuple[int, int] | None],
                      sequence: list[int] | None = None) -> None:
        """Horizontal addressing: one window of columns × pages takes the bytes in order. One window
        round every change, or one window a page, whichever puts fewer bytes on the wire; the pages
        first in ``sequence`` go first either way."""
        sequence = sequence if sequence is not None else list(range(len(pages)))
        changed = [index for index in sequence if spans[index] is not None]
        if not changed:
            return
        start = self.device._colstart
        windows: list[tuple[int, int, int, int]] = []
        for index in changed:
            span = spans[index]
            assert span is not None
            windows.append((index, index, span[0], span[1]))

        def cost(window: tuple[int, int, int, int]) -> int:
            return WINDOW_OVERHEAD_BYTES + (window[1] - window[0] + 1) * (window[3] - window[2] + 1)

        def joined(group: list[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
            return (min(w[0] for w in group), max(w[1] for w in group), min(w[2] for w in group),
                    max(w[3] for w in group))

        # Pages that come in rising order in the sequence can share a window (with the pages between
        # them, sent again unchanged) when that puts fewer bytes on the wire than a window each.
        runs: list[list[tuple[int, int, int, int]]] = []
        for window in windows:
            if runs and runs[-1][-1][0] < window[0]:
                runs[-1].append(window)
            else:
                runs.append([window])
        windows = []
        for run in runs:
            one = joined(run)
            windows.extend([one] if cost(one) <= sum(cost(window) for window in run) else run)
        for top, bottom, left, right in windows:
            self.device.command(0x21, start + left, start + right, 0x22, top, bottom)  # COLUMNADDR, PAGEADDR
            self.device.data([byte for page in pages[top : bottom + 1] for byte in page[left : right + 1]])

    def keep_alive(self) -> None:
        """Send the init sequence and DISPLAYON again if ``refresh_s`` has passed, and the last frame
        whole if ``whole_s`` has, so a panel that browned out while the screen did not change comes
        back (the table calls this on its clock tick).

        Raises:
            DisplayError: the display stopped answering.
        """
        with self._lock:
            image = self._last_image
            now = self._clock()
            due = (self.refresh_s is not None and now - self._initialised_at >= self.refresh_s) or (
                self.whole_s is not None and now - self._whole_at >= self.whole_s)
        if image is not None and due and not self.closed:
            self.show_image(image)

    def _reinitialise(self) -> bool:
        if self._reopen is None:
            return False
        self._initialised_at = self._clock()
        self.device = self._reopen(self.device)
        if self._contrast is not None:
            self.device.contrast(self._contrast)
        self.reinitialisations += 1
        return True

    def add_listener(self, callback: Callable[[Image.Image], None]) -> None:
        """Call ``callback(image)`` after each frame (e.g. to push the picture to a web page)."""
        with self._lock:
            self._listeners.append(callback)

    def close(self, *, clear: bool = True) -> None:
        """Release the bus; ``clear=True`` also blanks the panel and switches it off."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            self.device.persist = not clear
            # If the display is already gone (luma raises its own DeviceNotFoundError, not only
            # OSError) there is nothing left to release.
            with contextlib.suppress(*self._bus_errors):
                self.device.cleanup()

    def __enter__(self) -> Oled:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class SimulatedDisplay(Oled):
    """The table's display without hardware: luma's ``dummy`` device keeps the last frame."""

    def __init__(self, *, rotate: int = 0) -> None:
        from luma.core.device import dummy  # type: ignore[import-untyped]

        super().__init__(device=dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1"), refresh_s=None,
                         whole_s=None, reopen=None)
        self.name = "simulated OLED display"
        self.where = "memory"

    @property
    def frame(self) -> Image.Image | None:
        """A copy of the last frame as the panel shows it (1-bit, 128×64), or ``None``."""
        with self._lock:
            image: Image.Image | None = self.device.image
            return None if image is None else image.copy()

    def png_bytes(self, *, scale: int = 1) -> bytes:
        """The last frame as PNG (white pixels on black), enlarged ``scale`` times; a blank
        frame before the first one."""
        image = self.frame or Image.new("1", (WIDTH, HEIGHT))
        if scale != 1:
            image = image.resize((WIDTH * scale, HEIGHT * scale), Image.Resampling.NEAREST)
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()

    def save_png(self, path: str | Path, *, scale: int = 1) -> None:
        Path(path).write_bytes(self.png_bytes(scale=scale))
