"""A long game costs a page no more than a short one: what the pages of the whole game and the records read of
the journal (counted in SQLite's own steps, not timed) does not grow with the length of the game, nor does a
resume's; a long game's chart keeps a bounded number of points. The records, read again, read no more of a
journal of many games than of a few, and the Records page lists the saved games a page at a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from banker.actions import NewGame, parse_action
from banker.chronicle import SERIES_POINTS
from banker.journal import Journal
from banker.session import Session
from tests.webui.conftest import PIN, Phone, client_at
from webui import create_app
from webui.auth import set_pin

PAGES = ("/", "/history", "/api/history", "/end", "/api/scores", "/records", "/simple")


class Steps:
    """SQLite's virtual-machine steps on a journal's connection, in thousands."""

    def __init__(self, journal: Journal, every: int = 1000) -> None:
        self.count = 0

        def step() -> int:
            self.count += 1
            return 0

        journal._db.set_progress_handler(step, every)


def play(journal: Journal, games: int, actions: int) -> Session:
    session = Session(journal, clock=lambda: 1000.0)
    for _ in range(games):
        session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {}))
        for number in range(actions):
            session.submit(parse_action({"action": "collect", "player": ("Ann", "Bob", "Cy")[number % 3],
                                         "amount": 1 + number % 7}))
            if number % 37 == 36:
                session.submit(parse_action({"action": "undo"}))
    return session


def steps_of_pages(tmp_path: Path, games: int, actions: int) -> dict[str, int]:
    path = tmp_path / f"{games}x{actions}.sqlite3"
    with Journal(path) as journal:
        play(journal, games, actions)
        set_pin(journal, PIN)
    with Journal(path) as journal:
        steps = Steps(journal)
        session = Session.resume(journal)
        found = {"resume": steps.count}
        app = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        phone = Phone(client_at(app), app).join("Ann")
        for page in PAGES:
            before = steps.count
            assert phone.client.get(page).status_code == 200, page
            found[page] = steps.count - before
    return found


def test_the_pages_of_the_whole_game_read_no_more_of_a_long_game(tmp_path: Path) -> None:
    short = steps_of_pages(tmp_path, 1, 300)
    long = steps_of_pages(tmp_path, 1, 3000)
    for page, count in long.items():
        assert count <= 2 * short[page] + 5, (page, short[page], count)


def test_the_records_read_no_more_of_long_games(tmp_path: Path) -> None:
    short = steps_of_pages(tmp_path, 6, 100)
    long = steps_of_pages(tmp_path, 6, 1000)
    assert long["/records"] <= 2 * short["/records"] + 5, (short["/records"], long["/records"])


@pytest.fixture
def long_game(tmp_path: Path) -> Any:
    with Journal(tmp_path / "long.sqlite3") as journal:
        session = play(journal, 1, 2500)
        app = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        set_pin(journal, PIN)
        yield session, Phone(client_at(app), app).join("Ann")


def test_a_long_games_chart_has_a_bounded_number_of_points(long_game: Any) -> None:
    session, phone = long_game
    series = phone.client.get("/api/scores").get_json()["series"]
    assert SERIES_POINTS <= len(series) <= 2 * SERIES_POINTS + 1
    assert series[0] == {"seq": 0, "Ann": 1500, "Bob": 1500, "Cy": 1500}
    state = session.state
    assert series[-1]["seq"] == state.seq and series[-1]["Ann"] == state.players[0].cash
    page = phone.client.get("/end").get_data(as_text=True)
    assert "<polyline" in page


def steps_of_records_again(tmp_path: Path, games: int) -> dict[str, int]:
    """SQLite's steps (in tens) of /records and /end read again, the saved games unchanged since."""
    path = tmp_path / f"{games}-games.sqlite3"
    with Journal(path) as journal:
        play(journal, games, 12)
        set_pin(journal, PIN)
    with Journal(path) as journal:
        session = Session.resume(journal)
        app = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        phone = Phone(client_at(app), app).join("Ann")
        for page in ("/records", "/end"):
            assert phone.client.get(page).status_code == 200
        session.submit(parse_action({"action": "collect", "player": "Bob", "amount": 5}))  # the game played goes on
        steps = Steps(journal, 10)
        found = {}
        for page in ("/records", "/end"):
            before = steps.count
            assert phone.client.get(page).status_code == 200, page
            found[page] = steps.count - before
    return found


def test_the_records_read_again_read_no_more_of_many_saved_games(tmp_path: Path) -> None:
    few = steps_of_records_again(tmp_path, 3)
    many = steps_of_records_again(tmp_path, 60)
    for page, count in many.items():
        assert count <= few[page] + 2, (page, few[page], count)


def test_the_records_page_lists_the_latest_games_a_page_at_a_time(tmp_path: Path) -> None:
    from webui.family import GAMES_SHOWN

    with Journal(tmp_path / "many.sqlite3") as journal:
        session = play(journal, GAMES_SHOWN + 5, 1)
        set_pin(journal, PIN)
        app = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        phone = Phone(client_at(app), app).join("Ann")

        def games_listed(body: str) -> int:
            return body.split('data-testid="records-games"', 1)[1].split("</ol>", 1)[0].count("<li>")

        first = phone.client.get("/records").get_data(as_text=True)
        assert games_listed(first) == GAMES_SHOWN and f"Games saved: {GAMES_SHOWN + 5};" in first
        assert f'href="/records?skip={GAMES_SHOWN}">Older games<' in first and "The latest games" not in first
        older = phone.client.get(f"/records?skip={GAMES_SHOWN}").get_data(as_text=True)
        assert games_listed(older) == 5 and 'href="/records">The latest games<' in older
        assert "Older games" not in older
        assert games_listed(phone.client.get("/records?skip=９").get_data(as_text=True)) == GAMES_SHOWN


def test_a_saved_game_played_again_counts_in_the_records_as_it_is_now(tmp_path: Path) -> None:
    with Journal(tmp_path / "switch.sqlite3") as journal:
        session = play(journal, 2, 3)  # the second game is played
        set_pin(journal, PIN)
        app = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        phone = Phone(client_at(app), app).join("Ann")
        assert "actions 3," in phone.client.get("/records").get_data(as_text=True)
        first, second = (info.id for info in journal.games())
        session.switch(first)
        for _ in range(4):
            session.submit(parse_action({"action": "collect", "player": "Cy", "amount": 1}))
        session.switch(second)  # no page read in between
        assert "actions 7," in phone.client.get("/records").get_data(as_text=True)
