"""Every mutating endpoint × every kind of caller: only the allowed ones move anything.

The callers are phones on the Wi-Fi (each from an address of its own, 127.0.0.2 and on) unless said
otherwise: Ann's own phone, another player's phone (Bob acting with Ann's money), a watcher, a
phone that never joined and sends no cookie, a forged cookie (signed with another key, claiming the
banker role), a tampered copy of the real banker's cookie, a player who tried a wrong PIN (the
banker without the PIN), the banker, a saved copy of the banker's cookie after it stopped being the
banker, a banker's cookie from before the PIN was changed, the banker's own phone asked under a
foreign name (a page elsewhere whose name points at the table: DNS rebinding), and the browser on
the computer that runs the table (127.0.0.1), which alone presses the simulated table's buttons.
A refused request answers 400, 401, 403 or 421 and leaves the state, the journal, the trades and
the table exactly as they were.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from flask.testing import FlaskClient

from banker.actions import ACTION_TYPES, parse_action
from banker.choice import NotOffered, offered
from banker.errors import BankerError
from banker.session import Session
from tests.webui.conftest import PIN, AtClient, Phone, client_at, do, snapshot
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import set_pin
from webui.join import join_code
from webui.openapi import example

ROLES = ("owner", "other_player", "watcher", "no_cookie", "forged_cookie", "tampered_cookie",
         "banker_without_pin", "banker", "saved_banker_cookie", "banker_before_pin_change", "rebound_banker",
         "table_computer")
REFUSED = (400, 401, 403, 421)
COOKIE = "banker"
ADDRESSES = {role: f"127.0.0.{2 + i}" for i, role in enumerate(ROLES)}
"""Each caller is a device of its own on the Wi-Fi (the loopback addresses stand in for them)."""


def copy_of(phone: Phone, app: Flask, address: str) -> Phone:
    """Another client with a copy of ``phone``'s cookie (a cookie saved and replayed later)."""
    cookie = phone.client.get_cookie(COOKIE)
    assert cookie is not None
    copy = Phone(client_at(app, address), app)
    copy.client.set_cookie(COOKIE, cookie.value)
    copy.token = phone.token
    return copy


def caller(role: str, app: Flask, phone: Any, tmp_path: Path) -> Phone:
    address = ADDRESSES[role]
    if role == "owner":
        return phone("Ann", address=address)  # type: ignore[no-any-return]
    if role == "other_player":
        return phone("Bob", address=address)  # type: ignore[no-any-return]
    if role == "watcher":
        return phone(None, address=address)  # type: ignore[no-any-return]
    if role == "banker":
        return phone(None, address=address).banker()  # type: ignore[no-any-return]
    if role == "banker_without_pin":
        who: Phone = phone(None, address=address)
        assert who.post("/api/banker", {"pin": "0000"}).status_code == 403
        assert who.me()["role"] == "watcher"
        return who
    if role == "saved_banker_cookie":
        real = phone(None, address=address).banker()
        saved = copy_of(real, app, address)
        assert real.post("/api/banker", {"leave": True}).status_code == 200
        assert saved.me()["role"] == "watcher"
        return saved
    if role == "banker_before_pin_change":
        old = phone(None, address=address).banker()
        set_pin(app.extensions["banker"].session.journal, PIN)  # the banker saves the PIN again: a new generation
        assert old.me()["role"] == "watcher"
        return old
    if role == "rebound_banker":
        real = phone(None, address=address).banker()
        assert isinstance(real.client, AtClient)
        real.client.host = "evil.example"
        return real
    if role == "table_computer":
        laptop = Phone(client_at(app, "127.0.0.1"), app)
        assert laptop.client.get("/table").status_code == 200
        assert laptop.me()["role"] == "watcher"
        return laptop
    client: FlaskClient = client_at(app, address)
    if role == "no_cookie":
        return Phone(client, app)
    if role == "forged_cookie":
        other = create_app(app.extensions["banker"].session, None, {"DATA_DIR": str(tmp_path / "elsewhere")})
        serializer = SecureCookieSessionInterface().get_signing_serializer(other)
        assert serializer is not None
        forged = Phone(client, app)
        forged.token = "forged-token"
        client.set_cookie(COOKIE, serializer.dumps({"phone": "x1", "joined": True, "banker": True,
                                                     "player": "Ann", "csrf_token": "forged-token"}))
        return forged
    assert role == "tampered_cookie"
    real = phone(None, address=address).banker()
    cookie = real.client.get_cookie(COOKIE)
    assert cookie is not None
    value = cookie.value
    # Change one character of the signed payload: the signature no longer matches.
    flipped = value[:5] + ("A" if value[5] != "A" else "B") + value[6:]
    tampered = Phone(client, app)
    tampered.token = real.token
    client.set_cookie(COOKIE, flipped)
    return tampered


