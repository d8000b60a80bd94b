"""A stand-in for the ``spidev`` extension module, routed to emulated chips.

``SpiDev().open(bus, device)`` behaves like opening ``/dev/spidev<bus>.<device>``: it fails with
``FileNotFoundError`` when the node does not exist (SPI not enabled, or no overlay for SPI1), with
``PermissionError`` when the bus was marked unreadable, and otherwise talks to whatever is wired to
that chip select. A chip select with nothing wired reads back zeros, like a floating MISO line.

Every transfer moves the bus's clock forward by the time it takes on a Pi: the bits at the device's
``max_speed_hz`` plus ``transfer_overhead_s`` for the system call and the chip-select edges. The
driver finds that clock as ``SpiDev().clock`` and sleeps through it (a real ``spidev`` has none).
"""

from __future__ import annotations

import errno
import types
from dataclasses import dataclass, field
from typing import Protocol

from hardware.emulator.clock import Clock, VirtualClock

SPI_TRANSFER_OVERHEAD_S = 20e-6
"""Assumed cost of one ``xfer2`` on a Pi besides the bits: the ioctl and the chip-select edges.
An assumption for the emulated clock, not a measurement."""


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
        if self.address is None:
            raise OSError(errno.EBADF, "Bad file descriptor")
        self.transfers += 1
        self._bus.clock.advance(self._bus.transfer_overhead_s + 8 * len(data) / self.max_speed_hz)
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
