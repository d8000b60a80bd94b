"""The phones on a full card: "the table's card is full: nothing was saved" (HTTP 507) in the phone's language,
never "Done" for an action that was not saved, a fault listed on every page, and the same request saved
once there is room, without a restart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from banker.actions import NewGame
from banker.export import state_to_json
from banker.session import Session
from tests.card import Card, card_fixture
from tests.webui.conftest import PIN, Phone, client_at
from webui import create_app
from webui.auth import set_pin

card = pytest.fixture(card_fixture)

FULL = {"en": "The table's card is full: nothing was saved.",
        "ru": "Карта памяти стола заполнена: ничего не сохранено.",
        "bg": "Картата с памет на масата е пълна: нищо не е записано."}


@pytest.fixture
def table_on_card(card: Card, tmp_path: Path) -> Iterator[tuple[Card, Session, Flask]]:
    journal = card.open(reserve=0)
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {}))
    set_pin(journal, PIN)
    app = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
    yield card, session, app
    card.free()
    journal.close()


def phone_of(app: Flask, player: str, lang: str) -> Phone:
    return Phone(client_at(app, "127.0.0.1"), app).join(player, lang)


@pytest.mark.parametrize("lang", ["en", "ru", "bg"])
def test_an_action_on_a_full_card_answers_507_and_saves_once_there_is_room(
        table_on_card: tuple[Card, Session, Flask], lang: str) -> None:
    card, session, app = table_on_card
    ann = phone_of(app, "Ann", lang)
    before = state_to_json(session.state)
    card.fill()
    answer = ann.act({"action": "salary", "player": "Ann"}, key="salary-on-a-full-card")
    assert answer.status_code == 507
    assert answer.get_json()["error"] == "card_full"
    assert answer.get_json()["message"].startswith(FULL[lang])
    assert state_to_json(session.state) == before
    assert ann.me()["table_faults"][0].startswith(FULL[lang].split(":")[0])
    page = ann.client.get("/").get_data(as_text=True)
    assert 'data-testid="table-fault"' in page
    card.free()
    again = ann.act({"action": "salary", "player": "Ann"}, key="salary-on-a-full-card")
    assert again.status_code == 200, again.get_json()
    assert state_to_json(session.state)["players"]["Ann"]["cash"] == 1700
    assert ann.me()["table_faults"] == []


def test_a_form_on_a_full_card_never_says_done(table_on_card: tuple[Card, Session, Flask]) -> None:
    card, session, app = table_on_card
    ann = phone_of(app, "Ann", "en")
    card.fill()
    answer = ann.client.post("/do", data={"action": "salary", "idem": "form-salary-1", "csrf_token": ann.token},
                             follow_redirects=True)
    page = answer.get_data(as_text=True)
    assert FULL["en"].replace("'", "&#39;") in page
    assert "collects the salary" not in page
    assert session.state is not None and session.state.seq == 0


def test_a_refused_request_and_a_join_on_a_full_card_are_answered(table_on_card: tuple[Card, Session, Flask]) -> None:
    card, _session, app = table_on_card
    ann = phone_of(app, "Ann", "en")
    card.fill()
    refused = ann.act({"action": "buy", "player": "Ann", "property": "go"})
    assert refused.status_code == 422, refused.get_json()
    late: Any = Phone(client_at(app, "127.0.0.3"), app)
    late.me()
    joined = late.post("/api/join", {"code": "WRONG", "player": None}, key=False)
    assert joined.status_code in (403, 507), joined.get_data(as_text=True)
