"""A hostile phone on the table's Wi-Fi, against a real ``banker run --simulated``:
``python -m tests.webui.attacks`` (every attack) or ``… --only streams slowloris``.

The program runs as a child process on 127.0.0.1. The computer that runs it is 127.0.0.1 (with
``Host: 127.0.0.1``); the other loopback addresses 127.0.0.2 … 127.0.0.254 stand in for the other
phones on the Wi-Fi, each request sent from its own source address. Every attack checks that it was
refused and that the refusal changed nothing (the state, the journal's actions, the banker's role),
and counts what it did: requests tried, refusals checked for a state change, kills (SIGKILL of the
program, then a restart on the same data directory).

Every loop is bounded by a count and every wait by a deadline; nothing leaves the loopback range.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from tests.soak.program import Program, ProgramError

PIN = "8642"
PLAYERS = ("Ann", "Bob", "Cy")
LAPTOP = "127.0.0.1"
TIMEOUT_S = 10.0


class AttackFailed(AssertionError):
    """The program did what a hostile phone asked, or broke while refusing it."""


@dataclass
class Counts:
    requests: int = 0
    refusals_checked: int = 0
    kills: int = 0
    failures: list[str] = field(default_factory=list)
    figures: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add_request(self, n: int = 1) -> None:
        with self._lock:
            self.requests += n


COUNTS = Counts()


@dataclass
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


@dataclass
class Phone:
    """One device: its source address, its cookie and CSRF token; ``host`` is the Host header it sends."""

    port: int
    source: str = LAPTOP
    host: str = ""
    cookies: dict[str, str] = field(default_factory=dict)
    token: str = ""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        COUNTS.add_request()
        conn = http.client.HTTPConnection(LAPTOP, self.port, timeout=TIMEOUT_S, source_address=(self.source, 0))
        sent = {"Host": self.host or f"{LAPTOP}:{self.port}", **(headers or {})}
        if body is not None:
            sent["Content-Length"] = str(len(body))
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in sent.items():
                conn.putheader(name, value)
            conn.endheaders(body)
            response = conn.getresponse()
            payload = response.read()
        finally:
            conn.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            jar: SimpleCookie = SimpleCookie()
            jar.load(header)
            self.cookies.update({name: morsel.value for name, morsel in jar.items()})
        return Answer(response.status, payload, {k.lower(): v for k, v in response.headers.items()})

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def me(self) -> dict[str, Any]:
        answer = self.get("/api/me")
        if answer.status != 200:
            raise AttackFailed(f"GET /api/me from {self.source} answered {answer.status}: {answer.text[:200]}")
        data: dict[str, Any] = answer.json()
        self.token = data["csrf_token"]
        return data

    def post(self, path: str, body: object, key: str | None = "new") -> Answer:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "X-CSRFToken": self.token}
        if key is not None:
            headers["Idempotency-Key"] = uuid.uuid4().hex if key == "new" else key
        return self.request("POST", path, raw, headers)

    def act(self, action: dict[str, Any], key: str | None = "new") -> Answer:
        return self.post(f"/api/actions/{action['action']}", {k: v for k, v in action.items() if k != "action"}, key)

    def form(self, path: str, fields: dict[str, str] | list[tuple[str, str]]) -> Answer:
        items = list(fields.items()) if isinstance(fields, dict) else list(fields)
        headers = {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.token}
        return self.request("POST", path, urlencode([*items, ("idem", uuid.uuid4().hex)]).encode(), headers)

    def copy(self) -> Phone:
        return Phone(self.port, self.source, self.host, dict(self.cookies), self.token)


class Table:
    """The program under attack, with the banker's phone, two players' phones and the laptop."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.program = Program(data_dir)
        self.program.start()
        self.banker = self.join(None, "127.0.0.2")
        answer = self.banker.post("/api/banker/pin", {"pin": PIN})
        if answer.status != 200:
            raise ProgramError(f"setting the PIN answered {answer.status}: {answer.text}")
        self.new_game()

    @property
    def port(self) -> int:
        return self.program.port

    def new_game(self) -> None:
        if not self.banker.me()["banker"]:
            self.banker.post("/api/banker", {"pin": PIN})
        answer = self.banker.act({"action": "new_game", "edition": "us", "players": list(PLAYERS), "rules": {}})
        if answer.status != 200:
            raise ProgramError(f"new_game answered {answer.status}: {answer.text}")
        self.ann = self.join("Ann", "127.0.0.3")
        self.bob = self.join("Bob", "127.0.0.4")

    @property
    def code(self) -> str:
        return self.current_code()

    def current_code(self) -> str:
        """The join code as the banker's page shows it."""
        me = self.banker.me()
        if not me["banker"]:
            self.banker.post("/api/banker", {"pin": PIN})
        page = self.banker.get("/more").text
        marker = 'class="code">'
        if marker not in page:
            raise ProgramError("the More page shows no join code to the banker")
        return page.split(marker, 1)[1].split("<", 1)[0].strip()

    def join(self, player: str | None, source: str, code: str | None = None) -> Phone:
        phone = Phone(self.port, source)
        phone.me()
        if code is None:
            code = self.current_code() if getattr(self, "banker", None) is not None else self.program.code
        answer = phone.post("/api/join", {"code": code, "player": player}, key=None)
        if answer.status != 200:
            raise ProgramError(f"join as {player} from {source} answered {answer.status}: {answer.text}")
        phone.me()
        return phone

    def laptop(self) -> Phone:
        """The browser on the computer that runs the table: /table opens at once."""
        phone = Phone(self.port, LAPTOP)
        answer = phone.get("/table")
        if answer.status != 200:
            raise AttackFailed(f"the table page on the laptop answered {answer.status}")
        phone.me()
        return phone

    def world(self) -> str:
        """Everything a refused request must leave as it was: the state, the journal's actions, the PIN."""
        state = self.banker.get("/api/state")
        with contextlib.closing(sqlite3.connect(f"file:{self.data_dir / 'banker.sqlite3'}?mode=ro", uri=True)) as db:
            rows = db.execute("SELECT game_id, seq, action FROM actions ORDER BY game_id, seq").fetchall()
            pin = db.execute("SELECT value FROM settings WHERE key = 'webui_banker_pin'").fetchone()
        return json.dumps([state.status, state.json() if state.status == 200 else None, rows, pin])

    def restart(self, kill: bool = True) -> None:
        if kill:
            self.program.kill()
            COUNTS.kills += 1
        elif self.program.process is not None:
            self.program.stop()
        self.program = Program(self.data_dir)
        self.program.start()
        for phone in (self.banker, self.ann, self.bob):
            phone.port = self.port

    def close(self) -> None:
        if self.program.process is not None:
            self.program.stop()


