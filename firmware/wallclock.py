"""The table's wall clock, safe against a clock that jumps back.

A Raspberry Pi has no real-time clock: after a power cut it starts from the time fake-hwclock saved
(once an hour, so up to an hour early) until NTP corrects it, and at a cottage without a network
nothing ever does. The repeat guard ("Bob already paid this rent 12 s ago. Again?") and the lock-outs
of wrong join codes and PINs compare the time now with times saved in the journal; with the clock an
hour early every action of the last hour before the cut looked a second old, and a 30 s lock-out
lasted an hour and a half.

:class:`SteadyClock` gives the wall clock's seconds but never goes back: it starts no earlier than the
last time the journal recorded, and runs on from there by the monotonic clock while the wall clock is
behind it; when the wall clock is ahead (NTP set it), it follows the wall clock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from banker.journal import Journal


class SteadyClock:
    """Seconds since the epoch, as ``time.time`` gives them, that never go back (see the module doc)."""

    def __init__(self, *, wall: Callable[[], float] | None = None,
                 monotonic: Callable[[], float] | None = None) -> None:
        self._wall = wall or time.time
        self._monotonic = monotonic or time.monotonic
        self._lock = threading.Lock()
        self._last = self._wall()
        self._last_monotonic = self._monotonic()

    def not_before(self, at: float) -> None:
        """From now on the clock reads at least ``at`` plus the time since (a time the journal recorded)."""
        with self._lock:
            self._read()
            self._last = max(self._last, at)

    def __call__(self) -> float:
        with self._lock:
            return self._read()

    def _read(self) -> float:
        monotonic = self._monotonic()
        now = max(self._wall(), self._last + max(0.0, monotonic - self._last_monotonic))
        self._last, self._last_monotonic = now, monotonic
        return now


def last_recorded(journal: Journal) -> float:
    """The latest time the journal holds: its current game's last action, or the newest game's start
    (0.0 in an empty journal)."""
    latest = max((info.created for info in journal.games()), default=0.0)
    game_id = journal.current_game()
    if game_id is not None:
        rows = journal.rows_before(game_id, None, 1)
        if rows:
            latest = max(latest, float(rows[0][3]))
    return latest
