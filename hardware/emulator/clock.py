"""Time for the emulated hardware: a virtual clock that SPI transfers and sleeps move forward.

The emulated MFRC522 schedules what a chip does in time (a frame takes its time on the air, a card
answers after the frame delay time, the timer counts as configured), and the fake SPI bus advances
the clock by the time each transfer takes at the configured SPI speed. The driver sleeps through
the clock it finds on its SPI device, so a test or benchmark reads how long a poll takes on a chip
from :attr:`VirtualClock.now` instead of from this machine's speed.

:class:`RealClock` is the same interface on ``time.monotonic``: the chip's timer then runs in real
time, which is what a CPU-usage measurement needs.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """What the driver and the emulator need of a clock."""

    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...

    def advance(self, seconds: float) -> None:
        """Time spent by hardware (an SPI transfer); a no-op for a real clock."""
        ...


class VirtualClock:
    """Emulated time in seconds; it moves only when something spends time."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.now += seconds

    def advance(self, seconds: float) -> None:
        self.sleep(seconds)


class RealClock:
    """The machine's own clock: sleeps sleep, SPI transfers take what they take here."""

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)

    def advance(self, seconds: float) -> None:
        pass
