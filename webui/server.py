"""Serving the phone page with waitress, inside the table program.

Every open event stream holds one waitress worker thread for as long as the phone keeps the page
open, so the default of 4 threads would be used up by 4 phones. The pool is sized for MAX_STREAMS
streams plus REQUEST_WORKERS threads that always remain for ordinary requests (the stream cap
answers 503 before the streams can take those), and the connection limit leaves room above that.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

from webui.core import Services

REQUEST_WORKERS = 8
"""Threads kept for page, API and action requests on top of the streams."""
log = logging.getLogger(__name__)


def thread_count(max_streams: int) -> int:
    return max_streams + REQUEST_WORKERS


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
    """Serve ``app`` on ``host``:``port`` (0: any free port) from a daemon thread."""
    max_streams = int(app.config.get("MAX_STREAMS", 64))
    threads = threads or thread_count(max_streams)
    server = create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        connection_limit=threads + 32,
        channel_timeout=60,
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
    real_port = int(server.effective_port)
    real_host = str(server.effective_host)
    return RunningServer(real_host, real_port, threads, server, thread, app)
