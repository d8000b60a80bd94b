"""Fixtures of the phone page tests: a session on a journal file, the app, and phones (test clients)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from banker.actions import NewGame, parse_action
from banker.export import state_to_json
from banker.journal import Journal
from banker.session import Session
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import set_pin
from webui.join import join_code

PIN = "2468"


class Phone:
    """One phone: a test client that has joined the table."""

    def __init__(self, client: FlaskClient, app: Flask) -> None:
        self.client = client
        self.app = app
        self.token = ""

    def me(self) -> dict[str, Any]:
        data: dict[str, Any] = self.client.get("/api/me").get_json()
        self.token = data["csrf_token"]
        return data

    def join(self, player: str | None, lang: str = "en") -> Phone:
        session: Session = self.app.extensions["banker"].session
        self.me()
        response = self.post("/api/join", {"code": join_code(session.journal), "player": player, "lang": lang},
                             key=False)
        assert response.status_code == 200, response.get_json()
        return self

    def post(self, path: str, body: Any, key: str | bool = True, token: bool = True) -> Any:
        headers = {}
        if token:
            headers["X-CSRFToken"] = self.token
        if key is True:
            headers["Idempotency-Key"] = uuid.uuid4().hex
        elif isinstance(key, str):
            headers["Idempotency-Key"] = key
        data = body if isinstance(body, (str, bytes)) else json.dumps(body)
        return self.client.post(path, data=data, headers=headers, content_type="application/json")

    def act(self, action: dict[str, Any], key: str | bool = True) -> Any:
        name = action["action"]
        return self.post(f"/api/actions/{name}", {k: v for k, v in action.items() if k != "action"}, key=key)

    def banker(self) -> Phone:
        response = self.post("/api/banker", {"pin": PIN})
        assert response.status_code == 200, response.get_json()
        return self


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "game.sqlite3") as j:
        yield j


@pytest.fixture
def session(journal: Journal) -> Session:
    s = Session(journal)
    s.submit(NewGame("us", ("Ann", "Bob", "Cy"), {}))
    set_pin(journal, PIN)
    return s


@pytest.fixture
def table(session: Session) -> FakeTable:
    return FakeTable(session)


@pytest.fixture
def app(session: Session, table: FakeTable, tmp_path: Path) -> Flask:
    return create_app(session, table, {"TESTING": True, "DATA_DIR": str(tmp_path), "KEEPALIVE": 0.2})


class AtClient(FlaskClient):
    """A test client that sends every request with the ``Host`` header ``host`` (when set)."""

    host = ""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        if self.host:
            kwargs["headers"] = {"Host": self.host, **dict(kwargs.get("headers") or {})}
        return super().open(*args, **kwargs)


def client_at(app: Flask, address: str = "127.0.0.1", host: str = "") -> FlaskClient:
    """A test client whose requests come from ``address`` (127.0.0.1: the computer that runs the table;
    127.0.0.2 and on stand in for the phones on the Wi-Fi) and name the table as ``host`` (default
    localhost)."""
    client = AtClient(app, app.response_class, use_cookies=True)
    client.environ_base["REMOTE_ADDR"] = address
    client.host = host
    return client


@pytest.fixture
def phone(app: Flask) -> Any:
    def make(player: str | None = "Ann", lang: str = "en", address: str = "127.0.0.1") -> Phone:
        return Phone(client_at(app, address), app).join(player, lang)

    return make


def snapshot(session: Session) -> str:
    assert session.state is not None
    return json.dumps(state_to_json(session.state), sort_keys=True)


def do(session: Session, **action: Any) -> None:
    session.submit(parse_action(action))