def refused(table: Table, attempt: Callable[[], Answer], what: str, ok: tuple[int, ...] = ()) -> Answer:
    """Run ``attempt``; it must be refused (4xx, or a status in ``ok``), answer no 5xx, show no
    traceback, and leave the world as it was."""
    before = table.world()
    answer = attempt()
    if answer.status >= 500 or "Traceback" in answer.text:
        raise AttackFailed(f"{what}: answered {answer.status}: {answer.text[:300]}")
    if answer.status not in ok and not 400 <= answer.status < 500:
        raise AttackFailed(f"{what}: not refused ({answer.status}): {answer.text[:300]}")
    after = table.world()
    COUNTS.refusals_checked += 1
    if after != before:
        raise AttackFailed(f"{what}: the refusal changed the game")
    return answer


def cash(table: Table, player: str) -> int:
    return int(table.banker.get("/api/state").json()["players"][player]["cash"])


# --- 1. the simulated table acts only for the laptop -------------------------------------------------

def attack_table(table: Table) -> None:
    ann, watcher = table.ann, table.join(None, "127.0.0.5")
    for phone in (ann, watcher):
        for path in ("/table", "/table/frame.png"):
            if phone.get(path).status != 200:
                raise AttackFailed(f"a phone may watch the table's screen: {path} answered otherwise")
    # A player asks to be the banker and presses OK on the table page herself.
    ann.post("/api/banker", {"ask": True})
    refused(table, lambda: ann.form("/table/press", {"button": "ok"}), "a phone pressed OK on the simulated table")
    if ann.me()["banker"]:
        raise AttackFailed("a player became the banker by pressing OK on the simulated table from her phone")
    laptop = table.laptop()
    laptop.form("/table/press", {"button": "cancel"})  # the laptop answers the question: no
    # A watcher moves money by tapping cards.
    for meaning in ("player:2", "player:1"):
        refused(table, lambda m=meaning: watcher.form("/table/tap", {"meaning": m}),  # type: ignore[misc]
                "a watcher tapped a card on the simulated table")
    refused(table, lambda: watcher.form("/table/press", {"button": "ok"}), "a watcher pressed OK")
    refused(table, lambda: ann.form("/table/press", {"button": "cancel", "long": "1"}), "a player held ✕ (undo)")
    # The laptop with a foreign Host (a page that rebinds its name to 127.0.0.1) is refused too.
    rebound = laptop.copy()
    rebound.host = "evil.example"
    refused(table, lambda: rebound.form("/table/press", {"button": "ok"}), "a rebound page pressed OK")
    # The laptop itself still drives its table: a card and a button press change the screen.
    screen = laptop.get("/table/frame.png").body
    answer = laptop.form("/table/tap", {"meaning": "player:1"})
    if answer.status not in (200, 303):
        raise AttackFailed(f"the laptop's own tap answered {answer.status}: {answer.text[:200]}")
    deadline = time.monotonic() + 5
    while laptop.get("/table/frame.png").body == screen:
        if time.monotonic() > deadline:
            raise AttackFailed("the laptop's tap did not reach the table")
        time.sleep(0.1)
    laptop.form("/table/press", {"button": "cancel"})


# --- 2. half-open connections do not keep phones out ----------------------------------------------

def half_open(port: int, source: str) -> socket.socket | None:
    try:
        sock = socket.create_connection((LAPTOP, port), timeout=2, source_address=(source, 0))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        return sock
    except OSError:
        return None