def allowed_action(role: str, name: str, session: Session) -> bool:
    """The banker sends anything; Ann's own phone what the engine offers Ann (or what the rules refuse anyway,
    answered 409 or 422 with their reason); nobody else anything."""
    if role == "banker":
        return True
    if role != "owner":
        return False
    assert session.state is not None
    action = parse_action(example_body(name))
    if (action.actor or getattr(action, "declined_by", None)) is None:
        return False  # the game's own action (closing an auction, a new game): the banker's
    try:
        offered(session.state, "Ann", action)
    except NotOffered:
        return False
    except BankerError:
        return True
    return True


def world(session: Session, table: FakeTable, app: Flask) -> str:
    """Everything a request could change: the state (the trade proposals with it), the journal's rows, the table."""
    assert session.game_id is not None and session.state is not None
    return json.dumps([snapshot(session), session.journal.action_lines(session.game_id),
                       [(p.id, p.trade.to_line(), p.refused, p.reason) for p in session.state.proposals],
                       table.presses, table.frame_number], sort_keys=True, default=str)


@pytest.fixture
def prepared(session: Session) -> Session:
    do(session, action="buy", player="Ann", property="baltic")
    do(session, action="buy", player="Ann", property="mediterranean")
    do(session, action="buy", player="Bob", property="park_place")
    return session


def example_body(name: str) -> dict[str, Any]:
    body = example(ACTION_TYPES[name])
    if name == "auction":
        body["declined_by"] = "Ann"
    if name == "new_game":
        body["players"] = ["Ann", "Bob"]
    return body


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(ACTION_TYPES))
def test_every_action_by_every_caller(name: str, role: str, app: Flask, phone: Any, prepared: Session,
                                      table: FakeTable, tmp_path: Path) -> None:
    who = caller(role, app, phone, tmp_path)
    before = world(prepared, table, app)
    response = who.act(example_body(name))
    if allowed_action(role, name, prepared):
        assert response.status_code not in REFUSED, response.get_data(as_text=True)
    else:
        assert response.status_code in REFUSED, (response.status_code, response.get_data(as_text=True))
        assert world(prepared, table, app) == before
        assert "Traceback" not in response.get_data(as_text=True)


def test_the_matrix_has_allowed_cells_that_move_money(app: Flask, phone: Any, prepared: Session,
                                                      table: FakeTable) -> None:
    """The matrix is not vacuous: the allowed callers really do move money and press the table's buttons."""
    before = snapshot(prepared)
    assert phone("Ann", address="127.0.0.9").act({"action": "salary", "player": "Ann"}).status_code == 200
    banker = phone(None, address="127.0.0.10").banker()
    assert banker.act({"action": "collect", "player": "Bob", "amount": 10}).status_code == 200
    assert snapshot(prepared) != before
    laptop = caller("table_computer", app, phone, Path("."))
    fields = {"csrf_token": laptop.token, "idem": uuid.uuid4().hex, "button": "up"}
    assert laptop.client.post("/table/press", data=fields).status_code == 303
    assert table.presses == [("up", False)]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "[::2]",
                                  "192.0.2.7", "localhost.evil", ""])
def test_every_page_under_a_foreign_name_is_refused(host: str, app: Flask, phone: Any, prepared: Session,
                                                    table: FakeTable) -> None:
    """DNS rebinding: a page elsewhere whose name points at the table reads nothing, joins nothing."""
    code = join_code(prepared.journal)
    visitor = client_at(app, "127.0.0.1", host)
    for path in ("/", "/join", "/table", "/table/frame.png", "/more", "/api/me", "/api/state", f"/j/{code}",
                 "/api/openapi.json", "/static/app.js"):
        response = visitor.get(path, headers={"Host": host})
        assert response.status_code == 421, (path, response.status_code)
        assert code not in response.get_data(as_text=True)
        assert visitor.get_cookie(COOKIE) is None


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8080", "[::1]:8080", "127.0.0.1", "LOCALHOST."])
def test_the_tables_own_names_are_served(host: str, app: Flask) -> None:
    assert client_at(app, "127.0.0.5", host).get("/api/openapi.json", headers={"Host": host}).status_code == 200


