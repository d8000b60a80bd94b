"""The real server: waitress in a thread, sized for the streams, answering on loopback."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import struct
import time
import urllib.request
import uuid

import pytest
from flask import Flask

from banker.session import Session
from webui import server as server_module
from webui.join import join_code
from webui.server import REQUEST_WORKERS, start, thread_count
from webui.stream import STREAMS_PER_ADDRESS, STREAMS_PER_PHONE


def test_threads_are_sized_for_the_streams() -> None:
    assert thread_count(64) == 64 + REQUEST_WORKERS


def test_start_serves_and_closes(app: Flask) -> None:
    server = start(app, "127.0.0.1", 0)
    try:
        assert server.port > 0 and server.url == f"http://127.0.0.1:{server.port}"
        assert server.threads == app.config["MAX_STREAMS"] + REQUEST_WORKERS
        with urllib.request.urlopen(server.url + "/api/openapi.json", timeout=5) as response:
            assert json.load(response)["openapi"].startswith("3.1")
            assert response.headers["Server"] == "banker"
    finally:
        server.close()


def test_the_load_script_runs_and_stops_by_itself(capsys: object) -> None:
    from webui.load import main

    assert main(["--streams", "3", "--actions", "5", "--max-streams", "6", "--step", "3"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "median" in out and "p99" in out and "VmRSS" in out
    assert "stream 7 refused with 503" in out


# --- the connection guards: half-open connections, a phone's share, dropped streams ----------------------------

def half_open(port: int, source: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return sock


def joined_phone(port: int, source: str, code: str, player: str | None) -> dict[str, str]:
    """Join over HTTP from ``source``; the cookie and CSRF token."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
    conn.request("GET", f"/j/{code}")
    answer = conn.getresponse()
    answer.read()
    cookie = answer.headers["Set-Cookie"].split(";", 1)[0]
    conn.request("GET", "/api/me", headers={"Cookie": cookie})
    me = conn.getresponse()
    token = json.loads(me.read())["csrf_token"]
    cookie = (me.headers.get("Set-Cookie") or cookie).split(";", 1)[0]
    conn.request("POST", "/api/join", body=json.dumps({"player": player}),
                 headers={"Cookie": cookie, "X-CSRFToken": token, "Content-Type": "application/json"})
    joined = conn.getresponse()
    assert joined.status == 200, joined.read()
    joined.read()
    cookie = (joined.headers.get("Set-Cookie") or cookie).split(";", 1)[0]
    conn.close()
    return {"Cookie": cookie, "X-CSRFToken": token}


def closed(sock: socket.socket) -> bool:
    """Whether the server closed this connection (without waiting)."""
    sock.setblocking(False)
    try:
        return sock.recv(64) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def act(port: int, source: str, headers: dict[str, str], action: dict[str, object]) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
    body = {k: v for k, v in action.items() if k != "action"}
    conn.request("POST", f"/api/actions/{action['action']}", body=json.dumps(body),
                 headers={**headers, "Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex})
    status = conn.getresponse().status
    conn.close()
    return status


@pytest.mark.parametrize("sources", [["127.0.0.9"] * 200, ["127.0.0.1"] * 200,
                                     [f"127.0.1.{i}" for i in range(2, 202)]],
                         ids=["one address", "the laptop", "200 addresses"])
def test_a_phone_joins_and_acts_while_200_half_open_connections_are_held(sources: list[str], app: Flask,
                                                                         session: Session) -> None:
    server = start(app, "127.0.0.1", 0)
    held: list[socket.socket] = []
    try:
        for source in sources:
            with contextlib.suppress(OSError):
                held.append(half_open(server.port, source))
        phone = joined_phone(server.port, "127.0.0.7", join_code(session.journal), "Cy")
        assert act(server.port, "127.0.0.7", phone, {"action": "salary", "player": "Cy"}) == 200
        assert session.state is not None and session.state.players[2].cash == 1700
    finally:
        for sock in held:
            sock.close()
        server.close()


def still_open(sock: socket.socket, seconds: float) -> bool:
    """Keep trickling a byte a second; whether the server still holds the connection after ``seconds``."""
    deadline = time.monotonic() + seconds
    sock.settimeout(1.0)
    while time.monotonic() < deadline:
        try:
            sock.send(b"a")
            if sock.recv(64) == b"":
                return False
        except TimeoutError:
            continue
        except OSError:
            return False
    return True


def test_a_request_that_trickles_in_is_cut_off(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "REQUEST_TIMEOUT_S", 1.0)
    server = start(app, "127.0.0.1", 0)
    try:
        sock = half_open(server.port, "127.0.0.9")
        assert not still_open(sock, 6.0)
        sock.close()
    finally:
        server.close()


def test_one_device_holds_a_bounded_share_of_the_connections(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "CONNECTIONS_PER_ADDRESS", 5)
    server = start(app, "127.0.0.1", 0)
    try:
        held = [half_open(server.port, "127.0.0.9") for _ in range(12)]
        time.sleep(0.5)
        assert [closed(sock) for sock in held] == [True] * 7 + [False] * 5  # the oldest made room for the newer
        for sock in held:
            sock.close()
    finally:
        server.close()


def open_stream(port: int, source: str, headers: dict[str, str]) -> tuple[int, socket.socket]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    sock.sendall((f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {headers['Cookie']}\r\n\r\n").encode())
    head = sock.recv(64)
    return int(head.split(b" ", 2)[1]), sock


def test_a_dropped_stream_frees_its_place_at_once(app: Flask, session: Session) -> None:
    server = start(app, "127.0.0.1", 0)
    try:
        code = join_code(session.journal)
        phone = joined_phone(server.port, "127.0.0.12", code, "Ann")
        broker = app.extensions["banker"].broker
        for _ in range(3):
            opened = [open_stream(server.port, "127.0.0.12", phone) for _ in range(STREAMS_PER_PHONE)]
            assert [status for status, _ in opened] == [200] * STREAMS_PER_PHONE
            assert open_stream(server.port, "127.0.0.12", phone)[0] == 503  # this phone's share
            for _, sock in opened:  # dropped abruptly: a reset, no goodbye
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.close()
            deadline = time.monotonic() + 2
            while broker.open_streams and time.monotonic() < deadline:
                time.sleep(0.02)
            assert broker.open_streams == 0
    finally:
        server.close()


def test_one_device_cannot_hold_every_stream(app: Flask, session: Session) -> None:
    server = start(app, "127.0.0.1", 0)
    held: list[socket.socket] = []
    try:
        code = join_code(session.journal)
        for _ in range(STREAMS_PER_ADDRESS + 3):  # a new cookie for every stream, from one device
            status, sock = open_stream(server.port, "127.0.0.13", joined_phone(server.port, "127.0.0.13", code, None))
            held.append(sock)
        assert app.extensions["banker"].broker.open_streams == STREAMS_PER_ADDRESS
        bob = joined_phone(server.port, "127.0.0.14", code, "Bob")
        assert open_stream(server.port, "127.0.0.14", bob)[0] == 200
    finally:
        for sock in held:
            sock.close()
        server.close()
