"""A stand-in for the ``spidev`` extension module, routed to emulated chips.

``SpiDev().open(bus, device)`` behaves like opening ``/dev/spidev<bus>.<device>``: it fails with
``FileNotFoundError`` when the node does not exist (SPI not enabled, or no overlay for SPI1), with
``PermissionError`` when the bus was marked unreadable, and otherwise talks to whatever is wired to
that chip select. A chip select with nothing wired reads back zeros, like a floating MISO line.

Every transfer moves the bus's clock forward by the time it takes on a Pi: the bits at the device's
``max_speed_hz`` plus ``transfer_overhead_s`` for the system call and the chip-select edges. The
driver finds that clock as ``SpiDev().clock`` and sleeps through it (a real ``spidev`` has none).

:meth:`FakeSpiDev.message` is one ``SPI_IOC_MESSAGE(n)`` ioctl of several transfers, each with its own
chip-select frame (``cs_change`` between them, linux/spi/spidev.h): one system call's overhead, and
``segment_overhead_s`` for each transfer after the first (the controller set up again and the
chip-select edges), as the kernel runs them one after the other in one ``spi_sync``.

On a :class:`~.clock.PiClock` the chips' own work is excluded from the program's CPU, and the
transfers' time is counted as the kernel's CPU (the Pi's SPI driver waits for short transfers by
polling: drivers/spi/spi-bcm2835.c, ``polling_limit_us``).
"""

from __future__ import annotations

import errno
import types
from dataclasses import dataclass, field
from typing import Protocol

from hardware.emulator.clock import Clock, VirtualClock, excluded

SPI_TRANSFER_OVERHEAD_S = 20e-6
"""Assumed cost of one ``xfer2`` besides the bits: the ioctl and the chip-select edges. An assumption
for the emulated clock of the tests; ``banker bench --table`` uses a Pi's (hardware/pimodel.py)."""
SPI_SEGMENT_OVERHEAD_S = 5e-6
"""Assumed cost of each further transfer in one ``SPI_IOC_MESSAGE`` (the same assumption's share)."""


class SpiEndpoint(Protocol):
    """Something on the far side of a chip select, e.g. :class:`~.mfrc522_chip.Mfrc522Chip`."""

    def spi_transfer(self, data: list[int]) -> list[int]: ...


@dataclass
class FakeSpiBus:
    """The SPI buses of one emulated Raspberry Pi: which ``/dev/spidevX.Y`` exist and what is wired."""

    endpoints: dict[tuple[int, int], SpiEndpoint | None] = field(default_factory=dict)
    """``(bus, device) -> chip``; ``None`` means the node exists but nothing answers on it."""
    denied: set[tuple[int, int]] = field(default_factory=set)
    """Nodes whose ``open`` fails with ``PermissionError`` (the user is not in the ``spi`` group)."""
    open_devices: list[FakeSpiDev] = field(default_factory=list)
    clock: Clock = field(default_factory=VirtualClock)
    """The time of everything on this bus; chips attached to it share it."""
    transfer_overhead_s: float = SPI_TRANSFER_OVERHEAD_S
    segment_overhead_s: float = SPI_SEGMENT_OVERHEAD_S
    messages: int = 0
    """System calls made on this bus (an ``xfer2`` or a :meth:`FakeSpiDev.message` is one)."""

    def attach(self, bus: int, device: int, endpoint: SpiEndpoint | None) -> None:
        """Make ``/dev/spidev<bus>.<device>`` exist, with ``endpoint`` wired to it (on this bus's clock)."""
        self.endpoints[(bus, device)] = endpoint
        if endpoint is not None and hasattr(endpoint, "clock"):
            endpoint.clock = self.clock

    def miso_held_low(self, selected: tuple[int, int]) -> bool:
        """True when another module on the selected device's bus drives MISO while deselected.

        An MFRC522 leaves MISO high-impedance while its NSS is high, so readers can share the line; some
        RC522 modules do not, and once such a module is running (its antenna on) it holds the shared
        line low for everyone else on the bus: they read zeros (hardware/README.md, "Two readers on
        one SPI bus"). A chip marks itself so with ``holds_miso = True``.
        """
        return any(
            where[0] == selected[0] and where != selected and getattr(other, "holds_miso", False)
            and getattr(other, "antenna_on", False)
            for where, other in self.endpoints.items()
        )

    def spidev_class(self) -> type[FakeSpiDev]:
        """A ``SpiDev`` class bound to this bus, constructible with no arguments like the real one."""
        bus = self

        class SpiDev(FakeSpiDev):
            def __init__(self, bus_number: int | None = None, device: int | None = None) -> None:
                super().__init__(bus)
                if bus_number is not None and device is not None:
                    self.open(bus_number, device)

        return SpiDev

    def module(self) -> types.ModuleType:
        """A module object that can stand in for ``spidev`` in ``sys.modules``."""
        module = types.ModuleType("spidev", "Fake spidev routed to emulated chips (hardware.emulator).")
        module.SpiDev = self.spidev_class()  # type: ignore[attr-defined]
        return module


