"""The hostile phone, second round: the banker role. The first PIN set by several phones at once, a banker
action in flight during a PIN change, a copy of a cookie made before the phone became the banker, and the
role kept per game."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from tests.webui.conftest import PIN, Phone, client_at
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import PIN_SETTING, check_pin
from webui.join import join_code


def concurrently(calls: list[Any]) -> list[Any]:
    results: list[Any] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i: int) -> None:
        start.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def copy_of(phone: Phone, address: str) -> Phone:
    """Another client with a copy of ``phone``'s cookie as it is now."""
    copy = Phone(client_at(phone.app, address), phone.app)
    cookie = phone.client.get_cookie("banker")
    assert cookie is not None
    copy.client.set_cookie("banker", cookie.value)
    copy.me()
    return copy


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[tuple[Flask, Session]]:
    """A table with a game and no banker PIN yet."""
    with Journal(tmp_path / "fresh.sqlite3") as journal:
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {}))
        app = create_app(session, FakeTable(session), {"TESTING": True, "DATA_DIR": str(tmp_path)})
        yield app, session


def joined(app: Flask, address: str, player: str | None = None) -> Phone:
    who = Phone(client_at(app, address), app)
    who.me()
    session: Session = app.extensions["banker"].session
    answer = who.post("/api/join", {"code": join_code(session.journal), "player": player}, key=False)
    assert answer.status_code == 200
    who.me()
    return who


# --- 5. the first PIN, set by several phones at once -------------------------------------------------------

@pytest.mark.parametrize("round_", range(3))
def test_of_six_phones_setting_the_first_pin_at_once_one_is_the_banker(fresh: tuple[Flask, Session],
                                                                     round_: int) -> None:
    app, session = fresh
    phones = [joined(app, f"127.0.7.{i + 2}") for i in range(6)]
    pins = [f"{round_}{i}{i}{i}7" for i in range(6)]

    def by_api(p: Phone, pin: str) -> Any:
        return p.post("/api/banker/pin", {"pin": pin})

    def by_form(p: Phone, pin: str) -> Any:  # the Banker page's form; the Setup form calls the same
        return p.client.post("/banker", data={"do": "set_pin", "new_pin": pin, "csrf_token": p.token,
                                              "idem": uuid.uuid4().hex})

    answers = concurrently([lambda p=p, pin=pin, i=i: (by_api if i % 2 else by_form)(p, pin)
                            for i, (p, pin) in enumerate(zip(phones, pins, strict=True))])
    bankers = [i for i, p in enumerate(phones) if p.me()["banker"]]
    assert len(bankers) == 1, f"{len(bankers)} phones hold the role"
    stored = session.journal.setting(PIN_SETTING)
    assert stored is not None and check_pin(pins[bankers[0]], stored)  # the banker knows the PIN
    api_refused = [a for i, a in enumerate(answers) if i % 2 and i != bankers[0]]
    assert all(a.status_code == 403 for a in api_refused)
    assert {a.get_json()["error"] for a in api_refused} <= {"web_pin_taken", "web_banker_only"}


# --- 6. a banker action in flight during a PIN change ---------------------------------------------------------

def actions_after_a_pin_change(phone: Any, session: Session, pin: str, round_: int) -> list[int]:
    """Four copies of a banker's cookie send banker actions while another banker changes the PIN: the
    numbers of the actions answered 200 that were applied after the change had answered. Each round's
    phones have addresses of their own, so that no round meets the rate limit of an earlier one."""
    net = f"127.0.{10 + round_}"
    old = phone(None, address=f"{net}.2").banker()
    changer = phone(None, address=f"{net}.3").banker()
    copies = [copy_of(old, f"{net}.{20 + i}") for i in range(4)]
    changed = threading.Event()
    seq_after_change = [0]
    late: list[int] = []

    def hammer(p: Phone, worker: int) -> None:
        for n in range(1, 400):
            answer = p.act({"action": "collect", "player": "Ann", "amount": 1 + (worker * 1000 + n) % 500,
                            "again": True})
            if answer.status_code == 200 and changed.is_set() and answer.get_json()["seq"] > seq_after_change[0]:
                late.append(answer.get_json()["seq"])
            if answer.status_code == 403:
                return

    threads = [threading.Thread(target=hammer, args=(p, i)) for i, p in enumerate(copies)]
    for t in threads:
        t.start()
    assert changer.post("/api/banker/pin", {"pin": pin}).status_code == 200
    assert session.state is not None
    seq_after_change[0] = session.state.seq
    changed.set()
    for t in threads:
        t.join(60)
    assert not old.me()["banker"] and changer.me()["banker"]
    assert changer.post("/api/banker/pin", {"pin": PIN}).status_code == 200  # for the next round
    return late


def test_no_banker_action_of_a_phone_that_lost_the_role_lands_after_the_pin_change(phone: Any,
                                                                                   session: Session) -> None:
    late = [actions_after_a_pin_change(phone, session, f"97531{i}", i) for i in range(8)]
    assert all(not found for found in late), f"banker actions applied after the PIN change answered: {late}"


# --- 7. session fixation -----------------------------------------------------------------------------------

def test_a_copy_of_a_watchers_cookie_made_before_the_pin_is_not_the_banker(phone: Any) -> None:
    watcher = phone(None, address="127.0.0.5")
    copy = copy_of(watcher, "127.0.0.66")
    before = watcher.me()["phone"]
    watcher.banker()  # types the PIN
    assert watcher.me()["banker"] and watcher.me()["phone"] != before
    assert copy.me()["phone"] == before and not copy.me()["banker"]
    assert copy.act({"action": "collect", "player": "Ann", "amount": 1000}).status_code == 403


def test_a_copy_made_before_the_first_pin_is_not_the_banker(fresh: tuple[Flask, Session]) -> None:
    app, _ = fresh
    first = joined(app, "127.0.0.5")
    copy = copy_of(first, "127.0.0.66")
    assert first.post("/api/banker/pin", {"pin": "4826"}).status_code == 200
    assert first.me()["banker"] and not copy.me()["banker"]


# --- issue: the banker role kept per game --------------------------------------------------------------

def test_the_banker_of_two_games_is_the_banker_in_each_when_switching_back(phone: Any, session: Session) -> None:
    boris = phone(None, address="127.0.0.2").banker()
    first = session.game_id
    assert boris.act({"action": "new_game", "edition": "ru", "players": ["Борис", "Аня"]}).status_code == 200
    second = session.game_id
    assert second != first and boris.me()["banker"]
    session.switch(first or 0)
    assert boris.me()["banker"], "back in the first game the banker had to type the PIN again"
    session.switch(second or 0)
    assert boris.me()["banker"]
    other = phone(None, address="127.0.0.9")
    assert not other.me()["banker"]  # the role is still one game's: a phone granted nothing has none


def test_an_older_journal_keeps_its_grant_when_it_is_opened(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE banker_grants (phone TEXT PRIMARY KEY, game INTEGER NOT NULL, "
                   "generation INTEGER NOT NULL, at REAL NOT NULL)")
        db.execute("INSERT INTO banker_grants VALUES ('phone-1', 1, 0, 5.0)")
    with Journal(path) as journal:
        assert journal.holds_banker("phone-1", 1)
        journal.grant_banker("phone-1", 2, 6.0)
        assert journal.holds_banker("phone-1", 1) and journal.holds_banker("phone-1", 2)
