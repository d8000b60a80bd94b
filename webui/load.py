"""A bounded load test of the phone page on loopback: ``python -m webui.load``.

The program under test (a Session, the app and waitress, as ``banker run`` serves them) runs in a
child process; this process plays the phones over HTTP. It measures

1. the time from an action (POSTed by the banker's phone) to its event on each of 8 open streams;
2. how many streams can stay open while actions are still answered under 200 ms, stepping up to
   MAX_STREAMS (and one stream more, which must be refused with 503);
3. the child's resident memory (VmRSS) with 8 phones connected.

Each stream is a phone of its own (its own cookie, joined as a watcher): streams are capped per phone.

It stops by itself: every wait has a deadline and the steps end at MAX_STREAMS.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import socket
import statistics
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from multiprocessing.connection import Connection
from pathlib import Path

PIN = "8642"
GOAL_LATENCY_P99_MS = 100.0
GOAL_ANSWER_MS = 200.0
GOAL_PHONES = 50
GOAL_RSS_MB = 80.0


def serve(conn: Connection, max_streams: int) -> None:
    """The program under test, in the child process."""
    from banker.actions import NewGame
    from banker.journal import Journal
    from banker.session import Session
    from webui import create_app
    from webui.auth import set_pin
    from webui.join import join_code
    from webui.server import start

    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "load.sqlite3")
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob", "Cy", "Dee"), {}))
        set_pin(journal, PIN)
        app = create_app(session, None, {"DATA_DIR": tmp, "MAX_STREAMS": max_streams})
        server = start(app, "127.0.0.1", 0)
        conn.send((server.port, join_code(journal)))
        conn.recv()  # wait until the load test is done
        server.close()
        journal.close()


class Phone:
    """A phone's cookie and CSRF token, over plain http.client."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.token = ""

    def request(self, method: str, path: str, body: object = None, key: bool = False) -> tuple[int, bytes, float]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
            headers["X-CSRFToken"] = self.token
        if key:
            headers["Idempotency-Key"] = uuid.uuid4().hex
        started = time.perf_counter()
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        payload = response.read()
        elapsed = time.perf_counter() - started
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie: SimpleCookie = SimpleCookie()
            cookie.load(header)
            self.cookies.update({name: morsel.value for name, morsel in cookie.items()})
        conn.close()
        return response.status, payload, elapsed

    def join_as_banker(self, code: str) -> None:
        self.request("GET", f"/j/{code}")
        self.token = json.loads(self.request("GET", "/api/me")[1])["csrf_token"]
        status, body, _ = self.request("POST", "/api/join", {"player": None})
        assert status == 200, body
        status, body, _ = self.request("POST", "/api/banker", {"pin": PIN}, key=True)
        assert status == 200, body

    def act(self, action: dict[str, object]) -> tuple[int, float]:
        name = str(action["action"])
        status, _, elapsed = self.request("POST", f"/api/actions/{name}",
                                          {k: v for k, v in action.items() if k != "action"}, key=True)
        return status, elapsed


@dataclass
class Stream:
    """One open event stream on a raw socket; records when each state id arrives."""

    port: int
    cookie: str
    arrivals: dict[str, float] = field(default_factory=dict)
    connected: threading.Event = field(default_factory=threading.Event)
    refused: bool = False
    sock: socket.socket | None = None

    def start(self) -> None:
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        self.sock = sock
        sock.sendall((f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {self.cookie}\r\n"
                      "Accept: text/event-stream\r\n\r\n").encode())
        reader = sock.makefile("rb")
        try:
            status = reader.readline()
            if b" 503 " in status:
                self.refused = True
                self.connected.set()
                return
            for raw in reader:
                line = raw.decode(errors="replace")
                if line.startswith(": connected"):
                    self.connected.set()
                elif line.startswith("id: "):
                    self.arrivals[line[4:].strip()] = time.perf_counter()
        except OSError:
            return

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
                self.sock.close()
            except OSError:
                pass


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def watcher_cookie(port: int, code: str) -> str:
    """A new phone joined as a watcher (a stream is capped per phone, so each stream is a phone of its own)."""
    phone = Phone(port)
    phone.request("GET", f"/j/{code}")
    phone.token = json.loads(phone.request("GET", "/api/me")[1])["csrf_token"]
    status, body, _ = phone.request("POST", "/api/join", {"player": None})
    assert status == 200, body
    return "; ".join(f"{k}={v}" for k, v in phone.cookies.items())


