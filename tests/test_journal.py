"""The journal (SQLite, WAL, synchronous=FULL) and the shared Session."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from banker.actions import Collect, NewGame, Pay, Salary, Undo, parse_action
from banker.errors import BankerError
from banker.export import state_to_json
from banker.journal import Journal
from banker.session import Session

GAME = NewGame("us", ("Ann", "Bob"))


def test_pragmas_are_wal_and_full(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        assert journal.pragma("journal_mode") == "wal"
        assert journal.pragma("synchronous") == "2"  # FULL


def test_every_action_is_a_row_and_restart_replays_to_the_same_state(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    session = Session(Journal(path), clock=lambda: 1000.0)
    session.submit(GAME)
    session.submit(parse_action({"action": "buy", "player": "Ann", "property": "boardwalk"}))
    session.submit(parse_action({"action": "rent", "player": "Bob", "property": "boardwalk"}))
    session.submit(Undo())
    session.submit(Salary("Bob"))
    assert session.state is not None
    before = state_to_json(session.state)
    session.journal.close()

    resumed = Session.resume(Journal(path))
    assert resumed.state is not None
    assert state_to_json(resumed.state) == before
    rows = resumed.journal.rows(resumed.game_id or 0)
    assert [json.loads(r[1])["action"] for r in rows] == ["new_game", "buy", "rent", "undo", "salary"]
    assert json.loads(rows[2][2])[0]["kind"] == "paid"
    resumed.journal.close()


def test_a_refused_action_writes_nothing(tmp_path: Path) -> None:
    session = Session(Journal(tmp_path / "j.sqlite3"))
    session.submit(GAME)
    with pytest.raises(BankerError):
        session.submit(Pay("Ann", 10, "Zed"))
    assert len(session.journal.rows(session.game_id or 0)) == 1


def test_several_saved_games_and_export(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    session = Session(Journal(path))
    session.submit(GAME)
    first = session.game_id
    session.submit(Collect("Ann", 5))
    session.submit(NewGame("ru", ("Иван", "Мария")))
    second = session.game_id
    assert first != second and session.journal.current_game() == second
    assert [g.edition for g in session.journal.games()] == ["us", "ru"]
    script = session.journal.export_script(first or 0)
    assert [json.loads(line)["action"] for line in script.splitlines()] == ["new_game", "collect"]
    state = session.switch(first or 0)
    assert state.players[0].cash == 1505
    session.journal.close()


def test_a_committed_payment_survives_a_killed_process(tmp_path: Path) -> None:
    """The writer dies without closing (no checkpoint, no cleanup); the payment is there on restart."""
    path = tmp_path / "j.sqlite3"
    code = f"""
import os
from banker.actions import NewGame, Pay
from banker.journal import Journal
from banker.session import Session
s = Session(Journal({str(path)!r}))
s.submit(NewGame("us", ("Ann", "Bob")))
s.submit(Pay("Ann", 550, "Bob"))
os._exit(0)
"""
    subprocess.run([sys.executable, "-c", code], check=True)
    assert Path(str(path) + "-wal").exists()
    resumed = Session.resume(Journal(path))
    assert resumed.state is not None
    assert [p.cash for p in resumed.state.players] == [950, 2050]
    resumed.journal.close()


def test_concurrent_submits_are_serialized_and_all_journaled(tmp_path: Path) -> None:
    session = Session(Journal(tmp_path / "j.sqlite3"))
    session.submit(GAME)
    seen: list[int] = []
    session.subscribe(lambda state, events, action: seen.append(state.seq))

    def worker(name: str) -> None:
        for _ in range(50):
            session.submit(Collect(name, 1))

    threads = [threading.Thread(target=worker, args=(n,)) for n in ("Ann", "Bob", "Ann", "Bob")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert session.state is not None
    assert [p.cash for p in session.state.players] == [1600, 1600]
    assert seen == list(range(1, 201))
    assert len(session.journal.rows(session.game_id or 0)) == 201
    reloaded = session.journal.load(session.game_id or 0)
    assert state_to_json(reloaded) == state_to_json(session.state)
    session.journal.close()


def test_readers_take_a_snapshot_without_waiting(tmp_path: Path) -> None:
    session = Session(Journal(tmp_path / "j.sqlite3"))
    session.submit(GAME)
    blocker = threading.Event()
    release = threading.Event()

    def slow_subscriber(*_: object) -> None:
        blocker.set()
        release.wait(5)

    unsubscribe = session.subscribe(slow_subscriber)
    writer = threading.Thread(target=lambda: session.submit(Collect("Ann", 1)))
    writer.start()
    assert blocker.wait(5)
    snapshot = session.state  # the submit holds the lock; reading still works
    assert snapshot is not None and snapshot.players[0].cash in (1500, 1501)
    release.set()
    writer.join()
    unsubscribe()
    session.journal.close()


def test_short_game_deal_is_resolved_before_journaling(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    session = Session(Journal(path))
    session.submit(NewGame("us", ("Ann", "Bob"), {"short_game": True}))
    assert session.state is not None
    owners = state_to_json(session.state)["properties"]
    session.journal.close()
    again = Session.resume(Journal(path))
    assert again.state is not None
    assert state_to_json(again.state)["properties"] == owners
    again.journal.close()
