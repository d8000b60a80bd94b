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


# --- what the table decides and keeps: the banker role, wrong guesses, damaged rows, unusable files ------------

def test_the_banker_role_is_granted_per_game_and_generation(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        journal.grant_banker("phone-a", None, 1.0)
        assert journal.holds_banker("phone-a", None) and not journal.holds_banker("phone-a", 1)
        journal.grant_banker("phone-a", 1, 2.0)
        journal.grant_banker("phone-b", 1, 2.0)
        assert journal.holds_banker("phone-a", 1) and journal.holds_banker("phone-b", 1)
        assert journal.end_banker_grants() == 1
        assert not journal.holds_banker("phone-a", 1) and not journal.holds_banker("phone-b", 1)
        journal.grant_banker("phone-b", 1, 3.0)
    with Journal(tmp_path / "j.sqlite3") as journal:  # kept across a restart
        assert journal.holds_banker("phone-b", 1) and journal.banker_generation() == 1


def test_misses_are_counted_atomically(tmp_path: Path) -> None:
    from banker.journal import Miss

    with Journal(tmp_path / "j.sqlite3") as journal:
        def count(current: dict[str, Miss]) -> tuple[dict[str, Miss | None], int]:
            seen = current.get("k", Miss(0, 0.0, 0.0)).count
            return {"k": Miss(seen + 1, 0.0, 1.0)}, seen

        seen: list[int] = []
        threads = [threading.Thread(target=lambda: seen.append(journal.update_misses(["k"], count)))
                   for _ in range(50)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(seen) == list(range(50))
        assert journal.forget_misses(before=2.0) == 1


def test_a_damaged_row_is_set_aside_and_the_game_goes_on(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "j.sqlite3"
    session = Session(Journal(path))
    session.submit(GAME)
    for amount in (1, 2, 3, 4, 5):
        session.submit(Pay("Ann", amount, "Bob"))
    session.journal.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE actions SET action = '{\"action\": \"pay\", \"pla' WHERE seq = 4")
    resumed = Session.resume(Journal(path))
    assert resumed.state is not None and resumed.state.seq == 3
    assert resumed.state.players[1].cash == 1500 + 1 + 2 + 3
    damage = resumed.journal.damage(resumed.game_id)
    assert damage is not None and (damage.first_seq, damage.lost, damage.key) == (4, 2, "bad_json")
    resumed.submit(Pay("Ann", 10, "Bob"))  # playable: the next action takes the place of the lost ones
    resumed.journal.close()
    again = Session.resume(Journal(path))
    assert again.state is not None and again.state.seq == 4 and again.state.players[1].cash == 1516
    assert again.journal.damage(again.game_id) == damage  # still says what was lost
    again.journal.close()


def test_a_row_the_rules_refuse_is_set_aside_too(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "j.sqlite3"
    session = Session(Journal(path))
    session.submit(GAME)
    session.submit(Pay("Ann", 1, "Bob"))
    session.submit(Pay("Ann", 2, "Bob"))
    session.journal.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE actions SET action = '{\"action\": \"pay\", \"player\": \"Zed\", \"amount\": 1, "
                   "\"to\": \"Bob\"}' WHERE seq = 2")
    resumed = Session.resume(Journal(path))
    assert resumed.state is not None and resumed.state.seq == 1
    damage = resumed.journal.damage(resumed.game_id)
    assert damage is not None and damage.first_seq == 2 and damage.lost == 1
    resumed.journal.close()


def test_a_game_whose_first_row_is_damaged_leaves_a_table_without_a_game(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "j.sqlite3"
    session = Session(Journal(path))
    session.submit(GAME)
    session.journal.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE actions SET action = 'junk' WHERE seq = 0")
    resumed = Session.resume(Journal(path))
    assert resumed.state is None
    damage = resumed.journal.damage(resumed.journal.current_game())
    assert damage is not None and damage.first_seq == 0
    resumed.submit(GAME)  # a new game can be started
    resumed.journal.close()


def test_files_that_are_not_a_journal_are_named(tmp_path: Path) -> None:
    from banker.journal import JournalError

    (tmp_path / "text.sqlite3").write_bytes(b"not a database at all" * 50)
    (tmp_path / "dir.sqlite3").mkdir()
    (tmp_path / "file").write_text("x")
    for path, problem in ((tmp_path / "text.sqlite3", "is not a journal"), (tmp_path / "dir.sqlite3", "is a directory"),
                          (tmp_path / "file" / "j.sqlite3", "cannot make the directory")):
        with pytest.raises(JournalError, match=problem):
            Journal(path)


def test_a_journal_from_before_request_digests_opens(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE requests (key TEXT PRIMARY KEY, status INTEGER NOT NULL, body TEXT NOT NULL, "
                   "at REAL NOT NULL)")
        db.execute("INSERT INTO requests VALUES ('k', 200, '{}', 1.0)")
    with Journal(path) as journal:
        assert journal.request_with_digest("k") == (200, "{}", None)
        journal.record_request("k2", 409, "{}", 2.0, "abc")
        assert journal.request_with_digest("k2") == (409, "{}", "abc")
