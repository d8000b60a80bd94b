"""A full card is a clear state: a write that fails for space is :class:`CardFull` with nothing changed, new
actions are refused below the free-space reserve before SQLite fails, refusals are not written at all,
old answers are pruned, a resume writes nothing, and once there is room the journal saves again."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from banker import journal as journal_module
from banker.actions import Collect, NewGame, Salary
from banker.errors import BankerError, CardFull
from banker.export import state_to_json
from banker.journal import PRUNE_EVERY, REQUESTS_KEPT_S, Journal
from banker.session import Session
from tests.card import Card, card_fixture

card = pytest.fixture(card_fixture)


def rows(journal: Journal, table: str) -> int:
    with sqlite3.connect(journal.path) as db:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def answer(state: Any, events: Any) -> tuple[int, str]:
    return 200, json.dumps({"ok": True, "seq": state.seq})


def refusal(error: BankerError) -> tuple[int, str]:
    return 409, json.dumps({"error": error.key})


@pytest.fixture
def game(card: Card) -> Iterator[tuple[Card, Session]]:
    journal = card.open(reserve=0)
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    session.submit(Salary("Ann"))
    yield card, session
    card.free()
    journal.close()


def test_a_write_that_fails_for_space_is_card_full_and_changes_nothing(game: tuple[Card, Session]) -> None:
    card, session = game
    before = state_to_json(session.state)
    card.fill()
    for _ in range(3):
        # Not SQLite's "cannot rollback - no transaction is active" hiding the real error.
        with pytest.raises(CardFull, match="card is full: nothing was saved"):
            session.submit(Salary("Ann"))
        assert state_to_json(session.state) == before
    assert session.journal.space().full
    card.free()
    state, _ = session.submit(Salary("Ann"))
    assert state.seq == 2 and state_to_json(state)["players"]["Ann"]["cash"] == 1900
    assert not session.journal.space().full
    assert session.journal.load(session.game_id or 0) == state


def test_a_request_on_a_full_card_is_answered_and_goes_through_once_there_is_room(game: tuple[Card, Session]) -> None:
    card, session = game
    card.fill()
    status, body, replayed = session.submit_once(Salary("Bob"), "phone:key-1", answer, refusal)
    assert (status, json.loads(body), replayed) == (409, {"error": "card_full"}, False)
    card.free()
    # Not remembered as the request's answer: the same request is saved now.
    status, body, _ = session.submit_once(Salary("Bob"), "phone:key-1", answer, refusal)
    assert (status, json.loads(body)) == (200, {"ok": True, "seq": 2})
    assert session.submit_once(Salary("Bob"), "phone:key-1", answer, refusal)[2] is True


def test_below_the_reserve_new_actions_are_refused_before_sqlite_fails(card: Card) -> None:
    journal = card.open()
    assert 0 < journal.reserve <= 2 * 1024 * 1024 // 20
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    card.fill(leave=journal.reserve // 2)
    with pytest.raises(CardFull):
        session.submit(Salary("Ann"))
    assert journal.space().full and rows(journal, "actions") == 1
    with pytest.raises(CardFull):
        session.submit(NewGame("us", ("Cy", "Dee"), {}))
    assert rows(journal, "games") == 1
    card.free()
    assert not journal.space().full
    assert session.submit(Salary("Ann"))[0].seq == 1
    journal.close()


def test_a_resume_on_a_full_card_writes_nothing(card: Card) -> None:
    journal = card.open(reserve=0)
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    session.submit(Salary("Ann"))
    journal.close()
    card.fill()
    reopened = card.open(reserve=0)
    resumed = Session.resume(reopened)
    assert resumed.state is not None and resumed.state.seq == 1
    assert reopened.space().full
    card.free()
    reopened.close()


def test_a_refusal_is_not_written_to_the_journal(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob"), {}))
        size = (tmp_path / "j.sqlite3-wal").stat().st_size
        for number in range(300):
            status, _, _ = session.submit_once(Salary("Nobody"), f"phone:refused-{number}", answer, refusal)
            assert status == 409
        assert rows(journal, "requests") == 0
        assert (tmp_path / "j.sqlite3-wal").stat().st_size == size
        # Its retry still gets the first answer.
        assert session.submit_once(Salary("Nobody"), "phone:refused-7", answer, refusal) == (
            409, json.dumps({"error": "unknown_player"}), True)


def test_answers_older_than_a_day_are_pruned(tmp_path: Path) -> None:
    now = [1_000_000.0]
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal, clock=lambda: now[0])
        session.submit(NewGame("us", ("Ann", "Bob"), {}))
        for number in range(PRUNE_EVERY):
            now[0] += REQUESTS_KEPT_S / PRUNE_EVERY * 2
            session.submit_once(Salary("Ann"), f"phone:paid-{number}", answer, refusal, again=True)
        kept = rows(journal, "requests")
        assert kept < PRUNE_EVERY * 0.6
        # The latest answers are still there for their retries.
        assert session.submit_once(Salary("Ann"), f"phone:paid-{PRUNE_EVERY - 1}", answer, refusal)[2] is True


def test_the_wal_is_cut_back_once_a_checkpoint_has_gone_through(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader that holds the journal open (another connection's records read) lets the WAL grow past its size;
    once the reader is gone and SQLite's checkpoint has gone through, the WAL goes back to its limit instead of
    keeping the largest size it ever reached."""
    limit = 256 * 1024
    monkeypatch.setattr(journal_module, "WAL_LIMIT_BYTES", limit)
    path = tmp_path / "j.sqlite3"
    wal = tmp_path / "j.sqlite3-wal"
    with Journal(path) as journal:
        journal._db.execute("PRAGMA synchronous=OFF")  # speed: what is measured is the WAL's size
        journal._db.execute("PRAGMA wal_autocheckpoint=100")
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob"), {}))
        reader = sqlite3.connect(path, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM actions").fetchone()
        for _ in range(300):
            session.submit(Collect("Ann", 1))
        grown = wal.stat().st_size
        assert grown > 2 * limit
        reader.execute("COMMIT")
        reader.close()
        for _ in range(300):
            session.submit(Collect("Ann", 1))
        assert wal.stat().st_size <= limit < grown
        assert journal.load(journal.current_game() or 0).seq == 600
