"""One stream of tap events from all NFC readers, one tap per placement of a card.

:class:`TagReaderHub` polls every reader in turn (readers share SPI wires and an ``MFRC522``
object must not be used from two threads, so one thread does all the polling) and debounces each
reader: the first poll that sees a card is the tap. A card counts as removed only when it has not
been seen for ``remove_after_s`` seconds (and at least ``misses_to_remove`` polls): a card sliding
on, or lying at the edge of the field where it answers only some polls, taps once. The same card
on the same reader again within ``cooldown_s`` of its tap does not tap again. A poll that finds
something it cannot read (two cards colliding: a deed put on top of a bank card) does not count as
the card being gone, so lifting the deed does not tap the bank card again. Removals are reported
too (:class:`Removal`, :attr:`TagReaderHub.removals`).

Readers that know exactly when a card is there (:class:`SimulatedReader`, ``exact = True``) are
debounced by poll count alone: they have no radio to be unsure about.

Tests call :meth:`TagReaderHub.poll_once` directly; the table calls :meth:`TagReaderHub.start`.
"""

from __future__ import annotations

import contextlib
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
"""Polls in a row without the card before it can count as taken away."""
REMOVE_AFTER_S = 0.6
"""Seconds without the card before it counts as taken away (readers that are not exact)."""
SAME_CARD_COOLDOWN_S = 1.0
"""The same card on the same reader within this many seconds of its tap does not tap again."""
POLL_INTERVAL_S = 0.005
"""A polling round starts this long after the one before (at once when a read made a round longer).
An empty poll is one SPI message with the kernel's wait for the card inside (hardware/nfc.py): four
empty readers take ≈2.3 ms of a round on a Pi Zero 2 W, most of it asleep. A card is read at most one
round and its own read (≈5 ms for a 7-byte NTAG on a Zero 2 W) after it lands. 5 ms keeps the polling
CPU of a Zero 2 W under a quarter of one core with room for a busy machine's noise (``banker bench
--table``: 4.5 ms took 23-26 %, 5 ms 21-24 %). It was a 15 ms pause (a 25 ms round), then a 4 ms pause
after the four polls (a 10 ms round, 14 ms on a Pi), then a 4.5 ms round, before tap to glass was
measured on a Pi's terms."""
IDLE_AFTER_S = 120.0
"""Nobody has tapped or pressed anything for this long: the table polls at :data:`IDLE_INTERVAL_S`."""
IDLE_INTERVAL_S = 0.05
"""The round of a table nobody touches; the first tap is seen up to this much later, and the table
polls at full speed again from it (or from a button, or a phone's action)."""
REMOVALS_KEPT = 64
"""Removals :attr:`TagReaderHub.removals` keeps when nobody reads them."""


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


@dataclass(frozen=True)
class Removal:
    """A card was taken off a reader (it has not been seen for the removal time)."""

    reader: int
    uid: bytes
    at: float = field(default=0.0, compare=False)


@dataclass
class _Presence:
    uid: bytes | None = None
    misses: int = 0
    last_seen: float = 0.0
    tapped: dict[bytes, float] = field(default_factory=dict)
    """When each card last tapped on this reader (for the cooldown)."""


