"""What one hostile phone on the Wi-Fi can ask of the table: requests that change something at a bounded
rate (refused ones not written to the card), and at most a few heavy reads of the whole game running at
once (the issue of the hostile phone, rows 12 and 13)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from banker.session import Session
from tests.webui.conftest import Phone, client_at
from webui import limits, views


def phone_at(app: Flask, address: str, player: str | None = "Ann") -> Phone:
    return Phone(client_at(app, address), app).join(player)


def journal_rows(session: Session) -> tuple[int, int]:
    with sqlite3.connect(session.journal.path) as db:
        return (int(db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]),
                int(db.execute("SELECT COUNT(*) FROM requests").fetchone()[0]))


def test_a_phone_past_its_rate_is_answered_429_and_changes_nothing(app: Flask, session: Session) -> None:
    hostile = phone_at(app, "127.0.0.9")
    answers = [hostile.act({"action": "buy", "player": "Ann", "property": "go"}).status_code for _ in range(60)]
    # Its join was one request of the burst; the refill in the meantime lets a few more through.
    served = answers.index(429)
    assert limits.CHANGES_BURST - 1 <= served <= limits.CHANGES_BURST + 2 and set(answers[:served]) == {422}
    assert answers[-10:] == [429] * 10
    answer = hostile.act({"action": "salary", "player": "Ann"})
    assert answer.status_code == 429 and answer.get_json()["error"] == "web_too_fast"
    assert int(answer.headers["Retry-After"]) >= 1
    assert session.state is not None and session.state.seq == 0
    # Another phone and the table's own computer are not held up by it.
    assert phone_at(app, "127.0.0.10", "Bob").act({"action": "salary", "player": "Bob"}).status_code == 200
    laptop = phone_at(app, "127.0.0.1", "Cy")
    assert all(laptop.act({"action": "salary", "player": "Cy", "again": True}).status_code == 200 for _ in range(40))


def test_refused_requests_do_not_grow_the_journal(app: Flask, session: Session, tmp_path: Path) -> None:
    refusing = phone_at(app, "127.0.0.1")
    before = journal_rows(session)
    wal = Path(session.journal.path + "-wal")
    size = wal.stat().st_size
    for _ in range(300):
        assert refusing.act({"action": "buy", "player": "Ann", "property": "go"}).status_code == 422
    assert journal_rows(session) == before
    assert wal.stat().st_size == size


def test_a_phone_has_at_most_a_few_heavy_reads_running_at_once(app: Flask, session: Session,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    hostile = phone_at(app, "127.0.0.9")
    release = threading.Event()
    started = threading.Semaphore(0)
    standings = views.standings

    def slow_standings(*args: Any) -> Any:
        started.release()
        release.wait(10)
        return standings(*args)

    monkeypatch.setattr(views, "standings", slow_standings)
    cookie = hostile.client.get_cookie("banker")
    assert cookie is not None
    answers: list[int] = []

    def read(path: str) -> None:
        client = client_at(app, "127.0.0.9")
        client.set_cookie("banker", cookie.value)
        answers.append(client.get(path).status_code)

    readers = [threading.Thread(target=read, args=(path,)) for path in ("/api/scores", "/end")]
    for reader in readers:
        reader.start()
    for _ in readers:
        assert started.acquire(timeout=10)
    # Both are running: a third from the same phone is answered at once, whichever heavy page it is.
    for path in ("/api/scores", "/history", "/api/history", "/records"):
        answer = hostile.client.get(path)
        assert answer.status_code == 429, path
        assert int(answer.headers["Retry-After"]) >= 1
    # Another phone still reads.
    assert phone_at(app, "127.0.0.10", "Bob").client.get("/api/history").status_code == 200
    release.set()
    for reader in readers:
        reader.join(10)
    assert answers == [200, 200]
    assert hostile.client.get("/api/scores").status_code == 200
