"""A long game costs a page no more than a short one: what the pages of the whole game and the records read of
the journal (counted in SQLite's own steps, not timed) does not grow with the length of the game, nor does a
resume's; a long game's chart keeps a bounded number of points."""

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

    def __init__(self, journal: Journal) -> None:
        self.count = 0

        def step() -> int:
            self.count += 1
            return 0

        journal._db.set_progress_handler(step, 1000)


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