@dataclass(frozen=True)
class ReaderHealth:
    """One reader as the hub last saw it."""

    reader: int
    last_good_poll: float | None
    """The hub clock's time of the last poll that did not fail, or ``None``."""
    fault: HardwareError | None
    """The reader's error while it is failing (it names the bus and the fix), else ``None``."""


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
        remove_after_s: float = REMOVE_AFTER_S,
        cooldown_s: float = SAME_CARD_COOLDOWN_S,
        on_fault: Callable[[int, HardwareError], None] | None = None,
        idle: Callable[[float], None] | None = None,
        idle_after_s: float = IDLE_AFTER_S,
        idle_interval_s: float = IDLE_INTERVAL_S,
    ) -> None:
        if misses_to_remove < 1:
            raise ValueError(f"misses_to_remove must be at least 1, not {misses_to_remove}")
        if remove_after_s < 0 or cooldown_s < 0:
            raise ValueError("remove_after_s and cooldown_s are seconds, not negative")
        self.readers = list(readers)
        for reader in self.readers:
            if hasattr(reader, "defer_halt"):
                reader.defer_halt = True  # its HLTA after the tap is queued (finish_read)
        self.misses_to_remove = misses_to_remove
        self.remove_after_s = remove_after_s
        self.cooldown_s = cooldown_s
        self.interval_s = interval_s
        self.taps: queue.Queue[Tap] = queue.Queue()
        self.removals: queue.Queue[Removal] = queue.Queue(REMOVALS_KEPT)
        """A :class:`Removal` for each card taken away, the newest :data:`REMOVALS_KEPT` of them (for whoever
        wants them; the taps do not wait, and nobody reading them costs no memory over hours of play)."""
        self.faults: dict[int, HardwareError] = {}
        """The last error of each reader that is currently failing."""
        self.last_good: list[float | None] = [None] * len(self.readers)
        """``clock()`` of each reader's last poll that did not fail (``None``: none yet)."""
        self.on_fault = on_fault
        self._idle = idle
        """Told how long each pause between rounds was (an emulated table's clock moves by it)."""
        """Called (in the polling thread) with the reader's index and error when a reader starts failing."""
        self._clock = clock
        self.idle_after_s = idle_after_s
        self.idle_interval_s = idle_interval_s
        self._touched = clock()
        self._round_started = clock()
        self._presence = [_Presence() for _ in self.readers]
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def poll_once(self) -> list[Tap]:
        """Poll each reader once; queue and return the taps found (in reader order)."""
        found = []
        with self._lock:
            self._round_started = self._clock()
            for index, reader in enumerate(self.readers):
                busy = False
                try:
                    uid = reader.poll()
                except HardwareError as error:
                    new = index not in self.faults
                    if new:
                        log.error("reader %d failed: %s", index, error)
                    self.faults[index] = error
                    uid = None
                    if new and self.on_fault is not None:
                        self.on_fault(index, error)
                    now = self._clock()
                else:
                    now = self.last_good[index] = self._clock()
                    busy = uid is None and bool(getattr(reader, "field_busy", False))
                    if self.faults and self.faults.pop(index, None) is not None:
                        log.warning("reader %d answers again", index)
                if uid is None and self._presence[index].uid is None:
                    continue  # the common case, an empty reader that was empty: nothing to debounce
                exact = bool(getattr(reader, "exact", False))
                tap = self._debounce(index, uid, busy=busy, exact=exact, now=now)
                if tap is not None:
                    self._touched = tap.at
                    found.append(tap)
                    self.taps.put(tap)
                finish = getattr(reader, "finish_read", None)
                if uid is not None and finish is not None:
                    # The card's HLTA once its tap is on its way; a failed transfer shows at the next poll.
                    with contextlib.suppress(HardwareError):
                        finish()
        return found

    def wake(self) -> None:
        """Somebody is at the table (a button, a phone's action): poll at full speed again (see
        :data:`IDLE_AFTER_S`)."""
        self._touched = self._clock()

    def idle_since(self, at: float) -> None:
        """Count the table as untouched since ``at`` (the hub's clock; for the bench)."""
        self._touched = at

    @property
    def round_s(self) -> float:
        """The time from one polling round's start to the next: :data:`POLL_INTERVAL_S`, or
        :data:`IDLE_INTERVAL_S` once nobody has touched the table for :data:`IDLE_AFTER_S`."""
        if self._clock() - self._touched >= self.idle_after_s:
            return max(self.interval_s, self.idle_interval_s)
        return self.interval_s

    def _removed(self, removal: Removal) -> None:
        """Report a removal; when nobody has read the last :data:`REMOVALS_KEPT`, the oldest is dropped."""
        while True:
            try:
                self.removals.put_nowait(removal)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self.removals.get_nowait()

    def _debounce(self, index: int, uid: bytes | None, *, busy: bool = False, exact: bool = False,
                  now: float | None = None) -> Tap | None:
        presence = self._presence[index]
        now = self._clock() if now is None else now
        if uid is None:
            if presence.uid is None:
                return None
            if busy:
                # Something answered but could not be read: another card on top of this one.
                presence.last_seen = now
                return None
            presence.misses += 1
            gone = presence.misses >= self.misses_to_remove
            if not exact:
                gone = gone and now - presence.last_seen >= self.remove_after_s
            if gone:
                self._removed(Removal(index, presence.uid, now))
                presence.uid = None
                presence.misses = 0
            return None
        presence.misses = 0
        presence.last_seen = now
        if uid == presence.uid:
            return None
        if presence.uid is not None:
            self._removed(Removal(index, presence.uid, now))
        presence.uid = uid
        if not exact:
            last = presence.tapped.get(uid)
            presence.tapped = {card: at for card, at in presence.tapped.items() if now - at < self.cooldown_s}
            if last is not None and now - last < self.cooldown_s:
                return None
            presence.tapped[uid] = now
        return Tap(index, uid, now)

    def health(self) -> list[ReaderHealth]:
        """Each reader's state: its last good poll and its fault, if it is failing."""
        with self._lock:
            return [
                ReaderHealth(index, self.last_good[index], self.faults.get(index))
                for index in range(len(self.readers))
            ]

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

    def pause(self) -> None:
        """Wait until the next polling round is due (the polling thread's; a bench calls it between its
        rounds): on the emulated clock when the hub has one, else in real time."""
        wait = self._round_started + self.round_s - self._clock()
        if wait <= 0:
            return
        if self._idle is not None:
            self._idle(wait)
        else:
            self._stop.wait(wait)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception:
                # A bug must not silently end polling; log it and keep the table usable.
                log.exception("polling the NFC readers failed")
                self._stop.wait(1.0)
            if self._idle is not None:
                self._stop.wait(self.interval_s)  # the emulated table's threads still take real time
            self.pause()

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

    exact = True
    """It knows when a card is there: the hub debounces it by poll count, not by time."""

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