def attack_slowloris(table: Table, count: int = 200) -> None:
    for label, sources in (("one address", ["127.0.0.9"] * count),
                           ("the laptop's address", [LAPTOP] * count),
                           ("many addresses", [f"127.0.{1 + i // 250}.{2 + i % 250}" for i in range(count)])):
        socks = [s for s in (half_open(table.port, src) for src in sources) if s is not None]
        COUNTS.add_request(len(sources))
        stop = threading.Event()

        def trickle(held: list[socket.socket] = socks, stop: threading.Event = stop) -> None:
            while not stop.wait(1.0):
                for s in held:
                    with contextlib.suppress(OSError):
                        s.send(b"a")

        trickler = threading.Thread(target=trickle, daemon=True)
        trickler.start()
        try:
            started = time.monotonic()
            phone = table.join("Cy", "127.0.0.6")
            answer = phone.act({"action": "salary", "player": "Cy", "again": True})
            elapsed = time.monotonic() - started
            if answer.status != 200:
                raise AttackFailed(f"slowloris from {label}: a phone's action answered {answer.status}")
            COUNTS.figures[f"slowloris_{label.replace(' ', '_')}_join_and_act_s"] = round(elapsed, 3)
            if elapsed > 5:
                raise AttackFailed(f"slowloris from {label}: joining and acting took {elapsed:.1f} s")
        finally:
            stop.set()
            trickler.join(3)
            for s in socks:
                s.close()
    if held_after(table.port, "127.0.0.40", 15.0):
        raise AttackFailed("a request trickling in a byte a second is still waited for after 15 s")


def held_after(port: int, source: str, seconds: float) -> bool:
    """Whether a half-open connection that trickles a byte a second is still open after ``seconds``."""
    sock = half_open(port, source)
    if sock is None:
        return False
    COUNTS.add_request()
    sock.settimeout(1.0)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            try:
                sock.send(b"a")
                sock.recv(1024)  # an answer (a 408, a 400) or the close (nothing): either way not held
                return False
            except TimeoutError:
                continue
            except OSError:
                return False
        return True
    finally:
        sock.close()


# --- 3. streams: capped per phone and in all, a dropped one freed at once ------------------------------

