"""Every mutating endpoint × every kind of caller: only the allowed ones move anything.

The callers: Ann's own phone, another player's phone (Bob acting with Ann's money), a watcher, a
phone that never joined and sends no cookie, a forged cookie (signed with another key, claiming the
banker role), a tampered copy of the real banker's cookie, a player who tried a wrong PIN (the
banker without the PIN), and the banker. A refused request answers 400, 401 or 403 and leaves the
state, the journal, the trades and the table exactly as they were.
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

from banker.actions import ACTION_TYPES
from banker.session import Session
from tests.webui.conftest import PIN, Phone, do, snapshot
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import PLAYER_ACTIONS
from webui.openapi import example

ROLES = ("owner", "other_player", "watcher", "no_cookie", "forged_cookie", "tampered_cookie",
         "banker_without_pin", "banker")
REFUSED = (400, 401, 403)
COOKIE = "banker"


def caller(role: str, app: Flask, phone: Any, tmp_path: Path) -> Phone:
    if role == "owner":
        return phone("Ann")  # type: ignore[no-any-return]
    if role == "other_player":
        return phone("Bob")  # type: ignore[no-any-return]
    if role == "watcher":
        return phone(None)  # type: ignore[no-any-return]
    if role == "banker":
        return phone(None).banker()  # type: ignore[no-any-return]
    if role == "banker_without_pin":
        who: Phone = phone(None)
        assert who.post("/api/banker", {"pin": "0000"}).status_code == 403
        assert who.me()["role"] == "watcher"
        return who
    client: FlaskClient = app.test_client()
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
    real = phone(None).banker()
    cookie = real.client.get_cookie(COOKIE)
    assert cookie is not None
    value = cookie.value
    # Change one character of the signed payload: the signature no longer matches.
    flipped = value[:5] + ("A" if value[5] != "A" else "B") + value[6:]
    tampered = Phone(client, app)
    tampered.token = real.token
    client.set_cookie(COOKIE, flipped)
    return tampered


def allowed_action(role: str, name: str) -> bool:
    if role == "banker":
        return True
    return role == "owner" and (name in PLAYER_ACTIONS or name == "auction")


def world(session: Session, table: FakeTable, app: Flask) -> str:
    """Everything a request could change: the state, the journal's rows, the trades, the table."""
    svc = app.extensions["banker"]
    assert session.game_id is not None
    return json.dumps([snapshot(session), session.journal.action_lines(session.game_id),
                       [p.to_json() for p in svc.trades.of_game(session.game_id)],
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
    if allowed_action(role, name):
        assert response.status_code not in REFUSED, response.get_data(as_text=True)
    else:
        assert response.status_code in REFUSED, (response.status_code, response.get_data(as_text=True))
        assert world(prepared, table, app) == before
        assert "Traceback" not in response.get_data(as_text=True)


def test_the_matrix_has_allowed_cells_that_move_money(app: Flask, phone: Any, prepared: Session) -> None:
    """The matrix is not vacuous: the allowed callers really do move money."""
    before = snapshot(prepared)
    assert phone("Ann").act({"action": "salary", "player": "Ann"}).status_code == 200
    assert phone(None).banker().act({"action": "collect", "player": "Bob", "amount": 10}).status_code == 200
    assert snapshot(prepared) != before


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
        ("form", "/table/tap", {"meaning": "player:1"}, {"owner", "other_player", "watcher", "banker",
                                                          "banker_without_pin"}),
        ("form", "/table/press", {"button": "ok"}, {"owner", "other_player", "watcher", "banker",
                                                     "banker_without_pin"}),
    ]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("index", range(12))
def test_every_other_endpoint_by_every_caller(index: int, role: str, app: Flask, phone: Any, prepared: Session,
                                              table: FakeTable, tmp_path: Path) -> None:
    cy = phone("Cy")
    proposal = cy.post("/api/trades", {"from": "Cy", "to": "Bob", "give": {"cash": 5}, "take": {"cash": 1}})
    assert proposal.status_code == 200, proposal.get_json()
    kind, path, body, allowed = other_requests(prepared)[index]
    who = caller(role, app, phone, tmp_path)
    before = world(prepared, table, app)
    pin_before = prepared.journal.setting("webui_banker_pin")
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
        assert response.status_code in REFUSED, (response.status_code, text)
    else:
        # A form answers 400 (no session, no token) or goes back to the page with the refusal shown.
        assert response.status_code in (*REFUSED, 303), (response.status_code, text)
    assert world(prepared, table, app) == before
    assert prepared.journal.setting("webui_banker_pin") == pin_before
    assert PIN  # the PIN the banker callers used is still the one that works
    assert phone(None).banker().me()["role"] == "banker"