class FakeSpiDev:
    """One open SPI device node. Counts transfers; ``xfer``/``xfer2`` go to the wired endpoint."""

    def __init__(self, bus: FakeSpiBus) -> None:
        self._bus = bus
        self._endpoint: SpiEndpoint | None = None
        self.address: tuple[int, int] | None = None
        self.max_speed_hz = 125_000_000
        self.mode = 0
        self.bits_per_word = 8
        self.transfers = 0

    @property
    def clock(self) -> Clock:
        """The emulated time this device's transfers take (see the module doc)."""
        return self._bus.clock

    def open(self, bus: int, device: int) -> None:
        path = f"/dev/spidev{bus}.{device}"
        if (bus, device) not in self._bus.endpoints:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        if (bus, device) in self._bus.denied:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        self.address = (bus, device)
        self._endpoint = self._bus.endpoints[(bus, device)]
        self._bus.open_devices.append(self)

    def xfer2(self, data: list[int], *_settings: int) -> list[int]:
        (answer,) = self.message([data])
        return answer

    def message(self, frames: list[list[int]], delays_us: list[int] | None = None) -> list[list[int]]:
        """One ``SPI_IOC_MESSAGE(len(frames))``: each frame a transfer with its own chip-select frame, in
        order; the answer to each. ``delays_us[i]`` is the transfer's ``delay_usecs``: the kernel waits that
        long after it before the next (drivers/spi/spi.c: ``usleep_range`` for delays over 10 µs, a
        sleep that costs no CPU and wakes a little late, as the clock's sleeps do).

        Raises:
            OSError: the device is not open (EBADF).
        """
        if self.address is None:
            raise OSError(errno.EBADF, "Bad file descriptor")
        bus, clock = self._bus, self._bus.clock
        answers = []
        with excluded(clock):  # the program's CPU is charged up to here; the bus's own work is not its
            bus.messages += 1
            kernel = getattr(clock, "kernel", None)
            for index, data in enumerate(frames):
                self.transfers += 1
                setup = bus.transfer_overhead_s if index == 0 else bus.segment_overhead_s
                cost = setup + 8 * len(data) / self.max_speed_hz
                clock.advance(cost)
                if kernel is not None:
                    kernel(cost)
                answers.append(self._exchange(data))
                if delays_us and delays_us[index]:
                    clock.sleep(delays_us[index] / 1e6)
        return answers

    def _exchange(self, data: list[int]) -> list[int]:
        assert self.address is not None
        # What is wired now: a board unplugged (or plugged in) after the node was opened counts at once.
        self._endpoint = self._bus.endpoints.get(self.address)
        if self._endpoint is None:
            return [0] * len(data)
        answer = self._endpoint.spi_transfer(list(data))
        if self._bus.miso_held_low(self.address):
            return [0] * len(answer)
        return answer

    xfer = xfer2

    def writebytes(self, data: list[int]) -> None:
        self.xfer2(data)

    def readbytes(self, length: int) -> list[int]:
        return self.xfer2([0] * length)

    def close(self) -> None:
        if self in self._bus.open_devices:
            self._bus.open_devices.remove(self)
        self.address = None
        self._endpoint = None
