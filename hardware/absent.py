"""Stand-ins for parts that did not open when the table started, tried again while the table plays.

A reader that is loose at power-on, or a display that does not answer, must not keep the table from
starting: mid-game the same faults are handled (the hub goes on polling the other readers, the loop
sends a frame again), so the table is no more fragile at boot than in play. Each stand-in behaves as
its part does when it has stopped answering: it raises the error the part gave when it was opened
(which names the device, the bus and the fix), and every ``retry_s`` seconds it tries to open the
part again. Once the part opens, the stand-in hands everything to it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hardware.errors import HardwareError

if TYPE_CHECKING:
    from PIL import Image

    from hardware.display import ScreenView
    from hardware.protocols import BeepKind, ControlEvent, Controls, Display, LedState, TagReader

log = logging.getLogger(__name__)

RETRY_S = 2.0
"""How often a part that did not open is tried again (as often as a reader that stopped answering)."""


class _Absent:
    """What every stand-in shares: the part once it opens, its last error, the next attempt."""

    def __init__(self, opener: Callable[[], Any], error: HardwareError, *, retry_s: float,
                 clock: Callable[[], float]) -> None:
        self._opener = opener
        self.error = error
        """The error of the last attempt to open the part."""
        self.part: Any | None = None
        """The part, once it opened."""
        self.retry_s = retry_s
        self._clock = clock
        self._retry_at = clock() + retry_s
        self._lock = threading.Lock()
        self.closed = False
        self.attempts = 1

    def _opened(self) -> Any | None:
        """The part, opening it first if it is time to try again; ``None`` while it does not open."""
        with self._lock:
            if self.part is not None or self.closed or self._clock() < self._retry_at:
                return self.part
            self._retry_at = self._clock() + self.retry_s
            self.attempts += 1
            try:
                self.part = self._opener()
            except HardwareError as error:
                self.error = error
                return None
            log.warning("%s on %s answers now", self.error.device, self.error.bus)
            return self.part

    def _required(self) -> Any:
        part = self._opened()
        if part is None:
            raise self.error
        return part

    @property
    def absent(self) -> bool:
        """True while the part has not opened."""
        return self.part is None

    def _close(self, **options: Any) -> None:
        with self._lock:
            self.closed = True
            part, self.part = self.part, None
        if part is not None:
            part.close(**options)


class AbsentReader(_Absent):
    """A reader that did not open: :meth:`poll` raises its error until it opens."""

    def __init__(self, opener: Callable[[], TagReader], error: HardwareError, *, retry_s: float = RETRY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(opener, error, retry_s=retry_s, clock=clock)

    @property
    def exact(self) -> bool:
        return bool(getattr(self.part, "exact", False))

    @property
    def field_busy(self) -> bool:
        return bool(getattr(self.part, "field_busy", False))

    @property
    def version(self) -> int | None:
        version: int | None = getattr(self.part, "version", None)
        return version

    def poll(self) -> bytes | None:
        """The reader's poll once it opened.

        Raises:
            hardware.errors.NfcReaderError: it has not opened (yet), or its poll failed.
        """
        uid: bytes | None = self._required().poll()
        return uid

    def close(self) -> None:
        self._close()


class AbsentDisplay(_Absent):
    """A display that did not open: frames raise its error until it opens; the first frame after
    that is the current one (the table loop sends the frame the display has not taken)."""

    def __init__(self, opener: Callable[[], Display], error: HardwareError, *, retry_s: float = RETRY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(opener, error, retry_s=retry_s, clock=clock)
        self.name = error.device
        self.where = error.bus

    def show(self, view: ScreenView) -> None:
        """Raises:
            hardware.errors.DisplayError: it has not opened (yet), or it stopped answering."""
        self._required().show(view)

    def show_image(self, image: Image.Image) -> None:
        """Raises:
            hardware.errors.DisplayError: it has not opened (yet), or it stopped answering."""
        self._required().show_image(image)

    def keep_alive(self) -> None:
        part = self._opened()
        keep_alive = getattr(part, "keep_alive", None)
        if keep_alive is not None:
            keep_alive()

    def close(self, *, clear: bool = True) -> None:
        self._close(clear=clear)


class AbsentControls(_Absent):
    """Buttons and buzzer that did not open: no presses come, beeps are silent, until they open."""

    def __init__(self, opener: Callable[[], Controls], error: HardwareError, *, retry_s: float = RETRY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(opener, error, retry_s=retry_s, clock=clock)
        self._idle = threading.Event()

    def get_event(self, timeout: float | None = 0.0) -> ControlEvent | None:
        part = self._opened()
        if part is not None:
            event: ControlEvent | None = part.get_event(timeout)
            return event
        if timeout:
            self._idle.wait(min(timeout, self.retry_s))
        return None

    def beep(self, kind: BeepKind = "confirm") -> None:
        part = self._opened()
        if part is not None:
            part.beep(kind)

    def set_led(self, name: str, state: LedState) -> None:
        if state not in ("on", "off", "blink"):
            raise ValueError(f"an LED is on, off or blink, not {state!r}")
        part = self._opened()
        if part is not None:
            part.set_led(name, state)

    def close(self) -> None:
        self._idle.set()
        self._close()