def open_stream(phone: Phone, linger_reset: bool = False) -> tuple[int, socket.socket | None]:
    COUNTS.add_request()
    try:
        sock = socket.create_connection((LAPTOP, phone.port), timeout=5, source_address=(phone.source, 0))
    except OSError:
        return 0, None
    if linger_reset:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
    sock.sendall((f"GET /api/stream HTTP/1.1\r\nHost: {LAPTOP}:{phone.port}\r\nCookie: {cookie}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    head = b""
    try:
        while b"\r\n" not in head:
            chunk = sock.recv(256)
            if not chunk:
                break
            head += chunk
    except OSError:
        pass
    try:
        status = int(head.split(b" ", 2)[1])
    except (IndexError, ValueError):
        status = 0
    if status != 200:
        sock.close()
        return status, None
    return status, sock


def attack_streams(table: Table) -> None:
    watcher = table.join(None, "127.0.0.7")
    held: list[socket.socket] = []
    try:
        for _ in range(70):
            status, sock = open_stream(watcher)
            if sock is not None:
                held.append(sock)
        COUNTS.figures["streams_one_phone_got"] = len(held)
        status, sock = open_stream(table.bob)
        if sock is None:
            raise AttackFailed(f"one phone holding its streams left Bob on {status}")
        sock.close()
        # Many cookies from one address.
        others: list[socket.socket] = []
        for _ in range(20):
            again = table.join(None, "127.0.0.8")
            _, sock = open_stream(again)
            if sock is not None:
                others.append(sock)
        held += others
        COUNTS.figures["streams_one_address_many_cookies_got"] = len(others)
        status, sock = open_stream(table.bob)
        if sock is None:
            raise AttackFailed(f"one address holding streams with many cookies left Bob on {status}")
        sock.close()
    finally:
        for s in held:
            s.close()
    # Dropped abruptly (RST): the slot is free at once. A burst of 300 reconnects, each dropped.
    burst = table.join(None, "127.0.0.10")
    for _ in range(300):
        _, sock = open_stream(burst, linger_reset=True)
        if sock is not None:
            sock.close()
    time.sleep(0.3)
    status, sock = open_stream(table.bob)
    if sock is None:
        raise AttackFailed(f"a burst of 300 dropped reconnects left Bob on {status}")
    sock.close()
    status, sock = open_stream(burst)
    if sock is None:
        raise AttackFailed(f"a phone whose streams were dropped gets no new one ({status}): the slots were kept")
    sock.close()


# --- 4. the banker role is held by the table ------------------------------------------------------------

def attack_banker_role(table: Table) -> None:
    banker = table.join(None, "127.0.0.11")
    if banker.post("/api/banker", {"pin": PIN}).status != 200:
        raise AttackFailed("the right PIN did not make a phone the banker")
    saved = banker.copy()
    banker.post("/api/banker", {"leave": True})
    if saved.me()["banker"]:
        raise AttackFailed("a saved copy of the cookie is the banker again after 'stop being the banker'")
    refused(table, lambda: saved.act({"action": "collect", "player": "Ann", "amount": 1000}),
            "a saved banker cookie collected $1,000 after leaving")
    # A PIN change takes the role from every saved cookie.
    other = table.join(None, "127.0.0.12")
    other.post("/api/banker", {"pin": PIN})
    copy = other.copy()
    if table.banker.post("/api/banker/pin", {"pin": "97531"}).status != 200:
        raise AttackFailed("the banker could not change the PIN")
    refused(table, lambda: copy.act({"action": "collect", "player": "Ann", "amount": 1000}),
            "a banker cookie from before the PIN change collected $1,000")
    table.banker.post("/api/banker/pin", {"pin": PIN})
    # The role lasts a game: a banker of the last game is not the banker of the next.
    third = table.join(None, "127.0.0.13")
    third.post("/api/banker", {"pin": PIN})
    if not third.me()["banker"]:
        raise AttackFailed("the PIN did not make a phone the banker")
    table.new_game()
    if third.me()["banker"]:
        raise AttackFailed("the banker role outlived its game")
    for header in table.banker.get("/api/me").headers.get("set-cookie", "").split(","):
        if "max-age" in header.lower() and int(header.lower().split("max-age=")[1].split(";")[0]) > 400 * 86400:
            raise AttackFailed("the cookie lasts more than 400 days")


# --- 5. the wrong-guess limiter -------------------------------------------------------------------------

def wrong_code(code: str) -> str:
    alphabet = "ACEFHJKMNPRTWXY3479"
    return "".join(alphabet[(alphabet.index(c) + 1) % len(alphabet)] for c in code)


def concurrent(calls: list[Callable[[], Answer]]) -> list[int]:
    statuses: list[int] = [0] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i: int) -> None:
        start.wait()
        try:
            statuses[i] = calls[i]().status
        except OSError:
            statuses[i] = -1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return statuses


def attack_limiter(table: Table) -> None:
    code = table.current_code()
    bad = wrong_code(code)
    # 40 concurrent wrong codes from one phone: 5 evaluated, the rest locked out.
    guesser = Phone(table.port, "127.0.0.20")
    guesser.me()
    statuses = concurrent([lambda: guesser.post("/api/join", {"code": bad, "player": None}, key=None)
                           for _ in range(40)])
    evaluated = statuses.count(403)
    COUNTS.figures["limiter_concurrent_40_evaluated"] = evaluated
    if evaluated > 5 or statuses.count(429) + evaluated != 40:
        raise AttackFailed(f"40 concurrent wrong codes: {evaluated} evaluated, statuses {sorted(set(statuses))}")
    # The same from 40 addresses: limited in all, too.
    guessers = []
    for i in range(40):
        p = Phone(table.port, f"127.0.3.{10 + i}")
        p.me()
        guessers.append(p)
    statuses = concurrent([lambda p=p: p.post("/api/join", {"code": bad, "player": None}, key=None)  # type: ignore[misc]
                           for p in guessers for _ in range(5)])
    evaluated = statuses.count(403)
    COUNTS.figures["limiter_40_addresses_200_tries_evaluated"] = evaluated
    if evaluated > 30:
        raise AttackFailed(f"40 addresses × 5 wrong codes: {evaluated} evaluated (no limit in all)")
    # A wrong code after a restart (kill -9) is still locked out.
    table.restart()
    guesser.port = table.port
    answer = guesser.post("/api/join", {"code": bad, "player": None}, key=None)
    if answer.status != 429:
        raise AttackFailed(f"the lock-out was forgotten on a restart: {answer.status}")
    # The right code from the locked address is still refused while locked.
    if guesser.post("/api/join", {"code": table.current_code(), "player": None}, key=None).status != 429:
        raise AttackFailed("a locked-out phone joined with the right code")
    # The laptop: one tab's typos do not lock the table's own page, nor another tab.
    tab = Phone(table.port, LAPTOP)
    tab.me()
    for _ in range(6):
        tab.post("/api/join", {"code": bad, "player": None}, key=None)
    own = Phone(table.port, LAPTOP)
    if own.get("/table").status != 200 or not own.me()["joined"]:
        raise AttackFailed("typos in one tab on the laptop locked the table's own page")
    # A new code for a new game and on demand from the banker's page.
    before = table.current_code()
    table.new_game()
    after = table.current_code()
    if after == before:
        raise AttackFailed("a new game kept the join code")
    page = table.banker.get("/banker").text
    if 'value="new_code"' not in page:
        raise AttackFailed("the banker's page has no way to make a new join code")
    table.banker.form("/banker", {"do": "new_code"})
    if table.current_code() == after:
        raise AttackFailed("the banker's new code did not change the code")


def spray(table: Table, addresses: int = 10_050) -> None:
    """The limiter's table is not emptied by spraying addresses (slow: about a minute)."""
    locked = Phone(table.port, "127.0.4.1")
    locked.me()
    bad = wrong_code(table.current_code())
    for _ in range(6):
        locked.post("/api/join", {"code": bad}, key=None)
    for i in range(addresses):
        p = Phone(table.port, f"127.{10 + i // 60000}.{(i // 250) % 240}.{2 + i % 250}")
        with contextlib.suppress(OSError):
            p.get(f"/j/{bad}")
    if locked.post("/api/join", {"code": table.current_code()}, key=None).status != 429:
        raise AttackFailed("spraying addresses evicted a lock-out")


# --- 6. DNS rebinding ---------------------------------------------------------------------------------

def attack_rebinding(table: Table) -> None:
    for host in ("evil.example", f"evil.example:{table.port}", "127.0.0.1.evil.example", "localhost.evil"):
        visitor = Phone(table.port, LAPTOP, host=host)
        for path in ("/table", "/", "/join", "/more", "/api/me", f"/j/{table.current_code()}", "/api/state"):
            answer = visitor.get(path)
            if answer.status < 400 or table.current_code() in answer.text:
                raise AttackFailed(f"Host {host}: {path} answered {answer.status} (must be refused)")
        if "banker" in visitor.cookies:
            raise AttackFailed(f"Host {host}: the visitor got a cookie")
    # The banker's own phone, rebound: refused as well.
    rebound = table.banker.copy()
    rebound.host = "evil.example"
    refused(table, lambda: rebound.act({"action": "collect", "player": "Ann", "amount": 5}),
            "a rebound page acted with the banker's cookie")


# --- 7. no 500s, no redirect off-site ---------------------------------------------------------------------

def attack_500s(table: Table) -> None:
    ann = table.ann
    deep = b'{"player": "Ann", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    refused(table, lambda: ann.post("/api/actions/salary", deep), "JSON nested 5,000 deep")
    refused(table, lambda: ann.post("/api/join", b"[" * 5000 + b"]" * 5000, key=None), "/api/join nested 5,000")
    for target in ("/\n/x", "/\r\n/x", "/\t/evil.example", "/\t\t/evil.example", "/ /evil.example", "/\\evil.example",
                   "//evil.example", "/%09/evil.example", "https://evil.example", "/\x00/x", "/\u3000/evil.example"):
        for method, send in (("GET", lambda t=target: ann.request(  # type: ignore[misc]
                "POST", "/lang", urlencode({"lang": "en", "next": t}).encode(),
                {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": ann.token})),
                             ("form", lambda t=target: ann.form("/do", {"action": "salary", "next": t}))):  # type: ignore[misc]
            answer = send()
            if answer.status >= 500:
                raise AttackFailed(f"next={target!r} ({method}) answered {answer.status}")
            location = answer.headers.get("location", "")
            cleaned = "".join(c for c in location if c not in "\t\r\n ")
            if cleaned.startswith(("//", "\\", "/\\")) or "://" in cleaned.split("?")[0]:
                raise AttackFailed(f"next={target!r} redirects to {location!r}")


# --- 8. the API refuses what banker replay refuses ----------------------------------------------------------

def replay_refuses(lines: list[str]) -> bool:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "replay", f.name], capture_output=True, text=True,
                          timeout=60, check=False)
    Path(f.name).unlink()
    return done.returncode == 1


def attack_inputs(table: Table) -> None:
    banker = table.banker
    if not banker.me()["banker"]:
        banker.post("/api/banker", {"pin": PIN})
    duplicate = b'{"player": "Ann", "amount": 1, "to": "Bob", "amount": 999999999}'
    refused(table, lambda: banker.post("/api/actions/pay", duplicate), "a duplicate JSON key")
    refused(table, lambda: banker.act({"action": "pay", "player": "Ann", "amount": 1, "to": "Bob",
                                       "reason": "x" * 15_000}), "a 15,000-character reason")
    refused(table, lambda: banker.form("/do", [("action", "pay"), ("player", "Ann"), ("amount", "1"),
                                               ("to", "Bob"), ("amount", "999")]),
            "a form with a field given twice", ok=(303,))
    new_game = '{"action": "new_game", "edition": "us", "players": %s}'
    for players in (["Ann", "\u0410nn"], ["Ann", "Ann\u200b"], ["\u202eAnn", "Bob"], ["Ann", "B\u0000b"],
                    ["Ann", "Bob\u2066"], ["Ann", "x" * 200]):
        if not replay_refuses([new_game % json.dumps(players)]):
            raise AttackFailed(f"banker replay takes the players {players!r}")
        refused(table, lambda p=players: banker.act({"action": "new_game", "edition": "us", "players": p}),  # type: ignore[misc]
                f"new_game with {players!r}")
        refused(table, lambda p=players: banker.form("/setup", [("edition", "us"), *(("players", n) for n in p)]),  # type: ignore[misc]
                f"the setup form with {players!r}", ok=(303,))
    if not replay_refuses([new_game % '["Ann", "Bob"]', json.dumps({"action": "pay", "player": "Ann", "amount": 1,
                                                                     "to": "Bob", "reason": "x" * 15_000})]):
        raise AttackFailed("banker replay takes a 15,000-character reason")
    # A reused idempotency key with another body.
    key = uuid.uuid4().hex
    first = table.ann.act({"action": "pay", "player": "Ann", "amount": 1, "to": "Bob"}, key=key)
    if first.status != 200:
        raise AttackFailed(f"a payment answered {first.status}")
    answer = refused(table, lambda: table.ann.act({"action": "pay", "player": "Ann", "amount": 500, "to": "Bob"},
                                                  key=key), "a reused key with another body")
    if answer.status != 422 or not answer.json().get("message"):
        raise AttackFailed(f"a reused key with another body answered {answer.status} {answer.text[:200]}")
    again = table.ann.act({"action": "pay", "player": "Ann", "amount": 1, "to": "Bob"}, key=key)
    if again.status != 200 or again.headers.get("idempotent-replayed") != "true":
        raise AttackFailed("the same key with the same body is no longer answered as the first time")


# --- 9. start-up ------------------------------------------------------------------------------------------

def run_banker(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    COUNTS.add_request()
    return subprocess.run([sys.executable, "-m", "firmware.cli", "run", "--simulated", "--host", LAPTOP, *args],
                          capture_output=True, text=True, timeout=timeout, check=False)


def attack_startup(tmp: Path) -> None:
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "a-file").write_text("x")
    bad_db = tmp / "bad-db"
    bad_db.mkdir()
    (bad_db / "banker.sqlite3").write_bytes(b"this is not a database" * 100)
    dir_db = tmp / "dir-db"
    (dir_db / "banker.sqlite3").mkdir(parents=True)
    key_dir = tmp / "key-dir"
    (key_dir / "webui-secret.key").mkdir(parents=True)
    cases = [
        (["--port", "-5", "--data-dir", str(tmp / "p1")], "--port -5"),
        (["--port", "70000", "--data-dir", str(tmp / "p2")], "--port 70000"),
        (["--port", "0", "--data-dir", str(tmp / "a-file" / "data")], "a data directory under a file"),
        (["--port", "0", "--data-dir", "/proc/table-banker"], "a data directory in /proc"),
        (["--port", "0", "--data-dir", str(bad_db)], "a banker.sqlite3 that is not a database"),
        (["--port", "0", "--data-dir", str(dir_db)], "a banker.sqlite3 that is a directory"),
        (["--port", "0", "--data-dir", str(key_dir)], "webui-secret.key as a directory"),
    ]
    for args, what in cases:
        done = run_banker(*args)
        lines = [line for line in done.stderr.splitlines() if line.strip() and " INFO " not in line]
        if done.returncode != 2 or len(lines) != 1 or "Traceback" in done.stderr:
            raise AttackFailed(f"banker run with {what}: exit {done.returncode}, stderr {done.stderr[-600:]!r}")


def attack_damaged_row(table: Table) -> None:
    for i in range(4):
        table.ann.act({"action": "pay", "player": "Ann", "amount": 1 + i, "to": "Bob"})
    table.program.stop()
    path = table.data_dir / "banker.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        game, last = db.execute(
            "SELECT game_id, MAX(seq) FROM actions GROUP BY game_id ORDER BY game_id DESC").fetchone()
        db.execute("UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?", ('{"action": "pay", "pla', game,
                                                                                    last - 1))
        db.commit()
    table.restart(kill=False)
    state = table.banker.get("/api/state")
    if state.status != 200:
        raise AttackFailed(f"a damaged journal row left a dead table: /api/state answered {state.status}")
    page = table.ann.get("/").text
    if str(last - 1) not in page or "damaged" not in page.lower():
        raise AttackFailed("the game does not say what was lost and from which action")
    # Another amount: the same payment again within seconds is asked first (the phone's double tap guard).
    answer = table.ann.act({"action": "pay", "player": "Ann", "amount": 10, "to": "Bob"})
    if answer.status != 200:
        raise AttackFailed(f"the game after a damaged row is not playable: {answer.status} {answer.text[:200]}")


# --- 10. an unjoined phone sees no names ---------------------------------------------------------------------

def attack_unjoined(table: Table) -> None:
    stranger = Phone(table.port, "127.0.0.30")
    me = stranger.me()
    text = json.dumps(me)
    if any(name in text for name in PLAYERS):
        raise AttackFailed(f"an unjoined phone's /api/me shows the players: {text[:300]}")
    page = stranger.get("/join").text
    if any(f">{name}<" in page for name in PLAYERS):
        raise AttackFailed("an unjoined phone's join page shows the players before the code")


# --- 11. the second round: asking the table ---------------------------------------------------------------

def attack_ask_table(table: Table) -> None:
    """Twenty cookies from one device ask at once; a second phone picks Ann and asks before her."""
    code = table.current_code()
    flood = []
    for _ in range(20):
        p = Phone(table.port, "127.0.0.40")
        p.me()
        p.post("/api/join", {"code": code, "player": None}, key=None)
        p.me()
        flood.append(p)
    time.sleep(5)  # the device's bucket of requests fills again (4 a second): every cookie may ask
    statuses = concurrent([lambda p=p: p.post("/api/banker", {"ask": True}) for p in flood])  # type: ignore[misc]
    COUNTS.figures["ask_20_cookies_one_device_questions_put"] = statuses.count(202)
    if statuses.count(202) > 1 or any(s >= 500 or s < 0 for s in statuses):
        raise AttackFailed(f"20 cookies of one device asked the table: statuses {sorted(statuses)}")
    spoof = table.join("Ann", "127.0.0.66")
    asked = [(who, who.post("/api/banker", {"ask": True})) for who in (spoof, table.ann)]
    if [answer.status for _, answer in asked] != [202, 202]:
        raise AttackFailed(f"the two phones of Ann could not ask: {[(a.status, a.text[:120]) for _, a in asked]}")
    words = [who.me().get("asked_as") for who, _ in asked]
    if words[0] == words[1] or not all(isinstance(w, str) and w.startswith("Ann · phone ") for w in words):
        raise AttackFailed(f"the table cannot tell the two phones of Ann apart: {words}")
    held = statuses.count(202) + 2
    late = Phone(table.port, "127.0.0.67")
    late.me()
    late.post("/api/join", {"code": code, "player": None}, key=None)
    late.me()
    fourth = late.post("/api/banker", {"ask": True})
    if held >= 3 and fourth.status != 429:
        raise AttackFailed(f"a fourth question was put while three waited: {fourth.status}")
    if any(who.me()["banker"] for who in (*flood, spoof, table.ann, late)):
        raise AttackFailed("a phone is the banker though nobody pressed OK on the table")


# --- 12. the second round: what a phone types --------------------------------------------------------------

def attack_typed(table: Table) -> None:
    """Join codes in another script, numbers int() takes but JSON would not, PINs in other digits, names
    that draw like another name or like nothing."""
    guesser = Phone(table.port, "127.0.0.31")
    guesser.me()
    for code in ("ÄBCD", "АВСЕ", "ＡＢＣＤ"):
        refused(table, lambda c=code: guesser.get("/j/" + quote(c)), f"GET /j/{code}", ok=(303,))  # type: ignore[misc]
    typed = Phone(table.port, "127.0.0.32")
    typed.me()
    statuses = [refused(table, lambda: typed.post("/api/join", {"code": "АВСЕ"}, key=None),
                        "a join code in Cyrillic").status for _ in range(6)]
    if statuses != [403] * 5 + [429]:
        raise AttackFailed(f"join codes in another script are not counted as wrong codes: {statuses}")
    ann = table.ann
    for amount in ("1_000", "١٠٠", "９", "+7"):
        refused(table, lambda a=amount: ann.form("/do", {"action": "pay", "amount": a, "to": "Bob"}),  # type: ignore[misc]
                f"the Pay form with the amount {amount!r}", ok=(303,))
    banker = table.banker
    if not banker.me()["banker"]:
        banker.post("/api/banker", {"pin": PIN})
    for pin in ("١٢٣٤", "１２３４", "²³¹⁴"):
        refused(table, lambda p=pin: banker.post("/api/banker/pin", {"pin": p}), f"the PIN {pin!r}")  # type: ignore[misc]
        refused(table, lambda p=pin: banker.form("/banker", {"do": "set_pin", "new_pin": p}),  # type: ignore[misc]
                f"the Banker page's PIN {pin!r}", ok=(303,))
    for players in (["Bob", "Bob\ufe0f"], ["Ann", "Ann\u3164"], ["Ann", "\u2800\u2800"], ["Ann", "\u3164"]):
        refused(table, lambda p=players: banker.act({"action": "new_game", "edition": "us", "players": p}),  # type: ignore[misc]
                f"new_game with {players!r}")


# --- 13. the second round: trade offers ------------------------------------------------------------------

def attack_offers(table: Table) -> None:
    """An accept of an undone offer's number, an accept naming other terms, and bait and switch."""
    banker, ann, bob = table.banker, table.ann, table.bob
    if not banker.me()["banker"]:
        banker.post("/api/banker", {"pin": PIN})
    cy = table.join("Cy", "127.0.0.6")
    for player, deed in (("Bob", "boardwalk"), ("Ann", "baltic")):
        if banker.act({"action": "buy", "player": player, "property": deed}).status != 200:
            raise AttackFailed(f"the banker could not sell {deed} to {player}")

    def offer(who: Phone, **trade: Any) -> dict[str, Any]:
        answer = who.post("/api/trades", {"to": "Bob", **trade})
        if answer.status != 200:
            raise AttackFailed(f"a trade offer answered {answer.status}: {answer.text[:200]}")
        made: dict[str, Any] = answer.json()["proposal"]
        return made

    # Ann offers $500 for Boardwalk; the offer is undone; Cy offers $1 for it; Bob accepts what he was shown.
    shown = offer(ann, **{"from": "Ann", "give": {"cash": 500}, "take": {"properties": ["boardwalk"]}})
    if banker.act({"action": "undo"}).status != 200:
        raise AttackFailed("the banker could not undo the offer")
    other = offer(cy, **{"from": "Cy", "give": {"cash": 1}, "take": {"properties": ["boardwalk"]}})
    if other["id"] == shown["id"]:
        raise AttackFailed(f"an undone offer's number #{shown['id']} was given to another offer")
    refused(table, lambda: bob.post(f"/api/trades/{shown['id']}/accept", {"terms": shown.get("terms", "")}),
            "an accept of an undone offer's number")
    refused(table, lambda: bob.post(f"/api/trades/{other['id']}/accept", {"terms": "0" * 16}),
            "an accept naming other terms than the offer's")
    # Bait and switch: Ann offers Baltic, then mortgages it before Bob accepts.
    bait = offer(ann, **{"from": "Ann", "give": {"properties": ["baltic"]}, "take": {"cash": 60}})
    if ann.act({"action": "mortgage", "player": "Ann", "property": "baltic"}).status != 200:
        raise AttackFailed("Ann could not mortgage Baltic")
    refused(table, lambda: bob.post(f"/api/trades/{bait['id']}/accept", {"terms": bait.get("terms", "")}),
            "an accept of an offered deed mortgaged since")


# --- 14. the second round: the banker role under a race ------------------------------------------------

def attack_role_race(table: Table, rounds: int = 8) -> None:
    """A copy of a watcher's cookie made before it typed the PIN; copies of a banker's cookie acting while
    another banker changes the PIN."""
    watcher = table.join(None, "127.0.0.5")
    fixed = watcher.copy()
    fixed.source = "127.0.0.65"
    if watcher.post("/api/banker", {"pin": PIN}).status != 200 or not watcher.me()["banker"]:
        raise AttackFailed("the right PIN did not make the watcher the banker")
    if fixed.me()["banker"]:
        raise AttackFailed("a copy of a watcher's cookie made before it typed the PIN is the banker")
    refused(table, lambda: fixed.act({"action": "collect", "player": "Ann", "amount": 1000}),
            "a fixed cookie collected $1,000")
    late_actions = []
    for round_ in range(rounds):
        pin = f"9753{round_}"
        old = table.join(None, f"127.0.8.{round_ + 1}")
        old.post("/api/banker", {"pin": PIN})
        copies = [old.copy() for _ in range(4)]
        for i, copy in enumerate(copies):
            copy.source = f"127.0.8.{100 + 10 * round_ + i}"
        changed = threading.Event()
        after = [0]
        late: list[int] = []

        def hammer(p: Phone, worker: int, late: list[int] = late, changed: threading.Event = changed,
                   after: list[int] = after) -> None:
            for n in range(60):
                try:
                    answer = p.act({"action": "collect", "player": "Ann", "amount": 1 + (worker * 100 + n) % 97,
                                    "again": True})
                except OSError:
                    continue
                if answer.status == 200 and changed.is_set() and answer.json()["seq"] > after[0]:
                    late.append(answer.json()["seq"])
                if answer.status == 403:
                    return

        threads = [threading.Thread(target=hammer, args=(p, i)) for i, p in enumerate(copies)]
        for t in threads:
            t.start()
        time.sleep(0.05)
        if table.banker.post("/api/banker/pin", {"pin": pin}).status != 200:
            raise AttackFailed("the banker could not change the PIN")
        after[0] = table.banker.get("/api/state").json()["seq"]
        changed.set()
        for t in threads:
            t.join(60)
        if old.me()["banker"]:
            raise AttackFailed("a banker kept the role after a new PIN")
        table.banker.post("/api/banker/pin", {"pin": PIN})
        late_actions.append(late)
    COUNTS.figures["role_race_rounds_with_late_actions"] = sum(1 for late in late_actions if late)
    if any(late_actions):
        raise AttackFailed(f"banker actions applied after the PIN change answered: {late_actions}")


def attack_first_pin(tmp: Path, rounds: int = 2) -> None:
    """Six phones set the first PIN of a fresh table at the same moment: one is the banker."""
    for round_ in range(rounds):
        program = Program(tmp / f"first-pin-{round_}")
        program.start()
        try:
            phones = []
            for i in range(6):
                p = Phone(program.port, f"127.0.9.{10 * round_ + i + 1}")
                p.me()
                if p.post("/api/join", {"code": program.code, "player": None}, key=None).status != 200:
                    raise AttackFailed("a phone could not join a fresh table")
                p.me()
                phones.append(p)
            pins = [f"{round_}{i}{i}{i}7" for i in range(6)]
            statuses = concurrent([lambda p=p, pin=pin: p.post("/api/banker/pin", {"pin": pin})  # type: ignore[misc]
                                   for p, pin in zip(phones, pins, strict=True)])
            bankers = [i for i, p in enumerate(phones) if p.me()["banker"]]
            if statuses.count(200) != 1 or len(bankers) != 1 or statuses[bankers[0]] != 200:
                raise AttackFailed(f"six phones set the first PIN at once: statuses {statuses}, "
                                   f"{len(bankers)} hold the role")
            check = Phone(program.port, "127.0.9.200")
            check.me()
            check.post("/api/join", {"code": program.code, "player": None}, key=None)
            check.me()
            if check.post("/api/banker", {"pin": pins[bankers[0]]}).status != 200:
                raise AttackFailed("the phone that holds the role does not know the PIN that was kept")
        finally:
            program.stop()


# --- running -------------------------------------------------------------------------------------------------

ATTACKS: dict[str, Callable[[Table], None]] = {
    "table": attack_table, "slowloris": attack_slowloris, "streams": attack_streams,
    "banker_role": attack_banker_role, "limiter": attack_limiter, "rebinding": attack_rebinding,
    "500s": attack_500s, "inputs": attack_inputs, "unjoined": attack_unjoined, "damaged_row": attack_damaged_row,
    "ask_table": attack_ask_table, "typed": attack_typed, "offers": attack_offers, "role_race": attack_role_race,
}


@contextlib.contextmanager
def running_table(data_dir: Path) -> Iterator[Table]:
    table = Table(data_dir)
    try:
        yield table
    finally:
        table.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=[*ATTACKS, "startup", "first_pin", "spray"],
                        help="run only these")
    parser.add_argument("--spray", action="store_true", help="also spray 10,050 addresses at the limiter (slow)")
    args = parser.parse_args(argv)
    chosen = args.only or [*ATTACKS, "startup", "first_pin", *(["spray"] if args.spray else [])]
    with tempfile.TemporaryDirectory() as tmp:
        for name in chosen:
            started = time.monotonic()
            try:
                if name == "startup":
                    attack_startup(Path(tmp) / "startup")
                elif name == "first_pin":
                    attack_first_pin(Path(tmp) / "first_pin")
                else:
                    with running_table(Path(tmp) / name) as table:
                        (spray if name == "spray" else ATTACKS[name])(table)
                print(f"held     {name} ({time.monotonic() - started:.1f} s)", flush=True)
            except Exception as error:  # noqa: BLE001 - every attack is reported, the others still run
                COUNTS.failures.append(f"{name}: {error}")
                print(f"FAILED   {name}: {error}", flush=True)
    print(f"requests tried: {COUNTS.requests}; refusals checked for a state change: {COUNTS.refusals_checked}; "
          f"kills: {COUNTS.kills}")
    for key, value in COUNTS.figures.items():
        print(f"  {key}: {value}")
    print(f"{len(chosen) - len(COUNTS.failures)} passed, {len(COUNTS.failures)} failed")
    return 1 if COUNTS.failures else 0


if __name__ == "__main__":
    sys.exit(main())
