"""A hostile phone on the table's Wi-Fi, in-process: the limiter of wrong guesses, the join code, the
banker role held by the table, reused idempotency keys, redirects, what an unjoined phone sees.
(The same attacks against a real ``banker run --simulated``: test_attacks.py.)"""

from __future__ import annotations

import threading
import uuid
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from tests.webui.conftest import PIN, Phone, client_at, snapshot
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import Limiter, set_pin
from webui.guard import host_is_the_table, own_address, table_names
from webui.join import CODE_ALPHABET, join_code


def wrong(code: str) -> str:
    return "".join(CODE_ALPHABET[(CODE_ALPHABET.index(c) + 1) % len(CODE_ALPHABET)] for c in code)


def stranger(app: Flask, address: str) -> Phone:
    who = Phone(client_at(app, address), app)
    who.me()
    return who


def guess(who: Phone, code: str) -> int:
    return int(who.post("/api/join", {"code": code, "player": None}, key=False).status_code)


# --- the limiter ------------------------------------------------------------------------------------------

def test_forty_wrong_codes_at_once_are_five_tries(app: Flask, session: Session) -> None:
    bad = wrong(join_code(session.journal))
    who = stranger(app, "127.0.0.50")
    statuses: list[int] = []
    start = threading.Barrier(40)

    def run() -> None:
        start.wait()
        statuses.append(guess(who, bad))

    threads = [threading.Thread(target=run) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(statuses) == [403] * 5 + [429] * 35


def test_many_addresses_gain_nothing(app: Flask, session: Session) -> None:
    bad = wrong(join_code(session.journal))
    statuses = [guess(stranger(app, f"127.0.1.{i}"), bad) for i in range(1, 41) for _ in range(5)]
    assert statuses.count(403) == Limiter.FREE_IN_ALL
    # The table is locked for everyone now; the right code waits too, and a new code lifts it.
    late = stranger(app, "127.0.2.1")
    assert guess(late, join_code(session.journal)) == 429
    app.extensions["banker"].codes.renew()
    assert guess(late, join_code(session.journal)) == 200


def test_the_count_survives_a_restart_and_is_not_evicted(tmp_path: Path) -> None:
    clock = [1000.0]
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        limiter = Limiter(journal, clock=lambda: clock[0])
        for _ in range(5):
            assert limiter.attempt("code:addr:127.0.0.9", "code:all") == 0
        assert 30 <= limiter.attempt("code:addr:127.0.0.9", "code:all") <= 31
        for i in range(10_050):  # a spray of addresses (each refused: the table is locked by then)
            limiter.attempt(f"code:addr:10.{i // 65536}.{i // 256 % 256}.{i % 256}", "code:all")
    with Journal(path) as journal:
        limiter = Limiter(journal, clock=lambda: clock[0])
        assert limiter.wait("code:addr:127.0.0.9", "code:none") > 0
        clock[0] += 31
        assert limiter.attempt("code:addr:127.0.0.9", "code:none") == 0  # the lock-out doubles after this miss
        assert 60 <= limiter.attempt("code:addr:127.0.0.9", "code:none") <= 61


def test_typos_in_one_tab_of_the_laptop_do_not_lock_out_the_right_code(app: Flask, session: Session) -> None:
    code = join_code(session.journal)
    tab = stranger(app, "127.0.0.1")
    assert [guess(tab, wrong(code)) for _ in range(6)] == [403] * 6  # wrong, never locked out
    # The tabs of one browser share its cookie: the right code in the next tab (the same cookie) joins.
    assert guess(tab, code) == 200
    other_tab = stranger(app, "127.0.0.1")  # another browser profile on the laptop: its own cookie
    assert guess(other_tab, code) == 200
    table_page = client_at(app, "127.0.0.1")
    assert table_page.get("/table").status_code == 200
    assert table_page.get("/api/me").get_json()["joined"]
    # A phone on the Wi-Fi is counted by its address, whatever cookies it shows.
    phone = stranger(app, "127.0.0.60")
    for _ in range(5):
        guess(phone, wrong(code))
    assert guess(stranger(app, "127.0.0.60"), code) == 429


def test_wrong_pins_are_counted_by_the_table(phone: Any, session: Session) -> None:
    statuses = [phone(None, address="127.0.0.70").post("/api/banker", {"pin": "0000"}).status_code
                for _ in range(7)]
    assert statuses == [403] * 5 + [429] * 2


# --- the join code --------------------------------------------------------------------------------------

def test_a_new_game_gets_a_new_code_and_the_banker_can_make_one(phone: Any, session: Session) -> None:
    banker = phone(None).banker()
    first = join_code(session.journal)
    assert banker.act({"action": "new_game", "edition": "us", "players": ["Dee", "Eve"]}).status_code == 200
    second = join_code(session.journal)
    assert second != first
    page = banker.client.get("/banker").get_data(as_text=True)
    assert 'value="new_code"' in page
    form = {"csrf_token": banker.token, "idem": uuid.uuid4().hex, "do": "new_code"}
    assert banker.client.post("/banker", data=form).status_code == 303
    assert join_code(session.journal) not in (first, second)
    assert banker.me()["joined"]  # a phone that joined stays joined


def test_the_first_game_keeps_the_code_the_table_started_with(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal)
        app = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        code = join_code(journal)
        session.submit(NewGame("us", ("Ann", "Bob")))
        assert join_code(journal) == code
        heard: list[str] = []
        app.extensions["banker"].codes.listen(heard.append)
        session.submit(NewGame("us", ("Ann", "Bob")))
        assert heard == [join_code(journal)] and heard[0] != code


# --- the banker role ---------------------------------------------------------------------------------------

def test_a_saved_cookie_loses_the_role_with_leave_and_with_a_new_pin(app: Flask, phone: Any,
                                                                     session: Session) -> None:
    banker = phone(None, address="127.0.0.80").banker()
    saved = banker.client.get_cookie("banker")
    assert saved is not None
    assert banker.post("/api/banker", {"leave": True}).status_code == 200
    replay = Phone(client_at(app, "127.0.0.80"), app)
    replay.client.set_cookie("banker", saved.value)
    assert replay.me()["banker"] is False
    before = snapshot(session)
    replay.token = replay.me()["csrf_token"]
    assert replay.act({"action": "collect", "player": "Ann", "amount": 1000}).status_code == 403
    assert snapshot(session) == before
    # A new PIN: the role is taken from every phone that had it, the one that changed it excepted.
    first, second = phone(None).banker(), phone(None).banker()
    assert first.post("/api/banker/pin", {"pin": "97531"}).status_code == 200
    assert first.me()["banker"] and not second.me()["banker"]


def test_the_role_is_kept_by_the_table_across_a_restart(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob")))
        set_pin(journal, PIN)
        app = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        banker = Phone(app.test_client(), app).join(None).banker()
        cookie = banker.client.get_cookie("banker")
        assert cookie is not None
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session.resume(journal)
        again = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        phone = Phone(again.test_client(), again)
        phone.client.set_cookie("banker", cookie.value)
        assert phone.me()["banker"] is True


# --- requests the API refuses --------------------------------------------------------------------------------

def test_a_reused_key_with_another_body_is_422(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    key = uuid.uuid4().hex
    assert ann.act({"action": "pay", "player": "Ann", "amount": 1, "to": "Bob"}, key=key).status_code == 200
    before = snapshot(session)
    again = ann.act({"action": "pay", "player": "Ann", "amount": 500, "to": "Bob"}, key=key)
    assert again.status_code == 422
    assert again.get_json()["error"] == "idempotency_key_reused" and "new key" in again.get_json()["message"]
    assert snapshot(session) == before
    same = ann.act({"action": "pay", "player": "Ann", "amount": 1, "to": "Bob"}, key=key)
    assert same.status_code == 200 and same.headers["Idempotent-Replayed"] == "true"
    # The same for a trade proposal (journaled like every action).
    trade_key = uuid.uuid4().hex
    assert ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"cash": 5}}, key=trade_key).status_code == 200
    other = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"cash": 50}}, key=trade_key)
    assert other.status_code == 422 and other.get_json()["error"] == "idempotency_key_reused"


