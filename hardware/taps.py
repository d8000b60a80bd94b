"""One stream of tap events from all NFC readers, one tap per placement of a card.

:class:`TagReaderHub` polls every reader in turn (readers share SPI wires and an ``MFRC522``
object must not be used from two threads, so one thread does all the polling) and debounces each
reader: the first poll that sees a card is the tap; the card counts as removed only after
``misses_to_remove`` polls in a row without it. A card lying on a reader therefore taps once, even
on a reader that sees it only on every other poll.

Tests call :meth:`TagReaderHub.poll_once` directly; the table calls :meth:`TagReaderHub.start`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hardware.errors import HardwareError
from hardware.iso14443 import format_uid, parse_uid
from hardware.protocols import TagReader

log = logging.getLogger(__name__)

MISSES_TO_REMOVE = 2
"""Polls in a row without the card before it counts as taken away."""
POLL_INTERVAL_S = 0.01
"""Pause between polling rounds. An empty MFRC522 poll itself takes ≈15 ms (the chip's timeout)."""


@dataclass(frozen=True)
class Tap:
    """A card was put on a reader."""

    reader: int
    """Index of the reader in the table's reader list (0-3)."""
    uid: bytes
    """The card's full UID: 4 bytes (MIFARE Classic) or 7 bytes (NTAG/Ultralight)."""
    at: float = field(default=0.0, compare=False)
    """``time.monotonic()`` when the poll that found the card returned."""

    @property
    def uid_text(self) -> str:
        """The UID as ``04:6E:51:C2:B3:34:80``."""
        return format_uid(self.uid)


@dataclass
class _Presence:
    uid: bytes | None = None
    misses: int = 0


class TagReaderHub:
    """Polls readers round-robin and queues a :class:`Tap` for each new placement.

    The hub owns the readers: :meth:`close` closes them.
    """

    def __init__(
        self,
        readers: Sequence[TagReader],
        *,
        misses_to_remove: int = MISSES_TO_REMOVE,
        interval_s: float = POLL_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if misses_to_remove < 1:
            raise ValueError(f"misses_to_remove must be at least 1, not {misses_to_remove}")
        self.readers = list(readers)
        self.misses_to_remove = misses_to_remove
        self.interval_s = interval_s
        self.taps: queue.Queue[Tap] = queue.Queue()
        self.faults: dict[int, HardwareError] = {}
        """The last error of each reader that is currently failing."""
        self._clock = clock
        self._presence = [_Presence() for _ in self.readers]
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def poll_once(self) -> list[Tap]:
        """Poll each reader once; queue and return the taps found (in reader order)."""
        found = []
        with self._lock:
            for index, reader in enumerate(self.readers):
                try:
                    uid = reader.poll()
                except HardwareError as error:
                    if index not in self.faults:
                        log.error("reader %d failed: %s", index, error)
                    self.faults[index] = error
                    uid = None
                else:
                    if self.faults.pop(index, None) is not None:
                        log.warning("reader %d answers again", index)
                tap = self._debounce(index, uid)
                if tap is not None:
                    found.append(tap)
                    self.taps.put(tap)
        return found

    def _debounce(self, index: int, uid: bytes | None) -> Tap | None:
        presence = self._presence[index]
        if uid is None:
            if presence.uid is not None:
                presence.misses += 1
                if presence.misses >= self.misses_to_remove:
                    presence.uid = None
                    presence.misses = 0
            return None
        presence.misses = 0
        if uid == presence.uid:
            return None
        presence.uid = uid
        return Tap(index, uid, self._clock())

    def get(self, timeout: float | None = 0.0) -> Tap | None:
        """The next tap, waiting up to ``timeout`` seconds (``None`` = forever); ``None`` if none."""
        try:
            if timeout == 0:
                return self.taps.get_nowait()
            return self.taps.get(timeout=timeout)
        except queue.Empty:
            return None

    # Background polling ------------------------------------------------------------------------

    def start(self) -> None:
        """Poll in a daemon thread until :meth:`close`."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="nfc-poll", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception:
                # A bug must not silently end polling; log it and keep the table usable.
                log.exception("polling the NFC readers failed")
                self._stop.wait(1.0)
            self._stop.wait(self.interval_s)

    def close(self) -> None:
        """Stop polling and close every reader."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        for reader in self.readers:
            reader.close()

    def __enter__(self) -> TagReaderHub:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class SimulatedReader:
    """A reader for the simulated table: cards are tapped, placed and removed by calls.

    ``tap(uid)`` puts a card on the reader for one poll and then takes it away long enough for the
    hub to notice, so every call is one :class:`Tap`. ``place``/``remove`` leave a card lying on it.
    """

    def __init__(self, *, misses_to_remove: int = MISSES_TO_REMOVE) -> None:
        self._script: deque[bytes | None] = deque()
        self._lying: bytes | None = None
        self._gap = misses_to_remove
        self._lock = threading.Lock()
        self.polls = 0
        self.closed = False

    def tap(self, uid: bytes | str) -> None:
        """Tap a card (UID bytes or hex text like ``"04:6E:51:C2:B3:34:80"``).

        Raises:
            ValueError: the UID is not 4, 7 or 10 bytes of hex.
        """
        card = parse_uid(uid)
        with self._lock:
            self._script.append(card)
            self._script.extend([None] * self._gap)

    def place(self, uid: bytes | str) -> None:
        """Leave a card on the reader until :meth:`remove`.

        Raises:
            ValueError: the UID is not 4, 7 or 10 bytes of hex.
        """
        card = parse_uid(uid)
        with self._lock:
            self._lying = card

    def remove(self) -> None:
        with self._lock:
            self._lying = None

    def poll(self) -> bytes | None:
        with self._lock:
            self.polls += 1
            if self._script:
                return self._script.popleft()
            return self._lying

    def close(self) -> None:
        self.closed = True
