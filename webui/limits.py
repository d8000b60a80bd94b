"""What one phone may ask of the table at a time: a rate of requests that change something, and a number of
heavy reads (the pages that read the whole game or every game) running at once.

A device is its address, as for the streams' cap (webui/stream.py): a phone's cookies are free to make,
its address on the Wi-Fi is not. The table's own computer (its page, the simulated table, a kiosk) is not
held to either: it is the table. See docs/phone.md, "Threat model".
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import Flask, Response, g, request

from webui.guard import own_address

CHANGES_PER_S = 4.0
"""Requests that change something (every POST) one device may send a second, on average: far more than
anybody taps, and bids in a lively auction fit in :data:`CHANGES_BURST`."""
CHANGES_BURST = 20
"""How many such requests one device may send at once before :data:`CHANGES_PER_S` holds."""
HEAVY_AT_ONCE = 2
"""Heavy reads (:data:`HEAVY_PATHS`) one device may have running at once: a phone's page reads one at a time,
and one more may be on its way."""
HEAVY_PATHS = frozenset({"/end", "/history", "/records", "/strategy", "/strategy/board.svg", "/api/history",
                         "/api/scores", "/api/advice"})
"""The reads whose answer depends on the whole game, every saved game, or the strategy advisor's figures."""
DEVICES_KEPT = 4096
"""Devices whose rate is remembered (the oldest forgotten first): a bounded memory however many addresses
a phone takes on."""


class RateLimit:
    """A bucket of :data:`CHANGES_BURST` requests per device, refilled at :data:`CHANGES_PER_S`."""

    def __init__(self, per_second: float = CHANGES_PER_S, burst: int = CHANGES_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second, self.burst, self._clock = per_second, burst, clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, device: str) -> float:
        """Count one request of ``device``: 0 when it may go on, else the seconds until it may."""
        now = self._clock()
        with self._lock:
            tokens, since = self._buckets.pop(device, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - since) * self.per_second)
            wait = 0.0
            if tokens >= 1.0:
                tokens -= 1.0
            else:
                wait = (1.0 - tokens) / self.per_second
            self._buckets[device] = (tokens, now)
            while len(self._buckets) > DEVICES_KEPT:
                self._buckets.popitem(last=False)
        return wait


class HeavyReads:
    """How many heavy reads each device has running now."""

    def __init__(self, at_once: int = HEAVY_AT_ONCE) -> None:
        self.at_once = at_once
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}

    def enter(self, device: str) -> bool:
        """Start one for ``device``; False (nothing started) when it has :attr:`at_once` running already."""
        with self._lock:
            running = self._running.get(device, 0)
            if running >= self.at_once:
                return False
            self._running[device] = running + 1
            return True

    def leave(self, device: str) -> None:
        with self._lock:
            running = self._running.get(device, 0) - 1
            if running > 0:
                self._running[device] = running
            else:
                self._running.pop(device, None)


def install(app: Flask) -> None:
    """Answer 429 (with ``Retry-After``) a device's request past its rate, or a heavy read past its bound."""
    rate = RateLimit(float(app.config.get("CHANGES_PER_S", CHANGES_PER_S)),
                     int(app.config.get("CHANGES_BURST", CHANGES_BURST)))
    heavy = HeavyReads(int(app.config.get("HEAVY_AT_ONCE", HEAVY_AT_ONCE)))
    app.extensions["banker_limits"] = (rate, heavy)

    def refuse(key: str, wait: float) -> Response:
        from webui.core import error_body, lang
        from webui.texts import text

        message = text(key, lang())
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            response = Response(error_body(key, message), status=429, mimetype="application/json")
        else:
            response = Response(message, status=429, mimetype="text/plain")
        response.headers["Retry-After"] = str(max(1, round(wait + 0.49)))
        return response

    @app.before_request
    def limit() -> Response | None:
        address = request.remote_addr or ""
        if own_address(address):
            return None
        if request.method == "POST":
            wait = rate.take(address)
            if wait > 0:
                return refuse("web_too_fast", wait)
        elif request.path in HEAVY_PATHS:
            if not heavy.enter(address):
                return refuse("web_too_many_reads", 1.0)
            g.heavy_device = address
        return None

    @app.teardown_request
    def done(_error: BaseException | None) -> None:
        device = g.pop("heavy_device", None)
        if device is not None:
            heavy.leave(device)