@pytest.mark.parametrize("body", [
    b'{"player": "Ann", "amount": 1, "to": "Bob", "amount": 999999999}',
    b'{"player": "Ann", "amount": 1, "to": "Bob", "reason": "' + b"x" * 15_000 + b'"}',
    b'{"player": "Ann", "amount": 1, "to": "Bob", "reason": "\\u202e005,1$"}',
    b'{"player": "Ann", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}",
])
def test_the_api_refuses_what_replay_refuses(body: bytes, phone: Any, session: Session) -> None:
    before = snapshot(session)
    response = phone(None).banker().post("/api/actions/pay", body)
    assert response.status_code == 422, response.get_json()
    assert snapshot(session) == before


def test_nested_json_anywhere_is_not_a_crash(phone: Any) -> None:
    ann = phone("Ann")
    deep = b"[" * 5000 + b"]" * 5000
    for path in ("/api/join", "/api/banker", "/api/trades", "/api/banker/pin"):
        assert ann.post(path, deep).status_code in (400, 422)


@pytest.mark.parametrize("players", [["Ann", "\u0410nn"], ["Ann", "Ann\u200b"], ["\u202eAnn", "Bob"],
                                     ["Ann", "B" * 21], ["Ann", "Bo\nb"]])
def test_the_setup_page_refuses_the_names_replay_refuses(players: list[str], phone: Any, session: Session) -> None:
    banker = phone(None).banker()
    before = snapshot(session)
    fields = [("csrf_token", banker.token), ("idem", uuid.uuid4().hex), ("edition", "us"),
              *(("players", name) for name in players)]
    response = banker.client.post("/setup", data=MultiDict(fields))
    assert response.status_code == 303
    assert snapshot(session) == before