def open_streams(port: int, code: str, count: int, deadline: float = 10.0) -> list[Stream]:
    """``count`` phones, each with its stream open (or refused with 503)."""
    streams = [Stream(port, watcher_cookie(port, code)) for _ in range(count)]
    for stream in streams:
        stream.start()
    for stream in streams:
        if not stream.connected.wait(deadline):
            raise TimeoutError("a stream did not connect in time")
    return streams


def latency(phone: Phone, streams: list[Stream], actions: int, game: int) -> list[float]:
    """Milliseconds from sending each action to its event on each stream."""
    samples: list[float] = []
    seq = json.loads(phone.request("GET", "/api/state")[1])["seq"]
    for _ in range(actions):
        seq += 1
        sent = time.perf_counter()
        status, _ = phone.act({"action": "salary", "player": "Ann", "again": True})
        assert status == 200
        wanted = f"{game}-{seq}"
        deadline = time.monotonic() + 5
        while not all(wanted in s.arrivals for s in streams):
            if time.monotonic() > deadline:
                raise TimeoutError(f"event {wanted} did not reach every stream within 5 s")
            time.sleep(0.0005)
        samples += [(s.arrivals[wanted] - sent) * 1000 for s in streams]
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=8, help="streams for the latency and memory figures")
    parser.add_argument("--actions", type=int, default=100, help="actions timed for the latency")
    parser.add_argument("--max-streams", type=int, default=64, help="MAX_STREAMS of the app under test")
    parser.add_argument("--step", type=int, default=8, help="streams added per step")
    args = parser.parse_args(argv)

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    process = ctx.Process(target=serve, args=(child, args.max_streams), daemon=True)
    process.start()
    try:
        if not parent.poll(30):
            raise TimeoutError("the server did not start in 30 s")
        port, code = parent.recv()
        banker = Phone(port)
        banker.join_as_banker(code)
        game = 1
        idle_rss = rss_mb(process.pid or 0)

        streams = open_streams(port, code, args.streams)
        latency(banker, streams, 5, game)  # warm up
        samples = latency(banker, streams, args.actions, game)
        rss = rss_mb(process.pid or 0)
        print(f"action -> event on {args.streams} streams, {args.actions} actions: "
              f"median {statistics.median(samples):.1f} ms, p99 {percentile(samples, 99):.1f} ms, "
              f"max {max(samples):.1f} ms (goal: p99 < {GOAL_LATENCY_P99_MS:.0f} ms)")
        print(f"memory (VmRSS) of the server process: {idle_rss:.1f} MB with no phone, "
              f"{rss:.1f} MB with {args.streams} streams open (goal: < {GOAL_RSS_MB:.0f} MB)")

        held = 0
        while len(streams) < args.max_streams:
            more = min(args.step, args.max_streams - len(streams))
            streams += open_streams(port, code, more)
            if any(stream.refused for stream in streams):
                raise AssertionError(f"a stream was refused with {len(streams)} open, below MAX_STREAMS")
            answers = []
            for _ in range(20):
                status, elapsed = banker.act({"action": "salary", "player": "Bob", "again": True})
                assert status == 200
                answers.append(elapsed * 1000)
                answers.append(banker.request("GET", "/api/state")[2] * 1000)
            worst = max(answers)
            print(f"{len(streams):3d} streams open: answers median {statistics.median(answers):.1f} ms, "
                  f"worst {worst:.1f} ms")
            if worst >= GOAL_ANSWER_MS:
                break
            held = len(streams)
        extra = open_streams(port, code, 1)
        refused = extra[0].refused
        print(f"phones holding a stream with every action answered under {GOAL_ANSWER_MS:.0f} ms: {held} "
              f"(the cap, MAX_STREAMS={args.max_streams}; stream {args.max_streams + 1} "
              f"{'refused with 503' if refused else 'NOT refused'}) (goal: {GOAL_PHONES})")
        print(f"memory (VmRSS) with {len(streams)} streams open: {rss_mb(process.pid or 0):.1f} MB")
        for stream in streams + extra:
            stream.close()
        return 0 if refused else 1
    finally:
        parent.send("stop")
        process.join(10)
        if process.is_alive():
            process.terminate()


if __name__ == "__main__":
    raise SystemExit(main())