def test_the_banker_role_lasts_one_game(app: Flask, phone: Any, prepared: Session) -> None:
    starter = phone(None, address="127.0.0.20").banker()
    other = phone(None, address="127.0.0.21").banker()
    answer = starter.act({"action": "new_game", "edition": "us", "players": ["Dee", "Eve"]})
    assert answer.status_code == 200, answer.get_json()
    assert starter.me()["role"] == "banker"  # who starts the game is its banker
    assert other.me()["role"] == "watcher"  # a banker of the last game is not the banker of this one
    before = snapshot(prepared)
    assert other.act({"action": "collect", "player": "Dee", "amount": 1000}).status_code == 403
    assert snapshot(prepared) == before


def test_a_role_granted_at_the_table_is_the_tables(app: Flask, phone: Any, table: FakeTable) -> None:
    ann = phone("Ann", address="127.0.0.22")
    assert ann.post("/api/banker", {"ask": True}).status_code == 202
    who, answer = table.banker_questions[-1]
    answer(True)  # OK pressed on the table
    assert ann.me()["role"] == "banker"
    saved = copy_of(ann, app, "127.0.0.22")
    assert ann.post("/api/banker", {"leave": True}).status_code == 200
    assert saved.me()["role"] == "player"


def other_requests(session: Session) -> list[tuple[str, str, Any, set[str]]]:
    """(method kind, path, body, roles allowed) of every mutating endpoint besides the actions."""
    return [
        ("json", "/api/trades", {"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]},
                                 "take": {"cash": 10}}, {"owner", "banker"}),
        ("json", "/api/banker/pin", {"pin": "13579"}, {"banker"}),
        ("json", "/api/banker", {"pin": "0000"}, set()),
        ("json", "/api/trades/1/accept", {}, {"other_player", "banker"}),  # Cy's proposal to Bob
        ("json", "/api/trades/1/cancel", {}, {"banker"}),
        ("form", "/do", {"action": "salary", "player": "Ann"}, {"owner", "banker"}),
        ("form", "/do", {"action": "collect", "player": "Ann", "amount": "50"}, {"banker"}),
        ("form", "/trades/propose", {"to": "Bob", "give_properties": "baltic"}, {"owner"}),
        ("form", "/banker", {"do": "pin", "pin": "13579"}, {"banker"}),
        ("form", "/setup", {"edition": "us", "players": "X\nY"}, {"banker"}),
        # The simulated table's controls: only for the computer that runs the table.
        ("form", "/table/tap", {"meaning": "player:1"}, {"table_computer"}),
        ("form", "/table/press", {"button": "ok"}, {"table_computer"}),
        ("form", "/table/press", {"button": "cancel", "long": "1"}, {"table_computer"}),
        ("form", "/banker", {"do": "new_code"}, {"banker"}),
        ("form", "/banker", {"do": "set_pin", "new_pin": "13579"}, {"banker"}),
        ("json", "/api/trades/1/refuse", {}, {"other_player", "banker"}),
    ]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("index", range(len(other_requests(None))))  # type: ignore[arg-type]
def test_every_other_endpoint_by_every_caller(index: int, role: str, app: Flask, phone: Any, prepared: Session,
                                              table: FakeTable, tmp_path: Path) -> None:
    cy = phone("Cy", address="127.0.1.1")
    proposal = cy.post("/api/trades", {"from": "Cy", "to": "Bob", "give": {"cash": 5}, "take": {"cash": 1}})
    assert proposal.status_code == 200, proposal.get_json()
    kind, path, body, allowed = other_requests(prepared)[index]
    who = caller(role, app, phone, tmp_path)
    before = world(prepared, table, app)
    pin_before = prepared.journal.setting("webui_banker_pin")
    code_before = join_code(prepared.journal)
    if kind == "json":
        response = who.post(path, body)
    else:
        headers = {"X-CSRFToken": who.token}
        response = who.client.post(path, data={**body, "idem": uuid.uuid4().hex}, headers=headers)
    text = response.get_data(as_text=True)
    assert "Traceback" not in text
    if role in allowed:
        assert response.status_code not in REFUSED, text
        return
    if kind == "json":
        # A player's answer to a proposal that is not theirs to answer is refused with the rules' reason (409).
        rules = (409,) if path.startswith("/api/trades/") and role in ("owner", "other_player") else ()
        assert response.status_code in (*REFUSED, *rules), (response.status_code, text)
    else:
        # A form answers 400 (no session, no token) or goes back to the page with the refusal shown.
        assert response.status_code in (*REFUSED, 303), (response.status_code, text)
    assert world(prepared, table, app) == before
    assert prepared.journal.setting("webui_banker_pin") == pin_before
    assert join_code(prepared.journal) == code_before
    assert PIN  # the PIN the banker callers used is still the one that works
    assert phone(None, address="127.0.1.2").banker().me()["role"] == "banker"
