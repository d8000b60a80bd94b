"""Serving the phone page with waitress, inside the table program.

Every open event stream holds one waitress worker thread for as long as the phone keeps the page
open, so the default of 4 threads would be used up by 4 phones. The pool is sized for MAX_STREAMS
streams plus REQUEST_WORKERS threads that always remain for ordinary requests (the stream cap
answers 503 before the streams can take those).

In front of the application, the connections themselves are guarded (:class:`GuardedServer`): a
connection has :data:`REQUEST_TIMEOUT_S` to send a whole request, however slowly it trickles in; one
device (address) holds at most :data:`CONNECTIONS_PER_ADDRESS` connections, the table's own computer
excepted; and when every place is taken, the connection that has waited longest for its request
makes room for the new one. So half-open connections ("slowloris") cannot keep the phones out. A
stream whose phone goes away (its connection closed or reset) ends at once, so its place is free.
"""

from __future__ import annotations

import logging
import resource
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from webui.core import Services
from webui.guard import own_address

REQUEST_WORKERS = 8
"""Threads kept for page, API and action requests on top of the streams."""
REQUEST_TIMEOUT_S = 10.0
"""Seconds a connection has to send a whole request (its headers and its body, at most 64 KiB), from
when it opened or its last answer was sent."""
CONNECTIONS_PER_ADDRESS = 64
"""Connections one device may hold open at once (a phone's browser opens about six, and one stream per tab);
past that its connection that has waited longest for a request makes room, or the new one is refused."""
CONNECTION_LIMIT = 1000
"""Open connections in all (fewer when the process may open fewer files)."""
log = logging.getLogger(__name__)


def thread_count(max_streams: int) -> int:
    return max_streams + REQUEST_WORKERS


class GuardedChannel(HTTPChannel):  # type: ignore[misc]
    """A waitress channel that knows since when it waits for a request, and tells who listens when
    its client has gone (a closed or reset connection)."""

    server: GuardedServer

    def __init__(self, server: GuardedServer, sock: Any, addr: Any, adj: Adjustments, map: Any = None) -> None:
        self.waiting_since = time.monotonic()
        self.peer = str(addr[0]) if isinstance(addr, tuple) and addr else ""
        self.gone_listeners: list[Callable[[], None]] = []
        super().__init__(server, sock, addr, adj, map=map)

    def service(self) -> None:
        try:
            super().service()
        finally:
            self.waiting_since = time.monotonic()

    def handle_read(self) -> None:
        super().handle_read()
        if not self.connected:
            self._gone()

    def handle_close(self) -> None:
        super().handle_close()
        self._gone()

    def _gone(self) -> None:
        listeners, self.gone_listeners = self.gone_listeners, []
        for listener in listeners:
            listener()

    def add_channel(self, map: Any = None) -> None:
        super().add_channel(map)
        self.server.per_address[self.peer] += 1

    def del_channel(self, map: Any = None) -> None:
        if self._fileno is not None and self._fileno in self.server.active_channels:
            self.server.per_address[self.peer] -= 1
            if self.server.per_address[self.peer] <= 0:
                del self.server.per_address[self.peer]
        super().del_channel(map)


class GuardedServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server with the connection guards of this module."""

    channel_class = GuardedChannel

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.per_address: Counter[str] = Counter()
        super().__init__(*args, **kwargs)

    def readable(self) -> bool:
        # Keep accepting: a full house makes room in handle_accept instead of shutting phones out.
        now = time.time()
        due = float(getattr(self, "next_channel_cleanup", 0))
        if now >= due:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return bool(self.accepting)

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, addr = accepted
        peer = str(addr[0]) if isinstance(addr, tuple) and addr else ""
        if (not own_address(peer) and self.per_address[peer] >= CONNECTIONS_PER_ADDRESS
                and not self._make_room(peer)):
            conn.close()
            return
        if len(self.active_channels) >= self.adj.connection_limit and not self._make_room():
            conn.close()
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def _make_room(self, peer: str | None = None) -> bool:
        """Close the connection (of ``peer``, if given) that has waited longest for its request; False if
        every one is busy."""
        waiting = [c for c in list(self.active_channels.values())
                   if not c.requests and not c.will_close and (peer is None or c.peer == peer)]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda c: c.waiting_since)
        oldest.handle_close()
        return True

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        cutoff = time.monotonic() - REQUEST_TIMEOUT_S
        for channel in list(self.active_channels.values()):
            # An answer still being sent is left to channel_timeout: it counts the sending as activity.
            if not channel.requests and not channel.total_outbufs_len and channel.waiting_since < cutoff:
                channel.will_close = True


def watch_gone(environ: dict[str, Any], listener: Callable[[], None]) -> None:
    """Call ``listener`` (from the server's loop: it must only enqueue) when the client of this request
    goes away; nothing when the request is not served by :class:`GuardedServer` (a test client)."""
    check = environ.get("waitress.client_disconnected")
    channel = getattr(check, "__self__", None)
    if isinstance(channel, GuardedChannel):
        if not channel.connected:
            listener()
        else:
            channel.gone_listeners.append(listener)


def connection_limit(threads: int) -> int:
    """:data:`CONNECTION_LIMIT`, or fewer when the process may open fewer files (its soft limit is raised
    to the hard one first)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CONNECTION_LIMIT + threads + 64
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return CONNECTION_LIMIT
    return max(32, min(CONNECTION_LIMIT, soft - threads - 64))


def create_guarded_server(app: Any, **settings: Any) -> Any:
    """waitress's ``create_server`` for TCP with :class:`GuardedServer` on every address it listens on."""
    adj = Adjustments(**settings)
    socket_map: dict[int, Any] = {}
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    servers = [GuardedServer(app, socket_map, True, None, dispatcher=dispatcher, adj=adj, sockinfo=info)
               for info in adj.listen]
    if len(servers) == 1:
        return servers[0]
    listening = [(s.effective_host, s.effective_port) for s in servers]
    return MultiSocketServer(socket_map, adj, listening, dispatcher, servers[-1].log_info)


@dataclass
class RunningServer:
    host: str
    port: int
    threads: int
    _server: Any
    _thread: threading.Thread
    _app: Flask

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def close(self) -> None:
        """End the streams, stop accepting, and let the worker threads finish."""
        services: Services = self._app.extensions["banker"]
        services.broker.shutdown()
        server = self._server
        # The streams end on the broker's goodbye; the workers finish before the sockets close.
        server.task_dispatcher.shutdown(timeout=2)
        server.close()
        socket_map = getattr(server, "_map", None)
        if socket_map is not None:
            wasyncore.close_all(socket_map)
        self._thread.join(timeout=2)


def start(app: Flask, host: str, port: int, threads: int | None = None) -> RunningServer:
    """Serve ``app`` on ``host``:``port`` (0: any free port) from a daemon thread.

    Raises:
        OSError: the address cannot be listened on (in use, or not this computer's).
        ValueError: ``port`` is not 0 to 65535 or ``host`` is not an address.
    """
    max_streams = int(app.config.get("MAX_STREAMS", 64))
    threads = threads or thread_count(max_streams)
    server = create_guarded_server(
        app,
        host=host,
        port=port,
        threads=threads,
        connection_limit=connection_limit(threads),
        channel_timeout=60,
        cleanup_interval=1,
        channel_request_lookahead=1,
        asyncore_use_poll=True,
        ident="banker",
        clear_untrusted_proxy_headers=True,
        max_request_body_size=64 * 1024,
        expose_tracebacks=False,
    )

    def serve() -> None:
        try:
            server.run()
        except (OSError, ValueError) as error:  # the sockets were closed under the loop by close()
            log.debug("web server loop ended: %s", error)

    thread = threading.Thread(target=serve, name="webui-server", daemon=True)
    thread.start()
    if isinstance(server, MultiSocketServer):
        real_host, real_port = server.effective_listen[0]
    else:
        real_host, real_port = server.effective_host, server.effective_port
    return RunningServer(str(real_host), int(real_port), threads, server, thread, app)
