"""A phone whose player is not in the current game, a banker who plays nobody, and the stream's hello."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask

from banker.actions import NewGame
from banker.session import Session
from tests.webui.conftest import Phone, do
from tests.webui.fake_table import FakeTable
from webui import create_app

PAGES = ("/", "/deeds", "/money", "/debts", "/trades", "/auction", "/strategy", "/history", "/more")


def test_a_phone_whose_player_left_the_game_is_on_no_error_page(phone: Any, session: Session) -> None:
    cy = phone("Cy")
    watcher = phone(None)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))  # the table starts another game: no Cy in it
    for path in PAGES:
        answer = cy.client.get(path)
        page = answer.get_data(as_text=True)
        assert answer.status_code == 200, path
        assert "There is no player" not in page, path
        assert "Cy does not play in this game: pick your player, or watch." in page, path
        assert 'href="/join"' in page, path
        assert "does not play in this game" not in watcher.client.get(path).get_data(as_text=True)
    me = cy.me()
    assert me["role"] == "watcher" and me["player"] is None and me["not_in_game"] == "Cy"
    pick = cy.client.get("/join").get_data(as_text=True)
    assert 'value="Ann"' in pick and 'value="Bob"' in pick  # it can pick a player of this game


def test_the_phone_plays_again_when_its_player_is_back(phone: Any, session: Session) -> None:
    cy = phone("Cy")
    first = session.game_id
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    assert cy.me()["player"] is None
    assert first is not None
    session.switch(first)
    assert cy.me()["player"] == "Cy"
    assert cy.act({"action": "salary", "player": "Cy"}).status_code == 200


def test_a_banker_who_plays_nobody_has_the_banks_tools(phone: Any, session: Session) -> None:
    banker = phone(None).banker()
    do(session, action="pay", player="Bob", amount=1600, to="bank")  # more than Bob has: a debt
    money = banker.client.get("/money").get_data(as_text=True)
    assert "Pick your player to see this page." not in money
    assert 'value="collect"' in money and "Pay from the bank" in money
    assert "You are the banker and play no player" in money
    debts = banker.client.get("/debts").get_data(as_text=True)
    assert "Pick your player to see this page." not in debts
    assert 'data-testid="debts-of-Bob"' in debts and 'data-testid="debts-of-Ann"' not in debts
    assert 'name="player" value="Bob"' in debts
    assert banker.act({"action": "collect", "player": "Bob", "amount": 200}).status_code == 200
    assert banker.act({"action": "pay_debt", "player": "Bob"}).status_code == 200
    state = session.state
    assert state is not None and not state.debts
    assert "Nobody owes anything." in banker.client.get("/debts").get_data(as_text=True)


def test_a_watcher_who_is_not_the_banker_still_picks_a_player(phone: Any) -> None:
    watcher = phone(None)
    for path in ("/money", "/debts"):
        assert "Pick your player to see this page." in watcher.client.get(path).get_data(as_text=True)


def stream_hello(app: Flask) -> dict[str, Any]:
    client = Phone(app.test_client(), app).join(None).client
    response = client.get("/api/stream", buffered=False)
    first = next(iter(response.response)).decode()
    response.close()
    assert first.startswith(": connected")
    block = first.split("event: hello\n", 1)[1].split("\n\n", 1)[0]
    data: dict[str, Any] = json.loads(block.removeprefix("data: "))
    return data


def test_every_stream_starts_with_the_programs_instance(session: Session, tmp_path: Path) -> None:
    table = FakeTable(session)
    first = create_app(session, table, {"TESTING": True, "DATA_DIR": str(tmp_path), "KEEPALIVE": 0.2})
    again = create_app(session, table, {"TESTING": True, "DATA_DIR": str(tmp_path), "KEEPALIVE": 0.2})
    one, other = stream_hello(first), stream_hello(again)
    assert one["instance"] and one["instance"] == stream_hello(first)["instance"]
    assert other["instance"] != one["instance"]  # a restart is a new instance
    assert one["frame"] == table.frame_number
