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

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any, Protocol


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


class PiClock(VirtualClock):
    """Emulated time that also runs the program's own work at a Raspberry Pi's speed.

    Besides what the hardware takes (transfers, frames on the air, the bus), a Pi spends CPU time on the
    program's Python between two accesses to the hardware, and every sleep wakes a little late. Each
    call that reaches the emulated hardware (a transfer, a sleep, a look at the clock) first *charges*
    the CPU time this thread used since the last one, multiplied by ``cpu_factor`` (how many times
    slower the Pi runs this Python than this machine); a sleep also takes ``sleep_overshoot_s`` more
    than asked. The emulator's own work (the chips, the panels, this clock) is run inside
    :meth:`excluded` and never charged. The time charged and the CPU the kernel spends on transfers and
    sleeps are summed in :attr:`cpu_s`, the driver's CPU on the Pi, for the polling CPU figure.

    One thread drives it (the bench's): ``time.thread_time`` counts that thread only.
    """

    def __init__(self, *, cpu_factor: float = 1.0, sleep_overshoot_s: float = 0.0, sleep_cpu_s: float = 0.0,
                 start: float = 0.0) -> None:
        super().__init__(start)
        self.cpu_factor = cpu_factor
        self.sleep_overshoot_s = sleep_overshoot_s
        self.sleep_cpu_s = sleep_cpu_s
        """The kernel's CPU for one sleep on the Pi (the system call and the two context switches)."""
        self.cpu_s = 0.0
        """The program's CPU on the Pi so far: its Python (charged) and the kernel's for its transfers and sleeps."""
        self.sleeps = 0
        self._depth = 0
        self._own = _thread_time_cost()
        """What one look at this thread's CPU clock costs here: not the program's, so not charged."""
        self._mark = time.thread_time()

    def charge(self) -> None:
        """Move the clock by the CPU used since the last charge, at the Pi's speed."""
        if self._depth:
            return
        now = time.thread_time()
        spent = max(0.0, now - self._mark - self._own) * self.cpu_factor
        self._mark = now
        self.now += spent
        self.cpu_s += spent

    def restart(self) -> None:
        """Forget the CPU used since the last charge (the bench's own bookkeeping)."""
        self._mark = time.thread_time()

    def excluded(self) -> _Excluded:
        """``with clock.excluded():`` the emulator's work inside is not the program's: never charged."""
        return _Excluded(self)

    def kernel(self, seconds: float) -> None:
        """CPU the Pi's kernel spends for the program (a transfer's system call and driver), counted in
        :attr:`cpu_s`; the time itself is moved by whoever called (it is part of the transfer's)."""
        self.cpu_s += seconds

    def monotonic(self) -> float:
        self.charge()
        return self.now

    def sleep(self, seconds: float) -> None:
        self.charge()
        if seconds > 0:
            self.sleeps += 1
            self.cpu_s += self.sleep_cpu_s
            self.now += seconds + self.sleep_overshoot_s
        self.restart()

    def advance(self, seconds: float) -> None:
        self.charge()
        if seconds > 0:
            self.now += seconds
        self.restart()


def _thread_time_cost() -> float:
    """The median CPU time between two calls of ``time.thread_time`` here."""
    samples = []
    for _ in range(200):
        first = time.thread_time()
        samples.append(time.thread_time() - first)
    samples.sort()
    return samples[len(samples) // 2]


class _Excluded:
    def __init__(self, clock: PiClock) -> None:
        self.clock = clock

    def __enter__(self) -> None:
        self.clock.charge()
        self.clock._depth += 1

    def __exit__(self, *exc_info: object) -> None:
        self.clock._depth -= 1
        if not self.clock._depth:
            self.clock.restart()


def excluded(clock: object) -> Any:
    """``clock.excluded()`` for a :class:`PiClock`, else a context that does nothing."""
    exclude = getattr(clock, "excluded", None)
    return exclude() if exclude is not None else contextlib.nullcontext()


class MeteredClock(RealClock):
    """The machine's own clock, keeping apart the CPU time spent in the emulator (:meth:`excluded`) from
    the program's, for a CPU figure of the driver alone (the emulated chips' work is not the driver's)."""

    def __init__(self) -> None:
        self.emulator_s = 0.0
        """CPU time spent inside :meth:`excluded`, in every thread."""
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def excluded(self) -> Iterator[None]:
        start = time.thread_time()
        try:
            yield
        finally:
            spent = time.thread_time() - start
            with self._lock:
                self.emulator_s += spent
