"""The running table program (``banker run --simulated``) as a child process, and HTTP clients for it.

Shared by the kill test, the long table session of ``make soak`` and ``banker bench --program``.
Everything talks to 127.0.0.1 only, and every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import IO, Any

from firmware.run import announced_address

PIN = "8642"
PLAYERS = ("Ann", "Bob", "Cy")
START_TIMEOUT_S = 30.0
HTTP_TIMEOUT_S = 5.0


class ProgramError(Exception):
    """The table program did not start, or answered something it must never answer."""


@dataclass
class Program:
    """``banker run --simulated`` on a free loopback port over ``data_dir``."""

    data_dir: Path
    process: subprocess.Popen[str] | None = None
    port: int = 0
    code: str = ""
    log: IO[str] | None = None

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.log = open(self.data_dir / "program.log", "a", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware.cli", "run", "--simulated", "--host", "127.0.0.1", "--port", "0",
             "--data-dir", str(self.data_dir)],
            stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=Path(__file__).resolve().parents[2])
        assert self.process.stdout is not None
        port, code, text = announced_address(self.process.stdout, START_TIMEOUT_S)
        if not port:
            self.kill()
            raise ProgramError(f"banker run did not start: {text!r}")
        self.port, self.code = port, code

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no handler runs, nothing is flushed or closed."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self.process = None
        if self.log is not None:
            self.log.close()
            self.log = None

    def stop(self) -> int:
        """SIGTERM and wait: the clean stop."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(15)
        self.process = None
        if self.log is not None:
            self.log.close()
            self.log = None
        return code

    def open_files(self) -> list[str]:
        """What each open file descriptor of the program points at (sockets and pipes by kind only)."""
        targets = []
        for fd in sorted(os.listdir(f"/proc/{self.pid}/fd"), key=int):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{self.pid}/fd/{fd}")
                targets.append(target.split(":")[0] if target.startswith(("socket:", "pipe:", "anon_inode:"))
                               else target)
        return targets

    def proc_status(self) -> dict[str, int]:
        """VmRSS (kB), threads and open file descriptors of the program, from /proc."""
        out = {"rss_kb": 0, "threads": 0, "fds": len(os.listdir(f"/proc/{self.pid}/fd"))}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                out["rss_kb"] = int(line.split()[1])
            elif line.startswith("Threads:"):
                out["threads"] = int(line.split()[1])
        return out


@dataclass
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]
    elapsed: float

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Client:
    """One phone (or the table page): its cookie and CSRF token, over plain http.client."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    token: str = ""
    phone: str = ""

    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        """Raises OSError (or http.client's errors, which are OSErrors or HTTPException) when the
        program is gone."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT_S)
        sent = {"Cookie": self.cookie(), **(headers or {})}
        started = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            payload = response.read()
        finally:
            conn.close()
        elapsed = time.perf_counter() - started
        for header in response.headers.get_all("Set-Cookie") or []:
            jar: SimpleCookie = SimpleCookie()
            jar.load(header)
            self.cookies.update({name: morsel.value for name, morsel in jar.items()})
        return Answer(response.status, payload, {k.lower(): v for k, v in response.headers.items()}, elapsed)

    def me(self) -> dict[str, Any]:
        data: dict[str, Any] = self.request("GET", "/api/me").json()
        self.token, self.phone = data["csrf_token"], data["phone"]
        return data

    def post_json(self, path: str, body: object, key: str | None = None) -> Answer:
        headers = {"Content-Type": "application/json", "X-CSRFToken": self.token}
        if key is not None:
            headers["Idempotency-Key"] = key
        return self.request("POST", path, json.dumps(body).encode(), headers)

    def act(self, action: dict[str, Any], key: str) -> Answer:
        name = str(action["action"])
        return self.post_json(f"/api/actions/{name}", {k: v for k, v in action.items() if k != "action"}, key)

    def form(self, path: str, fields: dict[str, str]) -> Answer:
        from urllib.parse import urlencode

        headers = {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.token}
        return self.request("POST", path, urlencode({**fields, "idem": uuid.uuid4().hex}).encode(), headers)

    def tap(self, meaning: str) -> Answer:
        return self.form("/table/tap", {"meaning": meaning})

    def press(self, button: str, long: bool = False) -> Answer:
        return self.form("/table/press", {"button": button, **({"long": "1"} if long else {})})

    def state(self) -> dict[str, Any]:
        answer = self.request("GET", "/api/state")
        if answer.status != 200:
            raise ProgramError(f"GET /api/state answered {answer.status}: {answer.body[:200]!r}")
        data: dict[str, Any] = answer.json()
        return data


def join(port: int, code: str, player: str | None) -> Client:
    client = Client(port)
    client.me()
    answer = client.post_json("/api/join", {"code": code, "player": player})
    if answer.status != 200:
        raise ProgramError(f"join as {player} answered {answer.status}: {answer.body!r}")
    client.me()
    return client


def set_up_game(program: Program) -> tuple[Client, dict[str, Client], Client]:
    """The banker's phone (sets the PIN, starts a 3-player game), one phone per player, the table page."""
    banker = join(program.port, program.code, None)
    answer = banker.post_json("/api/banker/pin", {"pin": PIN}, uuid.uuid4().hex)
    if answer.status != 200:
        raise ProgramError(f"setting the PIN answered {answer.status}: {answer.body!r}")
    answer = banker.act({"action": "new_game", "edition": "us", "players": list(PLAYERS), "rules": {}},
                        uuid.uuid4().hex)
    if answer.status != 200:
        raise ProgramError(f"new_game answered {answer.status}: {answer.body!r}")
    phones = {name: join(program.port, program.code, name) for name in PLAYERS[:2]}
    table = Client(program.port)
    if table.request("GET", "/table").status != 200:
        raise ProgramError("/table did not open on loopback")
    table.me()
    return banker, phones, table


@dataclass
class Stream:
    """A phone's event stream that, like the browser, reconnects by itself with Last-Event-ID."""

    client: Client
    stop: threading.Event
    last_id: str = ""
    connects: int = 0
    arrivals: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(OSError, http.client.HTTPException):
                self._once()
            self.stop.wait(0.2)  # the browser's retry

    def _once(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.client.port), timeout=1.0)
        try:
            since = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id else ""
            sock.sendall((f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {self.client.cookie()}\r\n"
                          f"Accept: text/event-stream\r\n{since}\r\n").encode())
            # Lines from the raw socket: a quiet second is a timeout to look at stop again, not a reason to
            # reconnect (a file object from sock.makefile cannot be read again after a timeout).
            lines = self._lines(sock)
            if b" 200 " not in next(lines, b""):
                return
            for raw in lines:
                line = raw.decode(errors="replace")
                if line.startswith(": connected"):
                    with self._lock:
                        self.connects += 1
                elif line.startswith("id: "):
                    with self._lock:
                        self.last_id = line[4:].strip()
                        self.arrivals[self.last_id] = time.perf_counter()
        finally:
            sock.close()

    def _lines(self, sock: socket.socket) -> Iterator[bytes]:
        """The stream's lines until it ends or ``stop`` is set."""
        buffer = b""
        while not self.stop.is_set():
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                return
            buffer += chunk
            *complete, buffer = buffer.split(b"\n")
            for line in complete:
                yield line + b"\n"

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join(5)


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise ProgramError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.02)