def test_a_form_that_gives_a_field_twice_is_refused(phone: Any, session: Session) -> None:
    banker = phone(None).banker()
    before = snapshot(session)
    fields = [("csrf_token", banker.token), ("idem", uuid.uuid4().hex), ("action", "pay"), ("player", "Ann"),
              ("amount", "1"), ("to", "Bob"), ("amount", "999")]
    assert banker.client.post("/do", data=MultiDict(fields)).status_code == 303
    assert snapshot(session) == before


@pytest.mark.parametrize("target", ["/\n/x", "/\r\n/x", "/\t/evil.example", "/\\evil.example", "//evil.example",
                                    "/ /evil.example", "https://evil.example", "/\u3000/x"])
def test_next_stays_on_the_table(target: str, phone: Any) -> None:
    ann = phone("Ann")
    response = ann.client.post("/lang", data={"csrf_token": ann.token, "lang": "en", "next": target})
    assert response.status_code == 303
    assert response.headers["Location"] in ("/", "http://localhost/")


def test_an_unjoined_phone_sees_no_names(app: Flask, session: Session) -> None:
    client = client_at(app, "127.0.0.90")
    me = client.get("/api/me").get_json()
    assert me["players"] == [] and not me["joined"]
    assert ">Ann<" not in client.get("/join").get_data(as_text=True)
    client.get(f"/j/{join_code(session.journal)}")
    assert client.get("/api/me").get_json()["players"] == ["Ann", "Bob", "Cy"]  # came with the code


# --- who is the table ------------------------------------------------------------------------------------------

def test_the_tables_own_addresses_and_names() -> None:
    assert own_address("127.0.0.1") and own_address("::1") and own_address("::ffff:127.0.0.1")
    assert not own_address("127.0.0.5") and not own_address("192.0.2.1") and not own_address("junk")
    names = table_names(["banker.example:8080"])
    for host in ("localhost:8080", "127.0.0.1", "[::1]:80", "banker.example", "table.localhost"):
        assert host_is_the_table(host, names), host
    for host in ("evil.example", "192.0.2.1:8080", "127.0.0.1.evil.example", "", "[::2]"):
        assert not host_is_the_table(host, names), host


def test_the_simulated_tables_buttons_are_the_laptops(app: Flask, phone: Any, session: Session,
                                                      table: FakeTable) -> None:
    ann = phone("Ann", address="127.0.0.95")
    assert ann.client.get("/table").status_code == 200  # a phone may watch the table's screen
    assert ann.client.get("/table/frame.png").status_code == 200
    form = {"csrf_token": ann.token, "idem": uuid.uuid4().hex, "button": "ok"}
    assert ann.client.post("/table/press", data=form).status_code == 403
    assert ann.client.post("/table/tap", data={**form, "meaning": "player:1"}).status_code == 403
    assert table.presses == []
    rebound = client_at(app, "127.0.0.1", "evil.example")
    assert rebound.post("/table/press", data=form).status_code == 421
    laptop = Phone(client_at(app, "127.0.0.1"), app)
    laptop.client.get("/table")
    laptop.me()
    press = {"csrf_token": laptop.token, "idem": uuid.uuid4().hex, "button": "ok"}
    assert laptop.client.post("/table/press", data=press).status_code == 303
    assert table.presses == [("ok", False)]


def test_a_limiter_of_another_table_is_not_shared(tmp_path: Path) -> None:
    """Each journal keeps its own counts (two tables on one laptop)."""
    with Journal(tmp_path / "a.sqlite3") as a, Journal(tmp_path / "b.sqlite3") as b:
        for _ in range(5):
            Limiter(a).attempt("pin:addr:x", "pin:all")
        assert Limiter(a).wait("pin:addr:x", "pin:all") > 0
        assert Limiter(b).wait("pin:addr:x", "pin:all") == 0
